"""The game as data: the position document of ``show --json``, ``play --json``, ``serve`` and engines.

One function builds it for every door (``docs/cli.md`` lists the keys), with card names in the
canonical ASCII notation, and with what a save adds to the game (:class:`Extras`).  Pure: it reads a
:class:`~pyramide_cli.engine.game.Game` and returns plain lists, dicts, strings and numbers ready
for ``json.dumps``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.level import Level
from ..engine.position import playable_cards


class Extras(NamedTuple):
    """What a save adds to a game: time played (R19), level and daily date (issue 5), and the selected
    card of its tap session (R13)."""

    time_played: float = 0.0
    level: Level | None = None
    daily: str | None = None
    selected: Card | None = None


def game_state(game: Game, extras: Extras = Extras(), reveal: bool = False, history: bool = True) -> dict[str, Any]:
    """The state documented in ``docs/cli.md`` (card names in the canonical ASCII notation).

    ``history=False`` leaves the history out (engines get the position at every move; the
    history would make each message grow with the game).
    """
    position = game.position
    rules = position.rules
    names = _names
    state: dict[str, Any] = {
        "deal": game.deal.code,
        "rules": rules.name,
        "pyramid": [[None if card is None else str(card) for card in row] for row in position.rows()],
        "waste": names(position.waste),
        "stock_count": position.stock_count,
        "foundation": names(position.foundation),
        "free": names(position.free_cards),
        "playable": names(playable_cards(position)),
        "legal_moves": [str(move) for move in game.legal_moves] + (["undo"] if game.can_undo else []),
        "score": game.score,
        "moves": game.move_count,
        "status": game.outcome.value,
        "termination": None if game.termination is None else game.termination.value,
        "selected": None if extras.selected is None else str(extras.selected),
        "pass": position.pass_number,
        "passes": rules.passes,
        "pyramid_removed": position.pyramid_removed,
        "cards_removed": position.cards_removed,
        "undo_available": game.undo_depth,
        "time_played": round(extras.time_played, 1),
        "level": None if extras.level is None else extras.level.value,
        "daily": extras.daily,
    }
    if history:
        state["history"] = [str(move) for move in game.history]
    if reveal:
        state["stock"] = names(position.stock)
    return state


def _names(cards: Any) -> list[str]:
    return [str(card) for card in cards]
