"""Fewest actions: A* over exact positions, every draw and recycle counting as an action.

Between two removals a line can only draw or recycle, and those are deterministic, so an edge is
"walk ``k`` actions along the draw/recycle walk, then remove" and costs ``k + 1``; a removal is
taken at its first occurrence on the walk (the cheapest, and the earliest, so nothing is lost).
Free pyramid kings are removed at once (every line removes them, and sooner never costs more);
talon kings are ordinary moves here, since removing one costs an action a line may not need.

The heuristic (admissible, so the first goal popped is optimal): every pyramid card must go, a
removal takes at most one card of value ``v`` and one of ``13 - v``, so at least
``max(count v, count 13-v)`` removals per value pair (kings one each); the pyramid cards of a
value pair that outnumber their partners need talon cards, and each talon card still in the stock
needs a draw to come into play (draw-1, no ``stock-top``).  Under ``strict`` talon cards count
too.  Positions the multiset relaxation proves lost are never expanded.

With limited recycles (draw-1, no talon pairs) the start is asked which pass a win can end in
first (F1), which raises the bound of every position before that pass; and when no win ends in
the start's own pass, that pass is enumerated once and the A* starts from every position the next
pass can start from, each at the cost it is known to have (F2).  See docs/solver.md.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import NamedTuple

from ..engine.moves import Move
from ..engine.position import Position
from .budget import Budget
from .lines import LineBuilder, step_move
from .relaxation import Relaxation
from .tables import COVERED_BY, UNITS, DealTables
from .talon_search import TalonSearch

STATE_DRAWN_SHIFT = 52
STATE_PASS_SHIFT = 57


class _Heuristic:
    """Admissible lower bounds on the actions left (docs/solver.md, ``--optimal``)."""

    def __init__(self, tables: DealTables, relaxation: Relaxation) -> None:
        rules = tables.rules
        self.tables = tables
        self.relaxation = relaxation
        self.strict = rules.strict
        self.walk_bound = rules.plain_talon
        self.use_relaxed = not rules.talon_pairs
        self.draw_count = rules.draw_count
        self.limit = rules.recycle_limit
        self._value_talon = tuple(tables.value_talon(value) for value in range(14))
        self._pyramid: dict[int, _PyramidBounds] = {}
        self.dig = _Dig(tables)
        self.final_pass = 0
        """F1: no line from the search's start wins before this pass (set by :func:`shortest_line`)."""

    def pyramid_bounds(self, pyramid: int) -> _PyramidBounds:
        """What the bounds need from a pyramid shape alone (built once per shape)."""
        cached = self._pyramid.get(pyramid)
        if cached is None:
            cached = self._pyramid[pyramid] = self._build_pyramid_bounds(pyramid)
        return cached

    def _build_pyramid_bounds(self, pyramid: int) -> _PyramidBounds:
        tables = self.tables
        counts = [0] * 14
        alone = [0] * 14  # cards with no pyramid partner left, by the talon value they need
        values = tables.pyramid_values
        rest = pyramid
        while rest:
            low = rest & -rest
            slot = low.bit_length() - 1
            value = values[slot]
            counts[value] += 1
            if value != 13 and not pyramid & tables.partner_slots[slot]:
                alone[13 - value] += 1
            rest ^= low
        removals = counts[13] + sum(max(counts[v], counts[13 - v]) for v in range(1, 7))
        needed = tuple(
            (self._value_talon[value], max(alone[value], counts[13 - value] - counts[value]))
            for value in range(1, 13) if max(alone[value], counts[13 - value] - counts[value]) > 0
        )
        shape = tables.shape(pyramid)
        partners = tuple(counts[13 - value] for value in range(13))
        return _PyramidBounds(removals, needed, shape.need, shape.dead_talon, not shape.kings,
                              pyramid.bit_count() - counts[13], counts[13], partners)

    def removals(self, pyramid: int, counts: int) -> int | None:
        """A lower bound on the removals left (``None``: the pyramid cannot be cleared)."""
        bounds = self.pyramid_bounds(pyramid)
        if not self.use_relaxed:
            return bounds.removals
        relaxed = self._least_cost(pyramid, counts, 0, bounds)
        return None if relaxed is None else max(bounds.removals, relaxed)

    def _least_cost(self, pyramid: int, counts: int, talon_cost: int, bounds: _PyramidBounds) -> int | None:
        if bounds.settled:  # the relaxation's own memo, looked up without a call
            cached = self.relaxation.costs.get((pyramid | (counts & bounds.need) << 28) << 1 | talon_cost, _MISSING)
            if cached is not _MISSING:
                return cached
        return self.relaxation.least_cost(pyramid, counts, talon_cost)

    def estimate(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int) -> int | None:
        """A lower bound on the actions left, or ``None`` when the talon cannot serve the pyramid."""
        if self.strict:
            return self._strict_estimate(pyramid, talon, drawn)
        bounds = self.pyramid_bounds(pyramid)
        removals = bounds.removals
        floor = 0
        if self.use_relaxed:
            relaxed = self._least_cost(pyramid, counts, 0, bounds)
            if relaxed is None:
                return None
            if relaxed > removals:
                removals = relaxed
        if not self.walk_bound:
            return removals
        reachable = self.dig.reachable(pyramid, talon, drawn, bounds.dead)
        if recycles < self.final_pass:
            floor = self._passes_floor(bounds, removals, talon, drawn, recycles, reachable)
        if self.use_relaxed:
            # every talon card used is drawn, unless it comes back from the waste in this pass
            floor = max(floor, self._least_cost(pyramid, counts, 1, bounds) - reachable.bit_count())
        if not bounds.needed:
            return max(removals, floor)
        walked = self._walk(bounds, reachable, talon, drawn, recycles)
        return None if walked is None else max(removals + walked, floor)

    def _passes_floor(self, bounds: _PyramidBounds, removals: int, talon: int, drawn: int, recycles: int,
                      reachable: int) -> int:
        """F1: the actions left when the line must still recycle into pass :attr:`final_pass`.

        It draws the rest of this stock, recycles ``final_pass - recycles`` times, draws every card
        still in the talon in each pass between, and a shortest line draws at least once in its last
        pass (after a recycle the waste is empty: without a draw that pass removes only pyramid
        pairs, which the line could remove before that recycle and save it).  Of the talon cards
        the rest of this pass can still bring into play (the stock and the reachable waste), at
        most ``x`` non-kings leave it, each with a pyramid card of the value it needs; every one
        used costs a removal of its own where two pyramid cards share one, so the removals are at
        least ``(pyramid non-kings + x) / 2`` plus the kings, and using fewer than the most only
        leaves more to draw in the next pass.
        """
        passes = self.final_pass - recycles
        stock = talon >> drawn << drawn
        if passes == 1:
            return removals + stock.bit_count() + 2
        values = self.tables.talon_values
        partners = bounds.partners
        in_play = _value_counts(values, stock | reachable)
        used = 0
        for value in range(1, 13):
            used += min(in_play[value], partners[value])
        kings = in_play[13]
        least = max(removals, (bounds.non_kings + used + 1) // 2 + bounds.kings + kings)
        next_pass = talon.bit_count() - used - kings
        later = 0
        if passes > 2:  # later passes between: at most every talon card a pyramid card can take has gone
            in_talon = _value_counts(values, talon)
            left = talon.bit_count() - in_talon[13] - sum(min(in_talon[v], partners[v]) for v in range(1, 13))
            later = (passes - 2) * left
        return least + stock.bit_count() + passes + next_pass + later + 1

    def _walk(self, bounds: _PyramidBounds, reachable: int, talon: int, drawn: int, recycles: int) -> int | None:
        """Draws and recycles before every needed talon card has been in play (W2).

        Each needed card must come from the waste or be drawn.  Waste cards come back without a
        draw only by removing every card above them, so only those above the highest waste card
        nothing left in the pyramid can remove count.  The rest are met at the walk's first cards
        of each needed value (this pass's stock, then whole passes after each recycle); the walk
        must go on until the last of them.
        """
        stock = talon >> drawn << drawn
        stock_count = stock.bit_count()
        passes_left = 1 if self.limit is None else self.limit - recycles
        total = talon.bit_count()
        longest = 0
        for cards_of_value, count in bounds.needed:
            cards = cards_of_value & talon
            count -= (cards & reachable).bit_count()
            if count <= 0:
                continue
            ahead = cards & stock
            in_stock = ahead.bit_count()
            if count <= in_stock:
                for _ in range(count - 1):
                    ahead &= ahead - 1
                end = (ahead & -ahead).bit_length()  # one past the card that meets the need
                walk = (stock & ((1 << end) - 1)).bit_count()
            else:
                per_pass = cards.bit_count()
                if not per_pass:
                    return None
                count -= in_stock
                passes = -(-count // per_pass)
                if passes > passes_left:
                    return None
                pick = cards
                for _ in range(count - (passes - 1) * per_pass - 1):
                    pick &= pick - 1
                end = (pick & -pick).bit_length()
                walk = stock_count + passes + (passes - 1) * total + (talon & ((1 << end) - 1)).bit_count()
            if walk > longest:
                longest = walk
        return longest

    def _strict_estimate(self, pyramid: int, talon: int, drawn: int) -> int:
        counts = _value_counts(self.tables.pyramid_values, pyramid)
        for value, count in enumerate(_value_counts(self.tables.talon_values, talon)):
            counts[value] += count
        removals = counts[13] + sum(max(counts[v], counts[13 - v]) for v in range(1, 7))
        stock = (talon >> drawn).bit_count()
        draws = -(-stock // self.draw_count) if self.walk_bound or self.draw_count == 3 else 0
        return removals + draws


def _value_counts(values: Sequence[int], mask: int) -> list[int]:
    """How many of the cards in ``mask`` have each value (index 0–13), ``values`` giving each index's."""
    counts = [0] * 14
    while mask:
        low = mask & -mask
        counts[values[low.bit_length() - 1]] += 1
        mask ^= low
    return counts


LIES_ON: tuple[int, ...] = tuple(sum(1 << lower for lower in COVERED_BY[slot]) for slot in range(28))
"""Per slot, the (0-2) slots its card lies on directly."""


class _DigTooLong(Exception):
    """The dig search went past its cap: fall back to the simpler bound."""


DIG_STATES = 400
"""Positions one dig question may search before falling back to the dead-card cut."""


class _Dig:
    """W3: which waste cards the rest of this pass can still remove, digging from the top.

    A waste card comes back into play only when every card above it is removed, each with a
    pyramid card free at that moment.  The search keeps the pyramid exact and the waste order,
    and lets every stock card pair with a free pyramid card whenever that frees something (the
    stock's order relaxed), so the depth it finds is at least the real one.
    """

    def __init__(self, tables: DealTables) -> None:
        self.tables = tables
        self._memo: dict[tuple[int, int, int], int] = {}
        self._under: dict[int, int] = {}
        self._left = 0

    def reachable(self, pyramid: int, talon: int, drawn: int, dead: int) -> int:
        """Mask of the waste cards this pass can still bring to the top and remove."""
        waste = talon & ((1 << drawn) - 1)
        cut = (waste & dead).bit_length()
        run = waste >> cut << cut  # nothing digs past a card no pyramid card can remove
        if not run:
            return 0
        self._left = DIG_STATES
        try:
            depth = self._search(pyramid, run, self.tables.counts(talon >> drawn << drawn))
        except _DigTooLong:
            return run
        for _ in range(run.bit_count() - depth):
            run &= run - 1  # drop the lowest cards: only the top ``depth`` can be removed
        return run

    def _lies_on(self, removed: int) -> int:
        """The slots the cards of ``removed`` lie on directly."""
        mask = self._under.get(removed)
        if mask is None:
            mask = 0
            rest = removed
            while rest:
                low = rest & -rest
                mask |= LIES_ON[low.bit_length() - 1]
                rest ^= low
            self._under[removed] = mask
        return mask

    def _search(self, pyramid: int, run: int, stock: int) -> int:
        """How many of the cards of ``run`` (a waste mask, dug from its highest card) can go."""
        if not run:
            return 0
        shape_of = self.tables.shape
        shape = shape_of(pyramid)
        while shape.kings:
            pyramid &= ~shape.kings
            shape = shape_of(pyramid)
        stock &= shape.need
        key = (pyramid, run, stock)
        memo = self._memo
        known = memo.get(key)
        if known is not None:
            return known
        self._left -= 1
        if self._left < 0:
            raise _DigTooLong
        size = run.bit_count()
        top = run.bit_length() - 1
        value = self.tables.talon_values[top]
        best = 0
        if value == 13:
            best = 1 + self._search(pyramid, run ^ 1 << top, stock)
        else:
            for bit in shape.by_need.get(value, ()):
                got = 1 + self._search(pyramid & ~bit, run ^ 1 << top, stock)
                if got > best:
                    best = got
                    if best == size:
                        break
        if best < size:
            lies_on = self._lies_on
            for mask in shape.pairs:
                if pyramid & lies_on(mask):  # only removals uncovering a card can help the dig
                    got = self._search(pyramid & ~mask, run, stock)
                    if got > best:
                        best = got
                        if best == size:
                            break
            if best < size:
                for bit, need in shape.singles:
                    if stock & UNITS[need] * 7 and pyramid & lies_on(bit):
                        got = self._search(pyramid & ~bit, run, stock - UNITS[need])
                        if got > best:
                            best = got
                            if best == size:
                                break
        memo[key] = best
        return best


class _PyramidBounds(NamedTuple):
    removals: int
    """Removals the pyramid needs: ``max(count v, count 13-v)`` per value pair, kings one each."""
    needed: tuple[tuple[int, int], ...]
    """(talon mask of a value, how many talon cards of it the pyramid needs) for each needed value."""
    need: int
    """The shape's count-vector mask of the talon values some pyramid card pairs with."""
    dead: int
    """Talon indices (kings aside) no pyramid card can ever pair with."""
    settled: bool
    """No free king (the relaxation's memo keys are this pyramid's)."""
    non_kings: int
    """Pyramid cards other than kings."""
    kings: int
    """Pyramid kings."""
    partners: tuple[int, ...]
    """Per talon value, how many pyramid cards it could pair with."""


_MISSING = object()
PASS_CHECK_STATES = 2_000
"""Positions one "won within this pass?" question may search before it gives up (R2)."""


def shortest_line(position: Position, tables: DealTables, relaxation: Relaxation, budget: Budget,
                  upper_bound: Sequence[Move] | None = None) -> list[Move]:
    """A line with the fewest actions from ``position`` (which must be winnable).

    ``upper_bound``: a known winning line; nodes that cannot beat or equal it are dropped, and
    it is returned if the search finds nothing shorter.
    """
    rules = tables.rules
    strict = rules.strict
    limit = rules.recycle_limit
    heuristic = _Heuristic(tables, relaxation)
    estimate = heuristic.estimate
    shape_of = tables.shape
    bound = len(upper_bound) if upper_bound is not None else None
    plain = rules.plain_talon
    passes = _PassCheck(tables, relaxation, budget, heuristic) if plain and not strict and limit is not None else None
    units = tables.talon_units
    if plain:
        kings_rule = None if limit is None else (position.talon & ((1 << position.drawn) - 1), position.recycles)
    labels = _Labels(limit, rules.draw_count)
    dominated = labels.dominated

    start_pyramid, start_kings = settle_kings(tables, position.pyramid)
    start = (start_pyramid, position.talon, position.drawn, 0 if limit is None else position.recycles,
             tables.counts(position.talon))
    best_cost: dict[int, int] = {}
    parents: dict[int, tuple[int, int, tuple[int, int], Sequence[int]] | None] = {}
    queue: list = []
    counter = 0
    first_pass = None
    if passes is not None and position.recycles < limit:
        first_pass = _FirstPass(tables, heuristic.removals, start, kings_rule)
        if first_pass.explore(budget):
            heuristic.final_pass = position.recycles  # a win ends in this pass
            first_pass = None
        elif first_pass.sources is None:
            heuristic.final_pass = passes.first_winning_pass(*start, position.recycles)
            first_pass = None
        else:
            heuristic.final_pass = passes.first_winning_pass(*start, position.recycles + 1)
    if first_pass is None:
        start_key = _key(*start[:4])
        labels.add(start_pyramid, position.talon, len(start_kings), start[3], start[2])
        best_cost[start_key] = len(start_kings)
        parents[start_key] = None
        queue.append((len(start_kings) + (estimate(*start) or 0), -len(start_kings), 0, start, False))
    else:  # F2: the search starts from every position the next pass can start from
        leave = len(start_kings) + (position.talon >> position.drawn).bit_count() + 1
        for source, (pyramid, talon, counts, removals) in first_pass.sources.items():
            state = (pyramid, talon, 0, position.recycles + 1, counts)
            remaining = estimate(*state)
            cost = leave + removals
            if remaining is None or bound is not None and cost + remaining > bound:
                continue
            key = _key(*state[:4])
            labels.add(pyramid, talon, cost, state[3], 0)
            best_cost[key] = cost
            parents[key] = (-1 - source, 0, (0, 0), ())
            counter += 1
            queue.append((cost + remaining, -cost, counter, state, False))
        heapq.heapify(queue)
    push, pop = heapq.heappush, heapq.heappop
    while queue:
        priority, negative_cost, _, state, checked = pop(queue)
        cost = -negative_cost
        pyramid, talon, drawn, recycles, counts = state
        key = _key(pyramid, talon, drawn, recycles)
        if best_cost[key] < cost:
            continue
        if not pyramid and not (strict and talon):
            return _rebuild(position, key, parents, start_kings, first_pass)
        if dominated(pyramid, talon, cost, recycles, drawn, strictly=True):
            continue
        budget.tick()
        won = None
        if not checked and passes is not None:
            won = passes.refine(pyramid, talon, drawn, recycles, counts, priority - cost)
            if won is not None and won is not True:  # not won in this pass: look again when its turn comes
                if bound is None or cost + won <= bound:
                    counter += 1
                    push(queue, (cost + won, negative_cost, counter, state, True))
                continue
        if won is None and not relaxation.can_win(pyramid, counts):
            continue  # no win below this node
        if plain:
            edges = _plain_edges(tables, pyramid, talon, drawn, recycles, kings_rule)
        else:
            edges = _edges(tables, pyramid, talon, drawn, recycles)
        for walk, step, after_talon, after_drawn, after_recycles in edges:
            child_pyramid = pyramid & ~step[0]
            kings = ()
            if shape_of(child_pyramid).kings:
                child_pyramid, kings = settle_kings(tables, child_pyramid)
            child_counts = counts
            rest = step[1]
            while rest:
                low = rest & -rest
                child_counts -= units[low.bit_length() - 1]
                rest ^= low
            child_cost = cost + walk + 1 + len(kings)
            if dominated(child_pyramid, after_talon, child_cost, after_recycles, after_drawn):
                continue
            remaining = estimate(child_pyramid, after_talon, after_drawn, after_recycles, child_counts)
            if remaining is None:
                continue
            priority = child_cost + remaining
            if bound is not None and priority > bound:
                continue
            child_key = _key(child_pyramid, after_talon, after_drawn, after_recycles)
            labels.add(child_pyramid, after_talon, child_cost, after_recycles, after_drawn)
            best_cost[child_key] = child_cost
            parents[child_key] = (key, walk, step, kings)
            counter += 1
            push(queue, (priority, -child_cost, counter,
                         (child_pyramid, after_talon, after_drawn, after_recycles, child_counts), False))
    if upper_bound is None:
        raise ValueError("shortest_line() needs a winnable position")
    return list(upper_bound)


class _PassCheck:
    """R2: whether a position can be won before the next recycle, asked of the exact search.

    If it cannot, every winning line draws the rest of the stock, recycles and draws again: at
    least ``stock + 2`` actions besides its removals.
    """

    def __init__(self, tables: DealTables, relaxation: Relaxation, budget: Budget, heuristic: _Heuristic) -> None:
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
        """F1: the first pass from ``first`` on a win from the start can end in, as far as the exact
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
"""Positions the start's "won by pass k?" questions may search (F1)."""


class _Labels:
    """Per (pyramid, talon), the (cost, recycles, drawn) already reached (dominance D3).

    From a position the draw/recycle walk reaches the same cards at any later pointer, so a
    label (g, r, d) dominates (g', r', d') when g plus the walk's actions from (r, d) to (r', d')
    is at most g'.
    """

    def __init__(self, limit: int | None, draw_count: int) -> None:
        self.unlimited = limit is None
        self.exact = draw_count != 1  # draw-3 groups cards: only equal pointers compare
        self._labels: dict[int, list[tuple[int, int, int]]] = {}

    def walk(self, talon: int, recycles: int, drawn: int, to_recycles: int, to_drawn: int) -> int | None:
        """Actions of the walk from one pointer to a later one (``None``: not reachable by walking)."""
        if self.exact:
            return 0 if (recycles, drawn) == (to_recycles, to_drawn) else None
        below_target = talon & ((1 << to_drawn) - 1)
        if self.unlimited:
            if to_drawn >= drawn:
                return (below_target >> drawn).bit_count()
            return (talon >> drawn).bit_count() + 1 + below_target.bit_count()
        if (recycles, drawn) > (to_recycles, to_drawn):
            return None
        if recycles == to_recycles:
            return (below_target >> drawn).bit_count()
        passes = to_recycles - recycles
        return (talon >> drawn).bit_count() + passes + (passes - 1) * talon.bit_count() + below_target.bit_count()

    def dominated(self, pyramid: int, talon: int, cost: int, recycles: int, drawn: int, strictly: bool = False) -> bool:
        for other_cost, other_recycles, other_drawn in self._labels.get(pyramid | talon << 28, ()):
            if other_cost > cost:
                continue
            walk = self.walk(talon, other_recycles, other_drawn, recycles, drawn)
            if walk is None:
                continue
            if other_cost + walk < cost or (not strictly and other_cost + walk == cost):
                return True
        return False

    def add(self, pyramid: int, talon: int, cost: int, recycles: int, drawn: int) -> None:
        self._labels.setdefault(pyramid | talon << 28, []).append((cost, recycles, drawn))




FIRST_PASS_STATES_F2 = 150_000
"""Positions F2 may visit in the start's pass before the A* takes that pass itself."""


class _FirstPass:
    """F2: every (pyramid, talon) the start's pass can reach, when no win ends in that pass.

    Every line then draws the rest of the stock and recycles, and what it has spent by the start of
    the next pass is the stock, the recycle and its removals — and the cards removed decide those
    alone: each talon card leaves in a removal of its own (alone if a king), each pyramid king too,
    and the other pyramid cards go two to a removal.  So each such (pyramid, talon) starts the next
    pass at a cost known in advance, whatever the order of the removals, and the A* can start
    from all of them at once with the bound of a pass start, which sees the next pass's draws.
    Positions reached by a pyramid pair last are not sources: the same pair at the start of the
    next pass costs the same.  The enumeration keeps each (pyramid, talon) at its earliest pointer
    (D1) and drops positions the multiset relaxation proves lost (R1).
    """

    def __init__(self, tables: DealTables, least_removals, start, kings_rule) -> None:
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
        left = FIRST_PASS_STATES_F2
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
                    if card != top or first_waste >> card & 1:  # K3
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


def _edges(tables: DealTables, pyramid: int, talon: int, drawn: int, recycles: int):
    """``(actions walked, step, talon after, drawn after, recycles after)`` for every removal along
    the draw/recycle walk (W1), each at its first occurrence."""
    shape = tables.shape(pyramid)
    for mask in shape.pairs:
        yield 0, (mask, 0), talon, drawn, recycles
    by_need = shape.by_need
    for walked, bits, value, after, after_drawn, passes in tables.talon_cards.events(talon, drawn, recycles):
        if not value:
            yield walked, (0, bits), after, after_drawn, passes
        else:
            for bit in by_need.get(value, ()):
                yield walked, (bit, bits), after, after_drawn, passes


def _plain_edges(tables: DealTables, pyramid: int, talon: int, drawn: int, recycles: int,
                 kings_rule: tuple[int, int] | None = None):
    """:func:`_edges` for draw-1 without talon pairs: each talon card is in play as the waste top,
    first at its turn in this pass (the top now costs nothing), else in the next pass.

    ``kings_rule`` (K3, limited recycles): (the search's first waste, its pass); a talon king not
    on that waste is removed only by the walk that first draws it.
    """
    shape = tables.shape(pyramid)
    for mask in shape.pairs:
        yield 0, (mask, 0), talon, drawn, recycles
    by_need = shape.by_need
    wanted = talon & (shape.wanted_talon | tables.talon_kings)
    if not wanted:
        return
    values = tables.talon_values
    top = drawn - 1
    for cards, before, _, pass_number in tables.talon_cards.talon_rules.plain_passes(talon, drawn, recycles):
        rest = wanted & cards
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            after = talon ^ low
            after_drawn = (after & (low - 1)).bit_length()
            cost = before + (cards & ((low << 1) - 1)).bit_count()
            if values[card] == 13:
                if (kings_rule is None or kings_rule[0] >> card & 1
                        or (pass_number == kings_rule[1] and card != top)):
                    yield cost, (0, low), after, after_drawn, pass_number
            else:
                for bit in by_need[values[card]]:
                    yield cost, (bit, low), after, after_drawn, pass_number


def settle_kings(tables: DealTables, pyramid: int) -> tuple[int, list[int]]:
    """Remove the free pyramid kings, and the kings they free, one at a time (K1): the pyramid
    left and the king bits in the order removed."""
    kings = []
    while True:
        free_kings = tables.shape(pyramid).kings
        if not free_kings:
            return pyramid, kings
        low = free_kings & -free_kings
        kings.append(low)
        pyramid ^= low


def _key(pyramid: int, talon: int, drawn: int, recycles: int) -> int:
    return pyramid | talon << 28 | drawn << STATE_DRAWN_SHIFT | recycles << STATE_PASS_SHIFT


def _rebuild(position: Position, key: int, parents, start_kings: list[int], first_pass: _FirstPass | None) -> list[Move]:
    edges = []
    while parents[key] is not None:
        parent, _, step, kings = parents[key]
        if parent < 0:  # an F2 source: on through the first pass
            edges.extend(first_pass.steps_to(-1 - parent))
            break
        edges.append((step, kings))
        key = parent
    builder = LineBuilder(position, remove_talon_kings=False)
    for king in start_kings:
        builder.reach_and_play(step_move(builder.position, king, 0))
    for step, kings in reversed(edges):
        builder.reach_and_play(step_move(builder.position, *step))
        for king in kings:
            builder.reach_and_play(step_move(builder.position, king, 0))
    return builder.moves
