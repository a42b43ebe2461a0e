"""The words a player types, in the player's language: the board's own words are commands.

The board, the hints and the help name the stock, the waste and the commands in the reader's
language (``talon``, ``défausse``, ``indice`` …); a player who types those words back means the
notation's English word.  :func:`canonical_word` maps a typed word to that word (``talon`` →
``stock`` under French); English words are understood in every language, and so are card names,
which never collide with these words.  Files, JSON and moves as arguments keep the English notation:
what is saved is the canonical word.

Each language lists its words below, with the spellings a keyboard without accents gives.
"""

from __future__ import annotations

from . import current_language

COMMAND_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "talon": "stock", "pioche": "stock", "défausse": "waste", "defausse": "waste",
        "piocher": "draw", "retourner": "recycle", "annuler": "undo", "abandonner": "resign",
        "indice": "hint", "aide": "help", "montrer": "show", "quitter": "quit",
        "nouvelle": "new", "recommencer": "restart",
    },
    "sv": {
        "talong": "stock", "talongen": "stock", "kasthög": "waste", "kasthögen": "waste", "kasthog": "waste",
        "dra": "draw", "vänd": "recycle", "vand": "recycle", "ångra": "undo", "angra": "undo",
        "ge upp": "resign", "tips": "hint", "hjälp": "help", "hjalp": "help", "visa": "show",
        "avsluta": "quit", "ny": "new", "börja om": "restart", "borja om": "restart",
    },
    "he": {
        "קופה": "stock", "השלכה": "waste", "משוך": "draw", "מחזור": "recycle", "בטל": "undo",
        "פרישה": "resign", "רמז": "hint", "עזרה": "help", "הצג": "show", "יציאה": "quit",
        "חדש": "new", "מחדש": "restart",
    },
}
"""Per language: a typed word (lower case, single spaces) → the notation's English word."""


def canonical_word(typed: str, language: str | None = None) -> str:
    """The English word for ``typed`` in ``language`` (default: the current one), or ``typed`` itself
    (stripped) when it is not one of the language's words."""
    word = typed.strip()
    key = " ".join(word.lower().split())
    return COMMAND_WORDS.get(language or current_language(), {}).get(key, word)


def canonical_line(line: str, language: str | None = None) -> str:
    """A whole line with its leading command word made canonical (``nouvelle difficile`` → ``new hard``,
    the level too); a line that is one word (or a two-word command such as ``ge upp``) as :func:`canonical_word`."""
    whole = canonical_word(line, language)
    if whole != line.strip():
        return whole
    first, _, rest = line.strip().partition(" ")
    command = canonical_word(first, language)
    if command == first or not rest.strip():
        return whole
    return f"{command} {level_word(rest, language)}"


def level_word(typed: str, language: str | None = None) -> str:
    """The English name of a level typed in the reader's language (``difficile`` → ``hard``), or ``typed``."""
    from ..engine.level import LEVEL_WORDS

    from . import tr

    key = typed.strip().lower()
    for level, word in LEVEL_WORDS.items():
        if tr(word, language).lower() == key:
            return level.value
    return typed.strip()
