"""Questions the ``--optimal`` A* asks of the exact talon search about passes (docs/solver.md).

* pass-check (:class:`PassCheck`): can this position be won before the next recycle?
* first-winning-pass (:meth:`PassCheck.first_winning_pass`): the first pass a win from the start can
  end in.
* next-pass-starts (:class:`FirstPass`): when no win ends in the start's pass, every (pyramid, talon) the next pass
  can start from, at the cost it is known to have.
"""

from __future__ import annotations

from collections.abc import Callable

from .bounds import Heuristic
from .budget import Budget
from .relaxation import Relaxation
from .tables import DealTables, settle_kings
from .talon_search import TalonSearch

PASS_CHECK_STATES = 2_000
"""Positions one "won within this pass?" question may search before it gives up (pass-check)."""


class PassCheck:
    """Pass-check: whether a position can be won before the next recycle, asked of the exact search.

    If it cannot, every winning line draws the rest of the stock, recycles and draws again: at
    least ``stock + 2`` actions besides its removals.
    """

    def __init__(self, tables: DealTables, relaxation: Relaxation, budget: Budget, heuristic: Heuristic) -> None:
        self.tables = tables
        self.relaxation = relaxation
        self.budget = budget
        self.heuristic = heuristic
        self.limit = tables.rules.recycle_limit
        self._searches: dict[int, TalonSearch] = {}

    def refine(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int,
               estimate: int) -> int | bool | None:
        """A lower bound larger than ``estimate`` when the position cannot be won in this pass;
        ``True`` when it can; ``None`` when not worth asking or the question gave up."""
        if recycles >= self.limit or recycles < self.heuristic.final_pass:
            return None
        removals = self.heuristic.removals(pyramid, counts)
        if removals is None:
            return None
        raised = removals + (talon >> drawn).bit_count() + 2
        if raised <= estimate:
            return None
        search = self._searches.get(recycles)
        if search is None:
            search = self._searches[recycles] = TalonSearch(
                self.tables, self.relaxation, self.budget, recycle_limit=recycles, last_pass_cut=True)
        verdict = search.known(pyramid, talon, drawn, recycles)
        if verdict is None:
            verdict = search.can_win(pyramid, talon, drawn, recycles, counts, PASS_CHECK_STATES)
        return raised if verdict is False else verdict

    def first_winning_pass(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int,
                           first: int) -> int:
        """First-winning-pass: the first pass from ``first`` on a win from the start can end in, as far as the exact
        search tells within :data:`FIRST_PASS_STATES` positions a question (``first`` when it cannot tell)."""
        for final in range(first, self.limit):
            search = self._searches.get(final)
            if search is None:
                search = self._searches[final] = TalonSearch(
                    self.tables, self.relaxation, self.budget, recycle_limit=final, last_pass_cut=True)
            if search.can_win(pyramid, talon, drawn, recycles, counts, FIRST_PASS_STATES) is not False:
                return final
        return self.limit


FIRST_PASS_STATES = 200_000
"""Positions the start's "won by pass k?" questions may search (first-winning-pass)."""


NEXT_PASS_STARTS_STATES = 150_000
"""Positions next-pass-starts may visit in the start's pass before the A* takes that pass itself."""


class FirstPass:
    """Next-pass-starts: every (pyramid, talon) the start's pass can reach, when no win ends in that pass.

    Every line then draws the rest of the stock and recycles, and what it has spent by the start of
    the next pass is the stock, the recycle and its removals — and the cards removed decide those
    alone: each talon card leaves in a removal of its own (alone if a king), each pyramid king too,
    and the other pyramid cards go two to a removal.  So each such (pyramid, talon) starts the next
    pass at a cost known in advance, whatever the order of the removals, and the A* can start
    from all of them at once with the bound of a pass start, which sees the next pass's draws.
    Positions reached by a pyramid pair last are not sources: the same pair at the start of the
    next pass costs the same.  The enumeration keeps each (pyramid, talon) at its earliest pointer
    (time-dominance) and drops positions the multiset relaxation proves lost (multiset-relaxation).
    """

    def __init__(self, tables: DealTables, least_removals: Callable[[int, int], int | None],
                 start: tuple[int, int, int, int, int], kings_rule: tuple[int, int]) -> None:
        self.tables = tables
        self.least_removals = least_removals
        self.start = start
        self.kings_rule = kings_rule
        self.parents: dict[int, tuple[int, tuple[int, int], tuple[int, ...]] | None] = {}
        self.sources: dict[int, tuple[int, int, int, int]] | None = None
        """key -> (pyramid, talon, counts, removals since the start); ``None`` after :meth:`explore`
        gave up."""

    def explore(self, budget: Budget) -> bool:
        """Enumerate the pass; ``True`` when a win ends in it (then there are no sources)."""
        pyramid, talon, drawn, recycles, counts = self.start
        tables = self.tables
        shape_of = tables.shape
        values = tables.talon_values
        units = tables.talon_units
        talon_kings = tables.talon_kings
        talon_rules = tables.talon_cards.talon_rules
        first_waste = self.kings_rule[0]
        least_removals = self.least_removals
        root = pyramid | talon << 28
        earliest = {root: drawn}
        parents = self.parents
        parents[root] = None
        is_source = {root}
        sources = {}
        stack = [(pyramid, talon, drawn, counts, 0, root)]
        left = NEXT_PASS_STARTS_STATES
        while stack:
            pyramid, talon, drawn, counts, removals, key = stack.pop()
            if earliest[key] < drawn:
                continue
            left -= 1
            if left < 0:
                return False
            budget.tick()
            if least_removals(pyramid, counts) is None:
                continue
            if key in is_source:
                sources[key] = (pyramid, talon, counts, removals)
            shape = shape_of(pyramid)
            children = [(mask, 0, talon, drawn, counts) for mask in shape.pairs]
            wanted = talon & (shape.wanted_talon | talon_kings)
            top = drawn - 1
            rest = wanted & talon_rules.plain_passes(talon, drawn, recycles)[0][0]  # this pass only
            by_need = shape.by_need
            while rest:
                low = rest & -rest
                rest ^= low
                card = low.bit_length() - 1
                after = talon & ~(1 << card)
                after_drawn = (after & ((1 << card) - 1)).bit_length()
                if values[card] == 13:
                    if card != top or first_waste >> card & 1:  # talon-kings-first-draw
                        children.append((0, 1 << card, after, after_drawn, counts))
                else:
                    after_counts = counts - units[card]
                    for bit in by_need.get(values[card], ()):
                        children.append((bit, 1 << card, after, after_drawn, after_counts))
            for pyramid_bits, talon_bit, after, after_drawn, after_counts in children:
                child = pyramid & ~pyramid_bits
                kings = ()
                if shape_of(child).kings:
                    child, kings = settle_kings(tables, child)
                if not child:
                    return True
                child_key = child | after << 28
                if talon_bit:
                    is_source.add(child_key)
                seen = earliest.get(child_key)
                if seen is not None and seen <= after_drawn:
                    continue
                earliest[child_key] = after_drawn
                parents[child_key] = (key, (pyramid_bits, talon_bit), tuple(kings))
                stack.append((child, after, after_drawn, after_counts, removals + 1 + len(kings), child_key))
        self.sources = sources
        return False

    def steps_to(self, key: int) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
        """The (step, kings) of the enumeration's path to a source, last first."""
        steps = []
        while self.parents[key] is not None:
            key, step, kings = self.parents[key]
            steps.append((step, kings))
        return steps
