"""What the player types on the board besides its one-letter keys: card names, words and moves.

A card's name taps its card as soon as it is complete (``10h``, ``KS``, ``RD``).  Anything else
typed is a line, played with Enter: a word of the board in the player's language (``talon``,
``indice``, ``tips``, :func:`~pyramide_cli.i18n.words.canonical_line`), an English word (``draw``),
a new deal of a level (``new hard``, ``nouvelle difficile``) or a move (``10C+3S``).  A line
starts on a key that is not one of the board's one-letter commands (:data:`COMMAND_KEYS`), or on
``:``, after which every key is typed (``:draw``, ``:kd``), so a word is never read as a row of
commands.  Nothing here imports Textual.
"""

from __future__ import annotations

from ..engine.cards import Card, parse_card
from ..engine.errors import CardError
from ..engine.level import Level
from ..i18n.words import canonical_line

WORD_KEY = ":"
"""Starts a line whatever key comes next (a word that starts with a command key: ``:draw``)."""
COMMAND_KEYS = frozenset("duHwsnrXqhjkl?")
"""The one-letter keys of the board while playing: they act at once, so they cannot start a name."""
SUIT_KEYS = frozenset("cdhsCDHS♣♦♥♠")
BOARD_WORDS = {"hint": "H", "help": "?", "?": "?", "quit": "q", "exit": "q", "new": "n", "restart": "r",
               "resign": "X"}
"""Typed words the board does itself, as the key that does it (a resignation is asked first, as ``X``)."""
SHOW_WORDS = frozenset(("show", "board"))
"""Words that only ask for the board: it is on the screen already."""


def starts_line(character: str | None) -> bool:
    """Whether ``character``, typed while playing, starts a name or a word (and is no command)."""
    if not character or len(character) != 1:
        return False
    return character == WORD_KEY or (character.isalnum() and character not in COMMAND_KEYS)


def completed_card(typed: str, character: str) -> Card | None:
    """The card whose name ``typed`` + ``character`` completes (``10`` + ``h``), else ``None``.

    Only a name typed without ``:`` taps at once; a suit letter that does not complete a card is typed."""
    if typed.startswith(WORD_KEY) or character not in SUIT_KEYS or not 1 <= len(typed) <= 2:
        return None
    try:
        return parse_card(typed + character)
    except CardError:
        return None


def typed_word(typed: str) -> str:
    """The line as the session plays it: without its ``:``, the player's words made English (``talon`` →
    ``stock``, ``nouvelle difficile`` → ``new hard``)."""
    return canonical_line(typed.removeprefix(WORD_KEY))


def new_level(word: str) -> tuple[bool, Level | None, str]:
    """Whether ``word`` (as :func:`typed_word` gives it) asks for a new deal of a level, as ``new hard``
    does in the line mode: ``(asks, level, what was typed for the level)``; ``level`` is ``None`` for a
    level that is not one."""
    first, _, rest = word.partition(" ")
    if first.lower() != "new" or not rest.strip():
        return False, None, ""
    typed = rest.strip()
    try:
        return True, Level(typed.lower()), typed
    except ValueError:
        return True, None, typed
