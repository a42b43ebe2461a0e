"""The walk of draws and recycles between two removals (:meth:`TalonWalk.events`), in its three
loops: the general one, and two shorter roads for the rules where the walk's shape is known in
advance (draw-1 with one talon pair rule; draw-3 with only the waste top in play).  Each shorter
road gives the general loop's events in the same order (tests/test_kernel.py).  A deal's
:class:`~pyramide_cli.engine.kernel.TalonCards` holds its walk.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .kernel import TalonRules

KING = 13
RULES_LIMIT = -1
"""Default of the ``limit`` arguments of the walk: the rules' own recycle limit."""
Event = tuple[int, int, int, int, int, int]
"""A talon card, or a pair of talon cards, in play along the walk for the first time:
``(actions, talon bits, value, talon after, drawn after, recycles after)``.  ``value`` is the
value of a single non-king card (it pairs with the free pyramid cards needing it); 0 when the
cards are removed alone (a king, or two talon cards making 13).  ``actions`` is how many draws
and recycles bring them into play; the "after" fields are the position once they are removed
(recycles after is 0 when recycles are unlimited: they no longer matter then)."""

_BYTE_INDICES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * byte + t for t in range(8) if mask >> t & 1) for mask in range(256)) for byte in range(3)
)
"""Per byte of a talon mask, the talon indices each of its 256 values holds (in order)."""


@cache
def _every_nth_tables(step: int) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """Per byte of a talon mask and per count of cards before it (modulo ``step``), for each of its 256
    values: (the bits of :func:`every_nth` in that byte, the count after it modulo ``step``)."""
    tables = []
    for byte in range(3):
        rows = []
        for phase in range(step):
            row = []
            for mask in range(256):
                count, chosen = phase, 0
                for t in range(8):
                    if mask >> t & 1:
                        count += 1
                        if not count % step:
                            chosen |= 1 << (8 * byte + t)
                row.append((chosen, count % step))
            rows.append(tuple(row))
        tables.append(tuple(rows))
    return tuple(tables)


def every_nth(mask: int, step: int) -> int:
    """The bits of a talon mask that are its ``step``-th, ``2·step``-th, ... lowest bits (the top cards
    of the groups ``draw-3`` draws from them; three table look-ups)."""
    low, middle, high = _every_nth_tables(step)
    chosen_low, phase = low[0][mask & 255]
    chosen_middle, phase = middle[phase][mask >> 8 & 255]
    return chosen_low | chosen_middle | high[phase][mask >> 16 & 255][0]


def talon_indices(talon: int) -> tuple[int, ...]:
    """The talon indices of the mask ``talon``, lowest first (the stock's order, the waste's from the bottom)."""
    low, middle, high = _BYTE_INDICES
    return low[talon & 255] + middle[talon >> 8 & 255] + high[talon >> 16 & 255]



class TalonWalk:
    """The walk between two removals over one deal's talon cards (``talon_values``, in talon
    order) under ``talon_rules``."""

    __slots__ = ("talon_rules", "talon_values", "_nth", "_top_values")

    def __init__(self, talon_values: tuple[int, ...], talon_rules: TalonRules) -> None:
        self.talon_values = talon_values
        self.talon_rules = talon_rules
        self._nth = _every_nth_tables(talon_rules.draw_count)
        """The tables of :func:`every_nth` for the walk by stops (``draw-3``)."""
        self._top_values = tuple(0 if value == KING else value for value in talon_values)
        """The ``value`` field of a single card's event (0 for a king)."""

    def events(self, talon: int, drawn: int, recycles: int, drop: int = 0, limit: int | None = RULES_LIMIT,
               wanted: int = -1) -> list[Event]:
        """The walk of draws and recycles between two removals, and what comes into play along it:
        every talon card and talon pair in play, each at its first occurrence, in the order of
        :meth:`TalonCards.steps_at <pyramide_cli.engine.kernel.TalonCards.steps_at>` at each pointer.

        Between two removals a player can only draw or recycle, and both are forced, so the walk is
        every talon situation reachable without a removal.  It ends at the end of the last allowed
        pass, or earlier once it repeats: after a recycle, when it is back at the pointer it
        started from with the same talon (the rest was seen), and in any case at the second
        recycle (the talon no longer changes, so each later pass repeats the one after the first
        recycle).  A removal is taken at its first occurrence: a later one leaves the same cards
        and the same pointer with at least as many actions and recycles spent (docs/solver.md, walk-edges).

        ``drop``: talon bits that vanish at a recycle (the solver's talon kings, docs/solver.md
        talon-kings-at-top); ``limit``: a recycle limit lower than the rules' (a search restricted to fewer
        passes); ``wanted``: the talon cards whose single events the caller wants (kings
        included; the others are left out, their first occurrence still counts as seen).
        """
        rules = self.talon_rules
        if limit == RULES_LIMIT:
            limit = rules.limit
        if rules.draw_count > 1 and not rules.waste_pair and not rules.stock_top and not drop:
            return self.tops(talon, drawn, recycles, limit, wanted)
        if rules.draw_count == 1 and rules.stock_top != rules.waste_pair:
            return self.pairs(talon, drawn, recycles, drop, limit, wanted)
        return self.general(talon, drawn, recycles, drop, limit, wanted)

    def pairs(self, talon: int, drawn: int, recycles: int, drop: int, limit: int | None,
              wanted: int) -> list[Event]:
        """:meth:`general` under draw-1 with one talon pair rule, ``stock-top`` or ``waste-pair``: the walk
        is the talon's cards in order, from the pointer to the end and then, after a recycle, from the
        bottom back to the pointer (to the end when the recycle dropped cards: they leave new neighbours),
        each card coming into play once, as the stock's top under ``stock-top`` or as the waste top
        under ``waste-pair``, where it also pairs with the card before it when they make 13."""
        values = self.talon_values
        unlimited = self.talon_rules.limit is None
        up = self.talon_rules.stock_top
        seen = ~wanted
        out: list[Event] = []
        append = out.append
        cards: Sequence[int] = talon_indices(talon)  # a list once a recycle drops cards
        count = len(cards)
        start = (talon & ((1 << drawn) - 1)).bit_count()  # cards on the waste: the top is cards[start - 1]
        passes = 0 if unlimited else recycles
        # In play at action a of the first pass: card start + a (stock-top; and the top card at a = 0) or
        # start - 1 + a (waste-pair).  ``before``: the card before it, -1 at the bottom.
        first = start - 1 if start and not (up and seen >> cards[start - 1] & 1) else start
        if up and first < start:  # the waste top at the start, under stock-top: alone, before the stock's top
            card = cards[first]
            bit = 1 << card
            seen |= bit
            value = values[card]
            append((0, bit, 0 if value == KING else value, talon ^ bit, cards[first - 1] + 1 if first else 0, passes))
            first = start
        shift = start if up else start - 1
        before = cards[first - 1] if first else -1
        for k in range(first, count):
            card = cards[k]
            value = values[card]
            bit = 1 << card
            if not seen & bit:
                seen |= bit
                append((k - shift, bit, 0 if value == KING else value, talon ^ bit, before + 1, passes))
            if before >= 0 and values[before] + value == 13:
                pair = 1 << before | bit
                append((k - shift, pair, 0, talon ^ pair, cards[k - 2] + 1 if k > 1 else 0, passes))
            before = card
        if not talon or limit is not None and recycles >= limit:
            return out
        current = talon
        first_pairs: set[int] | None = None
        if talon & drop:  # the dropped cards leave new neighbours: the whole pass is new, pairs may repeat
            first_pairs = {event[1] for event in out if not event[2] and event[1] & (event[1] - 1)}
            current = talon & ~drop
            cards = [card for card in cards if not drop >> card & 1]
            end = len(cards)
        elif start <= (0 if up else 1):
            return out  # back at the pointer it started from: the rest was seen
        else:
            end = start if up else start - 1
        base = count - start + (1 if up else 2)
        passes = 0 if unlimited else recycles + 1
        before = -1
        for k in range(end):
            card = cards[k]
            value = values[card]
            bit = 1 << card
            if not seen & bit:
                seen |= bit
                append((base + k, bit, 0 if value == KING else value, current ^ bit, before + 1, passes))
            if before >= 0 and values[before] + value == 13:
                pair = 1 << before | bit
                if first_pairs is None or pair not in first_pairs:
                    append((base + k, pair, 0, current ^ pair, cards[k - 2] + 1 if k > 1 else 0, passes))
            before = card
        return out

    def tops(self, talon: int, drawn: int, recycles: int, limit: int | None, wanted: int) -> list[Event]:
        """:meth:`events` when only the waste top is in play and draws take several cards (``draw-3``
        without talon pairs) and nothing vanishes at a recycle: the stops of the walk are known in
        advance, so their top cards are found as masks (:func:`every_nth`) and only the wanted ones
        are looked at.  This pass: the waste top (no action), every ``draw_count``-th stock card and
        the stock's last card (after as many draws as its group's number).  After a recycle (when one
        is left and the waste was not empty): every ``draw_count``-th card from the bottom, until the
        pointer it started from, which it reaches only when the waste held a multiple of
        ``draw_count`` cards — and then every later stop is one of this pass's (the same cards
        from the same pointer), so leaving out the cards met in this pass is the whole rule."""
        step = self.talon_rules.draw_count
        low_bytes, middle_bytes, high_bytes = self._nth  # every_nth, inline (this is on the search's path)
        waste = talon & ((1 << drawn) - 1)
        stock = talon ^ waste
        stops, phase = low_bytes[0][stock & 255]
        chosen, phase = middle_bytes[phase][stock >> 8 & 255]
        stops |= chosen | high_bytes[phase][stock >> 16 & 255][0]
        if stock:
            stops |= 1 << (stock.bit_length() - 1)
        if waste:
            stops |= 1 << (waste.bit_length() - 1)
        values = self._top_values
        out: list[Event] = []
        passes = 0 if self.talon_rules.limit is None else recycles
        hits = stops & wanted
        while hits:
            low = hits & -hits
            hits ^= low
            out.append(((((stock & ((low << 1) - 1)).bit_count() + step - 1) // step if low & stock else 0), low,
                        values[low.bit_length() - 1], talon ^ low, (talon & (low - 1)).bit_length(), passes))
        if not waste or limit is not None and recycles >= limit:
            return out  # no recycle, or (waste empty at the start) the next pass repeats this one
        hits, phase = low_bytes[0][talon & 255]
        chosen, phase = middle_bytes[phase][talon >> 8 & 255]
        hits = (hits | chosen | high_bytes[phase][talon >> 16 & 255][0]) & wanted & ~stops
        if not hits:  # past the pointer it started from: this pass's stops
            return out
        base = (stock.bit_count() + step - 1) // step + 2  # the draws of this pass, the recycle, one
        passes = 0 if self.talon_rules.limit is None else recycles + 1
        while hits:
            low = hits & -hits
            hits ^= low
            out.append((base + (talon & ((low << 1) - 1)).bit_count() // step - 1, low, values[low.bit_length() - 1],
                        talon ^ low, (talon & (low - 1)).bit_length(), passes))
        return out

    def general(self, talon: int, drawn: int, recycles: int, drop: int, limit: int | None,
                wanted: int) -> list[Event]:
        """The loop of :meth:`events`, on the talon as a list of indices: ``j`` cards are on the waste,
        the top at ``cards[j - 1]``, the card under it at ``cards[j - 2]`` and the stock's top at
        ``cards[j]``; a draw adds the next one (three under ``draw-3``) to the waste, so the pointer
        never has to be searched for bit by bit."""
        values = self.talon_values
        rules = self.talon_rules
        waste_pair, up_rule, step = rules.waste_pair, rules.stock_top, rules.draw_count
        unlimited = rules.limit is None
        seen = ~wanted
        seen_pairs: set[int] = set()
        out: list[Event] = []
        append = out.append
        cards: Sequence[int] = talon_indices(talon)  # a list once a recycle drops cards
        count = len(cards)
        start = (talon & ((1 << drawn) - 1)).bit_count()  # cards on the waste: the top is cards[start - 1]
        current, j, passes, actions = talon, start, recycles, 0
        after_passes = 0 if unlimited else passes
        while True:
            top_value = 0
            if j:
                top = cards[j - 1]
                top_value = values[top]
                bit = 1 << top
                if not seen & bit:
                    seen |= bit
                    append((actions, bit, 0 if top_value == KING else top_value, current ^ bit,
                            cards[j - 2] + 1 if j > 1 else 0, after_passes))
                if waste_pair and j > 1 and top_value != KING and values[cards[j - 2]] + top_value == 13:
                    pair = bit | 1 << cards[j - 2]
                    if pair not in seen_pairs:
                        seen_pairs.add(pair)
                        append((actions, pair, 0, current ^ pair, cards[j - 3] + 1 if j > 2 else 0, after_passes))
            else:
                top = -1
            if j < count:
                if up_rule:
                    up = cards[j]
                    up_value = values[up]
                    up_bit = 1 << up
                    if not seen & up_bit:
                        seen |= up_bit
                        append((actions, up_bit, 0 if up_value == KING else up_value, current ^ up_bit, top + 1,
                                after_passes))
                    if top_value and top_value + up_value == 13:
                        pair = 1 << top | up_bit
                        if pair not in seen_pairs:
                            seen_pairs.add(pair)
                            append((actions, pair, 0, current ^ pair, cards[j - 2] + 1 if j > 1 else 0,
                                    after_passes))
                j += step  # a draw
                if j > count:
                    j = count
            elif current and (limit is None or passes < limit):  # a recycle
                passes += 1
                after_passes = 0 if unlimited else passes
                j = 0
                if current & drop:
                    current &= ~drop
                    cards = [card for card in cards if not drop >> card & 1]
                    count = len(cards)
            else:
                return out
            actions += 1
            # back where it started (draw-3: every third card is a stop, so only the same one counts)
            if passes > recycles and (passes > recycles + 1 or current == talon and (
                    j >= start if step == 1 else j == start)):
                return out

