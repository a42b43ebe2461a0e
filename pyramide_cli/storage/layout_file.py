"""Layout files: a custom deal (R24) written as a person reads a table, for ``deal --from-layout``.

::

    pyramide-layout: 1
    rules: N                 # optional (default N); any --rules form
    rows:                    # the pyramid, apex first: 7 rows of 1 … 7 cards
      - [JD]
      - [6C, 7H]
      - ...
    waste: 7D                # the face-up waste card: required under N, absent under T, E, O
    stock: [2C, ...]         # optional, top (drawn first) first; omitted: the cards not named
                             # anywhere, in deck order (clubs A-K, diamonds, hearts, spades)

Card names are read like everywhere else (``10C``, ``10♣``, ``Tc``, French ``RD``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.deal import Deal
from ..engine.errors import DealCodeError, RulesError, quoted, quoted_name
from .files import FileContentError, read_text
from ..engine.rules import Rules
from ..engine.text import message_of, text
from .save_format import LAYOUT_KEY
from .strict_yaml import SaveFileError, load_yaml

LAYOUT_VERSION = 1
_KEYS = (LAYOUT_KEY, "rules", "rows", "waste", "stock")


class LayoutFileError(DealCodeError):
    """A layout file that does not describe a deal."""


def parse_layout(content: str, source: str | None = None, rules: Rules | None = None) -> Deal:
    """The custom deal a layout file describes; ``rules`` (from ``--rules``) overrides the file's."""
    source = text("layout file") if source is None else source
    try:
        document = load_yaml(content, source)
    except SaveFileError as error:
        raise LayoutFileError(message_of(error)) from None
    if not isinstance(document, dict) or LAYOUT_KEY not in document:
        raise LayoutFileError(text("{source}: not a pyramide layout file (no {key!r} version line)", source=source,
                                   key=LAYOUT_KEY))
    version = document[LAYOUT_KEY]
    if version != LAYOUT_VERSION or isinstance(version, bool):
        raise LayoutFileError(text("{source}: layout format {version} is not supported (this pyramide reads {known})",
                                   source=source, version=quoted(version), known=LAYOUT_VERSION))
    unknown = [str(key) for key in document if key not in _KEYS]
    if unknown:
        raise LayoutFileError(text("{source}: unknown key {key} (a layout has {known})", source=source,
                                   key=quoted(unknown[0]), known=", ".join(_KEYS)))
    if rules is None:
        rules_text = document.get("rules", "N")
        try:
            rules = Rules.parse(str(rules_text))
        except RulesError as error:
            raise LayoutFileError(text("{source}: rules: {reason}", source=source, reason=message_of(error))) from None
    rows = document.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise LayoutFileError(text("{source}: rows: expected 7 lists of cards, apex first ([JD], [6C, 7H], …)",
                                   source=source))
    stock = document.get("stock")
    if stock is not None and not isinstance(stock, list):
        raise LayoutFileError(text("{source}: stock: expected a list of cards, top first", source=source))
    try:
        return Deal.from_layout(
            [[_name(card) for card in row] for row in rows],
            stock=None if stock is None else [_name(card) for card in stock],
            waste=None if document.get("waste") is None else _name(document["waste"]),
            rules=rules,
        )
    except DealCodeError as error:
        raise LayoutFileError(text("{source}: {reason}", source=source, reason=message_of(error))) from None


def _name(card: Any) -> str:
    """YAML may read a bare ``10`` as a number: give the parser the text so its error quotes it."""
    return card if isinstance(card, str) else str(card)


def read_layout(path: Path | str, rules: Rules | None = None) -> Deal:
    """The custom deal of the layout file at ``path`` (a file too large or not UTF-8 is a bad layout, exit 4)."""
    source = text("bad layout file {name}", name=quoted_name(path))
    try:
        content = read_text(path)
    except FileContentError as error:
        raise LayoutFileError(text("{source}: {problem}", source=source, problem=error.problem)) from None
    return parse_layout(content, source, rules)

