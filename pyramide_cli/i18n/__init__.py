"""The languages people read Pyramide in: English, French, Hebrew, Swedish (issue 15).

Only human text changes with the language; ``--json`` output, save files, deal codes and the move
notation stay the same in every language (ASCII card names, English keys and values).

* The language: ``--lang``, else the first usable one of ``LANGUAGE`` (a ``:`` list), ``LC_ALL``,
  ``LC_MESSAGES``, ``LANG`` (``fr_FR.UTF-8`` → ``fr``), else English.  ``C`` and ``POSIX`` mean
  English.  An unknown ``--lang`` is a usage error; an unknown language in the environment is
  passed over, as gettext does.
* The messages: code builds human text with :func:`pyramide_cli.engine.text.text`; :func:`tr`
  looks its template up in the language's catalog (compiled ``.mo`` shipped in the package, built
  from the ``.po`` sources in ``pyramide_cli/i18n/po/``) and fills in the values.  A template
  missing from a catalog falls back to English (the test suite makes sure none is missing).
* Card letters: under ``fr``, ``he`` and ``sv`` the board uses the letters of the source documents'
  app, R (roi), D (dame), V (valet); English letters otherwise (``--french`` still forces them).
* Hebrew is written right to left.  Lines go out in logical order and the terminal's own
  bidirectional support shows them (GNOME Terminal/VTE, Konsole, iTerm2, mlterm do).  For a terminal
  without it, ``PYRAMIDE_BIDI=visual`` reorders each message line for display (see :mod:`.bidi`).
  The board keeps its shape in every language: only its labels are translated.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import Any

from ..engine.text import Joined, Text

LANGUAGES: dict[str, str] = {"en": "English", "fr": "français", "he": "עברית", "sv": "svenska"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "pyramide"
FRENCH_LETTER_LANGUAGES = frozenset({"fr", "he", "sv"})
RIGHT_TO_LEFT = frozenset({"he"})
ENVIRONMENT_KEYS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class LanguageError(ValueError):
    """A ``--lang`` value that is not one of :data:`LANGUAGES`."""


def normalise(name: str) -> str | None:
    """``fr_FR.UTF-8`` → ``fr``, ``he`` → ``he``, ``C`` → ``en``; ``None`` for a language we lack."""
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return DEFAULT_LANGUAGE
    if base == "iw":  # the old code of Hebrew, still seen in some locales
        base = "he"
    return base if base in LANGUAGES else None


def choose_language(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to use: ``--lang``, else the environment (gettext's order), else English."""
    if option is not None:
        chosen = normalise(option) if option.strip() else None
        if chosen is None:
            known = ", ".join(LANGUAGES)
            raise LanguageError(f"unknown language {option[:40]!r}: choose one of {known}")
        return chosen
    environ = os.environ if environ is None else environ
    for key in ENVIRONMENT_KEYS:
        value = environ.get(key, "")
        if not value:
            continue
        for part in value.split(":") if key == "LANGUAGE" else (value,):
            chosen = normalise(part) if part else None
            if chosen is not None:
                return chosen
        if key != "LANGUAGE":
            return DEFAULT_LANGUAGE  # the first locale variable set decides, as in gettext
    return DEFAULT_LANGUAGE


@cache
def translations_for(language: str) -> Any:
    """The compiled catalog of ``language`` (``gettext.NullTranslations`` for English)."""
    import gettext

    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    from importlib import resources

    path = resources.files(__name__) / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


_current = DEFAULT_LANGUAGE


def set_language(language: str) -> None:
    """Make ``language`` (one of :data:`LANGUAGES`) the language of everything :func:`tr` returns."""
    global _current
    if language not in LANGUAGES:
        raise LanguageError(f"unknown language {language!r}")
    _current = language


def current_language() -> str:
    return _current


def tr(value: Any, language: str | None = None) -> str:
    """``value`` in the current language: a :class:`Text` is translated (and the ``Text`` values
    inside it); anything else is returned as ``str(value)``."""
    language = language or _current
    if not isinstance(value, Text):
        return str(value)
    if language == DEFAULT_LANGUAGE:
        return str(value)
    if isinstance(value, Joined):
        return value.params["separator"].join(tr(part, language) for part in value.params["parts"])
    translations = translations_for(language)
    params = {key: tr(item, language) if isinstance(item, Text) else item for key, item in value.params.items()}
    if value.plural is not None:
        template = translations.ngettext(value.template, value.plural, value.plural_count)
    else:
        template = translations.gettext(value.template)
    try:
        return _formatter(language).format(template, **params)
    except (KeyError, IndexError, ValueError):  # a broken translation: English rather than nothing
        return str(value)


@cache
def _formatter(language: str) -> Any:
    """How a translated template is filled in: as ``str.format`` does, and in a right-to-left
    language with each left-to-right value kept left to right (:class:`.bidi.MarkedFormatter`).
    Made on first use: English text is never formatted here, so ``pyramide`` in English does not
    load ``string`` (a command's start-up, ``bench/bench_cli.py``)."""
    if language in RIGHT_TO_LEFT:
        from .bidi import MarkedFormatter

        return MarkedFormatter()
    import string

    return string.Formatter()


def left_to_right(line: str, language: str | None = None) -> str:
    """``line`` marked to stay left to right as a whole (a table row, the board's talon and status
    lines) when the language is written right to left: LEFT-TO-RIGHT MARKs first, which a terminal
    with bidi support and :func:`for_display` take as the line's direction (:data:`.bidi.LTR_LINE`)."""
    if not is_right_to_left(language):
        return line
    from .bidi import LTR_LINE  # only right-to-left languages load the bidi module

    return line if line.startswith(LTR_LINE) else LTR_LINE + line


def uses_french_letters(language: str | None = None) -> bool:
    """True when the language's players read R, D, V on the cards (``fr``, ``he``, ``sv``)."""
    return (language or _current) in FRENCH_LETTER_LANGUAGES


def is_right_to_left(language: str | None = None) -> bool:
    return (language or _current) in RIGHT_TO_LEFT


def for_display(text: str, language: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Lines ready for the terminal.  In a right-to-left language each line holding Hebrew gets its
    direction (a RIGHT-TO-LEFT MARK, unless a mark already says it: :func:`left_to_right` lines keep
    theirs), for the terminal to show; with ``PYRAMIDE_BIDI=visual`` the lines are reordered here
    instead, for terminals without bidi support (:mod:`.bidi`).  Other languages: unchanged."""
    if not is_right_to_left(language):
        return text
    from .bidi import paragraph, visual_order

    environ = os.environ if environ is None else environ
    visual = environ.get("PYRAMIDE_BIDI", "").strip().lower() == "visual"
    lines = [paragraph(line) for line in text.split("\n")]
    return "\n".join(visual_order(line) if visual else line for line in lines)
