"""The talon kernel (engine/kernel.py) against the engine's own moves, by brute force.

Nothing here trusts the kernel: the walk, the cards in play along it and the dead-game test are
compared with a plain search over :meth:`Position.legal_moves` that only draws and recycles.
"""

from __future__ import annotations

import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import rules_moves, apply_by_rules

from pyramide_cli.engine import kernel
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import BASE_MASK, PYRAMID_SIZE, free_slots
from pyramide_cli.engine.moves import MoveKind
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from rules_strategies import any_rules

rules_strategy = any_rules


def random_position(rules: Rules, seed: int) -> Position:
    """A position of any shape: a reachable pyramid (the base of a few slots, or none), a random
    talon of 0-9 cards, any pointer and recycle count.  Small on purpose, so that dead positions
    and positions with one far-away removal are common."""
    rng = random.Random(seed)
    deal = Deal.from_number(rng.randrange(10_000), rules)
    pyramid = 0
    for _ in range(rng.randrange(4)):
        slot = rng.randrange(PYRAMID_SIZE)
        pyramid |= 1 << slot | BASE_MASK[slot]
    talon_indices = rng.sample(range(24), rng.randrange(10))
    talon = sum(1 << t for t in talon_indices)
    drawn = rng.choice([0] + [t + 1 for t in talon_indices])
    recycles = rng.randint(0, rules.recycle_limit) if rules.recycle_limit is not None else rng.randrange(3)
    removed = tuple(card for index, card in enumerate(deal.cards)
                    if not (index < PYRAMID_SIZE and pyramid >> index & 1)
                    and not (index >= PYRAMID_SIZE and talon >> (index - PYRAMID_SIZE) & 1))
    return Position(deal, pyramid, talon, drawn, recycles, removed)


def removal_bits(position: Position, move) -> tuple[int, int]:
    pyramid_bits = talon_bits = 0
    for card in move.cards:
        index = position.deal.layout_index[card]
        if index < PYRAMID_SIZE:
            pyramid_bits |= 1 << index
        else:
            talon_bits |= 1 << (index - PYRAMID_SIZE)
    return pyramid_bits, talon_bits


def walk_by_engine(position: Position) -> dict[tuple[int, int], tuple[int, tuple[int, int, int]]]:
    """Every removal legal somewhere along draws and recycles alone, with the fewest draws and recycles
    before it and the talon, pointer and recycles after it (plain breadth-first search)."""
    unlimited = position.rules.recycle_limit is None
    seen = {position.key(): 0}
    queue = deque([position])
    found: dict[tuple[int, int], tuple[int, tuple[int, int, int]]] = {}
    while queue:
        here = queue.popleft()
        distance = seen[here.key()]
        for move in rules_moves(here):  # the rules' own moves: not the kernel's dead test
            if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
                after = apply_by_rules(here, move)
                if after.key() not in seen:
                    seen[after.key()] = distance + 1
                    queue.append(after)
            else:
                bits = removal_bits(here, move)
                if bits not in found:
                    after = apply_by_rules(here, move)
                    found[bits] = (distance, (after.talon, after.drawn, 0 if unlimited else after.recycles))
    return found


def partners_of(position: Position) -> dict[int, tuple[int, ...]]:
    """Talon value -> bits of the free non-king pyramid cards it pairs with."""
    partners: dict[int, tuple[int, ...]] = {}
    for slot in free_slots(position.pyramid):
        value = position.deal.cards[slot].rank
        if value != 13:
            partners[13 - value] = partners.get(13 - value, ()) + (1 << slot,)
    return partners


def walk_by_kernel(position: Position) -> dict[tuple[int, int], tuple[int, tuple[int, int, int]]]:
    cards = kernel.for_deal(position.deal)
    partners = partners_of(position)
    found = {}
    for actions, bits, value, after, after_drawn, passes in cards.events(
            position.talon, position.drawn, position.recycles):
        steps = [(0, bits)] if not value else [(slot, bits) for slot in partners.get(value, ())]
        for step in steps:
            assert step not in found  # first occurrences only
            found[step] = (actions, (after, after_drawn, passes))
    return found


@pytest.mark.no_cover
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_walk_events_are_the_removals_draws_and_recycles_reach(rules: Rules, seed: int) -> None:
    position = random_position(rules, seed)
    if position.is_won:
        return
    by_engine = {step: seen for step, seen in walk_by_engine(position).items() if step[1]}
    assert walk_by_kernel(position) == by_engine


@pytest.mark.no_cover
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_any_removal_ever_matches_a_brute_force_search(rules: Rules, seed: int) -> None:
    position = random_position(rules, seed)
    if position.is_won:
        return
    expected = bool(walk_by_engine(position))
    assert kernel.any_removal_ever(position.deal, position.pyramid, position.talon, position.drawn,
                                   position.recycles) is expected


@pytest.mark.no_cover
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_removal_distance_is_the_fewest_draws_and_recycles_before_a_removal(rules: Rules, seed: int) -> None:
    """Games skip the positions in between (engine/game.py): a distance too long would hide a removal."""
    position = random_position(rules, seed)
    if position.is_won:
        return
    found = walk_by_engine(position)
    expected = min(distance for distance, _ in found.values()) if found else None
    assert kernel.for_deal(position.deal).removal_distance(position.pyramid, position.talon, position.drawn,
                                                           position.recycles) == expected


@pytest.mark.parametrize("rules_text", ["N", "T", "O", "T+stock-top", "N+waste-pair", "E+draw-3+cover-pair"])
def test_dead_and_live_positions_are_both_found(rules_text: str) -> None:
    """The sweep meets both answers, and each agrees with the brute force (so the property above
    is not vacuous for any rule family)."""
    rules = Rules.parse(rules_text)
    answers = []
    for seed in range(150):
        position = random_position(rules, seed)
        if position.is_won:
            continue
        answer = kernel.any_removal_ever(position.deal, position.pyramid, position.talon, position.drawn,
                                         position.recycles)
        assert answer is bool(walk_by_engine(position)), seed
        answers.append(answer)
    assert True in answers and False in answers


def test_the_stuck_example_ends_dead_although_draws_go_on() -> None:
    """examples/stuck-n.yaml (R17's deal 668 under N): once its 14 cards are off, no card can ever be
    removed again, although draws and recycles go on for ever; one move earlier some card still can."""
    from pathlib import Path

    import yaml

    from pyramide_cli.engine.moves import Move

    saved = yaml.safe_load((Path(__file__).parent.parent / "examples" / "stuck-n.yaml").read_text())
    position = Position.start(Deal.from_code(saved["deal"]))
    alive = []
    for word in saved["history"]:
        alive.append(kernel.any_removal_ever(position.deal, position.pyramid, position.talon, position.drawn,
                                             position.recycles))
        position = apply_by_rules(position, Move.parse(word))  # format 1 drew on after the end
    dead_from = alive.index(False)
    assert not any(alive[dead_from:]) and all(alive[:dead_from])
    assert position.can_draw or position.can_recycle
    assert len(position.foundation) == 14


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_plain_passes_are_the_walk_of_plain_rules(rules: Rules, seed: int) -> None:
    """Draw-1 without talon pairs: the pass masks and their costs give the same first occurrences as
    the general walk."""
    rules = Rules.parse(rules.name.replace("+draw-3", "").replace("+stock-top", "").replace("+waste-pair", ""))
    position = random_position(rules, seed)
    cards = kernel.for_deal(position.deal)
    from_events = {bits: (actions, after, drawn, passes) for actions, bits, _, after, drawn, passes
                   in cards.events(position.talon, position.drawn, position.recycles)}
    from_passes = {}
    for in_play, before, talon, passes in cards.talon_rules.plain_passes(
            position.talon, position.drawn, position.recycles):
        rest = in_play
        while rest:
            low = rest & -rest
            rest ^= low
            after = talon ^ low
            from_passes[low] = (before + (in_play & ((low << 1) - 1)).bit_count(), after,
                                (after & (low - 1)).bit_length(), passes)
    assert from_passes == from_events


def test_plain_talon_is_draw_one_without_talon_pairs() -> None:
    for text in ("N", "T", "O+strict", "E+cover-pair", "N+recycles=2"):
        assert Rules.parse(text).plain_talon and not Rules.parse(text).talon_pairs
    for text in ("N+draw-3", "T+stock-top", "T+waste-pair", "O+draw-3+cover-pair"):
        assert not Rules.parse(text).plain_talon
    assert Rules.parse("T+stock-top").talon_pairs and Rules.parse("N+waste-pair").talon_pairs
    assert not Rules.parse("N+draw-3").talon_pairs


def test_pairing_roles_follow_the_rules() -> None:
    """R6 and the variants: the card under the waste top pairs only with the top, and a king there
    is not in play alone."""
    roles = kernel.PAIRING_ROLES
    assert frozenset((kernel.WASTE_TOP, kernel.UNDER_TOP)) in roles
    assert frozenset((kernel.FREE, kernel.UNDER_TOP)) not in roles
    assert frozenset((kernel.STOCK_TOP, kernel.UNDER_TOP)) not in roles
    assert kernel.UNDER_TOP not in kernel.KING_ROLES


@pytest.mark.parametrize("rules_text", ["T+stock-top", "T+waste-pair", "N+stock-top", "O+waste-pair",
                                        "E+stock-top+strict", "T+waste-pair+recycles=3"])
def test_the_draw_one_walk_with_one_talon_pair_rule_is_the_general_loop(rules_text: str) -> None:
    """``events`` under draw-1 with ``stock-top`` or ``waste-pair`` alone takes a shorter road
    (:meth:`TalonWalk.pairs`); it must give the general loop's events in the same order, here
    also with cards dropped at a recycle (the solver's talon kings) and with limits below the rules'
    (the test above compares the walk with the engine's own moves)."""
    rules = Rules.parse(rules_text)
    rng = random.Random(rules_text)
    for number in range(25):
        deal = Deal.from_number(number, rules)
        cards = kernel.for_deal(deal)
        kings = sum(1 << t for t, card in enumerate(deal.cards[PYRAMID_SIZE:]) if card.rank == 13)
        for _ in range(40):
            talon = rng.getrandbits(24) & (rng.getrandbits(24) | rng.getrandbits(24))
            drawn = rng.choice([0] + [t + 1 for t in range(24) if talon >> t & 1])
            top_limit = 3 if rules.recycle_limit is None else rules.recycle_limit
            recycles = rng.randint(0, top_limit)
            limit = rng.choice([rules.recycle_limit, rng.randint(recycles, top_limit)])
            drop = rng.choice([0, kings, rng.getrandbits(24)])
            wanted = rng.choice([-1, rng.getrandbits(24) | kings])
            assert cards.walk.pairs(talon, drawn, recycles, drop, limit, wanted) == cards.walk.general(
                talon, drawn, recycles, drop, limit, wanted)


def test_every_nth_picks_every_third_card_from_the_bottom() -> None:
    """The masks the draw-3 walk finds its stops with, against counting the cards one by one."""
    rng = random.Random(7)
    for _ in range(2000):
        mask = rng.getrandbits(24) & rng.getrandbits(24) if rng.random() < 0.5 else rng.getrandbits(24)
        for step in (1, 2, 3):
            cards = [t for t in range(24) if mask >> t & 1]
            assert kernel.every_nth(mask, step) == sum(1 << t for t in cards[step - 1::step])


@pytest.mark.parametrize("rules_text", ["T+draw-3", "N+draw-3", "E+draw-3+recycles=0", "O+draw-3+strict"])
def test_the_draw_three_walk_by_its_stops_is_the_general_walk(rules_text: str) -> None:
    """``draw-3`` without talon pairs: the walk by its stops gives the general loop's events, in its order
    (the search's order, hence its lines, depend on it), on full-size talons, any pointer, any recycle
    count and any lower limit, for every card wanted or only some."""
    rng = random.Random(rules_text)
    rules = Rules.parse(rules_text)
    for number in range(20):
        cards = kernel.for_deal(Deal.from_number(number, rules))
        limit = rules.recycle_limit
        for _ in range(300):
            talon = rng.getrandbits(24) & (rng.getrandbits(24) if rng.random() < 0.5 else -1)
            top = rng.randrange(-1, 24)
            drawn = (talon & ((2 << top) - 1)).bit_length() if top >= 0 else 0
            lower = limit if limit is None else rng.randint(0, limit)
            recycles = rng.randint(0, 3) if lower is None else rng.randint(0, lower)
            wanted = rng.choice([-1, rng.getrandbits(24)])
            by_stops = cards.events(talon, drawn, recycles, 0, lower, wanted)
            assert by_stops == cards.walk.general(talon, drawn, recycles, 0, lower, wanted)
            assert by_stops == cards.walk_tops(talon, drawn, recycles, lower, wanted)
