"""The pytest plugin: ``pytest --pyramide-saves DIR`` checks every save under DIR as a test.

Installed with the package (entry point ``pytest11``, name ``pyramide``), so pytest loads it in
every run of an environment that has pyramide: without the option it does nothing, and loading it
imports nothing but this module and ``pyramide_cli``'s small ``__init__`` (the engine and storage
load only when a save is collected).  ``-p no:pyramide`` turns it off.

Each save is one test, ``<file>::replay``, that passes when ``pyramide replay FILE`` would: the
history replays to what the file records, and the expectations written in its leading comments
(``# pyramide-expect: dead``, ``# pyramide-expect-score: 70``) hold.  Which files are saves, and
those comments: :mod:`pyramide_cli.storage.save_batch`.  Works under pytest-xdist (``-n 2``): every
worker collects the same items in the same order.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .storage.save_batch import SaveCheck

_FOLDERS = pytest.StashKey[list[Path]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("pyramide", "pyramide saves")
    group.addoption(
        "--pyramide-saves", action="append", default=[], metavar="DIR", dest="pyramide_saves",
        help="Check every pyramide save under DIR (recursively) as a test: its replay must agree with the file "
             "and meet the file's '# pyramide-expect' comments.  May be given more than once.")


def pytest_configure(config: pytest.Config) -> None:
    """Remember the folders, and collect each one that the paths pytest collects do not already hold."""
    named = config.getoption("pyramide_saves", default=None)
    if not named:
        return
    base = config.invocation_params.dir
    folders = [(base / folder).resolve() for folder in named]
    config.stash[_FOLDERS] = folders
    collected = [(base / argument.split("::", 1)[0]).resolve() for argument in config.args]
    for folder in folders:
        if not any(folder.is_relative_to(path) for path in collected):
            config.args.append(str(folder))
            collected.append(folder)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    folders = parent.config.stash.get(_FOLDERS, None)
    if not folders:
        return None
    from .storage.save_batch import SAVE_SUFFIXES, is_save_text

    name = file_path.name
    if name.startswith(".") or not name.endswith(SAVE_SUFFIXES):
        return None
    resolved = file_path.resolve()
    if not any(resolved.is_relative_to(folder) for folder in folders):
        return None
    from .engine.errors import PyramideError
    from .storage.files import read_head

    try:
        is_save = is_save_text(read_head(file_path))
    except PyramideError:
        is_save = True  # unreadable: its test says why, where skipping it would hide a save
    return SaveFile.from_parent(parent, path=file_path) if is_save else None


class SaveFile(pytest.File):
    """A save file: one test, ``replay``."""

    def collect(self) -> list[pytest.Item]:
        return [SaveItem.from_parent(self, name="replay")]


class SaveReplayFailed(Exception):
    """A save whose replay disagrees with it, misses an expectation, or that cannot be read."""

    def __init__(self, check: SaveCheck) -> None:
        super().__init__(check.path)
        self.check = check


class SaveItem(pytest.Item):
    """The replay of one save, as ``pyramide replay FILE`` checks it."""

    def runtest(self) -> None:
        from .storage.save_batch import Found, check_save

        check = check_save(Found(self.path))
        if not check.ok:
            raise SaveReplayFailed(check)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str | Any:
        """The save's failures, one a line, instead of a traceback into the plugin."""
        if not isinstance(excinfo.value, SaveReplayFailed):
            return super().repr_failure(excinfo, style=style)
        from .engine.errors import escaped

        check = excinfo.value.check
        name = escaped(self.shown_path())
        if check.error is not None:
            return f"{name}: cannot be replayed\n  {escaped(str(check.error))}"
        where = name if check.line is None else f"{name}:{check.line}"
        return "\n".join([f"{where}: the replay does not agree with the save",
                          *(f"  {escaped(failure)}" for failure in check.failures)])

    def shown_path(self) -> str:
        """The save's path from where pytest was started (as the test ids name it), else as it is."""
        try:
            return str(self.path.relative_to(self.config.invocation_params.dir))
        except ValueError:
            return str(self.path)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"pyramide replay {self.path.name}"
