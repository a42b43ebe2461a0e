"""Phase 2 of the talon search: the most pyramid cards, and the most cards in all, a lost position
can still see removed — branch and bound over the positions phase 1 set aside (B1, B2, B3 and L5's
bound; docs/solver.md).  A mixin of :class:`~pyramide_cli.solver.talon_search.TalonSearch`, which
holds the positions, the tables and the memo it works on.
"""

from __future__ import annotations

from ..engine import kernel

from .budget import SearchCapped
from .relaxation import KEY_SHIFT, Gains
from .tables import Shape, total_count

PASS_SHIFT = 5  # drawn < 32
PROBE_STATES = 3_000
"""Positions phase 2's probe may expand before the search proper (B3; 0: no probe)."""
TALON_KEY_SHIFT = 52
Step = kernel.Step


class Maximise:
    """Phase 2's methods (see the module docstring)."""

    def maximise(self) -> None:
        """Branch and bound over the positions phase 1 set aside (after :meth:`find_win` failed).

        A probe comes first (B3): the same search with the talon's removals tried before the
        pyramid's own pairs, on a copy of the memo, stopped after :data:`PROBE_STATES` positions.
        What it finds are real positions reached by real lines, so it only raises the best found
        before the search proper, which then cuts more; the memo it filled (valid only for its own
        order and its own cut) is dropped."""
        deferred, self.deferred = self.deferred, []
        if PROBE_STATES and (self.stock_top or self.waste_pair) and self.limit != 0:  # elsewhere it did not pay
            memo = self.memo
            self.memo = dict(memo)
            self.talon_first = True
            self.budget.cap(PROBE_STATES)
            try:
                self._maximise(deferred)
                return  # the probe went to the end: it was the whole search, in another order
            except SearchCapped:
                pass
            finally:
                self.budget.cap(None)
                self.talon_first = False
                self.memo = memo
        self._maximise(deferred)

    def _maximise(self, deferred: list[tuple[int, int, int, int, int, tuple[Step, ...], int, int]]) -> None:
        done: set[int] = set()
        for pyramid, talon, drawn, recycles, counts, path, bound_pyramid, bound_all in deferred:
            key, time = self.key_and_time(pyramid, talon, drawn, recycles)
            if self.memo[key] < time or key in done:
                continue  # set aside again at an earlier time, which dominates
            done.add(key)
            if not (bound_pyramid > self.max_pyramid or bound_all > self.max_all
                    or bound_pyramid == self.best[0] and bound_all > self.best[1]):
                continue  # the bound phase 1 found (no smaller than B1's) cannot beat the best: nothing to do
            self.path = list(path)
            self._explore(pyramid, talon, drawn, recycles, counts)

    def _gains_bound(self, pyramid: int, counts: int, shape: Shape | None) -> Gains:
        """:meth:`Relaxation.gains_bound`, looking up the relaxation's tables first (``shape``: the
        pyramid's, without free kings, or ``None``)."""
        relaxation = self.relaxation
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
        """B1: whether this node's upper bounds beat the best found.  In the last pass under L1 the
        waste below its highest card nothing can remove is out of reach for good: those cards stay.
        When only the cards in all could beat it, B2 (talon pairs) may still say no, and after it B4
        (the talon-set game)."""
        tables = self.tables
        reach = talon
        if self.last_pass_cut and recycles == self.limit:
            if shape is None:
                shape = tables.shape(pyramid)
            waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()
            if waste_cut:
                reach = talon >> waste_cut << waste_cut
            if self.segments is None:  # L1 alone: last_pass_gains, inline
                if waste_cut:
                    counts -= tables.counts(talon ^ reach)
                gains = self._gains_bound(pyramid, counts, shape)
            else:
                found, counts = self.last_pass_gains(pyramid, shape, talon, drawn, counts)
                gains = found or (pyramid.bit_count(), pyramid.bit_count() + total_count(counts))
        else:
            position = pyramid | counts << KEY_SHIFT
            gains = self.gains.get(position)
            if gains is None:
                gains = self.gains[position] = self.relaxation.gains_bound(pyramid, counts)
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
                if removed + gains[0] == self.best[0] and self.max_all > self.best[1]:
                    # beat the best's cards in all with its pyramid cards, or the most cards with fewer
                    return not self.talon_set.cuts(pyramid, talon & ~tables.talon_kings, room, gains[1],
                                                   self.best[0] - removed, room + self.max_all - self.best[1])
                return not self.talon_set.cuts(pyramid, talon & ~tables.talon_kings, room, gains[1])
        if self.waste_stack is None or recycles != self.limit:
            return True
        stock = talon >> drawn << drawn  # L5: the waste in its order (never weaker than the multiset game)
        waste = reach ^ stock
        if not waste & (waste - 1):
            return True  # a waste of one card is always on top: the same game
        gains = self.waste_stack.search(pyramid, waste, tables.counts(stock))
        if gains is None:
            return True  # it can clear the pyramid: every pyramid card stays in the bound
        room = self._room(28 - pyramid.bit_count() + gains[0],
                          52 - pyramid.bit_count() - talon.bit_count() + (stock & tables.talon_kings).bit_count())
        return room is None or gains[1] >= room

    def _room(self, bound_pyramid: int, off: int) -> int | None:
        """B1's test, given a node's bound on the pyramid cards and the cards already off (or counted
        as such): ``None`` when its pyramid cards may beat the best found, else what its cards still
        removable must reach to beat it (the best's pyramid cards are the most found, ``max_pyramid``)."""
        if bound_pyramid > self.max_pyramid:
            return None
        return (self.best[1] if bound_pyramid == self.best[0] else self.max_all) + 1 - off

    def _explore(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, root: bool = True) -> None:
        path = self.path
        base = len(path)
        tables = self.tables
        shape = tables.shapes.get(pyramid) or tables.shape(pyramid)
        if shape.kings or (self.silent_kings and (talon & tables.talon_kings) >> (drawn - 1 if drawn else 0)):
            pyramid, talon, drawn = self.normalise(pyramid, talon, drawn)  # kings on the top or in the stock
            shape = tables.shape(pyramid)
        if self.draw_count == 1:
            key = pyramid | talon << KEY_SHIFT
            time = 0 if self.limit is None else recycles << PASS_SHIFT | drawn
        elif self.limit is not None:  # key_and_time, inline
            key = pyramid | talon << KEY_SHIFT | drawn << TALON_KEY_SHIFT
            time = recycles
        else:
            key, time = self.key_and_time(pyramid, talon, drawn, recycles)
        if not root:
            memo = self.memo
            failed = memo.get(key)
            if failed is not None and time >= failed:
                del path[base:]
                return  # searched at this time or an earlier one: its counts were noted then
            memo[key] = time
        left = pyramid.bit_count()
        if (28 - left >= self.best[0]
                or 52 - left - talon.bit_count() + (talon & tables.talon_kings).bit_count() > self.max_all):
            self.note(pyramid, talon, recycles)
        if self._could_improve(pyramid, talon, drawn, recycles, counts, shape):
            budget = self.budget
            budget.states += 1
            if budget.states >= budget.next_check:
                budget.check()
            explore = self._explore
            children = self.children_of(self, pyramid, talon, drawn, recycles, counts, shape)
            if self.talon_first:
                children = [child for child in children if child[0][1]] + [
                    child for child in children if not child[0][1]]
            if self.draw_count == 1:  # skip here what the child's own memo check would skip (no kings to play)
                memo_get = self.memo.get
                shapes = tables.shapes
                kings = tables.talon_kings if self.silent_kings else 0
                timed = self.limit is not None
                for step, child_pyramid, child_talon, child_drawn, child_recycles, child_counts in children:
                    child_shape = shapes.get(child_pyramid)
                    if child_shape is not None and not (child_talon & kings) >> (child_drawn - 1 if child_drawn else 0):
                        known = child_pyramid
                        while child_shape.kings:  # K1, as normalise plays it
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
            elif self.limit is not None:  # the same, under draw-3 (its key holds the pointer; its time is the recycles)
                memo_get = self.memo.get
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
