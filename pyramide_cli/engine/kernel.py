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
from .walks import KING, RULES_LIMIT, TalonWalk
from .walks import every_nth as every_nth, talon_indices as talon_indices  # part of the kernel's interface

if TYPE_CHECKING:
    from .deal import Deal
    from .rules import Rules

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
        ``recycles`` the recycles used (0 when unlimited); ``limit`` as for :meth:`TalonWalk.events`.
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
    """The talon rules applied to one deal's cards: removals at a pointer, the walk between two
    removals (:attr:`walk`) and the dead-game test.  Build with :func:`for_deal`."""

    __slots__ = ("cover_pair", "events", "kings", "pyramid_values", "rules", "steps_at", "talon_rules", "talon_values",
                 "value_slots", "value_talon", "walk", "walk_tops", "_wanted")

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
        self.walk = TalonWalk(self.talon_values, self.talon_rules)
        """The walk of draws and recycles between two removals over this deal's talon."""
        self.events = self.walk.events
        """:meth:`TalonWalk.events` of :attr:`walk`: what comes into play along the walk."""
        self.walk_tops = self.walk.tops
        """:meth:`TalonWalk.tops` of :attr:`walk`: the walk by stops, for a caller that knows it applies."""
        self._wanted: dict[int, int] = {}
        """The dead-game test's facts of each pyramid shape met (see :meth:`_wanted_by`)."""

    # -- removals at one pointer --------------------------------------------------------------------------
    def _plain_steps(self, talon: int, drawn: int, partners: dict[int, tuple[int, ...]], out: list[Step]) -> None:
        top = (talon & ((1 << drawn) - 1)).bit_length() - 1
        if top >= 0:
            value = self.talon_values[top]
            if value == KING:
                out.append((0, 1 << top))
            else:
                out.extend((bits, 1 << top) for bits in partners.get(value, ()))

    def _steps(self, talon: int, drawn: int, partners: dict[int, tuple[int, ...]], out: list[Step]) -> None:
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

    # -- the dead-game test ----------------------------------------------------------------------------
    def any_removal_ever(self, pyramid: int, talon: int, drawn: int, recycles: int) -> bool:
        """True when some card can still be removed, now or after draws and recycles alone; False
        means the position is dead: no card can ever be removed again, whatever is drawn or recycled."""
        return self.removal_distance(pyramid, talon, drawn, recycles) is not None

    def removal_distance(self, pyramid: int, talon: int, drawn: int, recycles: int) -> int | None:
        """How many draws and recycles (the walk of :meth:`TalonWalk.events`) come before some card can
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
