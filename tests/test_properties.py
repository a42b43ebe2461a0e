"""Property tests over random deals, rules and move sequences (issue 2).

The engine is checked against a deliberately naive model written straight from docs/rules.md
(lists of lists, no bit masks): same legal moves and same board after every action.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders import rules_moves
from naive_rules import NaiveGame, board, deal_strategy

from pyramide_cli.engine.cards import CARDS
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.moves import DRAW, RECYCLE, UNDO, Move, Refusal
from pyramide_cli.engine.position import Outcome, Position

EVERY_REMOVAL = [Move.king(card) for card in CARDS if card.is_king] + [
    Move.pair(first, second) for first, second in itertools.combinations(CARDS, 2) if first.rank + second.rank == 13
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_strategy, st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=120))
def test_engine_agrees_with_a_naive_model_of_the_rules(deal, choices):
    # The naive model knows R1-R17 only: the positions play by them on through dead positions (save
    # format 1's end rule), and the game agrees until it ends; tests/test_dead.py checks that end on its own.
    game, position, naive = Game(deal), Position.start(deal), NaiveGame(deal)
    for choice in choices:
        legal = rules_moves(position)
        assert {str(item) for item in legal} == naive.moves()
        assert board(position) == (naive.rows, naive.waste, naive.stock)
        if not game.is_over:
            assert game.position == position and set(game.legal_moves) == set(legal)
        if not legal:
            assert position.outcome in (Outcome.WON, Outcome.LOST) and game.is_over
            break
        chosen = legal[choice % len(legal)]
        position = position.apply_unchecked(chosen)
        if not game.is_over:
            game.push(chosen)
        naive.apply(chosen)


@pytest.mark.no_cover
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal_strategy, st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=150))
def test_invariants_along_random_games(deal, choices):
    """All 52 cards accounted for; undo restores position and score but not the counter;
    every listed legal move applies and every other move is refused with a reason;
    the score is 10 per pyramid card in the foundation."""
    game = Game(deal)
    pyramid_cards = set(deal.pyramid)
    for choice in choices:
        position = game.position
        present = [item for row in position.rows() for item in row if item is not None]
        places = present + list(position.waste) + list(position.stock) + list(position.foundation)
        assert sorted(places) == sorted(CARDS)
        assert game.score == 10 * sum(1 for item in position.foundation if item in pyramid_cards)

        legal = position.legal_moves
        for candidate in EVERY_REMOVAL + [DRAW, RECYCLE]:
            refusal = position.refusal(candidate)
            assert (refusal is None) == (candidate in legal), (str(candidate), refusal)
        for candidate in legal:
            position.apply(candidate)  # does not raise

        if choice % 7 == 0 and game.undo_depth:
            counter, earlier = game.move_count, game.history
            game.apply(UNDO)
            replayed = Game.replay(deal, [item for item in earlier])
            assert game.move_count == counter and replayed.move_count == counter
            continue
        if not legal:
            break
        before, score_before, counter_before = game.position, game.score, game.move_count
        game.apply(legal[choice % len(legal)])
        assert game.move_count == counter_before + 1
        if game.is_over:  # an ended game refuses undo; pop() still takes the action back
            assert game.refusal(UNDO) is Refusal.GAME_OVER
            game.pop()
            assert (game.position, game.move_count) == (before, counter_before)
            break
        game.undo()
        assert game.position == before and game.score == score_before
        assert game.move_count == counter_before + 1
        game.apply(legal[choice % len(legal)])


@settings(max_examples=60, deadline=None)
@given(deal_strategy, st.lists(st.integers(min_value=0, max_value=10**6), max_size=80))
def test_history_replays_to_the_same_game(deal, choices):
    game = Game(deal)
    for choice in choices:
        options = game.legal_moves
        if not options:
            break
        game.apply(options[choice % len(options)])
    again = Game.replay(deal, [Move.parse(str(item)) for item in game.history])
    assert again.position == game.position
    assert (again.move_count, again.score, again.outcome) == (game.move_count, game.score, game.outcome)


@given(st.sampled_from(EVERY_REMOVAL + [DRAW, RECYCLE, UNDO]), st.booleans(), st.booleans())
def test_move_notation_round_trips(move, symbols, french):
    assert Move.parse(str(move)) == move
    assert Move.parse(move.notation(symbols=symbols, french=french)) == move
    assert Move.parse(str(move).lower()) == move
