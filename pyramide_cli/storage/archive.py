"""A game that goes on: a new deal takes a save's place, and the game that was there is kept.

``pyramide play`` (the prompt's ``new`` and ``restart``, and ``--new-if-finished``) calls
:func:`replace_game`.  Under the save's lock it reads the save, counts the game in the statistics
if it has ended (unless a record of that very game is there already: the batch that ended it
made one), copies the save's exact text to
the games folder (:func:`~pyramide_cli.storage.places.games_folder`), and only then writes the new
game over the save.  A game is never deleted: if the copy cannot be written, the save is left as it
was and the error says why.  A save without a single action is simply replaced — it holds no game
yet.

Kept files are named ``<date>-<deal code>-<result>.yaml`` (``2026-11-30-PY1-N-AAAAAAS-won.yaml``),
with ``-2``, ``-3`` … when the name is taken; each is created exclusively, so two processes keeping
games at once never write over each other's.  They are ordinary saves: ``pyramide replay`` and
``pyramide show`` read them.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.errors import quoted, quoted_name
from ..engine.position import Outcome
from ..engine.text import text
from .files import FileAccessError, SaveLock, describe_os_error
from .save import SaveData, load_game, write_save

if TYPE_CHECKING:
    from ..engine.game import Game
    from .stats import StatsDB


@dataclass(frozen=True)
class Replaced:
    """What :func:`replace_game` did: where the old game was kept (``None``: it had no action), a
    warning when the statistics could not count it, and whether the new game was written at all."""

    kept: Path | None
    warning: str | None = None
    replaced: bool = True


def kept_name(game: Game, today: datetime.date | None = None) -> str:
    """``2026-11-30-PY1-N-AAAAAAS-won.yaml``, ``…-dead.yaml``, ``…-resigned.yaml`` (``playing``: unfinished)."""
    day = (today or datetime.date.today()).isoformat()
    ending = game.outcome.value if game.termination is None or game.outcome is Outcome.WON else game.termination.value
    return f"{day}-{game.deal.code}-{ending}.yaml"


def keep_text(folder: Path, name: str, content: str) -> Path:
    """Write ``content`` to a new file ``folder/name`` (or ``…-2.yaml``, ``…-3.yaml`` when taken), durably,
    never replacing a file; returns its path.  :class:`FileAccessError` when the folder is not writable."""
    stem = name.removesuffix(".yaml")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for number in range(1, 10_000):
            target = folder / (f"{stem}.yaml" if number == 1 else f"{stem}-{number}.yaml")
            try:
                descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                continue
            try:
                with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(content)
                    handle.flush()
                    os.fsync(handle.fileno())
            except BaseException:
                os.unlink(target)
                raise
            return target
    except OSError as error:
        raise FileAccessError(describe_os_error(error, getattr(error, "filename", None) or folder, "write")) from None
    raise FileAccessError(text("cannot keep the game in {folder}: too many games named {name}",
                               folder=quoted_name(folder), name=quoted(stem)))


def replace_game(path: Path | str, new: SaveData, folder: Path, stats: StatsDB | Path | None = None,
                 expected_text: str | None = None) -> Replaced:
    """Put the game ``new`` in the save at ``path``, keeping the game that was there (see the module docstring).

    With ``expected_text``, nothing happens (``replaced`` is false) when the file no longer holds
    that text: another process played it since the caller looked.  Raises :class:`FileAccessError`
    (nothing changed) when the old game cannot be kept.
    """
    with SaveLock(path):
        saved = load_game(path)
        if expected_text is not None and saved.text != expected_text:
            return Replaced(None, None, replaced=False)
        kept = None
        warning = None
        if saved.data.history:
            if saved.game.is_over and stats is not None:
                from .stats import GameRecord, StatsDB, record_game

                database = stats if isinstance(stats, StatsDB) else StatsDB(stats)
                warning = record_game(database, GameRecord.of_game(saved.game, saved.data), if_new=True)
            kept = keep_text(folder, kept_name(saved.game), saved.text)
        write_save(path, new)
    return Replaced(kept, warning)
