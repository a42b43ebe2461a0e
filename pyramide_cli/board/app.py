"""The full-screen board (Textual): a click or a key taps a card, and the board is redrawn in place.

One widget draws the :mod:`.layout` picture; this module turns clicks and keys into taps (through
:class:`~.session.BoardSession`, so each is saved at once), and runs the hint and the solver's line in
a worker thread, which Esc leaves behind.  The panels (end of game, keys, statistics) are in
:mod:`.panels`.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.style import Style as RichStyle
from rich.text import Text as RichText
from textual import events
from textual.app import App, ComposeResult
from textual.widget import Widget

from ..engine.cards import parse_card
from ..engine.errors import CardError, quoted
from ..engine.text import text
from . import adapter
from .adapter import STOCK, WASTE, BoardHint, Target, WatchLine
from .layout import Picture, Piece, Style, View, card_name, message_lines, moved_focus, picture, shown, target_at
from .panels import end_lines, help_lines, panel_keys, play_keys, stats_lines, watch_keys
from .session import BoardSession
from .typed import BOARD_WORDS, SHOW_WORDS, completed_card, new_level, starts_line, typed_word

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.level import Level

WATCH_STEP_SECONDS = 0.6
MOVES = {"left": "left", "right": "right", "up": "up", "down": "down", "h": "left", "l": "right", "k": "up",
         "j": "down"}


class BoardView(Widget):
    """The board, drawn from the app's picture; a click taps what is under it."""

    def render(self) -> RichText:
        return self.app.rendered(self.size.width, self.size.height)  # type: ignore[attr-defined, no-any-return]

    def on_click(self, event: events.Click) -> None:
        self.app.click(event.x, event.y)  # type: ignore[attr-defined]
        self.refresh()


class BoardApp(App[None]):
    """``pyramide play FILE`` at a terminal (see ``docs/cli.md``, "The board")."""

    CSS = "Screen { overflow: hidden; } BoardView { width: 100%; height: 100%; }"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: BoardSession, style: Style, *,
                 refusal_line: Callable[[Any, Callable[[Any], str]], str], color: bool = True, watch: bool = False,
                 end_message: Callable[[Any], str] | None = None, messages: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.session, self.style, self.color, self.end_message = session, style, color, end_message
        self.refusal_line = refusal_line
        self.focus_target: Target | None = None
        self.hint: BoardHint | None = None
        self.messages: tuple[str, ...] = messages
        self.refused = False
        self.typed = ""
        self.panel: str | None = None
        """``end``, ``help``, ``stats`` or ``confirm``: a panel drawn in place of the pyramid."""
        self.confirm: str | None = None
        self.asked_level: Level | None = None
        """The level of the new deal asked for by ``new hard`` (``None``: the game's own)."""
        self.job = 0
        """Counts hint and line searches: a result whose number is not the last one was cancelled."""
        self.thinking = False
        self.watching: Game | None = None
        self.line: WatchLine | None = None
        self.line_index = 0
        self.paused = False
        self.last_picture: Picture | None = None
        self.watch_at_start = watch
        self.shown_end = session.game.is_over

    def compose(self) -> ComposeResult:
        yield BoardView()

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        try:  # SIGTERM: the terminal is still there, put back as it was (SIGHUP: see run_board)
            loop.add_signal_handler(signal.SIGTERM, self.exit)
        except (NotImplementedError, RuntimeError, ValueError):  # pragma: no cover - not on every platform
            pass
        self.set_interval(1.0, self.tick)
        if self.session.game.is_over:
            self.panel = "end"
        elif self.watch_at_start:
            self.start_watch()

    # -- drawing ----------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.watching if self.watching is not None else self.session.game

    def view(self) -> View:
        data = self.session.data
        if self.panel is not None:
            keys = panel_keys(self.panel, self.style)
        elif self.watching is not None:
            keys = watch_keys(self.style)
        elif self.session.game.is_over:
            keys = panel_keys("over", self.style)
        else:
            keys = play_keys(self.style)
        messages = self.messages
        if self.thinking:
            messages = (text("Thinking (Esc cancels)"),)
        if self.typed:
            messages = (text("typing {name} (Enter plays it, Esc cancels)", name=self.typed),)
        hint = self.hint
        return View(self.session.time_played(), data.level, data.daily, self.focus_target,
                    hint.cards if hint is not None else (), bool(hint and hint.stock), messages, self.refused, keys,
                    selected=data.selected if self.watching is None else None)

    def picture(self, width: int) -> Picture:
        view = self.view()
        drawn = picture(self.game, self.style, view, width)
        if self.panel is not None:
            drawn = self.with_panel(drawn, width)
        self.last_picture = drawn
        return drawn

    def with_panel(self, drawn: Picture, width: int) -> Picture:
        """The picture with the panel's lines in place of the pyramid and the talon (no card to click)."""
        if self.panel == "end":
            lines = end_lines(self.session, self.end_message)
        elif self.panel == "help":
            lines = help_lines(self.style)
        elif self.panel == "stats":
            lines = stats_lines(self.session)
        else:
            lines = [self.confirm or ""]
        status = [line for line in drawn.lines if line and line[0].kind == "title"]
        keys = [line for line in drawn.lines if line and line[0].kind == "key"]
        body: list[list[Piece]] = []
        for number, line in enumerate(lines):
            body += message_lines(line, width, "title" if number == 0 else "message")
        return Picture([*status, [], *body, [], *keys], drawn.width, [])

    def rendered(self, width: int, height: int) -> RichText:
        drawn = self.picture(width)
        if width < drawn.width or height < len(drawn.lines):
            self.last_picture = Picture([], drawn.width, [])
            return RichText(shown(text("The terminal is too small for the board: it needs {width}x{height}, "
                                       "it has {columns}x{rows}.", width=drawn.width, height=len(drawn.lines),
                                       columns=width, rows=height)), no_wrap=False)
        out = RichText(no_wrap=True, overflow="crop")
        for number, line in enumerate(drawn.lines):
            if number:
                out.append("\n")
            for piece in line:
                out.append(piece.text, self.piece_style(piece))
        return out

    def piece_style(self, piece: Piece) -> RichStyle:
        red = self.color and piece.red
        return RichStyle(
            color="red" if red else None,
            dim=self.color and piece.kind == "blocked",
            bold=piece.kind in ("selected", "title", "refusal") or piece.hinted,
            reverse=piece.focus,
            underline=piece.hinted,
        )

    def redraw(self) -> None:
        self.query_one(BoardView).refresh()

    # -- clicks and keys --------------------------------------------------------------------------
    def click(self, x: int, y: int) -> None:
        drawn = self.last_picture
        if drawn is None or self.panel is not None or self.watching is not None or self.thinking:
            return
        target = target_at(drawn, y, x)
        if target is not None:
            self.focus_target = target
            self.tap(target)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.handle_key(event.key, event.character)
        self.redraw()

    def handle_key(self, key: str, character: str | None) -> None:
        if key == "ctrl+c" or (key == "q" and not self.typed):
            self.exit()
            return
        if key == "escape":
            self.escape()
            return
        if self.typed:
            self.type_key(key, character)
            return
        if self.panel is not None:
            self.panel_key(key)
            return
        if self.watching is not None:
            self.watch_key(key)
            return
        if self.thinking:
            return
        if self.session.game.is_over and key == "b":
            self.panel = "end"
            return
        if key in MOVES:
            self.move_focus(MOVES[key])
        elif key in ("enter", "space"):
            if self.focus_target is None:
                self.move_focus("down")
            if self.focus_target is not None:
                self.tap(self.focus_target)
        elif key == "d":
            self.tap(STOCK)
        elif key == "u":
            self.act("undo")
        elif key == "H":
            self.start_hint()
        elif key == "w":
            self.start_watch()
        elif key == "question_mark" or character == "?":
            self.panel = "help"
        elif key == "s":
            self.panel = "stats"
        elif key in ("n", "r", "X"):
            self.ask(key)
        elif starts_line(character):
            self.typed = character or ""

    def escape(self) -> None:
        """Esc: cancels what is going on (a search, a name being typed, a panel, the watch), else clears the hint."""
        if self.thinking:
            self.job += 1
            self.thinking = False
            self.messages = (text("Cancelled."),)
        elif self.typed:
            self.typed = ""
        elif self.watching is not None:
            self.stop_watch()
        elif self.panel is not None and self.panel != "end":
            self.panel = None
        else:
            self.hint, self.messages, self.refused = None, (), False

    def move_focus(self, direction: str) -> None:
        drawn = self.last_picture or self.picture(self.size.width)
        self.focus_target = moved_focus(drawn, self.focus_target, direction)

    def type_key(self, key: str, character: str | None) -> None:
        """A key while a name or a word is typed (:mod:`.typed`): a card's name taps it once complete,
        Enter plays the line, Backspace takes a character back; other keys are not typed."""
        if key == "enter":
            line, self.typed = self.typed, ""
            self.play_line(line)
        elif key == "backspace":
            self.typed = self.typed[:-1]
        elif character and len(character) == 1 and character.isprintable():
            card = completed_card(self.typed, character)
            if card is None:
                self.typed += character
            else:
                self.typed = ""
                self.focus_target = card
                self.tap(card)

    def play_line(self, line: str) -> None:
        """A typed line: a word the board does itself (``indice`` is the hint key), else a tap or a move."""
        word = typed_word(line)
        if not word:
            return
        asks_new, level, level_typed = new_level(word)
        if asks_new:
            if level is None:
                self.messages = (text("new {level}: a level is easy, medium, hard or expert "
                                      "(or `new` alone for any deal under the same rules)", level=quoted(level_typed)),)
                self.refused = True
            else:
                self.ask("n", level)
            return
        if word.lower() in BOARD_WORDS:
            self.handle_key(BOARD_WORDS[word.lower()], None)
        elif word.lower() not in SHOW_WORDS:
            self.act(word)

    # -- actions ----------------------------------------------------------------------------------
    def tap(self, target: Target) -> None:
        self.act(adapter.tap_word(target))

    def act(self, word: str) -> None:
        """One tap or move, saved at once; the message line says a refusal (R11, R13; R15 without error help)."""
        self.hint = None
        played = self.session.play(word)
        self.refused = played.result is None  # a word that is no tap, a lock that did not come
        self.messages = () if played.message is None else (played.message,)
        if played.refused is not None:
            step = played.refused
            self.messages = (*self.messages, self.refusal_line(step._replace(text=self.input_name(step.text)),
                                                               lambda card: card_name(card, self.style)))
            self.refused = True
        self.after_change()

    def input_name(self, word: str) -> str:
        """How a refusal names what was tapped: a card as the board draws it (the waste's top card for a
        click on the waste), the stock and the other words in the player's language, a move as typed."""
        waste_top = self.session.game.position.waste_top
        if word == WASTE and waste_top is not None:
            return card_name(waste_top, self.style)
        words = {STOCK: text("stock"), WASTE: text("waste"), "undo": text("undo"), "resign": text("resign"),
                 "draw": text("draw"), "recycle": text("recycle")}
        if word in words:
            return words[word]
        try:
            return card_name(parse_card(word), self.style)
        except CardError:
            return word

    def after_change(self) -> None:
        if self.session.game.is_over and not self.shown_end:
            self.shown_end = True
            self.panel = "end"
        elif not self.session.game.is_over:
            self.shown_end = False

    def ask(self, key: str, level: Level | None = None) -> None:
        """New deal (of ``level``, else of the game's level), restart or resign: asked first while a game
        is in progress (y confirms)."""
        game = self.session.game
        if key == "X" and game.is_over:
            return
        if not self.session.data.history or game.is_over:
            self.next_game(key == "r", level)
            return
        self.asked_level = level
        questions = {"n": text("Deal a new game? The game in progress ends as resigned. (y/n)"),
                     "r": text("Restart this deal? The game in progress is kept, not counted. (y/n)"),
                     "X": text("Resign this game? It is counted as lost. (y/n)")}
        self.confirm, self.panel = questions[key], "confirm:" + key

    def panel_key(self, key: str) -> None:
        panel = self.panel or ""
        if panel.startswith("confirm:"):
            self.panel, self.confirm = None, None
            if key == "y":
                wanted = panel.partition(":")[2]
                if wanted == "X":
                    self.act("resign")
                else:
                    self.next_game(wanted == "r", self.asked_level)
            return
        if panel == "end":
            if key in ("n", "r"):
                self.next_game(key == "r")
            elif key == "b":
                self.panel = None
            return
        self.panel = None

    def next_game(self, restart: bool, level: Level | None = None) -> None:
        self.hint, self.refused, self.focus_target = None, False, None
        self.messages = (self.session.next_game(restart, level),)
        self.panel = "end" if self.session.game.is_over else None
        self.shown_end = self.session.game.is_over

    # -- the clock and other processes ------------------------------------------------------------
    def tick(self) -> None:
        """Every second: the stopwatch shown, and the file re-read when another process played it."""
        if self.watching is None and not self.thinking and self.session.reload():
            self.messages = (text("The file was played by another process meanwhile: the board shows it now."),)
            self.hint = None
            self.after_change()
        self.redraw()

    # -- hints and the solver's line (worker threads) -----------------------------------------------
    def start_hint(self) -> None:
        if self.session.game.is_over:
            return
        self.job += 1
        number, game, chosen = self.job, self.session.game.copy(), self.session.data.selected
        self.thinking = True

        def work() -> None:
            hint = adapter.hint_for_selection(game, chosen)
            self.call_from_thread(self.hint_found, number, hint)

        self.run_worker(work, thread=True, group="solver")

    def hint_found(self, number: int, hint: BoardHint) -> None:
        if number != self.job:
            return
        self.thinking = False
        self.hint = hint
        self.messages = (adapter.with_card_names(hint.text, lambda card: card_name(card, self.style)),)
        self.refused = False  # its words start from the selection
        self.session.count_hint()
        self.redraw()

    def start_watch(self) -> None:
        if self.session.game.is_over:
            return
        self.job += 1
        number, game = self.job, self.session.game.copy()
        self.thinking = True
        self.session.pause_clock(True)

        def work() -> None:
            line = adapter.solver_line(game)
            self.call_from_thread(self.line_found, number, line)

        self.run_worker(work, thread=True, group="solver")

    def line_found(self, number: int, line: WatchLine) -> None:
        if number != self.job:
            self.session.pause_clock(False)
            return
        self.thinking = False
        self.messages, self.refused = (adapter.watch_message(line),), False
        if not line.moves:
            self.session.pause_clock(False)
            self.redraw()
            return
        self.watching = adapter.watch_copy(self.session.game)
        self.line, self.line_index, self.paused, self.hint = line, 0, False, None
        self.watch_timer = self.set_interval(WATCH_STEP_SECONDS, self.watch_step)
        self.redraw()

    def watch_step(self, forced: bool = False) -> None:
        if self.watching is None or self.line is None or (self.paused and not forced):
            return
        if self.line_index < len(self.line.moves):
            adapter.play_move(self.watching, self.line.moves[self.line_index])
            self.line_index += 1
        if self.line_index >= len(self.line.moves):
            self.paused = True
            self.messages = (text("The line is played: {count} actions. Esc goes back to your game.",
                                  count=len(self.line.moves)),)
        self.redraw()

    def watch_key(self, key: str) -> None:
        if key == "space":
            self.paused = not self.paused
        elif key in ("full_stop", "right", "l"):
            self.paused = True
            self.watch_step(forced=True)
        elif key == "w":
            self.stop_watch()

    def stop_watch(self) -> None:
        if getattr(self, "watch_timer", None) is not None:
            self.watch_timer.stop()
            self.watch_timer = None
        self.watching, self.line = None, None
        self.messages = (text("Back to your game: the save is as it was."),)
        self.session.pause_clock(False)
