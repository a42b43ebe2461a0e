"""Damaged databases are bad files (exit 4, naming the file), never tracebacks, and what they hold never
reaches the terminal raw (issue 26, items 8 and 13): the statistics database, the survey store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cli_support import invoke, make_save


@pytest.fixture
def stats_db(tmp_path: Path) -> Path:
    """A statistics database holding one resigned game."""
    database = tmp_path / "stats.sqlite3"
    save = make_save(tmp_path)
    assert invoke("play", str(save), "resign", "--quiet", "--db", str(database)).status == 0
    return database


def damaged(database: Path, statement: str, *parameters: object) -> Path:
    connection = sqlite3.connect(database)
    connection.execute(statement, parameters)
    connection.commit()
    connection.close()
    return database


@pytest.mark.parametrize("statement, parameters, what", [
    ("UPDATE games SET time_played = 'abc'", (), "time_played is 'abc'"),
    ("UPDATE games SET time_played = 9e999", (), "time_played is inf"),
    ("UPDATE games SET rules = ?", (b"\x00\xff",), "rules is a blob"),
    ("UPDATE games SET score = 'lots'", (), "score is 'lots'"),
    ("UPDATE games SET level = 'impossible'", (), "level is 'impossible'"),
    ("UPDATE games SET deal = ?", ("PY1\x1b[2J",), "deal is 'PY1\\x1b[2J'"),
    ("UPDATE games SET source = ?", ("\x1b]0;title\x07",), "source is '\\x1b]0;title\\x07'"),
], ids=["text time", "infinite time", "blob rules", "text score", "unknown level", "escape in deal", "OSC title"])
@pytest.mark.parametrize("options", [[], ["--json"], ["--csv", "games.csv"]], ids=["text", "json", "csv"])
def test_stats_on_a_damaged_row_is_exit_4_naming_the_database(stats_db: Path, statement: str,
                                                              parameters: tuple[object, ...], what: str,
                                                              options: list[str]) -> None:
    damaged(stats_db, statement, *parameters)
    options = [stats_db.parent / option if option.endswith(".csv") else option for option in options]
    outcome = invoke("stats", "--db", str(stats_db), *map(str, options))
    assert outcome.status == 4, outcome
    message = outcome.json()["error"]["message"] if "--json" in options else outcome.stderr
    assert f"the statistics database '{stats_db}' is damaged (a game's {what}" in message
    assert "\x1b" not in outcome.stdout + outcome.stderr and not (stats_db.parent / "games.csv").exists()


def test_stats_reset_sets_a_damaged_database_aside(stats_db: Path) -> None:
    damaged(stats_db, "UPDATE games SET time_played = 'abc'")
    assert invoke("stats", "--db", str(stats_db), "--reset", "--yes").status == 0
    assert invoke("stats", "--db", str(stats_db)).status == 0
    assert any(path.name.startswith("stats.sqlite3.damaged-") for path in stats_db.parent.iterdir())


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "survey.db"
    assert invoke("survey", "--deals", "0-1", "--max-states", "100", "--store", str(path)).status == 0
    return path


def test_a_store_with_text_for_positions_is_exit_4(store: Path) -> None:
    damaged(store, "UPDATE deals SET positions = 'lots'")
    outcome = invoke("survey", "--report", str(store))
    assert outcome.status == 4 and outcome.stderr.startswith(f"pyramide: '{store}': damaged:")
    assert outcome.stderr.count("\n") == 1


@pytest.mark.parametrize("command", [["--report"], ["--resume", "--deals", "0-3", "--max-states", "100", "--store"]])
def test_a_store_whose_rules_are_not_rules_is_exit_4_naming_it(store: Path, command: list[str]) -> None:
    damaged(store, "UPDATE store_info SET value = 'X' WHERE key = 'rules'")
    outcome = invoke("survey", *command, str(store))
    assert outcome.status == 4 and outcome.stderr.startswith(f"pyramide: '{store}': its store_info table is damaged")
