"""The survey results store: identity checks, resumable ranges, atomic batches, merges, reports."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pyramide_cli.analysis import stored_survey
from pyramide_cli.analysis.survey import survey
from pyramide_cli.analysis.survey_report import histogram, histogram_bin, position_figures, report_of
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver.version import SOLVER_VERSION
from pyramide_cli.storage.files import FileAccessError
from pyramide_cli.storage.survey_store import (
    STORE_FORMAT,
    StoreConflictError,
    StoredDeal,
    StoreError,
    StoreIdentity,
    StoreMismatchError,
    SurveyStore,
)

T_STORE = StoreIdentity(SOLVER_VERSION, "T", 5_000_000, False)


def row(number: int, verdict: str = "winnable", positions: int = 100, identity: StoreIdentity = T_STORE) -> StoredDeal:
    lost = verdict == "unwinnable"
    return StoredDeal(number, identity.rules, verdict, positions, 10 if lost else None, 20 if lost else None, None,
                      identity.solver_version)


def make_store(path: Path, numbers, identity: StoreIdentity = T_STORE, **verdicts: str) -> Path:
    with SurveyStore.create(path, identity, "0-99") as store:
        store.insert(row(number, verdicts.get(f"d{number}", "winnable"), 100 + number, identity) for number in numbers)
    return path


def test_a_new_store_is_one_file_that_remembers_its_settings(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [1, 2])
    assert sorted(item.name for item in tmp_path.iterdir()) == ["s.db", "s.db.lock", "s.db.queue"]  # no journal
    with SurveyStore.open(path) as store:
        assert store.identity == T_STORE and store.info("deals") == "0-99" and store.count() == 2
    with sqlite3.connect(path) as plain:  # any sqlite3 reads it
        assert plain.execute("PRAGMA user_version").fetchone()[0] == STORE_FORMAT
        assert plain.execute("SELECT number, verdict FROM deals ORDER BY number").fetchall() == [(1, "winnable"),
                                                                                                 (2, "winnable")]


def test_creating_over_an_existing_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    path.write_text("my notes", encoding="utf-8")
    with pytest.raises(FileAccessError, match="already exists: add --resume"):
        SurveyStore.create(path, T_STORE)
    assert path.read_text(encoding="utf-8") == "my notes"


@pytest.mark.parametrize("content, message", [
    (b"not a database at all, but long enough to look like a file" * 20, "not a pyramide survey store"),
    (None, "not a pyramide survey store"),
])
def test_other_files_are_not_stores(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "other.db"
    if content is None:
        with sqlite3.connect(path) as other:
            other.execute("CREATE TABLE t (x)")
    else:
        path.write_bytes(content)
    with pytest.raises(StoreError, match=message):
        SurveyStore.open(path)
    with pytest.raises(FileAccessError, match="does not exist"):
        SurveyStore.open(tmp_path / "missing.db")


def test_a_store_from_a_newer_pyramide_asks_for_an_upgrade(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [1])
    with sqlite3.connect(path) as plain:
        plain.execute(f"PRAGMA user_version = {STORE_FORMAT + 1}")
    with pytest.raises(StoreError, match="upgrade pyramide"):
        SurveyStore.open(path)


def test_settings_that_differ_are_named(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [1])
    with SurveyStore.open(path) as store:
        store.check(T_STORE)
        with pytest.raises(StoreMismatchError, match=f"solver version {SOLVER_VERSION}, rules T, "
                                                      f"not solver version {SOLVER_VERSION + 1}, rules N"):
            store.check(StoreIdentity(SOLVER_VERSION + 1, "N", 5_000_000, False))


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [1])
    with SurveyStore.open(path, writable=True):
        with pytest.raises(FileAccessError, match="locked"):
            SurveyStore.open(path, writable=True)
        with SurveyStore.open(path) as reader:  # reading needs no lock
            assert reader.count() == 1


def test_missing_numbers_skip_the_stored_ones_across_windows(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [0, 3, 4, 9, 10])
    with SurveyStore.open(path) as store:
        assert list(store.missing(range(12), window=4)) == [1, 2, 5, 6, 7, 8, 11]
        assert store.count(range(3, 10)) == 3 and store.span() == (5, 0, 10)


def test_a_batch_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [5])
    with SurveyStore.open(path, writable=True) as store:
        with pytest.raises(StoreError, match="already stored; nothing of the batch"):
            store.insert([row(4), row(5), row(6)])
        with pytest.raises(StoreMismatchError, match="rules N"):
            store.insert([row(7, identity=StoreIdentity(SOLVER_VERSION, "N", 5_000_000, False))])
        assert [item.number for item in store.rows()] == [5]


def test_the_writer_commits_in_batches(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [])
    commits: list[int] = []
    with SurveyStore.open(path, writable=True) as store:
        writer = store.writer(batch_rows=3, batch_seconds=3600, on_commit=commits.append)
        for number in range(7):
            writer.add(row(number))
        assert commits == [3, 3] and store.count() == 6
        writer.commit()
        writer.commit()
        assert commits == [3, 3, 1] and store.count() == 7 and writer.committed == 7


def test_a_writer_killed_in_the_middle_of_a_batch_leaves_the_committed_rows(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", [0, 1])
    script = textwrap.dedent(f"""
        import os, signal
        from pyramide_cli.storage.survey_store import SurveyStore, StoredDeal
        store = SurveyStore.open({str(path)!r}, writable=True)
        connection = store._connection
        connection.execute("BEGIN IMMEDIATE")
        connection.executemany("INSERT INTO deals VALUES (?, 'T', 'winnable', 1, NULL, NULL, NULL, {SOLVER_VERSION})",
                               [(number,) for number in range(2, 500)])
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert completed.returncode == -9, completed.stderr
    with SurveyStore.open(path, writable=True) as store:  # the hot journal is rolled back
        assert [item.number for item in store.rows()] == [0, 1]
        store.insert([row(2)])
        assert store.count() == 3


def test_merging_adds_new_rows_and_keeps_identical_ones(tmp_path: Path) -> None:
    first = make_store(tmp_path / "a.db", [0, 1, 2])
    second = make_store(tmp_path / "b.db", [2, 3])
    with SurveyStore.open(first, writable=True) as target, SurveyStore.open(second) as source:
        assert target.merge(source) == (1, 1)
        assert [item.number for item in target.rows()] == [0, 1, 2, 3]
        with pytest.raises(StoreError, match="into itself"):
            target.merge(target)


def test_merging_conflicting_stores_is_refused_whole(tmp_path: Path) -> None:
    first = make_store(tmp_path / "a.db", [0, 1])
    second = make_store(tmp_path / "b.db", [1, 2], d1="unwinnable")
    with SurveyStore.open(first, writable=True) as target, SurveyStore.open(second) as source:
        with pytest.raises(StoreConflictError, match="1 deal has .* deal 1 .winnable.*unwinnable"):
            target.merge(source)
        assert [item.number for item in target.rows()] == [0, 1]
    other_rules = make_store(tmp_path / "n.db", [5], StoreIdentity(SOLVER_VERSION, "N", 5_000_000, False))
    with (SurveyStore.open(first, writable=True) as target, SurveyStore.open(other_rules) as source,
          pytest.raises(StoreMismatchError, match=r"rules \(T here, N there\)")):
        target.merge(source)


def test_resuming_solves_only_the_missing_deals_and_checks_the_settings(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    run = stored_survey.begin(path, False, "T", "0-5", None, 5_000_000, False)
    with run.store:
        assert run.todo == 6
        outcomes = survey(Rules.preset("T"), [0, 2]).outcomes
        assert stored_survey.fill(run.store, outcomes) == 2
    run = stored_survey.begin(path, True, None, None, None, 1, False)  # settings come from the store
    with run.store:
        assert (run.rules.name, run.numbers, run.already, run.todo) == ("T", range(6), 2, 4)
        assert list(run.store.missing(run.numbers)) == [1, 3, 4, 5]
    with pytest.raises(StoreMismatchError, match="rules T, not rules N"):
        stored_survey.begin(path, True, "N", None, None, 1, False)
    with pytest.raises(StoreMismatchError, match="--optimal off, not --optimal on"):
        stored_survey.begin(path, True, None, None, None, 1, True)
    with pytest.raises(ValueError, match="--deals A-B is needed"):
        stored_survey.begin(tmp_path / "new.db", False, "T", None, None, 1, False)
    run = stored_survey.begin(path, True, "T", "0-9", 5_000_000, 1, False)  # a wider range is remembered
    with run.store:
        assert run.store.info("deals") == "0-9" and run.todo == 8


def test_fill_commits_what_it_has_when_interrupted(tmp_path: Path) -> None:
    run = stored_survey.begin(tmp_path / "s.db", False, "T", "0-9", None, 5_000_000, False)
    outcomes = iter(survey(Rules.preset("T"), range(3)).outcomes)

    def interrupted():
        yield from outcomes
        raise KeyboardInterrupt

    with run.store, pytest.raises(KeyboardInterrupt):
        stored_survey.fill(run.store, interrupted(), batch_rows=1000, batch_seconds=3600)
    with SurveyStore.open(tmp_path / "s.db") as store:
        assert [item.number for item in store.rows()] == [0, 1, 2]


def test_histogram_bins_and_figures() -> None:
    assert [histogram_bin(value) for value in (0, 1, 2, 4, 5, 9, 10, 19, 20, 49, 50, 99, 100)] == [
        (0, 0), (1, 1), (2, 4), (2, 4), (5, 9), (5, 9), (10, 19), (10, 19), (20, 49), (20, 49), (50, 99), (50, 99),
        (100, 199)]
    by_positions = [(3, 3), (60, 1), (1000, 1)]  # (positions, deals), by positions
    assert histogram(by_positions) == [(2, 4, 3), (5, 9, 0), (10, 19, 0), (20, 49, 0), (50, 99, 1), (100, 199, 0),
                                       (200, 499, 0), (500, 999, 0), (1000, 1999, 1)]
    figures = position_figures(by_positions)
    assert figures == {"mean": round((3 * 3 + 60 + 1000) / 5, 1), "median": 3, "p99": 1000, "max": 1000}
    assert position_figures([])["median"] is None and histogram([]) == []


def test_report_of_a_store(tmp_path: Path) -> None:
    path = make_store(tmp_path / "s.db", range(10), d3="unwinnable", d4="unknown")
    with SurveyStore.open(path) as store:
        report = report_of(store)
    document = report.to_dict()
    assert (document["deals"], document["winnable"], document["unwinnable"], document["unknown"]) == (10, 8, 1, 1)
    assert document["first"] == 0 and document["last"] == 9 and document["winnable_percent"] == 80.0
    low, high = document["ci95"]
    assert low < 80.0 < high
    assert sum(item["deals"] for item in document["histogram"]) == 10
    assert "80.00 %" in report.render() and "100-199" in report.render()
    with SurveyStore.open(make_store(tmp_path / "empty.db", [])) as empty:
        assert "no deal stored yet" in report_of(empty).render()
