"""The four difficulty levels of R25, as one enum that save files, grading and the CLI share.

It lives in the engine (not beside the grading code in :mod:`pyramide_cli.analysis.grade`) because a
save file records a game's level: reading a save must not import the grading machinery.
"""

from __future__ import annotations

from enum import Enum


class Level(str, Enum):
    """The four levels of R25, easiest first; the value is what save files and ``--json`` say."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    def __str__(self) -> str:
        return self.value


LEVELS: tuple[Level, ...] = tuple(Level)
"""The levels, easiest first."""
