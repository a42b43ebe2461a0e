"""A plain exhaustive search for checking the solver: no pruning, no heuristics, no tables.

Breadth-first over :meth:`Position.legal_moves` from a position, visiting every reachable
position once (keyed on :meth:`Position.key`; with unlimited recycles the recycle count is left
out of the key, since nothing in the rules depends on it then — otherwise the search would never
end).  It gives what the solver must agree with: whether a win is reachable, the fewest actions
to one, and the most pyramid cards and cards in all off the table in any reachable position.
"""

from __future__ import annotations

import functools
import random
from collections import deque
from dataclasses import dataclass

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import BASE_MASK, PYRAMID_SIZE
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import SearchRule, SolveResult
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import DealTables


@dataclass(frozen=True)
class Reference:
    winnable: bool
    shortest: int | None
    max_pyramid_removed: int
    max_removed: int
    positions: int


def removed_counts(position: Position) -> tuple[int, int]:
    return PYRAMID_SIZE - position.pyramid.bit_count(), 52 - position.pyramid.bit_count() - position.talon.bit_count()


def reference_search(start: Position, max_positions: int = 400_000) -> Reference:
    """The plain exhaustive search's answer from ``start`` (kept: several tests ask about the same
    small positions, once per rule set and once per setting of the solver they check)."""
    return _searched(start, max_positions)


@functools.lru_cache(maxsize=2048)
def _searched(start: Position, max_positions: int) -> Reference:
    unlimited = start.rules.recycle_limit is None

    def key(position: Position) -> tuple[int, ...]:
        pyramid, talon, drawn, recycles = position.key()
        return (pyramid, talon, drawn) if unlimited else (pyramid, talon, drawn, recycles)

    seen = {key(start): 0}
    queue = deque([start])
    shortest = None
    best_pyramid, best_all = removed_counts(start)
    while queue:
        position = queue.popleft()
        distance = seen[key(position)]
        pyramid_removed, all_removed = removed_counts(position)
        best_pyramid = max(best_pyramid, pyramid_removed)
        best_all = max(best_all, all_removed)
        if position.is_won:
            if shortest is None:
                shortest = distance
            continue
        for move in position.legal_moves:
            after = position.apply(move)
            after_key = key(after)
            if after_key not in seen:
                seen[after_key] = distance + 1
                queue.append(after)
        if len(seen) > max_positions:
            raise RuntimeError("reference search too large: choose a smaller position")
    return Reference(shortest is not None, shortest, best_pyramid, best_all, len(seen))


def small_position(deal_number: int, rules: Rules, seed: int, slots: int = 2, talon_size: int = 6) -> Position:
    """A legal mid-game position with few cards: the pyramid is what lies under ``slots`` random
    slots of rows 3–5 (a shape reachable in play), the talon ``talon_size`` random cards."""
    rng = random.Random(seed)
    deal = Deal.from_number(deal_number, rules)
    pyramid = cones(rng, slots, 3, 15)
    # Mostly cards that pair with the pyramid's, so that many of these positions can be won.
    talon_values = [card.rank for card in deal.cards[PYRAMID_SIZE:]]
    wanted = [13 - deal.cards[slot].rank for slot in range(PYRAMID_SIZE) if pyramid >> slot & 1]
    candidates = [t for t in range(24) if talon_values[t] in wanted or talon_values[t] == 13]
    rng.shuffle(candidates)
    talon_indices = candidates[:talon_size - talon_size // 3]
    others = [t for t in range(24) if t not in talon_indices]
    talon_indices += rng.sample(others, talon_size - len(talon_indices))
    talon = sum(1 << t for t in talon_indices)
    drawn = rng.choice([0] + [t + 1 for t in talon_indices])
    recycles = 0 if rules.recycle_limit is None else rng.randint(0, rules.recycle_limit)
    return position_of(deal, pyramid, talon, drawn, recycles)


def last_pass_position(rules: Rules, deal_number: int, seed: int, slots: int, extra: int,
                       deep_waste: bool = False) -> Position:
    """A small position in the last allowed pass: the pyramid under ``slots`` slots of rows 1-3, and a
    talon holding every card that pairs with one of its cards and ``extra`` others (often dead ones),
    so that the multiset game can often win and the talon's order decides; the pointer anywhere, or
    with ``deep_waste`` among the talon's upper cards (most of it on the waste)."""
    rng = random.Random(seed)
    deal = Deal.from_number(deal_number, rules)
    pyramid = cones(rng, slots, 1, 6)
    wanted = {13 - deal.cards[slot].rank for slot in range(PYRAMID_SIZE) if pyramid >> slot & 1}
    talon_indices = [t for t in range(24) if deal.cards[PYRAMID_SIZE + t].rank in wanted]
    others = [t for t in range(24) if t not in talon_indices]
    talon_indices += rng.sample(others, min(extra, len(others)))
    if deep_waste:
        talon_indices.sort()
        drawn = talon_indices[rng.randrange(len(talon_indices) // 2, len(talon_indices))] + 1 if talon_indices else 0
    else:
        drawn = rng.choice([0] + [t + 1 for t in talon_indices])
    return position_of(deal, pyramid, sum(1 << t for t in talon_indices), drawn, rules.recycle_limit)


def cones(rng: random.Random, slots: int, first: int, end: int) -> int:
    """A pyramid shape reachable in play: what lies under ``slots`` random slots from ``first`` to
    ``end - 1`` (each slot with every card under it)."""
    pyramid = 0
    for _ in range(slots):
        slot = rng.randrange(first, end)
        pyramid |= 1 << slot | BASE_MASK[slot]
    return pyramid


def position_of(deal: Deal, pyramid: int, talon: int, drawn: int, recycles: int | None) -> Position:
    """The position with these cards left (the others removed)."""
    removed = tuple(card for index, card in enumerate(deal.cards)
                    if not (index < PYRAMID_SIZE and pyramid >> index & 1)
                    and not (index >= PYRAMID_SIZE and talon >> (index - PYRAMID_SIZE) & 1))
    return Position(deal, pyramid, talon, drawn, recycles, removed)


def check_cut(position: Position, gains: tuple[int, int] | None, kings_in_reach: int, rule: str) -> str:
    """A last-pass rule's answer at ``position`` (``gains``: its bounds on the pyramid cards and the
    cards in all still removable, ``None`` when it cannot rule out a win) against the plain search:
    it never cuts off a win, and its bounds (with ``kings_in_reach`` talon kings counted as removable)
    cover the true maxima.  Says ``"both win"`` or ``"<rule> cuts"``."""
    reference = reference_search(position)
    if reference.winnable:
        assert gains is None, f"{rule} cut off a win"
    if gains is None:
        return "both win"
    removed_pyramid = 28 - position.pyramid.bit_count()
    removed_all = 52 - position.pyramid.bit_count() - position.talon.bit_count()
    assert removed_pyramid + gains[0] >= reference.max_pyramid_removed
    assert removed_all + gains[1] + kings_in_reach >= reference.max_removed
    return f"{rule} cuts"


def buried_waste_reach(position: Position, tables: DealTables, relaxation: Relaxation) -> int | None:
    """The talon a last-pass position can still reach (buried-waste: the stock, and the waste down to, not
    including, its highest card no pyramid card can remove), or ``None`` when buried-waste already cuts it
    (the multiset game on that talon cannot clear the pyramid)."""
    pyramid, talon, drawn = position.pyramid, position.talon, position.drawn
    waste_cut = (talon & tables.shape(pyramid).dead_talon & ((1 << drawn) - 1)).bit_length()
    reach = talon >> waste_cut << waste_cut
    return None if relaxation.search(pyramid, tables.counts(reach)) is not None else reach


def solve_with_and_without(deal: Deal, rule: SearchRule) -> tuple[SolveResult, SolveResult, tuple[int, int]]:
    """Solve ``deal``, then again with ``rule`` switched off; assert that the rule changed no verdict
    and no maxima, that the best line found with it reaches the most pyramid cards, and that it
    pruned.  Returns (with it, without it, the cards the line removed)."""
    from pyramide_cli.solver import SearchOptions, solve

    with_rule = solve(deal)
    without = solve(deal, options=SearchOptions(disabled=frozenset({rule})))
    assert with_rule.verdict is without.verdict
    assert (with_rule.max_pyramid_removed, with_rule.max_removed) == (without.max_pyramid_removed,
                                                                     without.max_removed)
    end = Position.start(deal)  # the best line may differ (the probe may finish first), not where it gets
    for move in with_rule.best_line:
        end = end.apply(move)
    assert 28 - end.pyramid.bit_count() == without.max_pyramid_removed
    assert with_rule.states < without.states  # it pruned
    return with_rule, without, removed_counts(end)
