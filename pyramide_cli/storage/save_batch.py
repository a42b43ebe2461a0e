"""Many saves checked in one process: finding them in folders, what a save expects, one result per save.

``pyramide replay FILE|DIR ...`` and the pytest plugin (``pyramide_cli.pytest_plugin``) both use it,
so a folder of saves means the same to both:

* **A save in a folder** is a file whose name ends in ``.yaml`` or ``.yml`` and whose first key is
  ``pyramide-save:`` (after the leading ``#`` comment lines, blank lines and a ``---`` line), read
  from its first 4 kB.  Folders are walked recursively, in name order; folders and files whose name
  starts with ``.`` are skipped (``.git``, the temporary files of an atomic write), and symbolic
  links to folders are not followed.  A file named on its own is checked whatever its name.
* **What a save expects** is written in its leading comment lines (the ones that survive rewrites):
  ``# pyramide-expect: dead`` (a status or termination, as ``--expect``) and
  ``# pyramide-expect-score: 70`` (as ``--expect-score``), each at most once.
* **A save that cannot be read** (missing, not a regular file, bad YAML, a newer format …) is a
  failed check of that save with its reason, never the end of the batch.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from ..engine.errors import PyramideError, quoted, quoted_name
from ..engine.game import Game
from ..engine.position import Outcome, Termination
from ..engine.text import text
from .files import read_head
from .save import FORMAT_KEY, Replay, SaveData, SaveFileError, parse_save, read_save_text, replay, save_source

SAVE_SUFFIXES = (".yaml", ".yml")
"""The names a save found in a folder ends with."""
EXPECT_KEY = "pyramide-expect"
EXPECT_SCORE_KEY = "pyramide-expect-score"
_FIRST_KEY = re.compile(rf"^\ufeff?{FORMAT_KEY}\s*:")
_EXPECT_LINE = re.compile(rf"^#\s*({EXPECT_KEY}|{EXPECT_SCORE_KEY})\s*:\s*(.*?)\s*$")

Expectation = Outcome | Termination
"""A status (``lost``) or, more precisely, a termination (``dead``)."""


def is_save_text(head: str) -> bool:
    """Whether a file starting with ``head`` is a save: its first key is ``pyramide-save``."""
    for line in head.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or stripped == "---":
            continue
        return bool(_FIRST_KEY.match(line))
    return False


# -- finding the saves -------------------------------------------------------------------------
class Found(NamedTuple):
    """A save to check, or a path named on the command line that gave none (``problem`` says why)."""

    path: Path
    problem: PyramideError | None = None


def find_saves(paths: Iterable[Path | str]) -> list[Found]:
    """Every save the paths name: a file as itself, a folder as the saves under it (module docstring).

    A folder holding no save is reported as a problem of that folder, so a mistyped path fails a
    CI job instead of passing with nothing checked.  A path that does not exist is checked as a
    file, so its check says it is missing.
    """
    found: list[Found] = []
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            found.append(Found(path))
            continue
        saves = [Found(save) for save in saves_under(path)]
        if not saves:
            saves = [Found(path, SaveFileError(text(
                "no save in {name}: a save there is a .yaml or .yml file whose first key is pyramide-save",
                name=quoted_name(path))))]
        found += saves
    return found


def saves_under(folder: Path) -> Iterator[Path]:
    """The saves under ``folder``, recursively, in name order.  A ``.yaml`` file that cannot be read is
    yielded too: its check says why, where skipping it would hide a save."""
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or not name.endswith(SAVE_SUFFIXES):
                continue
            path = Path(root, name)
            try:
                head = read_head(path)
            except PyramideError:
                yield path
                continue
            if is_save_text(head):
                yield path


# -- what a save expects -----------------------------------------------------------------------
def expectation_named(value: str) -> Expectation | None:
    """The status or termination a word names (any case), or ``None``."""
    for member in (*Outcome, *Termination):
        if member.value == value.lower():
            return member
    return None


def known_expectations() -> str:
    return ", ".join(member.value for member in (*Outcome, *Termination))


class Expected(NamedTuple):
    """What a replay must give besides agreeing with its file (``None``: not checked)."""

    status: Expectation | None = None
    score: int | None = None


def recorded_expectations(content: str, source: str) -> Expected:
    """The ``# pyramide-expect…`` lines among a save's leading comments; :class:`SaveFileError` for a bad one."""
    values: dict[str, str] = {}
    for line in content.splitlines():
        if not line.startswith("#"):
            break
        match = _EXPECT_LINE.match(line)
        if match is None:
            continue
        key, value = match.groups()
        if key in values:
            raise SaveFileError(text("{source}: the comment {key} is given twice", source=source, key=key))
        values[key] = value
    status = score = None
    if EXPECT_KEY in values:
        status = expectation_named(values[EXPECT_KEY])
        if status is None:
            raise SaveFileError(text("{source}: the comment {key}: {value}: expected one of {known}", source=source,
                                     key=EXPECT_KEY, value=quoted(values[EXPECT_KEY]), known=known_expectations()))
    if EXPECT_SCORE_KEY in values:
        spelled = values[EXPECT_SCORE_KEY]
        if not spelled.isascii() or not spelled.isdigit() or len(spelled) > 9:
            raise SaveFileError(text("{source}: the comment {key}: {value}: expected a whole number", source=source,
                                     key=EXPECT_SCORE_KEY, value=quoted(spelled)))
        score = int(spelled)
    return Expected(status, score)


def expectation_checks(game: Game, expected: Expected) -> list[dict[str, Any]]:
    """Each expectation against the replayed game: ``{check, expected, actual, ok}`` (``docs/cli.md``)."""
    checks: list[dict[str, Any]] = []
    if isinstance(expected.status, Outcome):
        actual = game.outcome
        checks.append({"check": "status", "expected": expected.status.value, "actual": actual.value,
                       "ok": actual is expected.status})
    elif expected.status is not None:
        termination = game.termination
        checks.append({"check": "termination", "expected": expected.status.value,
                       "actual": None if termination is None else termination.value,
                       "ok": termination is expected.status})
    if expected.score is not None:
        checks.append({"check": "score", "expected": expected.score, "actual": game.score,
                       "ok": game.score == expected.score})
    return checks


def failure_messages(result: Replay, checks: list[dict[str, Any]]) -> list[str]:
    """The divergences, then the unmet expectations, one message each (the first is what a failure shows)."""
    failures = [divergence.message for divergence in result.divergences]
    failures += [text("expected {check} {expected}, replay gives {actual}", check=check["check"],
                      expected=check["expected"], actual=check["actual"]) for check in checks if not check["ok"]]
    return failures


# -- one save's check --------------------------------------------------------------------------
class SaveCheck(NamedTuple):
    """The check of one save: its replay and expectations, or the error that kept it from being read."""

    path: Path
    content: str | None
    data: SaveData | None
    result: Replay | None
    checks: list[dict[str, Any]]
    failures: list[str]
    error: PyramideError | None
    seconds: float

    @property
    def ok(self) -> bool:
        return self.error is None and not self.failures

    @property
    def line(self) -> int | None:
        """The line of the file where the first failure is (for an annotation), when it has one."""
        if self.content is None or self.result is None:
            return None
        if self.result.first is not None:
            return key_line(self.content, self.result.first.field, self.result.first.action)
        for check in self.checks:
            if not check["ok"]:
                return key_line(self.content, "status" if check["check"] == "termination" else check["check"])
        return None


NOTHING_EXPECTED = Expected()


def check_save(found: Found, option: Expected = NOTHING_EXPECTED) -> SaveCheck:
    """Read, replay and check one save against its file, its own expectations and ``option``'s.

    The file's expectations and the option's are both checked (the option applies to every save).
    """
    started = time.perf_counter()
    content = data = result = None
    checks: list[dict[str, Any]] = []
    try:
        if found.problem is not None:
            raise found.problem
        content = read_save_text(found.path)
        source = save_source(found.path)
        data = parse_save(content, source)
        recorded = recorded_expectations(content, source)
        result = replay(data)
        checks = expectation_checks(result.game, recorded) + expectation_checks(result.game, option)
    except PyramideError as error:
        return SaveCheck(found.path, content, data, None, [], [], error, time.perf_counter() - started)
    return SaveCheck(found.path, content, data, result, checks, failure_messages(result, checks), None,
                     time.perf_counter() - started)


def key_line(content: str, field: str, action: int | None = None) -> int | None:
    """The 1-based line of a top-level key (``score:``), or of the ``action``-th history entry when the
    history is written one entry a line; ``None`` when the key is not in the file."""
    lines = content.splitlines()
    pattern = re.compile(rf"^{re.escape(field)}\s*:")
    for number, line in enumerate(lines, 1):
        if not pattern.match(line):
            continue
        if field == "history" and action is not None and line.split(":", 1)[1].strip() == "":
            entries = [index for index, entry in enumerate(lines[number:], number + 1)
                       if entry.lstrip().startswith("- ")]
            if len(entries) >= action:
                return entries[action - 1]
        return number
    return None
