"""The board as lines of pieces: what the full-screen board draws, where each card is, nothing of Textual.

The layout is the sources' (seed 003, ``docs/rules.md``): the pyramid on top, the stock and the
waste below on the left, the foundation below on the right.  Above it a status bar (code, level or
daily date, outcome; score, moves, pass, stock count, stopwatch, selection), below it the message
line and the keys.  Each piece knows what a click on it taps, so the mouse and the keyboard focus
work from this picture alone, and a test can check it without a terminal.

Free, blocked and selected cards differ without colour: a free card is framed ``[7♣]``, a blocked
one bare `` 7♣ ``, the selected one marked ``»7♣«``; the focus is shown in reverse video, a hint
underlined.  Colour (red suits, dim blocked cards) only adds to that.

Hebrew is laid out here in the order it is seen (:func:`~pyramide_cli.i18n.bidi.visual_order`): a
full-screen program writes cells, which a terminal's own bidirectional support does not reorder.
Message lines are put right to left (aligned right); the board keeps its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..engine.cards import Card
from ..engine.level import LEVEL_WORDS
from ..engine.position import Outcome, Termination
from ..engine.text import Text, text
from ..i18n import is_right_to_left, tr
from .adapter import STOCK, WASTE, Target, is_free

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.level import Level

CELL = 6
"""Columns of one pyramid card; a row is indented by half of it under the one above."""
PYRAMID_WIDTH = 7 * CELL
TALON_OVERHANG = 8
"""Columns the talon line reaches past the pyramid on each side."""
TERMINATION_WORDS = {Termination.CLEARED: text("cleared"), Termination.NO_MOVES: text("no moves"),
                     Termination.DEAD: text("dead"), Termination.RESIGNED: text("resigned")}
OUTCOME_WORDS = {Outcome.PLAYING: text("playing"), Outcome.WON: text("won"), Outcome.LOST: text("lost")}


class Piece(NamedTuple):
    """A run of text on one line: ``kind`` says how to draw it, ``target`` what a click on it taps."""

    text: str
    kind: str = "plain"
    """``plain``, ``label``, ``free``, ``blocked``, ``selected``, ``back`` (the stock), ``message``,
    ``refusal``, ``title``, ``key``."""
    target: Target | None = None
    red: bool = False
    focus: bool = False
    hinted: bool = False


Line = list[Piece]


class Style(NamedTuple):
    """How cards are named: without suit symbols (``--ascii``), with French letters (R D V)."""

    ascii: bool = False
    french: bool = False


class View(NamedTuple):
    """Everything drawn besides the game: time, level, daily date, the focus, a hint, the messages."""

    time_played: float = 0.0
    level: Level | None = None
    daily: str | None = None
    focus: Target | None = None
    hinted: tuple[Card, ...] = ()
    hint_stock: bool = False
    messages: tuple[str, ...] = ()
    refusal: bool = False
    keys: tuple[tuple[str, str], ...] = ()
    """(key, what it does): a key as typed (``d``), or the name of one in the player's language (``Échap``)."""
    title: str | None = None
    selected: Card | None = None
    """The card the player has selected (R13), kept in the save."""


class Picture(NamedTuple):
    lines: list[Line]
    width: int
    """The columns the board needs (its lines that cannot wrap)."""
    targets: list[tuple[int, int, int, Target, bool]]
    """(line, first column, past the last column, target, focusable): where a click taps what; a label
    (``stock 23``) taps too but takes no focus."""


def shown(message: str) -> str:
    """A message in the reader's language, in the order it is seen (right to left in Hebrew)."""
    line = tr(message)
    if not is_right_to_left():
        return line
    from ..i18n.bidi import paragraph, visual_order

    return visual_order(paragraph(line))


def label(message: str) -> str:
    """A label inside a left-to-right line (the status bar, the talon line), in the order it is seen."""
    line = tr(message)
    if not is_right_to_left():
        return line
    from ..i18n.bidi import LTR_LINE, visual_order

    return visual_order(LTR_LINE + line)


def card_name(card: Card, style: Style) -> str:
    return card.name(symbols=not style.ascii, french=style.french)


def clock(seconds: float) -> str:
    """The stopwatch as ``0:42``, ``12:05``, ``1:02:03`` (the line mode's ``format_duration``)."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def card_piece(card: Card, game: Game, style: Style, view: View, framed: bool = True) -> Piece:
    """A card as drawn: ``»7♣«`` selected, ``[7♣]`` free, `` 7♣ `` blocked (each as wide)."""
    name = card_name(card, style)
    if card == view.selected:
        ascii_marks = (">", "<") if style.ascii else ("»", "«")
        body, kind = f"{ascii_marks[0]}{name}{ascii_marks[1]}", "selected"
    elif is_free(game.position, card) and framed:
        body, kind = f"[{name}]", "free"
    else:
        body, kind = f" {name} ", "blocked"
    return Piece(body, kind, card, card.suit.is_red, view.focus == card, card in view.hinted)


def pyramid_lines(game: Game, style: Style, view: View) -> list[Line]:
    """Seven lines, each card :data:`CELL` columns wide, a name of two characters padded to three."""
    lines = []
    for index, row in enumerate(game.position.rows()):
        pieces: Line = [Piece(" " * ((6 - index) * CELL // 2))]
        for card in row:
            if card is None:
                pieces.append(Piece(" " * CELL))
                continue
            piece = card_piece(card, game, style, view)
            pad = CELL - 1 - len(piece.text)
            pieces += [Piece(" " * (pad // 2 + 1)), piece, Piece(" " * (pad - pad // 2))] if pad >= 0 else [piece]
        lines.append(pieces)
    return lines


def talon_line(game: Game, style: Style, view: View) -> tuple[Line, Line]:
    """Stock and waste on the left, the foundation on the right; returned as (left, right) pieces."""
    position = game.position
    dash = "-" if style.ascii else "—"
    left: Line = [Piece(label(text("stock {count}", count=position.stock_count)) + " ", "label", STOCK)]
    back = "[##]" if style.ascii else "[▒▒]"
    left.append(Piece(back if position.stock_count else "[  ]", "back", STOCK, focus=view.focus == STOCK,
                      hinted=view.hint_stock))
    stock_top = position.stock_top if position.rules.stock_top else None
    if stock_top is not None:
        left += [Piece(" "), card_piece(stock_top, game, style, view)]
    left.append(Piece("   " + label(text("waste")) + " ", "label", WASTE))
    waste = position.waste
    in_play = [card for card in waste[-2:] if is_free(position, card)]
    if not waste:
        left.append(Piece(dash, "plain", WASTE, focus=view.focus == WASTE))
    for number, card in enumerate(in_play):
        piece = card_piece(card, game, style, view)
        is_top = card == waste[-1]
        left += [Piece(" ") if number else Piece(""), piece._replace(
            target=WASTE if is_top else card, focus=view.focus in ((WASTE, card) if is_top else (card,)))]
    if waste and waste[-1] not in in_play:
        left.append(card_piece(waste[-1], game, style, view, framed=False)._replace(target=WASTE))
    under = len(waste) - max(1, len(in_play)) if waste else 0
    if under > 0:
        left.append(Piece(" " + label(text("(+{count} under)", count=under)), "label"))
    foundation = position.foundation
    top = f"{card_name(foundation[-1], style)} ({len(foundation)})" if foundation else dash
    right = [Piece(label(text("foundation {cards}", cards=top)), "label", red=bool(foundation)
                   and foundation[-1].suit.is_red)]
    return left, right


def status_parts(game: Game, style: Style, view: View) -> tuple[list[str], list[str]]:
    """The status bar's two lines of parts: who the game is, then how it stands."""
    position = game.position
    outcome = tr(OUTCOME_WORDS[game.outcome])
    if game.termination is not None and game.outcome is Outcome.LOST:
        outcome += f" ({tr(TERMINATION_WORDS[game.termination])})"
    first = [game.deal.code]
    if view.daily:
        first.append(label(text("daily deal of {date}", date=view.daily)))
    if view.level:
        first.append(label(text("level {level}", level=tr(LEVEL_WORDS[view.level]))))
    first.append(label(outcome))
    passes = position.rules.passes
    pass_part = (text("pass {number}", number=position.pass_number) if passes is None
                 else text("pass {number} of {passes}", number=position.pass_number, passes=passes))
    second = [label(text("score {score}", score=game.score)), label(text("moves {moves}", moves=game.move_count)),
              label(pass_part), label(text("stock {count}", count=position.stock_count)),
              label(text("time {time}", time=clock(view.time_played)))]
    chosen = view.selected
    if chosen is not None:
        second.append(label(text("selected {card}", card=card_name(chosen, style))))
    return first, second


def wrapped(parts: Sequence[str], width: int, separator: str) -> list[str]:
    """``parts`` joined with ``separator`` into as few lines of at most ``width`` columns as they go."""
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + len(separator) + len(part) <= width:
            lines[-1] += separator + part
        else:
            lines.append(part)
    return lines


def words_wrapped(message: str, width: int) -> list[str]:
    """A message cut at spaces into lines of at most ``width`` columns."""
    return wrapped(message.split(" "), width, " ") if message else []


def message_lines(message: str, width: int, kind: str = "message") -> list[Line]:
    """A message cut to the screen's width, each line in the order it is seen (aligned right in Hebrew)."""
    rtl = is_right_to_left()
    lines = []
    for line in words_wrapped(tr(message), width - 2):
        seen = shown(line)
        lines.append([Piece(" " + (seen.rjust(width - 2) if rtl else seen), kind)])
    return lines or [[]]


def picture(game: Game, style: Style, view: View, width: int) -> Picture:
    """The whole board for a screen ``width`` columns wide."""
    separator = " | " if style.ascii else " · "
    lines: list[Line] = []
    first, second = status_parts(game, style, view)
    for line in wrapped(first, width - 2, separator) + wrapped(second, width - 2, separator):
        lines.append([Piece(" " + line, "title")])
    lines.append([])
    pyramid = pyramid_lines(game, style, view)
    left, right = talon_line(game, style, view)
    left_width = sum(len(piece.text) for piece in left)
    right_width = sum(len(piece.text) for piece in right)
    talon_width = left_width + 3 + right_width
    span = max(PYRAMID_WIDTH + 2 * TALON_OVERHANG, talon_width)
    """The talon line reaches past the pyramid on both sides, as wide as it needs but never narrower,
    so the board stays put while labels grow (``foundation K♣ (12)``)."""
    board_width = span
    margin = max(0, (width - span) // 2)
    offset = margin + (span - PYRAMID_WIDTH) // 2
    for row in pyramid:
        lines.append([Piece(" " * offset), *row])
    lines.append([])
    gap = span - left_width - right_width
    lines.append([Piece(" " * margin), *left, Piece(" " * gap), *right])
    lines.append([])
    for message in view.messages:
        lines += message_lines(message, width, "refusal" if view.refusal else "message")
    lines.append([])
    keys = [f"{shown(key) if isinstance(key, Text) else key} {shown(word)}" for key, word in view.keys]
    for line in wrapped(keys, width - 2, "  "):
        lines.append([Piece(" " + line, "key")])
    targets = []
    for number, line in enumerate(lines):
        column = 0
        for piece in line:
            if piece.target is not None:
                targets.append((number, column, column + len(piece.text), piece.target, piece.kind != "label"))
            column += len(piece.text)
    return Picture(lines, board_width + 2, targets)


def target_at(picture: Picture, line: int, column: int) -> Target | None:
    """What a click at (``column``, ``line``) taps, if anything."""
    for number, start, end, target, _ in picture.targets:
        if number == line and start <= column < end:
            return target
    return None


def focus_order(picture: Picture) -> list[list[tuple[int, Target]]]:
    """The focusable targets, by line, top first: (middle column, target); labels are left out."""
    rows: dict[int, list[tuple[int, Target]]] = {}
    seen: set[Target] = set()
    for number, start, end, target, focusable in picture.targets:
        if target in seen or not focusable:
            continue
        seen.add(target)
        rows.setdefault(number, []).append(((start + end) // 2, target))
    return [rows[number] for number in sorted(rows)]


def landing(picture: Picture) -> Card | None:
    """Where the first arrow key puts the focus: the first free card of the lowest line of the pyramid
    that has one (not the talon line, where a tap on the stock would draw)."""
    for line in reversed(picture.lines):
        if any(piece.target == STOCK for piece in line):
            continue
        for piece in line:
            if piece.kind in ("free", "selected") and isinstance(piece.target, Card):
                return piece.target
    return None


def moved_focus(picture: Picture, focus: Target | None, direction: str) -> Target | None:
    """The focus after an arrow key: left and right along a line, up and down to the nearest card; the
    first arrow lands on a free card (:func:`landing`)."""
    rows = focus_order(picture)
    if not rows:
        return None
    where = next(((row, index) for row, items in enumerate(rows) for index, (_, target) in enumerate(items)
                  if target == focus), None)
    if where is None:
        return landing(picture) or rows[-1][0][1]
    row, index = where
    column = rows[row][index][0]
    if direction in ("left", "right"):
        step = -1 if direction == "left" else 1
        return rows[row][max(0, min(len(rows[row]) - 1, index + step))][1]
    step = -1 if direction == "up" else 1
    if not 0 <= row + step < len(rows):
        return focus
    return min(rows[row + step], key=lambda item: abs(item[0] - column))[1]
