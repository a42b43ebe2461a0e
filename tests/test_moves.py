"""Move notation and refusal reasons (the canonical ASCII notation of issue 2, R6, R7, R11, R13)."""

from __future__ import annotations

import pytest

from pyramide_cli.engine.cards import parse_card
from pyramide_cli.engine.errors import MoveSyntaxError
from pyramide_cli.engine.moves import DRAW, RECYCLE, UNDO, Move, MoveKind, Refusal


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("10C+3S", "10C+3S"), ("3S+10C", "10C+3S"), ("10♣ 3♠", "10C+3S"), ("tc + 3s", "10C+3S"),
        ("KD", "KD"), ("k♦", "KD"), ("RD", "KD"), ("AH+QS", "QS+AH"), ("DD+AC", "QD+AC"),
        ("draw", "draw"), ("DRAW", "draw"), (" recycle ", "recycle"), ("Undo", "undo"),
    ],
)
def test_notation_is_forgiving_on_input_and_canonical_on_output(text, canonical):
    assert str(Move.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["", "+", "7C", "10C+3S+KD", "10C-3S", "7C+7C", "ZZ+3S", "drawing", 42])
def test_unreadable_moves_are_refused_quoting_the_text(bad):
    with pytest.raises(MoveSyntaxError) as error:
        Move.parse(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(error.value)


def test_r6_pairs_are_order_free_and_written_higher_rank_first():
    ten, three = parse_card("10C"), parse_card("3S")
    assert Move.pair(ten, three) == Move.pair(three, ten)
    assert Move.pair(three, ten).cards == (ten, three)
    with pytest.raises(MoveSyntaxError):
        Move.pair(ten, ten)


def test_move_facts():
    assert Move.parse("10C+3S").adds_to_thirteen and not Move.parse("7C 7S").adds_to_thirteen
    assert Move.parse("KD").adds_to_thirteen and not Move.king(parse_card("7C")).adds_to_thirteen
    assert not DRAW.adds_to_thirteen and not DRAW.removes_cards and Move.parse("KD").removes_cards
    assert (DRAW.kind, RECYCLE.kind, UNDO.kind) == (MoveKind.DRAW, MoveKind.RECYCLE, MoveKind.UNDO)
    assert Move.parse("10C+3S").notation(symbols=True) == "10♣+3♠"
    assert Move.parse("KD").notation(french=True) == "RD"


def test_r11_r13_refusal_texts_are_the_rules_own():
    assert Refusal.BLOCKED.message == "This card is blocked by another card"
    assert Refusal.SUM_NOT_13.message == "The sum must equal 13"
    assert len({refusal.value for refusal in Refusal}) == len(Refusal)
    assert all(refusal.message for refusal in Refusal)
