"""What a command's ``FILE|CODE`` argument names.

Shared by ``show``, ``solve``, ``hint`` and ``grade``, so that these commands read their argument
the same way.  (Whether an output file may be written is :func:`~pyramide_cli.storage.files.check_output`.)
Kept apart from the command modules so that none of them imports another.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from ..engine.deal import Deal, looks_like_code
from ..engine.errors import quoted_name
from ..engine.game import Game
from ..engine.text import text
from ..storage.files import FileAccessError, FileContentError, read_text
from ..storage.save import LAYOUT_KEY, SaveData, SaveFileError, game_from_save, parse_save, save_source

_LAYOUT_LINE = re.compile(rf"^{LAYOUT_KEY}\s*:", re.MULTILINE)


def load_target(target: str) -> tuple[Game, SaveData | None, str | None]:
    """The game shown for ``FILE|CODE``: a save, a layout file, or a fresh deal; with the save's data and path."""
    path = Path(target)
    if _exists(path):
        try:
            content = read_text(path)
        except FileContentError as error:
            raise SaveFileError(text("bad file {name}: {problem}", name=quoted_name(target),
                                     problem=error.problem)) from None
        if _LAYOUT_LINE.search(content):
            from ..storage.layout_file import parse_layout

            source = text("bad layout file {name}", name=quoted_name(target))
            return Game(parse_layout(content, source)), None, str(path)
        source = save_source(target)
        data = parse_save(content, source)
        return game_from_save(data, source), data, str(path)
    if looks_like_code(target):
        return Game(Deal.from_code(target)), None, None
    raise FileAccessError(text("cannot read {name}: no such file (nor a deal code such as PY1-N-AAAAAAS)",
                               name=quoted_name(target)))


def _exists(path: Path) -> bool:
    """Whether ``path`` names something; a name no file can have (too long, a NUL) names nothing, and
    other errors (permission denied) count as something, so that reading it says what is wrong."""
    try:
        os.lstat(path)
    except (FileNotFoundError, ValueError):
        return False
    except OSError as error:
        return error.errno not in (errno.ENAMETOOLONG, errno.ENOTDIR)
    return True
