"""A plain exhaustive search for checking the solver: no pruning, no heuristics, no tables.

Breadth-first over :meth:`Position.legal_moves` from a position, visiting every reachable
position once (keyed on :meth:`Position.key`; with unlimited recycles the recycle count is left
out of the key, since nothing in the rules depends on it then — otherwise the search would never
end).  It gives what the solver must agree with: whether a win is reachable, the fewest actions
to one, and the most pyramid cards and cards in all off the table in any reachable position.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import BASE_MASK, PYRAMID_SIZE
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules


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
        for move in position.legal_moves():
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
    pyramid = 0
    for _ in range(slots):
        slot = rng.randrange(3, 15)
        pyramid |= 1 << slot | BASE_MASK[slot]
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
    removed = tuple(card for index, card in enumerate(deal.cards)
                    if not (index < PYRAMID_SIZE and pyramid >> index & 1)
                    and not (index >= PYRAMID_SIZE and talon >> (index - PYRAMID_SIZE) & 1))
    return Position(deal, pyramid, talon, drawn, recycles, removed)
