"""Right-to-left lines for terminals that do not reorder them (``PYRAMIDE_BIDI=visual``).

Terminals with bidirectional support (GNOME Terminal/VTE, Konsole, iTerm2, mlterm …) take text in
logical order, the order it is read in, and show Hebrew right to left themselves; that is what
Pyramide writes by default.  Card names, numbers and codes inside a Hebrew sentence are wrapped in
LEFT-TO-RIGHT MARKs (U+200E) so that such a terminal keeps ``10♣`` and ``PY1-N-AAAAAAS`` reading
left to right.

Other terminals print characters in the order they arrive, which turns Hebrew around.  For them
:func:`visual_order` reorders one line the way the Unicode bidirectional algorithm would show it
in a right-to-left paragraph — a simplification that is exact for the lines Pyramide writes:
runs of left-to-right text (Latin letters, digits, card names with their suit symbols and the
punctuation between them) keep their order, everything else reads right to left, and the runs
themselves are laid out from right to left.  Brackets are mirrored.
"""

from __future__ import annotations

LRM = "\u200e"
RLM = "\u200f"
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


def visual_order(line: str) -> str:
    """The line as a right-to-left paragraph looks on screen, left to right (see the module docstring)."""
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
    out = []
    for left_to_right, piece in reversed(segments):
        out.append(piece if left_to_right else piece[::-1].translate(_MIRROR))
    return "".join(out)
