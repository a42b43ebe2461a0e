"""``pyramide serve`` (a game server on stdin/stdout) and ``pyramide tournament`` (bots play many deals)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from ..bots.tournament import DEFAULT_MAX_ACTIONS, GameResult, TournamentSpec
from ..engine.errors import PyramideError
from ..engine.text import joined, message_of, text
from ..storage.files import check_output, csv_output
from .app import SUMMARIES, app
from .common import (
    CommandError,
    JsonOption,
    echo,
    emit_json,
    error_document,
    reporting,
    shown,
    status_for,
    usage_error,
    whole_number,
)
from .exit_codes import ExitStatus

SERVE_HELP = """Serve games to a bot: JSON lines on stdin, one response line per request on stdout.

Every request is a JSON object on one line with an "op"; every request gets exactly one response
line, flushed at once.  The first request is the handshake, {"op": "hello", "protocol": 1}.  Then:
new (a deal code, rules and number, a level, the daily deal, or a save file), state, legal, play
(taps or moves), undo, resign, hint, solve, save (atomic, to a file), quit.  An error is a
response with "ok": false and the same "error" fields as the command line's --json errors; a line
that is not JSON (or not UTF-8, longer than 1 MiB, nested deeper than 32 levels) or an unknown
request never ends the session.  Games are not recorded in the
statistics.  docs/protocol.md has every request and a full transcript.

\b
Examples:
  pyramide serve
  printf '%s\\n' '{"op":"hello","protocol":1}' '{"op":"new","code":"PY1-T-AAAAAAB"}' | pyramide serve

Exit: 0 when the input ends or after quit.
"""


def serve_error(error: PyramideError) -> dict[str, Any]:
    """The ``error`` object of a serve response: the command line's own fields for this error
    (a request that cannot be read is a usage error, like a bad command line)."""
    from ..bots.serve import RequestError

    details = error.details if isinstance(error, CommandError) else {}
    status = ExitStatus.USAGE if isinstance(error, RequestError) else status_for(error)
    return error_document(str(error), status, **details)["error"]


@app.command(help=SERVE_HELP, short_help=SUMMARIES["serve"])
def serve() -> None:
    from ..bots.serve import serve as run

    with reporting(False):  # Ctrl-C: exit 130 with one line; the client going away (a broken pipe): exit 0
        if sys.stdin is None or sys.stdout is None:
            raise CommandError(text("serve reads requests on its standard input and answers on its standard "
                                    "output: one of them is closed"), ExitStatus.FILE_ERROR)
        try:
            run(sys.stdin.buffer, sys.stdout.buffer, serve_error)
        except BrokenPipeError:
            raise
        except OSError as error:  # a full disk or a device error: no response can be given any more
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
            raise CommandError(text("serve cannot go on: {reason}", reason=error.strerror or str(error)),
                               ExitStatus.FILE_ERROR) from None


TOURNAMENT_HELP = """Let one bot play a range of deals; report its win rate and how it played.

The bot is a built-in one (--bot random, greedy or solver) or an external program (--engine
"CMD ARGS") speaking the engine protocol of docs/protocol.md (examples/engine.py is one in plain
Python).  Each deal is played once from its start; --level keeps only the deals of a level.  The
report: games won with the 95 % confidence interval of the win rate, mean score, mean pyramid
cards removed, mean actions per game, time per move, how the games ended, and any failures.

A bot's failure loses that game only, with the reason recorded: an illegal move (illegal), an
answer that is not a move (malformed), no answer (or its input not read) within --move-time
seconds (timeout), an engine that exits (crashed; it is restarted for the next game), or a game still going after
--max-actions actions (action-cap).  The tournament then resigns the game for the bot.  The
results do not depend on --jobs or on the machine's load (each game has its own seed, from --seed
and the deal number); only --move-time is wall-clock, and it only decides the games of an engine
that is too slow.  The engine runs in a process group of its own, killed whole when it stops: no
process it started outlives the tournament.  Games are not recorded in the statistics.

\b
Examples:
  pyramide tournament --bot greedy --rules T --deals 0-999
  pyramide tournament --bot solver --rules N --deals 0-99 --json
  pyramide tournament --engine "python3 examples/engine.py" --rules T --deals 0-999 --jobs 2
  pyramide tournament --bot random --level hard --deals 0-499 --csv games.csv --save-dir games/

Exit: 0 the tournament ran (whatever the bot's results), 2 bad option, 4 the engine does not
answer the handshake, 5 the engine cannot be started, --csv exists (without --force) or --csv or
--save-dir cannot be written.
"""


@app.command(help=TOURNAMENT_HELP, short_help=SUMMARIES["tournament"])
def tournament(
    bot: Annotated[Optional[str], typer.Option(
        "--bot", metavar="NAME", help="A built-in bot: random, greedy or solver (default greedy).",
        show_default=False)] = None,
    engine: Annotated[Optional[str], typer.Option(
        "--engine", metavar="CMD", help="An external engine: the command line that starts it.",
        show_default=False)] = None,
    deals: Annotated[str, typer.Option(
        "--deals", metavar="A-B", help="Deal numbers to play, both ends included.")] = "0-99",
    rules: Annotated[str, typer.Option(
        "--rules", "-r", metavar="RULES", help="Rules such as N, T, T+stock-top.")] = "N",
    level: Annotated[Optional[str], typer.Option(
        "--level", "-l", metavar="LEVEL",
        help="Play only the deals of this level among --deals: easy, medium, hard or expert.",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(
        "--seed", parser=whole_number, metavar="N",
        help="Seeds every game (with the deal number): the random bot and engines that draw lots.")] = 0,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", parser=whole_number, metavar="N",
        help="Processes to play in (the same results for any N).")] = 1,
    max_actions: Annotated[int, typer.Option(
        "--max-actions", parser=whole_number, metavar="N",
        help="Actions a game may take before it is resigned for the bot.")] = DEFAULT_MAX_ACTIONS,
    move_time: Annotated[str, typer.Option(
        "--move-time", metavar="SECONDS", help="Wall-clock seconds an engine may take for one move.")] = "10",
    csv_file: Annotated[Optional[str], typer.Option(
        "--csv", metavar="FILE", help="Also write one CSV row per game to FILE.", show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the --csv file if it exists (only a tournament CSV or an empty file).")] = False,
    save_dir: Annotated[Optional[str], typer.Option(
        "--save-dir", metavar="DIR", help="Write every game as a save file in DIR (replay confirms each).",
        show_default=False)] = None,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        from ..bots.tournament import run_tournament

        spec, name, version = _tournament_spec(bot, engine, deals, rules, level, seed, jobs, max_actions, move_time)
        if csv_file is not None:
            check_output(csv_file, force, TOURNAMENT_CSV)  # before the games, not after them
        targets = _save_targets(save_dir, spec) if save_dir is not None else None
        results = run_tournament(spec, jobs=jobs)
        if csv_file is not None:
            _write_csv(csv_file, force, results)
        if targets is not None:
            _write_saves(targets, spec, results, name)
        document = _tournament_document(spec, name, version, deals, results)
        if json_output:
            emit_json(document)
        else:
            echo(_tournament_text(document))


def _tournament_spec(bot: str | None, engine: str | None, deals: str, rules: str, level: str | None, seed: int,
                     jobs: int, max_actions: int, move_time: str) -> tuple[TournamentSpec, str, str | None]:
    """The tournament the options describe, and the bot's name and version (an engine says them in its handshake)."""
    from ..analysis.grade import GradeError, parse_level
    from ..analysis.survey import parse_deal_range
    from ..bots.players import BUILT_IN
    from ..bots.tournament import BotSpec
    from ..engine.rules import Rules

    if bot is not None and engine is not None:
        raise usage_error(text("give --bot or --engine, not both"))
    if bot is not None and bot not in BUILT_IN:
        raise usage_error(text("--bot {bot!r}: built-in bots are {known} (or --engine CMD)", bot=bot,
                               known=", ".join(BUILT_IN)))
    try:
        numbers = parse_deal_range(deals)
    except ValueError as error:
        raise usage_error(text("--deals: {reason}", reason=message_of(error))) from None
    if jobs < 1:
        raise usage_error(text("--jobs {value}: give 1 or more", value=jobs))
    if max_actions < 1:
        raise usage_error(text("--max-actions {value}: give 1 or more", value=max_actions))
    if seed < 0:
        raise usage_error(text("--seed {value}: give a whole number 0 or more", value=seed))
    try:
        seconds = float(move_time)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise usage_error(text("--move-time {value!r}: give a number of seconds above 0", value=move_time))
    if level is not None:
        try:
            level = parse_level(level).value
        except GradeError as error:
            raise usage_error(message_of(error)) from None
    spec = TournamentSpec(BotSpec(bot or "greedy" if engine is None else None, engine, seconds, max(10.0, seconds)),
                          Rules.parse(rules), numbers, seed, level, max_actions)
    if engine is None:
        return spec, spec.bot.name or "greedy", None
    return spec, *_probe_engine(spec)


def _probe_engine(spec: TournamentSpec) -> tuple[str, str | None]:
    """Start the engine once before any game: a command that cannot run, or an engine that does not
    answer the handshake, is an error of the whole tournament rather than a thousand lost games."""
    from ..bots.engine import EngineStartError
    from ..bots.players import BotFailure
    from ..storage.files import FileAccessError

    try:
        engine = spec.bot.build()  # an empty command or an unbalanced quote cannot run either (exit 5)
    except EngineStartError as error:
        raise FileAccessError(message_of(error)) from None
    try:
        engine.start()
    except EngineStartError as error:
        raise FileAccessError(message_of(error)) from None
    except BotFailure as failure:
        raise CommandError(text("engine {command!r}: {failure}", command=spec.bot.engine, failure=str(failure)),
                           ExitStatus.BAD_INPUT) from None
    finally:
        engine.stop()
    return engine.name, engine.version


def _save_targets(folder: str, spec: TournamentSpec) -> dict[int, Path]:
    """The save file of each deal in ``folder`` (made if missing); an existing save is never overwritten."""
    from ..engine.deal import Deal
    from ..storage.files import FileAccessError

    directory = Path(folder)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FileAccessError(text("--save-dir {folder!r}: cannot make the folder: {reason}", folder=folder,
                                   reason=error.strerror or str(error))) from None
    targets = {number: directory / f"{Deal.from_number(number, spec.rules).code}.yaml" for number in spec.numbers}
    taken = [str(path) for path in targets.values() if os.path.lexists(path)]  # a dangling link too
    if taken:
        raise FileAccessError(text("--save-dir: {name!r} already exists ({count} of the saves would be overwritten): "
                                   "choose an empty folder", name=taken[0], count=len(taken)))
    return targets


def _write_saves(targets: dict[int, Path], spec: TournamentSpec, results: list[GameResult], name: str) -> None:
    from dataclasses import replace

    from ..engine.deal import Deal
    from ..engine.game import Game
    from ..storage.files import atomic_write
    from ..storage.save import HEADER, SaveData

    for result in results:
        game = Game.replay(Deal.from_number(result.number, spec.rules), result.history)
        note = f"# Played by {shown(name)} in `pyramide tournament` (seed {spec.seed})"  # no control character
        if result.reason is not None:
            note += f"; resigned for it: {result.reason}"
        data = replace(SaveData.from_game(game, None), header=HEADER + note.replace("\n", " ") + "\n")
        atomic_write(targets[result.number], data.to_text())


CSV_FIELDS = ("number", "deal", "status", "termination", "score", "pyramid_removed", "actions", "bot_seconds",
              "reason", "detail")


TOURNAMENT_CSV = csv_output(text("a tournament CSV"), ",".join(CSV_FIELDS))


def _write_csv(file: str, force: bool, results: list[GameResult]) -> None:
    import csv
    import io

    from ..storage.files import atomic_write

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for result in results:
        writer.writerow(result.to_dict())
    atomic_write(check_output(file, force, TOURNAMENT_CSV), buffer.getvalue())


def _tournament_document(spec: TournamentSpec, name: str, version: str | None, deals: str,
                         results: list[GameResult]) -> dict[str, Any]:
    from ..bots.tournament import summary

    return {
        "ok": True,
        "bot": {"name": name, "version": version, "engine": spec.bot.engine},
        "rules": spec.rules.name, "deals": deals, "level": spec.level, "seed": spec.seed,
        "max_actions": spec.max_actions,
        "summary": summary(results),
        "games": [result.to_dict() for result in results],
    }


def _tournament_text(document: dict[str, Any]) -> str:
    figures = document["summary"]
    games = figures["games"]
    low, high = figures["win_rate_ci95"]
    bot = document["bot"]
    from ..engine.level import LEVEL_WORDS, Level
    from .render import TERMINATION_WORDS

    ending_words = {member.value: word for member, word in TERMINATION_WORDS.items()}

    who = shown(bot["name"]) + (f" {shown(bot['version'])}" if bot["version"] else "")  # an engine's words
    values = {"who": who, "deals": document["deals"], "rules": document["rules"], "games": games,
              "seed": document["seed"]}
    if document["level"]:
        head = text("tournament: {who} on deals {deals}, level {level} under {rules} ({games} games, seed {seed})",
                    level=LEVEL_WORDS[Level(document["level"])], **values)
    else:
        head = text("tournament: {who} on deals {deals} under {rules} ({games} games, seed {seed})", **values)
    lines = [
        head,
        text("  won                   {wins} of {games}  {rate:.1f} %  (95 % CI {low:.1f}-{high:.1f} %)",
             wins=figures["wins"], games=games, rate=100 * figures["win_rate"], low=100 * low, high=100 * high),
        text("  mean score            {score:.1f}", score=figures["mean_score"]),
        text("  mean pyramid removed  {removed:.2f} of 28", removed=figures["mean_pyramid_removed"]),
        text("  mean actions          {actions:.1f}", actions=figures["mean_actions"]),
        text("  time per move         {ms:.3f} ms", ms=figures["ms_per_move"]),
        text("  endings               {counts}", counts=_counts(figures["endings"], ending_words)),
        text("  failures              {counts}", counts=_counts(figures["failures"])),
    ]
    return joined(lines, "\n")


def _counts(counts: dict[str, int], words: dict[Any, str] | None = None) -> str:
    """``dead 3, no moves 1``: each key in the reader's words when ``words`` has it (terminations),
    else as the JSON has it (failure reasons); ``none`` when there is nothing to count."""
    if not counts:
        return text("none")
    words = words or {}
    return joined(text("{setting} {value}", setting=words.get(key, key), value=count)
                  for key, count in sorted(counts.items()))
