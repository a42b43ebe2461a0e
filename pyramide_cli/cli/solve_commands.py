"""``pyramide solve`` and ``pyramide hint``: the solver on the command line (``survey``: survey_commands).

The solver, the hint module and rich are imported inside the commands, so other commands stay fast.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..engine.text import plural, text
from ..storage.files import SaveLock, check_output
from .app import SUMMARIES, app
from .common import (
    CommandError, JsonOption, echo, emit_json, real_number, reporting, shown, usage_error, whole_number,
)
from .exit_codes import ExitStatus

if TYPE_CHECKING:  # the solver and the analysis are imported inside the commands
    from ..engine.game import Game
    from ..engine.moves import Move
    from ..solver import Limits, SolveResult
    from ..storage.save import SaveData

LIMIT_HELP = "Give up (verdict unknown, exit 7) after exploring this many positions [default: 5000000]."
TIMEOUT_HELP = ("Also give up after this many seconds (opt-in: off by default, so that a verdict never "
                "depends on the machine's load; the result says when it struck).")
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

def _limits(max_states: int | None, timeout: float | None) -> Limits:
    from ..solver import DEFAULT_LIMITS, Limits

    if max_states is not None and max_states < 1:
        raise usage_error(text("--max-states {value}: must be at least 1", value=max_states))
    if timeout is not None and not timeout > 0:
        raise usage_error(text("--timeout {value}: must be a positive number of seconds", value=timeout))
    return Limits(max_states=DEFAULT_LIMITS.max_states if max_states is None else max_states, timeout=timeout)


@app.command(help=SOLVE_HELP, short_help=SUMMARIES["solve"],
             no_args_is_help=True)
def solve(
    target: Annotated[str, typer.Argument(
        metavar="CODE|FILE", help="A deal code, or a save file (solved from its current position).",
        show_default=False)],
    optimal: Annotated[bool, typer.Option("--optimal", help="Find a line with the fewest actions (slower).")] = False,
    max_states: Annotated[Optional[int], typer.Option(
        "--max-states", parser=whole_number, metavar="N", help=LIMIT_HELP, show_default=False)] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", parser=real_number, metavar="SECONDS", help=TIMEOUT_HELP, show_default=False)] = None,
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
                echo(text("saved to {name}", name=shown(written)))
        if status is not ExitStatus.OK:
            raise typer.Exit(int(status))  # unwinnable: an answer, with its own status (like grep's 1)


def _verdict_message(result: SolveResult) -> str:
    from ..solver import Limit, Verdict

    figures = plural("{count:,} position, {seconds} s", "{count:,} positions, {seconds} s", result.states,
                     seconds=f"{result.seconds:.3f}")
    if result.verdict is Verdict.WINNABLE:
        actions = plural("{count} action", "{count} actions", len(result.solution))
        if result.optimal:
            return text("winnable: fewest actions, {actions} ({figures})", actions=actions, figures=figures)
        return text("winnable: a winning line, {actions} ({figures})", actions=actions, figures=figures)
    if result.verdict is Verdict.UNWINNABLE:
        return text("unwinnable: proven by exhaustive search; at most {pyramid} of 28 pyramid cards "
                    "and {cards} of 52 cards in all can be off the table ({figures})",
                    pyramid=result.max_pyramid_removed, cards=result.max_removed, figures=figures)
    if result.limit is Limit.TIMEOUT:
        return text("unknown: the --timeout struck before a verdict ({figures}); raise it, or leave it out",
                    figures=figures)
    return text("unknown: the search used its whole budget before a verdict ({figures}); raise --max-states",
                figures=figures)


def _write_solution(path: Path, game: Game, data: SaveData | None, solution: Sequence[Move], force: bool) -> str:
    from ..storage.save import SaveData, write_save

    for move in solution:
        game.apply(move)
    saved = SaveData.from_game(game, data)
    with SaveLock(path):
        check_output(path, force)
        write_save(path, saved)
    return str(path)


@app.command(help=HINT_HELP, short_help=SUMMARIES["hint"],
             no_args_is_help=True)
def hint(
    target: Annotated[str, typer.Argument(
        metavar="FILE", help="A save file (or a deal code: a hint for its start).", show_default=False)],
    max_states: Annotated[Optional[int], typer.Option(
        "--max-states", parser=whole_number, metavar="N", help=HINT_LIMIT_HELP, show_default=False)] = None,
    timeout: Annotated[Optional[float], typer.Option(
        "--timeout", parser=real_number, metavar="SECONDS", help=HINT_TIMEOUT_HELP, show_default=False)] = None,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        from ..analysis.hint import HINT_LIMITS, hint_for
        from .targets import load_target

        limits = _limits(HINT_LIMITS.max_states if max_states is None else max_states, timeout)
        game, data, source = load_target(target)
        given = hint_for(game, limits, selected=None if data is None else data.selected)
        if json_output:
            emit_json({"ok": True, "file": source, "deal": game.deal.code, **given.to_dict()})
        else:
            echo(given.text)
