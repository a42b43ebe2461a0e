"""A play session: taps and moves one per line, from a person at a prompt or from a pipe.

Each line is its own batch (:func:`~pyramide_cli.storage.session.play_words`): locked, applied and saved
at once, so nothing is lost if the session dies, and another process may play the same file in
between (its moves show up at the next line).  Besides taps and moves a line may say ``hint``,
``help`` (``?``), ``show``, ``quit`` (``q``), and — a game that goes on — ``new`` (a new deal under
the same rules; ``new hard`` for a level), ``restart`` (the same deal from its start) and
``resign``; ``s``, ``w`` and ``u`` stand for stock, waste and undo; blank lines and ``#`` comments
are skipped.

``new`` and ``restart`` put the next game in the same file and keep the one that was there in the
games folder (:mod:`pyramide_cli.storage.archive`): a finished game is counted in the statistics
once and kept; before ``new`` a game in progress is resigned (at a prompt, after asking), while
``restart`` keeps it without counting it anywhere, so no streak breaks; a deal without a single
action is simply replaced.

At a prompt a refusal is shown and play goes on; from a pipe the first refusal ends the session
(exit 3) and an unreadable line ends it with exit 2, like the same words given as arguments (a
byte that is not UTF-8 makes a line unreadable).  Ctrl-C ends a session with exit 130
(``pyramide: interrupted``) once its time is saved.

The stopwatch (R19) counts the wall time of the session: from its start to each line, and from
the last line to its end, each pause counted up to ten minutes; nothing once the game is over.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..engine.errors import MoveSyntaxError, PyramideError, UnknownWordError, quoted
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.position import Termination
from ..engine.text import message_of, plural, text
from ..i18n import for_display, tr
from ..i18n.words import canonical_line
from ..storage.files import LockTimeoutError
from ..storage.session import KeptSave, PlayResult, Stopwatch, count_hint, play_words
from .steps import refusal_line
from .common import echo, extras_of, print_steps, say_error, shown
from .render import LEVEL_LABELS, LEVEL_WORDS, Style, card_name, format_duration, render_board

if TYPE_CHECKING:
    from ..engine.level import Level
    from ..storage.archive import Replaced
    from ..storage.save import SaveData
    from ..storage.stats import StatsDB

QUIT_WORDS = ("quit", "q", "exit")
HELP_WORDS = ("help", "?", "h")
SHOW_WORDS = ("show", "board")
GAME_WORDS = ("new", "restart")
"""Session words of a game that goes on (``resign`` is a move: it works as an argument too)."""
ALIASES = {"s": "stock", "w": "waste", "u": "undo"}
SESSION_WORDS = (*QUIT_WORDS, *HELP_WORDS, *SHOW_WORDS, "hint", *GAME_WORDS)
PROMPT = "pyramide> "

SESSION_HELP = text("""\
Tap a card by its name to select it, then a second card to pair them (sum 13).
  7C 10C 3S   cards: A 2-10 (or T) J Q K, then C D H S (or ♣ ♦ ♥ ♠); R D V too
  KD          a free king is removed at once;  10C+3S  a pair in one go
  stock (s)   draw a card, or turn the waste over when the stock is empty
  waste (w)   tap the top waste card;  draw, recycle: the same as moves
  undo (u)    take back the last action (up to 100; the move count stays)
  hint        a suggestion;  show  the board;  help (?)  this text;  quit (q)
  new         a new deal, same rules (new easy, new hard …: of that level)
  restart     this deal again from its start;  resign  give this game up
Every action is saved at once: quit any time; `pyramide play FILE` goes on.
A game that ends is counted in your statistics (`pyramide stats`).""")
"""The session's help, at most 80 columns a line in every language; a translation names the
language's own words (:mod:`pyramide_cli.i18n.words`), and the English ones work everywhere."""

OVER_HINT = text("Type new for a new deal (new hard: a Hard one), restart to replay it, or quit.")
YES_WORDS = ("y", "yes", "o", "oui", "j", "ja", "כ", "כן")
"""Answers that mean yes to a question at the prompt, in every language (the default is no)."""


def unknown_word_message(word: str) -> str:
    """What a piped session says about a line it cannot read (it ends the session, exit 2)."""
    return text("unknown word {word}: a line holds a card (7C), a pair (10C+3S), stock, waste, draw, recycle, "
                "undo, hint, show, help, new, restart, resign or quit", word=quoted(word))


def hint_text(game: Game, selected: Card | None = None) -> str:
    """The hint for the game from the selection ``selected`` (the solver is imported on the first
    ``hint``, not at start-up)."""
    from ..analysis.hint import hint_for

    return hint_for(game, selected=selected).text


def end_message(result: PlayResult) -> str:
    """The line a person reads when a game has ended: how, the score, the moves and the time."""
    data, game = result.data, result.game
    figures = text("score {score}, {moves}, time {time}", score=game.score,
                   moves=plural("{count} move", "{count} moves", game.move_count),
                   time=format_duration(data.time_played))
    if game.termination is Termination.CLEARED:
        return text("You won: the pyramid is cleared ({figures}).", figures=figures)
    if game.termination is Termination.RESIGNED:
        return text("You resigned this game ({figures}).", figures=figures)
    if game.termination is Termination.DEAD:
        return text("Game over: no card can ever be removed again ({figures}).", figures=figures)
    return text("Game over: no more moves possible ({figures}).", figures=figures)


def next_save(game: Game, data: SaveData, restart: bool, level: Level | None, talking: bool) -> SaveData:
    """The save of the next game: the same deal from its start (``restart``: same level and daily
    date), or a new deal under the same rules — of ``level``, else of the last game's level (proven
    winnable), else any deal."""
    from ..storage.save import SaveData as SaveDataType

    if restart:
        return SaveDataType.new(game.deal, assist=data.assist, level=data.level, daily=data.daily)
    wanted = level or data.level
    if wanted is None:
        import secrets

        from ..engine.deal import MAX_DEAL_NUMBER, Deal

        deal = Deal.from_number(secrets.randbelow(MAX_DEAL_NUMBER + 1), game.deal.rules)
    else:
        from .grade_commands import pick_deal

        if talking:
            echo(text("Looking for a {level} deal...", level=LEVEL_LABELS[wanted]))
        deal, wanted, _ = pick_deal(wanted.value, None, False, None, game.deal.rules, False)
    return SaveDataType.new(deal, assist=data.assist, level=wanted)


def keep_and_replace(path: Path, new: SaveData, stats: StatsDB | Path | None, expected_text: str) -> Replaced:
    """The next game into ``path``, the last one kept in the games folder (see :mod:`~pyramide_cli.storage.archive`)."""
    from ..storage.archive import replace_game
    from ..storage.places import games_folder

    return replace_game(path, new, games_folder(), stats, expected_text)


def replaced_lines(replaced: Replaced, new: SaveData, restart: bool) -> list[str]:
    """What a person reads after ``new``, ``restart`` or ``play --new-if-finished``."""
    if not replaced.replaced:
        return [text("The file was played by another process meanwhile: nothing was replaced.")]
    lines = [] if replaced.kept is None else [text("The last game is kept as {name}.", name=shown(replaced.kept))]
    if new.level is not None:
        level = LEVEL_WORDS[new.level]
        if restart:
            lines.append(text("The same deal again: {code} (rules {rules}), level {level}.", code=new.deal,
                              rules=new.rules, level=level))
        else:
            lines.append(text("A new deal: {code} (rules {rules}), level {level}.", code=new.deal, rules=new.rules,
                              level=level))
    elif restart:
        lines.append(text("The same deal again: {code} (rules {rules}).", code=new.deal, rules=new.rules))
    else:
        lines.append(text("A new deal: {code} (rules {rules}).", code=new.deal, rules=new.rules))
    return lines


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


class Session:
    """One session on one save file: the lines it reads and what it prints (see the module docstring)."""

    def __init__(self, path: Path, interactive: bool, assist: bool | None, style: Style, json_output: bool,
                 quiet: bool, stats: StatsDB | Path | None, results: list[PlayResult] | None = None) -> None:
        self.path, self.interactive, self.assist, self.style = path, interactive, assist, style
        self.json_output, self.quiet, self.stats = json_output, quiet, stats
        self.results: list[PlayResult] = [] if results is None else results
        self.hints: list[str] = []
        self.warnings: list[str] = []
        self.kept: list[str] = []
        self.stopwatch = Stopwatch()
        self.save = KeptSave(path)  # the game between lines: each line plays on it, unless the file changed
        self.last = self.played(play_words(path, [], assist, stats=stats, kept=self.save))

    # -- output ---------------------------------------------------------------------------------
    @property
    def talking(self) -> bool:
        """Whether to print what happens: at a prompt always, from a pipe unless --quiet or --json."""
        return not self.json_output and (self.interactive or not self.quiet)

    def show(self) -> None:
        echo(render_board(self.last.game, self.style, extras_of(self.last.data)))

    def warn(self, warnings: list[str]) -> None:
        self.warnings.extend(warnings)
        if not self.json_output:
            for warning in warnings:
                say_error(warning)

    def played(self, result: PlayResult) -> PlayResult:
        self.warn(result.warnings)
        return result

    def ask(self, question: str) -> bool:
        """A yes/no question at a prompt (no by default); a pipe never asks: its lines mean yes."""
        if not self.interactive:
            return True
        try:
            return input(for_display(tr(text("{question} [y/N] ", question=question)))).strip().lower() in YES_WORDS
        except EOFError:
            return False

    # -- the loop -------------------------------------------------------------------------------
    def run(self, stream: IO[str]) -> None:
        if self.interactive:
            self.show()
            echo(text("Type help for the commands, quit to leave."))
            if self.over:
                echo(OVER_HINT)
        try:
            for line in _lines(stream, self.interactive):
                if not self.handle(line):
                    break
        except KeyboardInterrupt:  # Ctrl-C: the time so far is saved, then the command ends (exit 130)
            sys.stdout.write("\n")
            self.finish()
            raise
        self.finish()

    def finish(self) -> None:
        """Save the session's last stretch of time (R19)."""
        self.last = self.played(play_words(self.path, [], self.assist, self.stopwatch.lap(), stats=self.stats,
                                           kept=self.save))
        if self.interactive and not self.quiet:
            echo(text("Saved to {name}.", name=shown(self.path)))

    @property
    def over(self) -> bool:
        return self.last.game.is_over

    def handle(self, line: str) -> bool:
        """Do one line; False when the session ends."""
        entry = line.strip()
        if not entry or entry.startswith("#"):
            return True
        entry = canonical_line(entry)
        word = ALIASES.get(entry.lower(), entry)
        first, _, rest = word.lower().partition(" ")
        if word.lower() in QUIT_WORDS:
            return False
        if word.lower() in HELP_WORDS:
            if not self.json_output:
                echo(SESSION_HELP)
            return True
        if word.lower() in SHOW_WORDS:
            if not self.json_output:
                self.show()
            return True
        if word.lower() == "hint":
            self.hint()
            return True
        if first in ("new", "restart") and (first == "new" or not rest):
            return self.next_game(first, rest.strip())
        if word.lower() == "resign":
            if self.interactive and not self.over and not self.ask(
                    text("Resign this game? It counts as a loss in your statistics.")):
                return True
            word = "resign"
        return self.play(word)

    def hint(self) -> None:
        """A hint for the game as it stands; counted in the save (``hints``) for the statistics."""
        hint = hint_text(self.last.game, self.last.data.selected)
        count_hint(self.path, self.stopwatch.lap())
        self.last = self.played(play_words(self.path, [], self.assist, stats=self.stats, kept=self.save))
        self.hints.append(hint)
        if not self.json_output:
            echo(text("hint: {hint}", hint=hint))

    def play(self, word: str) -> bool:
        try:
            result = self.played(play_words(self.path, [word], self.assist, self.stopwatch.lap(),
                                            expected_text=self.last.text, stats=self.stats, kept=self.save))
        except UnknownWordError as error:
            if not self.interactive:
                raise MoveSyntaxError(unknown_word_message(error.word)) from None
            say_error(text("unknown word {word}: type help to see the cards, moves and commands you can use",
                           word=quoted(error.word)))
            return True
        except (MoveSyntaxError, LockTimeoutError) as error:
            if not self.interactive:
                raise
            say_error(message_of(error))
            return True
        self.last = result
        if self.talking:
            if result.changed_elsewhere and self.interactive:
                echo(text("(the file was played by another process meanwhile; its moves are included)"))
            print_steps(result, self.style)
        if result.ended and self.talking:
            echo(end_message(result))
        if self.interactive:
            self.show()
            if result.refused is not None:
                echo(refusal_line(result.refused, lambda card: card_name(card, self.style)))
            elif result.ended:
                echo(OVER_HINT)
            return True
        self.results.append(result)
        return result.refused is None

    # -- a game that goes on --------------------------------------------------------------------
    def next_game(self, word: str, level_text: str) -> bool:
        """``new [LEVEL]`` or ``restart``: the next game takes the file, the old one is kept."""
        from ..engine.level import Level

        level: Level | None = None
        if level_text:
            try:
                level = Level(level_text.lower())
            except ValueError:
                message = text("new {level}: a level is easy, medium, hard or expert "
                               "(or `new` alone for any deal under the same rules)", level=quoted(level_text))
                if not self.interactive:
                    raise MoveSyntaxError(message) from None
                say_error(message)
                return True
        if self.last.data.history and not self.last.game.is_over:
            restart = word == "restart"  # the same deal again: the attempt is kept, not counted (docs/cli.md)
            question = (text("Start this deal again? This game is kept, not counted in your statistics.") if restart
                        else text("The game in progress ends as resigned and is kept. Go on?"))
            if not self.ask(question) or (not restart and not self.resigned()):
                return True
        try:
            new = next_save(self.last.game, self.last.data, word == "restart", level, self.talking)
        except PyramideError as error:  # a level search that found nothing
            if not self.interactive:
                raise
            say_error(message_of(error))
            return True
        replaced = keep_and_replace(self.path, new, self.stats, self.last.text)
        if replaced.warning is not None:
            self.warn([replaced.warning])
        if replaced.kept is not None:
            self.kept.append(str(replaced.kept))
        self.stopwatch.lap()  # the new game's clock starts now
        self.last = self.played(play_words(self.path, [], self.assist, stats=self.stats, kept=self.save))
        if self.talking:
            for line in replaced_lines(replaced, new, word == "restart"):
                echo(line)
            if self.interactive:
                self.show()
        return True

    def resigned(self) -> bool:
        """Resign the game in progress (it is then counted as resigned); False when it could not be."""
        try:
            result = self.played(play_words(self.path, ["resign"], self.assist, self.stopwatch.lap(),
                                            stats=self.stats, kept=self.save))
        except (MoveSyntaxError, LockTimeoutError) as error:
            if not self.interactive:
                raise
            say_error(message_of(error))
            return False
        self.last = result
        if result.refused is not None:
            say_error(refusal_line(result.refused))
            return False
        return True

    def extra(self) -> dict[str, Any]:
        """The session's own fields for the JSON document."""
        extra: dict[str, Any] = {"hints": self.hints} if self.hints else {}
        if self.kept:
            extra["kept"] = self.kept
        if self.warnings:
            extra["warnings"] = self.warnings
        return extra


def start_next_if_over(path: Path, stats: StatsDB | Path | None, talking: bool) -> Replaced | None:
    """``play --new-if-finished``: when the save holds a finished game, keep it (counted once) and
    deal the next one into the file (same rules and level); ``None`` when the game is not over."""
    from ..storage.save import load_game

    saved = load_game(path)
    if not saved.game.is_over:
        return None
    new = next_save(saved.game, saved.data, False, None, talking)
    replaced = keep_and_replace(path, new, stats, saved.text)
    if talking:
        for line in replaced_lines(replaced, new, restart=False):
            echo(line)
    return replaced


def run_session(
    path: Path, stream: IO[str], interactive: bool, assist: bool | None, style: Style,
    json_output: bool, quiet: bool, stats: StatsDB | Path | None = None,
    results_so_far: list[PlayResult] | None = None,
) -> tuple[list[PlayResult], PlayResult, dict[str, Any]]:
    """Play lines from ``stream`` (or the prompt) on the save at ``path``.

    Returns the batches played (for the final report), the last one (its game is the game now)
    and extra fields for the JSON document (the hints given, the games kept, warnings).  Warnings
    (a game the statistics could not count) are printed as they come, or only returned with
    ``json_output``.  The batches are also appended to ``results_so_far`` as they are saved, so a
    caller still knows them when an error ends the session.
    """
    session = Session(path, interactive, assist, style, json_output, quiet, stats, results_so_far)
    session.run(stream)
    return session.results, session.last, session.extra()
