"""Issue 16 benchmark: surveys beyond one machine (docs/scale.md quotes these figures).

Prints:
* solving throughput per core for each preset (one process, CPU time), and what 100 M deals cost;
* the cluster path (``--cluster local:2``) against ``--jobs 2`` on 2,000 ``T`` deals — target:
  at most 10 % more — in CPU time of the whole process tree and in wall time, runs interleaved;
* the overhead of one chunk (round trip and CPU) on a ``LocalCluster`` of 2 workers;
* the speed-up from 1 to 2 workers;
* store writing (target >= 10,000 rows/s) and the report of a 1 M-row store (target <= 5 s).

The machine is shared: CPU time is quoted beside wall time, ratios are taken within one run, and
each figure is the median of BENCH_SCALE_RUNS runs (default 3).  Sizes: BENCH_SCALE_DEALS (2000),
BENCH_SCALE_SAMPLE (deals per preset for the throughput, 300), BENCH_SCALE_ROWS (1000000),
BENCH_SCALE_CHUNKS (400).  Needs the cluster extra (``make test`` installs it).
"""

from __future__ import annotations

import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pyramide_cli.analysis.cluster import ChunkResult, ClusterSpec, cluster_outcomes, connect
from pyramide_cli.analysis.survey import survey
from pyramide_cli.analysis.survey_report import report_of
from pyramide_cli.engine.rules import Rules
from pyramide_cli.solver import Limits
from pyramide_cli.solver.version import SOLVER_VERSION
from pyramide_cli.storage.survey_store import StoredDeal, StoreIdentity, SurveyStore

RUNS = int(os.environ.get("BENCH_SCALE_RUNS", "3"))
DEALS = int(os.environ.get("BENCH_SCALE_DEALS", "2000"))
SAMPLE = int(os.environ.get("BENCH_SCALE_SAMPLE", "300"))
ROWS = int(os.environ.get("BENCH_SCALE_ROWS", "1000000"))
CHUNKS = int(os.environ.get("BENCH_SCALE_CHUNKS", "400"))
LIMITS = Limits(max_states=5_000_000, timeout=None)
PYRAMIDE = [sys.executable, "-m", "pyramide_cli"]


def say(text: str) -> None:
    print(text, flush=True)


def timed_command(arguments: list[str]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of the command and of every process it started, its JSON document).

    The process tree is sampled every 50 ms (psutil): Dask's workers descend from a fork server
    that nobody waits for, so the kernel's count of waited-for children would miss them."""
    import psutil

    seen: dict[tuple[int, float], float] = {}
    wall = time.perf_counter()
    with subprocess.Popen(PYRAMIDE + arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as run:
        root = psutil.Process(run.pid)
        output: list[str] = []
        reader = threading.Thread(target=lambda: output.append(run.stdout.read()))
        reader.start()
        while run.poll() is None:
            try:
                tree = [root, *root.children(recursive=True)]
            except psutil.Error:
                tree = []
            for process in tree:
                try:
                    times = process.cpu_times()
                    seen[(process.pid, process.create_time())] = times.user + times.system
                except psutil.Error:
                    pass
            time.sleep(0.05)
        reader.join()
    wall = time.perf_counter() - wall
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed with status {run.returncode}")
    return wall, sum(seen.values()), json.loads(output[0])


def throughput() -> None:
    say(f"throughput per core (one process, deals 0-{SAMPLE - 1}, CPU time; 100 M deals: CPU-hours, and the "
        f"cores that do it in 24 h)")
    for preset in ("N", "T", "E", "O"):
        started = time.process_time()
        summary = survey(Rules.preset(preset), range(SAMPLE), limits=LIMITS).summary()
        per_deal = (time.process_time() - started) / SAMPLE
        hours = 1e8 * per_deal / 3600
        say(f"  {preset}: {1000 * per_deal:6.2f} ms CPU a deal = {1 / per_deal:7.1f} deals/s a core; "
            f"winnable {summary['winnable_percent']:.1f} %, unknown {summary['unknown']}; "
            f"100 M deals: {hours:,.0f} CPU-hours, {math.ceil(hours / 24)} cores for a day")


def cluster_against_jobs() -> None:
    deals = f"0-{DEALS - 1}"
    variants = {"--jobs 2": ["--jobs", "2"], "--cluster local:2": ["--cluster", "local:2"]}
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    verdicts = {}
    for _ in range(RUNS):
        for name, extra in variants.items():
            wall, cpu, document = timed_command(["survey", "--rules", "T", "--deals", deals, "--json", *extra])
            figures[name].append((wall, cpu))
            verdicts[name] = (document["winnable"], document["unwinnable"], document["unknown"], document["states"])
    say(f"cluster path against --jobs, rules T, deals {deals}, {RUNS} runs interleaved (medians; CPU of the whole "
        f"process tree: client, scheduler, workers)")
    for name, runs in figures.items():
        wall, cpu = statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
        say(f"  {name:<18} wall {wall:6.1f} s, CPU {cpu:6.1f} s"
            f"   (runs: {', '.join(f'{w:.1f}/{c:.1f}' for w, c in runs)})")
    jobs, cluster = figures["--jobs 2"], figures["--cluster local:2"]
    cpu_ratios = [c2 / c1 for (_, c1), (_, c2) in zip(jobs, cluster, strict=True)]
    wall_ratios = [w2 / w1 for (w1, _), (w2, _) in zip(jobs, cluster, strict=True)]
    say(f"  overhead of the cluster path: CPU {100 * (statistics.median(cpu_ratios) - 1):+.1f} %, "
        f"wall {100 * (statistics.median(wall_ratios) - 1):+.1f} % (medians of the per-run ratios; target <= 10 %)")
    say(f"  same verdicts and positions: {verdicts['--jobs 2'] == verdicts['--cluster local:2']}")


def empty_chunk(rules_text: str, numbers: list[int], max_states: int, optimal: bool) -> ChunkResult:
    """A chunk that solves nothing: what is left is the cluster's own cost."""
    return ChunkResult(SOLVER_VERSION, "bench", (), 0.0)


def chunk_overhead() -> None:
    rounds = []
    with connect(ClusterSpec(local_workers=2)) as client:
        for _ in range(RUNS):
            workers_before = sum(client.run(time.process_time).values())
            cpu, wall = time.process_time(), time.perf_counter()
            list(cluster_outcomes(client, Rules.preset("T"), iter(range(CHUNKS)), CHUNKS, LIMITS, chunk_size=1,
                                  task=empty_chunk))
            wall = time.perf_counter() - wall
            client_cpu = time.process_time() - cpu  # the LocalCluster's scheduler runs in this process
            worker_cpu = sum(client.run(time.process_time).values()) - workers_before
            rounds.append((wall / CHUNKS, (client_cpu + worker_cpu) / CHUNKS))
    wall, cpu = (statistics.median(values) for values in zip(*rounds, strict=True))
    say(f"overhead of one chunk (LocalCluster of 2 workers, {CHUNKS} empty chunks, medians of {RUNS}): "
        f"{1000 * wall:.2f} ms of wall time a chunk, {1000 * cpu:.2f} ms of CPU (client + scheduler + workers)")


def speed_up() -> None:
    deals = f"0-{DEALS // 2 - 1}"
    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    for _ in range(RUNS):
        for workers in (1, 2):
            wall, cpu, _ = timed_command(["survey", "--rules", "T", "--deals", deals, "--json",
                                          "--cluster", f"local:{workers}"])
            runs[workers].append((wall, cpu))
    one, two = (statistics.median(w for w, _ in runs[n]) for n in (1, 2))
    ratios = [w1 / w2 for (w1, _), (w2, _) in zip(runs[1], runs[2], strict=True)]
    say(f"speed-up from 1 to 2 workers (rules T, deals {deals}, {RUNS} runs): wall {one:.1f} s -> {two:.1f} s, "
        f"x{statistics.median(ratios):.2f} (median per-run ratio); CPU "
        f"{statistics.median(c for _, c in runs[1]):.1f} s and {statistics.median(c for _, c in runs[2]):.1f} s")


def fake_rows(count: int, start: int = 0) -> list[StoredDeal]:
    """Rows shaped like a T survey's (positions spread over five decades)."""
    shuffle = random.Random(start)
    rows = []
    for number in range(start, start + count):
        positions = int(10 ** shuffle.uniform(1.3, 6.2))
        verdict = "winnable" if shuffle.random() < 0.67 else "unwinnable"
        lost = verdict == "unwinnable"
        rows.append(StoredDeal(number, "T", verdict, positions, 12 if lost else None, 30 if lost else None, None,
                               SOLVER_VERSION))
    return rows


def store_writing(folder: Path) -> None:
    count = 200_000
    rows = fake_rows(count)
    speeds = []
    for attempt in range(RUNS):
        path = folder / f"write-{attempt}.db"
        cpu, wall = time.process_time(), time.perf_counter()
        with SurveyStore.create(path, StoreIdentity(SOLVER_VERSION, "T", 5_000_000, False)) as store:
            writer = store.writer()  # the batches a survey commits: 1,000 rows or 1 s
            for row in rows:
                writer.add(row)
            writer.commit()
        speeds.append((count / (time.perf_counter() - wall), count / (time.process_time() - cpu)))
        path.unlink()
    say(f"store writing ({count:,} rows in the survey's batches, {RUNS} runs): "
        f"{statistics.median(w for w, _ in speeds):,.0f} rows/s of wall time, "
        f"{statistics.median(c for _, c in speeds):,.0f} rows/s of CPU (target >= 10,000)")


def big_report(folder: Path) -> None:
    path = folder / "big.db"
    with SurveyStore.create(path, StoreIdentity(SOLVER_VERSION, "T", 5_000_000, False), f"0-{ROWS - 1}") as store:
        for start in range(0, ROWS, 100_000):
            store.insert(fake_rows(min(100_000, ROWS - start), start))
    size = path.stat().st_size
    timings = []
    for _ in range(RUNS):
        cpu, wall = time.process_time(), time.perf_counter()
        with SurveyStore.open(path) as store:
            report = report_of(store)
        timings.append((time.perf_counter() - wall, time.process_time() - cpu))
    command = [timed_command(["survey", "--report", str(path), "--json"])[0] for _ in range(RUNS)]
    assert report.deals == ROWS
    say(f"report of a {ROWS:,}-row store ({size / ROWS:.0f} bytes a row on disk, {RUNS} runs): "
        f"{statistics.median(w for w, _ in timings):.2f} s wall, {statistics.median(c for _, c in timings):.2f} s CPU "
        f"in process; `pyramide survey --report --json` {statistics.median(command):.2f} s wall (target <= 5 s)")


def main() -> None:
    say(f"(shared 2-core machine, load average {os.getloadavg()[0]:.1f} at start)")
    with tempfile.TemporaryDirectory() as scratch:
        store_writing(Path(scratch))
        big_report(Path(scratch))
    throughput()
    chunk_overhead()
    cluster_against_jobs()
    speed_up()
    say(f"(load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
