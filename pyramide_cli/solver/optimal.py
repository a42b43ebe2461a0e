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
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from ..moves import Move
from ..position import Position
from .budget import Budget
from .lines import LineBuilder, step_move
from .relaxation import Relaxation
from .tables import DealTables
from .talon_search import TalonSearch, walk_removals

STATE_DRAWN_SHIFT = 52
STATE_PASS_SHIFT = 57


class _Heuristic:
    def __init__(self, tables: DealTables, relaxation: Relaxation) -> None:
        rules = tables.rules
        self.tables = tables
        self.relaxation = relaxation
        self.strict = rules.strict
        self.walk_bound = rules.draw_count == 1 and not rules.stock_top and not rules.waste_pair
        self.draw_count = rules.draw_count
        self.limit = rules.recycle_limit
        self._pyramid: dict[int, tuple[int, tuple[tuple[int, int], ...]]] = {}
        self._values_present: dict[int, int] = {}
        self.use_relaxed = not rules.waste_pair and not rules.stock_top

    def _pyramid_part(self, pyramid: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        """(removals the pyramid needs, ((talon value, how many talon cards of it are needed), …))."""
        cached = self._pyramid.get(pyramid)
        if cached is None:
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
                (value, max(alone[value], counts[13 - value] - counts[value]))
                for value in range(1, 13) if max(alone[value], counts[13 - value] - counts[value]) > 0
            )
            cached = (removals, needed)
            self._pyramid[pyramid] = cached
        return cached

    def estimate(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int) -> int | None:
        """A lower bound on the actions left, or ``None`` when the talon cannot serve the pyramid."""
        if self.strict:
            return self._strict_estimate(pyramid, talon, drawn)
        removals, needed = self._pyramid_part(pyramid)
        floor = 0
        if self.use_relaxed:
            relaxed = self.relaxation.least_cost(pyramid, counts, 0)
            if relaxed is None:
                return None
            removals = max(removals, relaxed)
            if self.walk_bound:
                floor = self.relaxation.least_cost(pyramid, counts, 1) - (talon & ((1 << drawn) - 1)).bit_count()
        if not needed or not self.walk_bound:
            return max(removals, floor)
        walked = self._walk_estimate(removals, needed, pyramid, talon, drawn, recycles)
        return None if walked is None else max(walked, floor)

    def _present(self, pyramid: int) -> int:
        """Bit ``v`` set when the pyramid still holds a card of value ``v``."""
        present = self._values_present.get(pyramid)
        if present is None:
            values = self.tables.pyramid_values
            present = 0
            for slot in range(28):
                if pyramid >> slot & 1:
                    present |= 1 << values[slot]
            self._values_present[pyramid] = present
        return present

    def _walk_estimate(self, removals: int, needed, pyramid: int, talon: int, drawn: int, recycles: int) -> int | None:
        """Each needed talon card not on the waste must be drawn: walk until all are met."""
        values = self.tables.talon_values
        missing = dict(needed)
        # Waste cards come back without a draw only by removing every card above them, so only
        # down to the first card that nothing left in the pyramid (and no king rule) can remove.
        present = self._present(pyramid)
        top = drawn - 1
        while top >= 0:
            value = values[top]
            if missing.get(value, 0) > 0:
                missing[value] -= 1
            if value != 13 and not present >> (13 - value) & 1:
                break
            top = (talon & ((1 << top) - 1)).bit_length() - 1
        short = sum(count for count in missing.values() if count > 0)
        if not short:
            return removals
        actions = 0
        # Unlimited recycles: one more whole sweep meets whatever can be met at all.
        recycles_left = 1 if self.limit is None else self.limit - recycles
        stock, index = talon >> drawn, drawn
        while True:
            while stock:
                gap = (stock & -stock).bit_length()
                index += gap
                stock >>= gap
                actions += 1
                value = values[index - 1]
                if missing.get(value, 0) > 0:
                    missing[value] -= 1
                    short -= 1
                    if not short:
                        return removals + actions
            if recycles_left <= 0 or not talon:
                return None
            recycles_left -= 1
            actions += 1  # recycle: every card is in the stock again
            stock, index = talon, 0

    def _strict_estimate(self, pyramid: int, talon: int, drawn: int) -> int:
        counts = [0] * 14
        for values, mask in ((self.tables.pyramid_values, pyramid), (self.tables.talon_values, talon)):
            rest = mask
            while rest:
                low = rest & -rest
                counts[values[low.bit_length() - 1]] += 1
                rest ^= low
        removals = counts[13] + sum(max(counts[v], counts[13 - v]) for v in range(1, 7))
        stock = (talon >> drawn).bit_count()
        draws = -(-stock // self.draw_count) if self.walk_bound or self.draw_count == 3 else 0
        return removals + draws


def shortest_line(position: Position, tables: DealTables, relaxation: Relaxation, budget: Budget,
                  upper_bound: Sequence[Move] | None = None) -> list[Move]:
    """A line with the fewest actions from ``position`` (which must be winnable).

    ``upper_bound``: a known winning line; nodes that cannot beat or equal it are dropped, and
    it is returned if the search finds nothing shorter.
    """
    rules = tables.rules
    strict = rules.strict
    unlimited = rules.recycle_limit is None
    heuristic = _Heuristic(tables, relaxation)
    shape_of = tables.shape
    bound = len(upper_bound) if upper_bound is not None else None
    plain = rules.draw_count == 1 and not rules.stock_top and not rules.waste_pair
    oracle = TalonSearch(tables, relaxation, budget)
    units = tables.talon_units

    def settle(pyramid: int) -> tuple[int, list[int]]:
        kings = []
        while True:
            free_kings = shape_of(pyramid).kings
            if not free_kings:
                return pyramid, kings
            low = free_kings & -free_kings
            kings.append(low)
            pyramid ^= low

    start_pyramid, start_kings = settle(position.pyramid)
    start = (start_pyramid, position.talon, position.drawn, 0 if unlimited else position.recycles,
             tables.counts(position.talon))
    start_key = _key(*start[:4])
    labels = _Labels(rules.recycle_limit, rules.draw_count)
    labels.add(start_pyramid, position.talon, len(start_kings), start[3], start[2])
    best_cost = {start_key: len(start_kings)}
    parents: dict[int, tuple[int, int, tuple[int, int], list[int]] | None] = {start_key: None}
    queue = [(len(start_kings) + (heuristic.estimate(*start) or 0), -len(start_kings), 0, start)]
    counter = 0
    while queue:
        _, negative_cost, _, state = heapq.heappop(queue)
        cost = -negative_cost
        pyramid, talon, drawn, recycles, counts = state
        key = _key(pyramid, talon, drawn, recycles)
        if best_cost.get(key, cost) < cost:
            continue
        if not pyramid and not (strict and talon):
            return _rebuild(position, key, parents, start_kings)
        if labels.dominated(pyramid, talon, cost, recycles, drawn, strictly=True):
            continue
        budget.tick()
        if not relaxation.can_win(pyramid, counts) or not oracle.can_win(pyramid, talon, drawn, recycles, counts):
            continue  # no win below this node
        edges = _plain_edges if plain else _edges
        for walk, step, after_talon, after_drawn, after_recycles in edges(tables, pyramid, talon, drawn, recycles):
            child_pyramid, kings = settle(pyramid & ~step[0])
            child_counts = counts
            if step[1]:
                rest = step[1]
                while rest:
                    low = rest & -rest
                    child_counts -= units[low.bit_length() - 1]
                    rest ^= low
            child_cost = cost + walk + 1 + len(kings)
            if labels.dominated(child_pyramid, after_talon, child_cost, after_recycles, after_drawn):
                continue
            remaining = heuristic.estimate(child_pyramid, after_talon, after_drawn, after_recycles, child_counts)
            if remaining is None:
                continue
            estimate = child_cost + remaining
            if bound is not None and estimate > bound:
                continue
            child = (child_pyramid, after_talon, after_drawn, after_recycles, child_counts)
            child_key = _key(child_pyramid, after_talon, after_drawn, after_recycles)
            labels.add(child_pyramid, after_talon, child_cost, after_recycles, after_drawn)
            best_cost[child_key] = child_cost
            parents[child_key] = (key, walk, step, kings)
            counter += 1
            heapq.heappush(queue, (estimate, -child_cost, counter, child))
    if upper_bound is None:
        raise ValueError("shortest_line() needs a winnable position")
    return list(upper_bound)


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


def _edges(tables: DealTables, pyramid: int, talon: int, drawn: int, recycles: int):
    for mask in tables.shape(pyramid).pairs:
        yield 0, (mask, 0), talon, drawn, recycles
    yield from walk_removals(tables, pyramid, talon, drawn, recycles, remove_kings=False)


def _plain_edges(tables: DealTables, pyramid: int, talon: int, drawn: int, recycles: int):
    """:func:`_edges` for draw-1 without talon pairs: each talon card is in play as the waste top,
    first at its turn in this pass (the top now costs nothing), else in the next pass."""
    shape = tables.shape(pyramid)
    for mask in shape.pairs:
        yield 0, (mask, 0), talon, drawn, recycles
    by_need = shape.by_need
    wanted = talon & (shape.wanted_talon | tables.talon_kings)
    if not wanted:
        return
    values = tables.talon_values
    start = drawn - 1 if drawn else 0
    limit = tables.rules.recycle_limit
    passes = [(start, talon >> start, 0, recycles)]
    if start and (limit is None or recycles < limit):  # empty the stock, recycle, draw again
        passes.append((0, talon & ((1 << start) - 1), (talon >> drawn).bit_count() + 1,
                       0 if limit is None else recycles + 1))
    top = drawn - 1
    for index, rest, walked, pass_number in passes:
        while rest:
            gap = (rest & -rest).bit_length()
            index += gap
            rest >>= gap
            card = index - 1
            if card != top:
                walked += 1  # one draw brings it to the top
            if not wanted >> card & 1:
                continue
            after = talon & ~(1 << card)
            after_drawn = (after & ((1 << card) - 1)).bit_length()
            cost = 0 if card == top else walked
            if values[card] == 13:
                yield cost, (0, 1 << card), after, after_drawn, pass_number
            else:
                for bit in by_need.get(values[card], ()):
                    yield cost, (bit, 1 << card), after, after_drawn, pass_number


def _key(pyramid: int, talon: int, drawn: int, recycles: int) -> int:
    return pyramid | talon << 28 | drawn << STATE_DRAWN_SHIFT | recycles << STATE_PASS_SHIFT


def _rebuild(position: Position, key: int, parents, start_kings: list[int]) -> list[Move]:
    edges = []
    while parents[key] is not None:
        parent, _, step, kings = parents[key]
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
