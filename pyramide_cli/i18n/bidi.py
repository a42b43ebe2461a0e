"""Right-to-left lines in a terminal: marks for terminals with bidi support, reordering for the others.

Terminals with bidirectional support (GNOME Terminal and others on VTE, Konsole, iTerm2, mlterm …)
take text in logical order, the order it is read in, and show Hebrew right to left themselves;
that is what Pyramide writes by default.  Two kinds of invisible marks tell such a terminal what we
mean:

* card names, numbers and codes inside a Hebrew sentence are wrapped in LEFT-TO-RIGHT MARKs
  (U+200E, :func:`wrap_ltr`), so that ``10♣`` and ``PY1-N-AAAAAAS`` keep reading left to right;
* each line gets its direction from its first mark or strong letter (the Unicode rule a terminal
  follows): a message line that holds Hebrew starts with a RIGHT-TO-LEFT MARK (U+200F,
  :func:`paragraph`), so that it reads right to left even when it begins with a card name
  (``7S: הסכום חייב להיות שווה ל־13``); lines that must keep their shape — the board's talon and
  status lines, table rows — start with LEFT-TO-RIGHT MARKs instead (two of them, :data:`LTR_LINE`,
  because one could be the start of a marked card name; ``i18n.left_to_right``).

Other terminals print characters in the order they arrive, which turns Hebrew around.  For them
:func:`visual_order` reorders one line the way the Unicode bidirectional algorithm would show it —
a simplification that is exact for the lines Pyramide writes: runs of left-to-right text (Latin
letters, digits, card names with their suit symbols and the punctuation between them) keep their
order and runs of Hebrew read right to left; in a right-to-left line the runs themselves are laid
out from right to left, in a left-to-right line from left to right.  Brackets are mirrored where
they are shown right to left.  ``PYRAMIDE_BIDI=visual`` asks for it (``i18n.for_display``).
"""

from __future__ import annotations

import string
from typing import Any

LRM = "\u200e"
RLM = "\u200f"
LTR_LINE = LRM + LRM
"""How a line that must stay left to right starts (a marked value starts with one LRM, never two)."""
_MIRROR = str.maketrans("()[]{}<>«»", ")(][}{><»«")
_SUITS = "♣♦♥♠♧♢♡♤"


def is_rtl_char(char: str) -> bool:
    code = ord(char)
    return 0x0590 <= code <= 0x08FF or 0xFB1D <= code <= 0xFDFF or 0xFE70 <= code <= 0xFEFF


def is_ltr_char(char: str) -> bool:
    """Strong left-to-right for our purpose: letters of left-to-right scripts, digits, suit symbols."""
    if char in _SUITS or char.isdigit():
        return True
    return char.isalpha() and not is_rtl_char(char)


def wrap_ltr(value: str) -> str:
    """``value`` between LRMs when it holds no right-to-left letter (a card name, a number, a code)."""
    if not value or any(is_rtl_char(char) for char in value):
        return value
    return f"{LRM}{value}{LRM}"


class MarkedFormatter(string.Formatter):
    """Formats like ``str.format``, keeping each left-to-right value left to right inside Hebrew
    text (LEFT-TO-RIGHT MARKs around it, :func:`wrap_ltr`)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return wrap_ltr(super().format_field(value, format_spec))


def is_rtl_line(line: str) -> bool:
    """The direction of a line as a terminal decides it: its first mark or strong letter (digits and
    suit symbols are weak: a line that starts ``7S: הסכום`` is right to left)."""
    for char in line:
        if char == RLM or is_rtl_char(char):
            return True
        if char == LRM or (char.isalpha() and not is_rtl_char(char)):
            return False
    return False


def paragraph(line: str) -> str:
    """``line`` with a RIGHT-TO-LEFT MARK first when it holds Hebrew, unless it is a left-to-right
    line (:data:`LTR_LINE`) or already starts with an RLM."""
    if line.startswith((LTR_LINE, RLM)) or not any(is_rtl_char(char) for char in line):
        return line
    return RLM + line


def visual_order(line: str) -> str:
    """The line as a terminal with bidi support shows it, left to right (see the module docstring)."""
    right_to_left = is_rtl_line(line)
    text = line.replace(LRM, "").replace(RLM, "")
    if not any(is_rtl_char(char) for char in text):
        return text
    segments: list[tuple[bool, str]] = []  # (left-to-right?, text)
    index, length = 0, len(text)
    while index < length:
        if is_ltr_char(text[index]):
            end = index + 1
            last_strong = index
            while end < length and not is_rtl_char(text[end]):
                if is_ltr_char(text[end]):
                    last_strong = end
                end += 1
            segments.append((True, text[index:last_strong + 1]))
            index = last_strong + 1
        else:
            end = index + 1
            while end < length and not is_ltr_char(text[end]):
                end += 1
            segments.append((False, text[index:end]))
            index = end
    if right_to_left:
        return "".join(piece if left_to_right else _reversed(piece) for left_to_right, piece in reversed(segments))
    return "".join(piece if left_to_right else _right_to_left_core(piece) for left_to_right, piece in segments)


def _reversed(piece: str) -> str:
    return piece[::-1].translate(_MIRROR)


def _right_to_left_core(piece: str) -> str:
    """In a left-to-right line: the Hebrew of ``piece`` (from its first to its last Hebrew letter)
    reversed; the spaces and punctuation around it stay where they are."""
    positions = [index for index, char in enumerate(piece) if is_rtl_char(char)]
    if not positions:
        return piece
    first, last = positions[0], positions[-1] + 1
    return piece[:first] + _reversed(piece[first:last]) + piece[last:]
