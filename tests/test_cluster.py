"""Surveys on a Dask ``LocalCluster`` (one shared per module): the same verdicts as one process,
nothing lost when a worker or the client is killed, refusals of stores and workers that differ."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from cli_support import invoke
from cluster_tasks import failing_chunk, solve_chunk_killing_its_worker_once, solve_chunk_of_another_solver

from pyramide_cli.analysis import stored_survey
from pyramide_cli.analysis.cluster import (
    ChunkSizer,
    ClusterError,
    ClusterSpec,
    _chunk_result,
    cluster_outcomes,
    connect,
)
from pyramide_cli.analysis.survey import survey
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Limits
from pyramide_cli.solver.version import SOLVER_VERSION
from pyramide_cli.storage.survey_store import SurveyStore

pytest.importorskip("distributed")

RULES = Rules.preset("T")
LIMITS = Limits(max_states=5_000_000, timeout=None)
DEALS = range(16)
DEALS_TEXT = "0-15"


def stripped(outcomes) -> list:
    return sorted((replace(outcome, seconds=0.0) for outcome in outcomes), key=lambda outcome: outcome.number)


@pytest.fixture(scope="module")
def client():
    with connect(ClusterSpec(local_workers=2)) as started:
        yield started


@pytest.fixture(scope="module")
def local_outcomes() -> list:
    """What one process finds for ``DEALS`` (what every cluster run must equal, times aside)."""
    return stripped(survey(RULES, DEALS).outcomes)


@pytest.fixture(scope="module")
def local_rows(local_outcomes, tmp_path_factory: pytest.TempPathFactory) -> list:
    """The rows one process stores for ``DEALS``."""
    run = stored_survey.begin(tmp_path_factory.mktemp("local") / "local.db", False, "T", DEALS_TEXT, None,
                              LIMITS.max_states, False)
    with run.store:
        stored_survey.fill(run.store, local_outcomes)
        return run.store.rows()


def address(client) -> str:
    return client.scheduler.address


def test_a_store_filled_on_the_cluster_equals_the_local_one(client, local_rows, tmp_path: Path) -> None:
    path = tmp_path / "cluster.db"
    outcome = invoke("survey", "--rules", "T", "--deals", DEALS_TEXT, "--store", str(path),
                     "--cluster", address(client), "--json")
    assert outcome.status == 0, outcome
    document = outcome.json()
    assert document["run"]["solved"] == len(DEALS) and document["deals"] == len(DEALS)
    with SurveyStore.open(path) as store:
        assert store.rows() == local_rows


def test_a_worker_killed_mid_run_loses_nothing(client, local_outcomes, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    task = functools.partial(solve_chunk_killing_its_worker_once, victim=7, marker=str(marker))
    on_cluster = list(cluster_outcomes(client, RULES, iter(DEALS), len(DEALS), LIMITS, chunk_size=4, task=task))
    assert marker.exists()  # a worker did die holding deal 7's chunk
    assert stripped(on_cluster) == local_outcomes
    client.wait_for_workers(2, timeout=30)  # the nanny brings a new worker back for the next tests


def test_resume_after_the_client_is_killed(client, local_rows, tmp_path: Path) -> None:
    path = tmp_path / "killed.db"
    script = textwrap.dedent(f"""
        import os, signal, sys
        from pyramide_cli.storage import survey_store
        survey_store.DEFAULT_BATCH_ROWS = 5
        commit = survey_store.BatchWriter.commit
        def commit_then_die(self):
            commit(self)
            if self.committed:
                os.kill(os.getpid(), signal.SIGKILL)  # kill -9 right after the first batch is in
        survey_store.BatchWriter.commit = commit_then_die
        from pyramide_cli.cli import main
        sys.argv = ["pyramide", "survey", "--rules", "T", "--deals", {DEALS_TEXT!r}, "--store", {str(path)!r},
                    "--cluster", {address(client)!r}, "--chunk", "2"]
        main()
    """)
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                               check=False, env={**os.environ, "PYRAMIDE_DEBUG": ""})
    assert completed.returncode == -9, completed.stderr
    with SurveyStore.open(path) as store:
        kept = store.count()
    assert 5 <= kept < len(DEALS)
    outcome = invoke("survey", "--store", str(path), "--resume", "--cluster", address(client), "--json")
    assert outcome.status == 0, outcome
    run = outcome.json()["run"]
    assert (run["solved"], run["already_stored"]) == (len(DEALS) - kept, kept)
    with SurveyStore.open(path) as store:
        assert store.rows() == local_rows


def test_workers_with_another_solver_or_none_are_refused(client) -> None:
    with pytest.raises(ClusterError, match=rf"client .*\(solver version {SOLVER_VERSION}\): install the same pyramide"):
        list(cluster_outcomes(client, RULES, iter(range(4)), 4, LIMITS, chunk_size=2,
                              task=solve_chunk_of_another_solver))
    with pytest.raises(ClusterError, match="a worker failed on deals 0-1: ModuleNotFoundError"):
        list(cluster_outcomes(client, RULES, iter(range(2)), 2, LIMITS, chunk_size=2, task=failing_chunk))


def test_a_store_of_other_settings_is_refused_before_any_work(client, tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    assert invoke("survey", "--rules", "T", "--deals", "0-1", "--store", str(path)).status == 0
    other_rules = invoke("survey", "--store", str(path), "--resume", "--rules", "N", "--cluster", address(client))
    assert other_rules.status == 4 and "holds results of rules T, not rules N" in other_rules.stderr
    with SurveyStore.open(path) as store:
        assert store.count() == 2


def test_chunk_sizes_follow_the_measured_speed() -> None:
    sizer = ChunkSizer()
    assert sizer.size(remaining=1000, threads=2) == 4 and sizer.size(remaining=5, threads=2) == 2  # nothing measured
    sizer.measured(10, 0.1)  # 10 ms a deal: about 100 deals make a second
    assert sizer.size(remaining=100_000, threads=2) == 100
    assert sizer.size(remaining=160, threads=2) == 20  # the last chunks shrink so workers finish together,
    assert sizer.size(remaining=40, threads=2) == 10  # but not below a tenth of a second
    assert sizer.size(remaining=3, threads=2) == 3
    sizer.measured(10, 1.0)  # slower deals now: the estimate follows
    assert sizer.size(remaining=100_000, threads=2) < 100
    assert ChunkSizer(fixed=7).size(remaining=3, threads=2) == 7


class _Failed:
    """A future whose result raises ``error`` (what the client sees when the cluster goes wrong)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def result(self):
        raise self.error


def test_a_lost_scheduler_and_worker_errors_are_one_line() -> None:
    import distributed

    lost = distributed.client.FutureCancelledError("solve_chunk-1", reason="scheduler-connection-lost")
    with pytest.raises(ClusterError, match=r"^lost the Dask scheduler while deals 3-5 were out "
                                           r"\(scheduler-connection-lost\);.*--resume"):
        _chunk_result(distributed, _Failed(lost), [3, 4, 5])
    with pytest.raises(ClusterError, match=r"^a worker failed on deal 9: OSError: disk full here \(is the same"):
        _chunk_result(distributed, _Failed(OSError("disk full\n  here")), [9])
