"""A game: taps and selection (R11–R15), counters (R19), undo (R20), the R24 worked example."""

from __future__ import annotations

import pytest
from builders import R24_ROWS, build_deal, play, r24_deal, rules_moves
from cli_support import WON_N_CODE, WON_N_LINE

from pyramide_cli.engine.cards import parse_card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.errors import IllegalMoveError, MoveSyntaxError
from pyramide_cli.engine.game import UNDO_LIMIT, Game
from pyramide_cli.engine.taps import TapAction, TapSession
from pyramide_cli.storage import format_1
from pyramide_cli.engine.moves import DRAW, NO_MORE_MOVES, RECYCLE, RESIGN, UNDO, Move, Refusal
from pyramide_cli.engine.position import Outcome, Position, Termination
from pyramide_cli.engine.rules import Rules

R24_NAMES = " ".join(name for row in R24_ROWS for name in row)


def card(name: str):
    return parse_card(name)


# -- R24: the worked example of the rules document ----------------------------------------------


def test_r24_worked_example_plays_out_as_the_rules_document_says():
    game = Game(r24_deal())
    session = TapSession(game)
    # At the start Q♣ (row 6) is blocked ...
    blocked = session.tap(card("Q♣"))
    assert blocked.refusal is Refusal.BLOCKED and blocked.message == "This card is blocked by another card"
    # ... and 7♣ + 7♠ is refused with "The sum must equal 13".
    assert session.tap(card("7♣")).action is TapAction.SELECTED
    refused = session.tap(card("7♠"))
    assert refused.refusal is Refusal.SUM_NOT_13 and refused.message == "The sum must equal 13"
    session.tap(card("7♠"))  # unselect
    # First move removes K♦ (bottom row), the second the pair 10♣ + 3♠ ...
    first = session.tap(card("K♦"))
    assert first.move == Move.parse("KD")
    session.tap(card("10♣"))
    second = session.tap(card("3♠"))
    assert second.move == Move.parse("10C+3S")
    # ... leaving row 7 as 7♣ 3♥ 4♥ 7♠.
    bottom = [str(item) for item in game.position.rows()[6] if item is not None]
    assert bottom == ["7C", "3H", "4H", "7S"]
    assert [str(item) for item in game.history] == ["KD", "10C+3S"]
    assert game.score == 30 and game.move_count == 2


# -- R11–R15: taps --------------------------------------------------------------------------------


def test_r11_tapping_a_covered_card_does_nothing_but_say_so():
    game = Game(r24_deal())
    session = TapSession(game)
    before = game.position
    result = session.tap(card("JD"))
    assert result.action is TapAction.REFUSED and result.refusal is Refusal.BLOCKED
    assert result.message == "This card is blocked by another card"
    assert game.position == before and session.selected is None and game.move_count == 0


def test_r11_blocked_tap_keeps_an_existing_selection():
    game = Game(r24_deal())
    session = TapSession(game)
    session.tap(card("10C"))
    session.tap(card("QC"))
    assert session.selected == card("10C")


def test_r12_tapping_a_free_king_removes_it_at_once():
    game = Game(r24_deal())
    session = TapSession(game)
    result = session.tap(card("KD"))
    assert result.action is TapAction.MOVED and result.move == Move.king(card("KD"))
    assert game.position.place(card("KD")).value == "foundation"


def test_r13_tap_two_cards_adding_to_13_removes_both():
    game = Game(r24_deal())
    session = TapSession(game)
    assert session.tap(card("3S")).action is TapAction.SELECTED and session.selected == card("3S")
    result = session.tap(card("10C"))
    assert result.move == Move.parse("10C+3S") and session.selected is None


def test_r13_second_card_stays_selected():
    game = Game(r24_deal())
    session = TapSession(game)
    session.tap(card("7C"))
    result = session.tap(card("7S"))
    assert result.refusal is Refusal.SUM_NOT_13
    assert session.selected == card("7S")
    assert game.move_count == 0 and game.history == []


def test_r13_tapping_the_selected_card_again_clears_the_selection():
    game = Game(r24_deal())
    session = TapSession(game)
    session.tap(card("4H"))
    result = session.tap(card("4H"))
    assert result.action is TapAction.DESELECTED and session.selected is None


def test_r13_selection_survives_a_draw_only_while_the_card_stays_playable():
    deal = build_deal(R24_NAMES, "9D AC 4C")
    game = Game(deal)
    session = TapSession(game)
    session.tap(card("4H"))
    session.tap("stock")
    assert session.selected == card("4H")  # a pyramid card stays selected through a draw
    session.tap("waste")  # A♣: 4 + 1 is not 13, the waste card becomes the selection
    assert session.selected == card("AC")
    session.tap("stock")  # 4♣ covers A♣: the selection is dropped
    assert session.selected is None


def test_r13_waste_card_pairs_by_tapping():
    deal = build_deal(R24_NAMES, "6D")
    game = Game(deal)
    session = TapSession(game)
    session.tap("waste")
    result = session.tap(card("7C"))
    assert result.move == Move.parse("7C+6D") and game.score == 10


def test_r14_tapping_the_stock_draws_and_the_empty_stock_recycles():
    game = Game(r24_deal())
    session = TapSession(game)
    for _ in range(23):
        assert session.tap("stock").move == DRAW
    assert session.tap("stock").move == RECYCLE
    assert game.position.pass_number == 2


def test_r14_empty_stock_without_recycles_left_refuses():
    game = Game(build_deal(R24_NAMES, "7D", "O"))
    session = TapSession(game)
    for _ in range(24):
        session.tap("stock")
    result = session.tap("stock")
    assert result.refusal is Refusal.RECYCLE_LIMIT and result.message == "No recycles left"


def test_r15_error_help_off_gives_no_message_but_a_reason():
    game = Game(r24_deal())
    session = TapSession(game, assist=False)
    blocked = session.tap(card("QC"))
    assert blocked.refusal is Refusal.BLOCKED and blocked.message is None and not blocked.ok
    session.tap(card("7C"))
    wrong_sum = session.tap(card("7S"))
    assert wrong_sum.refusal is Refusal.SUM_NOT_13 and wrong_sum.message is None


def test_tapping_cards_not_in_play():
    game = Game(r24_deal())
    session = TapSession(game)
    assert session.tap(card("AC")).refusal is Refusal.NOT_IN_PLAY  # in the stock
    session.tap(card("KD"))
    assert session.tap(card("KD")).refusal is Refusal.ALREADY_REMOVED
    emptied = Game(build_deal(R24_NAMES, "7D", "T"))
    emptied_session = TapSession(emptied)
    assert emptied_session.tap("waste").refusal is Refusal.NOT_IN_PLAY
    with pytest.raises(ValueError):
        emptied_session.tap("foundation")


def test_waste_pair_selection_pairs_only_with_the_top():
    game = Game(build_deal(R24_NAMES, "7D 6S", "N+waste-pair"))
    session = TapSession(game)
    session.tap("stock")
    session.tap(card("7D"))  # the card under the top is selectable under waste-pair
    assert session.selected == card("7D")
    result = session.tap(card("6S"))
    assert result.move == Move.parse("7D+6S")
    game2 = Game(build_deal(R24_NAMES, "6D 9H", "N+waste-pair"))
    session2 = TapSession(game2)
    session2.tap("stock")
    session2.tap(card("6D"))
    refused = session2.tap(card("7C"))  # 6♦ lies under 9♥: it may pair only with 9♥
    assert refused.refusal is Refusal.NOT_IN_PLAY and session2.selected == card("7C")


def test_cover_pair_by_tapping():
    game = Game(r24_deal(Rules.parse("N+cover-pair")))
    session = TapSession(game)
    session.tap(card("KD"))
    session.tap(card("3S"))
    result = session.tap(card("10S"))  # 10♠ is blocked by 3♠ alone: cover-pair allows it
    assert result.move == Move.parse("10S+3S")


def test_tap_after_the_game_is_won():
    game = Game(r24_deal())
    session = TapSession(game)
    game.position = Position(game.deal, pyramid=0, drawn=1)
    assert session.tap("stock").refusal is Refusal.GAME_OVER
    assert game.outcome is Outcome.WON


# -- text input -----------------------------------------------------------------------------------


def test_play_accepts_taps_and_moves_in_any_spelling():
    game = play(r24_deal(), "k♦", "10C", "3S", "draw", "undo", "stock")
    assert [str(item) for item in game.history] == ["KD", "10C+3S", "draw", "undo", "draw"]
    assert game.move_count == 4


@pytest.mark.parametrize("bad", ["", "XYZ", "10C-3S", "7C+", "7C+8C+9C", "1Z"])
def test_play_refuses_unreadable_text(bad):
    game = Game(r24_deal())
    session = TapSession(game)
    with pytest.raises(MoveSyntaxError) as error:
        session.play(bad)
    assert repr(bad) in str(error.value)


def test_play_refused_move_changes_nothing():
    game = Game(r24_deal())
    session = TapSession(game)
    before = (game.position, list(game.history), game.move_count, session.selected)
    result = session.play("7C+7S")
    assert result.refusal is Refusal.SUM_NOT_13
    assert (game.position, game.history, game.move_count, session.selected) == before
    assert session.play("recycle").refusal is Refusal.STOCK_NOT_EMPTY


def test_apply_raises_with_a_reason_and_changes_nothing():
    game = Game(r24_deal())
    with pytest.raises(IllegalMoveError) as error:
        game.apply(Move.parse("JD+2C"))
    assert error.value.refusal is Refusal.BLOCKED and game.history == []
    assert not game.can_apply(Move.parse("JD+2C")) and game.can_apply(DRAW)


# -- R19, R20: counters and undo ------------------------------------------------------------------


def test_r19_move_counter_counts_removals_draws_and_recycles():
    game = play(r24_deal(), "KD", "10C+3S", *["draw"] * 23, "recycle")
    session = TapSession(game)
    assert game.move_count == 26
    session.tap(card("7C"))  # a selection is not a move
    assert game.move_count == 26


def test_r20_undo_takes_back_the_last_action_and_its_points_but_not_the_counter():
    game = play(r24_deal(), "KD", "10C+3S")
    before_pair = Game.replay(game.deal, game.history[:1]).position
    game.undo()
    assert game.position == before_pair and game.score == 10
    assert game.move_count == 2
    game.undo()
    assert game.position == Position.start(game.deal) and game.score == 0
    assert game.move_count == 2
    assert game.refusal(UNDO) is Refusal.NOTHING_TO_UNDO
    with pytest.raises(IllegalMoveError):
        game.undo()


def test_r20_undo_covers_draws_and_recycles():
    game = play(r24_deal(), *["draw"] * 23, "recycle")
    game.undo()
    assert game.position.stock_count == 0 and game.position.pass_number == 1
    game.undo()
    assert game.position.stock_count == 1


def test_r20_at_most_100_actions_can_be_undone():
    game = Game(r24_deal())
    for _ in range(130):
        game.apply(DRAW if game.position.can_draw else RECYCLE)
    assert game.undo_depth == UNDO_LIMIT
    positions = []
    for _ in range(UNDO_LIMIT):
        game.undo()
        positions.append(game.position)
    assert game.refusal(UNDO) is Refusal.NOTHING_TO_UNDO
    assert game.move_count == 130
    reference = Game.replay(game.deal, [DRAW if index % 24 != 23 else RECYCLE for index in range(30)])
    assert game.position == reference.position


def test_replay_rebuilds_the_same_game_and_names_a_bad_entry():
    game = play(r24_deal(), "KD", "10C+3S", "draw", "undo", "draw")
    again = Game.replay(game.deal, game.history)
    assert again.position == game.position and again.move_count == game.move_count
    assert again.undo_depth == game.undo_depth
    with pytest.raises(IllegalMoveError, match="action 2 of the history"):
        Game.replay(game.deal, [Move.parse("KD"), Move.parse("7C+7S")])


def test_legal_moves_of_a_game_are_the_positions_and_undo_is_apart():
    game = Game(r24_deal())
    assert not game.can_undo and game.refusal(UNDO) is Refusal.NOTHING_TO_UNDO
    game.push(DRAW)
    assert UNDO not in game.legal_moves and set(game.legal_moves) == set(game.position.legal_moves)
    assert game.can_undo and game.refusal(UNDO) is None


LOST_O_LINE = ("KH", *["draw"] * 8, "KS", *["draw"] * 8, "QC+AS", "draw", "draw", "draw", "8C+5H", "draw", "draw",
               "10S+3H", "draw", "10H+3S", "draw")  # examples/lost-o.yaml up to its last removal, 8H+5S


def test_no_removal_draw_or_recycle_left_ends_the_game_lost_with_r17s_message():
    from pyramide_cli.analysis.hint import hint_for
    from pyramide_cli.cli.render import Style, render_board

    game = play(Deal.from_code("PY1-O-AAAAAU4"), *LOST_O_LINE, "draw")  # draws past 8H+5S: the stock is spent
    assert (game.outcome, game.termination) == (Outcome.LOST, Termination.NO_MOVES)
    assert rules_moves(game.position) == ()
    assert game.refusal(DRAW) is Refusal.GAME_OVER and game.refusal(RECYCLE) is Refusal.GAME_OVER
    assert render_board(game, Style(ascii=True)).splitlines()[-1].strip() == NO_MORE_MOVES
    assert hint_for(game).text.startswith(NO_MORE_MOVES) and hint_for(game).move is None


def test_a_dead_game_ends_although_a_draw_is_left():
    from pyramide_cli.analysis.hint import hint_for
    from pyramide_cli.cli.render import Style, render_board

    game = play(Deal.from_code("PY1-O-AAAAAU4"), *LOST_O_LINE)
    session = TapSession(game)
    assert game.legal_moves == (Move.parse("8H+5S"), DRAW)
    record = game.push("8H+5S")  # the last card that can ever go: one draw is left, and nothing to pair
    assert (record.outcome, record.termination) == (Outcome.LOST, Termination.DEAD)
    assert game.position.can_draw and rules_moves(game.position) == (DRAW,)
    assert not game.legal_moves and game.refusal(DRAW) is Refusal.GAME_OVER and not game.can_undo
    assert session.play("stock").refusal is Refusal.GAME_OVER
    message = "No card can ever be removed again"
    assert render_board(game, Style(ascii=True)).splitlines()[-1].strip() == message
    assert hint_for(game).text.startswith(message)
    assert format_1.status(game) is Outcome.PLAYING  # format 1's end rule: it went on


def test_numbered_deals_start_as_dealt():
    for letter in "NTEO":
        game = Game(Deal.from_number(7, Rules.preset(letter)))
        position = game.position
        assert len(position.waste) == (1 if letter == "N" else 0)
        assert position.stock_count == (23 if letter == "N" else 24)
        assert position.outcome is Outcome.PLAYING and game.score == 0


def find_win(position: Position, budget: int) -> list[Move] | None:
    """A plain depth-first search for a winning line (tests only; the solver is elsewhere)."""
    seen: set = set()
    stack = [(position, [])]
    while stack and len(seen) < budget:
        current, line = stack.pop()
        if current.is_won:
            return line
        if current.key() in seen:
            continue
        seen.add(current.key())
        for candidate in reversed(current.legal_moves):
            stack.append((current.apply_unchecked(candidate), line + [candidate]))
    return None


def test_r18_a_won_game_under_n_scores_280():
    for number in range(20):
        deal = Deal.from_number(number)
        line = find_win(Position.start(deal), 3000)
        if line is not None:
            break
    assert line is not None
    game = Game.replay(deal, line)
    session = TapSession(game)
    assert game.outcome is Outcome.WON and game.score == 280
    assert game.move_count == len(line)
    assert session.tap("stock").refusal is Refusal.GAME_OVER


# -- how a game ends, push/pop and action records (contract 1, issue 10) --------------------------


def test_push_returns_a_record_of_points_removed_and_uncovered_cards():
    game = Game(r24_deal())
    king = game.push("KD")
    assert (king.move, king.points, king.removed, king.uncovered) == (Move.parse("KD"), 10, (card("KD"),), ())
    pair = game.push(Move.parse("10C+3S"))
    assert pair.points == 20 and set(pair.removed) == {card("10C"), card("3S")}
    assert pair.uncovered == (card("10S"),)  # 3S and KD lay on 10S
    assert (pair.score, pair.outcome, pair.termination) == (30, Outcome.PLAYING, None)
    drawn = game.push(DRAW)
    assert (drawn.points, drawn.removed, drawn.uncovered) == (0, (), ())
    undone = game.undo()
    assert undone.move == UNDO and undone.points == 0 and undone.score == 30
    assert game.undo().points == -20
    assert pair.to_dict() == {"move": "10C+3S", "points": 20, "removed": ["10C", "3S"], "uncovered": ["10S"],
                              "score": 30, "status": "playing", "termination": None}


def test_pop_restores_everything_and_is_not_an_action_of_the_game():
    game = Game(r24_deal())
    session = TapSession(game)
    game.push("KD")
    session.play("10C")  # a selection
    before = (game.position, list(game.history), game.move_count, session.selected, game.undo_depth)
    for word in ("draw", "undo", "draw", "resign"):
        game.push(word)
    assert game.is_over
    for expected in ("resign", "draw", "undo", "draw"):
        assert str(game.pop()) == expected
    assert (game.position, game.history, game.move_count, session.selected, game.undo_depth) == before
    assert game.pop() == Move.parse("KD") and game.position == Position.start(game.deal)
    with pytest.raises(IndexError):
        game.pop()


def test_resigning_ends_the_game_and_every_action_is_refused_after_it():
    game = play(r24_deal(), "KD", "draw")
    session = TapSession(game)
    record = game.resign()
    assert (record.outcome, record.termination, record.points) == (Outcome.LOST, Termination.RESIGNED, 0)
    assert game.is_over and game.outcome is Outcome.LOST and game.move_count == 2
    assert [str(move) for move in game.history] == ["KD", "draw", "resign"]
    assert not game.legal_moves and len(game.legal_moves) == 0 and game.undo_depth == 0
    for move in (DRAW, UNDO, RESIGN, Move.parse("10C+3S")):
        assert game.refusal(move) is Refusal.GAME_OVER
        with pytest.raises(IllegalMoveError, match="the game is over"):
            game.push(move)
    assert session.tap(card("10C")).refusal is Refusal.GAME_OVER
    assert session.play("stock").refusal is Refusal.GAME_OVER
    assert Game.replay(game.deal, game.history).termination is Termination.RESIGNED


def test_a_won_game_refuses_undo():
    game = Game.replay(Deal.from_code(WON_N_CODE), [Move.parse(word) for word in WON_N_LINE[:-1]])
    session = TapSession(game)
    assert game.can_undo
    record = game.push(WON_N_LINE[-1])
    assert (record.outcome, record.termination) == (Outcome.WON, Termination.CLEARED)
    assert game.refusal(UNDO) is Refusal.GAME_OVER and not game.can_undo
    assert session.play("undo").refusal is Refusal.GAME_OVER


def test_r17_no_moves_ends_a_game_under_o():
    game = Game(Deal.from_number(5, Rules.preset("O")))
    while not game.is_over:
        game.push(game.legal_moves[-1])  # draw whenever it can, else the last removal
    assert game.termination in (Termination.NO_MOVES, Termination.DEAD, Termination.CLEARED)
    if game.termination is Termination.NO_MOVES:
        assert not rules_moves(game.position) and game.termination.message == NO_MORE_MOVES


def test_legal_moves_are_worked_out_once_per_position():
    game = Game(r24_deal())
    legal = game.legal_moves
    assert game.legal_moves is legal and Move.parse("KD") in legal and len(legal) == len(set(legal))
    assert isinstance(legal, tuple) and legal[-1] is DRAW  # removals first, then the draw
    game.push("KD")
    assert Move.parse("KD") not in game.legal_moves and Move.parse("KD") in legal  # a tuple taken at one moment


def test_copy_is_independent():
    game = play(r24_deal(), "KD")
    clone = game.copy()
    clone.push("draw")
    clone.resign()
    assert game.history == [Move.parse("KD")] and not game.is_over
    assert clone.pop() == RESIGN and clone.pop() == DRAW and clone.position == game.position


def test_a_game_from_a_position_or_a_code():
    start = Game.from_code("PY1-T-AAAAAAB")
    assert start.deal == Deal.from_code("PY1-T-AAAAAAB") and start.history == []
    start.push("draw")
    later = Game.from_position(start.position)
    assert later.position == start.position and later.history == [] and later.move_count == 0
    assert list(later.legal_moves) == list(start.legal_moves)


@pytest.mark.parametrize("rules_text", ["N", "T", "T+waste-pair", "N+draw-3+stock-top", "O+cover-pair"])
def test_push_pop_undo_and_copy_always_list_the_positions_own_moves(rules_text: str) -> None:
    """A game remembers how many forced draws lie ahead of a removal and skips working out those
    positions (``Game._quiet``); whatever mix of push, pop, undo and copy, its moves, end and score are
    those of a fresh game at the same position."""
    import random

    rng = random.Random(rules_text)
    for number in range(6):
        game = Game(Deal.from_number(number, Rules.parse(rules_text)))
        for _ in range(300):
            fresh = Game.from_position(game.position)
            assert (game.legal_moves, game.termination, game.score) == (fresh.legal_moves, fresh.termination,
                                                                        fresh.score)
            roll = rng.random()
            if roll < 0.08 and game.history:
                game.pop()
            elif roll < 0.14 and game.can_undo:
                game.undo()
            elif roll < 0.18:
                game = game.copy()
            elif game.legal_moves:
                # mostly draws, so that long forced runs come up
                game.push(DRAW if DRAW in game.legal_moves and roll < 0.7 else rng.choice(game.legal_moves))
            else:
                break


@pytest.mark.parametrize("preset", ["N", "T"])
def test_each_record_says_what_its_action_did(preset: str) -> None:
    """Every field of the records push returns, against the game before and after the action
    (records are built without the dataclass's constructor on this path)."""
    import random

    rng = random.Random(preset)
    for number in range(6):
        game = Game(Deal.from_number(number, Rules.preset(preset)))
        while not game.is_over:
            before_score, before_free = game.score, set(game.position.free_cards)
            move = rng.choice(game.legal_moves)
            record = game.push(move)
            assert record.move is move and record.removed == move.cards
            assert record.points == game.score - before_score and record.score == game.score
            assert set(record.uncovered) == set(game.position.free_cards) - before_free - set(move.cards)
            assert (record.outcome, record.termination) == (game.outcome, game.termination)
