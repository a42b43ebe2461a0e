"""The observation of ``Pyramide-v0``: where each of the 52 cards is, and the rules that matter.

A vector of 58 small integers (a ``MultiDiscrete`` space: Stable-Baselines3 one-hot encodes it):

==========  ===============================================================================================
index       value
==========  ===============================================================================================
0–51        where card ``i`` is (``i = suit * 13 + rank - 1``, suits C D H S: 0 = ``AC``, 12 = ``KC``,
            51 = ``KS``):
            0 removed (on the foundation);
            1–28 in the pyramid, at slot ``value - 1`` (slot 0 the apex, then row by row, left to right:
            row ``r`` of 1…7 holds slots ``r(r-1)/2`` to ``r(r+1)/2 - 1``), free or covered;
            29–52 on the waste, ``value - 29`` cards under its top (29: the top card, in play);
            53–76 in the stock, ``value - 53`` cards under its top (53: the card drawn next);
            77 in the stock, its place hidden (``stock="hidden"``: every stock card but a face-up top
            card under ``stock-top``, which keeps 53)
52          recycles left: 0–99, 100 when unlimited (preset ``N``)
53–57       the variants, 1 when on: ``strict``, ``waste-pair``, ``cover-pair``, ``stock-top``, ``draw-3``
==========  ===============================================================================================

The waste lies face up, so its order is always shown; the stock's is shown with ``stock="visible"``
(the default: the deal is fully known, as to the solver) and hidden with ``stock="hidden"`` (as a
player sees the table; the cards in the stock are still known, being the ones not seen elsewhere).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..engine.deal import Deal
from ..engine.layout import PYRAMID_SIZE
from ..engine.position import Position
from ..engine.rules import MAX_RECYCLE_LIMIT, Rules

CARD_COUNT = 52
TALON_SIZE = CARD_COUNT - PYRAMID_SIZE
REMOVED = 0
PYRAMID = 1
"""The code of pyramid slot 0; slot ``s`` is ``PYRAMID + s``."""
WASTE_TOP = PYRAMID + PYRAMID_SIZE
"""29: the top waste card; ``WASTE_TOP + k`` lies ``k`` cards under it."""
STOCK_TOP = WASTE_TOP + TALON_SIZE
"""53: the top stock card; ``STOCK_TOP + k`` lies ``k`` cards under it."""
STOCK_HIDDEN = STOCK_TOP + TALON_SIZE
"""77: a stock card whose place is hidden."""
PLACE_CODES = STOCK_HIDDEN + 1
RECYCLES_UNLIMITED = MAX_RECYCLE_LIMIT + 1
RECYCLES_INDEX = CARD_COUNT
VARIANTS_INDEX = CARD_COUNT + 1
VARIANT_FLAGS = ("strict", "waste_pair", "cover_pair", "stock_top")
OBSERVATION_SIZE = VARIANTS_INDEX + len(VARIANT_FLAGS) + 1
STOCK_VIEWS = ("visible", "hidden")


def observation_space() -> spaces.MultiDiscrete:
    """The space of every observation, the same under every rule set and stock view."""
    sizes = [PLACE_CODES] * CARD_COUNT + [RECYCLES_UNLIMITED + 1] + [2] * (OBSERVATION_SIZE - VARIANTS_INDEX)
    return spaces.MultiDiscrete(np.array(sizes, dtype=np.int64))


def rules_part(rules: Rules) -> list[int]:
    """Indices 53–57: the variants of ``rules``."""
    return [int(getattr(rules, flag)) for flag in VARIANT_FLAGS] + [int(rules.draw_count == 3)]


class Observer:
    """Makes the observations of one deal's positions (the deal's card order worked out once)."""

    __slots__ = ("cards", "hidden", "limit", "rules_tail", "show_stock_top", "talon_cards")

    def __init__(self, deal: Deal, stock: str = "visible") -> None:
        if stock not in STOCK_VIEWS:
            raise ValueError(f"stock must be 'visible' or 'hidden', not {stock!r}")
        self.cards = np.array(deal.cards, dtype=np.intp)
        """The card of each place of the dealing order (pyramid slots, then talon indices)."""
        self.talon_cards = deal.cards[PYRAMID_SIZE:]
        self.hidden = stock == "hidden"
        self.show_stock_top = deal.rules.stock_top
        self.limit = deal.rules.recycle_limit
        self.rules_tail = rules_part(deal.rules)

    def observe(self, position: Position) -> np.ndarray:
        """The observation of ``position`` (a new array each time: agents keep them)."""
        pyramid, talon, drawn = position.pyramid, position.talon, position.drawn
        codes = [PYRAMID + slot if pyramid >> slot & 1 else REMOVED for slot in range(PYRAMID_SIZE)]
        talon_codes = [REMOVED] * TALON_SIZE
        waste = [index for index in range(drawn) if talon >> index & 1]
        for depth, index in enumerate(reversed(waste)):
            talon_codes[index] = WASTE_TOP + depth
        stock = [index for index in range(drawn, TALON_SIZE) if talon >> index & 1]
        if self.hidden:
            for index in stock:
                talon_codes[index] = STOCK_HIDDEN
            if stock and self.show_stock_top:
                talon_codes[stock[0]] = STOCK_TOP
        else:
            for depth, index in enumerate(stock):
                talon_codes[index] = STOCK_TOP + depth
        observation = np.empty(OBSERVATION_SIZE, dtype=np.int64)
        observation[self.cards] = codes + talon_codes
        limit = self.limit
        observation[RECYCLES_INDEX] = RECYCLES_UNLIMITED if limit is None else limit - position.recycles
        observation[VARIANTS_INDEX:] = self.rules_tail
        return observation
