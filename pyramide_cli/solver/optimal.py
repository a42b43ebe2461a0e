"""Fewest actions: A* over exact positions, every draw and recycle counting as an action.

Between two removals a line can only draw or recycle, and those are deterministic, so an edge is
"walk ``k`` actions along the draw/recycle walk, then remove" and costs ``k + 1``; a removal is
taken at its first occurrence on the walk (the cheapest, and the earliest, so nothing is lost).
Free pyramid kings are removed at once (every line removes them, and sooner never costs more);
talon kings are ordinary moves here, since removing one costs an action a line may not need.

The heuristic (:mod:`.bounds`, admissible, so the first goal popped is optimal) and the questions
asked of the exact search about passes (:mod:`.passes`: pass-check, first-winning-pass,
next-pass-starts) are documented in docs/solver.md.  This module holds the search itself: its starts (next-pass-starts may start it from every
position the next pass can start from), its edges, the dominance of labels (label-dominance) and the line.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence

from ..engine.moves import Move
from ..engine.position import Position
from .bounds import MISSING, Heuristic
from .budget import Budget
from .lines import LineBuilder, step_move
from .passes import FirstPass, PassCheck
from .relaxation import Relaxation
from .tables import DealTables, settle_kings

STATE_DRAWN_SHIFT = 52
STATE_PASS_SHIFT = 57
State = tuple[int, int, int, int, int]
"""(pyramid, talon, drawn, recycles, counts) of a node."""


def shortest_line(position: Position, tables: DealTables, relaxation: Relaxation, budget: Budget,
                  upper_bound: Sequence[Move] | None = None) -> list[Move]:
    """A line with the fewest actions from ``position`` (which must be winnable).

    ``upper_bound``: a known winning line; nodes that cannot beat or equal it are dropped, and
    it is returned if the search finds nothing shorter.
    """
    search = _AStar(position, tables, relaxation, budget, upper_bound)
    line = search.run()
    if line is not None:
        return line
    if upper_bound is None:
        raise ValueError("shortest_line() needs a winnable position")
    return list(upper_bound)


class _AStar:
    """One A* search (see the module docstring); :meth:`run` returns the line, or ``None``."""

    def __init__(self, position: Position, tables: DealTables, relaxation: Relaxation, budget: Budget,
                 upper_bound: Sequence[Move] | None) -> None:
        rules = tables.rules
        limit = rules.recycle_limit
        self.position = position
        self.tables = tables
        self.relaxation = relaxation
        self.budget = budget
        self.strict = rules.strict
        self.plain = rules.plain_talon
        self.heuristic = Heuristic(tables, relaxation)
        self.bound = len(upper_bound) if upper_bound is not None else None
        self.passes = (PassCheck(tables, relaxation, budget, self.heuristic)
                       if self.plain and not self.strict and limit is not None else None)
        self.kings_rule = (None if not self.plain or limit is None
                           else (position.talon & ((1 << position.drawn) - 1), position.recycles))
        self.labels = Labels(limit, rules.draw_count)
        self._settled: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.kings_at_top = rules.stock_top and not rules.waste_pair and rules.draw_count == 1
        """A stock king on top is removed, never drawn (docs/solver.md): :func:`_edges` stops its walk there."""
        self.lazy = self.heuristic.stock_dig and self.heuristic.walk_bound and not self.strict
        """lazy-bounds: children are queued with the removals bound, the whole bound taken when popped (a queued
        entry's last field then says it was taken; elsewhere it says pass-check's pass check was asked)."""
        self.best_cost: dict[int, int] = {}
        self.parents: dict[int, tuple[int, int, tuple[int, int], Sequence[int]] | None] = {}
        self.queue: list = []
        self.counter = 0
        self.first_pass: FirstPass | None = None
        start_pyramid, self.start_kings = settle_kings(tables, position.pyramid)
        self.start: State = (start_pyramid, position.talon, position.drawn, 0 if limit is None else position.recycles,
                             tables.counts(position.talon))

    # -- the starts -------------------------------------------------------------------------------------
    def _plan_passes(self) -> None:
        """first-winning-pass and next-pass-starts (limited recycles, draw-1 without talon pairs): how far
        the start's pass goes."""
        passes, position, start = self.passes, self.position, self.start
        if passes is None or position.recycles >= self.tables.rules.recycle_limit:
            return
        first_pass = FirstPass(self.tables, self.heuristic.removals, start, self.kings_rule)
        if first_pass.explore(self.budget):
            self.heuristic.final_pass = position.recycles  # a win ends in this pass
        elif first_pass.sources is None:
            self.heuristic.final_pass = passes.first_winning_pass(*start, position.recycles)
        else:
            self.heuristic.final_pass = passes.first_winning_pass(*start, position.recycles + 1)
            self.first_pass = first_pass

    def _seed(self) -> None:
        """Queue the start, or under next-pass-starts every start of the next pass at its known cost."""
        start, labels = self.start, self.labels
        if self.first_pass is None:
            cost = len(self.start_kings)
            key = _key(*start[:4])
            labels.add(start[0], start[1], cost, start[3], start[2])
            self.best_cost[key] = cost
            self.parents[key] = None
            self.queue.append((cost + (self.heuristic.estimate(*start) or 0), -cost, 0, start, False))
            return
        position, bound = self.position, self.bound
        leave = len(self.start_kings) + (position.talon >> position.drawn).bit_count() + 1
        for source, (pyramid, talon, counts, removals) in self.first_pass.sources.items():
            state = (pyramid, talon, 0, position.recycles + 1, counts)
            remaining = self.heuristic.estimate(*state)
            cost = leave + removals
            if remaining is None or bound is not None and cost + remaining > bound:
                continue
            key = _key(*state[:4])
            labels.add(pyramid, talon, cost, state[3], 0)
            self.best_cost[key] = cost
            self.parents[key] = (-1 - source, 0, (0, 0), ())
            self.counter += 1
            self.queue.append((cost + remaining, -cost, self.counter, state, False))
        heapq.heapify(self.queue)

    # -- the search -------------------------------------------------------------------------------------
    def run(self) -> list[Move] | None:
        self._plan_passes()
        self._seed()
        queue, pop, push = self.queue, heapq.heappop, heapq.heappush
        best_cost, passes, bound, strict = self.best_cost, self.passes, self.bound, self.strict
        budget, relaxation = self.budget, self.relaxation
        lazy, estimate = self.lazy, self.heuristic.estimate
        label_lists, walk_mode = self.labels.lists, self.labels.mode
        while queue:
            priority, negative_cost, _, state, checked = pop(queue)
            cost = -negative_cost
            pyramid, talon, drawn, recycles, counts = state
            key = pyramid | talon << 28 | drawn << STATE_DRAWN_SHIFT | recycles << STATE_PASS_SHIFT
            if best_cost[key] < cost:
                continue
            if not pyramid and not (strict and talon):
                return _rebuild(self.position, key, self.parents, self.start_kings, self.first_pass)
            entries = label_lists[pyramid | talon << 28]  # label-dominance, strictly: another label is cheaper
            if len(entries) > 1 and dominated(entries, talon, cost, recycles, drawn, walk_mode, True):
                continue
            if lazy and not checked:  # queued with the removals bound only: the whole bound now
                remaining = estimate(pyramid, talon, drawn, recycles, counts)
                if remaining is None:
                    continue
                if cost + remaining > priority:
                    if bound is None or cost + remaining <= bound:
                        self.counter += 1
                        push(queue, (cost + remaining, negative_cost, self.counter, state, True))
                    continue
            budget.tick()
            won = None
            if not checked and passes is not None:
                won = passes.refine(pyramid, talon, drawn, recycles, counts, priority - cost)
                if won is not None and won is not True:  # not won in this pass: look again when its turn comes
                    if bound is None or cost + won <= bound:
                        self.counter += 1
                        push(queue, (cost + won, negative_cost, self.counter, state, True))
                    continue
            if won is None and not relaxation.can_win(pyramid, counts):
                continue  # no win below this node
            self._expand(key, cost, state)
        return None

    def _expand(self, key: int, cost: int, state: State) -> None:
        """Queue every child of a node that no label dominates and whose bound fits."""
        tables, bound, queue, push = self.tables, self.bound, self.queue, heapq.heappush
        units = tables.talon_units
        labels, best_cost, parents = self.labels, self.best_cost, self.parents
        label_lists, walk_mode = labels.lists, labels.mode
        settled_get, settle = self._settled.get, self._settle
        lazy = self.lazy
        estimate = self.heuristic.removals if lazy else self.heuristic.estimate
        removals_get = self.heuristic.removals_memo.get
        pyramid, talon, drawn, recycles, counts = state
        if self.plain:
            edges: Iterator = _plain_edges(tables, pyramid, talon, drawn, recycles, self.kings_rule)
        else:
            edges = _edges(tables, pyramid, talon, drawn, recycles, self.kings_at_top)
        for walk, step, after_talon, after_drawn, after_recycles in edges:
            child_pyramid = pyramid & ~step[0]
            settled = settled_get(child_pyramid)
            if settled is None:
                settled = settle(child_pyramid)
            child_pyramid, kings = settled
            child_cost = cost + walk + 1 + len(kings)
            label_key = child_pyramid | after_talon << 28
            entries = label_lists.get(label_key)
            if entries is not None and dominated(entries, after_talon, child_cost, after_recycles, after_drawn,
                                                 walk_mode, False):
                continue
            child_counts = counts
            rest = step[1]
            while rest:
                low = rest & -rest
                child_counts -= units[low.bit_length() - 1]
                rest ^= low
            if lazy:  # Heuristic.removals, its memo read inline
                remaining = removals_get(child_pyramid | child_counts << 28, MISSING)
                if remaining is MISSING:
                    remaining = estimate(child_pyramid, child_counts)
            else:
                remaining = estimate(child_pyramid, after_talon, after_drawn, after_recycles, child_counts)
            if remaining is None:
                continue
            priority = child_cost + remaining
            if bound is not None and priority > bound:
                continue
            child_key = child_pyramid | after_talon << 28 | after_drawn << STATE_DRAWN_SHIFT \
                | after_recycles << STATE_PASS_SHIFT
            label = (child_cost, after_recycles, after_drawn)
            if label_key in label_lists:
                label_lists[label_key].append(label)
            else:
                label_lists[label_key] = [label]
            best_cost[child_key] = child_cost
            parents[child_key] = (key, walk, step, kings)
            self.counter += 1
            push(queue, (priority, -child_cost, self.counter,
                         (child_pyramid, after_talon, after_drawn, after_recycles, child_counts), False))

    def _settle(self, pyramid: int) -> tuple[int, tuple[int, ...]]:
        """pyramid-kings for a child's pyramid, kept by pyramid: (the pyramid left, the kings removed in order)."""
        settled_pyramid, kings = settle_kings(self.tables, pyramid)
        settled = self._settled[pyramid] = (settled_pyramid, tuple(kings))
        return settled


WALK_LIMITED, WALK_UNLIMITED, WALK_EXACT = 0, 1, 2
"""How the walk goes from one pointer to another (:func:`dominated`): draw-1 with limited recycles, draw-1
with unlimited recycles, ``draw-3`` (only equal pointers compare: draws group cards)."""


class Labels:
    """Per (pyramid, talon), the (cost, recycles, drawn) already reached (label-dominance, :func:`dominated`)."""

    def __init__(self, limit: int | None, draw_count: int) -> None:
        self.mode = WALK_EXACT if draw_count != 1 else WALK_UNLIMITED if limit is None else WALK_LIMITED
        self.lists: dict[int, list[tuple[int, int, int]]] = {}
        """Per ``pyramid | talon << 28``, the labels added."""

    def add(self, pyramid: int, talon: int, cost: int, recycles: int, drawn: int) -> None:
        self.lists.setdefault(pyramid | talon << 28, []).append((cost, recycles, drawn))


def dominated(entries: list[tuple[int, int, int]], talon: int, cost: int, recycles: int, drawn: int, mode: int,
              strictly: bool) -> bool:
    """label-dominance: whether a label (g, r, d) of ``entries`` (those of one (pyramid, talon)) reaches the
    pointer (``recycles``, ``drawn``) by walking for at most ``cost`` in all (``strictly``: for less).

    From a position the draw/recycle walk reaches the same cards at any later pointer, so the label
    plus the walk's actions from (r, d) to the pointer is the cost of a line to this same node."""
    below = talon & ((1 << drawn) - 1)
    for other_cost, other_recycles, other_drawn in entries:
        if other_cost > cost:
            continue
        if mode == WALK_LIMITED:
            if other_recycles == recycles:
                if other_drawn > drawn:
                    continue
                walked = (below >> other_drawn).bit_count()
            elif other_recycles > recycles:
                continue
            else:
                passes = recycles - other_recycles
                walked = ((talon >> other_drawn).bit_count() + passes + (passes - 1) * talon.bit_count()
                          + below.bit_count())
        elif mode == WALK_UNLIMITED:
            if drawn >= other_drawn:
                walked = (below >> other_drawn).bit_count()
            else:
                walked = (talon >> other_drawn).bit_count() + 1 + below.bit_count()
        elif other_drawn != drawn or other_recycles != recycles:
            continue
        else:
            walked = 0
        if other_cost + walked < cost or not strictly and other_cost + walked == cost:
            return True
    return False


def _edges(tables: DealTables, pyramid: int, talon: int, drawn: int, recycles: int, kings_at_top: bool = False):
    """``(actions walked, step, talon after, drawn after, recycles after)`` for every removal along
    the draw/recycle walk (walk-edges), each at its first occurrence.

    ``kings_at_top``: the walk stops where it would draw a king from the stock's top (the king is
    removed there instead: docs/solver.md, "a stock king on top is removed, never drawn")."""
    shape = tables.shape(pyramid)
    for mask in shape.pairs:
        yield 0, (mask, 0), talon, drawn, recycles
    by_need = shape.by_need
    walk = tables.talon_cards.events(talon, drawn, recycles, wanted=shape.wanted_talon | tables.talon_kings)
    last = None
    if kings_at_top:
        kings = talon & tables.talon_kings
        stock = talon >> drawn << drawn
        kings_in_stock = kings & stock
        if kings_in_stock:
            last = (stock & ((kings_in_stock & -kings_in_stock) - 1)).bit_count()
        elif kings and (tables.rules.recycle_limit is None or recycles < tables.rules.recycle_limit):
            last = stock.bit_count() + 1 + (talon & ((kings & -kings) - 1)).bit_count()
    for walked, bits, value, after, after_drawn, passes in walk:
        if last is not None and walked > last:
            return
        if not value:
            yield walked, (0, bits), after, after_drawn, passes
        else:
            for bit in by_need.get(value, ()):
                yield walked, (bit, bits), after, after_drawn, passes


def _plain_edges(tables: DealTables, pyramid: int, talon: int, drawn: int, recycles: int,
                 kings_rule: tuple[int, int] | None = None):
    """:func:`_edges` for draw-1 without talon pairs: each talon card is in play as the waste top,
    first at its turn in this pass (the top now costs nothing), else in the next pass.

    ``kings_rule`` (talon-kings-first-draw, limited recycles): (the search's first waste, its pass); a talon king not
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


def _key(pyramid: int, talon: int, drawn: int, recycles: int) -> int:
    return pyramid | talon << 28 | drawn << STATE_DRAWN_SHIFT | recycles << STATE_PASS_SHIFT


def _rebuild(position: Position, key: int, parents, start_kings: list[int], first_pass: FirstPass | None) -> list[Move]:
    edges = []
    while parents[key] is not None:
        parent, _, step, kings = parents[key]
        if parent < 0:  # an next-pass-starts source: on through the first pass
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
