"""The project's exceptions: one base class, precise messages that quote the input.

Every error a user can cause is a :class:`PyramideError`; the command line catches exactly these
and turns each family into a documented exit status (see ``cli``).  They also subclass
``ValueError`` where the cause is a bad value, so plain Python callers can catch them naturally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # moves.py imports this module
    from .moves import Refusal


class PyramideError(Exception):
    """Base class of every error the project raises on purpose."""


class CardError(PyramideError, ValueError):
    """A card name that cannot be read (``'1Z'``)."""


class RulesError(PyramideError, ValueError):
    """A rules preset or variant that does not exist or does not make sense."""


class DealCodeError(PyramideError, ValueError):
    """A deal code or custom layout that is malformed."""


class MoveSyntaxError(PyramideError, ValueError):
    """Text that is not a move in the notation (``'10C-3S'``)."""


class UnknownWordError(MoveSyntaxError):
    """A word of input that is neither a card, a move nor a tap, and does not even look like a card
    (``'clear'``): the player needs to hear what *is* accepted, not why it is no card."""

    def __init__(self, message: str, word: str) -> None:
        super().__init__(message)
        self.word = word


class IllegalMoveError(PyramideError, ValueError):
    """A well-formed move or tap that the position refuses.

    ``refusal`` is the machine-readable reason (a :class:`pyramide_cli.engine.moves.Refusal`).
    """

    def __init__(self, message: str, refusal: Refusal) -> None:
        super().__init__(message)
        self.refusal = refusal


# -- quoting user values in messages -----------------------------------------------------------
QUOTE_LIMIT = 60
"""The most characters of one user value a message quotes (a 100,000-character deal code is cut)."""
NAME_QUOTE_LIMIT = 200
"""The same for a file name (a long path keeps its start and its end, where the name is)."""
_HUGE_INT_BITS = 256


def escaped(text: str) -> str:
    """``text`` with every character a terminal could act on written as an escape (``\\x1b``, ``\\n``).

    Escaped: what :meth:`str.isprintable` refuses — C0 and C1 controls, DEL, line and paragraph
    separators, format characters such as right-to-left overrides, and the lone surrogates that
    stand for undecodable bytes of a file name (``\\udcff`` is shown as ``\\xff``, the byte it was).
    Backslashes are left alone: this is for reading, not for parsing back.
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape_char(char) for char in text)


def _escape_char(char: str) -> str:
    code = ord(char)
    if char in "\n\r\t":
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A user value for a message, like ``repr()`` but bounded and safe on hostile values.

    Text longer than ``limit`` keeps its start and its end (``'PY1-N-AAAA…AAAA' (100,000 characters)``);
    numbers too long to print are described, not converted (Python refuses to print an int of more
    than 4,300 digits); lists and mappings are abbreviated without walking them whole.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return _quoted_text(value)
        head = limit * 2 // 3
        start, end = _quoted_text(value[:head]), _quoted_text(value[head - limit:])
        return f"{start[:-1]}…{end[1:]} ({len(value):,} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _HUGE_INT_BITS:
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxlevel, shortener.maxstring, shortener.maxother = 3, limit, limit
    shortener.maxlist = shortener.maxdict = shortener.maxtuple = shortener.maxset = 8
    try:
        text = shortener.repr(value)
    except (ValueError, RecursionError):  # an int inside a list that is too long to print
        text = f"<{type(value).__name__}>"
    return escaped(text if len(text) <= 2 * limit else text[:2 * limit] + "…")


def _quoted_text(text: str) -> str:
    """``'text'`` as ``repr()`` writes it, but undecodable bytes of a file name shown as the bytes (``\\xff``)."""
    return "'" + escaped(text.replace("\\", "\\\\").replace("'", "\\'")) + "'"


def quoted_name(path: object) -> str:
    """A file name for a message: :func:`quoted` with room for a long path (``'games/g.yaml'``)."""
    return quoted(str(path), NAME_QUOTE_LIMIT)
