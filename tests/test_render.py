"""The board and the --json state (pyramide_cli/render.py)."""

from __future__ import annotations

import io
import re

import pytest

from pyramide_cli.engine.cards import parse_card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.level import Level
from pyramide_cli.cli.render import (
    CELL, Extras, Style, format_duration, game_state, pass_text, render_board, status_line, style_for,
)
from pyramide_cli.engine.rules import Rules
from pyramide_cli.engine.taps import TapSession

from builders import r24_deal
from cli_support import game_of

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_the_pyramid_is_on_top_with_row_r_covering_half_a_card_each_side() -> None:
    lines = render_board(Game(r24_deal()), Style(ascii=True)).splitlines()
    assert lines[0].strip() == "JD"
    assert lines[6].split() == ["7C", "10C", "3H", "4H", "3S", "KD", "7S"]
    # card c of row r sits exactly between cards c and c+1 of row r+1 (R2)
    for row in range(6):
        upper, lower = lines[row], lines[row + 1]
        for column, name in enumerate(upper.split()):
            centre = upper.index(name) + len(name)
            below = [match.end() for match in re.finditer(r"\S+", lower)]
            assert below[column] + CELL // 2 == centre == below[column + 1] - CELL // 2


def test_stock_and_waste_are_below_left_and_the_foundation_below_right() -> None:
    game = Game(r24_deal())
    session = TapSession(game)
    session.play("KD")
    lines = render_board(game, Style(ascii=True)).splitlines()
    talon = lines[8]
    assert talon.index("stock 23") < talon.index("waste 7D") < talon.index("foundation KD (1)")
    assert talon.rstrip().endswith("foundation KD (1)")
    assert lines[6].split() == ["7C", "10C", "3H", "4H", "3S", ".", "7S"]  # the gap stays in place


def test_the_status_line_has_code_score_moves_pass_stock_time_selection_and_outcome() -> None:
    game = game_of("PY1-T-AAAAAAS", *["draw"] * 24, "recycle")
    session = TapSession(game)
    session.play("5D")
    line = status_line(game, Style(ascii=True), Extras(time_played=125.0, selected=session.selected))
    assert line.split(" | ") == ["PY1-T-AAAAAAS", "score 0", "moves 25", "pass 2 of 3", "stock 24", "time 2:05",
                                 "selected 5D", "playing"]


def test_pass_has_no_limit_under_n_and_level_and_daily_are_shown() -> None:
    game = game_of("PY1-N-AAAAAAS", *["draw"] * 23, "recycle")
    assert pass_text(game.position) == "pass 2"
    line = status_line(game, Style(), Extras(level=Level.MEDIUM, daily="2026-11-29"))
    assert "daily deal of 2026-11-29 · level medium" in line


def test_a_won_and_a_lost_game_say_so() -> None:
    from cli_support import WON_N_CODE, WON_N_LINE

    won = render_board(game_of(WON_N_CODE, *WON_N_LINE), Style(ascii=True))
    assert "| won" in won and "You won" in won
    lost = game_of("PY1-O-AAAAAU4", "KH", *["draw"] * 8, "KS", *["draw"] * 8, "QC+AS", "draw", "draw", "draw",
                   "8C+5H", "draw", "draw", "10S+3H", "draw", "10H+3S", "draw", "draw")
    board = render_board(lost, Style(ascii=True))
    assert board.splitlines()[-1].strip() == "No more moves possible"
    assert "| lost" in board
    dead = game_of("PY1-O-AAAAAU4", "KH", *["draw"] * 8, "KS", *["draw"] * 8, "QC+AS", "draw", "draw", "draw",
                   "8C+5H", "draw", "draw", "10S+3H", "draw", "10H+3S", "draw", "8H+5S")
    assert render_board(dead, Style(ascii=True)).splitlines()[-1].strip() == "No card can ever be removed again"


def test_colour_paints_red_suits_and_the_selection_and_dims_blocked_cards() -> None:
    game = Game(r24_deal())
    session = TapSession(game)
    session.play("7C")
    board = render_board(game, Style(color=True), Extras(selected=session.selected))
    assert "\x1b[31m7♦" in board  # a red card is red
    assert "\x1b[31;2mJ♦" in board  # a blocked red card is dim too
    assert "\x1b[7;1m[7♣]" in board  # the selection in reverse video
    plain = render_board(game, Style(), Extras(selected=session.selected))
    assert "\x1b" not in plain
    assert ANSI.sub("", board) == plain


def test_ascii_and_french_letters() -> None:
    game = Game(r24_deal())
    french = render_board(game, Style(french=True))
    assert french.splitlines()[0].strip() == "V♦"
    assert "R♦" in french and "D♠" in french
    ascii_board = render_board(game, Style(ascii=True))
    assert not any(ord(char) > 127 for char in ascii_board)


def test_style_follows_the_terminal_and_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        encoding = "utf-8"

        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)
    assert style_for(Terminal()).color
    assert not style_for(Terminal(), ascii=True).color
    assert not style_for(io.StringIO()).color  # not a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    assert not style_for(Terminal()).color
    latin = io.TextIOWrapper(io.BytesIO(), encoding="latin-1")
    assert style_for(latin).ascii  # cannot print ♣


@pytest.mark.parametrize("seconds, text", [(0, "0:00"), (59.9, "0:59"), (61, "1:01"), (3723, "1:02:03")])
def test_durations(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


def test_reveal_lists_the_stock_top_first() -> None:
    game = Game(Deal.from_number(18, Rules()))
    stock = " ".join(str(card) for card in game.position.stock)
    assert f"stock, top first: {stock}" in render_board(game, Style(ascii=True), reveal=True)
    assert "top first" not in render_board(game, Style(ascii=True))


def test_json_state_has_the_documented_keys_and_values() -> None:
    game = Game(r24_deal())
    session = TapSession(game)
    session.play("KD")
    session.play("7C")
    state = game_state(game, Extras(time_played=3.21, selected=session.selected))
    for key in ("deal", "rules", "pyramid", "waste", "stock_count", "foundation", "free", "legal_moves", "score",
                "moves", "status", "selected"):
        assert key in state
    assert state["pyramid"][6] == ["7C", "10C", "3H", "4H", "3S", None, "7S"]
    assert state["waste"] == ["7D"] and state["stock_count"] == 23 and state["foundation"] == ["KD"]
    assert state["free"] == ["7C", "10C", "3H", "4H", "3S", "7S"]
    assert state["playable"] == state["free"] + ["7D"]
    assert set(state["legal_moves"]) == {"10C+3H", "10C+3S", "draw", "undo"}
    assert (state["score"], state["moves"], state["status"], state["selected"]) == (10, 1, "playing", "7C")
    assert state["pass"] == 1 and state["passes"] is None and state["time_played"] == 3.2
    assert "stock" not in state
    revealed = game_state(game, reveal=True)
    assert revealed["stock"] == [str(card) for card in game.position.stock]


def test_json_state_of_limited_passes_and_stock_top() -> None:
    game = Game(Deal.from_number(18, Rules.parse("T+stock-top")))
    state = game_state(game)
    assert state["passes"] == 3 and state["waste"] == []
    assert state["playable"][-1] == str(game.position.stock_top)
    board = render_board(game, Style(ascii=True))
    assert f"stock 24 {game.position.stock_top}" in board


@pytest.mark.parametrize("language", ["en", "fr", "he", "sv"])
def test_the_status_and_the_session_help_fit_80_columns_in_every_language(language: str) -> None:
    """Issue 22: a daily deal with a level, a long time and a selection, in each language, plain and
    ASCII: every line of the board and of the session's help is at most 80 columns, and the status
    lines together still hold every part, in order."""
    from pyramide_cli.cli.interactive import OVER_HINT, SESSION_HELP
    from pyramide_cli.cli.render import _visible_length, status_lines, status_parts
    from pyramide_cli.i18n import set_language, tr

    set_language(language)
    try:
        game = game_of("PY1-T-AAAAAAS", *["draw"] * 24, "recycle")
        extras = Extras(time_played=36_000.0, level=Level.EXPERT, daily="2026-11-29", selected=parse_card("5D"))
        for style in (Style(), Style(ascii=True), Style(color=True)):
            board = render_board(game, style, extras)
            assert max(_visible_length(line) for line in board.splitlines()) <= 80
            lines = status_lines(game, style, extras)
            assert 2 <= len(lines) <= 3
            separator = " | " if style.ascii else " · "
            assert separator.join(lines) == separator.join(status_parts(game, style, extras))
        for line in [*tr(SESSION_HELP).splitlines(), tr(OVER_HINT)]:
            assert len(line) <= 80, line
    finally:
        set_language("en")
