"""The `pyramide` app as a whole: help, version, exit statuses, usage errors, the Typer speed shim."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from pyramide_cli import __version__
from pyramide_cli.cli import app, narrowed
from pyramide_cli.cli.exit_codes import EXIT_STATUS_MEANINGS, ExitStatus
from pyramide_cli.cli.typer_speed import plain_coercion

from cli_support import invoke, make_save

COMMANDS = ("deal", "show", "play", "replay")


def test_root_help_lists_the_commands_and_the_exit_status_table() -> None:
    outcome = invoke("--help")
    assert outcome.status == 0
    for command in COMMANDS:
        assert command in outcome.stdout
    for status, meaning in EXIT_STATUS_MEANINGS:
        assert f"  {int(status)}  {meaning}" in outcome.stdout
    assert [int(status) for status, _ in EXIT_STATUS_MEANINGS] == list(range(8))


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples(command: str) -> None:
    outcome = invoke(command, "--help")
    assert outcome.status == 0
    assert "Examples:" in outcome.stdout and f"pyramide {command}" in outcome.stdout
    assert "--json" in outcome.stdout and "Exit:" in outcome.stdout


def test_version() -> None:
    assert invoke("--version").stdout == f"pyramide {__version__}\n"


def test_usage_errors_exit_2_and_come_as_json_with_json() -> None:
    plain = invoke("play")
    assert plain.status == 2
    missing = invoke("replay", "--json")
    assert missing.status == 2
    assert missing.json() == {"schema": 2, "ok": False, "error": {"kind": "usage", "exit_status": 2,
                                                     "message": "Missing argument 'FILE' "
                                                                "(see `pyramide replay --help`)"}}
    unknown = invoke("show", "X", "--colour", "--json")
    assert unknown.status == 2 and "--colour" in unknown.json()["error"]["message"]


def test_an_unknown_command_suggests_the_close_one() -> None:
    outcome = invoke("shwo", "g.yaml")
    assert outcome.status == 2 and "show" in outcome.stderr


def test_the_narrowed_app_runs_the_same_command(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS")
    single = narrowed(app, ["play", str(path), "draw"])
    assert [info.callback.__name__ for info in single.registered_commands] == ["play"]
    assert narrowed(app, ["--help"]) is app and narrowed(app, ["nope"]) is app and narrowed(app, []) is app
    from typer.testing import CliRunner

    result = CliRunner().invoke(single, ["play", str(path), "draw", "--json"])
    assert result.exit_code == 0 and '"moves": 1' in result.stdout


def test_debug_switch_lets_the_traceback_through(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["show", "PY1-N-AAAAAA"], env={"PYRAMIDE_DEBUG": "1"})
    assert result.exit_code != 0 and type(result.exception).__name__ == "DealCodeError"
    quiet = CliRunner().invoke(app, ["show", "PY1-N-AAAAAA"], env={"PYRAMIDE_DEBUG": ""})
    assert quiet.exit_code == ExitStatus.BAD_INPUT and isinstance(quiet.exception, SystemExit)


class _Descriptor:
    def __init__(self, annotation: object, **flags: bool) -> None:
        self.annotation = annotation
        self.parameter_info = type("Info", (), {"parser": None, "click_type": None})()
        self.is_file = self.is_path = self.is_choice = self.is_ranged = self.is_list = False
        for name, value in flags.items():
            setattr(self, name, value)


class _Param:
    def __init__(self, multiple: bool = False) -> None:
        self.multiple = multiple
        self.nargs = -1 if multiple else 1


def test_plain_coercion_converts_like_typer_and_refuses_what_it_should() -> None:
    assert plain_coercion(_Descriptor(str)).coerce(b"10\xe2\x99\xa3", _Param(), None) == "10♣"
    assert plain_coercion(_Descriptor(int)).coerce(" 42 ", _Param(), None) == 42
    assert plain_coercion(_Descriptor(bool)).coerce("yes", _Param(), None) is True
    assert plain_coercion(_Descriptor(list[str], is_list=True)).coerce(("a", "b"), _Param(True), None) == ["a", "b"]
    assert plain_coercion(_Descriptor(list[str], is_list=True)).coerce(None, _Param(True), None) == ()
    assert plain_coercion(_Descriptor(int)).coerce(None, _Param(), None) is None
    with pytest.raises(typer.BadParameter, match="'x' is not a valid integer"):
        plain_coercion(_Descriptor(int)).coerce("x", _Param(), None)
    with pytest.raises(typer.BadParameter, match="not a valid boolean"):
        plain_coercion(_Descriptor(bool)).coerce("maybe", _Param(), None)
    with pytest.raises(typer.BadParameter, match="iterable"):
        plain_coercion(_Descriptor(list[str], is_list=True)).coerce("ab", _Param(True), None)
    with pytest.raises(typer.BadParameter):
        plain_coercion(_Descriptor(int)).coerce(True, _Param(), None)


@pytest.mark.parametrize("annotation, flags", [
    (Path, {"is_path": True}), (str, {"is_choice": True}), (float, {}), (list[float], {"is_list": True}),
    (int, {"is_ranged": True}),
])
def test_anything_but_plain_text_numbers_and_flags_keeps_typers_own_coercion(annotation: object,
                                                                             flags: dict[str, bool]) -> None:
    assert plain_coercion(_Descriptor(annotation, **flags)) is None
    assert plain_coercion(object()) is None


def test_every_json_document_starts_with_its_schema_version(tmp_path: Path) -> None:
    import json

    from cli_support import make_save

    save = str(make_save(tmp_path))
    for args in (["show", save], ["play", save, "KC"], ["replay", save], ["show", "PY1-X"], ["replay"]):
        outcome = invoke(*args, "--json")
        document = json.loads(outcome.stdout)
        assert list(document)[:2] == ["schema", "ok"] and document["schema"] == 2, args
