"""Hypothesis strategies over rule sets: any preset with any combination of variants."""

from __future__ import annotations

from hypothesis import strategies as st

from pyramide_cli.engine.rules import Rules

PRESETS = ["N", "T", "E", "O"]
FLAGS = ("strict", "waste-pair", "cover-pair", "stock-top", "draw-3")


@st.composite
def any_rules(draw) -> Rules:
    """Any preset with any combination of the variants and, sometimes, a small recycle limit of its
    own (under N mostly unlimited, as dealt)."""
    preset = draw(st.sampled_from(PRESETS))
    parts = [preset]
    if draw(st.booleans()) if preset != "N" else draw(st.integers(0, 3)) == 0:
        parts.append(f"recycles={draw(st.integers(0, 3))}")
    parts.extend(flag for flag in FLAGS if draw(st.booleans()))
    return Rules.parse("+".join(parts))
