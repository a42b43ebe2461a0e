"""Every error a user can cause is one escaped, bounded line (issue 12, item 6), and user text in
success lines is escaped too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pyramide_cli.cli.common import one_line, shown
from pyramide_cli.engine.errors import escaped, quoted

from cli_support import WON_N_CODE, invoke, make_save, run, save_text

CODE = "PY1-N-AAAAAAS"
HOSTILE_NAME = "\x1b]0;pwned\x07\x1b[2Jt.yaml"  # sets the terminal title and clears the screen
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def assert_one_error_line(outcome: object, status: int) -> str:
    assert outcome.status == status, outcome
    assert outcome.stderr.startswith("pyramide: ") and outcome.stderr.count("\n") == 1, outcome
    assert not RAW_CONTROL.search(outcome.stderr), outcome
    return outcome.stderr


def test_escaped_writes_every_control_character_as_an_escape() -> None:
    assert escaped("a\x1b[2Jb\x07c\nd\u202ee\udcff") == "a\\x1b[2Jb\\x07c\\nd\\u202ee\\xff"
    assert escaped("plain ♣ text, 10♦") == "plain ♣ text, 10♦"


def test_quoted_bounds_text_and_numbers() -> None:
    long = "PY1-N-" + "A" * 100_000
    assert len(quoted(long)) < 120 and "(100,006 characters)" in quoted(long)
    assert quoted(int("f" * 20_000, 16)) == "a number of about 24,082 digits"
    assert len(quoted([[1] * 100] * 100)) < 200


def test_shown_and_one_line_keep_the_start_and_the_end() -> None:
    text = "start " + "x" * 10_000 + " end"
    assert shown(text).startswith("start ") and shown(text).endswith(" end") and len(shown(text)) < 260
    assert one_line("two\nlines") == "two\\nlines"


@pytest.mark.parametrize("args", [
    ["play", "{save}", "--bogus"],
    ["deal", "-o"],
    ["replay", "{save}", "--expect-score", "abc"],
    ["show"],  # no argument: the help, as asked for (not an error line)
    ["nosuchcommand"],
])
def test_click_usage_errors_are_one_pyramide_line(tmp_path: Path, args: list[str]) -> None:
    save = make_save(tmp_path, CODE)
    args = [arg.format(save=save) for arg in args]
    outcome = invoke(*args)
    if args == ["show"]:
        assert outcome.status == 2 and "Usage:" in outcome.stderr + outcome.stdout
        return
    message = assert_one_error_line(outcome, 2)
    assert "Usage:" not in message and "Try " not in message and "--help" in message


def test_click_usage_errors_stay_json_with_json(tmp_path: Path) -> None:
    outcome = invoke("replay", str(make_save(tmp_path, CODE)), "--expect-score", "abc", "--json")
    assert outcome.status == 2 and outcome.stderr == ""
    assert outcome.json()["error"]["kind"] == "usage" and "abc" in outcome.json()["error"]["message"]



NUMBER_OPTIONS = [
    ("deal", "--seed", "int"), ("replay", "--expect-score", "int"), ("replay", "--upto", "int"),
    ("solve", "--max-states", "int"), ("solve", "--timeout", "float"), ("hint", "--max-states", "int"),
    ("hint", "--timeout", "float"), ("survey", "--jobs", "int"), ("survey", "--chunk", "int"),
    ("survey", "--max-states", "int"), ("survey", "--timeout", "float"), ("stats", "--last", "int"),
    ("tournament", "--seed", "int"), ("tournament", "--jobs", "int"), ("tournament", "--max-actions", "int"),
    ("calibrate", "--jobs", "int"),
]
"""(command, option, kind): every option that takes a number."""


@pytest.mark.parametrize("command, option, kind", NUMBER_OPTIONS, ids=[" ".join(case[:2]) for case in NUMBER_OPTIONS])
def test_a_bad_number_gets_the_commands_own_message(command: str, option: str, kind: str) -> None:
    """The commands convert numbers themselves (cli/common.py), so the wording is the same under every
    Typer release the pin allows, whatever library that release validates with."""
    message = assert_one_error_line(invoke(command, option, "lots"), 2)
    named = f"'{option}' / '-j'" if option == "--jobs" else f"'{option}'"  # Click names the short form too
    assert message == f"pyramide: Invalid value for {named}: 'lots' is not a valid {kind} " \
                      f"(see `pyramide {command} --help`)\n"
    long = assert_one_error_line(invoke(command, option, "9" * 50 + "x" * 10_000), 2)
    assert "(10,050 characters) is not a valid" in long and len(long) < 300


def test_every_number_option_converts_its_own_value() -> None:
    """Read from the commands' signatures: every int or float option names its parser, and
    :data:`NUMBER_OPTIONS` lists them all (a new one cannot fall back to Typer's conversion unseen)."""
    import typing

    from pyramide_cli.cli import app, load_commands
    from pyramide_cli.cli.app import command_name
    from pyramide_cli.cli.common import real_number, whole_number

    load_commands()
    found = set()
    for info in app.registered_commands:
        for name, hint in typing.get_type_hints(info.callback, include_extras=True).items():
            if typing.get_origin(hint) is not typing.Annotated:
                continue
            kind, option = typing.get_args(hint)[:2]
            number = {int: "int", float: "float"}.get(next(t for t in (*typing.get_args(kind), kind)
                                                          if t is not type(None)))
            if number is not None:
                assert option.parser is {"int": whole_number, "float": real_number}[number], (info, option)
                found.add((command_name(info), "--" + name.replace("_", "-"), number))  # each is named so
    assert found == set(NUMBER_OPTIONS)

def test_a_100000_character_deal_code_is_not_echoed_whole() -> None:
    code = "PY1-N-" + "A" * 100_000
    for args in (["show", code], ["deal", code], ["solve", code]):
        assert len(assert_one_error_line(invoke(*args), 4)) < 700
    document = invoke("show", code, "--json").json()
    assert len(document["error"]["message"]) < 700


def test_a_long_option_value_is_not_echoed_whole(tmp_path: Path) -> None:
    outcome = invoke("replay", str(make_save(tmp_path, CODE)), "--expect-score", "9x" * 50_000)
    message = assert_one_error_line(outcome, 2)
    assert len(message) < 700


def test_hostile_file_names_are_escaped_in_success_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    deal = invoke("deal", CODE, "-o", HOSTILE_NAME)
    assert deal.status == 0 and "saved to \\x1b]0;pwned\\x07\\x1b[2Jt.yaml" in deal.stdout
    replay = invoke("replay", HOSTILE_NAME)
    assert replay.status == 0 and "replay \\x1b]0;pwned" in replay.stdout
    solve = invoke("solve", WON_N_CODE, "-o", "won" + HOSTILE_NAME)
    assert solve.status == 0 and "saved to won\\x1b" in solve.stdout
    session = invoke("play", HOSTILE_NAME, input="draw\n")
    for outcome in (deal, replay, solve, session):
        assert not RAW_CONTROL.search(outcome.stdout + outcome.stderr), outcome


def test_hostile_file_names_are_escaped_in_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    missing = assert_one_error_line(invoke("replay", "missing" + HOSTILE_NAME), 5)
    assert "\\x1b]0;pwned" in missing
    (tmp_path / HOSTILE_NAME).write_text(save_text(CODE, score=30))
    diverges = invoke("replay", HOSTILE_NAME)
    assert diverges.status == 1 and not RAW_CONTROL.search(diverges.stdout + diverges.stderr)


def test_a_file_name_that_is_not_utf8_is_printed_and_json_stays_valid(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    name = "g\udcff\udcfe.yaml"  # the bytes g\xff\xfe.yaml, as Python gets them from argv
    outcome = invoke("deal", CODE, "-o", name)
    assert outcome.status == 0 and "saved to g\\xff\\xfe.yaml" in outcome.stdout
    missing = invoke("replay", "m\udcff.yaml")
    assert "m\\xff.yaml" in assert_one_error_line(missing, 5)
    document = run("show", b"g\xff\xfe.yaml", "--json", cwd=tmp_path)  # type: ignore[arg-type]
    assert document.status == 0 and json.loads(document.stdout)["file"] == name  # valid UTF-8 (ASCII) JSON


def test_a_session_line_with_control_characters_is_escaped_in_the_error(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    message = assert_one_error_line(invoke("play", str(save), input="\x1b[2J\n"), 2)
    assert "\\x1b[2J" in message


def test_json_as_the_value_of_an_option_does_not_ask_for_json(tmp_path: Path) -> None:
    outcome = invoke("replay", str(make_save(tmp_path, CODE)), "--expect-score", "--json")
    assert "'--json' is not a valid int" in assert_one_error_line(outcome, 2) and outcome.stdout == ""
