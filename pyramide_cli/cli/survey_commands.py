"""``pyramide survey``: solve a range of deals here, over processes or on a Dask cluster, and keep the
results in a store that survives interruptions; report and merge stores.

The solver, SQLite, Dask and rich are imported inside the command, so other commands stay fast.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..engine.text import joined, message_of, plural, text
from .app import SUMMARIES, app
from ..storage.files import check_output, csv_output
from .common import (
    CommandError, JsonOption, echo, emit_json, error_document, real_number, reporting, say_error, shown,
    usage_error, whole_number,
)
from .completion import complete_rules
from .exit_codes import ExitStatus
from .solve_commands import _limits

if TYPE_CHECKING:  # the solver, the analysis and Dask are imported inside the command
    from collections.abc import Callable, Iterable, Iterator

    from ..analysis.cluster import ClusterSpec
    from ..analysis.survey import DealOutcome, SurveyReport
    from ..engine.rules import Rules
    from ..solver import Limits

SURVEY_LIMIT_HELP = ("Count a deal as unknown when its search explores this many positions [default: 5000000, or "
                     "the store's].")
SURVEY_TIMEOUT_HELP = ("Also count a deal as unknown when its search takes this many seconds (opt-in; the counts "
                       "then depend on the machine; not with --store or --cluster).")
INTERRUPTED = ExitStatus.INTERRUPTED
"""Exit status after Ctrl-C (the shell's convention, 128 + SIGINT); the store keeps what was solved."""

SURVEY_HELP = """Solve a range of deal numbers and report how many can be won.

Prints the winnable / unwinnable / unknown counts and percentages, a 95 % confidence interval
(Wilson) of the winnable share, and the positions explored.  A progress bar (deals/s, time left)
shows on a terminal.  --jobs N spreads the deals over N processes, --cluster over a Dask cluster;
the verdicts are the same as with one process.

--store FILE writes one row per deal into a SQLite store as results arrive, in atomic batches;
Ctrl-C or a kill loses at most the last second of work.  --resume continues the survey of an
existing store (its rules, budget and range unless given) without solving or counting any deal
twice.  --report FILE prints a store's rates and a histogram of positions explored (repeat it for
several stores); --store FILE --merge OTHER adds OTHER's rows to FILE.  A store only takes rows of
its own rules, --max-states, --optimal and solver version.  See docs/scale.md.

--cluster ADDRESS uses a running Dask scheduler (e.g. tcp://10.0.0.5:8786), --cluster local:N
starts N worker processes here.  Needs the optional extra: pip install 'pyramide[cluster]'.

\b
Examples:
  pyramide survey --rules T --deals 0-999 --jobs 2
  pyramide survey --rules N+strict --deals 0-99 --csv strict.csv
  pyramide survey --rules T --deals 0-99999 --store t.db --cluster local:2
  pyramide survey --store t.db --resume --cluster tcp://10.0.0.5:8786
  pyramide survey --report t.db --report n.db --json
  pyramide survey --store all-t.db --merge t-part2.db

Exit: 0 done, 2 bad option or rules (also: --cluster without Dask installed), 4 a file that is not
a survey store, or a store of other settings (rules, --max-states, --optimal, solver version), or
a merge of stores that disagree on a deal, 5 file or cluster problem (store exists without
--resume, missing, locked by a running survey; scheduler unreachable or without workers; a worker
failed), 130 interrupted (the store keeps every deal committed).
"""


@app.command(help=SURVEY_HELP,
             short_help=SUMMARIES["survey"])
def survey(
    deals: Annotated[Optional[str], typer.Option(
        "--deals", metavar="A-B", help="Deal numbers, both ends included, e.g. 0-999.", show_default=False)] = None,
    rules: Annotated[Optional[str], typer.Option(
        "--rules", "-r", metavar="RULES", help="Rules such as N, T, T+strict [default: N, or the store's].",
        show_default=False, autocompletion=complete_rules)] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", parser=whole_number, metavar="N",
                                      help="Worker processes on this machine (1 to 256; no more than deals).")] = 1,
    cluster: Annotated[Optional[str], typer.Option(
        "--cluster", metavar="ADDRESS|local:N", help="Solve on a Dask scheduler, or on N local Dask workers.",
        show_default=False)] = None,
    chunk: Annotated[Optional[int], typer.Option(
        "--chunk", parser=whole_number, metavar="N", help="Deals per cluster task [default: about 1 s of solving].",
        show_default=False)] = None,
    store: Annotated[Optional[str], typer.Option(
        "--store", metavar="FILE", help="Write every deal's result into this SQLite store as it comes.",
        show_default=False)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue the survey of an existing --store.")] = False,
    report: Annotated[Optional[list[str]], typer.Option(
        "--report", metavar="FILE", help="Report a store (repeat for several); solves nothing.",
        show_default=False)] = None,
    merge: Annotated[Optional[str], typer.Option(
        "--merge", metavar="FILE", help="Add this store's rows to --store (refused if they disagree).",
        show_default=False)] = None,
    csv_file: Annotated[Optional[str], typer.Option(
        "--csv", metavar="FILE", help="Also write one row per deal to FILE (runs without --store).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the --csv file if it exists (only a survey CSV or an empty file).")] = False,
    optimal: Annotated[bool, typer.Option(
        "--optimal", help="Solve each winnable deal for the fewest actions.")] = False,
    max_states: Annotated[Optional[int], typer.Option(
        "--max-states", parser=whole_number, metavar="N", help=SURVEY_LIMIT_HELP, show_default=False)] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", parser=real_number, metavar="SECONDS", help=SURVEY_TIMEOUT_HELP, show_default=False)] = None,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        solving = {"--deals": deals, "--rules": rules, "--cluster": cluster, "--chunk": chunk, "--csv": csv_file,
                   "--max-states": max_states, "--timeout": timeout, "--optimal": optimal or None,
                   "--resume": resume or None, "--jobs": jobs if jobs != 1 else None}
        if report:
            _refuse_with("--report", {**solving, "--store": store, "--merge": merge})
            return _report(report, json_output)
        if merge is not None:
            _refuse_with("--merge", solving)
            if store is None:
                raise usage_error(text("--merge FILE adds FILE's rows to a --store: give --store too"))
            return _merge(store, merge, json_output)
        _check_run_options(jobs, cluster, chunk, store, resume, csv_file, timeout)
        from ..analysis.cluster import ClusterError

        try:
            if store is not None:
                return _store_run(store, resume, rules, deals, jobs, cluster, chunk, optimal, max_states, json_output)
            return _memory_run(rules, deals, jobs, cluster, chunk, optimal, _limits(max_states, timeout), csv_file,
                               force, json_output)
        except ClusterError as error:  # the cluster's trouble, like a file's: exit 5
            raise CommandError(message_of(error), ExitStatus.FILE_ERROR) from None


def _refuse_with(option: str, others: dict[str, Any]) -> None:
    given = [name for name, value in others.items() if value is not None]
    if given:
        raise usage_error(text("{option} does not go with {others}", option=option, others=", ".join(given)))


def _check_run_options(jobs: int, cluster: str | None, chunk: int | None, store: str | None, resume: bool,
                       csv_file: str | None, timeout: float | None) -> None:
    from ..analysis.pool import MAX_JOBS

    if jobs < 1:
        raise usage_error(text("--jobs {value}: must be at least 1", value=jobs))
    if jobs > MAX_JOBS:
        raise usage_error(text("--jobs {value}: at most {most} (a worker process each)", value=jobs, most=MAX_JOBS))
    if cluster is not None and jobs != 1:
        raise usage_error(text("--jobs and --cluster do not go together: --cluster local:N runs N processes here"))
    if chunk is not None and (cluster is None or chunk < 1):
        raise usage_error(text("--chunk N needs --cluster, and N at least 1"))
    if resume and store is None:
        raise usage_error(text("--resume continues a --store: give --store FILE"))
    if store is not None and csv_file is not None:
        raise usage_error(text("--csv does not go with --store: read a store with --report, or with sqlite3"))
    if timeout is not None and (store is not None or cluster is not None):
        raise usage_error(text("--timeout does not go with --store or --cluster: their verdicts must not depend on "
                               "the machine's load; use --max-states"))


def _cluster_spec(cluster: str | None) -> ClusterSpec | None:
    if cluster is None:
        return None
    from ..analysis.cluster import ClusterSpec, ClusterUnavailableError, import_distributed

    try:
        spec = ClusterSpec.parse(cluster)
        import_distributed()
    except ValueError as error:
        raise usage_error(message_of(error)) from None
    except ClusterUnavailableError as error:
        raise usage_error(message_of(error)) from None
    return spec


def _outcomes(client: Any, rules: Rules, numbers: Iterable[int], total: int, jobs: int, limits: Limits,
              optimal: bool, chunk: int | None) -> Iterator[DealOutcome]:
    """Outcomes from the cluster when there is a client, else from local processes."""
    if client is not None:
        from ..analysis.cluster import cluster_outcomes

        return cluster_outcomes(client, rules, numbers, total, limits, optimal, chunk)
    from ..analysis.survey import iter_outcomes

    return iter_outcomes(rules, numbers, jobs, limits, optimal)


class _maybe_cluster:
    """A Dask client while the block runs when ``spec`` names a cluster; ``None`` otherwise."""

    def __init__(self, spec: Any) -> None:
        self.spec = spec
        self._context: Any = None

    def __enter__(self) -> Any:
        if self.spec is None:
            return None
        from ..analysis.cluster import connect

        self._context = connect(self.spec)
        return self._context.__enter__()

    def __exit__(self, *exc_info: object) -> Any:
        if self._context is not None:
            return self._context.__exit__(*exc_info)  # type: ignore[arg-type]
        return None


def _store_run(path: str, resume: bool, rules: str | None, deals: str | None, jobs: int, cluster: str | None,
               chunk: int | None, optimal: bool, max_states: int | None, json_output: bool) -> None:
    from ..analysis import stored_survey
    from ..analysis.survey_report import report_of
    from ..solver import DEFAULT_LIMITS, Limits

    if max_states is not None and max_states < 1:
        raise usage_error(text("--max-states {value}: must be at least 1", value=max_states))
    spec = _cluster_spec(cluster)
    default_states = DEFAULT_LIMITS.max_states or 5_000_000
    try:
        run = stored_survey.begin(path, resume, rules, deals, max_states, default_states, optimal)
    except ValueError as error:
        raise usage_error(message_of(error)) from None
    with run.store:
        identity = run.store.identity
        limits = Limits(max_states=identity.max_states, timeout=None)  # positions only: no clock decides
        started = time.perf_counter()
        try:
            bar_shown = _show_bar(json_output)
            with _maybe_cluster(spec) as client, _progress(len(run.numbers), run.already, bar_shown) as bar:
                todo = run.store.missing(run.numbers)
                stored_survey.fill(run.store, _outcomes(client, run.rules, todo, run.todo, jobs, limits,
                                                        identity.optimal, chunk), bar)
        except KeyboardInterrupt:
            kept = run.store.count(run.numbers)
            _interrupted(text("interrupted: {kept:,} of {total:,} deals are in {name} ({solved:,} solved by this "
                              "run); `pyramide survey --store {name} --resume` goes on", kept=kept,
                              total=len(run.numbers), name=shown(path), solved=kept - run.already), json_output)
        seconds = time.perf_counter() - started
        solved = run.store.count(run.numbers) - run.already
        summary = report_of(run.store)
    where = text("cluster {spec}", spec=str(spec)) if spec else plural("{count} process", "{count} processes", jobs)
    run_figures = {"solved": solved, "already_stored": run.already, "seconds": round(seconds, 3),
                   "deals_per_second": round(solved / seconds, 1) if seconds > 0 else None, "on": where}
    if json_output:
        emit_json({"ok": True, **summary.to_dict(), "run": run_figures})
        return
    echo(summary.render())
    if solved:
        echo(text("this run: {solved:,} deals solved on {where} in {seconds} s ({speed:,} deals/s); {stored:,} were "
                  "stored before", solved=solved, where=where, seconds=f"{seconds:.1f}",
                  speed=run_figures["deals_per_second"], stored=run.already))
    else:
        echo(text("this run: {solved:,} deals solved on {where} in {seconds} s; {stored:,} were stored before",
                  solved=solved, where=where, seconds=f"{seconds:.1f}", stored=run.already))


def _memory_run(rules: str | None, deals: str | None, jobs: int, cluster: str | None, chunk: int | None,
                optimal: bool, limits: Limits, csv_file: str | None, force: bool, json_output: bool) -> None:
    from ..analysis.survey import SurveyReport, parse_deal_range
    from ..engine.rules import Rules

    chosen = Rules.parse(rules or "N")
    if deals is None:
        raise usage_error(text("--deals A-B is needed (or --report FILE to read a store)"))
    try:
        numbers = parse_deal_range(deals)
    except ValueError as error:
        raise usage_error(message_of(error)) from None
    spec = _cluster_spec(cluster)
    if csv_file is not None:
        check_output(csv_file, force, SURVEY_CSV)  # before the survey, not after it
    if spec is not None:
        from ..solver import DEFAULT_LIMITS, Limits

        limits = Limits(max_states=limits.max_states or DEFAULT_LIMITS.max_states, timeout=None)
    outcomes: list[DealOutcome] = []
    try:
        with _maybe_cluster(spec) as client, _progress(len(numbers), 0, _show_bar(json_output)) as bar:
            for outcome in _outcomes(client, chosen, numbers, len(numbers), jobs, limits, optimal, chunk):
                outcomes.append(outcome)
                if bar is not None:
                    bar(1)
    except KeyboardInterrupt:
        _interrupted(text("interrupted after {count:,} deals; nothing kept (--store FILE keeps results as they come)",
                          count=len(outcomes)), json_output)
    outcomes.sort(key=lambda outcome: outcome.number)
    result = SurveyReport(chosen.name, tuple(outcomes))
    summary = result.summary()
    if csv_file is not None:
        summary["csv"] = _write_csv(check_output(csv_file, force, SURVEY_CSV), result)
    if json_output:
        emit_json({"ok": True, **summary})
    else:
        echo(_survey_text(summary))


def _interrupted(message: str, json_output: bool) -> None:
    if json_output:
        document = error_document(message, ExitStatus.OK)
        document["error"].update(kind="interrupted", exit_status=INTERRUPTED)
        emit_json(document)
    else:
        say_error(message)
    raise typer.Exit(INTERRUPTED)


def _report(files: list[str], json_output: bool) -> None:
    from ..analysis.survey_report import report_of
    from ..storage.survey_store import SurveyStore

    reports = []
    for file in files:
        with SurveyStore.open(file) as opened:
            reports.append(report_of(opened))
    if json_output:
        emit_json({"ok": True, "stores": [item.to_dict() for item in reports]})
    else:
        echo(joined((item.render() for item in reports), "\n\n"))


def _merge(target: str, source: str, json_output: bool) -> None:
    from ..storage.survey_store import SurveyStore

    with SurveyStore.open(source) as incoming:
        if Path(target).exists():
            destination = SurveyStore.open(target, writable=True)
        else:
            destination = SurveyStore.create(target, incoming.identity, incoming.info("deals") or "")
        with destination:
            added, present = destination.merge(incoming)
            total = destination.count()
    if json_output:
        emit_json({"ok": True, "store": target, "merged": source, "added": added, "already_stored": present,
                   "deals": total})
    else:
        echo(text("merged {source!r} into {target!r}: {added:,} deals added, {present:,} already there with the "
                  "same results; {total:,} deals in all", source=source, target=target, added=added, present=present,
                  total=total))


def _show_bar(json_output: bool) -> bool:
    return not json_output and sys.stderr.isatty()


class _progress:
    """A rich progress bar on stderr (deals done, deals/s, time left) when asked; else nothing."""

    def __init__(self, total: int, done: int, show: bool) -> None:
        self.total, self.done, self.show = total, done, show
        self._bar: Any = None

    def __enter__(self) -> Callable[[int], None] | None:
        if not self.show:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TimeRemainingColumn
        from rich.text import Text

        class Speed(ProgressColumn):
            def render(self, task: Any) -> Text:
                speed = task.speed
                return Text("" if speed is None else f"{speed:,.1f} deals/s")

        self._bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), Speed(),
                             TimeRemainingColumn(), transient=True)
        self._bar.__enter__()
        task = self._bar.add_task("solving", total=self.total, completed=self.done)
        return lambda count: self._bar.advance(task, count)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


SURVEY_COLUMNS = ("number", "code", "verdict", "seconds", "states", "actions", "max_pyramid_removed", "max_removed")
"""The columns of ``survey --csv`` (the fields of a :class:`~pyramide_cli.analysis.survey.DealOutcome`)."""
SURVEY_CSV = csv_output(text("a survey CSV"), ",".join(SURVEY_COLUMNS))


def _write_csv(path: Path, report: SurveyReport) -> str:
    import csv
    import io

    from ..storage.files import atomic_write

    buffer = io.StringIO()
    rows = list(report.csv_rows())
    writer = csv.DictWriter(buffer, fieldnames=SURVEY_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write(path, buffer.getvalue())
    return str(path)


def _survey_text(summary: dict[str, Any]) -> str:
    deals = summary["deals"]
    low, high = summary["ci95"]
    seconds, states = summary["seconds"], summary["states"]
    lines = [
        plural("rules {rules}, deals {first}-{last} ({count} deal)",
               "rules {rules}, deals {first}-{last} ({count} deals)", deals, rules=summary["rules"],
               first=summary["first"], last=summary["last"]),
        text("  winnable   {count:>6}  {percent:6.2f} %  (95 % CI {low:.2f}-{high:.2f} %)", count=summary["winnable"],
             percent=summary["winnable_percent"], low=low, high=high),
        text("  unwinnable {count:>6}  {percent:6.2f} %", count=summary["unwinnable"],
             percent=100 * summary["unwinnable"] / deals),
        text("  unknown    {count:>6}  {percent:6.2f} %", count=summary["unknown"],
             percent=100 * summary["unknown"] / deals),
        text("  time   mean {mean:.1f} ms, median {median:.1f} ms, p99 {p99:.1f} ms, max {max:.1f} ms",
             mean=1000 * seconds["mean"], median=1000 * seconds["median"], p99=1000 * seconds["p99"],
             max=1000 * seconds["max"]),
        text("  states mean {mean:,.0f}, median {median:,.0f}, p99 {p99:,.0f}, max {max:,.0f}", mean=states["mean"],
             median=states["median"], p99=states["p99"], max=states["max"]),
    ]
    if "csv" in summary:
        lines.append(text("  rows written to {name}", name=shown(summary["csv"])))
    return joined(lines, "\n")
