"""Fast random playouts (R25's player without a plan) follow exactly the engine's rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders import rules_moves, apply_by_rules

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.layout import PYRAMID_SIZE
from pyramide_cli.engine.moves import DRAW, RECYCLE, Move
from pyramide_cli.engine.playout import DRAW_ACTION, RECYCLE_ACTION, PlayoutTables, random_game, win_rate
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules

RULE_SETS = ["N", "T", "E", "O", "N+strict", "T+waste-pair", "E+cover-pair", "T+stock-top", "N+draw-3",
             "O+stock-top+waste-pair+cover-pair", "N+recycles=1+draw-3"]


def engine_move(position: Position, action: tuple[int, int]) -> Move:
    """The engine move that removes exactly the cards of a playout action."""
    pyramid_bits, talon_bits = action
    if pyramid_bits == DRAW_ACTION:
        return DRAW
    if pyramid_bits == RECYCLE_ACTION:
        return RECYCLE
    cards = [position.deal.cards[slot] for slot in range(PYRAMID_SIZE) if pyramid_bits >> slot & 1]
    cards += [position.deal.cards[PYRAMID_SIZE + t] for t in range(24) if talon_bits >> t & 1]
    return Move.king(cards[0]) if len(cards) == 1 else Move.pair(*cards)


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=0, max_value=10**8), st.sampled_from(RULE_SETS), st.integers(min_value=0))
def test_playout_actions_are_exactly_the_engine_legal_moves(number, rules_text, seed):
    deal = Deal.from_number(number, Rules.parse(rules_text))
    tables = PlayoutTables(deal)
    trace: list[tuple[int, int]] = []
    result = random_game(tables, random.Random(seed).random, trace)
    position = Position.start(deal)
    removed_this_pass = False
    for action in trace:
        offered = {str(engine_move(position, item)) for item in tables.actions(
            position.pyramid, position.talon, position.drawn, position.recycles)}
        # The rules' own moves: the random player of grading plays on at a dead position (contract 7);
        # games (engine/game.py) list these same actions and end at a dead position themselves.
        assert offered == {str(item) for item in rules_moves(position)}
        move = engine_move(position, action)
        if move == RECYCLE:
            assert removed_this_pass  # a pass without removal ends the game instead
            removed_this_pass = False
        elif move.removes_cards:
            removed_this_pass = True
        position = apply_by_rules(position, move)  # fails if the playout made an illegal move
    assert result.actions == len(trace)
    assert result.won == position.is_won
    assert result.pyramid_removed == position.pyramid_removed
    if not result.won:
        # it stopped because nothing was possible, or only a pointless recycle was left
        remaining = rules_moves(position)
        assert remaining == () or (RECYCLE in remaining and not removed_this_pass)


def test_random_games_can_win_and_lose():
    deal = Deal.from_number(1)
    tables = PlayoutTables(deal)
    rng = random.Random(5).random
    results = [random_game(tables, rng) for _ in range(200)]
    assert any(result.won for result in results)
    assert any(not result.won for result in results)
    assert all(result.pyramid_removed == PYRAMID_SIZE for result in results if result.won)


def test_win_rate_is_deterministic_for_a_seed():
    deal = Deal.from_number(1)
    assert win_rate(deal, 100, seed=3) == win_rate(deal, 100, seed=3)
    assert 0.0 <= win_rate(deal, 100, seed=3) <= 1.0
    assert win_rate(deal, 0) == 0.0


@pytest.mark.parametrize("preset", ["N", "T"])
def test_unlimited_and_limited_games_terminate(preset):
    tables = PlayoutTables(Deal.from_number(123, Rules.preset(preset)))
    rng = random.Random(0).random
    for _ in range(50):
        assert random_game(tables, rng).actions < 5000


def test_random_games_are_frozen() -> None:
    """Grading, levels and daily deals depend on the random player's exact games (its action order and
    end rule; CONTRACTS "grading stays frozen").  This digest of 800 games over eight rule sets was
    taken before the talon rules moved into engine/kernel.py; any change to the games changes it."""
    import hashlib

    digest = hashlib.sha256()
    for rules_text in ("N", "T", "O+strict", "T+waste-pair", "E+cover-pair", "T+stock-top", "N+draw-3",
                       "O+stock-top+waste-pair+cover-pair+draw-3"):
        rng = random.Random(11).random
        for number in range(25):
            tables = PlayoutTables(Deal.from_number(number, Rules.parse(rules_text)))
            for _ in range(4):
                trace: list[tuple[int, int]] = []
                result = random_game(tables, rng, trace)
                digest.update(repr((result.won, result.pyramid_removed, result.actions, trace)).encode())
    assert digest.hexdigest() == "c022bb20b32d2d29be70cea54a3c5a1217feb39de25ef3d70cfa1fc56fd0ebd6"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**8), st.sampled_from(RULE_SETS), st.integers(min_value=0))
def test_a_game_lists_the_playout_actions_in_their_order(number, rules_text, seed):
    """Games (engine/game.py) keep their own tables of moves; they list exactly the playout's actions, in
    the same order (bots that pick by index, like the tournament's random bot, depend on it), and move
    to the position the engine's ``apply`` gives."""
    from pyramide_cli.engine.game import ActionRecord, Game

    deal = Deal.from_number(number, Rules.parse(rules_text))
    tables, rng = PlayoutTables(deal), random.Random(seed)
    game = Game(deal)
    while not game.is_over and len(game.history) < 150:
        position = game.position
        expected = [engine_move(position, action) for action in tables.actions(
            position.pyramid, position.talon, position.drawn, position.recycles)]
        assert list(game.legal_moves) == expected
        move = rng.choice(game.legal_moves)
        record = game.push(move)
        assert game.position == position.apply(move)
        after = game.position
        assert record == ActionRecord(move, after.score - position.score, move.cards,
                                      tuple(card for card in after.free_cards if card not in position.free_cards),
                                      after.score, game.outcome, game.termination)
    assert game.is_over or len(game.history) == 150
