"""External engines: a program that plays through a line protocol (UCI and GTP in spirit).

``pyramide tournament --engine "CMD ARGS"`` starts the program and talks to it on its stdin and
stdout, one line per message, UTF-8 (``docs/protocol.md``, "Engine protocol", has the details)::

    > pyramide-engine 1                      the handshake, with the protocol version
    < id name Example                        the engine's name (required) …
    < id version 0.1                         … and version (optional)
    < ready
    > newgame PY1-T-AAAAAAB 123456789        a deal code and a seed for engines that draw lots
    > position {"deal": …, "legal_moves": ["KC", "KH", "draw"], …}
    < move KC                                a legal move, undo, or resign
    > gameover lost dead 140                 status, termination (or -), score: nothing to answer
    > quit

Lines the engine starts with ``info`` or ``#`` are ignored (its log).  An answer that is late
(past the per-move time limit), malformed, or not legal, and an engine that exits, lose the game
at hand with the reason recorded; the tournament goes on (a late or dead engine is restarted for
the next game).  The time limit is wall-clock: it only ever decides the games of an engine that
misbehaves, so a well-behaved engine gets the same results on a quiet or a loaded machine.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import time
from typing import NoReturn

from ..engine.errors import MoveSyntaxError, PyramideError
from ..engine.game import Game
from ..engine.text import text
from ..engine.moves import Move
from ..storage.game_document import game_state
from ..versions import ENGINE_PROTOCOL_VERSION
from .players import BotFailure

DEFAULT_MOVE_TIME = 10.0
"""Seconds an engine may think about one move before it loses the game (``--move-time``)."""
DEFAULT_HANDSHAKE_TIME = 10.0
"""Seconds an engine may take to start and answer the handshake."""
MAX_LINE = 1 << 20
"""Longest line read from an engine (1 MiB): a longer one is malformed."""


class EngineStartError(PyramideError):
    """The engine command cannot be run at all (no such program, not executable, empty)."""


class EngineBot:
    """A :class:`~pyramide_cli.bots.players.Bot` that asks an external program for its moves."""

    def __init__(self, command: str, move_time: float = DEFAULT_MOVE_TIME,
                 handshake_time: float = DEFAULT_HANDSHAKE_TIME) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as error:
            raise EngineStartError(text("--engine {command!r}: {reason}", command=command, reason=str(error))) from None
        if not self.argv:
            raise EngineStartError(text("--engine: the command is empty"))
        self.command = command
        self.move_time = move_time
        self.handshake_time = handshake_time
        self.name = "engine"
        self.version: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._selector: selectors.BaseSelector | None = None
        self._buffer = b""
        self._broken: str | None = None
        """Why the engine cannot be started again (then every later game is lost at once)."""
        self.transcript: list[str] | None = None
        """When a list: every line sent (``> …``) and received (``< …``) is appended (docs, debugging)."""

    # -- the process --------------------------------------------------------------------------
    def start(self) -> None:
        """Start the program and do the handshake; :class:`BotFailure` if it does not answer it."""
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as error:
            raise EngineStartError(text("cannot start engine {command!r}: {reason}", command=self.command,
                                        reason=error.strerror or str(error))) from None
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._process.stdout, selectors.EVENT_READ)  # type: ignore[arg-type]
        self._send(f"pyramide-engine {ENGINE_PROTOCOL_VERSION}")
        deadline = time.monotonic() + self.handshake_time
        name = None
        while True:
            line = self._read_line(deadline, "handshake")
            if line.startswith("id name "):
                name = line[len("id name "):].strip()
            elif line.startswith("id version "):
                self.version = line[len("id version "):].strip()
            elif line == "ready":
                break
            elif not _is_log(line):
                raise BotFailure("handshake", f"handshake: expected 'id name …', 'id version …' or 'ready', "
                                              f"got {line[:80]!r}")
        if not name:
            raise BotFailure("handshake", "handshake: the engine said 'ready' without 'id name …'")
        self.name = name

    def stop(self, graceful: bool = True) -> None:
        """End the program: ``quit``, then a kill if it does not leave within a second (at once
        when not ``graceful``: an engine that missed its time limit is not waited for again)."""
        process, self._process = self._process, None
        if self._selector is not None:
            self._selector.close()
            self._selector = None
        if process is None:
            return
        try:
            if graceful and process.poll() is None:
                if self.transcript is not None:
                    self.transcript.append("> quit")
                process.stdin.write(b"quit\n")  # type: ignore[union-attr]
                process.stdin.flush()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            process.wait(timeout=1.0 if graceful else 0.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    def _restart_if_needed(self) -> None:
        if self._broken is not None:
            raise BotFailure("unavailable", f"the engine could not be restarted: {self._broken}")
        if self._process is not None and self._process.poll() is None:
            return
        self.stop()
        try:
            self.start()
        except (BotFailure, EngineStartError) as failure:
            self.stop()
            self._broken = str(failure)
            raise BotFailure("unavailable", str(failure)) from None

    # -- the bot ------------------------------------------------------------------------------
    def new_game(self, game: Game, seed: int) -> None:
        self._restart_if_needed()
        self._send(f"newgame {game.deal.code} {seed}")

    def choose(self, game: Game) -> Move:
        state = game_state(game, history=False)
        del state["time_played"], state["level"], state["daily"], state["selected"]
        self._send("position " + json.dumps(state, separators=(",", ":")))
        deadline = time.monotonic() + self.move_time
        while True:
            line = self._read_line(deadline, "move")
            if not _is_log(line):
                break
        if not line.startswith("move "):
            raise BotFailure("malformed", f"expected 'move <action>', got {line[:80]!r}")
        text = line[len("move "):].strip()
        try:
            return Move.parse(text)
        except MoveSyntaxError:
            raise BotFailure("malformed", f"'move {text[:60]}' is not a move in the notation") from None

    def game_over(self, game: Game) -> None:
        """Tell the engine how the game ended (it need not answer)."""
        termination = "-" if game.termination is None else game.termination.value
        self._send_quietly(f"gameover {game.outcome.value} {termination} {game.score}")

    def close(self) -> None:
        self.stop()

    # -- lines --------------------------------------------------------------------------------
    def _send(self, line: str) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise BotFailure("crashed", "the engine is not running")
        if self.transcript is not None:
            self.transcript.append(f"> {line}")
        try:
            process.stdin.write(line.encode("utf-8") + b"\n")
            process.stdin.flush()
        except OSError:
            self._lost("crashed", "the engine closed its input (it exited?)")

    def _send_quietly(self, line: str) -> None:
        try:
            self._send(line)
        except BotFailure:
            pass

    def _read_line(self, deadline: float, waiting_for: str) -> str:
        """The next line from the engine, or :class:`BotFailure` (late, exited, too long, not UTF-8)."""
        process, selector = self._process, self._selector
        assert process is not None and process.stdout is not None and selector is not None
        stream = process.stdout
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE:
                self._lost("malformed", f"a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                self._lost("timeout", f"no {waiting_for} within {self._limit(waiting_for):g} s")
            if not selector.select(left):
                continue
            chunk = os.read(stream.fileno(), 65536)
            if not chunk:
                code = process.poll()
                self._lost("crashed", f"the engine exited{'' if code is None else f' with status {code}'} "
                                      f"while the tournament waited for its {waiting_for}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n", 1)
        try:
            line = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            self._lost("malformed", "a line that is not UTF-8")
        if self.transcript is not None:
            self.transcript.append(f"< {line}")
        return line

    def _limit(self, waiting_for: str) -> float:
        return self.handshake_time if waiting_for == "handshake" else self.move_time

    def _lost(self, reason: str, message: str) -> NoReturn:
        """The engine's state is unknown now: stop it (the next game restarts it) and fail."""
        self.stop(graceful=False)
        raise BotFailure(reason, message)


def _is_log(line: str) -> bool:
    return line.startswith(("info", "#")) or not line.strip()
