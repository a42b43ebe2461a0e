"""The fixed action table of ``Pyramide-v0``: one index per removal, the draw and the recycle.

Every deal under every rule set uses the same 102 actions, named by the cards' identities (never by
where they lie), so a policy's output means the same thing on every deal:

=========  ==================================================================================
0–3        the kings alone (R7): ``KC``, ``KD``, ``KH``, ``KS``
4–99       the 96 pairs of two cards adding up to 13 (R6): for the low value 1 (ace + queen) to 6
           (six + seven), for each low card in suit order C D H S, each high card in suit order
           (4 = ``QC+AC``, 5 = ``QD+AC``, … 99 = ``7S+6S``)
100        ``draw`` (R8; three cards under ``draw-3``)
101        ``recycle`` (R9)
=========  ==================================================================================

A removal of the table may involve pyramid, waste or stock cards alike: which of them are legal
where is the engine's business (``Game.legal_moves``), and the mask says it.
"""

from __future__ import annotations

from ..engine.cards import KING, PAIR_SUM, Card, Suit
from ..engine.moves import DRAW, RECYCLE, Move

KING_ACTIONS: tuple[Move, ...] = tuple(Move.king(Card.of(KING, suit)) for suit in Suit)
PAIR_ACTIONS: tuple[Move, ...] = tuple(
    Move.pair(Card.of(low, low_suit), Card.of(PAIR_SUM - low, high_suit))
    for low in range(1, 7) for low_suit in Suit for high_suit in Suit)
ACTIONS: tuple[Move, ...] = (*KING_ACTIONS, *PAIR_ACTIONS, DRAW, RECYCLE)
"""The move of each action index."""
ACTION_COUNT = len(ACTIONS)
DRAW_ACTION = ACTIONS.index(DRAW)
RECYCLE_ACTION = ACTIONS.index(RECYCLE)
ACTION_OF: dict[Move, int] = {move: index for index, move in enumerate(ACTIONS)}
"""The action index of each move of the table (moves are unique objects: a dictionary look-up)."""


def action_of(move: Move | str) -> int:
    """The action index of a removal, ``draw`` or ``recycle`` (a :class:`Move` or its text, ``"10C+3S"``).

    ``undo`` and ``resign`` are a game's actions, not the environment's: ``ValueError`` for them.
    """
    found = ACTION_OF.get(Move.parse(move) if isinstance(move, str) else move)
    if found is None:
        raise ValueError(f"{move} is not an action of the environment (removals, draw and recycle only)")
    return found
