"""``--optimal``: every lower bound of the A* search is checked against exact distances.

The A* search is exact only if no bound ever exceeds the true number of actions left.  Here a
plain breadth-first search over ``Position.legal_moves`` computes, for every position
reachable from a small one, the fewest actions to a win; each bound the search uses (the
heuristic, the pass check pass-check, the dig waste-dig) must stay within it.  docs/solver.md explains each.
"""

from __future__ import annotations

from collections import deque

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pyramide_cli.engine.cards import CARDS
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import BASE_MASK, PYRAMID_SIZE
from pyramide_cli.engine.moves import MoveKind
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Limits, solve
from pyramide_cli.solver.budget import Budget
from pyramide_cli.solver import passes as pass_questions
from pyramide_cli.solver.bounds import Heuristic
from pyramide_cli.solver.passes import FirstPass, PassCheck
from pyramide_cli.solver.relaxation import Relaxation
from pyramide_cli.solver.tables import DealTables, settle_kings
from reference_search import small_position
from sweeps import optimal_line_replays_and_beats_the_plain_line, replays_to_win
from test_solver import RULE_SETS

UNLIMITED = Limits(max_states=None, timeout=None)


def state_key(position: Position) -> tuple[int, ...]:
    pyramid, talon, drawn, recycles = position.key()
    return pyramid, talon, drawn, recycles


def distances_to_win(start: Position) -> tuple[dict[tuple[int, ...], Position], dict[tuple[int, ...], int]]:
    """Every position reachable from ``start``, and the fewest actions from each to a win."""
    positions = {state_key(start): start}
    parents: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    queue = deque([start])
    while queue:
        position = queue.popleft()
        key = state_key(position)
        for move in position.legal_moves:
            after = position.apply(move)
            after_key = state_key(after)
            parents.setdefault(after_key, []).append(key)
            if after_key not in positions:
                positions[after_key] = after
                queue.append(after)
        assert len(positions) < 200_000, "choose a smaller position"
    distance = {key: 0 for key, position in positions.items() if position.is_won}
    queue = deque(distance)
    while queue:
        key = queue.popleft()
        for parent in parents.get(key, ()):
            if parent not in distance:
                distance[parent] = distance[key] + 1
                queue.append(parent)
    return positions, distance


def waste_removable_this_pass(position: Position) -> int:
    """Mask of the waste cards some line removes before the next recycle (plain search)."""
    waste = position.talon & ((1 << position.drawn) - 1)
    removed = 0
    seen = {state_key(position)}
    queue = deque([position])
    while queue:
        current = queue.popleft()
        removed |= waste & ~current.talon
        for move in current.legal_moves:
            if move.kind is MoveKind.RECYCLE:
                continue
            after = current.apply(move)
            if state_key(after) not in seen:
                seen.add(state_key(after))
                queue.append(after)
    return removed


def pairing_position(rules: Rules, seed: int, slots: int, extra: int, kings: int = 0) -> Position:
    """A small mid-game position whose talon holds a partner for nearly every pyramid card, plus
    ``extra`` other cards and ``kings`` kings, in a random order (so that many are won, some only
    with a recycle or a dig), on a custom deal."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    pyramid = 0
    for _ in range(slots):
        slot = rng.randrange(6, 15)
        pyramid |= 1 << slot | BASE_MASK[slot]
    cards = deck[:PYRAMID_SIZE]
    rest = deck[PYRAMID_SIZE:]
    talon_cards = []
    for slot in range(PYRAMID_SIZE):
        if pyramid >> slot & 1 and cards[slot].rank != 13 and rng.random() < 0.9:
            partner = next((card for card in rest if card.rank == 13 - cards[slot].rank), None)
            if partner is not None:
                rest.remove(partner)
                talon_cards.append(partner)
    talon_cards += [rest.pop() for _ in range(extra)]
    for _ in range(kings):
        king = next((card for card in rest if card.rank == 13), None)
        if king is not None:
            rest.remove(king)
            talon_cards.insert(0, king)
    talon_cards = talon_cards[:12]
    rng.shuffle(talon_cards)
    places = sorted(rng.sample(range(24), len(talon_cards)))
    talon_order = [None] * 24
    for place, card in zip(places, talon_cards, strict=False):
        talon_order[place] = card
    used = set(cards) | set(talon_cards)
    filler = iter(card for card in CARDS if card not in used)
    deal = Deal.custom(cards + [card if card is not None else next(filler) for card in talon_order], rules)
    talon = sum(1 << place for place in places)
    drawn = rng.choice([0] + [place + 1 for place in places])
    recycles = 0 if rules.recycle_limit is None else min(rules.recycle_limit, rng.choice((0, 0, 1, 2)))
    removed = tuple(card for index, card in enumerate(deal.cards)
                    if not (index < PYRAMID_SIZE and pyramid >> index & 1)
                    and not (index >= PYRAMID_SIZE and talon >> (index - PYRAMID_SIZE) & 1))
    return Position(deal, pyramid, talon, drawn, recycles, removed)


def bounds_for(start: Position) -> tuple[DealTables, Heuristic, PassCheck]:
    """The deal tables, the heuristic and the pass check an A* search from ``start`` would use."""
    tables = DealTables(start.deal)
    budget = Budget(UNLIMITED)
    relaxation = Relaxation(tables, budget)
    heuristic = Heuristic(tables, relaxation)
    passes = PassCheck(tables, relaxation, budget, heuristic)
    rules = start.rules
    if (rules.draw_count == 1 and not (rules.stock_top or rules.waste_pair or rules.strict)
            and rules.recycle_limit is not None):
        heuristic.final_pass = passes.first_winning_pass(  # first-winning-pass, as shortest_line() sets it
            start.pyramid, start.talon, start.drawn, start.recycles, tables.counts(start.talon), start.recycles)
    return tables, heuristic, passes


def check_bounds(start: Position) -> int:
    """Assert every bound at every position reachable from ``start``; returns how many were checked."""
    rules = start.rules
    tables, heuristic, passes = bounds_for(start)
    positions, distance = distances_to_win(start)
    checked = 0
    for key, position in positions.items():
        if position.is_won:
            continue
        recycles = 0 if rules.recycle_limit is None else position.recycles
        counts = tables.counts(position.talon)
        state = (position.pyramid, position.talon, position.drawn, recycles, counts)
        actions = distance.get(key)
        estimate = heuristic.estimate(*state)
        if actions is None:
            continue  # no win: every bound is admissible
        assert estimate is not None and estimate <= actions, (position, estimate, actions)
        if rules.draw_count == 1 and not (rules.waste_pair and rules.stock_top) and not rules.strict:
            if rules.recycle_limit is not None and rules.plain_talon:
                raised = passes.refine(*state, -1)
                assert raised is None or raised is True or raised <= actions, (position, raised, actions)
            dead = heuristic.pyramid_bounds(position.pyramid).dead
            reachable = heuristic.dig.reachable(position.pyramid, position.talon, position.drawn, dead)
            if checked % 7 == 0:  # the dig's exact check is the slow one: a sample
                assert waste_removable_this_pass(position) & ~reachable == 0, position
        checked += 1
    return checked


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text", RULE_SETS)
def test_bounds_never_exceed_the_true_distance(rules_text: str) -> None:
    rules = Rules.parse(rules_text)
    checked = 0
    for seed in range(30):
        checked += check_bounds(pairing_position(rules, seed, slots=1 + seed % 3, extra=seed % 4))
        checked += check_bounds(small_position(seed, rules, seed, slots=1 + seed % 2, talon_size=9))
        if checked > 800:
            break
    assert checked > 0  # some winnable positions were checked


@pytest.mark.no_cover
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules_text=st.sampled_from(["T", "E", "O", "N", "T+recycles=1", "N+recycles=3", "T+cover-pair", "T+strict",
                                "T+stock-top", "N+stock-top", "E+stock-top", "T+stock-top+cover-pair",
                                "T+waste-pair", "N+waste-pair", "T+waste-pair+cover-pair"]),
    seed=st.integers(0, 2**32),
    slots=st.integers(1, 3),
    extra=st.integers(0, 4),
)
def test_property_bounds_never_exceed_the_true_distance(rules_text, seed, slots, extra) -> None:
    check_bounds(pairing_position(Rules.parse(rules_text), seed, slots, extra))


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text", ["T+stock-top", "N+stock-top", "T+waste-pair", "N+waste-pair"])
def test_stock_top_dig_finds_waste_cards_out_of_reach(rules_text: str) -> None:
    """stock-top-dig and waste-pair-dig must be able to fire: the dig leaves some waste cards out of reach
    (and, checked against a breadth-first search, no card it leaves out can go in this pass)."""
    rules = Rules.parse(rules_text)
    starts_with_cuts = 0
    for seed in range(60):
        start = pairing_position(rules, seed, slots=1 + seed % 3, extra=2 + seed % 3)
        _, heuristic, _ = bounds_for(start)
        positions, _ = distances_to_win(start)
        cut = 0
        for position in positions.values():
            waste = position.talon & ((1 << position.drawn) - 1)
            if not waste or not position.pyramid:
                continue
            dead = heuristic.pyramid_bounds(position.pyramid).dead
            reachable = heuristic.dig.reachable(position.pyramid, position.talon, position.drawn, dead)
            if reachable != waste:
                assert waste_removable_this_pass(position) & ~reachable == 0, position
                cut += 1
                if cut == 3:
                    break
        starts_with_cuts += cut > 0
        if starts_with_cuts == 8:
            break
    assert starts_with_cuts == 8


@pytest.mark.no_cover
def test_pass_check_raises_the_bound_when_a_recycle_is_needed() -> None:
    """pass-check must be able to fire: some small T positions cannot be won before the next recycle."""
    rules = Rules.preset("T")
    raised_somewhere = False
    for seed in range(40):
        start = pairing_position(rules, seed, slots=1 + seed % 3, extra=seed % 4)
        tables, _, passes = bounds_for(start)
        positions, distance = distances_to_win(start)
        for key, position in positions.items():
            if key in distance and distance[key] > 0 and position.recycles < 2:
                state = (position.pyramid, position.talon, position.drawn, position.recycles,
                         tables.counts(position.talon))
                raised = passes.refine(*state, -1)
                if raised is not None and raised is not True:
                    raised_somewhere = True
                    assert raised <= distance[key]
    assert raised_somewhere


def test_first_winning_pass_raises_the_bound_when_the_start_needs_recycles() -> None:
    """first-winning-pass must be able to fire: from some small T starts no win ends before pass 1 or 2, and the
    floor it gives is higher than the bound without it (check_bounds shows it stays admissible)."""
    rules = Rules.preset("T")
    raised = 0
    for seed in range(60):
        start = pairing_position(rules, seed, slots=1 + seed % 3, extra=seed % 4)
        tables, heuristic, _ = bounds_for(start)
        final_pass = heuristic.final_pass
        positions, distance = distances_to_win(start)
        if final_pass == 0 or state_key(start) not in distance:
            continue
        assert not any(position.is_won and position.recycles < final_pass for position in positions.values())
        check_bounds(start)
        for key, position in positions.items():
            if key in distance and position.recycles < final_pass:
                state = (position.pyramid, position.talon, position.drawn, position.recycles,
                         tables.counts(position.talon))
                heuristic.final_pass = final_pass
                with_floor = heuristic.estimate(*state)
                heuristic.final_pass = 0
                raised += with_floor > heuristic.estimate(*state)
    assert raised > 0


def first_pass_of(start: Position) -> FirstPass:
    """The next-pass-starts enumeration shortest_line() would run from ``start``, explored."""
    tables, heuristic, _ = bounds_for(start)
    pyramid, _ = settle_kings(tables, start.pyramid)
    first_pass = FirstPass(tables, heuristic.removals, (pyramid, start.talon, start.drawn, start.recycles,
                                                          tables.counts(start.talon)),
                            (start.talon & ((1 << start.drawn) - 1), start.recycles))
    first_pass.won = first_pass.explore(Budget(UNLIMITED))
    return first_pass


@pytest.mark.no_cover
@pytest.mark.parametrize("states", [pass_questions.NEXT_PASS_STARTS_STATES, 3])
def test_optimal_from_the_next_pass_starts_equals_the_breadth_first_shortest(states: int, monkeypatch) -> None:
    """next-pass-starts: starting the A* from every position the next pass can start from loses no shorter line,
    and the enumeration finds a win in the start's pass exactly when one exists; with a tiny cap
    it gives up and the plain A* gives the same length."""
    monkeypatch.setattr(pass_questions, "NEXT_PASS_STARTS_STATES", states)
    rules = Rules.preset("T")
    from_sources = 0
    for seed in range(60):
        start = pairing_position(rules, seed, slots=1 + seed % 3, extra=seed % 4, kings=seed % 2)
        positions, distance = distances_to_win(start)
        shortest = distance.get(state_key(start))
        if shortest is None:
            continue
        first_pass = first_pass_of(start)
        in_this_pass = any(position.is_won and position.recycles == start.recycles for position in positions.values())
        if states > 3:
            assert first_pass.won == in_this_pass, seed
        from_sources += first_pass.sources is not None and not first_pass.won
        best = solve(start, optimal=True, limits=UNLIMITED)
        assert best.optimal and replays_to_win(start, best.solution)
        assert len(best.solution) == shortest, (seed, best.solution)
    assert from_sources >= (5 if states > 3 else 0)


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text", ["T", "E", "N", "T+recycles=1", "N+recycles=3", "T+cover-pair", "T+stock-top",
                                        "N+stock-top", "T+stock-top+recycles=1"])
def test_optimal_equals_the_breadth_first_shortest_with_talon_kings(rules_text: str) -> None:
    """Talon kings are optional removals under ``--optimal`` (talon-kings-first-draw restricts when;
    under ``stock-top`` a stock king on top is removed, never drawn): still exact."""
    rules = Rules.parse(rules_text)
    compared = 0
    for seed in range(40):
        start = pairing_position(rules, seed, slots=1 + seed % 3, extra=seed % 3, kings=1 + seed % 2)
        compared += optimal_is_breadth_first_shortest(start)
        if compared == 10:
            break
    assert compared >= 5


@pytest.mark.parametrize("rules_text", ["T+stock-top", "N+stock-top"])
def test_stock_kings_on_top_cut_the_walk(rules_text: str) -> None:
    """The walk under ``stock-top`` stops where it would draw a stock king: the edges are those of the
    whole walk up to the king's turn on top (none after it), and the cut happens somewhere."""
    from pyramide_cli.solver.optimal import _edges

    rules = Rules.parse(rules_text)
    cut = 0
    for seed in range(40):
        start = pairing_position(rules, seed, slots=1 + seed % 3, extra=seed % 3, kings=1 + seed % 2)
        tables = DealTables(start.deal)
        args = (tables, start.pyramid, start.talon, start.drawn, start.recycles)
        whole, kept = list(_edges(*args)), list(_edges(*args, kings_at_top=True))
        stock = start.talon >> start.drawn << start.drawn
        kings = stock & tables.talon_kings
        if kings:
            turn = (stock & ((kings & -kings) - 1)).bit_count()
            assert kept == [edge for edge in whole if edge[0] <= turn], seed
            cut += len(kept) < len(whole)
        else:
            assert set(kept) <= set(whole), seed
    assert cut > 0


def optimal_is_breadth_first_shortest(start: Position) -> bool:
    """``--optimal`` from ``start`` replays to a win in the breadth-first fewest actions (asserted);
    ``False`` when ``start`` cannot be won (nothing to compare)."""
    _, distance = distances_to_win(start)
    shortest = distance.get(state_key(start))
    if shortest is None:
        return False
    best = solve(start, optimal=True, limits=UNLIMITED)
    assert best.optimal and replays_to_win(start, best.solution)
    assert len(best.solution) == shortest, best.solution
    return True


@pytest.mark.no_cover
def test_the_optimal_line_of_a_hard_t_deal_replays_and_beats_the_plain_line() -> None:
    """A deal whose A* once needed 10^5 positions (docs/solver.md): the line still replays.
    One of the four such deals; ``bench/bench_solver_sweeps.py`` checks all of them."""
    assert optimal_line_replays_and_beats_the_plain_line(Deal.from_number(48, Rules.preset("T")))


@pytest.mark.no_cover
@pytest.mark.parametrize("rules_text", ["T+stock-top", "N+stock-top"])
def test_children_queued_with_the_removals_bound_are_exact(rules_text: str, monkeypatch) -> None:
    """lazy-bounds: under ``stock-top`` a child is queued with the removals bound and its whole bound taken
    when popped (queued again if it is higher).  The lengths must stay the breadth-first shortest,
    and the second queuing must happen (else the test proves nothing)."""
    from pyramide_cli.solver import optimal

    pushed_again = 0
    real_push = optimal.heapq.heappush

    def push(queue: list, item: tuple) -> None:
        nonlocal pushed_again
        pushed_again += item[-1] is True
        real_push(queue, item)

    monkeypatch.setattr(optimal.heapq, "heappush", push)
    rules = Rules.parse(rules_text)
    compared = 0
    for seed in range(60):
        compared += optimal_is_breadth_first_shortest(pairing_position(rules, seed, slots=3 + seed % 2,
                                                                        extra=2 + seed % 3))
        if compared >= 10 and pushed_again:
            break
    assert compared >= 5 and pushed_again > 0
