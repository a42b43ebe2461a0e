"""The talon's rules in one place (R4–R10 and the variants), on the integers of :class:`Position`.

The position, the random player of grading, the solver's searches and the dead-game test all
need the same facts: which talon cards are in play (the waste top; the card under it under
``waste-pair``; the stock's top card under ``stock-top``), which of them may pair with which, how
a draw and a recycle move the pointer, and where the deterministic walk of draws and recycles
between two removals goes.  They are written here once; each user keeps only its own loop.

A talon is the mask of the talon cards not yet removed (bit ``t`` = talon index ``t``) and
``drawn`` the pointer: indices below it are on the waste, the others in the stock; it is
normalised to "top waste card + 1" (0 for an empty waste).  Nothing here allocates objects on
the hot paths beyond the lists it returns.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

from .layout import COVER_MASK, COVERERS, PYRAMID_SIZE, free_slots

if TYPE_CHECKING:
    from .deal import Deal
    from .rules import Rules

KING = 13
RULES_LIMIT = -1
"""Default of the ``limit`` arguments below: the rules' own recycle limit."""

# How a card is in play (the roles of R4–R6 and the variants).  A free pyramid card and a talon
# card in play pair when their values make 13 and their roles are one of PAIRING_ROLES.
FREE, WASTE_TOP, STOCK_TOP, UNDER_TOP = "free", "waste-top", "stock-top", "under-top"
PAIRING_ROLES: frozenset[frozenset[str]] = frozenset({
    frozenset((FREE,)),  # two free pyramid cards
    frozenset((FREE, WASTE_TOP)),
    frozenset((FREE, STOCK_TOP)),  # stock-top: the stock's top card is in play like the waste top
    frozenset((WASTE_TOP, STOCK_TOP)),  # stock-top: the two talon cards in play pair with each other
    frozenset((WASTE_TOP, UNDER_TOP)),  # waste-pair: the card just drawn with the one it covers
})
KING_ROLES = frozenset((FREE, WASTE_TOP, STOCK_TOP))
"""Roles in which a king is removed alone (the card under the waste top only pairs with the top)."""

Step = tuple[int, int]
"""A removal: (pyramid slot bits, talon index bits)."""
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


# -- the pointer ---------------------------------------------------------------------------------------
def waste_top(talon: int, drawn: int) -> int:
    """Talon index of the top waste card, or -1."""
    return (talon & ((1 << drawn) - 1)).bit_length() - 1


def card_below(talon: int, index: int) -> int:
    """Talon index of the card just below ``index`` on the waste, or -1."""
    return (talon & ((1 << index) - 1)).bit_length() - 1 if index > 0 else -1


def stock_top(talon: int, drawn: int) -> int:
    """Talon index of the top stock card, or -1."""
    stock = talon >> drawn
    return drawn + (stock & -stock).bit_length() - 1 if stock else -1


def drawn_after_removal(talon: int, drawn: int) -> int:
    """The normalised pointer once cards left ``talon`` (the waste keeps its order, R9)."""
    return (talon & ((1 << drawn) - 1)).bit_length()


def draw(talon: int, drawn: int, draw_count: int) -> int:
    """The pointer after one draw: the next card (three under ``draw-3``) from the stock to the waste."""
    stock = talon >> drawn
    if draw_count == 1:
        return drawn + (stock & -stock).bit_length()
    for _ in range(draw_count):
        if not stock:
            break
        step = (stock & -stock).bit_length()
        drawn += step
        stock >>= step
    return drawn


def in_play(talon: int, drawn: int, waste_pair: bool, stock_top_rule: bool) -> tuple[int, int, int]:
    """The talon cards in play: (waste top, the card under it under ``waste-pair``, the stock top
    under ``stock-top``), each a talon index or -1."""
    top = waste_top(talon, drawn)
    under = card_below(talon, top) if waste_pair and top >= 0 else -1
    up = stock_top(talon, drawn) if stock_top_rule else -1
    return top, under, up


def can_recycle(talon: int, drawn: int, recycles: int, limit: int | None) -> bool:
    """R10: the stock is empty, the waste is not, and a recycle is left."""
    return not talon >> drawn and bool(talon) and (limit is None or recycles < limit)


class TalonRules:
    """The talon rules of one :class:`Rules` (built once per rules; see :func:`talon_rules`)."""

    __slots__ = ("draw_count", "limit", "plain", "stock_top", "waste_pair")

    def __init__(self, rules: Rules) -> None:
        self.draw_count = rules.draw_count
        self.limit = rules.recycle_limit
        self.waste_pair = rules.waste_pair
        self.stock_top = rules.stock_top
        self.plain = rules.plain_talon

    def in_play(self, talon: int, drawn: int) -> tuple[int, int, int]:
        return in_play(talon, drawn, self.waste_pair, self.stock_top)

    def draw(self, talon: int, drawn: int) -> int:
        return draw(talon, drawn, self.draw_count)

    def can_recycle(self, talon: int, drawn: int, recycles: int) -> bool:
        return can_recycle(talon, drawn, recycles, self.limit)

    def plain_passes(self, talon: int, drawn: int, recycles: int, drop: int = 0,
                     limit: int | None = RULES_LIMIT) -> list[tuple[int, int, int, int]]:
        """The walk under draw-1 without talon pairs (:attr:`plain`), pass by pass: each talon card
        is in play once per pass, as the waste top, so a pass is a mask of cards.

        Returns ``(cards, before, talon, recycles)`` for this pass (the waste top and the stock) and,
        when a recycle is left, the next one (the cards below the top, which only a recycle brings
        back; the others were in play in this pass already, sooner).  Card ``c`` of ``cards`` comes
        into play after ``before + (cards & ((2 << c) - 1)).bit_count()`` draws and recycles;
        ``talon`` is the talon during that pass (``drop``: bits that vanish at a recycle), and
        ``recycles`` the recycles used (0 when unlimited); ``limit`` as for :meth:`TalonCards.events`.
        """
        if limit == RULES_LIMIT:
            limit = self.limit
        top = (talon & ((1 << drawn) - 1)).bit_length() - 1
        start = top if top >= 0 else drawn
        passes = [(talon >> start << start, -1 if top >= 0 else 0, talon, 0 if limit is None else recycles)]
        if start and (limit is None or recycles < limit):
            rest = talon & ~drop
            passes.append((rest & ((1 << start) - 1), (talon >> drawn).bit_count() + 1, rest,
                           0 if limit is None else recycles + 1))
        return passes


@cache
def talon_rules(rules: Rules) -> TalonRules:
    """The :class:`TalonRules` of ``rules`` (one per rule set)."""
    return TalonRules(rules)


class TalonCards:
    """The talon rules applied to one deal's cards: removals at a pointer, along the walk, and the
    dead-game test.  Build with :func:`for_deal`."""

    __slots__ = ("cover_pair", "kings", "pyramid_values", "rules", "steps_at", "talon_rules", "talon_values",
                 "value_slots", "value_talon", "_nth", "_top_values", "_wanted")

    def __init__(self, deal: Deal) -> None:
        self.rules = deal.rules
        self.talon_rules = talon_rules(deal.rules)
        self.pyramid_values: tuple[int, ...] = tuple(card.rank for card in deal.cards[:PYRAMID_SIZE])
        self.talon_values: tuple[int, ...] = tuple(card.rank for card in deal.cards[PYRAMID_SIZE:])
        value_talon = [0] * 14
        for index, value in enumerate(self.talon_values):
            value_talon[value] |= 1 << index
        value_slots = [0] * 14
        for slot, value in enumerate(self.pyramid_values):
            value_slots[value] |= 1 << slot
        self.value_talon: tuple[int, ...] = tuple(value_talon)
        """Per value, the mask of the talon indices holding it."""
        self.value_slots: tuple[int, ...] = tuple(value_slots)
        """Per value, the mask of the pyramid slots holding it."""
        self.kings = value_talon[KING]
        self.cover_pair = deal.rules.cover_pair
        self.steps_at = self._plain_steps if self.talon_rules.plain else self._steps
        self._nth = _every_nth_tables(self.talon_rules.draw_count)
        self._top_values = tuple(0 if value == KING else value for value in self.talon_values)
        """The ``value`` field of a single card's event (0 for a king)."""
        self._wanted: dict[int, int] = {}
        """The dead-game test's facts of each pyramid shape met (see :meth:`_wanted_by`)."""

    # -- removals at one pointer --------------------------------------------------------------------------
    def _plain_steps(self, talon: int, drawn: int, partners: dict[int, tuple[int, ...]], out: list) -> None:
        top = (talon & ((1 << drawn) - 1)).bit_length() - 1
        if top >= 0:
            value = self.talon_values[top]
            if value == KING:
                out.append((0, 1 << top))
            else:
                out.extend((bits, 1 << top) for bits in partners.get(value, ()))

    def _steps(self, talon: int, drawn: int, partners: dict[int, tuple[int, ...]], out: list) -> None:
        """Append the removals involving talon cards at this pointer to ``out``, in this order: the
        waste top (a king alone, else with each free pyramid card of ``partners[value]``), the waste
        top with the card under it (``waste-pair``), the stock top (a king alone, with each free
        pyramid card, with the waste top; ``stock-top``).  ``partners`` maps a talon value to the
        bits of the free pyramid cards it pairs with.  The random player's action order depends
        on this order: keep it."""
        values = self.talon_values
        waste = talon & ((1 << drawn) - 1)
        top = waste.bit_length() - 1
        top_value = 0
        if top >= 0:
            top_value = values[top]
            if top_value == KING:
                out.append((0, 1 << top))
            else:
                out.extend((bits, 1 << top) for bits in partners.get(top_value, ()))
                if self.talon_rules.waste_pair:
                    under = (waste & ~(1 << top)).bit_length() - 1
                    if under >= 0 and values[under] + top_value == 13:
                        out.append((0, (1 << top) | (1 << under)))
        if self.talon_rules.stock_top:
            stock = talon >> drawn
            if stock:
                up = drawn + (stock & -stock).bit_length() - 1
                up_value = values[up]
                if up_value == KING:
                    out.append((0, 1 << up))
                else:
                    out.extend((bits, 1 << up) for bits in partners.get(up_value, ()))
                    if top_value + up_value == 13:
                        out.append((0, (1 << top) | (1 << up)))

    # -- along the walk -----------------------------------------------------------------------------------
    def events(self, talon: int, drawn: int, recycles: int, drop: int = 0, limit: int | None = RULES_LIMIT,
               wanted: int = -1) -> list[Event]:
        """The walk of draws and recycles between two removals, and what comes into play along it:
        every talon card and talon pair in play, each at its first occurrence, in the order of
        :meth:`steps_at` at each pointer.

        Between two removals a player can only draw or recycle, and both are forced, so the walk is
        every talon situation reachable without a removal.  It ends at the end of the last allowed
        pass, or earlier once it repeats: after a recycle, when it is back at the pointer it
        started from with the same talon (the rest was seen), and in any case at the second
        recycle (the talon no longer changes, so each later pass repeats the one after the first
        recycle).  A removal is taken at its first occurrence: a later one leaves the same cards
        and the same pointer with at least as many actions and recycles spent (docs/solver.md, W1).

        ``drop``: talon bits that vanish at a recycle (the solver's talon kings, docs/solver.md
        K2); ``limit``: a recycle limit lower than the rules' (a search restricted to fewer
        passes); ``wanted``: the talon cards whose single events the caller wants (kings
        included; the others are left out, their first occurrence still counts as seen).
        """
        rules = self.talon_rules
        if limit == RULES_LIMIT:
            limit = rules.limit
        if rules.draw_count > 1 and not rules.waste_pair and not rules.stock_top and not drop:
            return self.walk_tops(talon, drawn, recycles, limit, wanted)
        if rules.draw_count == 1 and rules.stock_top != rules.waste_pair:
            return self._walk_pairs(talon, drawn, recycles, drop, limit, wanted)
        return self._walk(talon, drawn, recycles, drop, limit, wanted)

    def _walk_pairs(self, talon: int, drawn: int, recycles: int, drop: int, limit: int | None,
                    wanted: int) -> list[Event]:
        """:meth:`_walk` under draw-1 with one talon pair rule, ``stock-top`` or ``waste-pair``: the walk
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
        cards = talon_indices(talon)
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

    def walk_tops(self, talon: int, drawn: int, recycles: int, limit: int | None, wanted: int) -> list[Event]:
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

    def _walk(self, talon: int, drawn: int, recycles: int, drop: int, limit: int | None,
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
        cards = talon_indices(talon)
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

    # -- the dead-game test ----------------------------------------------------------------------------
    def any_removal_ever(self, pyramid: int, talon: int, drawn: int, recycles: int) -> bool:
        """True when some card can still be removed, now or after draws and recycles alone; False
        means the position is dead: no card can ever be removed again, whatever is drawn or recycled."""
        return self.removal_distance(pyramid, talon, drawn, recycles) is not None

    def removal_distance(self, pyramid: int, talon: int, drawn: int, recycles: int) -> int | None:
        """How many draws and recycles (the walk of :meth:`events`) come before some card can
        be removed: 0 when one can be now, ``None`` when never (the position is dead).

        The pyramid cannot change before a removal, so it is enough to look at the removals of
        the pyramid alone and, for each talon situation along the walk, at the talon cards in play
        (pairs with the free pyramid cards, kings, and under ``waste-pair``/``stock-top`` the talon
        pairs).  Under draw-1 without talon pairs every talon card the walk reaches is in play
        once as the waste top, pass by pass (:meth:`TalonRules.plain_passes`), so a few masks answer.
        Games use the distance to skip the positions of the walk in between (engine/game.py).
        """
        wanted = self._wanted.get(pyramid)
        if wanted is None:  # a shape stays for many positions (games test it after each removal): once per shape
            wanted = self._wanted[pyramid] = self._wanted_by(pyramid)
        if wanted < 0:
            return 0
        if not talon:
            return None
        rules = self.talon_rules
        if rules.plain:  # the passes of plain_passes, as masks here (this is on every game's path)
            top = (talon & ((1 << drawn) - 1)).bit_length() - 1
            start = top if top >= 0 else drawn
            this_pass = talon >> start << start  # the waste top (no draw needed), then the stock in order
            hit = this_pass & wanted
            if hit:
                return (this_pass & (((hit & -hit) << 1) - 1)).bit_count() - (1 if top >= 0 else 0)
            if start and (rules.limit is None or recycles < rules.limit):
                next_pass = talon & ((1 << start) - 1)  # after the stock's draws and a recycle, from the bottom
                hit = next_pass & wanted
                if hit:
                    return (talon >> drawn).bit_count() + 1 + (next_pass & (((hit & -hit) << 1) - 1)).bit_count()
            return None
        events = self.events(talon, drawn, recycles, wanted=wanted)  # wanted cards and talon pairs, in walk order
        return events[0][0] if events else None

    def _wanted_by(self, pyramid: int) -> int:
        """-1 when the pyramid cards alone make a removal (a free king, two free cards making 13, a
        cover pair); else the talon cards that can be removed once in play: the kings and the cards
        a free pyramid card pairs with."""
        values, value_talon = self.pyramid_values, self.value_talon
        wanted = self.kings
        needed = 0  # bit v: a free card needs a v to make 13
        for slot in free_slots(pyramid):
            value = values[slot]
            if value == KING or needed >> value & 1:
                return -1
            needed |= 1 << (13 - value)
            wanted |= value_talon[13 - value]
        if self.cover_pair:
            for slot in free_slots(pyramid):
                for lower in range(PYRAMID_SIZE):
                    if (pyramid >> lower & 1 and slot in COVERERS[lower] and pyramid & COVER_MASK[lower] == 1 << slot
                            and values[slot] + values[lower] == 13):
                        return -1
        return wanted


@lru_cache(maxsize=256)
def for_deal(deal: Deal) -> TalonCards:
    """The :class:`TalonCards` of ``deal`` (cached: deals are immutable values)."""
    return TalonCards(deal)


def any_removal_ever(deal: Deal, pyramid: int, talon: int, drawn: int, recycles: int) -> bool:
    """True when some card of this position (``Position`` fields) can still be removed, now or after
    draws and recycles alone; False when it is dead.  See :meth:`TalonCards.any_removal_ever`."""
    return for_deal(deal).any_removal_ever(pyramid, talon, drawn, recycles)
