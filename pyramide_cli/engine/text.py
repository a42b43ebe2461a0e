"""Human text that can be translated later: English now, its template and values kept for the CLI.

The engine is pure and speaks English: every message a person may read is built with :func:`text`
(or :func:`plural`), which returns a :class:`Text` — a ``str`` holding the English sentence, that
also remembers the template it came from and the values put into it.  Code that only needs the
English (tests, ``str(error)``, Python callers) uses it as the plain string it is; the command
line hands it to :mod:`pyramide_cli.i18n`, which looks the template up in the catalog of the
chosen language and fills in the same values (translating values that are themselves ``Text``).

Templates use ``str.format`` fields with names (``{card}``, ``{text!r}``), never positions, so a
translation may reorder them.  The template must be a literal string at the call (the catalogs
are extracted from the source).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Text(str):
    """English text with the template (``msgid``) and the values it was made from."""

    template: str
    params: dict[str, Any]
    plural: str | None
    plural_count: int | None
    """The number that chose between ``template`` and ``plural`` (named so as not to hide ``str.count``)."""

    def __new__(cls, template: str, params: dict[str, Any], plural: str | None = None,
                count: int | None = None) -> Text:
        chosen = plural if plural is not None and count != 1 else template
        value = super().__new__(cls, chosen.format(**params) if params else chosen)
        value.template = template
        value.params = params
        value.plural = plural
        value.plural_count = count
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.template, self.params, self.plural, self.plural_count))


def text(template: str, **params: Any) -> Text:
    """A translatable sentence: ``text("unknown card {name!r}", name=word)``."""
    return Text(template, params)


def plural(singular: str, many: str, count: int, **params: Any) -> Text:
    """A sentence with a singular and a plural form chosen by ``count`` (also passed as ``{count}``)."""
    return Text(singular, {"count": count, **params}, many, count)


def message_of(error: BaseException) -> str:
    """The message ``error`` was raised with, still translatable: the :class:`Text` it was given
    (``str(error)`` would give only its English), else ``str(error)``.  For wrapping one error's
    message in another's: ``text("bad layout: {reason}", reason=message_of(error))``."""
    first = error.args[0] if error.args else None
    return first if isinstance(first, str) and str(first) == str(error) else str(error)


class Joined(Text):
    """Several messages shown as one (``rules (T here, N there), --optimal (on here, off there)``),
    each translated on its own: a list a sentence names, without gluing translated fragments by hand."""

    def __new__(cls, parts: tuple[str, ...], separator: str = ", ") -> Joined:
        value = str.__new__(cls, separator.join(parts))
        value.template = ""
        value.params = {"parts": tuple(parts), "separator": separator}
        value.plural = None
        value.plural_count = None
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (self.params["parts"], self.params["separator"]))


def joined(parts: Iterable[str], separator: str = ", ") -> Text:
    """``parts`` (messages or plain text) joined by ``separator``, each part translated on its own."""
    return Joined(tuple(parts), separator)
