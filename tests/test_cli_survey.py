"""``pyramide survey`` with a store: --store, --resume, --report, --merge, refusals and exit statuses."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import invoke

from pyramide_cli.analysis import survey as survey_module
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import solve
from pyramide_cli.solver.version import SOLVER_VERSION
from pyramide_cli.storage.survey_store import StoreIdentity, SurveyStore


def stored(path: Path) -> list[int]:
    with SurveyStore.open(path) as store:
        return [row.number for row in store.rows()]


def test_store_report_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    first = invoke("survey", "--rules", "T", "--deals", "0-3", "--store", str(path))
    assert first.status == 0, first
    assert "rules T, 4 deals (0-3)" in first.stdout and "this run: 4 deals solved" in first.stdout
    again = invoke("survey", "--rules", "T", "--deals", "0-3", "--store", str(path))
    assert again.status == 5 and "already exists: add --resume" in again.stderr
    wider = invoke("survey", "--store", str(path), "--resume", "--deals", "0-5", "--json").json()
    assert wider["run"]["solved"] == 2 and wider["run"]["already_stored"] == 4 and wider["deals"] == 6
    report = invoke("survey", "--report", str(path), "--json").json()
    (summary,) = report["stores"]
    assert summary["deals"] == 6 and summary["winnable"] + summary["unwinnable"] + summary["unknown"] == 6
    assert summary == {key: value for key, value in wider.items() if key not in ("ok", "schema", "run")}
    text = invoke("survey", "--report", str(path), "--report", str(path))
    assert text.status == 0 and text.stdout.count("rules T, 6 deals (0-5)") == 2 and "positions explored" in text.stdout
    nothing_left = invoke("survey", "--store", str(path), "--resume", "--json").json()  # the last range, all stored
    assert nothing_left["run"]["solved"] == 0 and stored(path) == list(range(6))


def test_the_store_matches_the_in_memory_survey(tmp_path: Path) -> None:
    path = tmp_path / "n.db"
    in_memory = invoke("survey", "--rules", "N", "--deals", "0-9", "--json").json()
    with_store = invoke("survey", "--rules", "N", "--deals", "0-9", "--store", str(path), "--json").json()
    for key in ("deals", "winnable", "unwinnable", "unknown", "winnable_percent", "ci95"):
        assert with_store[key] == in_memory[key], key
    assert with_store["positions"]["max"] == in_memory["states"]["max"]


def test_optimal_stores_keep_the_length_of_the_shortest_win(tmp_path: Path) -> None:
    path = tmp_path / "o.db"
    assert invoke("survey", "--rules", "T", "--deals", "1", "--store", str(path), "--optimal").status == 0
    resumed = invoke("survey", "--store", str(path), "--resume", "--deals", "0-1", "--optimal")
    assert resumed.status == 0 and "fewest actions" in resumed.stdout  # --optimal matches the store
    with SurveyStore.open(path) as store:
        assert store.identity.optimal
        lost, won = store.rows()
    assert (lost.verdict, lost.optimal_actions) == ("unwinnable", None)
    fewest = solve(Deal.from_number(1, Rules.preset("T")), optimal=True)
    assert won.verdict == "winnable" and won.optimal_actions == len(fewest.solution) and fewest.optimal
    plain = tmp_path / "plain.db"
    assert invoke("survey", "--rules", "T", "--deals", "1", "--store", str(plain)).status == 0
    with SurveyStore.open(plain) as store:
        assert store.rows()[0].optimal_actions is None


def test_merge_on_the_command_line(tmp_path: Path) -> None:
    first, second, joined = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "all.db"
    assert invoke("survey", "--rules", "T", "--deals", "0-2", "--store", str(first)).status == 0
    assert invoke("survey", "--rules", "T", "--deals", "2-4", "--store", str(second)).status == 0
    copied = invoke("survey", "--store", str(joined), "--merge", str(first), "--json").json()
    assert copied["added"] == 3 and copied["deals"] == 3
    merged = invoke("survey", "--store", str(joined), "--merge", str(second))
    assert merged.status == 0 and "2 deals added, 1 already there" in merged.stdout
    assert stored(joined) == [0, 1, 2, 3, 4]
    other = tmp_path / "n.db"
    assert invoke("survey", "--rules", "N", "--deals", "0", "--store", str(other)).status == 0
    refused = invoke("survey", "--store", str(joined), "--merge", str(other))
    assert refused.status == 4 and "rules (T here, N there)" in refused.stderr and stored(joined) == [0, 1, 2, 3, 4]


def test_a_store_of_another_solver_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    SurveyStore.create(path, StoreIdentity(SOLVER_VERSION - 1, "T", 5_000_000, False), "0-3").close()
    outcome = invoke("survey", "--store", str(path), "--resume", "--json")
    assert outcome.status == 4
    error = outcome.json()["error"]
    assert f"solver version {SOLVER_VERSION - 1}, not solver version {SOLVER_VERSION}" in error["message"]
    assert stored(path) == []


@pytest.mark.parametrize("arguments, message", [
    (("--report", "x.db", "--deals", "0-1"), "--report does not go with --deals"),
    (("--merge", "x.db"), "give --store too"),
    (("--merge", "x.db", "--store", "y.db", "--rules", "T"), "--merge does not go with --rules"),
    (("--deals", "0-1", "--resume"), "--resume continues a --store"),
    (("--deals", "0-1", "--store", "s.db", "--csv", "s.csv"), "--csv does not go with --store"),
    (("--deals", "0-1", "--store", "s.db", "--timeout", "5"), "must not depend on the machine's load"),
    (("--deals", "0-1", "--cluster", "local:2", "--jobs", "2"), "--jobs and --cluster do not go together"),
    (("--deals", "0-1", "--chunk", "3"), "--chunk N needs --cluster"),
    (("--deals", "0-1", "--cluster", "local:x"), "write local:N"),
    (("--store", "s.db"), "--deals A-B is needed"),
    (("--rules", "T"), "--deals A-B is needed"),
    (("--deals", "0-1", "--store", "s.db", "--max-states", "0"), "must be at least 1"),
])
def test_options_that_do_not_go_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, arguments: tuple,
                                         message: str) -> None:
    monkeypatch.chdir(tmp_path)
    outcome = invoke("survey", *arguments)
    assert outcome.status == 2 and message in outcome.stderr, outcome
    assert not (tmp_path / "s.db").exists()


def test_missing_and_foreign_stores(tmp_path: Path) -> None:
    missing = invoke("survey", "--report", str(tmp_path / "none.db"))
    assert missing.status == 5 and "does not exist" in missing.stderr
    foreign = tmp_path / "notes.db"
    foreign.write_text("shopping list\n" * 100, encoding="utf-8")
    refused = invoke("survey", "--store", str(foreign), "--resume")
    assert refused.status == 4 and "not a pyramide survey store" in refused.stderr
    assert foreign.read_text(encoding="utf-8") == "shopping list\n" * 100


def test_cluster_without_dask_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # what an install without the extra sees
    outcome = invoke("survey", "--deals", "0-1", "--cluster", "local:2")
    assert outcome.status == 2
    assert outcome.stderr.count("\n") == 1 and "pip install 'pyramide[cluster]'" in outcome.stderr


def test_ctrl_c_keeps_what_was_solved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = survey_module.iter_outcomes

    def interrupted(*arguments, **keywords) -> Iterator:
        outcomes = real(*arguments, **keywords)
        for _ in range(3):
            yield next(outcomes)
        raise KeyboardInterrupt

    path = tmp_path / "t.db"
    monkeypatch.setattr(survey_module, "iter_outcomes", interrupted)
    outcome = invoke("survey", "--rules", "T", "--deals", "0-9", "--store", str(path))
    assert outcome.status == 130
    assert "interrupted: 3 of 10 deals are in" in outcome.stderr and "--resume" in outcome.stderr
    assert stored(path) == [0, 1, 2]
    as_json = invoke("survey", "--rules", "T", "--deals", "0-9", "--json")
    assert as_json.status == 130 and as_json.json()["error"]["kind"] == "interrupted"
    monkeypatch.setattr(survey_module, "iter_outcomes", real)
    resumed = invoke("survey", "--store", str(path), "--resume", "--json").json()
    assert resumed["run"]["solved"] == 7 and stored(path) == list(range(10))
