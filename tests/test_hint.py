"""Hints (R27): a winning line's next action, the best try when lost, a rule of thumb at the limit."""

from __future__ import annotations

from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.analysis.hint import HintKind, describe, heuristic_move, hint_for, taps_for
from pyramide_cli.engine.cards import parse_card
from pyramide_cli.engine.position import playable_cards
from pyramide_cli.engine.taps import TapSession
from pyramide_cli.engine.moves import Move, MoveKind
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Limits, Verdict, solve, solve_for_hint
from reference_search import reference_search, small_position


def test_r27_winning_hint_is_the_next_move_of_a_win() -> None:
    game = Game(Deal.from_code("PY1-T-AAAAAAB"))
    history = list(game.history)
    hint = hint_for(game)
    assert game.history == history  # the game is not changed
    assert hint.kind is HintKind.WINNING and hint.verdict is Verdict.WINNABLE
    after = game.position.apply(hint.move)
    assert solve(after).verdict is Verdict.WINNABLE  # still winnable after following it
    assert hint.taps == tuple(str(card) for card in hint.move.cards)
    assert str(hint) == hint.text and hint.to_dict()["move"] == str(hint.move)


def test_r27_draw_hint_points_at_the_stock() -> None:
    game = Game(Deal.from_code("PY1-N-AAAAAAB"))
    while True:
        hint = hint_for(game)
        if hint.move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
            break
        game.apply(hint.move)
    assert hint.taps == ("stock",) and "stock" in hint.text


def test_lost_position_hint_keeps_the_most_cards_removable() -> None:
    for seed in range(40):
        position = small_position(seed, Rules.parse("T"), seed, slots=2, talon_size=6)
        reference = reference_search(position)
        if reference.winnable or not position.legal_moves:
            continue
        game = Game(position.deal)
        game.position = position
        hint = hint_for(game)
        assert hint.verdict is Verdict.UNWINNABLE and hint.max_pyramid_removed == reference.max_pyramid_removed
        if hint.move is not None:
            assert hint.kind is HintKind.BEST_LOSING
            after = reference_search(position.apply(hint.move))
            assert after.max_pyramid_removed == reference.max_pyramid_removed
        else:
            assert hint.kind is HintKind.NONE and reference.max_pyramid_removed == 28 - position.pyramid.bit_count()


def test_heuristic_hint_at_the_search_limit_says_so() -> None:
    game = Game(Deal.from_number(159, Rules.preset("T")))
    hint = hint_for(game, Limits(max_states=5, timeout=None))
    assert hint.kind is HintKind.HEURISTIC and "rule of thumb" in hint.text
    assert hint.move in game.position.legal_moves


def test_lost_stock_top_starts_get_their_hint_from_the_search_within_the_budget() -> None:
    """Deal 1372 under ``T+stock-top`` is lost from its start, and its exact maxima take 513,987
    positions, past the hint's budget: the hint still comes from the search, pointing at a line to
    the most pyramid cards (24, the full solve's maximum)."""
    game = Game(Deal.from_number(1372, Rules.parse("T+stock-top")))
    hint = hint_for(game)
    assert hint.kind is HintKind.BEST_LOSING and hint.max_pyramid_removed == 24
    assert solve_for_hint(game.position.apply(hint.move)).max_pyramid_removed == 24


def test_when_no_pyramid_card_can_come_off_the_hint_goes_for_the_most_cards_in_all() -> None:
    """A lost position whose pyramid cards are all as far as they can go, but where talon pairs can
    still take cards: the hint points at an action on the way to the most cards in all."""
    position = small_position(51, Rules.parse("T+stock-top"), 51, slots=2, talon_size=8)
    reference = reference_search(position)
    assert not reference.winnable and reference.max_pyramid_removed == position.pyramid_removed
    hint = hint_for(position)
    assert hint.kind is HintKind.BEST_LOSING and hint.max_pyramid_removed == reference.max_pyramid_removed
    assert reference_search(position.apply(hint.move)).max_removed == reference.max_removed


def test_heuristic_prefers_kings_then_pyramid_pairs() -> None:
    position = Game(Deal.from_code("PY1-N-AAAAAAB")).position
    assert heuristic_move(position) == Move.parse("KC")
    after = position.apply(Move.parse("KC")).apply(Move.parse("KH"))
    assert heuristic_move(after) == Move.parse("8S+5H")


def test_won_and_finished_games() -> None:
    deal = Deal.from_code("PY1-N-AAAAAAB")
    game = Game(deal)
    for move in solve(deal).solution:
        game.apply(move)
    hint = hint_for(game)
    assert hint.kind is HintKind.NONE and hint.move is None and "won" in hint.text


def _tapped(session: TapSession, taps: tuple[str, ...]) -> list:
    """Tap ``taps`` in ``session`` as a player would; the tap results."""
    return [session.tap(tap if tap == "stock" else parse_card(tap)) for tap in taps]


def test_r13_a_hint_starts_from_the_selection_and_its_taps_play_its_move() -> None:
    """R11–R13, R27: with any playable card selected, tapping the hint's taps plays the hint's move,
    with no tap refused (a hint that ignored the selection would pair the wrong cards or be refused)."""
    import random

    chooser = random.Random(7)
    checked = 0
    for number in range(12):
        game = Game(Deal.from_number(number, Rules.parse("T")))
        for _ in range(chooser.randrange(0, 12)):
            if game.is_over:
                break
            game.push(chooser.choice(game.legal_moves))
        if game.is_over:
            continue
        for selected in [None, *playable_cards(game.position)]:
            if selected is not None and selected.is_king:
                continue  # tapping a free king removes it: a king is never left selected
            hint = hint_for(game, selected=selected)
            if hint.move is None:
                continue
            player = TapSession(game.copy())
            player.selected = selected
            results = _tapped(player, hint.taps)
            assert all(result.ok for result in results), (game, selected, hint.taps)
            assert results[-1].move == hint.move and player.game.history[-1] == hint.move
            if selected is not None and hint.move.kind is MoveKind.PAIR:
                assert (selected in hint.move.cards) == (len(hint.taps) == 1)
                assert str(selected) in hint.text
            checked += 1
    assert checked > 40


def test_r13_the_issues_two_hints_from_a_selection() -> None:
    """The two hints of the report: a pair that does not hold the selected card first clears it; a
    pair that holds it needs one tap, of the other card."""
    for number in range(100):
        position = Game(Deal.from_number(number, Rules.parse("T"))).position
        pairs = [move for move in position.legal_moves if move.kind is MoveKind.PAIR]
        others = [card for card in playable_cards(position) if not card.is_king and pairs
                  and card not in pairs[0].cards]
        if others:
            break
    pair, other = pairs[0], others[0]
    first, second = pair.cards
    assert taps_for(position, pair, other) == (str(other), str(first), str(second))
    assert taps_for(position, pair, first) == (str(second),)
    assert taps_for(position, pair, None) == (str(first), str(second))
    assert describe(position, pair, True, first).startswith(f"Tap {second} to pair it with the selected {first}")
