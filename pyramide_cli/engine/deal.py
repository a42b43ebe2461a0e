"""Deals and deal codes (R21–R24): the frozen ``PY1`` shuffle and custom layouts.

A :class:`Deal` is the rules plus the 52 cards in dealing order (R23): pyramid row 1 to row 7,
left to right (28 cards), then — under rules with an initial waste card — the waste card, then
the stock from the top (drawn first) to the bottom.  The 24 cards after the pyramid are the
*talon*; talon index ``t`` is card ``28 + t`` of the dealing order.

Codes:

* ``PY1-<rules>-<7 base32 chars>``: deal number 0 … 32**7 − 1, shuffled by :func:`shuffled_deck`;
* ``PY1-<rules>-<46 base32 chars>``: a custom deal, the dealing order's rank among all 52!
  orders (its Lehmer code), so any layout has a code that reproduces it.

Everything here is specified step by step in ``docs/deal-codes.md`` and frozen for ``PY1``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import factorial

from .cards import CARDS, Card, parse_card
from .errors import CardError, DealCodeError, RulesError, quoted
from .layout import PYRAMID_SIZE, ROWS
from .rules import Rules, ascii_upper
from .text import message_of, text

CODE_VERSION = "PY1"
BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
NUMBER_LENGTH = 7
CUSTOM_LENGTH = 46
MAX_DEAL_NUMBER = 32**NUMBER_LENGTH - 1
_PERMUTATIONS = factorial(52)
_MASK64 = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    """The generator of the ``PY1`` shuffle: SplitMix64 (Steele, Lea & Flood 2014), unsigned 64-bit."""
    state = seed & _MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK64
        mixed = state
        mixed = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK64
        yield mixed ^ (mixed >> 31)


def shuffled_deck(deal_number: int) -> tuple[Card, ...]:
    """The 52 cards of deal ``deal_number`` in dealing order (frozen forever for ``PY1``).

    Start from the deck in order (clubs A–K, diamonds, hearts, spades: card index ``suit*13 +
    rank-1``); for ``i`` from 51 down to 1 draw ``x`` from SplitMix64 seeded with the deal number
    and swap positions ``i`` and ``x mod (i + 1)``.
    """
    if not 0 <= deal_number <= MAX_DEAL_NUMBER:
        raise DealCodeError(text("deal number {number} out of range 0-{most}", number=deal_number,
                                 most=MAX_DEAL_NUMBER))
    deck = list(range(52))
    numbers = splitmix64(deal_number)
    for i in range(51, 0, -1):
        j = next(numbers) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(CARDS[index] for index in deck)


def encode_base32(value: int, length: int) -> str:
    """``value`` as exactly ``length`` RFC 4648 base32 digits, most significant first."""
    digits = []
    for _ in range(length):
        digits.append(BASE32_ALPHABET[value & 31])
        value >>= 5
    if value:
        raise DealCodeError(text("value too large for {length} base32 characters", length=length))
    return "".join(reversed(digits))


def decode_base32(digits: str) -> int:
    value = 0
    for position, char in enumerate(digits):
        digit = BASE32_ALPHABET.find(char)
        if digit < 0:
            raise DealCodeError(text("bad character {char!r} at position {position} of {code}: base32 uses A-Z and 2-7",
                                     char=char, position=position + 1, code=quoted(digits)))
        value = value * 32 + digit
    return value


def lehmer_rank(order: Sequence[int]) -> int:
    """The rank (0 … 52!−1) of a dealing order among all orders, by its Lehmer code."""
    remaining = list(range(52))
    rank = 0
    for position, card in enumerate(order):
        index = remaining.index(card)
        rank += index * factorial(51 - position)
        remaining.pop(index)
    return rank


def lehmer_unrank(rank: int) -> tuple[Card, ...]:
    """The dealing order of a given rank (inverse of :func:`lehmer_rank`)."""
    remaining = list(range(52))
    order = []
    for position in range(52):
        index, rank = divmod(rank, factorial(51 - position))
        order.append(CARDS[remaining.pop(index)])
    return tuple(order)


@dataclass(frozen=True, slots=True)
class Deal:
    """The rules and the 52 cards in dealing order; ``number`` is ``None`` for a custom deal."""

    rules: Rules
    cards: tuple[Card, ...]
    number: int | None = None
    layout_index: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.cards) != 52 or len(set(self.cards)) != 52:
            raise DealCodeError(text("a deal needs each of the 52 cards exactly once"))
        index = [0] * 52
        for position, card in enumerate(self.cards):
            index[card] = position
        object.__setattr__(self, "layout_index", tuple(index))

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_number(cls, number: int, rules: Rules | None = None) -> Deal:
        return cls(rules or Rules(), shuffled_deck(number), number)

    @classmethod
    def from_code(cls, code: str) -> Deal:
        """Read ``PY1-N-AAAAAAS`` (case-insensitive); errors say what is wrong with the code."""
        if not isinstance(code, str):
            raise DealCodeError(text("not a deal code: {code}", code=quoted(code)))
        parts = ascii_upper(code.strip()).split("-")
        if len(parts) != 3:
            raise DealCodeError(text(
                "bad deal code {code}: expected three parts like PY1-N-AAAAAAS (version, rules, deal)",
                code=quoted(code)))
        version, segment, body = parts
        if version != CODE_VERSION:
            raise DealCodeError(text("bad deal code {code}: unknown format version {version} (this program reads PY1)",
                                     code=quoted(code), version=quoted(version)))
        try:
            rules = Rules.from_code_segment(segment)
        except RulesError as error:
            raise DealCodeError(text("bad deal code {code}: {reason}", code=quoted(code),
                                     reason=message_of(error))) from None
        if len(body) not in (NUMBER_LENGTH, CUSTOM_LENGTH):
            raise DealCodeError(text(
                "bad deal code {code}: the deal part has {length} characters; "
                "expected {number_length} (numbered deal) or {custom_length} (custom deal)",
                code=quoted(code), length=len(body), number_length=NUMBER_LENGTH, custom_length=CUSTOM_LENGTH))
        try:
            value = decode_base32(body)
        except DealCodeError as error:
            raise DealCodeError(text("bad deal code {code}: {reason}", code=quoted(code),
                                     reason=message_of(error))) from None
        if len(body) == NUMBER_LENGTH:
            return cls.from_number(value, rules)
        if value >= _PERMUTATIONS:
            raise DealCodeError(text("bad deal code {code}: the custom deal part is out of range", code=quoted(code)))
        return cls(rules, lehmer_unrank(value))

    @classmethod
    def custom(cls, cards: Iterable[Card | str], rules: Rules | None = None) -> Deal:
        """A custom deal (R24) from the 52 cards in dealing order (names or :class:`Card`)."""
        order = tuple(card if isinstance(card, Card) else parse_card(card) for card in cards)
        _check_complete(order)
        return cls(rules or Rules(), order)

    @classmethod
    def from_layout(
        cls,
        pyramid_rows: Sequence[Sequence[Card | str]],
        stock: Sequence[Card | str] | None = None,
        waste: Card | str | None = None,
        rules: Rules | None = None,
    ) -> Deal:
        """A custom deal from its rows (apex first), the initial waste card and the stock (top first).

        ``stock=None`` puts the cards not named anywhere into the stock in deck order.
        """
        rules = rules or Rules()
        if len(pyramid_rows) != ROWS or any(len(row) != index + 1 for index, row in enumerate(pyramid_rows)):
            raise DealCodeError(text("a pyramid needs 7 rows of 1, 2, … 7 cards"))
        pyramid = [_as_card(card) for row in pyramid_rows for card in row]
        if rules.initial_waste and waste is None:
            raise DealCodeError(text("rules {rules} deal a waste card: the layout must name it", rules=rules.name))
        if not rules.initial_waste and waste is not None:
            raise DealCodeError(text("rules {rules} deal no waste card: put it in the stock", rules=rules.name))
        head = pyramid + ([_as_card(waste)] if waste is not None else [])
        if stock is None:
            named = set(head)
            tail = [card for card in CARDS if card not in named]
        else:
            tail = [_as_card(card) for card in stock]
        order = tuple(head + tail)
        _check_complete(order)
        return cls(rules, order)

    # -- reading ------------------------------------------------------------------------------
    @property
    def is_custom(self) -> bool:
        return self.number is None

    @property
    def code(self) -> str:
        """The code that reproduces this deal and its rules exactly (R21)."""
        if self.number is not None:
            body = encode_base32(self.number, NUMBER_LENGTH)
        else:
            body = encode_base32(lehmer_rank(self.cards), CUSTOM_LENGTH)
        return f"{CODE_VERSION}-{self.rules.code_segment}-{body}"

    @property
    def pyramid(self) -> tuple[Card, ...]:
        return self.cards[:PYRAMID_SIZE]

    @property
    def talon(self) -> tuple[Card, ...]:
        """The 24 cards after the pyramid: waste card first (if any), then the stock from the top."""
        return self.cards[PYRAMID_SIZE:]

    def with_rules(self, rules: Rules) -> Deal:
        """The same cards under other rules (R23: same deal number, same pyramid)."""
        return Deal(rules, self.cards, self.number)

    def __str__(self) -> str:
        return self.code


def _as_card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    try:
        return parse_card(card)
    except CardError as error:
        raise DealCodeError(text("bad layout: {reason}", reason=message_of(error))) from None


def _check_complete(order: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for card in order:
        if card in seen:
            raise DealCodeError(text("bad layout: card {card} appears twice", card=card))
        seen.add(card)
    if len(order) != 52:
        missing = [str(card) for card in CARDS if card not in seen]
        if missing:
            raise DealCodeError(text("bad layout: {count} cards instead of 52; missing {cards}",
                                     count=len(order), cards=" ".join(missing)))
        raise DealCodeError(text("bad layout: {count} cards instead of 52", count=len(order)))


_CODE_SHAPE = re.compile(r"^PY\d", re.IGNORECASE)


def looks_like_code(text: str) -> bool:
    """True when ``text`` is meant as a deal code rather than a file name (``PY1-…``)."""
    return bool(_CODE_SHAPE.match(text.strip())) and "." not in text and "/" not in text
