"""The full-screen board (issue 22) in Textual's headless harness: whole games by clicks and by keys,
refusals in every language, undo, hints from a selection, watching the solver, resizing, and a
closed terminal in the middle of a game."""

from __future__ import annotations

import ast
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from board_support import board, card, click, drive, keys_of, screen_text, taps_of, where
from cli_support import ROOT, WON_N_CODE, WON_N_LINE, invoke, make_save

from pyramide_cli.board.adapter import STOCK, WASTE
from pyramide_cli.engine.moves import Move
from pyramide_cli.i18n import tr
from pyramide_cli.storage.save import load_game
from pyramide_cli.storage.stats import StatsDB

START = "PY1-N-AAAAAAS"
"""Bottom row at the start: 5♦ K♣ 2♠ J♥ 3♦ 10♥ A♠; 9♥ above 5♦ and K♣ is blocked; 10♣ on the waste."""
SOURCE_MESSAGES = {  # docs/rules.md §8, the sources' own words
    "en": ("This card is blocked by another card", "The sum must equal 13"),
    "fr": ("Cette carte est bloquée par une autre carte", "La somme doit être égale à 13"),
    "he": ("הקלף הזה חסום על ידי קלף אחר", "הסכום חייב להיות שווה ל־13"),
    "sv": ("Det här kortet blockeras av ett annat", "Summan måste vara lika med 13"),
}


def history(path: Path) -> list[str]:
    return [str(move) for move in load_game(path).data.history]


LAST_MOVES = 22
"""The games below are played from a save of the won line's first moves: its last 22 moves by the board
reach every kind of tap (pairs of the pyramid, with the waste's top card, the stock's draws and its
recycle, a 10 and a jack by name) and the end screen."""


def won_and_counted_once(path: Path, stats: Path) -> None:
    assert history(path) == WON_N_LINE
    assert [game.result for game in StatsDB(stats).games()] == ["won"]
    assert invoke("replay", str(path), "--expect", "won", "--expect-score", "280").status == 0


def test_a_whole_game_won_by_mouse_clicks_alone_ends_on_the_end_screen(tmp_path: Path) -> None:
    path, stats = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-LAST_MOVES]), tmp_path / "stats.sqlite3"
    app = board(path, stats=stats)

    async def body(pilot) -> None:
        for text in WON_N_LINE[-LAST_MOVES:]:
            for target in taps_of(app, Move.parse(text)):
                await click(pilot, target)
        await pilot.pause()
        assert app.panel == "end"
        assert "You won: the pyramid is cleared (score 280, 73 moves" in screen_text(app)
        assert "1 played, 1 won; wins in a row now: 1." in screen_text(app)

    drive(app, body)
    won_and_counted_once(path, stats)


def test_a_whole_game_won_by_keys_alone_ends_on_the_end_screen(tmp_path: Path) -> None:
    path, stats = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-LAST_MOVES]), tmp_path / "stats.sqlite3"
    app = board(path, stats=stats)

    async def body(pilot) -> None:
        for text in WON_N_LINE[-LAST_MOVES:]:
            await pilot.press(*keys_of(Move.parse(text)))
        await pilot.pause()
        assert app.panel == "end" and "You won" in screen_text(app)
        await pilot.press("b")  # back to the board: the game is not counted again
        await pilot.press("q")

    drive(app, body)
    won_and_counted_once(path, stats)


def test_arrows_move_the_focus_and_enter_taps_it(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        bottom = app.session.game.position.rows()[6]
        await pilot.press("down")  # the first arrow lands on the bottom row's first free card, not the stock
        assert app.focus_target == bottom[0] and not app.session.data.history
        await pilot.press("j")
        assert app.focus_target == STOCK
        await pilot.press("right")
        assert app.focus_target == WASTE
        await pilot.press("up")
        assert app.focus_target in bottom
        above = bottom.index(app.focus_target)
        await pilot.press("left", "left")
        assert app.focus_target == bottom[above - 2]
        await pilot.press("k", "j")  # up to a blocked card and back down
        assert app.focus_target in bottom
        await pilot.press(*["l"] * 7)  # right as far as the row goes
        assert app.focus_target == card("AS")
        await pilot.press("enter")
        assert app.session.data.selected == card("AS")
        await pilot.press("space")  # the same card again: unselected (R13)
        assert app.session.data.selected is None

    drive(app, body)
    assert load_game(path).data.selected is None


@pytest.mark.parametrize("lang", list(SOURCE_MESSAGES))
def test_r11_r13_refusals_appear_on_the_message_line_in_each_language(tmp_path: Path, lang: str) -> None:
    path = make_save(tmp_path, START)
    app = board(path, lang=lang)
    blocked, sum_not_13 = SOURCE_MESSAGES[lang]

    async def body(pilot) -> None:
        await click(pilot, card("5D"))
        await pilot.press("9", "h")  # a blocked card typed by name (R11)
        assert app.refused and any(blocked in tr(message) for message in app.messages)
        await click(pilot, card("2S"))  # 5 + 2: refused, the second card stays selected (R13)
        assert app.refused and any(sum_not_13 in tr(message) for message in app.messages)
        assert app.session.data.selected == card("2S")

    drive(app, body)
    assert load_game(path).data.selected == card("2S")


def test_r15_without_error_help_a_refusal_shows_only_its_reason(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path, assist=False)

    async def body(pilot) -> None:
        await click(pilot, card("9H"))
        assert app.messages == ("9♥: refused (blocked)",)

    drive(app, body)


def test_r20_undo_puts_the_pair_back_and_is_saved(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        await click(pilot, card("3D"))
        await click(pilot, WASTE)  # 3♦ + 10♣
        assert app.session.game.score == 10 and card("3D") not in app.session.game.position.free_cards
        await pilot.press("u")
        assert app.session.game.score == 0 and card("3D") in app.session.game.position.free_cards
        where(app, card("3D"))  # drawn again, clickable

    drive(app, body)
    assert history(path) == ["10C+3D", "undo"]


def test_a_hint_from_a_selected_card_that_is_not_in_its_move_says_to_clear_it_first(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        await click(pilot, card("5D"))
        await pilot.press("H")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.hint is not None and app.hint.cards == (card("KC"),)  # R27: the king; nothing played
        assert app.hint.unselect is None and app.session.game.move_count == 0
        await click(pilot, card("KC"))
        await click(pilot, card("2S"))
        await pilot.press("H")
        await app.workers.wait_for_complete()
        await pilot.pause()
        hinted = app.hint
        assert hinted is not None and hinted.cards and card("2S") not in hinted.cards or hinted.stock
        if hinted.unselect is not None:
            assert hinted.unselect == card("2S") and "Tap 2♠ to clear the selection" in screen_text(app)

    drive(app, body)
    assert load_game(path).data.hints == 2


def test_a_hint_with_one_of_its_cards_selected_leaves_only_the_other_to_tap() -> None:
    from pyramide_cli.board.adapter import hint_for_selection
    from pyramide_cli.engine.game import Game

    game = Game.from_code(START)
    game.push("KC")
    first = hint_for_selection(game, None)
    assert len(first.cards) == 2 and first.unselect is None
    second = hint_for_selection(game, first.cards[0])
    assert second.cards == first.cards[1:] and second.unselect is None


def test_esc_cancels_a_hint_that_is_thinking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from pyramide_cli.board import adapter

    released = threading.Event()
    real_hint = adapter.hint_for_selection

    def slow_hint(game, selected):
        released.wait(10)
        return real_hint(game, selected)

    monkeypatch.setattr(adapter, "hint_for_selection", slow_hint)
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        await pilot.press("H")
        assert app.thinking and "Thinking (Esc cancels)" in screen_text(app)
        await pilot.press("escape")
        assert not app.thinking and app.messages == ("Cancelled.",)
        released.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.hint is None  # the search finished, its answer left behind

    drive(app, body)
    assert load_game(path).data.hints == 0


def test_watching_the_solver_plays_its_line_and_leaves_the_save_unchanged(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:20])
    before = path.read_bytes()
    app = board(path, watch=True)

    async def body(pilot) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.watching is not None and app.line is not None and app.line.winnable
        await pilot.press("space", "full_stop", "full_stop")
        assert app.line_index >= 2 and app.watching.move_count == app.session.game.move_count + app.line_index
        for _ in range(len(app.line.moves)):
            await pilot.press("full_stop")
        assert app.watching.position.pyramid_removed == 28 and "The line is played" in screen_text(app)
        await pilot.press("escape")
        assert app.watching is None and app.session.game.move_count == 20 - WON_N_LINE[:20].count("undo")

    drive(app, body)
    app.session.finish()
    assert path.read_bytes() == before


def test_watching_a_position_that_cannot_be_won_goes_to_the_most_pyramid_cards(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAU4")  # R17's example: no more than a few pyramid cards ever come off
    before = path.read_bytes()
    app = board(path)

    async def body(pilot) -> None:
        await pilot.press("w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.line is not None and app.line.winnable is False and "cannot be won" in screen_text(app)
        for _ in range(len(app.line.moves)):
            await pilot.press("full_stop")
        assert app.watching is not None and app.watching.position.pyramid_removed == app.line.most
        await pilot.press("q")

    drive(app, body)
    app.session.finish()
    assert path.read_bytes() == before


def test_resize_to_80x24_draws_the_board_and_too_small_says_so_in_one_line(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path, lang="fr")

    async def body(pilot) -> None:
        await pilot.resize_terminal(40, 12)
        await pilot.pause()
        text = screen_text(app)
        assert text.startswith("Le terminal est trop petit pour le plateau") and "40x12" in text
        assert "\n" not in text.strip()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        assert "[R♣]" in text and "talon 23" in text and all(len(line) <= 80 for line in text.splitlines())
        assert len(text.splitlines()) <= 24

    drive(app, body, size=(120, 40))


def test_restart_of_a_game_in_progress_replays_the_deal_and_counts_nothing(tmp_path: Path) -> None:
    path, stats = make_save(tmp_path, START), tmp_path / "stats.sqlite3"
    app = board(path, stats=stats)

    async def body(pilot) -> None:
        await click(pilot, card("KC"))
        await pilot.press("r")
        assert app.panel == "confirm:r"
        await pilot.press("y")
        assert app.session.game.move_count == 0 and app.session.game.deal.code == START

    drive(app, body)
    assert history(path) == [] and StatsDB(stats).games() == []


def test_another_process_playing_the_file_is_shown_never_overwritten(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        assert invoke("play", str(path), "KC").status == 0
        app.tick()
        assert app.session.game.move_count == 1 and "another process" in app.messages[0]
        await click(pilot, card("3D"))
        await click(pilot, WASTE)

    drive(app, body)
    assert history(path) == ["KC", "10C+3D"]


def test_only_the_board_imports_textual() -> None:
    package = ROOT / "pyramide_cli"
    importers = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(name.split(".")[0] == "textual" for name in names):
                importers.add(path.relative_to(package).parts[0])
    assert importers == {"board"}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals and signals")
def test_a_closed_terminal_in_mid_game_loses_nothing(tmp_path: Path) -> None:
    import pty

    path = make_save(tmp_path, START)
    controller, terminal = pty.openpty()
    os.set_blocking(controller, False)
    environment = {**os.environ, "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "80", "LINES": "24"}
    process = subprocess.Popen([sys.executable, "-m", "pyramide_cli", "play", "g.yaml"], cwd=tmp_path,
                               stdin=terminal, stdout=terminal, stderr=terminal, env=environment,
                               close_fds=True, start_new_session=True)
    os.close(terminal)
    output = b""

    def read_until(marker: bytes, seconds: float = 20) -> None:
        nonlocal output
        deadline = time.monotonic() + seconds
        while marker not in output and time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.1)
            if ready:
                try:
                    output += os.read(controller, 65536)
                except OSError:
                    return

    try:
        read_until("stock".encode())
        os.write(controller, b"KC")
        deadline = time.monotonic() + 20
        while history(path) != ["KC"] and time.monotonic() < deadline:
            read_until(b"\x00", 0.2)
        process.send_signal(signal.SIGHUP)
        assert process.wait(20) is not None
    finally:
        if process.poll() is None:
            process.kill()
        os.close(controller)
    assert history(path) == ["KC"]
    assert load_game(path).game.score == 10
