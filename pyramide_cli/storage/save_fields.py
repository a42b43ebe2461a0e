"""The kinds of value a save's fields hold: how each is read (strictly) and written, and the words
of its error.

A kind reads a field's YAML value into the value :class:`~.save_format.SaveData` holds, or raises
the :class:`~.strict_yaml.SaveFileError` that names the field; :meth:`write` gives the YAML value
back.  The wording of each error is a template of the kind (``{source}: {key}: …``), or of the
field when it names one, filled in with :func:`filled` so that it stays one translatable message.
:data:`~.save_format.FIELDS` puts the kinds together into the format.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..engine.deal import Deal
from ..engine.errors import MoveSyntaxError, RulesError, quoted
from ..engine.moves import Move
from ..engine.rules import Rules
from ..engine.text import Text, message_of, text
from .strict_yaml import SaveFileError

Read = Mapping[str, Any]
"""The values of the fields read before this one, by key (the rules line is checked against the deal)."""


def filled(template: Text, **params: Any) -> Text:
    """The message ``template`` (a :func:`~pyramide_cli.engine.text.text` without values) with ``params``."""
    return Text(template.template, params)


def refused(template: Text, key: str, **params: Any) -> SaveFileError:
    """The error for a bad value of ``key``: ``template`` filled in with ``key`` and ``params``."""
    return SaveFileError(filled(template, key=key, **params), key)


def kind_of(value: object) -> str:
    """What a YAML value is, for a message: ``a list``, ``text``, ``a number``, ``nothing`` (else its type)."""
    kind = type(value)
    if kind is list:
        return text("a list")
    if kind is str:
        return text("text")
    if kind in (int, float):
        return text("a number")
    if value is None:
        return text("nothing")
    return kind.__name__


class Kind:
    """A kind of field value: :meth:`read` checks and converts, :meth:`write` gives the YAML value."""

    def read(self, value: object, key: str, source: str, read: Read) -> Any:
        raise NotImplementedError

    def write(self, value: Any) -> object:
        return value


@dataclass(frozen=True)
class FormatVersion(Kind):
    """The format version: a whole number (which ones are known is the migrations' business)."""

    wrong: Text = text("{source}: {key}: the format version must be a whole number, not {value}")

    def read(self, value: object, key: str, source: str, read: Read) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise refused(self.wrong, key, source=source, value=quoted(value))
        return value


@dataclass(frozen=True)
class WholeNumber(Kind):
    """A whole number 0 or more, at most ``most`` when a limit is given (``too_large`` says so)."""

    most: int | None = None
    too_large: Text | None = None
    wrong: Text = text("{source}: {key}: expected a whole number 0 or more, found {value}")

    def read(self, value: object, key: str, source: str, read: Read) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise refused(self.wrong, key, source=source, value=quoted(value))
        if self.most is not None and self.too_large is not None and value > self.most:
            raise refused(self.too_large, key, source=source, value=quoted(value), most=self.most)
        return value


@dataclass(frozen=True)
class Seconds(Kind):
    """A finite number of seconds, 0 or more, held as a float (and written as one)."""

    wrong: Text

    def read(self, value: object, key: str, source: str, read: Read) -> float:
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value < 0):
            raise refused(self.wrong, key, source=source, value=quoted(value))
        return float(value)

    def write(self, value: Any) -> object:
        return float(value)  # as read, or a rounded sum (SaveData.from_game): never rounded again


@dataclass(frozen=True)
class Flag(Kind):
    """``true`` or ``false``."""

    wrong: Text

    def read(self, value: object, key: str, source: str, read: Read) -> bool:
        if not isinstance(value, bool):
            raise refused(self.wrong, key, source=source, value=quoted(value))
        return value


@dataclass(frozen=True)
class OneOf(Kind):
    """A member of ``enum`` by its value, exactly (no case folding, no numbers); ``null`` is what a
    null means when the message should offer it."""

    enum: type[Enum]
    null: Text | None = None
    wrong: Text = text("{source}: {key}: expected one of {expected}, found {value}")
    wrong_or_null: Text = text("{source}: {key}: expected {null} or one of {expected}, found {value}")

    def read(self, value: object, key: str, source: str, read: Read) -> Enum:
        for member in self.enum:
            if isinstance(value, str) and member.value == value:
                return member
        expected = ", ".join(member.value for member in self.enum)
        if self.null is not None:
            raise refused(self.wrong_or_null, key, source=source, null=self.null, expected=expected,
                          value=quoted(value))
        raise refused(self.wrong, key, source=source, expected=expected, value=quoted(value))

    def write(self, value: Any) -> object:
        return value.value


@dataclass(frozen=True)
class Parsed(Kind):
    """Text that ``parse`` reads (a deal code, a card name); ``expected`` says what it should be."""

    parse: Callable[[str], Any]
    errors: type[Exception]
    expected: Text
    wrong: Text = text("{source}: {key}: expected {expected}, found {value}")
    unreadable: Text = text("{source}: {key}: {reason}")

    def read(self, value: object, key: str, source: str, read: Read) -> Any:
        if not isinstance(value, str):
            raise refused(self.wrong, key, source=source, expected=self.expected, value=quoted(value))
        try:
            return self.parse(value)
        except self.errors as error:
            raise refused(self.unreadable, key, source=source, reason=message_of(error)) from None

    def write(self, value: Any) -> object:
        return str(value)


@dataclass(frozen=True)
class RulesOfDeal(Kind):
    """The rules in their human form, which must be the rules of the ``deal`` read before them."""

    rules: Parsed = Parsed(Rules.parse, RulesError, text("rules such as N or T+strict"))
    disagrees: Text = text(
        "{source}: rules: the file says {rules} but deal {code} is played under "
        "{code_rules!r} (the code decides; fix or remove the rules line)")

    def read(self, value: object, key: str, source: str, read: Read) -> str:
        deal: Deal = read["deal"]
        if self.rules.read(value, key, source, read) != deal.rules:
            raise refused(self.disagrees, key, source=source, rules=quoted(value), code=deal.code,
                          code_rules=deal.rules.name)
        return deal.rules.name


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Date(Kind):
    """A calendar date, ``YYYY-MM-DD`` (a YAML string: unquoted, YAML would read a date)."""

    wrong: Text

    def read(self, value: object, key: str, source: str, read: Read) -> str:
        if isinstance(value, str) and _DATE.fullmatch(value):
            try:
                return datetime.date.fromisoformat(value).isoformat()
            except ValueError:
                pass
        raise refused(self.wrong, key, source=source, value=quoted(value))


@dataclass(frozen=True)
class MoveList(Kind):
    """A list of moves in the canonical notation (a null list is empty), held as a tuple."""

    wrong: Text = text("{source}: history: expected a list of moves such as [KD, 10C+3S, draw], found {kind}")
    not_a_move: Text = text("{source}: history: action {number} is {entry}, not a move")
    unreadable: Text = text("{source}: history: action {number}: {reason}")

    def read(self, value: object, key: str, source: str, read: Read) -> tuple[Move, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise refused(self.wrong, key, source=source, kind=kind_of(value))
        moves = []
        for number, entry in enumerate(value, start=1):
            if not isinstance(entry, str):
                raise refused(self.not_a_move, key, source=source, number=number, entry=quoted(entry))
            try:
                moves.append(Move.parse(entry))
            except MoveSyntaxError as error:
                raise refused(self.unreadable, key, source=source, number=number,
                              reason=message_of(error)) from None
        return tuple(moves)
