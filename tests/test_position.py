"""The position: layout, free cards, moves under every variant, outcome and score (R2–R10, R16–R18)."""

from __future__ import annotations

import pytest
from builders import build_deal, r24_deal

from pyramide_cli.engine.cards import parse_card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.errors import IllegalMoveError
from pyramide_cli.engine.layout import (
    BASE_MASK,
    CONE_MASK,
    COVERERS,
    FULL_PYRAMID,
    ROW_SLOTS,
    free_slots,
    is_valid_shape,
    slot_index,
)
from pyramide_cli.engine.moves import DRAW, RECYCLE, Move, Refusal
from pyramide_cli.engine.position import Outcome, Place, Position, Termination
from pyramide_cli.engine.rules import Rules

R24_NAMES = "JD 6C 7H AS 4D QS 5H 3D 6H 8S KH KC AD KS 9C QC 2C 8D 10D 10S JS 7C 10C 3H 4H 3S KD 7S"


def card(name: str):
    return parse_card(name)


def move(text: str) -> Move:
    return Move.parse(text)


def names(cards) -> list[str]:
    return [str(item) if item is not None else "--" for item in cards]


def mask_without(*card_names: str, deal: Deal) -> int:
    mask = FULL_PYRAMID
    for name in card_names:
        mask &= ~(1 << deal.layout_index[card(name)])
    return mask


# -- R2, R3: layout and free cards -------------------------------------------------------------


def test_r2_seven_rows_of_one_to_seven_face_up_cards():
    position = Position.start(r24_deal())
    rows = position.rows()
    assert [len(row) for row in rows] == [1, 2, 3, 4, 5, 6, 7]
    assert names(rows[0]) == ["JD"] and names(rows[6]) == ["7C", "10C", "3H", "4H", "3S", "KD", "7S"]
    assert sum(len(row) for row in rows) == 28 == len(ROW_SLOTS[-1]) * 4


def test_r2_card_c_of_row_r_is_covered_by_c_and_c_plus_1_of_the_next_row():
    for row in range(6):
        for col in range(row + 1):
            assert COVERERS[slot_index(row, col)] == (slot_index(row + 1, col), slot_index(row + 1, col + 1))
    assert all(COVERERS[slot] == () for slot in ROW_SLOTS[6])
    with pytest.raises(ValueError):
        slot_index(7, 0)


def test_r3_only_the_bottom_row_is_free_at_the_start():
    position = Position.start(r24_deal())
    assert names(position.free_cards) == ["7C", "10C", "3H", "4H", "3S", "KD", "7S"]
    assert free_slots(FULL_PYRAMID) == ROW_SLOTS[6]


def test_r3_a_card_is_free_once_both_cards_on_it_are_gone():
    deal = r24_deal()
    one_gone = Position(deal, pyramid=mask_without("7C", deal=deal), drawn=1)
    assert card("QC") not in one_gone.free_cards
    assert one_gone.play_refusal(card("QC")) is Refusal.BLOCKED
    both_gone = Position(deal, pyramid=mask_without("7C", "10C", deal=deal), drawn=1)
    assert card("QC") in both_gone.free_cards and both_gone.is_playable(card("QC"))


def test_cones_and_bases_are_consistent():
    apex = slot_index(0, 0)
    assert CONE_MASK[apex] == FULL_PYRAMID & ~1
    assert BASE_MASK[apex] == 0
    for slot in range(28):
        for other in range(28):
            assert bool(CONE_MASK[slot] >> other & 1) == bool(BASE_MASK[other] >> slot & 1)
    assert is_valid_shape(FULL_PYRAMID) and is_valid_shape(0)
    assert not is_valid_shape(FULL_PYRAMID & ~(1 << slot_index(3, 1)))  # a hole with cards on it


# -- R4, R5: stock, waste, foundation -----------------------------------------------------------


def test_r4_stock_face_down_and_waste_face_up_only_top_in_play():
    position = Position.start(r24_deal())
    assert names(position.waste) == ["7D"] and position.stock_count == 23
    position = position.apply(DRAW)
    assert names(position.waste) == ["7D", "AC"] and position.waste_top == card("AC")
    assert position.stock_top == card("3C") and position.stock_count == 22
    assert position.place(card("7D")) is Place.WASTE and not position.is_playable(card("7D"))
    assert position.play_refusal(card("7D")) is Refusal.NOT_IN_PLAY
    assert position.place(card("3C")) is Place.STOCK and position.play_refusal(card("3C")) is Refusal.NOT_IN_PLAY


def test_r5_removed_cards_go_to_the_foundation_in_removal_order():
    position = Position.start(r24_deal())
    for text in ("KD", "10C+3S"):
        position = position.apply(move(text))
    assert names(position.foundation) == ["KD", "10C", "3S"]
    assert position.place(card("KD")) is Place.FOUNDATION
    assert position.play_refusal(card("KD")) is Refusal.ALREADY_REMOVED
    assert position.cards_removed == 3


# -- R6, R7: pairs and kings ---------------------------------------------------------------------


def test_r6_two_free_cards_adding_to_13_are_removed_together_in_either_order():
    position = Position.start(r24_deal())
    assert move("10C+3S") == move("3S+10C") == Move.pair(card("3S"), card("10C"))
    after = position.apply(move("3s+10c"))
    assert card("10C") not in after.free_cards and card("3S") not in after.free_cards
    assert after.pyramid_removed == 2


def test_r6_the_top_waste_card_counts_as_a_free_card():
    deal = build_deal(R24_NAMES, "6D")  # waste card 6♦ pairs with 7♣ or 7♠
    legal = {str(item) for item in Position.start(deal).legal_moves}
    assert {"7C+6D", "7S+6D"} <= legal


def test_r6_sum_must_be_13():
    position = Position.start(r24_deal())
    with pytest.raises(IllegalMoveError) as error:
        position.apply(move("7C+7S"))
    assert error.value.refusal is Refusal.SUM_NOT_13
    assert "the sum must equal 13" in str(error.value) and "'7S+7C'" in str(error.value)


def test_r7_a_free_king_is_removed_alone_from_pyramid_or_waste():
    position = Position.start(r24_deal())
    assert move("KD") in position.legal_moves
    assert position.refusal(move("KH")) is Refusal.BLOCKED
    assert position.refusal(move("KS")) is Refusal.BLOCKED
    deal = build_deal("QH 6C 7H AS 4D QS 5H 3D 6H 8S 2H JH AD 10H 9C QC 2C 8D 10D 10S JS 7C 10C 3H 4H 3S KD 7S",
                      "KH")
    start = Position.start(deal)
    assert start.waste_top == card("KH") and move("KH") in start.legal_moves
    assert start.apply(move("KH")).waste == ()


def test_a_single_non_king_is_not_a_king_move():
    position = Position.start(r24_deal())
    assert position.refusal(Move.king(card("7C"))) is Refusal.NOT_A_KING


# -- R8, R9: draw and recycle ----------------------------------------------------------------------


def test_r8_draw_any_time_while_the_stock_is_not_empty():
    position = Position.start(r24_deal())
    for expected in range(22, -1, -1):
        assert DRAW in position.legal_moves
        position = position.apply(DRAW)
        assert position.stock_count == expected
    assert position.refusal(DRAW) is Refusal.STOCK_EMPTY
    assert DRAW not in position.legal_moves and RECYCLE in position.legal_moves


def test_r9_recycle_turns_the_waste_back_in_the_same_order():
    position = Position.start(r24_deal())
    order_first_pass = [str(position.waste_top)]
    while position.can_draw:
        position = position.apply(DRAW)
        order_first_pass.append(str(position.waste_top))
    assert position.refusal(RECYCLE) is None
    recycled = position.apply(RECYCLE)
    assert recycled.waste == () and recycled.pass_number == 2
    assert names(recycled.stock) == order_first_pass  # the card drawn first is drawn first again
    assert recycled.apply(DRAW).waste_top == card("7D")


def test_r9_recycle_refusals():
    position = Position.start(r24_deal())
    assert position.refusal(RECYCLE) is Refusal.STOCK_NOT_EMPTY
    one_pass = Position.start(r24_under("O"))
    while one_pass.can_draw:
        one_pass = one_pass.apply(DRAW)
    assert one_pass.refusal(RECYCLE) is Refusal.RECYCLE_LIMIT
    assert one_pass.refusal(DRAW) is Refusal.NOTHING_TO_DRAW


def r24_under(rules_text: str) -> Deal:
    """R24's pyramid with 7♦ on top of the stock: the same cards under presets without a waste card."""
    return build_deal(R24_NAMES, "7D", rules_text)


@pytest.mark.parametrize(("preset", "passes"), [("T", 3), ("E", 2), ("O", 1)])
def test_r9_recycle_limit_of_the_presets(preset, passes):
    position = Position.start(r24_under(preset))
    assert position.waste == () and position.stock_count == 24
    recycles = 0
    while True:
        while position.can_draw:
            position = position.apply(DRAW)
        if not position.can_recycle:
            break
        position = position.apply(RECYCLE)
        recycles += 1
    assert recycles == passes - 1 and position.pass_number == passes


def test_r9_unlimited_recycles_under_n():
    position = Position.start(r24_deal())
    for _ in range(10):
        while position.can_draw:
            position = position.apply(DRAW)
        position = position.apply(RECYCLE)
    assert position.pass_number == 11 and position.can_draw


def test_recycle_with_empty_waste_and_stock_is_refused():
    deal = r24_under("T")
    position = Position(deal, talon=0)
    assert position.refusal(RECYCLE) is Refusal.NOTHING_TO_RECYCLE
    assert position.refusal(DRAW) is Refusal.NOTHING_TO_DRAW


# -- R10 and the variants -------------------------------------------------------------------------


def test_r10_drawn_card_never_pairs_with_the_waste_card_it_covers():
    deal = build_deal(R24_NAMES, "7D 6S")
    drawn = Position.start(deal).apply(DRAW)
    assert names(drawn.waste) == ["7D", "6S"]
    assert drawn.refusal(move("7D+6S")) is Refusal.NOT_IN_PLAY
    assert move("7D+6S") not in drawn.legal_moves


def test_r10_waste_pair_variant_allows_it():
    deal = build_deal(R24_NAMES, "7D 6S", "N+waste-pair")
    drawn = Position.start(deal).apply(DRAW)
    assert drawn.refusal(move("7D+6S")) is None and move("7D+6S") in drawn.legal_moves
    after = drawn.apply(move("7D+6S"))
    assert after.waste == () and after.score == 0
    # the card under the top pairs only with the top card, never with a pyramid card
    deal = build_deal(R24_NAMES, "6D 9H", "N+waste-pair")
    drawn = Position.start(deal).apply(DRAW)
    assert drawn.refusal(move("7C+6D")) is Refusal.NOT_IN_PLAY


def test_r10_a_card_never_pairs_with_a_card_that_still_covers_it():
    position = Position.start(r24_deal()).apply(move("KD"))  # 10♠ is now covered by 3♠ alone
    assert position.refusal(move("10S+3S")) is Refusal.BLOCKED
    assert move("10S+3S") not in position.legal_moves


def test_r10_cover_pair_variant_allows_the_one_card_still_covering_it():
    position = Position.start(r24_deal(Rules.parse("N+cover-pair"))).apply(move("KD"))
    assert position.refusal(move("10S+3S")) is None and move("10S+3S") in position.legal_moves
    after = position.apply(move("10S+3S"))
    assert after.score == 30
    # while both covering cards are there, even cover-pair refuses
    start = Position.start(r24_deal(Rules.parse("N+cover-pair")))
    assert start.refusal(move("10S+3S")) is Refusal.BLOCKED


def test_stock_top_variant_makes_the_top_stock_card_playable():
    deal = build_deal(R24_NAMES, "3C 10H", "T+stock-top")
    start = Position.start(deal)
    assert start.stock_top == card("3C") and start.is_playable(card("3C"))
    assert move("10C+3C") in start.legal_moves
    drawn = start.apply(DRAW)  # 3♣ on the waste, 10♥ face up on the stock: they pair
    assert move("10H+3C") in drawn.legal_moves
    assert drawn.apply(move("10H+3C")).score == 0
    plain = Position.start(build_deal(R24_NAMES, "3C 10H", "T"))
    assert plain.refusal(move("10C+3C")) is Refusal.NOT_IN_PLAY


def test_stock_top_king_is_removed_alone():
    deal = build_deal("JD 6C 7H AS 4D QS 5H 3D 6H 8S QH QD AD 2H 9C QC 2C 8D 10D 10S JS 7C 10C 3H 4H 3S AC 7S",
                      "KH", "O+stock-top")
    assert move("KH") in Position.start(deal).legal_moves


def test_draw_3_turns_three_cards_and_only_the_top_is_playable():
    deal = build_deal(R24_NAMES, "3C 4C 10H", "T+draw-3")
    drawn = Position.start(deal).apply(DRAW)
    assert names(drawn.waste) == ["3C", "4C", "10H"] and drawn.stock_count == 21
    assert drawn.refusal(move("10C+3C")) is Refusal.NOT_IN_PLAY
    assert drawn.refusal(move("10H+3S")) is None
    while drawn.can_draw:
        drawn = drawn.apply(DRAW)
    assert drawn.stock_count == 0 and len(drawn.waste) == 24


# -- R16, R17: end of game -------------------------------------------------------------------------


def test_r16_won_when_the_pyramid_is_gone_even_with_cards_in_the_stock():
    position = Position(r24_deal(), pyramid=0, drawn=1)
    assert position.is_won and position.outcome is Outcome.WON
    assert position.legal_moves == () and position.refusal(DRAW) is Refusal.GAME_OVER
    assert position.score == 280


def test_r16_strict_needs_all_52_cards():
    deal = r24_deal(Rules.parse("N+strict+waste-pair"))  # waste-pair: two talon cards can pair
    position = Position(deal, pyramid=0, drawn=1)
    assert not position.is_won and position.outcome is Outcome.PLAYING
    assert Position(deal, pyramid=0, talon=0).outcome is Outcome.WON


def test_strict_with_no_way_to_remove_talon_cards_is_dead():
    deal = r24_deal(Rules.parse("N+strict"))  # the four kings are in R24's pyramid: no talon card can go
    position = Position(deal, pyramid=0, drawn=1)
    assert not position.is_won and position.can_draw
    assert (position.termination, position.outcome) == (Termination.DEAD, Outcome.LOST)
    assert position.legal_moves == () and position.refusal(DRAW) is Refusal.GAME_OVER
    assert position.stock_refusal(DRAW) is None  # the stock would allow it: format 1's end rule drew on


def test_r17_game_goes_on_while_a_card_can_be_drawn_or_recycled():
    # Pyramid whose free cards can never pair with anything left: under N the game is never lost.
    deal = r24_deal()
    position = Position.start(deal)
    while position.can_draw:
        position = position.apply(DRAW)
    assert position.outcome is Outcome.PLAYING  # a recycle is still allowed


def test_r17_no_more_moves_possible_only_when_nothing_can_be_removed_drawn_or_recycled():
    position = Position.start(r24_under("O"))
    for _ in range(24):
        position = position.apply(DRAW)
    # K♦ can still be removed, so the game is not over yet
    assert position.outcome is Outcome.PLAYING
    position = position.apply(move("KD"))
    remaining = position.removals()
    while remaining:
        position = position.apply(remaining[0])
        remaining = position.removals()
    assert not position.can_draw and not position.can_recycle
    assert position.outcome is Outcome.LOST


# -- R18: score --------------------------------------------------------------------------------------


def test_r18_pyramid_pair_20_waste_pair_10_pyramid_king_10_waste_king_0():
    deal = build_deal(R24_NAMES, "6D")
    position = Position.start(deal)
    assert position.score == 0
    assert position.apply(move("10C+3S")).score == 20
    assert position.apply(move("7C+6D")).score == 10
    assert position.apply(move("KD")).score == 10
    king_deal = build_deal(R24_NAMES.replace("KD", "2H"), "KD")
    assert Position.start(king_deal).apply(move("KD")).score == 0
    assert position.apply(DRAW).score == 0


def test_apply_unchecked_and_keys():
    position = Position.start(r24_deal())
    after = position.apply_unchecked(DRAW)
    assert after == position.apply(DRAW)
    assert after.key() != position.key()
    looped = position
    while looped.can_draw:
        looped = looped.apply(DRAW)
    looped = looped.apply(RECYCLE).apply(DRAW)
    assert looped.key() == position.key()  # recycles do not count under unlimited recycles
    with pytest.raises(ValueError):
        position.refusal(Move.parse("undo"))
