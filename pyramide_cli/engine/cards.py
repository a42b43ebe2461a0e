"""Cards, ranks and suits; reading and writing card names.

A :class:`Card` *is* a small ``int`` (0–51: ``suit * 13 + rank - 1``), so the engine and the
solver can keep cards in tuples and bit masks at full speed while callers still get
``card.rank``, ``card.suit`` and ``str(card) == '10C'``.  Only 52 instances ever exist.

Names accepted on input (case-insensitive): rank ``A`` (or ``1``), ``2``–``10`` (or ``T``),
``J Q K``, or the French ``V`` (valet), ``D`` (dame) and ``R`` (roi) for jack, queen and king;
suit ``C D H S`` or a symbol ``♣ ♦ ♥ ♠`` (``♧ ♢ ♡ ♤`` too).  ``DD`` is therefore the queen (dame)
of diamonds, ``10D`` the ten of diamonds.
"""

from __future__ import annotations

from enum import IntEnum

from .errors import CardError
from .text import text

KING = 13
PAIR_SUM = 13


class Suit(IntEnum):
    """The four suits, in the order used by the deck before shuffling (see ``docs/deal-codes.md``)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


RANK_LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}
FRENCH_RANK_LETTERS = {1: "A", 11: "V", 12: "D", 13: "R"}

_RANK_INPUT = {"A": 1, "1": 1, "J": 11, "Q": 12, "K": 13, "T": 10, "V": 11, "D": 12, "R": 13}
_RANK_INPUT.update({str(value): value for value in range(2, 11)})
_SUIT_INPUT = {
    "C": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "D": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "H": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "S": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}


def rank_label(rank: int, french: bool = False) -> str:
    """``'A'``, ``'2'`` … ``'10'``, ``'J'``/``'V'``, ``'Q'``/``'D'``, ``'K'``/``'R'``."""
    letters = FRENCH_RANK_LETTERS if french else RANK_LETTERS
    return letters.get(rank, str(rank))


class Card(int):
    """One of the 52 cards; an ``int`` from 0 to 51.  Construct with ``Card(i)`` or :func:`parse_card`."""

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if CARDS_READY:
            try:
                return CARDS[index]
            except (IndexError, TypeError):
                raise CardError(text("no card with index {index!r}: indices run from 0 to 51", index=index)) from None
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: Suit | int) -> Card:
        """The card of this rank (1–13) and suit."""
        if not 1 <= rank <= 13:
            raise CardError(text("no rank {rank!r}: ranks run from 1 (ace) to 13 (king)", rank=rank))
        return CARDS[int(suit) * 13 + rank - 1]

    @property
    def rank(self) -> int:
        """1 (ace) … 13 (king); also the card's value (R1)."""
        return int(self) % 13 + 1

    value = rank

    @property
    def suit(self) -> Suit:
        return Suit(int(self) // 13)

    @property
    def is_king(self) -> bool:
        return self.rank == KING

    def name(self, symbols: bool = False, french: bool = False) -> str:
        """``'10C'`` (the canonical ASCII name), ``'10♣'`` with symbols, ``'RD'`` in French letters."""
        suit = self.suit
        return rank_label(self.rank, french) + (suit.symbol if symbols else suit.letter)

    def __str__(self) -> str:
        return _ASCII_NAMES[self]

    def __repr__(self) -> str:
        return f"Card({self.name()!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


CARDS_READY = False
CARDS: tuple[Card, ...] = tuple(Card(index) for index in range(52))
"""The 52 cards in deck order: clubs A–K, diamonds A–K, hearts A–K, spades A–K."""
CARDS_READY = True
_ASCII_NAMES: tuple[str, ...] = tuple(card.name() for card in CARDS)
"""``str(card)``: the canonical names, worked out once (moves, saves and JSON print them all the time)."""


def parse_card(name: str) -> Card:
    """Read a card name such as ``10C``, ``10♣``, ``Tc``, ``KD``, ``K♦`` or French ``RD``.

    Raises :class:`CardError` quoting the input when it is not a card.
    """
    if not isinstance(name, str):
        raise CardError(text("not a card name: {name!r}", name=name))
    upper = name.strip().upper()
    if len(upper) < 2:
        raise CardError(text("unknown card {name!r}: expected a rank (A, 2-10, J, Q, K) and a suit (C, D, H, S)",
                             name=name))
    rank_text, suit_text = upper[:-1], upper[-1]
    suit = _SUIT_INPUT.get(suit_text)
    if suit is None:
        raise CardError(text("unknown card {name!r}: {suit!r} is not a suit (C, D, H, S or ♣ ♦ ♥ ♠)",
                             name=name, suit=suit_text))
    rank = _RANK_INPUT.get(rank_text)
    if rank is None:
        raise CardError(text("unknown card {name!r}: {rank!r} is not a rank (A, 2-10, J, Q, K)",
                             name=name, rank=rank_text))
    return CARDS[suit * 13 + rank - 1]


def looks_like_card(text: str) -> bool:
    """True for a word of at most three characters whose rank or suit part reads (``7X``, ``ZC``, ``11D``).

    Such a word is a card name with a typo, worth explaining; a longer word (``clear``) is not a
    card at all, and "'R' is not a suit" would only puzzle its writer.
    """
    name = text.strip().upper()
    if not 2 <= len(name) <= 3:
        return False
    return name[:-1] in _RANK_INPUT or name[-1] in _SUIT_INPUT


def pairs_to_thirteen(first: int, second: int) -> bool:
    """True when two cards' values add to 13 (R6)."""
    return first % 13 + second % 13 + 2 == PAIR_SUM
