"""The `pyramide` app as a whole: help, version, exit statuses, usage errors, lazily loaded commands."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import typer

from pyramide_cli import __version__
from pyramide_cli.cli import COMMANDS as COMMAND_MODULES
from pyramide_cli.cli import SUMMARIES, modules_for, narrowed
from pyramide_cli.cli.completion import COMPLETE_VAR as COMPLETION_VARIABLE
from pyramide_cli.cli.exit_codes import EXIT_STATUS_MEANINGS, ExitStatus

from cli_support import app, invoke, make_save, typer_imports_pydantic

COMMANDS = ("deal", "show", "play", "replay")


@pytest.mark.parametrize("arguments", [(), ("play",), ("solve",)])
def test_nothing_to_act_on_shows_the_commands_help_not_a_one_line_error(arguments: tuple[str, ...]) -> None:
    outcome = invoke(*arguments)
    usage = " ".join(("Usage: pyramide", *arguments))
    assert outcome.status == 2 and outcome.stdout == "" and outcome.stderr.startswith(usage)
    assert len(outcome.stderr.splitlines()) > 5 and "pyramide:" not in outcome.stderr


def test_root_help_lists_the_commands_and_the_exit_status_table() -> None:
    outcome = invoke("--help")
    assert outcome.status == 0
    for command in COMMANDS:
        assert command in outcome.stdout
    for status, meaning in EXIT_STATUS_MEANINGS:
        assert f"  {int(status)}  {meaning}" in outcome.stdout
    assert [int(status) for status, _ in EXIT_STATUS_MEANINGS] == [*range(8), 130]


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
                                                     "message": "Missing argument 'FILE|DIR...' "
                                                                "(see `pyramide replay --help`)"}}
    unknown = invoke("show", "X", "--colour", "--json")
    assert unknown.status == 2 and "--colour" in unknown.json()["error"]["message"]


def test_an_unknown_command_suggests_the_close_one() -> None:
    outcome = invoke("shwo", "g.yaml")
    assert outcome.status == 2 and "show" in outcome.stderr


def test_commands_lists_every_registered_command_and_its_module() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    assert set(group.commands) == set(COMMAND_MODULES)
    for name, module in COMMAND_MODULES.items():
        assert group.commands[name].callback.__module__ == f"pyramide_cli.cli.{module}", name  # type: ignore[union-attr]


def test_a_command_loads_only_its_own_module_and_help_loads_none() -> None:
    every = list(dict.fromkeys(COMMAND_MODULES.values()))
    assert modules_for(["play", "g.yaml", "draw"], {}) == ["play_commands"]
    assert modules_for(["show", "g.yaml"], {}) == ["deal_commands"]
    assert modules_for(["--lang", "fr", "show", "g.yaml"], {}) == ["deal_commands"]
    for arguments in (["shwo", "g.yaml"], ["--", "show", "g.yaml"]):
        assert modules_for(arguments, {}) == every, arguments
    for arguments in ([], ["--help"], ["-h"], ["--lang", "fr", "--help"], ["--lang=he"], ["--version"], ["--bogus"]):
        assert modules_for(arguments, {}) == [], arguments
    assert modules_for(["play", "g.yaml"], {COMPLETION_VARIABLE: "bash_complete"}) == every
    assert modules_for([], {COMPLETION_VARIABLE: "bash_complete"}) == every


def test_every_listed_command_has_its_summary_as_short_help_and_hidden_ones_none() -> None:
    group = typer.main.get_command(app)
    listed = {name for name, command in group.commands.items() if not command.hidden}  # type: ignore[attr-defined]
    assert set(SUMMARIES) == listed
    for name in listed:
        assert group.commands[name].short_help == SUMMARIES[name], name  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", ["80", "50"])
def test_root_help_without_the_command_modules_is_the_help_with_them(width: str) -> None:
    """`pyramide --help` imports no command module: it lists them from SUMMARIES, exactly as the
    commands themselves would be listed (order, wrapping, hidden ones left out)."""
    from typer.testing import CliRunner

    bare = copy.copy(app)
    bare.registered_commands = []  # the app as `pyramide --help` runs it: no command module loaded
    environment = {"COLUMNS": width}
    without = CliRunner().invoke(bare, ["--help"], env=environment, prog_name="pyramide")
    with_them = CliRunner().invoke(app, ["--help"], env=environment, prog_name="pyramide")
    assert without.exit_code == with_them.exit_code == 0
    assert "Commands:" in without.stdout and "  serve " in without.stdout and "calibrate" not in without.stdout
    assert without.stdout == with_them.stdout


def test_the_narrowed_app_builds_and_runs_only_the_named_command(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS")
    single = narrowed(app, ["hint", str(path)])
    assert list(typer.main.get_command(single).commands) == ["hint"]  # not solve and survey beside it
    assert narrowed(app, ["--help"]) is app and narrowed(app, ["nope"]) is app and narrowed(app, []) is app
    from typer.testing import CliRunner

    result = CliRunner().invoke(narrowed(app, ["play"]), ["play", str(path), "draw", "--json"])
    assert result.exit_code == 0 and '"moves": 1' in result.stdout


def test_a_command_runs_without_loading_the_other_command_modules(tmp_path: Path) -> None:
    make_save(tmp_path, "PY1-N-AAAAAAS")
    probe = (
        "import sys\n"
        "sys.argv = ['pyramide', 'play', 'g.yaml', 'draw', '--quiet']\n"
        "from pyramide_cli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('pyramide_cli.cli.') and "
        "m.endswith('_commands'))))\n"
    )
    import subprocess
    import sys

    completed = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.split() == ["pyramide_cli.cli.play_commands"]


def test_debug_switch_lets_the_traceback_through(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, ["show", "PY1-N-AAAAAA"], env={"PYRAMIDE_DEBUG": "1"})
    assert result.exit_code != 0 and type(result.exception).__name__ == "DealCodeError"
    quiet = CliRunner().invoke(app, ["show", "PY1-N-AAAAAA"], env={"PYRAMIDE_DEBUG": ""})
    assert quiet.exit_code == ExitStatus.BAD_INPUT and isinstance(quiet.exception, SystemExit)


@typer_imports_pydantic
def test_float_and_integer_options_need_no_pydantic(tmp_path: Path) -> None:
    """Typer 0.29 converts option values through pydantic (0.1 s a command); the pin keeps Click's types."""
    probe = (
        "import sys\n"
        "sys.argv = ['pyramide', 'solve', 'PY1-N-AAAAAAB', '--max-states', '1', '--timeout', '30', '--json']\n"
        "from pyramide_cli.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write(' '.join(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic')))\n"
    )
    import os
    import subprocess
    import sys

    environment = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_")}
    completed = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                               env=environment, timeout=60)
    assert '"schema"' in completed.stdout and completed.stderr == ""


def test_ctrl_c_in_a_command_is_one_line_and_status_130(capsys) -> None:
    """Ctrl-C anywhere in a command body: `pyramide: interrupted`, exit 130 (JSON: kind interrupted)."""
    import json

    import typer

    from pyramide_cli.cli.common import reporting

    for json_output in (False, True):
        try:
            with reporting(json_output):
                raise KeyboardInterrupt
        except typer.Exit as exit_:
            assert exit_.exit_code == 130
        captured = capsys.readouterr()
        if json_output:
            assert json.loads(captured.out)["error"]["kind"] == "interrupted" and captured.err == ""
        else:
            assert captured.err == "pyramide: interrupted\n" and captured.out == ""
