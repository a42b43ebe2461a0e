"""Cards, values and card names (R1, §8 French labels)."""

from __future__ import annotations

import pickle

import pytest

from pyramide_cli.engine.cards import CARDS, Card, Suit, pairs_to_thirteen, parse_card, rank_label
from pyramide_cli.engine.errors import CardError


def test_r1_one_deck_of_52_distinct_cards_no_jokers():
    assert len(CARDS) == 52
    assert len({(card.rank, card.suit) for card in CARDS}) == 52
    assert {card.rank for card in CARDS} == set(range(1, 14))
    assert {card.suit for card in CARDS} == set(Suit)


@pytest.mark.parametrize(
    ("name", "value"),
    [("AS", 1), ("2C", 2), ("9H", 9), ("10D", 10), ("JC", 11), ("QH", 12), ("KS", 13)],
)
def test_r1_values_ace_one_to_king_thirteen(name, value):
    card = parse_card(name)
    assert card.value == value == card.rank


def test_r1_suits_never_matter_for_pairing():
    for first in CARDS:
        for second in CARDS:
            assert pairs_to_thirteen(first, second) == (first.rank + second.rank == 13)


@pytest.mark.parametrize(
    "spelling", ["10C", "10c", "10♣", "Tc", "TC", "t♣", " 10C ", "10♧"],
)
def test_ten_of_clubs_spellings(spelling):
    assert parse_card(spelling) == Card.of(10, Suit.CLUBS)


@pytest.mark.parametrize(
    ("spelling", "rank", "suit"),
    [
        ("KD", 13, Suit.DIAMONDS), ("K♦", 13, Suit.DIAMONDS), ("RD", 13, Suit.DIAMONDS),
        ("DD", 12, Suit.DIAMONDS), ("QD", 12, Suit.DIAMONDS), ("VS", 11, Suit.SPADES),
        ("JS", 11, Suit.SPADES), ("AH", 1, Suit.HEARTS), ("1H", 1, Suit.HEARTS), ("7♥", 7, Suit.HEARTS),
        ("2♠", 2, Suit.SPADES), ("R♦", 13, Suit.DIAMONDS),
    ],
)
def test_english_and_french_rank_letters(spelling, rank, suit):
    card = parse_card(spelling)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("bad", ["", "1", "11C", "KX", "ZZ", "10", "♣", "K♦♦", "0C", "14S"])
def test_bad_names_are_rejected_quoting_the_input(bad):
    with pytest.raises(CardError) as error:
        parse_card(bad)
    assert repr(bad) in str(error.value)
    assert isinstance(error.value, ValueError)


def test_non_string_is_rejected():
    with pytest.raises(CardError):
        parse_card(12)  # type: ignore[arg-type]


def test_names_round_trip_in_every_display_form():
    for card in CARDS:
        for symbols in (False, True):
            for french in (False, True):
                assert parse_card(card.name(symbols=symbols, french=french)) == card


def test_canonical_ascii_names():
    assert str(Card.of(10, Suit.CLUBS)) == "10C"
    assert Card.of(13, Suit.DIAMONDS).name(symbols=True) == "K♦"
    assert Card.of(13, Suit.DIAMONDS).name(french=True) == "RD"
    assert Card.of(11, Suit.SPADES).name(french=True, symbols=True) == "V♠"
    assert [rank_label(rank) for rank in (1, 10, 11, 12, 13)] == ["A", "10", "J", "Q", "K"]


def test_cards_are_small_ints_shared_instances():
    card = parse_card("QH")
    assert card is Card(int(card)) is CARDS[int(card)]
    assert int(card) == Suit.HEARTS * 13 + 11
    assert pickle.loads(pickle.dumps(card)) is card
    assert repr(card) == "Card('QH')"
    assert Suit.HEARTS.is_red and Suit.DIAMONDS.is_red and not Suit.SPADES.is_red


def test_card_constructors_reject_out_of_range():
    with pytest.raises(CardError):
        Card(52)
    with pytest.raises(CardError):
        Card.of(0, Suit.CLUBS)
    assert Card.of(13, 3).is_king
