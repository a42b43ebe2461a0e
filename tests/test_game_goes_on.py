"""A game that goes on (issue 14.2): new, restart, resign at the prompt, --new-if-finished, kept games."""

from __future__ import annotations

import builtins
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import WON_N_CODE, WON_N_LINE, invoke, make_save, unwritable_folder

from pyramide_cli.cli import grade_commands
from pyramide_cli.cli.interactive import run_session
from pyramide_cli.cli.render import Style
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.level import Level
from pyramide_cli.engine.rules import Rules
from pyramide_cli.storage.archive import keep_text, replace_game
from pyramide_cli.storage.files import FileAccessError
from pyramide_cli.storage.save import SaveData, load_game
from pyramide_cli.storage.stats import StatsDB


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    monkeypatch.setenv("PYRAMIDE_HOME", str(folder))
    return folder


def prompt(path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: list[str],
           db: Path | None = None) -> tuple[str, str]:
    """A session at a prompt: ``input()`` answers the lines (questions included), then end of input."""
    feed: Iterator[str] = iter(lines)

    def fake_input(text: str = "") -> str:
        sys.stdout.write(text)
        item = next(feed, None)
        if item is None:
            raise EOFError
        return item

    monkeypatch.setattr(builtins, "input", fake_input)
    run_session(path, io.StringIO(), True, None, Style(ascii=True), False, False, stats=db)
    captured = capsys.readouterr()
    return captured.out, captured.err


def kept_games(home: Path) -> list[Path]:
    return sorted((home / "games").glob("*.yaml"))


def test_winning_at_the_prompt_says_so_refuses_undo_and_new_keeps_the_game(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])
    db = tmp_path / "stats.sqlite3"
    out, err = prompt(path, monkeypatch, capsys, [WON_N_LINE[-1], "undo", "new"], db)
    assert "You won: the pyramid is cleared (score 280, 73 moves" in out
    assert "Type new for a new deal" in out and "undo: The game is over" in out
    [kept] = kept_games(home)
    assert kept.name.endswith(f"-{WON_N_CODE}-won.yaml") and f"The last game is kept as {kept}" in out
    assert load_game(kept).game.is_over and load_game(kept).data.score == 280
    now = load_game(path)
    assert now.data.history == () and now.game.deal.rules.name == "N" and now.data.deal != WON_N_CODE
    assert f"A new deal: {now.data.deal} (rules N)." in out
    assert [game.result for game in StatsDB(db).games()] == ["won"]  # counted at its end, not again when kept
    assert err == ""


def test_new_on_a_game_in_progress_asks_and_resigns_it(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, "PY1-T-AAAAAAS", "draw")
    before = path.read_bytes()
    db = tmp_path / "stats.sqlite3"
    out, _ = prompt(path, monkeypatch, capsys, ["new", "n"], db)
    assert "ends as resigned and is kept. Go on? [y/N]" in out
    assert path.read_bytes() == before and kept_games(home) == [] and StatsDB(db).games() == []
    out, _ = prompt(path, monkeypatch, capsys, ["new", "y"], db)
    [kept] = kept_games(home)
    assert kept.name.endswith("-PY1-T-AAAAAAS-resigned.yaml")
    assert [str(move) for move in load_game(kept).data.history] == ["draw", "resign"]
    [record] = StatsDB(db).games()
    assert (record.result, record.termination, record.rules) == ("lost", "resigned", "T")
    assert load_game(path).data.rules == "T" and load_game(path).data.deal != "PY1-T-AAAAAAS"


def test_restart_plays_the_same_deal_again_with_its_level(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.yaml"
    deal = Deal.from_code("PY1-N-AAAAAAS")
    path.write_text(SaveData.new(deal, level=Level.HARD).to_text(), encoding="utf-8")
    out, _ = prompt(path, monkeypatch, capsys, ["KC", "restart", "y"])
    now = load_game(path).data
    assert now.deal == "PY1-N-AAAAAAS" and now.history == () and now.level is Level.HARD
    assert "The same deal again: PY1-N-AAAAAAS (rules N), level hard." in out
    assert len(kept_games(home)) == 1


def test_a_deal_not_yet_played_is_replaced_without_keeping_it(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, "PY1-E-AAAAAAS")
    out, _ = prompt(path, monkeypatch, capsys, ["new"])
    assert "Go on?" not in out and kept_games(home) == [] and load_game(path).data.rules == "E"


def test_new_with_a_level_deals_a_deal_of_that_level(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    asked: list[tuple[object, ...]] = []

    def stand_in(level: str, seed: object, daily: bool, date: object, rules: Rules,
                 code_given: bool) -> tuple[Deal, Level, None]:
        asked.append((level, rules))
        return Deal.from_number(2, rules), Level(level), None

    monkeypatch.setattr(grade_commands, "pick_deal", stand_in)
    path = make_save(tmp_path, "PY1-T-AAAAAAS")
    out, err = prompt(path, monkeypatch, capsys, ["new bogus", "new HARD"])
    assert "new 'bogus': a level is easy, medium, hard or expert" in err
    assert asked == [("hard", Deal.from_code("PY1-T-AAAAAAS").rules)]
    assert load_game(path).data.deal == "PY1-T-AAAAAAC" and load_game(path).data.level is Level.HARD
    assert "Looking for a Hard deal..." in out


def test_resign_at_the_prompt_ends_and_counts_the_game(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", "KC")
    db = tmp_path / "stats.sqlite3"
    out, _ = prompt(path, monkeypatch, capsys, ["resign", "n", "resign", "y", "KD"], db)
    assert out.count("Resign this game? It counts as a loss in your statistics. [y/N] ") == 2  # asked each time
    assert "You resigned this game (score 10, 1 move," in out and "KD: The game is over" in out
    assert [game.termination for game in StatsDB(db).games()] == ["resigned"]
    assert load_game(path).data.history[-1].kind.value == "resign" and len(load_game(path).data.history) == 2


def test_restart_of_a_game_in_progress_is_not_a_resignation(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: `restart` replays the same deal; the attempt is kept in the games folder and counted
    nowhere (no resignation breaks the streak); the game that follows is counted once when it ends."""
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:3])
    db = tmp_path / "stats.sqlite3"
    out, _ = prompt(path, monkeypatch, capsys, ["restart", "n", "restart", "y", *WON_N_LINE], db)
    assert out.count("Start this deal again? This game is kept, not counted in your statistics. [y/N] ") == 2
    [kept] = kept_games(home)
    assert kept.name.endswith(f"{WON_N_CODE}-playing.yaml") and load_game(kept).data.history == tuple(
        load_game(kept).game.history)
    assert [(game.result, game.termination) for game in StatsDB(db).games()] == [("won", "cleared")]


@pytest.mark.parametrize(("language", "words"), [
    ("fr", ["aide", "talon", "indice", "annuler", "défausse", "quitter", "KC"]),
    ("sv", ["hjälp", "talong", "tips", "ångra", "kasthög", "avsluta", "KC"]),
    ("he", ["עזרה", "קופה", "רמז", "בטל", "השלכה", "יציאה", "KC"]),
])
def test_the_boards_words_are_commands_in_their_language(
        tmp_path: Path, home: Path, language: str, words: list[str]) -> None:
    """Issue 22: help, stock, hint, undo, waste and quit in the player's language, from a pipe; the
    session ends at the quit word (the KC after it is never played)."""
    path = make_save(tmp_path, "PY1-N-AAAAAAS")
    outcome = invoke("--lang", language, "play", str(path), input="\n".join(words) + "\n")
    assert outcome.status == 0, outcome
    history = [str(move) for move in load_game(path).data.history]
    assert history == ["draw", "undo"]  # talon drew, annuler undid; the waste tap only selected its card
    assert load_game(path).data.hints == 1
    english = invoke("play", str(path), input="talon\n")
    assert english.status == 2 and "unknown word 'talon'" in english.stderr  # French words under French only
    as_argument = invoke("--lang", language, "play", str(path), words[1])
    assert as_argument.status == 0 and [str(move) for move in load_game(path).data.history][-1] == "draw"


def test_hints_at_the_prompt_are_counted_in_the_save_and_the_statistics(
        tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])
    before = path.read_bytes()
    assert invoke("hint", str(path)).status == 0 and path.read_bytes() == before  # `pyramide hint` counts none
    db = tmp_path / "stats.sqlite3"
    out, _ = prompt(path, monkeypatch, capsys, ["hint", "hint", WON_N_LINE[-1], "hint"], db)
    assert out.count("hint: ") == 3
    assert load_game(path).data.hints == 2  # the hint after the end is no hint for this game
    assert [game.hints for game in StatsDB(db).games()] == [2]


def test_a_piped_session_may_say_new_and_restart(tmp_path: Path, home: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS")
    outcome = invoke("play", str(path), input="KC\nrestart\ndraw\nnew\n", env={"PYRAMIDE_HOME": str(home)})
    assert outcome.status == 0, outcome
    assert len(kept_games(home)) == 2 and load_game(path).data.history == ()
    as_args = invoke("play", str(path), "new")
    assert as_args.status == 2 and "works in a play session" in as_args.stderr
    bad = invoke("play", str(path), input="new bogus\n")
    assert bad.status == 2 and "a level is easy" in bad.stderr


def test_play_new_if_finished_keeps_the_finished_game_and_deals_a_new_one(tmp_path: Path, home: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    finished = path.read_bytes()
    db = tmp_path / "stats.sqlite3"
    outcome = invoke("play", str(path), "--new-if-finished", "--db", str(db), "--json", input="draw\n")
    assert outcome.status == 0, outcome
    document = outcome.json()
    [kept] = kept_games(home)
    assert document["kept"] == [str(kept)] and kept.read_bytes() == finished  # kept byte for byte
    assert document["state"]["history"] == ["draw"] and document["state"]["rules"] == "N"
    assert [game.deal for game in StatsDB(db).games()] == [WON_N_CODE]  # never recorded at its end: now
    again = invoke("play", str(path), "--new-if-finished", "--db", str(db), "-q", input="")
    assert again.status == 0 and len(kept_games(home)) == 1  # a game in progress is left alone


def test_a_game_that_cannot_be_kept_is_not_replaced(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    before = path.read_bytes()
    with unwritable_folder(tmp_path / "locked") as folder, pytest.raises(FileAccessError):
        replace_game(path, SaveData.new(Deal.from_number(5)), folder / "games")
    assert path.read_bytes() == before


def test_kept_names_never_replace_a_file(tmp_path: Path) -> None:
    first = keep_text(tmp_path, "2026-11-30-PY1-N-AAAAAAS-won.yaml", "one")
    second = keep_text(tmp_path, "2026-11-30-PY1-N-AAAAAAS-won.yaml", "two")
    assert (first.name, second.name) == ("2026-11-30-PY1-N-AAAAAAS-won.yaml", "2026-11-30-PY1-N-AAAAAAS-won-2.yaml")
    assert (first.read_text(), second.read_text()) == ("one", "two")
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_a_changed_file_is_not_replaced(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", "KC")
    replaced = replace_game(path, SaveData.new(Deal.from_number(5)), tmp_path / "games", expected_text="other")
    assert not replaced.replaced and load_game(path).data.deal == "PY1-N-AAAAAAS"
