"""Statistics: every finished game, recorded once, in a small SQLite database (R19 ranks games by
time and moves "in the statistics").

Where: ``stats.sqlite3`` in the user's data folder — ``$PYRAMIDE_HOME`` when set, else
``$XDG_DATA_HOME/pyramide`` (``~/.local/share/pyramide``) on Linux and other Unix systems,
``~/Library/Application Support/pyramide`` on macOS, ``%LOCALAPPDATA%\\pyramide`` on Windows.
``pyramide play --db FILE`` and ``pyramide stats --db FILE`` name another file.

When: :func:`pyramide_cli.storage.session.play_words` records a game in the batch that ends it
(won, lost, dead or resigned), after the save is written, while it still holds the save's lock —
a game ends once, so it is recorded once there.  Every record also carries a key made from the
deal, the history and the time played: when a finished save is kept
(:mod:`pyramide_cli.storage.archive`), its game is recorded only if no record has that key, which
catches a game whose end was never recorded (the database was damaged then, or a format-1 save
ended only under the current rules).

Safety: the database is only ever a side record.  Recording never raises: a database that is
damaged, written by a newer pyramide, locked for too long or unwritable gives one warning line
(:func:`record_game` returns it) and the game goes on; the save is written before and never
depends on it.  SQLite in WAL mode with a busy timeout lets several processes record at once.

Schema (``PRAGMA user_version`` = :data:`SCHEMA_VERSION`): one table ``games``, see :data:`_SCHEMA`.
A newer version is refused ("upgrade pyramide"); older versions will be migrated in place.
"""

from __future__ import annotations

import datetime
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.errors import PyramideError, quoted, quoted_name
from ..engine.level import LEVELS, Level
from ..engine.moves import MoveKind
from ..engine.text import message_of, text
from .places import default_db_path

if TYPE_CHECKING:
    import sqlite3

    from ..engine.game import Game
    from .save import SaveData

SCHEMA_VERSION = 1
BUSY_TIMEOUT = 10.0
"""Seconds a writer waits for another one (SQLite's busy timeout); a record is a few milliseconds."""
RESULTS = ("won", "lost")
TERMINATIONS = ("cleared", "no-moves", "dead", "resigned")
COLUMNS = ("finished_at", "deal", "rules", "level", "daily", "result", "termination", "score", "moves",
           "time_played", "hints", "undos", "source")
"""The columns of a record as ``--csv`` and ``--json`` give them (the key is internal)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    key         TEXT NOT NULL,          -- deal, history and time played, hashed (the same game, the same key)
    finished_at TEXT NOT NULL,          -- UTC, ISO 8601 (2026-11-30T21:14:05Z)
    deal        TEXT NOT NULL,          -- the deal code
    rules       TEXT NOT NULL,          -- the rules in words (T+strict)
    level       TEXT,                   -- easy | medium | hard | expert, or NULL
    daily       TEXT,                   -- the date of a daily deal (YYYY-MM-DD), or NULL
    result      TEXT NOT NULL,          -- won | lost
    termination TEXT NOT NULL,          -- cleared | no-moves | dead | resigned
    score       INTEGER NOT NULL,
    moves       INTEGER NOT NULL,       -- the move counter (R19)
    time_played REAL NOT NULL,          -- seconds (R19)
    hints       INTEGER NOT NULL,       -- hints given at the play prompt
    undos       INTEGER NOT NULL,       -- undo actions in the history
    source      TEXT NOT NULL           -- play, or what recorded it (tournament, serve …)
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (finished_at, id);
CREATE INDEX IF NOT EXISTS games_by_key ON games (key);
"""


class StatsError(PyramideError):
    """The statistics database cannot be used.  ``kind``: ``damaged`` or ``newer`` (a bad file, exit 4
    for ``pyramide stats``), ``access`` (cannot open, write or lock it: exit 5)."""

    def __init__(self, message: str, kind: str = "damaged") -> None:
        super().__init__(message)
        self.kind = kind

    @property
    def bad_file(self) -> bool:
        return self.kind != "access"


# -- what ----------------------------------------------------------------------------------------
def now_utc() -> str:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class GameRecord:
    """One finished game as the statistics keep it."""

    key: str
    deal: str
    rules: str
    result: str
    termination: str
    score: int
    moves: int
    time_played: float
    hints: int = 0
    undos: int = 0
    level: str | None = None
    daily: str | None = None
    finished_at: str = field(default_factory=now_utc)
    source: str = "play"

    @classmethod
    def of_game(cls, game: Game, data: SaveData | None = None, source: str = "play",
                finished_at: str | None = None, key: str | None = None) -> GameRecord:
        """The record of a finished ``game``; ``data`` (its save) adds the level, daily date, time and hints.

        ``key`` defaults to a hash of the deal, the history and the time played (the same game gives
        the same key); a caller may pass its own.
        """
        history = [str(move) for move in game.history]
        time_played = 0.0 if data is None else round(float(data.time_played), 1)
        if key is None:
            import hashlib

            digest = hashlib.sha256(f"{game.deal.code}|{' '.join(history)}|{time_played:.1f}".encode())
            key = digest.hexdigest()[:32]
        return cls(
            key=key, deal=game.deal.code, rules=game.deal.rules.name, result=game.outcome.value,
            termination=termination_of(game), score=game.score, moves=game.move_count, time_played=time_played,
            hints=0 if data is None else data.hints,
            undos=sum(1 for move in game.history if move.kind is MoveKind.UNDO),
            level=None if data is None or data.level is None else Level(data.level).value,
            daily=None if data is None else data.daily,
            finished_at=finished_at or now_utc(), source=source,
        )

    def row(self) -> dict[str, Any]:
        """The record's columns (:data:`COLUMNS`), for CSV and JSON."""
        values = asdict(self)
        return {column: values[column] for column in COLUMNS}


def termination_of(game: Game) -> str:
    """Why a finished game ended: ``cleared`` (won), ``no-moves`` (R17), ``dead`` or ``resigned``."""
    termination = game.termination
    if termination is None:
        raise ValueError(f"the game of {game.deal.code} has not ended: there is nothing to record")
    return termination.value


# -- the database --------------------------------------------------------------------------------
class StatsDB:
    """The statistics database at ``path`` (created on the first record)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_db_path()

    def _describe(self, error: Exception) -> StatsError:
        import sqlite3

        where = quoted_name(self.path)
        if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
            return StatsError(text("the statistics database {name} stayed locked by another process", name=where),
                              "access")
        if isinstance(error, sqlite3.OperationalError) and "unable to open" in str(error):
            return StatsError(text("cannot open the statistics database {name}", name=where), "access")
        if isinstance(error, OSError):
            from .files import describe_os_error

            return StatsError(describe_os_error(error, error.filename or where, "write"), "access")
        if isinstance(error, sqlite3.DatabaseError):
            return StatsError(text("the statistics database {name} is damaged ({reason}); "
                                   "`pyramide stats --reset` sets it aside and starts a new one", name=where,
                                   reason=str(error)))
        return StatsError(text("the statistics database {name}: {reason}", name=where, reason=message_of(error)))

    def _connect(self, create: bool) -> sqlite3.Connection | None:
        """An open connection with the schema in place, or ``None`` when there is no database and
        ``create`` is false.  Raises :class:`StatsError`."""
        import sqlite3

        if not create and not self.path.exists():
            return None
        connection = None
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StatsError(text(
                    "the statistics database {name} was written by a newer pyramide (format "
                    "{version}; this one reads format {known} and older): upgrade pyramide",
                    name=quoted_name(self.path), version=version, known=SCHEMA_VERSION), "newer")
            if version < SCHEMA_VERSION:
                if not create:
                    return _closed(connection)
                self._create(connection)
            return connection
        except StatsError:
            _closed(connection)
            raise
        except (sqlite3.Error, OSError) as error:
            _closed(connection)
            raise self._describe(error) from None

    def _create(self, connection: sqlite3.Connection) -> None:
        """Set up an empty (or older) database; safe when several processes do it at once."""
        if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("BEGIN IMMEDIATE")
        try:
            if connection.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def record(self, record: GameRecord, if_new: bool = False) -> bool:
        """Store ``record``; with ``if_new``, only when no record has its key.  True when it was stored.
        Raises :class:`StatsError`."""
        import sqlite3

        connection = self._connect(create=True)
        assert connection is not None
        try:
            names = ("key", *COLUMNS)
            values = asdict(record)
            condition = " WHERE NOT EXISTS (SELECT 1 FROM games WHERE key = ?)" if if_new else ""
            cursor = connection.execute(
                f"INSERT INTO games ({', '.join(names)}) SELECT {', '.join('?' * len(names))}{condition}",
                [values[name] for name in names] + ([record.key] if if_new else []))
            return cursor.rowcount == 1
        except (sqlite3.Error, OverflowError) as error:  # OverflowError: a number past SQLite's 64 bits
            raise self._describe(error) from None
        finally:
            connection.close()

    def games(self) -> list[GameRecord]:
        """Every recorded game, oldest first (an empty list when there is no database yet)."""
        import sqlite3

        connection = self._connect(create=False)
        if connection is None:
            return []
        try:
            names = ("key", *COLUMNS)
            rows = connection.execute(f"SELECT {', '.join(names)} FROM games ORDER BY finished_at, id").fetchall()
        except sqlite3.Error as error:
            raise self._describe(error) from None
        finally:
            connection.close()
        return [self._record(dict(zip(names, row, strict=True))) for row in rows]

    def _record(self, values: dict[str, Any]) -> GameRecord:
        """A row as a record, checked: a value of the wrong type (text in ``time_played``, a blob in
        ``rules``, an infinite time) or text a terminal would act on (escape sequences) makes the
        database damaged (exit 4), never a traceback or raw control characters in the report."""
        for column, value in values.items():
            problem = _column_problem(column, value)
            if problem is not None:
                raise StatsError(text(
                    "the statistics database {name} is damaged (a game's {column} is {value}: {problem}); "
                    "`pyramide stats --reset` sets it aside and starts a new one", name=quoted_name(self.path),
                    column=column, value=_shown_value(value),
                    problem=problem))
        return GameRecord(**values)

    def reset(self) -> int:
        """Delete every record; returns how many there were.  A damaged file is set aside, not deleted
        (renamed ``stats.sqlite3.damaged-<time>``), and a new database starts."""
        try:
            count = len(self.games())
        except StatsError as error:
            if error.kind != "damaged":
                raise
            return self._set_aside()
        import sqlite3

        connection = self._connect(create=False)
        if connection is None:
            return 0
        try:
            connection.execute("DELETE FROM games")
            connection.execute("VACUUM")
        except sqlite3.Error as error:
            raise self._describe(error) from None
        finally:
            connection.close()
        return count

    def _set_aside(self) -> int:
        stamp = now_utc().replace(":", "").replace("-", "")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                try:
                    os.replace(source, f"{self.path}.damaged-{stamp}{suffix}")
                except OSError as error:
                    raise self._describe(error) from None
        return 0


_COUNT_COLUMNS = ("score", "moves", "hints", "undos")


def _shown_value(value: object) -> str:
    if value is None:
        return "null"
    return text("a blob") if isinstance(value, bytes) else quoted(value)


def _column_problem(column: str, value: object) -> str | None:
    """What is wrong with a stored value (``None`` when nothing is)."""
    if column in _COUNT_COLUMNS:
        return None if type(value) is int and value >= 0 else text("not a whole number 0 or more")
    if column == "time_played":
        fine = type(value) in (int, float) and math.isfinite(value) and value >= 0  # type: ignore[arg-type]
        return None if fine else text("not a number of seconds")
    if value is None and column in ("level", "daily"):
        return None
    if not isinstance(value, str):
        return text("not text")
    if not value.isprintable():
        return text("control characters")
    if column == "level" and value not in {level.value for level in LEVELS}:
        return text("not a level")
    if column == "result" and value not in RESULTS:
        return text("not a result")
    if column == "termination" and value not in TERMINATIONS:
        return text("not a way a game ends")
    return None


def _closed(connection: Any) -> None:
    if connection is not None:
        connection.close()


def record_game(db: StatsDB, record: GameRecord, if_new: bool = False) -> str | None:
    """Record a finished game (see :meth:`StatsDB.record`); never raises.  Returns a warning line when
    the record could not be made."""
    try:
        db.record(record, if_new)
    except StatsError as error:
        return text("warning: this game was not counted in the statistics: {reason}", reason=message_of(error))
    return None


# -- summaries -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Group:
    """The games of one rules-and-level pair."""

    rules: str
    level: str | None
    played: int
    won: int
    best_time: float | None
    """The shortest time of a won game that was timed (games played only as arguments take 0 s)."""
    fewest_moves: int | None

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


@dataclass(frozen=True)
class Summary:
    played: int
    won: int
    current_streak: int
    """Wins in a row up to the latest game (0 when it was lost)."""
    best_streak: int
    daily_done: int
    """Daily deals (dates) with a finished game."""
    daily_won: int
    groups: list[Group]
    games: list[GameRecord]
    """Oldest first."""

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


def summarize(games: Sequence[GameRecord]) -> Summary:
    """Counts, streaks, bests per rules and level, and daily deals of ``games`` (oldest first)."""
    won = [game.result == "won" for game in games]
    best = current = 0
    for win in won:
        current = current + 1 if win else 0
        best = max(best, current)
    groups: dict[tuple[str, str | None], list[GameRecord]] = {}
    for game in games:
        groups.setdefault((game.rules, game.level), []).append(game)
    summaries = []
    for (rules, level), members in sorted(groups.items(), key=lambda item: (item[0][0], _level_order(item[0][1]))):
        wins = [game for game in members if game.result == "won"]
        timed = [game.time_played for game in wins if game.time_played > 0]
        summaries.append(Group(rules, level, len(members), len(wins), min(timed) if timed else None,
                               min((game.moves for game in wins), default=None)))
    daily_dates = {game.daily for game in games if game.daily}
    daily_won = {game.daily for game in games if game.daily and game.result == "won"}
    return Summary(len(games), sum(won), current, best, len(daily_dates), len(daily_won), summaries, list(games))


def _level_order(level: str | None) -> int:
    """No level first, then easiest to hardest."""
    values = [known.value for known in LEVELS]
    return values.index(level) + 1 if level in values else 0


def filtered(games: Iterable[GameRecord], rules: str | None = None, level: str | None = None) -> list[GameRecord]:
    return [game for game in games if (rules is None or game.rules == rules) and (level is None or game.level == level)]
