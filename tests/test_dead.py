"""Dead games (contract 1): the engine ends a game exactly when no card can ever be removed again.

The engine's answer (``Position.termination``, a :class:`Game`'s end, its legal moves and refusals)
is checked against a brute-force search that only draws and recycles by the rules' own moves
(``walk_by_engine`` of test_kernel.py), on small random positions and along random games of real
deals, under every preset and combination of variants (Hypothesis).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kernel import random_position, rules_strategy, walk_by_engine

from builders import rules_moves

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.moves import DRAW, RECYCLE, Refusal
from pyramide_cli.engine.position import Outcome, Position, Termination
from pyramide_cli.engine.rules import Rules
from pyramide_cli.storage import format_1


def expected_termination(position: Position) -> Termination | None:
    """Why a game at ``position`` is over, by brute force (no dead-game test involved)."""
    if position.is_won:
        return Termination.CLEARED
    if walk_by_engine(position):
        return None
    return Termination.DEAD if position.can_draw or position.can_recycle else Termination.NO_MOVES


def check(position: Position) -> Termination | None:
    expected = expected_termination(position)
    assert position.termination is expected
    game = Game.from_position(position)
    assert game.termination is expected and game.is_over is (expected is not None)
    assert (expected is None) is bool(game.legal_moves) is bool(position.legal_moves)
    if expected is Termination.DEAD:
        assert position.outcome is Outcome.LOST and rules_moves(position)  # a draw or recycle
        for move in (DRAW, RECYCLE):
            assert game.refusal(move) is Refusal.GAME_OVER and position.refusal(move) is Refusal.GAME_OVER
    return expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), seed=st.integers(0, 2**32))
def test_small_positions_end_exactly_when_the_brute_force_says(rules: Rules, seed: int) -> None:
    check(random_position(rules, seed))


@pytest.mark.no_cover
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rules_strategy(), number=st.integers(0, 10**6), seed=st.integers(0, 2**32))
def test_every_position_of_a_random_game_ends_exactly_when_the_brute_force_says(rules: Rules, number: int,
                                                                                  seed: int) -> None:
    """A random game by format 1's end rule walks through live and dead positions alike."""
    rng = random.Random(seed)
    position = Position.start(Deal.from_number(number, rules))
    for _ in range(70):
        check(position)
        legal = rules_moves(position)
        if not legal:
            break
        position = position.apply_unchecked(legal[int(rng.random() * len(legal))])


def test_a_game_ends_at_the_first_dead_position_and_the_old_rule_plays_on() -> None:
    """Both answers come up along real games, under a limited and an unlimited preset."""
    seen = set()
    for rules_text in ("N", "T"):
        for number in range(30):
            game = Game(Deal.from_number(number, Rules.parse(rules_text)))
            rng = random.Random(number)
            while not game.is_over:
                game.push(game.legal_moves[int(rng.random() * len(game.legal_moves))])
            seen.add((rules_text, game.termination))
            if game.termination is Termination.DEAD:
                assert format_1.status(game) is Outcome.PLAYING  # format 1 would have gone on drawing
    assert ("N", Termination.DEAD) in seen and ("T", Termination.DEAD) in seen
    assert ("N", Termination.NO_MOVES) not in seen  # unlimited recycles: never out of draws
