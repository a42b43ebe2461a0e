"""The statistics database (pyramide_cli/storage/stats.py, places.py): where, once, safe, summaries."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from cli_support import WON_N_CODE, WON_N_LINE, game_of, make_save

from pyramide_cli.storage.places import data_home
from pyramide_cli.storage.save import load_game
from pyramide_cli.storage.session import play_words
from pyramide_cli.storage.stats import GameRecord, StatsDB, StatsError, filtered, record_game, summarize

HOME = Path("/home/ann")


@pytest.mark.parametrize(("environ", "platform", "expected"), [
    ({}, "linux", HOME / ".local/share/pyramide"),
    ({"XDG_DATA_HOME": "/data"}, "linux", Path("/data/pyramide")),
    ({"XDG_DATA_HOME": "relative/ignored"}, "linux", HOME / ".local/share/pyramide"),
    ({}, "darwin", HOME / "Library/Application Support/pyramide"),
    ({"LOCALAPPDATA": "C:/Users/ann/AppData/Local"}, "win32", Path("C:/Users/ann/AppData/Local/pyramide")),
    ({"PYRAMIDE_HOME": "/elsewhere", "XDG_DATA_HOME": "/data"}, "linux", Path("/elsewhere")),
    ({"PYRAMIDE_HOME": "/elsewhere"}, "darwin", Path("/elsewhere")),
])
def test_the_data_folder_of_each_platform(environ: dict[str, str], platform: str, expected: Path) -> None:
    assert data_home(environ, platform, HOME) == expected


def record(number: int = 0, result: str = "won", **fields: object) -> GameRecord:
    won = result == "won"
    values: dict[str, object] = {
        "key": f"k{number}", "deal": f"PY1-N-AAAAAA{'ABCDEFGHIJ'[number % 10]}", "rules": "N", "result": result,
        "termination": "cleared" if won else "no-moves", "score": 280 if won else 70, "moves": 70 + number,
        "time_played": 60.0 + number, "finished_at": f"2026-11-{10 + number // 5:02d}T12:{number % 60:02d}:00Z"}
    values.update(fields)
    return GameRecord(**values)  # type: ignore[arg-type]


def test_a_record_is_stored_once_and_read_back(tmp_path: Path) -> None:
    database = StatsDB(tmp_path / "deep" / "folder" / "stats.sqlite3")
    assert database.games() == [] and not database.path.exists()  # reading creates nothing
    first = record(1, hints=2, undos=3, level="hard", daily="2026-11-11")
    assert database.record(first) is True
    assert database.record(first, if_new=True) is False  # the same game, seen again when it is kept
    assert database.games() == [first]
    assert database.record(first) is True and len(database.games()) == 2  # two games alike, both ended
    with sqlite3.connect(database.path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA user_version").fetchone()[0] == 1


def test_a_game_that_ends_in_play_words_is_recorded_once(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])
    database = StatsDB(tmp_path / "stats.sqlite3")
    assert play_words(path, [], stats=database).ended is False and database.games() == []
    result = play_words(path, [WON_N_LINE[-1]], stats=database)
    assert result.ended and result.warnings == []
    assert play_words(path, [], stats=database).ended is False  # seen again: not a new end
    [game] = database.games()
    saved = load_game(path).data
    assert (game.deal, game.rules, game.result, game.termination) == (WON_N_CODE, "N", "won", "cleared")
    assert (game.score, game.moves, game.undos, game.hints, game.source) == (280, saved.moves, 0, 0, "play")
    assert GameRecord.of_game(load_game(path).game, saved).key == game.key  # the same game, the same key


def test_without_a_database_play_words_records_nothing(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])
    assert play_words(path, [WON_N_LINE[-1]]).ended


def test_undos_are_counted_from_the_history() -> None:
    game = game_of(WON_N_CODE, "KC", "undo", "KC", "KH", "undo", "resign")
    record = GameRecord.of_game(game)
    assert (record.undos, record.result, record.termination) == (2, "lost", "resigned")
    with pytest.raises(ValueError):
        GameRecord.of_game(game_of(WON_N_CODE, "KC"))  # a game not over has nothing to record


@pytest.mark.parametrize("content", [b"this is not a database, only some bytes" * 100,
                                     b"SQLite format 3\x00" + b"\xff" * 200])
def test_a_damaged_database_is_one_warning_and_the_save_is_written(tmp_path: Path, content: bytes) -> None:
    database = tmp_path / "stats.sqlite3"
    database.write_bytes(content)
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])
    result = play_words(path, [WON_N_LINE[-1]], stats=database)
    assert result.written and load_game(path).data.status.value == "won"
    [warning] = result.warnings
    assert warning.startswith("warning: this game was not counted in the statistics: ") and "damaged" in warning
    assert "\n" not in warning and database.read_bytes() == content  # the damaged file is left alone
    with pytest.raises(StatsError) as error:
        StatsDB(database).games()
    assert error.value.kind == "damaged"


def test_a_newer_database_is_refused_and_kept(tmp_path: Path) -> None:
    database = StatsDB(tmp_path / "stats.sqlite3")
    database.record(record(1))
    with sqlite3.connect(database.path) as connection:
        connection.execute("PRAGMA user_version = 7")
    warning = record_game(database, record(2))
    assert warning is not None and "newer pyramide" in warning and "upgrade pyramide" in warning
    with pytest.raises(StatsError) as error:
        database.reset()
    assert error.value.kind == "newer"
    with sqlite3.connect(database.path) as connection:
        assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_an_unwritable_place_is_a_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where a folder should be")
    warning = record_game(StatsDB(blocker / "stats.sqlite3"), record(1))
    assert warning is not None and "not counted" in warning and "\n" not in warning


def test_reset_deletes_the_records_and_sets_a_damaged_file_aside(tmp_path: Path) -> None:
    database = StatsDB(tmp_path / "stats.sqlite3")
    for number in range(3):
        database.record(record(number))
    assert database.reset() == 3 and database.games() == []
    database.path.write_bytes(b"garbage" * 200)
    assert database.reset() == 0
    assert not database.path.exists() and len(list(tmp_path.glob("stats.sqlite3.damaged-*"))) == 1
    assert database.record(record(9)) is True  # a new database starts


def _record_many(path: str, first: int) -> None:
    database = StatsDB(path)
    for number in range(first, first + 12):
        assert database.record(record(number, key=f"p{number}")) is True


def test_several_processes_record_at_once(tmp_path: Path) -> None:
    path = str(tmp_path / "stats.sqlite3")
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_record_many, args=(path, first)) for first in (0, 100)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert [worker.exitcode for worker in workers] == [0, 0]
    assert len(StatsDB(path).games()) == 24


def test_summary_counts_streaks_bests_and_daily_deals() -> None:
    results = ["won", "won", "lost", "won", "won", "won", "lost", "won"]
    games = [record(number, result) for number, result in enumerate(results)]
    games[3] = record(3, "won", level="hard", time_played=0.0, moves=50)   # untimed: no best time
    games[4] = record(4, "won", level="hard", time_played=45.0, moves=90)
    games[5] = record(5, "won", daily="2026-11-12")
    games[6] = record(6, "lost", daily="2026-11-12")
    games[7] = record(7, "won", daily="2026-11-13", rules="T")
    summary = summarize(games)
    assert (summary.played, summary.won, summary.current_streak, summary.best_streak) == (8, 6, 1, 3)
    assert (summary.daily_done, summary.daily_won) == (2, 2)
    by_key = {(group.rules, group.level): group for group in summary.groups}
    assert list(by_key) == [("N", None), ("N", "hard"), ("T", None)]
    hard = by_key["N", "hard"]
    assert (hard.played, hard.best_time, hard.fewest_moves) == (2, 45.0, 50)
    assert (by_key["N", None].won, by_key["N", None].best_time) == (3, 60.0)
    assert summarize([]).win_rate is None and summarize(games[:3]).current_streak == 0
    assert [game.key for game in filtered(games, rules="N", level="hard")] == ["k3", "k4"]
