"""`pyramide stats` and the games `pyramide play` counts (issue 14.1), through Typer's CliRunner."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from cli_support import WON_N_CODE, WON_N_LINE, invoke, make_save

from pyramide_cli.storage.stats import GameRecord, StatsDB

STUCK_O = "PY1-O-AAAAAU4"


def finish_a_won_game(folder: Path, db: Path, *options: str) -> Path:
    path = make_save(folder, WON_N_CODE, *WON_N_LINE[:-1], name=f"won-{len(list(folder.iterdir()))}.yaml")
    outcome = invoke("play", str(path), WON_N_LINE[-1], "--db", str(db), "--quiet", *options)
    assert outcome.status == 0, outcome
    return path


LOST_O_LINE = ("KH draw draw draw draw draw draw draw draw KS draw draw draw draw draw draw draw draw QC+AS draw draw "
               "draw 8C+5H draw draw 10S+3H draw 10H+3S draw 8H+5S draw").split(" ")  # examples/lost-o.yaml


def lose_a_one_pass_game(folder: Path, db: Path) -> None:
    path = make_save(folder, STUCK_O, *LOST_O_LINE[:-1], name="lost.yaml")
    outcome = invoke("play", str(path), "--db", str(db), "--quiet", input=LOST_O_LINE[-1] + "\n")  # a session
    assert outcome.status == 0, outcome


def test_play_counts_a_won_game_and_stats_shows_it(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    finish_a_won_game(tmp_path, db)
    unrecorded = make_save(tmp_path, "PY1-N-AAAAAAS", "KC", name="resigned.yaml")
    assert invoke("play", str(unrecorded), "resign", "--db", str(db), "--no-record", "-q").status == 0  # left out
    lose_a_one_pass_game(tmp_path, db)
    games = StatsDB(db).games()
    assert [(game.result, game.deal) for game in games] == [("won", WON_N_CODE), ("lost", STUCK_O)]
    document = invoke("stats", "--db", str(db), "--json").json()
    assert document["ok"] and document["schema"] == 2 and document["database"] == str(db)
    assert (document["played"], document["won"], document["lost"], document["win_rate"]) == (2, 1, 1, 0.5)
    assert document["streak"] == {"current": 0, "best": 1}
    assert [game["deal"] for game in document["last_games"]] == [STUCK_O, WON_N_CODE]  # newest first
    text = invoke("stats", "--db", str(db), "--ascii")
    assert text.status == 0
    assert "2 games played, 1 won (50.0 %)" in text.stdout
    assert f"Database: {db}" in text.stdout and "#." in text.stdout  # the chart: a win, then a loss


def test_filters_and_groups(tmp_path: Path) -> None:
    db = StatsDB(tmp_path / "stats.sqlite3")
    for number, (rules, level, result, moves) in enumerate([("N", None, "won", 80), ("T", "hard", "won", 90),
                                                            ("T", "hard", "lost", 40), ("T", "hard", "won", 85)]):
        db.record(GameRecord(key=str(number), deal="PY1-T-AAAAAAB", rules=rules, result=result,
                             termination="cleared" if result == "won" else "dead", score=0, moves=moves,
                             time_played=100.0 - number, level=level, finished_at=f"2026-11-2{number}T10:00:00Z"))
    document = invoke("stats", "--db", str(db.path), "--rules", "t", "--level", "HARD", "--json").json()
    assert document["filters"] == {"rules": "T", "level": "hard"}
    assert (document["played"], document["won"]) == (3, 2)
    assert document["groups"] == [{"rules": "T", "level": "hard", "played": 3, "won": 2, "win_rate": 2 / 3,
                                   "best_time": 97.0, "fewest_moves": 85}]
    assert document["streak"] == {"current": 1, "best": 1}
    text = invoke("stats", "--db", str(db.path), "--level", "hard", "--last", "1").stdout
    assert "lost (dead)" not in text and "time 1:37" in text  # only the last game is listed
    assert "No games recorded yet (rules E)" in invoke("stats", "--db", str(db.path), "--rules", "E").stdout


def test_csv_export_has_every_game(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    finish_a_won_game(tmp_path, db)
    lose_a_one_pass_game(tmp_path, db)
    out = tmp_path / "games.csv"
    outcome = invoke("stats", "--db", str(db), "--csv", str(out))
    assert outcome.status == 0 and "2 games written to" in outcome.stdout
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(row["deal"], row["result"], row["termination"]) for row in rows] == [
        (WON_N_CODE, "won", "cleared"), (STUCK_O, "lost", "no-moves")]
    assert rows[0]["score"] == "280" and rows[1]["rules"] == "O"


def test_a_damaged_database_warns_once_and_the_game_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    db.write_bytes(b"not a database at all" * 100)
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])
    outcome = invoke("play", str(path), WON_N_LINE[-1], "--db", str(db), "--quiet")
    assert outcome.status == 0 and outcome.stdout == ""
    assert len(outcome.stderr.splitlines()) == 1 and outcome.stderr.startswith("pyramide: warning: ")
    assert "won" in path.read_text()
    as_json = invoke("play", str(make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1], name="b.yaml")),
                     WON_N_LINE[-1], "--db", str(db), "--json")
    assert as_json.status == 0 and as_json.stderr == "" and len(as_json.json()["warnings"]) == 1
    stats = invoke("stats", "--db", str(db))
    assert stats.status == 4 and "damaged" in stats.stderr and stats.stderr.count("\n") == 1


def test_reset_asks_first(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    finish_a_won_game(tmp_path, db)
    declined = invoke("stats", "--reset", "--db", str(db), input="n\n")
    assert declined.status == 0 and "Nothing deleted." in declined.stdout and "Delete the 1 game" in declined.stderr
    unanswered = invoke("stats", "--reset", "--db", str(db), input="")
    assert unanswered.status == 2 and "--yes" in unanswered.stderr
    assert invoke("stats", "--reset", "--json", "--db", str(db)).status == 2  # JSON cannot ask
    assert len(StatsDB(db).games()) == 1
    accepted = invoke("stats", "--reset", "--db", str(db), input="y\n")
    assert accepted.status == 0 and "Deleted 1 game" in accepted.stdout and StatsDB(db).games() == []
    finish_a_won_game(tmp_path, db)
    scripted = invoke("stats", "--reset", "--yes", "--json", "--db", str(db))
    assert scripted.json()["deleted"] == 1


@pytest.mark.parametrize(("args", "words"), [(["--level", "impossible"], "--level"), (["--rules", "Q"], "rules"),
                                             (["--last", "-1"], "--last")])
def test_bad_options_exit_2(tmp_path: Path, args: list[str], words: str) -> None:
    outcome = invoke("stats", "--db", str(tmp_path / "s.sqlite3"), *args)
    assert outcome.status == 2 and words in outcome.stderr


def test_the_default_database_is_in_pyramide_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYRAMIDE_HOME", str(tmp_path / "home"))
    finish_a_won_game(tmp_path, Path("unused"), "--no-record")
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1], name="x.yaml")
    assert invoke("play", str(path), WON_N_LINE[-1], "-q").status == 0
    assert len(StatsDB(tmp_path / "home" / "stats.sqlite3").games()) == 1
    assert f"Database: {tmp_path / 'home' / 'stats.sqlite3'}" in invoke("stats").stdout


def test_csv_never_replaces_a_file_unless_forced_and_then_only_an_export(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    finish_a_won_game(tmp_path, db)
    out = tmp_path / "games.csv"
    assert invoke("stats", "--db", str(db), "--csv", str(out)).status == 0
    again = invoke("stats", "--db", str(db), "--csv", str(out))
    assert again.status == 5 and "--force" in again.stderr and again.stdout == ""  # checked before any output
    assert invoke("stats", "--db", str(db), "--csv", str(out), "--force").status == 0
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes\n")
    refused = invoke("stats", "--db", str(db), "--csv", str(precious), "--force")
    assert refused.status == 5 and precious.read_text() == "my notes\n"


def test_names_with_control_characters_are_shown_escaped(tmp_path: Path) -> None:
    db = tmp_path / "odd\x1b[2Jname.sqlite3"
    finish_a_won_game(tmp_path, db)
    outcome = invoke("stats", "--db", str(db))
    assert outcome.status == 0 and "\x1b" not in outcome.stdout and "odd\\x1b[2Jname" in outcome.stdout
