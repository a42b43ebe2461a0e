"""The save format: strict validation, migration, replay checks, round trips (pyramide_cli/save.py)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramide_cli.engine.cards import parse_card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.level import Level
from pyramide_cli.engine.moves import Move
from pyramide_cli.engine.position import Outcome, Termination
from pyramide_cli.engine.rules import Rules
from pyramide_cli.storage import save
from pyramide_cli.storage.save import (
    FORMAT_VERSION, SaveData, SaveFileError, game_from_save, load_game, parse_save, replay, write_save,
)
from pyramide_cli.engine.taps import TapSession
from pyramide_cli.storage.format_1 import Format1Game

from cli_support import WON_N_CODE, WON_N_LINE, game_of, save_text

CODE = "PY1-N-AAAAAAS"  # deal 18: row 7 is 5D KC 2S JH 3D 10H AS, waste 10C


def format_1_text(text: str) -> str:
    """A format-2 save's text as format 1 wrote it (no termination, no hints)."""
    lines = [line for line in text.splitlines() if not line.startswith(("termination:", "hints:"))]
    return "\n".join(lines).replace(f"pyramide-save: {FORMAT_VERSION}", "pyramide-save: 1") + "\n"


def test_new_save_text_starts_with_the_format_version_and_reads_back() -> None:
    data = SaveData.new(Deal.from_code(CODE))
    text = data.to_text()
    keys = [line.split(":")[0] for line in text.splitlines() if line and not line.startswith("#")]
    assert keys[0] == "pyramide-save"
    assert keys == ["pyramide-save", "deal", "rules", "status", "termination", "score", "moves", "time_played",
                    "hints", "selected", "assist", "history"]
    again = parse_save(text)
    assert again == data
    assert again.history == () and again.status is Outcome.PLAYING and again.selected is None


def test_a_played_game_round_trips_through_text_with_undos_and_selection() -> None:
    game = game_of(CODE, "KC", "draw", "undo", "draw")
    session = TapSession(game)
    session.play("JH")  # select a free card
    data = SaveData.from_game(game, None, time_played=12.34, selected=session.selected)
    again = parse_save(data.to_text())
    assert [str(move) for move in again.history] == ["KC", "draw", "undo", "draw"]
    assert again.moves == 3  # the undo does not count (R20) but stays in the history
    assert again.selected == parse_card("JH")
    assert again.time_played == pytest.approx(12.3)
    rebuilt = replay(again)
    assert rebuilt.game.position == game.position and rebuilt.selected == session.selected
    rebuilt = game_from_save(again)
    assert rebuilt.move_count == 3


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**20), st.lists(st.integers(0, 1000), max_size=60), st.sampled_from("NTEO"))
def test_save_then_load_then_replay_gives_the_same_game(number: int, choices: list[int], preset: str) -> None:
    game = Game(Deal.from_number(number, Rules.preset(preset)))
    for choice in choices:
        moves = game.legal_moves
        if not moves:
            break
        game.apply(moves[choice % len(moves)])
    rebuilt = game_from_save(parse_save(SaveData.from_game(game, None).to_text()))
    assert rebuilt.position == game.position
    assert rebuilt.history == game.history
    assert rebuilt.move_count == game.move_count
    assert rebuilt.undo_depth == game.undo_depth


def test_level_and_daily_are_optional_validated_fields() -> None:
    text = save_text(CODE).replace("history:", "level: medium\ndaily: 2026-11-29\nhistory:")
    data = parse_save(text)
    assert data.level is Level.MEDIUM and data.daily == "2026-11-29"
    assert parse_save(data.to_text()) == data
    assert "level: medium" in data.to_text()
    assert "level" not in save_text(CODE)  # left out when not set


@pytest.mark.parametrize("line, field, words", [
    ("level: impossible", "level", "easy, medium, hard, expert"),
    ("daily: 2026-13-45", "daily", "YYYY-MM-DD"),
    ("daily: yesterday", "daily", "YYYY-MM-DD"),
    ("colour: red", "colour", "unknown key"),
])
def test_bad_optional_or_unknown_fields_are_named(line: str, field: str, words: str) -> None:
    with pytest.raises(SaveFileError, match=words) as caught:
        parse_save(save_text(CODE).replace("history:", line + "\nhistory:"))
    assert caught.value.field == field


@pytest.mark.parametrize("replace_from, replace_to, field, words", [
    ("score: 0", "score: '0'", "score", "whole number"),
    ("score: 0", "score: -10", "score", "whole number"),
    ("score: 0", "score: true", "score", "whole number"),
    ("moves: 0", "moves: 1.5", "moves", "whole number"),
    ("status: playing", "status: paused", "status", "playing, won, lost"),
    ("assist: true", "assist: 'yes'", "assist", "true or false"),
    ("time_played: 0.0", "time_played: -1", "time_played", "seconds"),
    ("time_played: 0.0", "time_played: .nan", "time_played", "seconds"),
    ("selected: null", "selected: 1Z", "selected", "unknown card"),
    ("selected: null", "selected: [7C]", "selected", "card name"),
    ("deal: PY1-N-AAAAAAS", "deal: PY1-N-AAAAAA", "deal", "6 characters"),
    ("deal: PY1-N-AAAAAAS", "deal: 18", "deal", "deal code"),
    ("rules: N", "rules: T", "rules", "the code decides"),
    ("rules: N", "rules: Z+fast", "rules", "unknown rules preset"),
    ("history: []", "history: [KC, 10C-3S]", "history", "action 2"),
    ("history: []", "history: [KC, 42]", "history", "action 2 is 42"),
    ("history: []", "history: KC", "history", "list of moves"),
    ("pyramide-save: 2", "pyramide-save: one", "pyramide-save", "whole number"),
])
def test_wrong_types_and_values_are_bad_files_naming_the_field(replace_from: str, replace_to: str, field: str,
                                                               words: str) -> None:
    text = save_text(CODE)
    assert replace_from in text
    with pytest.raises(SaveFileError, match=words) as caught:
        parse_save(text.replace(replace_from, replace_to))
    assert caught.value.field == field


@pytest.mark.parametrize("key", ["deal", "status", "score", "moves", "history"])
def test_missing_required_keys_are_named(key: str) -> None:
    text = "".join(line for line in save_text(CODE).splitlines(keepends=True) if not line.startswith(key + ":"))
    with pytest.raises(SaveFileError, match=f"missing key '{key}'"):
        parse_save(text)


def test_optional_keys_take_their_defaults() -> None:
    text = "pyramide-save: 1\ndeal: py1-n-aaaaaas\nstatus: playing\nscore: 10\nmoves: 1\nhistory: [KC]\n"
    data = parse_save(text)
    assert data.deal == CODE  # codes are case-insensitive; the canonical form is kept
    assert data.rules == "N" and data.assist is True and data.time_played == 0 and data.selected is None


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("   \n", "empty"),
    ("pyramide-save: 1\ndeal: [unclosed\n", "not valid YAML at line 3, column 1"),
    ("- just\n- a list\n", "expected a mapping of keys, found a list"),
    ("hello", "found text"),
    ("deal: PY1-N-AAAAAAS\n", "no 'pyramide-save' format version"),
    ("pyramide-layout: 1\nrows: []\n", "this is a layout file"),
    ("pyramide-save: 1\npyramide-save: 1\n", "duplicate key 'pyramide-save'"),
    ("pyramide-save: 1\n? [a, b]\n: 1\n", "a list or mapping"),
    ("pyramide-save: 1\nx: !!python/object:os.system ls\n", "not valid YAML"),
])
def test_malformed_files_are_refused_clearly(text: str, words: str) -> None:
    with pytest.raises(SaveFileError, match=words):
        parse_save(text)


def test_a_truncated_file_is_refused() -> None:
    text = save_text(WON_N_CODE, *WON_N_LINE)
    for cut in (len(text) // 2, len(text) - 30, text.index("history:") + 12):
        with pytest.raises(SaveFileError):
            game_from_save(parse_save(text[:cut]))


def test_a_newer_format_is_refused_and_an_unknown_older_one_too() -> None:
    newer = save_text(CODE).replace(f"pyramide-save: {FORMAT_VERSION}", f"pyramide-save: {FORMAT_VERSION + 1}")
    with pytest.raises(SaveFileError, match="newer pyramide"):
        parse_save(newer)
    with pytest.raises(SaveFileError, match="unknown save format 0"):
        parse_save(save_text(CODE).replace(f"pyramide-save: {FORMAT_VERSION}", "pyramide-save: 0"))


def test_migrations_chain_up_to_the_current_format(monkeypatch: pytest.MonkeyPatch) -> None:
    def from_zero(document: dict) -> dict:
        document = dict(document)
        document["pyramide-save"] = 1
        document["moves"] = document.pop("counter")
        return document

    monkeypatch.setitem(save.MIGRATIONS, 0, from_zero)
    old = (format_1_text(save_text(CODE, "KC")).replace("pyramide-save: 1", "pyramide-save: 0")
           .replace("moves:", "counter:"))
    assert parse_save(old).moves == 1


@pytest.mark.parametrize("field, value, message", [
    ("score", 30, "score: the file says 30 but its history gives 10"),
    ("moves", 5, "moves: the file says 5 but its history gives 1"),
    ("status", "won", "status: the file says won but its history gives playing"),
    ("selected", "AD", "selected: AD is not a card in play"),
])
def test_a_file_that_disagrees_with_its_history_is_bad_naming_the_field(field: str, value: object,
                                                                          message: str) -> None:
    data = parse_save(save_text(CODE, "KC", **{field: value}))
    with pytest.raises(SaveFileError, match=message) as caught:
        game_from_save(data)
    assert caught.value.field == field


def test_replay_reports_an_illegal_history_entry_and_stops_before_it() -> None:
    data = parse_save(save_text(CODE, "KC").replace("history: [KC]", "history: [KC, draw, 7C+7S, draw]"))
    result = replay(data)
    assert result.first is not None
    assert result.first.field == "history" and result.first.action == 3
    assert "action 3 (7S+7C)" in result.first.message
    assert result.game.history == [Move.parse("KC"), Move.parse("draw")]


def test_replay_lists_every_recorded_field_that_disagrees() -> None:
    data = parse_save(save_text(CODE, "KC", score=0, moves=0))
    assert [divergence.field for divergence in replay(data).divergences] == ["score", "moves"]


def test_write_keeps_the_leading_comments_of_a_file(tmp_path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("# my favourite deal\n" + save_text(CODE).split("\n", 2)[2], encoding="utf-8")
    saved = load_game(path)
    saved.game.apply(Move.parse("KC"))
    write_save(path, saved.updated(saved.session))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# my favourite deal\npyramide-save: 2\n")
    assert load_game(path).data.history == (Move.parse("KC"),)


@pytest.mark.parametrize("written", ["2026-02-28", "'2026-02-28'"])
def test_daily_reads_a_plain_or_quoted_date(written: str) -> None:
    data = parse_save(save_text(CODE).replace("history:", f"daily: {written}\nhistory:"))
    assert data.daily == datetime.date(2026, 2, 28).isoformat()
    with pytest.raises(SaveFileError, match="YYYY-MM-DD"):
        parse_save(save_text(CODE).replace("history:", "daily: 2026-02-30\nhistory:"))


# -- format 2: termination, hints, resign; format 1 still read (contract 2) -----------------------


def test_termination_and_hints_are_recorded_and_checked() -> None:
    text = save_text(CODE, "KC", "resign")
    assert "status: lost\ntermination: resigned\n" in text and "hints: 0\n" in text
    data = parse_save(text)
    assert data.termination is Termination.RESIGNED and game_from_save(data).is_over
    with_hints = parse_save(text.replace("hints: 0", "hints: 3"))
    assert with_hints.hints == 3 and parse_save(with_hints.to_text()) == with_hints
    wrong = parse_save(save_text(CODE, "KC", termination="dead"))
    with pytest.raises(SaveFileError, match="termination: the file says dead but its history gives null") as caught:
        game_from_save(wrong)
    assert caught.value.field == "termination"
    unchecked = parse_save("\n".join(line for line in save_text(CODE, "KC").splitlines()
                                     if not line.startswith(("termination", "hints"))))
    assert unchecked.hints == 0 and game_from_save(unchecked).score == 10  # both keys are optional


@pytest.mark.parametrize("line, words", [
    ("termination: finished", "termination: expected null"),
    ("hints: -1", "hints: expected a whole number"),
    ("hints: many", "hints: expected a whole number"),
])
def test_bad_termination_and_hints_values(line: str, words: str) -> None:
    key = line.split(":")[0]
    text = "\n".join(line if item.startswith(f"{key}:") else item for item in save_text(CODE).splitlines())
    with pytest.raises(SaveFileError, match=words):
        parse_save(text)


def test_nothing_may_follow_a_resignation() -> None:
    data = parse_save(save_text(CODE, "KC", "resign").replace("history: [KC, resign]", "history: [KC, resign, draw]"))
    result = replay(data)
    assert result.first is not None and result.first.action == 3 and "the game is over" in result.first.message


def test_a_format_1_file_loads_and_is_written_back_as_format_2_once_it_changes(tmp_path) -> None:
    path = tmp_path / "old.yaml"
    old_text = format_1_text(save_text(CODE, "KC", "draw"))
    path.write_text(old_text, encoding="utf-8")
    data = parse_save(old_text)
    assert data.format == 1 and "termination" not in data.to_text() and "pyramide-save: 1" in data.to_text()
    saved = load_game(path)
    assert saved.data.format == 2 and not isinstance(saved.game, Format1Game)  # valid by today's rule: upgradable
    assert saved.updated(saved.session) == saved.data  # nothing changed: nothing to write
    saved.game.push("draw")
    write_save(path, saved.updated(saved.session))
    again = parse_save(path.read_text(encoding="utf-8"))
    assert again.format == 2 and again.termination is None and len(again.history) == 3


def test_a_format_1_file_may_not_carry_format_2_keys() -> None:
    text = format_1_text(save_text(CODE)).replace("history:", "hints: 2\nhistory:")
    with pytest.raises(SaveFileError, match="a format-1 save has no 'hints' key"):
        parse_save(text)


def test_a_game_that_drew_on_after_its_end_is_only_ever_written_as_format_1(tmp_path) -> None:
    from pyramide_cli.api import read_game, write_game

    from cli_support import EXAMPLES

    game = read_game(EXAMPLES / "stuck-n.yaml")  # format 1, drew on after its game was dead
    assert isinstance(game, Format1Game) and game.is_over
    write_game(tmp_path / "copy.yaml", game)
    again = load_game(tmp_path / "copy.yaml")
    assert again.data.format == 1 and again.game.history == game.history and again.game.is_over
    fresh = Game(Deal.from_code(CODE))
    fresh.push("KC")
    assert not isinstance(fresh, Format1Game) and SaveData.from_game(fresh, None).format == 2
