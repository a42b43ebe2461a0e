"""Driving the full-screen board in Textual's headless harness (``App.run_test``): clicks and keys by
what they tap, the screen as text, and the stored SVG screens the snapshot tests compare against."""

from __future__ import annotations

import asyncio
import io
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pyramide_cli.board.adapter import STOCK, WASTE, Target
from pyramide_cli.board.app import BoardApp, BoardView
from pyramide_cli.cli.steps import refusal_line
from pyramide_cli.board.layout import Style
from pyramide_cli.board.session import BoardSession
from pyramide_cli.cli.interactive import end_message, next_save
from pyramide_cli.engine.cards import Card
from pyramide_cli.engine.moves import Move, MoveKind
from pyramide_cli.i18n import set_language, uses_french_letters

SCREENS = Path(__file__).resolve().parent / "screens"
UPDATE = os.environ.get("PYRAMIDE_UPDATE_SCREENS") == "1"
"""``PYRAMIDE_UPDATE_SCREENS=1 pytest tests/test_board_screens.py`` writes the stored screens anew."""


def board(path: Path, *, lang: str = "en", stats: Path | None = None, assist: bool | None = None,
          watch: bool = False, ascii: bool = False) -> BoardApp:
    """A board on ``path`` whose stopwatch stands still (the screens do not depend on the time)."""
    set_language(lang)
    session = BoardSession(path, assist, stats, lambda game, data, restart, level: next_save(
        game, data, restart, level, False), clock=lambda: 0.0)
    return BoardApp(session, Style(ascii=ascii, french=uses_french_letters(lang)), watch=watch,
                    end_message=end_message, refusal_line=refusal_line)


def drive(app: BoardApp, body: Callable[[Any], Awaitable[None]], size: tuple[int, int] = (80, 24)) -> None:
    """Run ``body(pilot)`` on ``app`` in the headless harness."""
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(main())


def screen_text(app: BoardApp) -> str:
    size = app.size
    return app.rendered(size.width, size.height).plain


def screen_svg(app: BoardApp) -> str:
    """The screen as an SVG (Rich's export, as Textual's screenshots are made): exactly what the board
    widget draws, whatever frame Textual last put on the terminal."""
    from rich.console import Console

    size = app.size
    console = Console(record=True, width=size.width, height=size.height, file=io.StringIO(),
                      color_system="truecolor", force_terminal=True, legacy_windows=False)
    console.print(app.rendered(size.width, size.height))
    return console.export_svg(title="pyramide play")


def where(app: BoardApp, target: Target) -> tuple[int, int]:
    """The column and line of what taps ``target`` on the board as last drawn."""
    for line, start, _end, found, focusable in app.picture(app.size.width).targets:
        if found == target and focusable:
            return start + 1, line
    raise AssertionError(f"{target} is not on the board")


async def click(pilot: Any, target: Target) -> None:
    await pilot.pause()
    await pilot.click(BoardView, offset=where(pilot.app, target))


def taps_of(app: BoardApp, move: Move) -> list[Target]:
    """What a player clicks for ``move``: the stock, or each card (the waste's top card is the waste)."""
    if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
        return [STOCK]
    waste_top = app.session.game.position.waste_top
    return [WASTE if card == waste_top else card for card in move.cards]


def keys_of(move: Move) -> list[str]:
    """What a player types for ``move``: ``d`` for the stock, else each card's name (``1 0 h``)."""
    if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
        return ["d"]
    keys: list[str] = []
    for card in move.cards:
        name = str(card)
        keys += [*name[:-1], name[-1].lower()]
    return keys


def card(name: str) -> Card:
    from pyramide_cli.engine.cards import parse_card

    return parse_card(name)
