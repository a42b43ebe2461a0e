"""``pyramide solve``, ``pyramide hint`` and ``pyramide survey``: the solver on the command line.

The solver, the hint module and rich are imported inside the commands, so other commands stay fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..storage.files import SaveLock, check_output, csv_output
from .app import app
from .completion import complete_rules
from .common import CommandError, JsonOption, counted, echo, emit_json, reporting, shown, usage_error
from .exit_codes import ExitStatus

if TYPE_CHECKING:  # the solver and the analysis are imported inside the commands
    from ..analysis.survey import DealOutcome, SurveyReport
    from ..engine.game import Game
    from ..engine.moves import Move
    from ..solver import SolveLimits, SolveResult
    from ..storage.save import SaveData

LIMIT_HELP = "Give up (verdict unknown, exit 7) after exploring this many positions [default: 5000000]."
TIMEOUT_HELP = ("Also give up after this many seconds (opt-in: off by default, so that a verdict never "
                "depends on the machine's load; the result says when it struck).")
SURVEY_LIMIT_HELP = "Count a deal as unknown when its search explores this many positions [default: 5000000]."
SURVEY_TIMEOUT_HELP = ("Also count a deal as unknown when its search takes this many seconds (opt-in; the counts "
                       "then depend on the machine).")
HINT_LIMIT_HELP = "Search at most this many positions before a rule-of-thumb move [default: 300000]."
HINT_TIMEOUT_HELP = "Also stop searching after this many seconds (opt-in; the hint then depends on the machine)."

SOLVE_HELP = """Solve a deal from its start, or a save file from its current position.

The verdict is proven: winnable (with a line of moves that `pyramide play` accepts), unwinnable
(an exhaustive search found no win; it also tells the most pyramid cards, and the most cards in
all, that can still be off the table — cards already removed count), or unknown (a search limit
was reached first).

\b
Examples:
  pyramide solve PY1-T-AAAAAAB
  pyramide solve g.yaml --optimal          # fewest actions (draws and recycles count)
  pyramide solve PY1-N-AAAAAAB -o won.yaml # the winning line as a save; replay confirms it
  pyramide solve g.yaml --json --max-states 100000

The verdict goes to stdout (with --json: "ok": true) whether the deal can be won or not;
exit 6 tells a script it cannot, as grep's exit 1 tells it found nothing.  Only "unknown" is an
error: one line on stderr (with --json: "ok": false), exit 7.

Exit: 0 winnable, 6 unwinnable, 7 search limit reached (unknown), 2 bad option,
4 bad code or save file, 5 file error (missing, exists without --force, unwritable).
"""

HINT_HELP = """Suggest the next action for a save file (R27), named as you would tap it.

When the position can still be won: the next action of a winning line.  When it cannot: says so,
with the most pyramid cards that can still come off, and the action leading there.  When the
solver reaches its search limit: a rule-of-thumb move, and says it is one.  The save is never changed.

\b
Examples:
  pyramide hint g.yaml
  pyramide hint g.yaml --json

Exit: 0 a hint was given, 2 bad option, 4 bad save file or code, 5 missing file.
"""

SURVEY_HELP = """Solve a range of deal numbers and report how many can be won.

Prints the winnable / unwinnable / unknown counts and percentages, a 95 % confidence interval
(Wilson) of the winnable share, and the solve time and positions explored (mean, median, p99,
max).  A progress bar shows on a terminal.  --jobs N spreads the deals over N processes; the
results are the same as with one (only the measured times differ).

\b
Examples:
  pyramide survey --rules T --deals 0-999 --jobs 2
  pyramide survey --rules N+strict --deals 0-99 --csv strict.csv
  pyramide survey --rules T --deals 0-199 --json

Exit: 0 done, 2 bad option or rules, 5 the CSV file exists (without --force) or cannot be written.
"""


def _limits(max_states: int | None, timeout: float | None) -> SolveLimits:
    from ..solver import DEFAULT_LIMITS, SolveLimits

    if max_states is not None and max_states < 1:
        raise usage_error(f"--max-states {max_states}: must be at least 1")
    if timeout is not None and not timeout > 0:
        raise usage_error(f"--timeout {timeout}: must be a positive number of seconds")
    return SolveLimits(max_states=DEFAULT_LIMITS.max_states if max_states is None else max_states, timeout=timeout)


@app.command(help=SOLVE_HELP, short_help="Prove a deal or save winnable (with a line) or unwinnable.",
             no_args_is_help=True)
def solve(
    target: Annotated[str, typer.Argument(
        metavar="CODE|FILE", help="A deal code, or a save file (solved from its current position).",
        show_default=False)],
    optimal: Annotated[bool, typer.Option("--optimal", help="Find a line with the fewest actions (slower).")] = False,
    max_states: Annotated[Optional[int], typer.Option(
        "--max-states", metavar="N", help=LIMIT_HELP, show_default=False)] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", metavar="SECONDS", help=TIMEOUT_HELP, show_default=False)] = None,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="FILE", help="Write the winning line as a save file (replay confirms it won).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the -o file if it is a save (or an empty file).")] = False,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        limits = _limits(max_states, timeout)
        from ..solver import Verdict, solve as run_solver
        from .targets import load_target

        if output is not None:
            check_output(output, force)  # before the search, not after it
        game, data, source = load_target(target)
        result = run_solver(game, optimal=optimal, limits=limits)
        # A proven verdict is an answer (ok), winnable or not; only "unknown" is a failure to answer.
        document: dict[str, Any] = {"ok": result.verdict is not Verdict.UNKNOWN, "deal": game.deal.code,
                                    "rules": game.deal.rules.name, "file": source, "from_move": len(game.history),
                                    **result.to_dict()}
        written = None
        if output is not None and result.winnable:
            written = _write_solution(Path(output), game, data, result.solution, force)
        document["output"] = written
        status = {Verdict.WINNABLE: ExitStatus.OK, Verdict.UNWINNABLE: ExitStatus.UNWINNABLE,
                  Verdict.UNKNOWN: ExitStatus.SEARCH_LIMIT}[result.verdict]
        message = _verdict_message(result)
        if status is ExitStatus.SEARCH_LIMIT:
            raise CommandError(message, status, **{key: value for key, value in document.items() if key != "ok"})
        if json_output:
            emit_json(document)
        else:
            echo(message)
            if result.winnable:
                echo(" ".join(str(move) for move in result.solution))
            if written:
                echo(f"saved to {shown(written)}")
        if status is not ExitStatus.OK:
            raise typer.Exit(int(status))  # unwinnable: an answer, with its own status (like grep's 1)


def _verdict_message(result: SolveResult) -> str:
    from ..solver import Limit, Verdict

    figures = counted(result.states, "{count:,} position", "{count:,} positions") + f", {result.seconds:.3f} s"
    if result.verdict is Verdict.WINNABLE:
        actions = counted(len(result.solution), "{count} action", "{count} actions")
        if result.optimal:
            return f"winnable: fewest actions, {actions} ({figures})"
        return f"winnable: a winning line, {actions} ({figures})"
    if result.verdict is Verdict.UNWINNABLE:
        return (f"unwinnable: proven by exhaustive search; at most {result.max_pyramid_removed} of 28 pyramid cards "
                f"and {result.max_removed} of 52 cards in all can be off the table ({figures})")
    if result.limit is Limit.TIMEOUT:
        return f"unknown: the --timeout struck before a verdict ({figures}); raise it, or leave it out"
    return f"unknown: the search used its whole budget before a verdict ({figures}); raise --max-states"


def _write_solution(path: Path, game: Game, data: SaveData | None, solution: Sequence[Move], force: bool) -> str:
    from ..storage.save import SaveData, write_save

    for move in solution:
        game.apply(move)
    saved = SaveData.from_game(game, data)
    with SaveLock(path):
        check_output(path, force)
        write_save(path, saved)
    return str(path)


@app.command(help=HINT_HELP, short_help="Suggest the next action for a save file (never changes it).",
             no_args_is_help=True)
def hint(
    target: Annotated[str, typer.Argument(
        metavar="FILE", help="A save file (or a deal code: a hint for its start).", show_default=False)],
    max_states: Annotated[Optional[int], typer.Option(
        "--max-states", metavar="N", help=HINT_LIMIT_HELP, show_default=False)] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", metavar="SECONDS", help=HINT_TIMEOUT_HELP, show_default=False)] = None,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        from ..analysis.hint import HINT_LIMITS, hint_for
        from .targets import load_target

        limits = _limits(HINT_LIMITS.max_states if max_states is None else max_states, timeout)
        game, _, source = load_target(target)
        given = hint_for(game, limits)
        if json_output:
            emit_json({"ok": True, "file": source, "deal": game.deal.code, **given.to_dict()})
        else:
            echo(str(given))


@app.command(help=SURVEY_HELP, short_help="Solve a range of deals: winnable share with a 95 % interval, timings.")
def survey(
    deals: Annotated[str, typer.Option("--deals", metavar="A-B", help="Deal numbers, both ends included, e.g. 0-999.")],
    rules: Annotated[str, typer.Option(
        "--rules", "-r", metavar="RULES", help="Rules such as N, T, T+strict.", autocompletion=complete_rules)] = "N",
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", help="Worker processes.")] = 1,
    csv_file: Annotated[Optional[str], typer.Option(
        "--csv", metavar="FILE", help="Also write one row per deal to FILE.", show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the --csv file if it exists (only a survey CSV or an empty file).")] = False,
    optimal: Annotated[bool, typer.Option(
        "--optimal", help="Solve each winnable deal for the fewest actions.")] = False,
    max_states: Annotated[Optional[int], typer.Option(
        "--max-states", metavar="N", help=SURVEY_LIMIT_HELP, show_default=False)] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", metavar="SECONDS", help=SURVEY_TIMEOUT_HELP, show_default=False)] = None,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        from ..engine.rules import Rules
        from ..analysis.survey import parse_deal_range, survey as run_survey

        chosen = Rules.parse(rules)
        try:
            numbers = parse_deal_range(deals)
        except ValueError as error:
            raise usage_error(str(error)) from None
        if jobs < 1:
            raise usage_error(f"--jobs {jobs}: must be at least 1")
        limits = _limits(max_states, timeout)
        if csv_file is not None:
            check_output(csv_file, force, SURVEY_CSV)  # before the survey, not after it
        with _progress(len(numbers), show=not json_output and sys.stderr.isatty()) as advance:
            report = run_survey(chosen, numbers, jobs=jobs, limits=limits, optimal=optimal, progress=advance)
        summary = report.summary()
        if csv_file is not None:
            summary["csv"] = _write_csv(check_output(csv_file, force, SURVEY_CSV), report)
        if json_output:
            emit_json({"ok": True, **summary})
        else:
            echo(_survey_text(summary))


class _progress:
    """A rich progress bar on stderr when it is a terminal; otherwise nothing."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.show = total, show
        self._bar: Any = None

    def __enter__(self) -> Callable[[DealOutcome], None] | None:
        if not self.show:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self._bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                             TimeRemainingColumn(), transient=True)
        self._bar.__enter__()
        task = self._bar.add_task("solving", total=self.total)
        return lambda outcome: self._bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


SURVEY_CSV = csv_output("a survey CSV", "number")


def _write_csv(path: Path, report: SurveyReport) -> str:
    import csv
    import io

    from ..storage.files import atomic_write

    buffer = io.StringIO()
    rows = list(report.csv_rows())
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["number"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write(path, buffer.getvalue())
    return str(path)


def _survey_text(summary: dict[str, Any]) -> str:
    deals = summary["deals"]
    low, high = summary["ci95"]
    seconds, states = summary["seconds"], summary["states"]
    lines = [
        f"rules {summary['rules']}, deals {summary['first']}-{summary['last']} "
        f"({counted(deals, '{count} deal', '{count} deals')})",
        f"  winnable   {summary['winnable']:>6}  {summary['winnable_percent']:6.2f} %  "
        f"(95 % CI {low:.2f}-{high:.2f} %)",
        f"  unwinnable {summary['unwinnable']:>6}  {100 * summary['unwinnable'] / deals:6.2f} %",
        f"  unknown    {summary['unknown']:>6}  {100 * summary['unknown'] / deals:6.2f} %",
        f"  time   mean {1000 * seconds['mean']:.1f} ms, median {1000 * seconds['median']:.1f} ms, "
        f"p99 {1000 * seconds['p99']:.1f} ms, max {1000 * seconds['max']:.1f} ms",
        f"  states mean {states['mean']:,.0f}, median {states['median']:,.0f}, p99 {states['p99']:,.0f}, "
        f"max {states['max']:,.0f}",
    ]
    if "csv" in summary:
        lines.append(f"  rows written to {shown(summary['csv'])}")
    return "\n".join(lines)
