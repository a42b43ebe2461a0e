"""Text and data views of a game: the board as a person wants to see it, and the ``--json`` state.

The board follows the screen of seed 003: the pyramid on top, the stock and the waste below on
the left, the foundation (the "home pile") below on the right, then the status line (wrapped between
its parts where it would not fit 80 columns)::

                       J♦
                    6♣    7♥
                 A♠    4♦    Q♠
                          …
     7♣   10♣    3♥    4♥    3♠    K♦    7♠

     stock 23   waste  7♦                  foundation  —
     PY1-N-… · score 0 · moves 0 · pass 1 · stock 23 · time 0:00 · playing

Colour (red suits red, blocked cards dim, the selection in reverse video) is plain ANSI, so no
rendering library is imported; the caller decides when to use it (a terminal, no ``NO_COLOR``).
ASCII style writes ``10C`` instead of ``10♣`` and ``.`` for a removed card.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from typing import IO, NamedTuple

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.level import LEVEL_LABELS, LEVEL_WORDS
from ..engine.position import Outcome, Position, Termination, playable_cards, playable_waste
from ..engine.text import text
from ..i18n import left_to_right, tr
from ..storage.game_document import Extras, game_state


__all__ = ["Extras", "LEVEL_LABELS", "LEVEL_WORDS", "OUTCOME_WORDS", "Style", "TERMINATION_WORDS", "game_state",
           "playable_cards", "playable_waste", "render_board", "style_for", "table"]

CELL = 6
"""Width of one card in the pyramid; rows are indented by half of it."""
PYRAMID_WIDTH = 7 * CELL
STATUS_WIDTH = 79
"""The status line's widest line: with the board's one-column margin it fits an 80-column terminal."""

_RESET = "\x1b[0m"
_RED = "31"
_DIM = "2"
_REVERSE = "7"
_BOLD = "1"
_SYMBOLS = "♣♦♥♠·—"


class Style(NamedTuple):
    """How to draw: ANSI colour, ASCII only (no suit symbols), French rank letters (R D V)."""

    color: bool = False
    ascii: bool = False
    french: bool = False


def wants_color(stream: IO[str]) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set (no-color.org) or ``TERM=dumb``."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def can_encode_symbols(stream: IO[str]) -> bool:
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        _SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def style_for(stream: IO[str], ascii: bool = False, french: bool = False) -> Style:
    """The style for output to ``stream``: ASCII when asked or when the stream cannot show ``♣``."""
    plain = ascii or not can_encode_symbols(stream)
    return Style(color=not ascii and wants_color(stream), ascii=plain, french=french)


def _paint(text: str, style: Style, *codes: str) -> str:
    codes = tuple(code for code in codes if code)
    if not style.color or not codes:
        return text
    return f"\x1b[{';'.join(codes)}m{text}{_RESET}"


def card_name(card: Card, style: Style) -> str:
    """``10♣`` (or ``10C`` in ASCII, ``R♦`` in French letters), without colour."""
    return card.name(symbols=not style.ascii, french=style.french)


def card_text(card: Card, style: Style, dim: bool = False) -> str:
    return _paint(card_name(card, style), style, _RED if card.suit.is_red else "", _DIM if dim else "")


def format_duration(seconds: float) -> str:
    """``0:42``, ``12:05``, ``1:02:03``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# -- the board ---------------------------------------------------------------------------------
def _cell(card: Card | None, position: Position, selected: Card | None, style: Style) -> str:
    """One card in :data:`CELL` columns: `` 10♦  ``, ``  J♦  ``, ``[10♦] `` when selected, ``   ·  ``."""
    if card is None:
        return _paint("   .  " if style.ascii else "   ·  ", style, _DIM)
    name = card_name(card, style)
    padding = " " * (3 - len(name))
    if card == selected:
        return padding + _paint(f"[{name}]", style, _RED if card.suit.is_red else "", _REVERSE, _BOLD) + " "
    return " " + padding + card_text(card, style, dim=not position.is_playable(card)) + "  "


def pyramid_lines(game: Game, style: Style, selected: Card | None = None) -> list[str]:
    position = game.position
    lines = []
    for index, row in enumerate(position.rows()):
        indent = " " * ((6 - index) * CELL // 2)
        lines.append((indent + "".join(_cell(card, position, selected, style) for card in row)).rstrip())
    return lines


def talon_line(game: Game, style: Style, selected: Card | None = None) -> str:
    """Stock and waste on the left, the foundation on the right (seed 003's layout)."""
    position = game.position
    dash = "-" if style.ascii else "—"
    stock_top = position.stock_top if position.rules.stock_top else None
    stock = tr(text("stock {count}", count=f"{position.stock_count:>2}"))
    if stock_top is not None:
        stock += " " + _marked(stock_top, selected, style)
    waste_cards = playable_waste(position)
    waste = tr(text("waste {cards}", cards=" ".join(_marked(card, selected, style) for card in waste_cards)
                    if waste_cards else dash))
    if len(position.waste) > len(waste_cards):
        waste += " " + tr(text("(+{count} under)", count=len(position.waste) - len(waste_cards)))
    foundation_cards = position.foundation
    top = f"{card_text(foundation_cards[-1], style)} ({len(foundation_cards)})" if foundation_cards else dash
    foundation = tr(text("foundation {cards}", cards=top))
    left = f" {stock}   {waste}"
    gap = max(3, PYRAMID_WIDTH - _visible_length(left) - _visible_length(foundation))
    return left + " " * gap + foundation


def _marked(card: Card, selected: Card | None, style: Style) -> str:
    if card == selected:
        return _paint(f"[{card_name(card, style)}]", style, _RED if card.suit.is_red else "", _REVERSE, _BOLD)
    return card_text(card, style)


def _visible_length(text: str) -> int:
    length, escape = 0, False
    for char in text:
        if char == "\x1b":
            escape = True
        elif escape:
            escape = char != "m"
        elif char not in "\u200e\u200f":  # the marks that keep card names left to right in Hebrew take no room
            length += 1
    return length


def pass_text(position: Position) -> str:
    """``pass 2 of 3``, or ``pass 2`` when recycles are unlimited (N)."""
    passes = position.rules.passes
    if passes is None:
        return tr(text("pass {number}", number=position.pass_number))
    return tr(text("pass {number} of {passes}", number=position.pass_number, passes=passes))


def outcome_text(game: Game) -> str:
    """``playing``, ``won``, or ``lost`` (the line below the board says why), in the reader's language."""
    return tr(_OUTCOME_WORDS[game.outcome])


_OUTCOME_WORDS = {Outcome.PLAYING: text("playing"), Outcome.WON: text("won"), Outcome.LOST: text("lost")}
OUTCOME_WORDS = _OUTCOME_WORDS
"""The outcomes as a player reads them (the values stay English in files, JSON and options)."""
TERMINATION_WORDS = {Termination.CLEARED: text("cleared"), Termination.NO_MOVES: text("no moves"),
                     Termination.DEAD: text("dead"), Termination.RESIGNED: text("resigned")}
"""How a game ended, as a player reads it (``lost (dead)``); the values stay English in files and JSON."""


def status_parts(game: Game, style: Style, extras: Extras = Extras()) -> list[str]:
    """The parts of the status line: code, daily date or level, score, moves, pass, stock count,
    time played, selection (``extras.selected``) and outcome, each in the reader's language."""
    position = game.position
    parts = [game.deal.code]
    if extras.daily:
        parts.append(tr(text("daily deal of {date}", date=extras.daily)))
    if extras.level:
        parts.append(tr(text("level {level}", level=tr(LEVEL_WORDS[extras.level]))))
    parts += [
        tr(text("score {score}", score=game.score)),
        tr(text("moves {moves}", moves=game.move_count)),
        pass_text(position),
        tr(text("stock {count}", count=position.stock_count)),
        tr(text("time {time}", time=format_duration(extras.time_played))),
    ]
    if extras.selected is not None:
        parts.append(tr(text("selected {card}", card=card_name(extras.selected, style))))
    parts.append(outcome_text(game))
    return parts


def status_line(game: Game, style: Style, extras: Extras = Extras()) -> str:
    """Code, score, moves, pass, stock count, time played, selection and outcome on one line."""
    return _separator(style).join(status_parts(game, style, extras))


def status_lines(game: Game, style: Style, extras: Extras = Extras(), width: int = STATUS_WIDTH) -> list[str]:
    """The status line, wrapped between its parts so that no line is wider than ``width`` columns."""
    separator = _separator(style)
    lines: list[str] = []
    for part in status_parts(game, style, extras):
        if lines and _visible_length(lines[-1] + separator + part) <= width:
            lines[-1] += separator + part
        else:
            lines.append(part)
    return lines


def _separator(style: Style) -> str:
    return " | " if style.ascii else " · "


def table(headers: str, rows: Sequence[Sequence[str]], widths: Sequence[int], right: Collection[int] = ()) -> list[str]:
    """A table's lines in the reader's language: ``headers`` is one message naming the columns,
    separated by ``|`` (a translator sees them together; a translation with another number of columns
    is ignored); each column as wide as ``widths`` says, or as its header or a cell needs; the
    columns in ``right`` aligned right; every line kept left to right, also in Hebrew."""
    names = tr(headers).split("|")
    if len(names) != len(widths):
        names = str(headers).split("|")
    sizes = [max(width, len(name), *(len(row[index]) for row in rows)) for index, (width, name)
             in enumerate(zip(widths, names, strict=True))]

    def line(cells: Sequence[str]) -> str:
        return left_to_right(" ".join(cell.rjust(size) if index in right else cell.ljust(size)
                                      for index, (cell, size) in enumerate(zip(cells, sizes, strict=True))))

    return [line(names), *(line(row) for row in rows)]


def render_board(game: Game, style: Style = Style(), extras: Extras = Extras(), reveal: bool = False) -> str:
    """The whole board as text (no trailing newline).  In Hebrew the talon and status lines are kept
    left to right (:func:`~pyramide_cli.i18n.left_to_right`), so the board has the shape of seed 003's
    screen in every language: stock and waste on the left, the foundation on the right."""
    lines = pyramid_lines(game, style, extras.selected)
    lines += ["", left_to_right(talon_line(game, style, extras.selected))]
    if reveal:
        stock = game.position.stock
        lines.append(left_to_right(" " + tr(text("stock, top first: {cards}", cards=" ".join(
            card_text(card, style) for card in stock) or tr(text("(empty)"))))))
    lines += [left_to_right(" " + line) for line in status_lines(game, style, extras)]
    termination = game.termination
    if termination is not None:
        lines.append(" " + _paint(tr(termination.message), style, _BOLD))
    return "\n".join(lines)
