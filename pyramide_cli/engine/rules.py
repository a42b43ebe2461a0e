"""Rules of a game: the presets of docs/rules.md §6 and the variants that combine with them.

A :class:`Rules` is a frozen value.  It has two spellings, both accepted wherever rules are read:

* the *human* form used by ``--rules``: the preset, then ``+``-separated variants, e.g.
  ``T+strict+waste-pair`` or ``N+recycles=2``;
* the *code segment* carried inside a deal code (R22): the preset letter, then one letter per
  variant in a fixed order — ``R<k>`` recycle limit, ``S`` strict, ``W`` waste-pair, ``C``
  cover-pair, ``U`` stock-top (the "up" card), ``D`` draw-3 — e.g. ``TSW`` or ``NR2``.  A plain
  preset is one letter (``N``, ``T``, ``E``, ``O``).

A recycle limit equal to the preset's own is dropped, so every rule set has exactly one code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from .errors import RulesError
from .text import text
from .text import text as make_text

UNLIMITED = None
PRESET_LIMIT = -1
"""Default of ``Rules.recycle_limit``: take the preset's own limit."""


class Preset(NamedTuple):
    letter: str
    initial_waste: bool
    recycle_limit: int | None
    description: str


PRESETS: dict[str, Preset] = {
    "N": Preset("N", True, UNLIMITED, "default: one card face up on the waste, 23 in the stock, unlimited recycles"),
    "T": Preset("T", False, 2, "24-card stock, three passes (two recycles)"),
    "E": Preset("E", False, 1, "24-card stock, two passes (one recycle)"),
    "O": Preset("O", False, 0, "24-card stock, one pass (no recycling)"),
}

VARIANTS: dict[str, str] = {
    "strict": "win only when all 52 cards are removed",
    "recycles=K": "at most K recycles (0 = a single pass through the stock)",
    "waste-pair": "the card just drawn may pair with the waste card it covers",
    "cover-pair": "a card may pair with the one card that still covers it",
    "stock-top": "the top stock card lies face up and is playable",
    "draw-3": "three cards drawn at a time, only the top one playable",
}

# (flag attribute, human name, code letter) in canonical order after the recycle limit.
_FLAGS = (
    ("strict", "strict", "S"),
    ("waste_pair", "waste-pair", "W"),
    ("cover_pair", "cover-pair", "C"),
    ("stock_top", "stock-top", "U"),
)
MAX_RECYCLE_LIMIT = 99



_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_upper(text: str) -> str:
    """``text`` with the ASCII letters in upper case and nothing else changed: codes and rules are
    ASCII, and Unicode's case mapping would read look-alikes as letters (``ſ`` as ``S``, ``ı`` as ``I``)."""
    return text.translate(_UPPER)


def ascii_lower(text: str) -> str:
    """``text`` with the ASCII letters in lower case and nothing else changed (see :func:`ascii_upper`)."""
    return text.translate(_LOWER)

@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that changes how a deal is played.  Build with :meth:`preset` or :meth:`parse`."""

    preset_letter: str = "N"
    recycle_limit: int | None = PRESET_LIMIT
    strict: bool = False
    waste_pair: bool = False
    cover_pair: bool = False
    stock_top: bool = False
    draw_count: int = 1

    def __post_init__(self) -> None:
        if self.preset_letter not in PRESETS:
            raise RulesError(text("unknown rules preset {letter!r}: choose one of N, T, E, O",
                                  letter=self.preset_letter))
        if self.recycle_limit == PRESET_LIMIT:
            object.__setattr__(self, "recycle_limit", PRESETS[self.preset_letter].recycle_limit)
        if self.recycle_limit is None and PRESETS[self.preset_letter].recycle_limit is not None:
            raise RulesError(text("preset {letter} has limited recycles; use preset N for unlimited ones",
                                   letter=self.preset_letter))
        if self.recycle_limit is not None and not 0 <= self.recycle_limit <= MAX_RECYCLE_LIMIT:
            raise RulesError(text("recycle limit {limit!r} out of range 0-{most}", limit=self.recycle_limit,
                                   most=MAX_RECYCLE_LIMIT))
        if self.draw_count not in (1, 3):
            raise RulesError(text("draw count {count!r} not supported: 1 or 3", count=self.draw_count))

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def preset(cls, letter: str = "N") -> Rules:
        """The plain preset ``N``, ``T``, ``E`` or ``O``."""
        key = ascii_upper(letter.strip())
        if key not in PRESETS:
            raise RulesError(text("unknown rules preset {letter!r}: choose one of N, T, E, O", letter=letter))
        return cls(preset_letter=key)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read rules in the human form (``T+strict+recycles=1``) or as a code segment (``TSR1``)."""
        if not isinstance(text, str) or not text.strip():
            raise RulesError(make_text("empty rules {rules!r}: give a preset such as N, T, E or O", rules=text))
        stripped = text.strip()
        if "+" in stripped or len(stripped) == 1:
            return cls._parse_human(stripped)
        if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", stripped) and ascii_upper(stripped[0]) in PRESETS:
            return cls.from_code_segment(stripped, canonical_only=False)
        return cls._parse_human(stripped)

    @classmethod
    def _parse_human(cls, spec: str) -> Rules:
        preset_text, *variant_texts = [part.strip() for part in spec.split("+")]
        rules = cls.preset(preset_text)
        seen: set[str] = set()
        for variant in variant_texts:
            key = ascii_lower(variant)
            match = re.fullmatch(r"(?:recycles?[=:-]?|k=?)([0-9]+)", key)
            name = "recycles=K" if match else key
            if name in seen:
                raise RulesError(text("variant {variant!r} given twice in rules {rules!r}", variant=variant,
                                      rules=spec))
            seen.add(name)
            if match:
                rules = replace(rules, recycle_limit=int(match.group(1)))
            elif key == "draw-3":
                rules = replace(rules, draw_count=3)
            else:
                attribute = next((flag for flag, human, _ in _FLAGS if human == key), None)
                if attribute is None:
                    known = ", ".join(VARIANTS)
                    raise RulesError(text("unknown variant {variant!r} in rules {rules!r}: known variants are {known}",
                                          variant=variant, rules=spec, known=known))
                flag: dict[str, Any] = {attribute: True}
                rules = replace(rules, **flag)
        return rules

    @classmethod
    def from_code_segment(cls, segment: str, canonical_only: bool = True) -> Rules:
        """Read the rules segment of a deal code (``N``, ``TSW``, ``NR2D`` …), case-insensitive.

        Deal codes must use the canonical segment (so each deal has one code); ``--rules`` also
        takes a redundant limit such as ``TR2`` (``canonical_only=False``).
        """
        upper = ascii_upper(segment.strip())
        match = re.fullmatch(r"([NTEO])(?:R([0-9]{1,2}))?(S?)(W?)(C?)(U?)(D?)", upper)
        if not match:
            raise RulesError(text(
                "bad rules segment {segment!r}: a preset letter N, T, E or O, then optional variants "
                "in this order: R<k> recycle limit, S strict, W waste-pair, C cover-pair, U stock-top, D draw-3",
                segment=segment))
        letter, limit, strict, waste, cover, up, draw3 = match.groups()
        rules = cls.preset(letter)
        if limit is not None:
            rules = replace(rules, recycle_limit=int(limit))
        rules = replace(
            rules, strict=bool(strict), waste_pair=bool(waste), cover_pair=bool(cover),
            stock_top=bool(up), draw_count=3 if draw3 else 1,
        )
        if canonical_only and rules.code_segment != upper:
            raise RulesError(text("bad rules segment {segment!r}: write it as {canonical!r}", segment=segment,
                                  canonical=rules.code_segment))
        return rules

    # -- derived facts ------------------------------------------------------------------------
    @property
    def initial_waste(self) -> bool:
        """True when the deal puts one card face up on the waste (preset ``N``)."""
        return PRESETS[self.preset_letter].initial_waste

    @property
    def stock_size(self) -> int:
        return 23 if self.initial_waste else 24

    @property
    def passes(self) -> int | None:
        """How many passes through the stock are allowed (``None`` = unlimited)."""
        return None if self.recycle_limit is None else self.recycle_limit + 1

    @property
    def _custom_limit(self) -> bool:
        return self.recycle_limit != PRESETS[self.preset_letter].recycle_limit

    @property
    def code_segment(self) -> str:
        """The rules segment of a deal code: one letter for a plain preset."""
        parts = [self.preset_letter]
        if self._custom_limit:
            parts.append(f"R{self.recycle_limit}")
        parts.extend(code for attribute, _, code in _FLAGS if getattr(self, attribute))
        if self.draw_count == 3:
            parts.append("D")
        return "".join(parts)

    @property
    def name(self) -> str:
        """The human form, e.g. ``T+strict+waste-pair``; parses back with :meth:`parse`."""
        parts = [self.preset_letter]
        if self._custom_limit:
            parts.append(f"recycles={self.recycle_limit}")
        parts.extend(human for attribute, human, _ in _FLAGS if getattr(self, attribute))
        if self.draw_count == 3:
            parts.append("draw-3")
        return "+".join(parts)

    @property
    def plain_talon(self) -> bool:
        """True when the talon plays one card at a time: draw-1 and no talon card in play but the
        waste top (no ``stock-top``, no ``waste-pair``).  Each talon card then comes into play once
        per pass, alone, and two talon cards never pair — the solver's fast paths rely on it."""
        return self.draw_count == 1 and not self.stock_top and not self.waste_pair

    @property
    def talon_pairs(self) -> bool:
        """True when two talon cards may pair with each other (``waste-pair`` or ``stock-top``)."""
        return self.waste_pair or self.stock_top

    @property
    def is_plain_preset(self) -> bool:
        return len(self.code_segment) == 1

    def __str__(self) -> str:
        return self.name

