"""Phase 2 of the talon search: the most pyramid cards, and the most cards in all, a lost position
can still see removed — branch and bound over the positions phase 1 set aside (branch-and-bound,
talon-order, talon-set, probe, and waste-stack's bound; docs/solver.md).  :class:`Maximiser` works
on a :class:`~pyramide_cli.solver.talon_search.TalonSearch`: its memo, its walk and its best found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine import kernel

from .budget import SearchCapped
from .relaxation import KEY_SHIFT, Gains
from .rules import SearchRule
from .tables import Shape, total_count
from .talon_order import TalonOrderBound
from .talon_set import TalonSetBound

if TYPE_CHECKING:
    from .talon_search import Deferred, TalonSearch

PASS_SHIFT = 5  # drawn < 32
TALON_KEY_SHIFT = 52
Step = kernel.Step


class Maximiser:
    """Phase 2 over one talon search (see the module docstring); the search's state is shared, the
    bounds of phase 2 alone are kept here."""

    def __init__(self, search: TalonSearch) -> None:
        self.search = search
        uses = search.options.uses
        tables = search.tables
        self.bounds = search.bounds
        self.talon_first = False
        """The probe tries the removals using talon cards first."""
        self.probe_states = (search.options.probe_states if uses(SearchRule.PROBE)
                             and (search.stock_top or search.waste_pair) and search.limit != 0 else 0)
        """Where the probe runs: talon pairs and a recycle at least (elsewhere it did not pay)."""
        self.gains: dict[int, Gains] = {}
        """Branch-and-bound's gains by pyramid and count vector (phase 2 asks the same ones at many nodes)."""
        self.order_bound = (TalonOrderBound(tables, search.budget)
                            if (search.waste_pair or search.stock_top) and uses(SearchRule.TALON_ORDER) else None)
        """Talon-order, the bound on the cards in all with the talon's order (talon pairs only)."""
        self.talon_set = (TalonSetBound(tables, search.relaxation, search.budget, self.order_bound)
                          if self.order_bound is not None and uses(SearchRule.TALON_SET) else None)
        """Talon-set, the talon-set game, asked where talon-order lets a node through."""

    def run(self) -> None:
        """Branch and bound over the positions phase 1 set aside (after ``find_win`` failed).

        A probe comes first: the same search with the talon's removals tried before the pyramid's
        own pairs, on a copy of the memo, stopped after ``probe_states`` positions.  What it finds
        are real positions reached by real lines, so it only raises the best found before the search
        proper, which then cuts more; the memo it filled (valid only for its own order and its own
        cut) is dropped."""
        search = self.search
        budget = search.budget
        deferred, search.deferred = search.deferred, []
        if self.probe_states:
            memo = search.memo
            search.memo = dict(memo)
            self.talon_first = True
            budget.cap(self.probe_states)
            try:
                self._maximise(deferred)
                return  # the probe went to the end: it was the whole search, in another order
            except SearchCapped:
                pass
            finally:
                budget.cap(None)
                self.talon_first = False
                search.memo = memo
        self._maximise(deferred)

    def _maximise(self, deferred: list[Deferred]) -> None:
        search = self.search
        done: set[int] = set()
        for pyramid, talon, drawn, recycles, counts, path, bound_pyramid, bound_all in deferred:
            key, time = search.key_of(search, pyramid, talon, drawn, recycles)
            if search.memo[key] < time or key in done:
                continue  # set aside again at an earlier time, which dominates
            done.add(key)
            if self.bounds and not search.may_beat(bound_pyramid, bound_all):
                continue  # the bound phase 1 found (no smaller than branch-and-bound's) cannot beat the best
            search.path = list(path)
            self._explore(pyramid, talon, drawn, recycles, counts)

    def _gains_bound(self, pyramid: int, counts: int, shape: Shape | None) -> Gains:
        """:meth:`Relaxation.gains_bound`, looking up the relaxation's tables first (``shape``: the
        pyramid's, without free kings, or ``None``)."""
        search = self.search
        relaxation = search.relaxation
        if shape is not None and relaxation.mask_useless:
            key = pyramid | (counts & shape.need) << KEY_SHIFT
            if key in relaxation.wins:
                return pyramid.bit_count(), pyramid.bit_count() + total_count(counts)
            gains = relaxation.losses.get(key)
            if gains is not None:
                return gains
        return relaxation.gains_bound(pyramid, counts)

    def _could_improve(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int,
                       shape: Shape | None = None) -> bool:
        """Branch-and-bound: whether this node's upper bounds beat the best found.  In the last pass
        under buried-waste the waste below its highest card nothing can remove is out of reach for
        good: those cards stay.  When only the cards in all could beat it, talon-order (talon pairs)
        may still say no, and after it talon-set."""
        if not self.bounds:
            return True
        search = self.search
        tables = search.tables
        reach = talon
        if search.last_pass_cut and recycles == search.limit:
            if shape is None:
                shape = tables.shape(pyramid)
            waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()
            if waste_cut:
                reach = talon >> waste_cut << waste_cut
            if search.segments is None:  # buried-waste alone: last_pass_gains, inline
                if waste_cut:
                    counts -= tables.counts(talon ^ reach)
                if search.unreachable_cut:
                    counts -= tables.counts(search.unreachable_cards(reach, drawn, recycles, shape) & reach)
                gains = self._gains_bound(pyramid, counts, shape)
            else:
                found, counts = search.last_pass_gains(pyramid, shape, talon, drawn, counts)
                gains = found or (pyramid.bit_count(), pyramid.bit_count() + total_count(counts))
        else:
            if search.unreachable_cut:
                hidden = search.unreachable_cards(talon, drawn, recycles, shape or tables.shape(pyramid))
                counts -= tables.counts(hidden)
            position = pyramid | counts << KEY_SHIFT
            gains = self.gains.get(position)
            if gains is None:
                gains = self.gains[position] = search.relaxation.gains_bound(pyramid, counts)
        room = self._room(28 - pyramid.bit_count() + gains[0],
                          52 - pyramid.bit_count() - talon.bit_count() + (reach & tables.talon_kings).bit_count())
        if room is not None:
            if gains[1] < room:
                return False
            if self.order_bound is not None:
                if not self.order_bound.reaches(pyramid, talon, counts, gains[0], room):
                    return False
                if self.talon_set is None:
                    return True
                removed = 28 - pyramid.bit_count()
                if removed + gains[0] == search.best[0] and search.max_all > search.best[1]:
                    # beat the best's cards in all with its pyramid cards, or the most cards with fewer
                    return not self.talon_set.cuts(pyramid, talon & ~tables.talon_kings, room, gains[1],
                                                   search.best[0] - removed, room + search.max_all - search.best[1])
                return not self.talon_set.cuts(pyramid, talon & ~tables.talon_kings, room, gains[1])
        if search.waste_stack is None or recycles != search.limit:
            return True
        stock = talon >> drawn << drawn  # waste-stack: the waste in its order (never weaker than the multiset game)
        waste = reach ^ stock
        if not waste & (waste - 1):
            return True  # a waste of one card is always on top: the same game
        gains = search.waste_stack.search(pyramid, waste, tables.counts(stock))
        if gains is None:
            return True  # it can clear the pyramid: every pyramid card stays in the bound
        room = self._room(28 - pyramid.bit_count() + gains[0],
                          52 - pyramid.bit_count() - talon.bit_count() + (stock & tables.talon_kings).bit_count())
        return room is None or gains[1] >= room

    def _room(self, bound_pyramid: int, off: int) -> int | None:
        """Branch-and-bound's test, given a node's bound on the pyramid cards and the cards already off (or counted
        as such): ``None`` when its pyramid cards may beat the best found, else what its cards still
        removable must reach to beat it (the best's pyramid cards are the most found, ``max_pyramid``)."""
        search = self.search
        if bound_pyramid > search.max_pyramid:
            return None
        if search.pyramid_only:
            return 53  # more than any count of cards: only more pyramid cards count
        return (search.best[1] if bound_pyramid == search.best[0] else search.max_all) + 1 - off

    def _explore(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, root: bool = True) -> None:
        search = self.search
        path = search.path
        base = len(path)
        tables = search.tables
        shape = tables.shapes.get(pyramid) or tables.shape(pyramid)
        if shape.kings or (search.silent_kings and (talon & tables.talon_kings) >> (drawn - 1 if drawn else 0)):
            pyramid, talon, drawn = search.normalise(pyramid, talon, drawn)  # kings on the top or in the stock
            shape = tables.shape(pyramid)
        key, time = search.key_of(search, pyramid, talon, drawn, recycles)
        if not root:
            memo = search.memo
            failed = memo.get(key)
            if failed is not None and time >= failed:
                del path[base:]
                return  # searched at this time or an earlier one: its counts were noted then
            memo[key] = time
        left = pyramid.bit_count()
        if (28 - left >= search.best[0]
                or 52 - left - talon.bit_count() + (talon & tables.talon_kings).bit_count() > search.max_all):
            search.note(pyramid, talon, recycles)
        if self._could_improve(pyramid, talon, drawn, recycles, counts, shape):
            budget = search.budget
            budget.states += 1
            if budget.states >= budget.next_check:
                budget.check()
            explore = self._explore
            children = search.children_of(search, pyramid, talon, drawn, recycles, counts, shape)
            if self.talon_first:
                children = [child for child in children if child[0][1]] + [
                    child for child in children if not child[0][1]]
            if search.draw_count == 1:  # skip what the child's own memo check would skip (no kings to play)
                memo_get = search.memo.get
                shapes = tables.shapes
                kings = tables.talon_kings if search.silent_kings else 0
                timed = search.limit is not None
                for step, child_pyramid, child_talon, child_drawn, child_recycles, child_counts in children:
                    child_shape = shapes.get(child_pyramid)
                    if child_shape is not None and not (child_talon & kings) >> (child_drawn - 1 if child_drawn else 0):
                        known = child_pyramid
                        while child_shape.kings:  # pyramid-kings, as normalise plays them
                            known &= ~child_shape.kings
                            child_shape = shapes.get(known)
                            if child_shape is None:
                                break
                        else:
                            failed = memo_get(known | child_talon << KEY_SHIFT)
                            if failed is not None and (
                                    child_recycles << PASS_SHIFT | child_drawn if timed else 0) >= failed:
                                continue
                    path.append(step)
                    explore(child_pyramid, child_talon, child_drawn, child_recycles, child_counts, False)
                    path.pop()
            elif search.limit is not None:  # the same, under draw-3 (the key holds the pointer, the time the recycles)
                memo_get = search.memo.get
                shapes = tables.shapes
                for step, child_pyramid, child_talon, child_drawn, child_recycles, child_counts in children:
                    child_shape = shapes.get(child_pyramid)
                    if child_shape is not None and not child_shape.kings:
                        failed = memo_get(child_pyramid | child_talon << KEY_SHIFT | child_drawn << TALON_KEY_SHIFT)
                        if failed is not None and child_recycles >= failed:
                            continue
                    path.append(step)
                    explore(child_pyramid, child_talon, child_drawn, child_recycles, child_counts, False)
                    path.pop()
            else:
                for step, child_pyramid, child_talon, child_drawn, child_recycles, child_counts in children:
                    path.append(step)
                    explore(child_pyramid, child_talon, child_drawn, child_recycles, child_counts, False)
                    path.pop()
        del path[base:]
