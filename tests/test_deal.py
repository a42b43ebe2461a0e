"""Deal codes and the frozen shuffle (R21–R24)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyramide_cli.engine.cards import CARDS, parse_card
from pyramide_cli.engine.deal import (
    MAX_DEAL_NUMBER,
    Deal,
    decode_base32,
    encode_base32,
    lehmer_rank,
    lehmer_unrank,
    looks_like_code,
    shuffled_deck,
    splitmix64,
)
from pyramide_cli.engine.errors import DealCodeError
from pyramide_cli.engine.rules import Rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "deal-codes.md"


def reference_shuffle(number: int) -> list[str]:
    """docs/deal-codes.md §2 transcribed independently: SplitMix64 + Fisher–Yates, card names."""
    mask = (1 << 64) - 1
    state = number
    deck = list(range(52))
    for i in range(51, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return [ranks[index % 13] + "CDHS"[index // 13] for index in deck]


def documented_vectors() -> dict[str, list[str]]:
    """The test vectors as printed in docs/deal-codes.md §5."""
    text = DOC.read_text(encoding="utf-8")
    vectors = {}
    for code, block in re.findall(r"`(PY1-N-[A-Z2-7]{7})` \(deal \d+[^\n]*?\):\n\n```\n(.*?)```", text, re.S):
        vectors[code] = block.split()
    return vectors


def test_r23_documented_vectors_match_the_shuffle_and_the_reference():
    vectors = documented_vectors()
    assert set(vectors) >= {"PY1-N-AAAAAAA", "PY1-N-AAAAAAJ", "PY1-N-AAAAAAS"}
    for code, names in vectors.items():
        deal = Deal.from_code(code)
        assert [str(card) for card in deal.cards] == names
        assert reference_shuffle(deal.number) == names


def test_r23_splitmix64_known_outputs():
    generator = splitmix64(0)
    assert [next(generator) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@given(st.integers(min_value=0, max_value=MAX_DEAL_NUMBER))
def test_r23_shuffle_matches_reference_for_any_number(number):
    assert [str(card) for card in shuffled_deck(number)] == reference_shuffle(number)


def test_r22_base32_deal_numbers():
    assert Deal.from_code("PY1-N-AAAAAAA").number == 0
    assert Deal.from_code("PY1-N-AAAAAAS").number == 18
    assert Deal.from_code("PY1-N-AAAAAAJ").number == 9
    assert Deal.from_code("PY1-N-AAAAABA").number == 32
    assert Deal.from_code("PY1-N-77777777"[:13]).number == MAX_DEAL_NUMBER
    assert Deal.from_number(18).code == "PY1-N-AAAAAAS"


def test_r22_input_is_case_insensitive():
    assert Deal.from_code("py1-n-aaaaaas") == Deal.from_code("PY1-N-AAAAAAS")
    assert Deal.from_code("  Py1-tsw-AaAaAaJ ").code == "PY1-TSW-AAAAAAJ"


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ("PY1-N-AAAAAA", "has 6 characters"),
        ("PY1-N-AAAAAAAA", "has 8 characters"),
        ("PY1-N-AAAAAA1", "bad character '1'"),
        ("PY2-N-AAAAAAA", "unknown format version 'PY2'"),
        ("PY1-X-AAAAAAA", "bad rules segment"),
        ("PY1-TR2-AAAAAAA", "write it as 'T'"),
        ("PY1-N", "expected three parts"),
        ("PY1-N-AAAA-AAA", "expected three parts"),
        ("hello", "expected three parts"),
        ("PY1-N-" + "7" * 46, "out of range"),
    ],
)
def test_r22_invalid_codes_say_what_is_wrong(code, fragment):
    with pytest.raises(DealCodeError) as error:
        Deal.from_code(code)
    assert fragment in str(error.value)
    assert repr(code) in str(error.value) or fragment == "bad character '1'"


def test_r21_code_carries_rules_and_reproduces_the_game():
    rules = Rules.parse("T+strict+waste-pair")
    deal = Deal.from_number(123456, rules)
    again = Deal.from_code(deal.code)
    assert again == deal and again.rules == rules and again.cards == deal.cards
    # RFC 4648 base32 of the 35-bit number, computed by the standard library (5 zero bits appended).
    expected = base64.b32encode((123456 << 5).to_bytes(5, "big")).decode()[:7]
    assert deal.code == f"PY1-TSW-{expected}"


def test_r23_same_pyramid_under_every_preset():
    deals = [Deal.from_number(4242, Rules.preset(letter)) for letter in "NTEO"]
    assert len({deal.pyramid for deal in deals}) == 1
    assert len({deal.cards for deal in deals}) == 1
    assert deals[1].with_rules(Rules()) == deals[0]


def test_deal_numbers_give_different_deals():
    assert len({shuffled_deck(number) for number in range(200)}) == 200


def test_deal_number_out_of_range():
    with pytest.raises(DealCodeError):
        shuffled_deck(MAX_DEAL_NUMBER + 1)
    with pytest.raises(DealCodeError):
        encode_base32(32**7, 7)


def test_base32_round_trip():
    for value in (0, 1, 31, 32, 12345, MAX_DEAL_NUMBER):
        assert decode_base32(encode_base32(value, 7)) == value


@given(st.permutations(list(range(52))))
def test_r24_lehmer_rank_round_trips_every_order(order):
    cards = tuple(CARDS[index] for index in order)
    assert lehmer_unrank(lehmer_rank(cards)) == cards
    deal = Deal.custom(cards, Rules.preset("E"))
    assert deal.is_custom and deal.number is None
    again = Deal.from_code(deal.code)
    assert again.cards == cards and again.rules == deal.rules and again.is_custom


def test_r24_lehmer_extremes():
    assert lehmer_rank(CARDS) == 0
    assert lehmer_rank(tuple(reversed(CARDS))) == __import__("math").factorial(52) - 1


R24_ROWS = [
    ["JD"], ["6C", "7H"], ["AS", "4D", "QS"], ["5H", "3D", "6H", "8S"], ["KH", "KC", "AD", "KS", "9C"],
    ["QC", "2C", "8D", "10D", "10S", "JS"], ["7C", "10C", "3H", "4H", "3S", "KD", "7S"],
]


def test_r24_layout_of_the_rules_document_is_a_custom_deal_with_a_code():
    deal = Deal.from_layout(R24_ROWS, waste="7D")
    assert [str(card) for card in deal.pyramid[21:]] == ["7C", "10C", "3H", "4H", "3S", "KD", "7S"]
    assert str(deal.talon[0]) == "7D" and len(deal.talon) == 24
    assert deal.code == "PY1-N-AVIYQEQL2JCIWP3H4TLWKHHABHQIP2CZJU3HUYQL3OQAAA"
    assert deal.code in DOC.read_text(encoding="utf-8")
    assert Deal.from_code(deal.code) == deal


def test_layout_with_explicit_stock_and_rules_without_waste():
    pyramid = [card for row in R24_ROWS for card in row]
    rest = [card for card in CARDS if str(card) not in pyramid]
    deal = Deal.from_layout(R24_ROWS, stock=list(reversed(rest)), rules=Rules.preset("T"))
    assert list(deal.talon) == list(reversed(rest))


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"rows": R24_ROWS[:6]}, "7 rows"),
        ({"rows": R24_ROWS, "waste": None}, "must name it"),
        ({"rows": R24_ROWS, "waste": "7D", "rules": Rules.preset("T")}, "deal no waste card"),
        ({"rows": R24_ROWS, "waste": "JD"}, "appears twice"),
        ({"rows": R24_ROWS, "waste": "7D", "stock": ["AC"]}, "30 cards instead of 52"),
        ({"rows": [["XX"]] + R24_ROWS[1:], "waste": "7D"}, "bad layout"),
    ],
)
def test_bad_layouts_are_refused(kwargs, fragment):
    rows = kwargs.pop("rows")
    with pytest.raises(DealCodeError) as error:
        Deal.from_layout(rows, **kwargs)
    assert fragment in str(error.value)


def test_custom_deal_needs_52_distinct_cards():
    with pytest.raises(DealCodeError, match="missing"):
        Deal.custom(CARDS[:51])
    with pytest.raises(DealCodeError):
        Deal(Rules(), CARDS[:51] + (CARDS[0],))
    assert Deal.custom([str(card) for card in CARDS]).cards == CARDS
    assert parse_card("AC") == Deal.custom(CARDS).pyramid[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("PY1-N-AAAAAAS", True), ("py1-t-aaaaaaa", True), ("game.yaml", False), ("PY1-N-AAAAAAS.yaml", False),
     ("saves/PY1-N-AAAAAAS", False)],
)
def test_looks_like_code(text, expected):
    assert looks_like_code(text) is expected
