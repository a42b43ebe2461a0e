"""A play session: taps and moves one per line, from a person at a prompt or from a pipe.

Each line is its own batch (:func:`~pyramide_cli.storage.session.play_words`): locked, applied and saved
at once, so nothing is lost if the session dies, and another process may play the same file in
between (its moves show up at the next line).  Besides taps and moves a line may say ``hint``,
``help`` (``?``), ``show`` or ``quit`` (``q``); ``s``, ``w`` and ``u`` stand for stock, waste and
undo; blank lines and ``#`` comments are skipped.

At a prompt a refusal is shown and play goes on; from a pipe the first refusal ends the session
(exit 3) and an unreadable line ends it with exit 2, like the same words given as arguments.

The stopwatch (R19) counts the wall time of the session: from its start to each line, and from
the last line to its end, each pause counted up to ten minutes; nothing once the game is over.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..storage.files import LockTimeoutError
from ..engine.game import Game
from ..engine.errors import MoveSyntaxError, UnknownWordError
from .render import Style, card_name, render_board
from ..storage.session import PlayResult, Stopwatch, play_words, refusal_line
from .common import echo, extras_of, print_steps, say_error, shown

if TYPE_CHECKING:
    from ..storage.stats import StatsDB

QUIT_WORDS = ("quit", "q", "exit")
HELP_WORDS = ("help", "?", "h")
SHOW_WORDS = ("show", "board")
ALIASES = {"s": "stock", "w": "waste", "u": "undo"}
SESSION_WORDS = (*QUIT_WORDS, *HELP_WORDS, *SHOW_WORDS, "hint")
PROMPT = "pyramide> "

SESSION_HELP = """\
Tap a card by its name to select it; tap a second card to pair them (values adding to 13).
  7C 10C 3S   cards: A 2-10 (or T) J Q K, then C D H S (or ♣ ♦ ♥ ♠); French R D V work too
  KD          a free king is removed at once
  10C+3S      a pair in one go;  KD  a king
  stock (s)   draw a card, or turn the waste over when the stock is empty
  waste (w)   tap the top waste card;  draw, recycle: the same as moves
  undo (u)    take back the last action (up to 100; the move counter does not go down)
  hint        a suggestion;  show  the board again;  help (?)  this text;  quit (q)  leave
Every action is saved at once: quit any time and `pyramide play FILE` to go on."""


def unknown_word_message(word: str) -> str:
    """What a piped session says about a line it cannot read (it ends the session, exit 2)."""
    return (f"unknown word {word!r}: a line holds a card (7C), a pair (10C+3S), stock, waste, draw, recycle, "
            "undo, hint, show, help or quit")


def hint_text(game: Game) -> str:
    """The hint for the game (the solver is imported on the first ``hint``, not at start-up)."""
    from ..analysis.hint import hint_for

    return str(hint_for(game))


def _lines(stream: IO[str], interactive: bool) -> Any:
    """Input lines: ``input()`` at a terminal (with line editing when available), else the stream."""
    if not interactive:
        yield from stream
        return
    try:
        import readline  # noqa: F401 - line editing and history for input()
    except ImportError:  # pragma: no cover - not on every platform
        pass
    while True:
        try:
            yield input(PROMPT)
        except EOFError:
            sys.stdout.write("\n")
            return


def run_session(
    path: Path, stream: IO[str], interactive: bool, assist: bool | None, style: Style,
    json_output: bool, quiet: bool, stats: StatsDB | Path | None = None,
    results_so_far: list[PlayResult] | None = None,
) -> tuple[list[PlayResult], PlayResult, dict[str, Any]]:
    """Play lines from ``stream`` (or the prompt) on the save at ``path``.

    Returns the batches played (for the final report), the last one (its game is the game now)
    and extra fields for the JSON document (the hints given, warnings).  Warnings (a game the
    statistics could not count) are printed as they come, or only returned with ``json_output``.
    The batches are also appended to ``results_so_far`` as they are saved, so a caller still knows
    them when an error ends the session.
    """
    warnings: list[str] = []

    def played(result: PlayResult) -> PlayResult:
        warnings.extend(result.warnings)
        if not json_output:
            for warning in result.warnings:
                say_error(warning)
        return result

    last = played(play_words(path, [], assist, stats=stats))
    results: list[PlayResult] = [] if results_so_far is None else results_so_far
    hints: list[str] = []
    stopwatch = Stopwatch()
    name = (lambda card: card_name(card, style))

    def show() -> None:
        echo(render_board(last.game, style, extras_of(last.data)))

    if interactive:
        show()
        echo("Type help for the commands, quit to leave.")
    try:
        for line in _lines(stream, interactive):
            text = line.strip()
            word = ALIASES.get(text.lower(), text)
            lowered = word.lower()
            if not text or text.startswith("#"):
                continue
            if lowered in QUIT_WORDS:
                break
            if lowered in HELP_WORDS:
                if not json_output:
                    echo(SESSION_HELP)
                continue
            if lowered in SHOW_WORDS:
                if not json_output:
                    show()
                continue
            if lowered == "hint":
                hint = hint_text(last.game)
                hints.append(hint)
                if not json_output:
                    echo(f"hint: {hint}")
                continue
            try:
                result = played(play_words(path, [word], assist, stopwatch.lap(), expected_text=last.text,
                                           stats=stats))
            except UnknownWordError as error:
                if not interactive:
                    raise MoveSyntaxError(unknown_word_message(error.word)) from None
                say_error(f"unknown word {error.word!r}: type help to see the cards, moves and commands you can use")
                continue
            except (MoveSyntaxError, LockTimeoutError) as error:
                if not interactive:
                    raise
                say_error(str(error))
                continue
            last = result
            if not json_output and (interactive or not quiet):
                if result.changed_elsewhere and interactive:
                    echo("(the file was played by another process meanwhile; its moves are included)")
                print_steps(result, style)
            if interactive:
                show()
                if result.refused is not None:
                    echo(refusal_line(result.refused, name))
                continue
            results.append(result)
            if result.refused is not None:
                break
    except KeyboardInterrupt:
        sys.stdout.write("\n")
    last = played(play_words(path, [], assist, stopwatch.lap(), stats=stats))
    if interactive and not quiet:
        echo(f"Saved to {shown(path)}.")
    extra: dict[str, Any] = {"hints": hints} if hints else {}
    if warnings:
        extra["warnings"] = warnings
    return results, last, extra
