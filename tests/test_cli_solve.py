"""``pyramide solve``, ``hint`` and ``survey``: every exit status, JSON documents, saves untouched."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from cli_support import game_of, invoke, make_save, run
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.moves import Move
from pyramide_cli.engine.position import Position

WINNABLE = "PY1-N-AAAAAAB"
STUCK = "PY1-N-AAAAAU4"  # R17: never gets past 14 cards
HARD_T = "PY1-T-AAAAAE7"  # deal 159 under T: unwinnable, needs ~10^5 positions


def wins(code: str, solution: list[str], *prefix: str) -> bool:
    position = game_of(code, *prefix).position
    for text in solution:
        position = position.apply(Move.parse(text))
    return position.is_won


def test_solve_winnable_code_prints_a_line_that_wins() -> None:
    outcome = invoke("solve", WINNABLE)
    assert outcome.status == 0, outcome
    first, line = outcome.stdout.splitlines()[:2]
    assert first.startswith("winnable")
    assert wins(WINNABLE, line.split())


def test_solve_json_from_a_save_mid_game(tmp_path: Path) -> None:
    save = make_save(tmp_path, WINNABLE, "KC", "KH")
    before = save.read_bytes()
    document = invoke("solve", str(save), "--json").json()
    assert document["ok"] and document["verdict"] == "winnable" and document["from_move"] == 2
    assert wins(WINNABLE, document["solution"], "KC", "KH")
    assert save.read_bytes() == before


def test_solve_unwinnable_exit_6_with_maxima() -> None:
    outcome = invoke("solve", STUCK, "--json")
    assert outcome.status == 6
    document = outcome.json()
    assert document["ok"] is True and "error" not in document and document["verdict"] == "unwinnable"
    assert (document["max_pyramid_removed"], document["max_removed"]) == (7, 14)
    text = invoke("solve", STUCK)
    assert text.status == 6 and text.stderr == ""  # an answer, not an error (issue 14.5)
    assert text.stdout.startswith("unwinnable: proven by exhaustive search") and "7 of 28" in text.stdout


def test_solve_search_limit_exit_7() -> None:
    outcome = invoke("solve", HARD_T, "--max-states", "10", "--json")
    assert outcome.status == 7
    assert outcome.json()["verdict"] == "unknown" and outcome.json()["error"]["kind"] == "search-limit"
    assert outcome.json()["ok"] is False and outcome.json()["schema"] == 2
    assert outcome.json()["limit"] == "positions" and outcome.json()["states"] == 10
    assert "--max-states" in invoke("solve", HARD_T, "--max-states", "10").stderr
    timed = invoke("solve", HARD_T, "--timeout", "0.000001")
    assert timed.status == 7 and "unknown" in timed.stderr and "--timeout" in timed.stderr
    assert invoke("solve", HARD_T, "--timeout", "0.000001", "--json").json()["limit"] == "timeout"


def test_solve_optimal_is_no_longer() -> None:
    plain = invoke("solve", "PY1-N-AAAAAAB", "--json").json()
    best = invoke("solve", "PY1-N-AAAAAAB", "--optimal", "--json").json()
    assert best["optimal"] and len(best["solution"]) <= len(plain["solution"])
    assert wins(WINNABLE, best["solution"])


def test_solve_output_file_replays_as_won(tmp_path: Path) -> None:
    target = tmp_path / "won.yaml"
    assert invoke("solve", WINNABLE, "-o", str(target)).status == 0
    assert invoke("replay", str(target), "--expect", "won", "--expect-score", "280").status == 0
    again = invoke("solve", WINNABLE, "-o", str(target))
    assert again.status == 5 and "already exists" in again.stderr
    assert invoke("solve", WINNABLE, "-o", str(target), "--force").status == 0


def test_solve_output_from_a_save_keeps_its_history(tmp_path: Path) -> None:
    save = make_save(tmp_path, WINNABLE, "KC", "draw")
    target = tmp_path / "done.yaml"
    assert invoke("solve", str(save), "-o", str(target)).status == 0
    replayed = invoke("replay", str(target), "--json").json()
    assert replayed["status"] == "won" and replayed["agrees"]
    assert "history: [KC, draw," in target.read_text() or "- KC" in target.read_text()


@pytest.mark.parametrize("args, status", [
    (("solve", "PY1-N-BAD"), 4),
    (("solve", "missing.yaml"), 5),
    (("solve", WINNABLE, "--max-states", "0"), 2),
    (("solve", WINNABLE, "--timeout", "-1"), 2),
    (("solve", WINNABLE, "--bogus"), 2),
    (("hint", "missing.yaml"), 5),
    (("hint", WINNABLE, "--timeout", "0"), 2),
    (("survey", "--deals", "9-1"), 2),
    (("survey", "--deals", "x"), 2),
    (("survey", "--deals", "0-1", "--jobs", "0"), 2),
    (("survey", "--deals", "0-1", "--rules", "Z"), 2),
])
def test_user_errors_get_one_line_and_their_status(args, status: int) -> None:
    outcome = invoke(*args)
    assert outcome.status == status, outcome
    assert "Traceback" not in outcome.stderr
    as_json = invoke(*args, "--json")
    assert as_json.status == status
    assert as_json.json()["ok"] is False


def test_bad_save_file_exit_4(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("pyramide-save: 1\ndeal: [\n", encoding="utf-8")
    assert invoke("solve", str(bad)).status == 4
    assert invoke("hint", str(bad)).status == 4


def test_hint_names_the_tap_and_never_changes_the_save(tmp_path: Path) -> None:
    save = make_save(tmp_path, WINNABLE)
    before = save.read_bytes()
    document = invoke("hint", str(save), "--json").json()
    assert document["ok"] and document["kind"] == "winning" and document["taps"]
    assert Move.parse(document["move"]) in Position.start(Deal.from_code(WINNABLE)).legal_moves
    text = invoke("hint", str(save))
    assert text.status == 0 and "tap" in text.stdout.lower()
    assert save.read_bytes() == before


def test_hint_on_a_lost_position(tmp_path: Path) -> None:
    save = make_save(tmp_path, STUCK)
    document = invoke("hint", str(save), "--json").json()
    assert document["kind"] == "best-losing" and document["max_pyramid_removed"] == 7
    assert "can no longer be won" in document["text"]


def test_survey_json_and_csv(tmp_path: Path) -> None:
    table = tmp_path / "rows.csv"
    outcome = invoke("survey", "--rules", "T", "--deals", "0-9", "--json", "--csv", str(table))
    assert outcome.status == 0, outcome
    summary = outcome.json()
    assert summary["deals"] == 10 and summary["winnable"] + summary["unwinnable"] + summary["unknown"] == 10
    low, high = summary["ci95"]
    assert low <= summary["winnable_percent"] <= high
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [int(row["number"]) for row in rows] == list(range(10))
    assert sum(row["verdict"] == "winnable" for row in rows) == summary["winnable"]
    text = invoke("survey", "--rules", "N", "--deals", "3")
    assert text.status == 0 and "winnable" in text.stdout and "95 % CI" in text.stdout


def test_survey_csv_unwritable(tmp_path: Path) -> None:
    outcome = invoke("survey", "--deals", "0-1", "--csv", str(tmp_path / "no" / "such" / "dir.csv"))
    assert outcome.status == 5


def test_real_processes_exit_statuses(tmp_path: Path) -> None:
    assert run("solve", WINNABLE, cwd=tmp_path).status == 0
    assert run("solve", STUCK, cwd=tmp_path).status == 6
    limited = run("solve", HARD_T, "--max-states", "5", "--json", cwd=tmp_path)
    assert limited.status == 7 and json.loads(limited.stdout)["verdict"] == "unknown"
    assert run("solve", "nonsense", cwd=tmp_path).status == 5
    save = make_save(tmp_path, WINNABLE)
    assert run("hint", str(save), cwd=tmp_path).status == 0
    jobs = run("survey", "--rules", "T", "--deals", "0-5", "--jobs", "2", "--json", cwd=tmp_path)
    assert jobs.status == 0 and json.loads(jobs.stdout)["deals"] == 6
