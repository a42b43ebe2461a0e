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
