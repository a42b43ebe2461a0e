"""The board's calls into the engine and the analysis, in one small module.

Everything the board asks of a game goes through here: which cards are free, the word that taps
a target, a hint from the current selection, the solver's line to watch.  The taps themselves go
through the save's session (:func:`~pyramide_cli.storage.session.play_words`), which plays them in
a :class:`~pyramide_cli.engine.taps.TapSession` and keeps the selection in the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..engine.cards import CARDS, Card
from ..engine.moves import Move
from ..engine.text import Joined, Text, text

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.position import Position

STOCK = "stock"
WASTE = "waste"
Target = Card | str
"""What a click or a key taps: a card, :data:`STOCK` or :data:`WASTE` (the top waste card)."""
CARD_BY_NOTATION = {str(card): card for card in CARDS}
"""``10C`` → 10♣: the names a hint's sentence holds (the notation, which the line mode types)."""


def is_free(position: Position, card: Card) -> bool:
    """Whether ``card`` can be played now (a free pyramid card, the waste card in play, the stock top)."""
    return position.is_playable(card)


def tap_word(target: Target) -> str:
    """The word that taps ``target`` in a save's session (``10C``, ``stock``, ``waste``), as the line mode types it."""
    return str(target)


class BoardHint(NamedTuple):
    """A hint as the board shows it: the cards (or the stock) to highlight, and the sentence."""

    cards: tuple[Card, ...]
    stock: bool
    text: str
    unselect: Card | None = None
    """A selected card to tap first (it is not part of the hinted move and would pair or be refused)."""


def hint_for_selection(game: Game, selected: Card | None) -> BoardHint:
    """The hint for the game as it stands, from the selection ``selected`` (the hint's own taps, see
    :func:`~pyramide_cli.analysis.hint.taps_for`): a selected card that is part of the hinted pair
    leaves only the other card to highlight; any other selected card is to be tapped first to clear
    the selection.  The solver is imported on the first hint, never at start-up."""
    from ..analysis.hint import hint_for

    hint = hint_for(game, selected=selected)
    if hint.move is None:
        return BoardHint((), False, hint.text)
    if hint.taps == ("stock",):
        return BoardHint((), True, hint.text)
    taps = tuple(CARD_BY_NOTATION[tap] for tap in hint.taps)
    if selected is not None and taps[0] == selected:  # the hint's first tap clears the selection
        return BoardHint(taps[1:], False, hint.text, unselect=selected)
    return BoardHint(taps, False, hint.text)


def with_card_names(message: str, name: Callable[[Card], str]) -> str:
    """``message`` with every card it names in the notation (``QD``, a value it was made from) written as
    ``name`` writes it: a hint says ``Tap Q♦ then A♦`` (``D♦`` under French letters), as the board draws them."""
    if not isinstance(message, Text) or isinstance(message, Joined) or not message.params:
        return message
    params = {}
    for key, value in message.params.items():
        if isinstance(value, Text):
            value = with_card_names(value, name)
        elif isinstance(value, str) and value in CARD_BY_NOTATION:
            value = name(CARD_BY_NOTATION[value])
        params[key] = value
    return Text(message.template, params, message.plural, message.plural_count)


class WatchLine(NamedTuple):
    """The solver's line from a position: ``moves`` to play one at a time, ``winnable`` (``None`` when the
    search reached its limit), and for a position that cannot be won the most pyramid cards it reaches."""

    moves: tuple[Move, ...]
    winnable: bool | None
    most: int | None = None


def solver_line(game: Game) -> WatchLine:
    """The line to watch: the winning line, else the line to the most pyramid cards (same limits as a hint)."""
    from ..analysis.hint import HINT_LIMITS
    from ..solver import Verdict, solve

    result = solve(game.position, limits=HINT_LIMITS)
    if result.verdict is Verdict.WINNABLE:
        return WatchLine(tuple(result.solution or ()), True)
    if result.verdict is Verdict.UNWINNABLE:
        return WatchLine(tuple(result.best_line or ()), False, result.max_pyramid_removed)
    return WatchLine((), None)


def watch_copy(game: Game) -> Game:
    """A copy of ``game`` to play the solver's line on: the save's game is never touched."""
    return game.copy()


def play_move(game: Game, move: Move) -> None:
    """Play one action of a watched line on the copy."""
    game.push(move)


def watch_message(line: WatchLine) -> str:
    """What the board says when a watched line starts."""
    if line.winnable:
        return text("The solver's winning line: {count} actions. Space pauses, . plays one step, Esc stops.",
                    count=len(line.moves))
    if line.winnable is None:
        return text("The solver reached its search limit: there is no line to show.")
    return text("This position cannot be won: the line goes to the most pyramid cards that can come off "
                "({most} of 28). Space pauses, . plays one step, Esc stops.", most=line.most)
