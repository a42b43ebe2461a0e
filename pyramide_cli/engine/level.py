"""The four difficulty levels of R25, as one enum that save files, grading and the CLI share.

It lives in the engine (not beside the grading code in :mod:`pyramide_cli.analysis.grade`) because a
save file records a game's level: reading a save must not import the grading machinery.
"""

from __future__ import annotations

from enum import Enum

from .text import text


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
LEVEL_WORDS = {Level.EASY: text("easy"), Level.MEDIUM: text("medium"), Level.HARD: text("hard"),
               Level.EXPERT: text("expert")}
"""The levels as a player reads them (``level hard``); the values stay English in files, JSON and options."""
LEVEL_LABELS = {Level.EASY: text("Easy"), Level.MEDIUM: text("Medium"), Level.HARD: text("Hard"),
                Level.EXPERT: text("Expert")}
"""The levels as names (``a Hard deal``), in the reader's language."""
