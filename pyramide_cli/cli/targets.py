"""What a command's ``FILE|CODE`` argument names, and whether an output file may be written.

Shared by ``show``, ``solve``, ``hint`` and ``grade`` (reading) and by ``deal`` and ``solve -o``
(writing), so that these commands read their argument and refuse to overwrite a file the same way.
Kept apart from the command modules so that none of them imports another.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..engine.deal import Deal, looks_like_code
from ..engine.game import Game
from ..storage.files import FileAccessError, read_text
from ..storage.save import LAYOUT_KEY, SaveData, game_from_save, parse_save

_LAYOUT_LINE = re.compile(rf"^{LAYOUT_KEY}\s*:", re.MULTILINE)


def load_target(target: str) -> tuple[Game, SaveData | None, str | None]:
    """The game shown for ``FILE|CODE``: a save, a layout file, or a fresh deal; with the save's data and path."""
    path = Path(target)
    if path.exists():
        text = read_text(path)
        if _LAYOUT_LINE.search(text):
            from ..storage.layout_file import parse_layout

            return Game(parse_layout(text, f"bad layout file {target!r}")), None, str(path)
        source = f"bad save file {target!r}"
        data = parse_save(text, source)
        return game_from_save(data, source), data, str(path)
    if looks_like_code(target):
        return Game(Deal.from_code(target)), None, None
    raise FileAccessError(f"cannot read {target!r}: no such file (nor a deal code such as PY1-N-AAAAAAS)")


def refuse_existing(path: Path, force: bool) -> None:
    """Raise :class:`FileAccessError` (exit 5) when ``path`` exists (even as a dangling link) and not ``force``."""
    if not force and (path.exists() or path.is_symlink()):
        raise FileAccessError(f"{str(path)!r} already exists: add --force to overwrite it, or -o to name another file")
