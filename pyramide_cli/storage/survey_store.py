"""The survey results store: one SQLite file, one row per solved deal, written in atomic batches.

Why SQLite: a survey of 100 M deals runs for days on a cluster and must survive a Ctrl-C, a
``kill -9`` or a lost machine.  SQLite commits a batch of rows in one transaction (write-ahead log,
so a killed writer leaves either the whole batch or none of it), keeps ``number`` unique (a deal
can never be counted twice), lets ``--report`` read while a survey writes, and any ``sqlite3``
shell can read the file.  The layout below is a public, versioned contract (``docs/scale.md``).

Store format 1 (``PRAGMA user_version``; ``PRAGMA application_id`` marks a pyramide store):

* ``store_info(key, value)``: ``solver_version``, ``rules`` (canonical human form, e.g.
  ``T+strict``), ``max_states`` (the position budget of every solve), ``optimal`` (``0``/``1``),
  ``deals`` (the range the last run asked for, ``A-B``) and ``created_by`` (pyramide's version).
  The first four are the store's *identity*: rows are only comparable under the same ones, so a
  run, a resume or a merge with another identity is refused.
* ``deals``: ``number`` (primary key), ``rules``, ``verdict`` (``winnable``/``unwinnable``/
  ``unknown``), ``positions`` (positions explored), ``max_pyramid_removed``, ``max_removed``
  (unwinnable only, else NULL), ``optimal_actions`` (the fewest actions of a win, only in a store
  made with ``--optimal``, else NULL), ``solver_version``.

Writers take ``<store>.lock`` (the save files' lock) so two runs never fill one store; readers
need no lock.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Self

from ..engine.errors import PyramideError, quoted, quoted_name
from ..engine.text import joined, plural, text
from ..versions import PACKAGE_VERSION, SURVEY_STORE_FORMAT
from .files import FileAccessError, SaveLock, describe_os_error, doing_text, fsync_folder

STORE_FORMAT = SURVEY_STORE_FORMAT
"""The layout version written in ``PRAGMA user_version``; a newer one is refused ("upgrade")."""
APPLICATION_ID = 0x50595253  # "PYRS": tells a pyramide store from any other SQLite file
DEFAULT_BATCH_ROWS = 1000
DEFAULT_BATCH_SECONDS = 1.0
VERDICTS = ("winnable", "unwinnable", "unknown")

_SCHEMA = f"""
CREATE TABLE store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE deals (
    number INTEGER PRIMARY KEY,
    rules TEXT NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN {VERDICTS!r}),
    positions INTEGER NOT NULL,
    max_pyramid_removed INTEGER,
    max_removed INTEGER,
    optimal_actions INTEGER,
    solver_version INTEGER NOT NULL
);
"""
_COLUMNS = "number, rules, verdict, positions, max_pyramid_removed, max_removed, optimal_actions, solver_version"
_INSERT = f"INSERT INTO deals ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"


class StoreError(PyramideError):
    """A file that is not a usable survey store (not one, damaged, from a newer pyramide)."""


class StoreMismatchError(StoreError):
    """A store whose identity (solver version, rules, budget, optimal) is not the one asked for."""


class StoreConflictError(StoreError):
    """Two stores give different results for the same deal: a merge is refused whole."""


@dataclass(frozen=True, slots=True)
class StoreIdentity:
    """What must be equal for two rows to be counted together."""

    solver_version: int
    rules: str
    max_states: int
    optimal: bool

    def differences(self, other: StoreIdentity) -> list[tuple[str, str, str]]:
        """``[("rules", "T", "N"), …]``: (what, ``self``'s, ``other``'s) for each setting that differs."""
        pairs = ((text("solver version"), self.solver_version, other.solver_version),
                 (text("rules"), self.rules, other.rules),
                 ("--max-states", self.max_states, other.max_states),
                 ("--optimal", "on" if self.optimal else "off", "on" if other.optimal else "off"))
        return [(name, str(mine), str(theirs)) for name, mine, theirs in pairs if mine != theirs]


class StoredDeal(NamedTuple):
    """One row of ``deals`` (a tuple, so batches go to ``executemany`` as they are)."""

    number: int
    rules: str
    verdict: str
    positions: int
    max_pyramid_removed: int | None
    max_removed: int | None
    optimal_actions: int | None
    solver_version: int


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode={'ro' if read_only else 'rw'}"
    try:
        connection = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10.0)
    except sqlite3.OperationalError as error:
        raise FileAccessError(text("cannot open {name!r}: {reason}", name=str(path), reason=str(error))) from None
    return connection


def _database_error(path: Path, error: sqlite3.Error, doing: str) -> PyramideError:
    """One clear error for a failed SQLite call (a full disk or a lock is the file's, not the store's)."""
    reason = str(error)
    if isinstance(error, sqlite3.OperationalError) and any(
        word in reason for word in ("disk", "locked", "readonly", "unable to open", "I/O")
    ):
        return FileAccessError(text("cannot {doing} {name!r}: {reason}", doing=doing_text(doing), name=str(path),
                                    reason=reason))
    return StoreError(text("cannot {doing} {name!r}: {reason} (not a pyramide survey store, or damaged)",
                           doing=doing_text(doing), name=str(path), reason=reason))


class SurveyStore:
    """An open store.  Build with :meth:`create` or :meth:`open`; close (or use ``with``) when done."""

    def __init__(self, path: Path, connection: sqlite3.Connection, identity: StoreIdentity,
                 lock: SaveLock | None) -> None:
        self.path = path
        self.identity = identity
        self._connection = connection
        self._lock = lock

    # -- opening ----------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: Path | str, identity: StoreIdentity, deals: str = "") -> SurveyStore:
        """A new, empty store at ``path`` (refused if anything is there), open for writing.

        The file is built under a temporary name and renamed into place, so a crash never leaves a
        half-made store behind."""
        path = Path(path)
        lock = SaveLock(path, timeout=0).__enter__()
        try:
            if path.exists() or path.is_symlink():
                raise FileAccessError(text("{name!r} already exists: add --resume to continue that survey, "
                                           "or name another store", name=str(path)))
            temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
            try:
                connection = sqlite3.connect(temporary, isolation_level=None)
                try:  # a half-built temporary file is thrown away, so no journal and one fsync at the end
                    info = {"solver_version": str(identity.solver_version), "rules": identity.rules,
                            "max_states": str(identity.max_states), "optimal": "1" if identity.optimal else "0",
                            "deals": deals, "created_by": f"pyramide {PACKAGE_VERSION}"}
                    connection.executescript(
                        f"PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
                        f"PRAGMA application_id = {APPLICATION_ID};"
                        f"PRAGMA user_version = {STORE_FORMAT}; BEGIN; {_SCHEMA}"
                    )
                    connection.executemany("INSERT INTO store_info VALUES (?, ?)", info.items())
                    connection.execute("COMMIT")
                finally:
                    connection.close()
                with open(temporary, "rb+") as handle:
                    os.fsync(handle.fileno())
                os.replace(temporary, path)
                fsync_folder(path.parent)
            except OSError as error:
                raise FileAccessError(describe_os_error(error, path, "create the store")) from None
            except sqlite3.Error as error:
                raise _database_error(path, error, "create the store") from None
            finally:
                if temporary.exists():
                    temporary.unlink()
            return cls._opened(path, lock)
        except BaseException:
            lock.__exit__(None, None, None)
            raise

    @classmethod
    def open(cls, path: Path | str, writable: bool = False) -> SurveyStore:
        """An existing store; ``writable`` takes its lock (refused at once if a run holds it)."""
        path = Path(path)
        if not path.is_file():
            if path.exists():
                raise FileAccessError(text("survey store {name!r} is not a file", name=str(path)))
            raise FileAccessError(text("survey store {name!r} does not exist", name=str(path)))
        lock = SaveLock(path, timeout=0).__enter__() if writable else None
        try:
            return cls._opened(path, lock)
        except BaseException:
            if lock is not None:
                lock.__exit__(None, None, None)
            raise

    @classmethod
    def _opened(cls, path: Path, lock: SaveLock | None) -> SurveyStore:
        connection = _connect(path, read_only=lock is None)
        try:
            application, version = (connection.execute(f"PRAGMA {name}").fetchone()[0]
                                    for name in ("application_id", "user_version"))
            if application != APPLICATION_ID:
                raise StoreError(text("{name!r} is not a pyramide survey store", name=str(path)))
            if version > STORE_FORMAT:
                raise StoreError(text("{name!r} is a survey store of format {version}, newer than this pyramide "
                                      "reads ({known}): upgrade pyramide", name=str(path), version=version,
                                      known=STORE_FORMAT))
            if version != STORE_FORMAT:
                raise StoreError(text("{name!r} has an unknown store format {version}", name=str(path),
                                      version=version))
            info = dict(connection.execute("SELECT key, value FROM store_info").fetchall())
            identity = StoreIdentity(int(info["solver_version"]), info["rules"], int(info["max_states"]),
                                     info["optimal"] == "1")
            _check_rules(path, identity.rules)
            if lock is not None:
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute("PRAGMA synchronous = NORMAL")
        except (KeyError, ValueError):
            connection.close()
            raise StoreError(text("{name!r}: its store_info table is damaged", name=str(path))) from None
        except sqlite3.Error as error:
            connection.close()
            raise _database_error(path, error, "read") from None
        except BaseException:
            connection.close()
            raise
        return cls(path, connection, identity, lock)

    def close(self) -> None:
        """Close; a writer also turns the write-ahead log back into a plain file (best effort: not
        while a reader has the store open), so a finished store is one file to copy or read anywhere."""
        if self._lock is not None:
            try:
                self._connection.execute("PRAGMA journal_mode = DELETE")
            except sqlite3.Error:
                pass
        self._connection.close()
        if self._lock is not None:
            self._lock.__exit__(None, None, None)
            self._lock = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- identity and bookkeeping -----------------------------------------------------------------
    def check(self, wanted: StoreIdentity) -> None:
        """Refuse (``StoreMismatchError``) unless the store was made with ``wanted``'s identity."""
        differences = self.identity.differences(wanted)
        if differences:
            held = joined(text("{setting} {value}", setting=name, value=mine) for name, mine, _ in differences)
            asked = joined(text("{setting} {value}", setting=name, value=theirs) for name, _, theirs in differences)
            raise StoreMismatchError(text("{name!r} holds results of {held}, not {asked}: use a new store for these "
                                          "settings", name=str(self.path), held=held, asked=asked))

    def info(self, key: str) -> str | None:
        row = self._query("SELECT value FROM store_info WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def set_info(self, key: str, value: str) -> None:
        self._write(lambda c: c.execute("INSERT OR REPLACE INTO store_info VALUES (?, ?)", (key, value)), "write")

    # -- reading ----------------------------------------------------------------------------------
    def count(self, numbers: range | None = None) -> int:
        """How many deals are stored (within ``numbers``, a step-1 range, when given)."""
        if numbers is None:
            return self._query("SELECT COUNT(*) FROM deals").fetchone()[0]
        return self._query("SELECT COUNT(*) FROM deals WHERE number BETWEEN ? AND ?",
                           (numbers.start, numbers.stop - 1)).fetchone()[0]

    def missing(self, numbers: range, window: int = 65_536) -> Iterator[int]:
        """The deal numbers of ``numbers`` not stored yet, in order.

        Read a window at a time, each query finished at once: no set of 100 M numbers in memory,
        and no read left open while batches are committed."""
        for start in range(numbers.start, numbers.stop, window):
            stop = min(start + window, numbers.stop)
            stored = {row[0] for row in self._query("SELECT number FROM deals WHERE number BETWEEN ? AND ?",
                                                    (start, stop - 1))}
            yield from (number for number in range(start, stop) if number not in stored)

    def rows(self) -> list[StoredDeal]:
        """Every row, by deal number (for tests and small stores)."""
        return [StoredDeal(*row) for row in self._query(f"SELECT {_COLUMNS} FROM deals ORDER BY number")]

    def span(self) -> tuple[int, int | None, int | None]:
        """How many deals, the first and the last deal number."""
        return self._query("SELECT COUNT(*), MIN(number), MAX(number) FROM deals").fetchone()

    def verdict_counts(self) -> dict[str, int]:
        """How many deals have each verdict (every verdict present, 0 when none)."""
        counts = dict.fromkeys(VERDICTS, 0)
        counts.update(self._query("SELECT verdict, COUNT(*) FROM deals GROUP BY verdict").fetchall())
        return counts

    def position_counts(self) -> list[tuple[int, int]]:
        """(positions explored, how many deals) by increasing positions: all a report needs of the
        rows, in one SQL pass and plain tuples (a 1 M-row store has some 300,000 distinct values).
        A count that is not a whole number (a damaged store) is a :class:`StoreError`."""
        counts = self._query("SELECT positions, COUNT(*) FROM deals GROUP BY positions ORDER BY positions").fetchall()
        for positions, _ in counts:
            if type(positions) is not int or positions < 0:
                raise StoreError(text("{name}: damaged: a deal's positions explored is {value}, not a whole number",
                                      name=quoted_name(self.path), value=quoted(positions)))
        return counts

    # -- writing ----------------------------------------------------------------------------------
    def writer(self, batch_rows: int | None = None, batch_seconds: float | None = None,
               on_commit: Callable[[int], None] | None = None) -> BatchWriter:
        return BatchWriter(self, DEFAULT_BATCH_ROWS if batch_rows is None else batch_rows,
                           DEFAULT_BATCH_SECONDS if batch_seconds is None else batch_seconds, on_commit)

    def insert(self, rows: Iterable[StoredDeal]) -> int:
        """Add rows in one transaction (all or none); refuses a deal already stored."""
        batch = list(rows)
        for row in batch:
            if (row.rules, row.solver_version) != (self.identity.rules, self.identity.solver_version):
                raise StoreMismatchError(text(
                    "deal {number} was solved with rules {rules}, solver version {version}; {name!r} holds "
                    "{store_rules}, solver version {store_version}", number=row.number, rules=row.rules,
                    version=row.solver_version, name=str(self.path), store_rules=self.identity.rules,
                    store_version=self.identity.solver_version))
        try:
            self._write(lambda c: c.executemany(_INSERT, batch), "write to")
        except StoreError as error:
            if "UNIQUE" in str(error):
                raise StoreError(text("{name!r}: a deal of this batch is already stored; nothing of the batch was "
                                      "written", name=str(self.path))) from None
            raise
        return len(batch)

    def merge(self, source: SurveyStore) -> tuple[int, int]:
        """Copy ``source``'s rows in (one transaction); returns (added, already here).

        Refused whole when the identities differ or when a deal is stored in both with different
        results (``StoreConflictError`` names the first such deal and how many there are)."""
        if source.path.resolve() == self.path.resolve():
            raise StoreError(text("cannot merge {name!r} into itself", name=str(self.path)))
        differences = self.identity.differences(source.identity)
        if differences:
            listed = joined(text("{setting} ({mine} here, {theirs} there)", setting=name, mine=mine, theirs=theirs)
                            for name, mine, theirs in differences)
            raise StoreMismatchError(text("cannot merge {source!r} into {name!r}: they differ in {listed}",
                                          source=str(source.path), name=str(self.path), listed=listed))
        differs = " OR ".join(f"d.{name} IS NOT s.{name}" for name in _COLUMNS.split(", ")[1:])
        connection = self._connection
        try:
            connection.execute("ATTACH DATABASE ? AS source", (f"{source.path.resolve().as_uri()}?mode=ro",))
        except sqlite3.Error as error:
            raise _database_error(source.path, error, "read") from None
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                clashes, first = connection.execute(
                    f"SELECT COUNT(*), MIN(s.number) FROM source.deals s JOIN main.deals d USING (number) "
                    f"WHERE {differs}").fetchone()
                if clashes:
                    mine, theirs = (connection.execute(f"SELECT verdict, positions FROM {db}.deals WHERE number = ?",
                                                       (first,)).fetchone() for db in ("main", "source"))
                    raise StoreConflictError(plural(
                        "cannot merge {source!r} into {name!r}: {count} deal has different results in the two "
                        "stores, deal {first} ({mine}, {mine_positions} positions here; {theirs}, "
                        "{their_positions} there); nothing was merged",
                        "cannot merge {source!r} into {name!r}: {count} deals have different results in the two "
                        "stores, the first is deal {first} ({mine}, {mine_positions} positions here; {theirs}, "
                        "{their_positions} there); nothing was merged", clashes, source=str(source.path),
                        name=str(self.path), first=first, mine=mine[0], mine_positions=mine[1], theirs=theirs[0],
                        their_positions=theirs[1]))
                before = connection.execute("SELECT COUNT(*) FROM main.deals").fetchone()[0]
                incoming = connection.execute("SELECT COUNT(*) FROM source.deals").fetchone()[0]
                connection.execute(f"INSERT OR IGNORE INTO main.deals ({_COLUMNS}) SELECT {_COLUMNS} FROM source.deals")
                added = connection.execute("SELECT COUNT(*) FROM main.deals").fetchone()[0] - before
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise _database_error(self.path, error, "merge into") from None
        finally:
            connection.execute("DETACH DATABASE source")
        return added, incoming - added

    # -- helpers ----------------------------------------------------------------------------------
    def _query(self, sql: str, parameters: tuple = ()) -> sqlite3.Cursor:
        try:
            return self._connection.execute(sql, parameters)
        except sqlite3.Error as error:
            raise _database_error(self.path, error, "read") from None

    def _write(self, action: Callable[[sqlite3.Connection], object], doing: str) -> None:
        connection = self._connection
        try:
            connection.execute("BEGIN IMMEDIATE")
            try:
                action(connection)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise _database_error(self.path, error, doing) from None


def _check_rules(path: Path, rules: str) -> None:
    """A store's rules must be rules, in their canonical form (a damaged store is a bad file, exit 4)."""
    from ..engine.errors import RulesError
    from ..engine.rules import Rules

    try:
        canonical = Rules.parse(rules).name
    except RulesError as error:
        raise StoreError(text("{name}: its store_info table is damaged: rules {rules}: {reason}",
                              name=quoted_name(path), rules=quoted(rules), reason=str(error))) from None
    if canonical != rules:
        raise StoreError(text("{name}: its store_info table is damaged: rules {rules} are not written as {canonical}",
                              name=quoted_name(path), rules=quoted(rules), canonical=canonical))


class BatchWriter:
    """Rows gathered and committed together: every ``batch_rows`` rows or ``batch_seconds``, and at
    :meth:`commit`.  A crash loses at most the rows not committed yet; ``--resume`` solves them again."""

    def __init__(self, store: SurveyStore, batch_rows: int, batch_seconds: float,
                 on_commit: Callable[[int], None] | None) -> None:
        self.store = store
        self.batch_rows = batch_rows
        self.batch_seconds = batch_seconds
        self.on_commit = on_commit
        self.committed = 0
        self._pending: list[StoredDeal] = []
        self._last = time.monotonic()

    def add(self, row: StoredDeal) -> None:
        self._pending.append(row)
        if len(self._pending) >= self.batch_rows or time.monotonic() - self._last >= self.batch_seconds:
            self.commit()

    def commit(self) -> None:
        """Write the pending rows in one transaction (nothing happens when there are none)."""
        self._last = time.monotonic()
        if not self._pending:
            return
        written = self.store.insert(self._pending)
        self._pending = []
        self.committed += written
        if self.on_commit is not None:
            self.on_commit(written)
