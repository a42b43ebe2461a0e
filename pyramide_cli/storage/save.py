"""Save files on disk: read, validate and replay one (:func:`load_game`), write one atomically.

The format (keys, validation, migrations) is :mod:`.save_format`, the strict YAML under it
:mod:`.strict_yaml`, the replay and its divergences :mod:`.replay`; their public names are
re-exported here, so ``storage.save`` stays the one place callers import saves from.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from ..engine.errors import quoted_name
from ..engine.game import Game
from ..engine.taps import TapSession
from ..engine.text import text
from .files import MAX_FILE_BYTES, FileAccessError, FileContentError, atomic_write, read_text
from .replay import Divergence, Replay, game_from_save, replay
from .save_format import (
    FORMAT_KEY, FORMAT_VERSION, HEADER, KNOWN_KEYS, LAYOUT_KEY, MAX_HISTORY, MIGRATIONS, REQUIRED_KEYS, SaveData,
    migrate, parse_save,
)
from .strict_yaml import MAX_NUMBER_CHARACTERS, MAX_YAML_DEPTH, SaveFileError, dump_yaml, leading_comments, load_yaml

__all__ = [
    "FORMAT_KEY", "FORMAT_VERSION", "HEADER", "KNOWN_KEYS", "LAYOUT_KEY", "MAX_HISTORY", "MAX_NUMBER_CHARACTERS",
    "MAX_YAML_DEPTH", "MIGRATIONS", "REQUIRED_KEYS", "Divergence", "Replay", "SaveData", "SaveFileError",
    "SaveLimitError", "SavedGame", "dump_yaml", "game_from_save", "leading_comments", "load_game", "load_yaml",
    "migrate", "parse_save", "read_save", "read_save_text", "replay", "save_source", "write_save",
]


class SavedGame(NamedTuple):
    """A save file read from disk: its path, its exact text, its data and the replayed game in a tap
    session (with the file's selection and error help)."""

    path: Path
    text: str
    data: SaveData
    session: TapSession

    @property
    def game(self) -> Game:
        return self.session.game

    def updated(self, session: TapSession, time_added: float = 0.0) -> SaveData:
        """The save of ``session``'s game and selection; ``time_played`` keeps the file's exact value
        unless time was added, so a batch that changes nothing gives data equal to the file's (and the
        file is not rewritten)."""
        if not time_added:
            return SaveData.from_game(session.game, self.data, selected=session.selected)
        return SaveData.from_game(session.game, self.data, self.data.time_played + time_added,
                                  selected=session.selected)


def save_source(path: Path | str) -> str:
    """How messages name a save file: ``bad save file 'g.yaml'`` (quoted, escaped, bounded)."""
    return text("bad save file {name}", name=quoted_name(path))


def read_save_text(path: Path | str) -> str:
    """A save file's text; a file too large or not UTF-8 is a bad save (:class:`SaveFileError`, exit 4)."""
    try:
        return read_text(path)
    except FileContentError as error:
        raise SaveFileError(text("{source}: {problem}", source=save_source(path), problem=error.problem)) from None


def read_save(path: Path | str) -> SaveData:
    """Read and validate a save file without replaying it (what ``replay`` starts from)."""
    return parse_save(read_save_text(path), save_source(path))


def load_game(path: Path | str) -> SavedGame:
    """Read, validate and replay a save file.

    A format-1 file whose history is valid by today's end rule comes back as format-2 data, so it
    is written as format 2 the next time it changes; any other format-1 file stays format 1.
    """
    content = read_save_text(path)
    source = save_source(path)
    data = parse_save(content, source)
    result = replay(data)
    if result.first is not None:
        raise SaveFileError(text("{source}: {reason}", source=source, reason=result.first.message), result.first.field)
    session = TapSession(result.game, assist=data.assist)
    session.selected = result.selected
    if data.format == 1 and result.upgradable:
        data = replace(data, format=FORMAT_VERSION)
        data = SaveData.from_game(session.game, data, selected=session.selected)
    return SavedGame(Path(path), content, data, session)


class SaveLimitError(FileAccessError):
    """A save that would exceed :data:`MAX_HISTORY` (exit 5, like a full disk: nothing is written)."""


def write_save(path: Path | str, data: SaveData) -> str:
    """Write ``data`` atomically (caller holds the :class:`~pyramide_cli.storage.files.SaveLock`); returns the text.

    A history longer than :data:`MAX_HISTORY` is never written: the file could not be read back.
    """
    if len(data.history) > MAX_HISTORY:
        raise SaveLimitError(text("cannot write {name}: its history would hold {count:,} actions, more than the "
                                  "{most:,} a save can hold; start a new game", name=quoted_name(path),
                                  count=len(data.history), most=MAX_HISTORY))
    content = data.to_text()
    size = len(content.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise SaveLimitError(text("cannot write {name}: it would be {size:,} bytes, more than the {most:,} bytes "
                                  "(2 MiB) a save can be read back from; shorten its leading comments or start a "
                                  "new game", name=quoted_name(path), size=size, most=MAX_FILE_BYTES))
    atomic_write(path, content)
    return content
