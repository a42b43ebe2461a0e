"""``pyramide play``: taps and moves from the arguments, from stdin, or at an interactive prompt."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..storage.session import PlayResult, Step, play_words
from .steps import refusal_line
from .app import SUMMARIES, app
from .completion import complete_play
from .common import (
    AsciiOption, CommandError, DbOption, FrenchOption, JsonOption, board_style, echo, emit_json, extras_of,
    kind_of, print_steps, reporting, say_error, shown, stats_db, status_for, usage_error,
)
from ..engine.errors import PyramideError, quoted
from ..engine.text import message_of, text
from .render import Style, card_name, game_state, render_board
from .exit_codes import ExitStatus

if TYPE_CHECKING:
    from ..storage.archive import Replaced

PLAY_HELP = """Play taps and moves on a save file (R11-R15).

With TAP_OR_MOVE arguments they are applied in order; the first one refused stops the command
(exit 3) and what came before it stays played.  Without arguments, one tap or move is read per
line from stdin when it is not a terminal; at a terminal the full-screen board opens (click or
key the cards; ? lists the keys; --watch plays the solver's line on it), or with --line (or
TERM=dumb) an interactive prompt (hint, undo, help, new, restart, quit).  The selection persists
in the file between commands, so `play g.yaml 10C` then
`play g.yaml 3S` removes the pair.  After a refused pair tap the second card stays selected
(R13) and that selection is saved; any other refusal leaves the file byte-for-byte unchanged.

\b
Taps:  7C  10♣  T♣  RD (French)  stock (draw or recycle)  waste (the top waste card)
Moves: 10C+3S  KD  draw  recycle  undo  resign

\b
Examples:
  pyramide play g.yaml KD 10C 3S          # remove K♦, then the pair 10♣+3♠
  pyramide play g.yaml draw --quiet       # draw a card, print nothing
  printf 'draw\\nKS\\n' | pyramide play g.yaml
  pyramide play g.yaml 7C 7S --json       # exit 3: the sum must equal 13

A game that ends here (won, lost, or resigned) is counted in the statistics (`pyramide stats`),
once; --no-record leaves it out.  A statistics database that cannot take it gives a warning line
and changes nothing else.  A session also takes `new` (a new deal, same rules; `new hard` for a
level), `restart` (this deal again) and `resign`: the last game is kept in the games folder of
the data folder (never deleted) and the next one takes FILE.  --new-if-finished does the same
before playing when FILE holds a finished game (`make play` uses it).

Exit: 0 ok, 2 unreadable tap or move, 3 refused, 4 bad save file, 5 missing file, not a regular
file or lock timeout (with --json the error lists the steps saved before it), 7 --watch: the
solver's search limit reached.
"""


LINE_HELP = "At a terminal: the line-by-line prompt instead of the full-screen board."
WATCH_HELP = ("Open the board playing the solver's line from the current position, one action at a time; "
              "without a terminal, print each action and its board (the save is not changed).")
NO_RECORD_HELP = "Do not count a game that ends here in the statistics."
NEW_IF_FINISHED_HELP = ("When FILE holds a finished game: keep it in the games folder (counted in the statistics) "
                        "and deal a new game into FILE first (same rules and level).")


def step_document(step: Step) -> dict[str, Any]:
    result = step.result
    return {
        "input": step.text,
        "action": result.action.value,
        "move": None if result.move is None else str(result.move),
        "refusal": None if result.refusal is None else result.refusal.value,
        "message": result.message,
        "points": step.points,
        "score": step.score,
        "selected": None if step.selected is None else str(step.selected),
    }


def play_document(path: Path, results: list[PlayResult], last: PlayResult | None, **extra: Any) -> dict[str, Any]:
    """The JSON document of a ``play`` command, batch or session (``docs/cli.md``)."""
    refused = next((result.refused for result in results if result.refused is not None), None)
    document: dict[str, Any] = {"ok": refused is None}
    if refused is not None:
        assert refused.result.refusal is not None
        document["error"] = {
            "kind": kind_of(ExitStatus.ILLEGAL_MOVE),
            "exit_status": int(ExitStatus.ILLEGAL_MOVE),
            "message": refusal_line(refused),
            "refusal": refused.result.refusal.value,
            "input": refused.text,
        }
    document.update({
        "file": str(path),
        "steps": [step_document(step) for result in results for step in result.steps],
        "refused": None if refused is None else step_document(refused),
        "written": any(result.written for result in results),
        **extra,
    })
    if last is not None:
        document["state"] = game_state(last.game, extras_of(last.data))
    return document


@app.command(help=PLAY_HELP, short_help=SUMMARIES["play"],
             no_args_is_help=True)
def play(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="The save file (made by `pyramide deal`).", show_default=False)],
    taps: Annotated[Optional[list[str]], typer.Argument(
        metavar="TAP_OR_MOVE", help="Taps or moves, applied in order.", show_default=False,
        autocompletion=complete_play)] = None,
    assist: Annotated[Optional[bool], typer.Option(
        "--assist/--no-assist",
        help="Error help (R15) for this command; default: the file's setting (on unless dealt with --no-assist).",
        show_default=False)] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="Print nothing on success (messages of refusals still go to stderr).")] = False,
    db: DbOption = None,
    no_record: Annotated[bool, typer.Option("--no-record", help=NO_RECORD_HELP)] = False,
    new_if_finished: Annotated[bool, typer.Option("--new-if-finished", help=NEW_IF_FINISHED_HELP)] = False,
    json_output: JsonOption = False,
    ascii: AsciiOption = False,
    french: FrenchOption = False,
    line: Annotated[bool, typer.Option("--line", help=LINE_HELP)] = False,
    watch: Annotated[bool, typer.Option("--watch", help=WATCH_HELP)] = False,
) -> None:
    path = Path(file)
    style = board_style(ascii, french)
    with reporting(json_output):
        board = not taps and not line and not json_output and wants_board()
        if watch and (taps or line or json_output):
            raise usage_error(text("--watch plays the solver's line from the saved position: not with taps, "
                                   "--line or --json"))
        if watch and not board:
            from .watch_line import print_watch

            print_watch(path, style)  # no terminal: the line printed, one action at a time
            return
        stats = None if no_record else stats_db(db)
        kept: dict[str, Any] = {}
        replaced = None
        if new_if_finished:
            from .interactive import start_next_if_over

            replaced = start_next_if_over(path, stats, talking=not (json_output or quiet or board))
            if replaced is not None:
                if replaced.kept is not None:
                    kept["kept"] = [str(replaced.kept)]
                if replaced.warning is not None:
                    kept["warnings"] = [replaced.warning]
                    if not json_output:
                        say_error(replaced.warning)
        if taps:
            from ..i18n.words import canonical_word
            from .interactive import SESSION_WORDS

            taps = [canonical_word(tap) for tap in taps]  # the board's words in the reader's language
            session_word = next((tap for tap in taps if tap.lower() in SESSION_WORDS), None)
            if session_word is not None:
                raise usage_error(text("{word} works in a play session (`pyramide play {name}` at a prompt, or a line "
                                       "of stdin), not as an argument", word=quoted(session_word), name=shown(file)))
            try:
                result = play_words(path, taps, assist=assist, stats=stats)
            except PyramideError as error:
                raise failure_after(error, path, []) from error
            if not (json_output or quiet):
                print_steps(result, style)
            if not json_output:
                for warning in result.warnings:
                    say_error(warning)
            warnings = kept.pop("warnings", []) + result.warnings
            finish(path, [result], result, style, json_output, quiet, **kept,
                   **({"warnings": warnings} if warnings else {}))
            return
        if board:
            open_board(path, assist, stats, ascii, french or style.french, watch, replaced)
            return
        from .interactive import run_session

        interactive = sys.stdin.isatty() and not json_output
        reconfigure = getattr(sys.stdin, "reconfigure", None)
        if reconfigure is not None:  # a byte that is not UTF-8 makes an unreadable line (exit 2), not a crash
            reconfigure(errors="surrogateescape")
        played: list[PlayResult] = []
        try:
            results, last, extra = run_session(path, sys.stdin, interactive, assist, style, json_output, quiet,
                                               stats=stats, results_so_far=played)
        except PyramideError as error:
            raise failure_after(error, path, played) from error
        except KeyboardInterrupt:  # Ctrl-C: what was played is saved (and listed with --json)
            raise failure_after(CommandError(text("interrupted"), ExitStatus.INTERRUPTED), path, played) from None
        for key, values in kept.items():
            extra[key] = values + extra.get(key, [])
        finish(path, results, last, style, json_output, quiet or interactive, **extra)


def wants_board() -> bool:
    """The board opens when stdin, stdout and stderr are terminals that can take it (``TERM=dumb``
    cannot).  Textual draws on stderr: with stderr sent to a file the board would be drawn there."""
    import os

    streams = (sys.stdin, sys.stdout, sys.stderr)
    return all(stream.isatty() for stream in streams) and os.environ.get("TERM", "") not in ("", "dumb")


def open_board(path: Path, assist: bool | None, stats: Path | None, ascii: bool, french: bool, watch: bool,
               replaced: Replaced | None = None) -> None:
    """The full-screen board (``pyramide_cli.board``, the only module that imports Textual); ``replaced``:
    what ``--new-if-finished`` did, said on the board's message line (the screen hides what was printed)."""
    import os

    from ..board import run_board
    from ..board.layout import Style as BoardStyle
    from ..storage.save import load_game
    from .interactive import end_message, next_save
    from .render import can_encode_symbols

    saved = load_game(path)  # a missing or bad save: one line and its exit status, before the screen is taken
    messages: list[str] = []
    if replaced is not None and replaced.replaced:
        if replaced.kept is not None:
            messages.append(text("The last game is kept in the games folder as {name}.", name=replaced.kept.name))
        messages.append(text("A new deal: {code} (rules {rules}).", code=saved.data.deal, rules=saved.data.rules))
    if replaced is not None and replaced.warning is not None:
        messages.append(replaced.warning)
    style = BoardStyle(ascii=ascii or not can_encode_symbols(sys.stdout), french=french)
    run_board(path, assist, stats, style, color=not os.environ.get("NO_COLOR"), watch=watch, messages=tuple(messages),
              next_save=lambda game, data, restart, level: next_save(game, data, restart, level, False),
              end_message=end_message, refusal_line=refusal_line)


def failure_after(error: PyramideError, path: Path, played: list[PlayResult]) -> CommandError:
    """An error in the middle of a session (a lock timeout, an unreadable line) that still says what was
    saved before it: its JSON document lists those ``steps``, so a client that retries does not play
    them twice (they are in the file)."""
    return CommandError(message_of(error), status_for(error), file=str(path),
                        steps=[step_document(step) for result in played for step in result.steps],
                        written=any(result.written for result in played))


def finish(path: Path, results: list[PlayResult], last: PlayResult | None, style: Style,
           json_output: bool, quiet: bool, **extra: Any) -> None:
    """Print the JSON document or the board (the steps are printed as they happen); exit 3 on a refusal."""
    refused = next((result.refused for result in results if result.refused is not None), None)
    if json_output:
        emit_json(play_document(path, results, last, **extra))
    else:
        if not quiet and last is not None:
            echo(render_board(last.game, style, extras_of(last.data)))
        if refused is not None:
            say_error(refusal_line(refused, lambda card: card_name(card, style)))
    if refused is not None:
        raise typer.Exit(int(ExitStatus.ILLEGAL_MOVE))

