"""``pyramide replay``: re-play a save's history from its deal code and check what the file says."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..engine.errors import quoted
from ..engine.game import Game
from ..engine.position import Outcome
from ..engine.text import joined, plural, text
from ..storage.save import Replay, SaveData, parse_save, read_save_text, replay as replay_save, save_source
from ..storage.save_batch import (
    Expectation, Expected, expectation_checks, expectation_named, known_expectations, recorded_expectations,
)
from .render import OUTCOME_WORDS, TERMINATION_WORDS, Style, game_state, render_board
from .app import SUMMARIES, app
from .completion import complete_expect
from .common import (
    AsciiOption, FrenchOption, JsonOption, board_style, echo, emit_json, extras_of, kind_of, reporting,
    say_error, shown, usage_error, whole_number,
)
from .exit_codes import ExitStatus

REPLAY_HELP = """Re-play a save file's history from its deal code and check the recorded score, move
counter, status, termination and selection against it.

Exit 0 when everything agrees (and every --expect holds); exit 1 naming the first divergence,
e.g. an action the rules refuse or a score the history does not give.  Made for CI: a recorded
game of a known deal is a regression test of the engine.  A save may carry its own expectations
in its leading comments: "# pyramide-expect: dead", "# pyramide-expect-score: 70".

Several files, folders (every .yaml/.yml file under them whose first key is pyramide-save) or
--junit replay a batch in one process: one line per save, a summary, exit 1 when any save
diverges, misses an expectation or cannot be read.  Under GITHUB_ACTIONS=true each failure is
also an ::error annotation on stderr.

\b
Examples:
  pyramide replay g.yaml
  pyramide replay examples/won-n.yaml --expect won --expect-score 280
  pyramide replay examples/stuck-n.yaml --expect dead   # lost: no card can ever be removed again
  pyramide replay g.yaml --upto 0                # the board as dealt
  pyramide replay g.yaml --upto 5                # the board after the first 5 actions
  pyramide replay g.yaml --step --ascii          # every position, one after the other
  pyramide replay saves/ --junit replay.xml      # a batch, with a JUnit report for CI

Exit: 0 agrees, 1 divergence or --expect not met (a batch: any save failed), 2 bad option,
4 bad save file, 5 missing file (a batch: --junit file not writable).
"""


def _expectations(game: Game, expect: Expectation | None, expect_score: int | None) -> list[dict[str, Any]]:
    return expectation_checks(game, Expected(expect, expect_score))


def _prefix_game(data: SaveData, actions: int) -> Game:
    """The game after the first ``actions`` entries of the history (stopping at an illegal one)."""
    return data.walk(actions).game


def _steps(data: SaveData, style: Style, json_output: bool) -> list[dict[str, Any]]:
    """Every position of the replay: printed at once in text mode, returned for JSON."""
    documents = []

    def emit(number: int, move: str | None, game: Game) -> None:
        if json_output:
            state = game_state(game, history=False)  # the history would make each step grow with the game
            documents.append({"action": number, "move": move, "state": state})
        else:
            echo(text("-- start of {code}", code=data.deal) if move is None
                 else text("-- action {number}: {move}", number=number, move=move))
            echo(render_board(game, style))
            echo()

    emit(0, None, Game(data.deal_object()))
    data.walk(each=lambda number, move, game: emit(number, str(move), game))
    return documents


def _expected(value: str) -> Expectation:
    """The status or termination ``--expect`` names (any case); a usage error listing them otherwise."""
    member = expectation_named(value)
    if member is None:
        raise usage_error(text("--expect {value}: expected one of {known}", value=quoted(value),
                               known=known_expectations()))
    return member


def _report(path: Path, data: SaveData, result: Replay, checks: list[dict[str, Any]]) -> str:
    game = result.game
    verdict = text("agrees with the file") if result.first is None else text("DIVERGES from the file")
    if game.outcome is Outcome.LOST and game.termination is not None:
        ending = text("lost ({how})", how=TERMINATION_WORDS[game.termination])
    else:
        ending = OUTCOME_WORDS[game.outcome]
    lines = [text("replay {name}: {actions}, score {score}, moves {moves}, {ending}: {verdict}", name=shown(path),
                  actions=plural("{count} action", "{count} actions", len(data.history)), score=game.score,
                  moves=game.move_count, ending=ending, verdict=verdict)]
    if data.format == 1 and data.status is not game.outcome and result.first is None:
        lines.append(text("  save format 1: its status {status} agrees with that format's end rule (draws and "
                          "recycles stayed legal at a dead position); by today's the game is {ending}",
                          status=OUTCOME_WORDS[data.status], ending=ending))
    lines += [text("  {divergence}", divergence=divergence.message) for divergence in result.divergences]
    for check in checks:
        if check["ok"]:
            lines.append(text("  expect {check} {expected}: ok", check=check["check"], expected=check["expected"]))
        else:
            lines.append(text("  expect {check} {expected}: FAILED, got {actual}", check=check["check"],
                              expected=check["expected"], actual=check["actual"]))
    return joined(lines, "\n")


@app.command(help=REPLAY_HELP, short_help=SUMMARIES["replay"],
             no_args_is_help=True)
def replay(
    files: Annotated[list[str], typer.Argument(
        metavar="FILE|DIR...", show_default=False,
        help="The save file to check; or several, and folders (every save under them), checked as a batch.")],
    expect: Annotated[Optional[str], typer.Option(
        "--expect", metavar="STATUS",
        help="Fail (exit 1) unless the replayed game has this status (won, lost, playing) or termination "
             "(cleared, no-moves, dead, resigned).",
        show_default=False, autocompletion=complete_expect)] = None,
    expect_score: Annotated[Optional[int], typer.Option(
        "--expect-score", parser=whole_number, metavar="N", help="Fail (exit 1) unless the replayed score is N.",
        show_default=False)] = None,
    step: Annotated[bool, typer.Option("--step", help="Print every position of the replay.")] = False,
    upto: Annotated[Optional[int], typer.Option(
        "--upto", parser=whole_number, metavar="N", help="Show the position after the first N actions.",
        show_default=False)] = None,
    junit: Annotated[Optional[str], typer.Option(
        "--junit", metavar="FILE", show_default=False,
        help="Write a JUnit XML report, one test case per save (replays as a batch, even of one file).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the --junit file if it is a JUnit report (or an empty file).")] = False,
    json_output: JsonOption = False,
    ascii: AsciiOption = False,
    french: FrenchOption = False,
) -> None:
    style = board_style(ascii, french)
    with reporting(json_output):
        expected = None if expect is None else _expected(expect)
        if len(files) > 1 or junit is not None or Path(files[0]).is_dir():
            if step or upto is not None:
                raise usage_error(text("--step and --upto show one save: name a single file"))
            from .replay_batch import run_batch

            status = run_batch(files, Expected(expected, expect_score), junit, force, json_output)
            if status:
                raise typer.Exit(status)
            return
        path = Path(files[0])
        content = read_save_text(path)
        data = parse_save(content, save_source(path))
        if upto is not None and not 0 <= upto <= len(data.history):
            raise usage_error(plural("--upto {upto}: the history has {count} action (0 to {count})",
                                     "--upto {upto}: the history has {count} actions (0 to {count})",
                                     len(data.history), upto=upto))
        result = replay_save(data)
        checks = (expectation_checks(result.game, recorded_expectations(content, save_source(path)))
                  + _expectations(result.game, expected, expect_score))
        board_game = result.game if upto is None else _prefix_game(data, upto)
        steps = _steps(data, style, json_output) if step else []
        failures = [divergence.message for divergence in result.divergences]
        failures += [text("expected {check} {expected}, replay gives {actual}", check=check["check"],
                          expected=check["expected"], actual=check["actual"]) for check in checks if not check["ok"]]
        if json_output:
            document = _document(path, data, result, checks, board_game, steps, upto)
            if failures:
                document["ok"] = False
                document["error"] = {"kind": kind_of(ExitStatus.CHECK_FAILED),
                                     "exit_status": int(ExitStatus.CHECK_FAILED), "message": failures[0]}
            emit_json(document)
        else:
            if upto is not None:
                echo(render_board(board_game, style))
            echo(_report(path, data, result, checks))
            if failures:
                say_error(text("{name}: {failure}", name=str(path), failure=failures[0]))
        if failures:
            raise typer.Exit(int(ExitStatus.CHECK_FAILED))


def _document(path: Path, data: SaveData, result: Replay, checks: list[dict[str, Any]], shown: Game,
              steps: list[dict[str, Any]], upto: int | None) -> dict[str, Any]:
    game = result.game
    document: dict[str, Any] = {
        "ok": True,
        "file": str(path),
        "deal": data.deal,
        "actions": len(data.history),
        "score": game.score,
        "moves": game.move_count,
        "status": game.outcome.value,
        "termination": None if game.termination is None else game.termination.value,
        "format": data.format,
        "agrees": result.first is None,
        "divergence": None if result.first is None else _divergence(result.first),
        "divergences": [_divergence(divergence) for divergence in result.divergences],
        "expectations": checks,
        "upto": upto,
        "state": game_state(shown, extras_of(data)._replace(selected=result.selected) if upto is None
                            else extras_of(None)),
    }
    if steps:
        document["steps"] = steps
    return document


def _divergence(divergence: Any) -> dict[str, Any]:
    return {"field": divergence.field, "recorded": divergence.recorded, "replayed": divergence.replayed,
            "action": divergence.action, "message": divergence.message}
