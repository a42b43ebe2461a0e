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

Nothing the engine does can stall the tournament or outlive it: every write to the engine and
every read from it is bounded by the same time limit (an engine that stops reading its input
loses on time, like one that stops answering); the engine runs in a process group of its own, and
the whole group is killed when the engine is stopped, so a child it started (a helper, or an
orphan that still holds the pipe) goes with it; the engine's own exit is watched apart from its
output, so an engine that exits while a child keeps the pipe open has crashed, not timed out.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import signal
import subprocess
import time
from typing import NoReturn

from ..engine.errors import MoveSyntaxError, PyramideError, quoted
from ..engine.game import Game
from ..engine.moves import Move
from ..storage.game_document import game_state
from ..engine.text import text
from ..versions import ENGINE_PROTOCOL_VERSION
from .players import BotFailure

DEFAULT_MOVE_TIME = 10.0
"""Seconds an engine may think about one move before it loses the game (``--move-time``)."""
DEFAULT_HANDSHAKE_TIME = 10.0
"""Seconds an engine may take to start and answer the handshake."""
MAX_LINE = 1 << 20
"""Longest line read from an engine (1 MiB): a longer one is malformed."""
QUIT_TIME = 1.0
"""Seconds an engine told to ``quit`` may take to exit before its process group is killed."""
EXIT_POLL = 0.05
"""Where the system cannot signal a process's exit on a descriptor (no ``pidfd``): how often, in
seconds, a wait for the engine looks whether it has exited."""
_OWN_GROUP = hasattr(os, "killpg")
"""POSIX: the engine gets a session and process group of its own, killed whole when it stops."""


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
        self._exit_descriptor: int | None = None
        """A descriptor that becomes readable when the engine exits (Linux ``pidfd``), or ``None``."""
        self._reading: selectors.BaseSelector | None = None
        self._writing: selectors.BaseSelector | None = None
        self._buffer = bytearray()
        self._broken: str | None = None
        """Why the engine cannot be started again (then every later game is lost at once)."""
        self.transcript: list[str] | None = None
        """When a list: every line sent (``> …``) and received (``< …``) is appended (docs, debugging)."""

    # -- the process --------------------------------------------------------------------------
    def start(self) -> None:
        """Start the program and do the handshake; :class:`BotFailure` if it does not answer it."""
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0,
                start_new_session=_OWN_GROUP)
        except (OSError, ValueError) as error:  # ValueError: a NUL in the command
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise EngineStartError(text("cannot start engine {command!r}: {reason}", command=self.command,
                                        reason=reason)) from None
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        os.set_blocking(process.stdin.fileno(), False)
        self._buffer = bytearray()
        self._exit_descriptor = _exit_descriptor(process.pid)
        self._reading, self._writing = selectors.DefaultSelector(), selectors.DefaultSelector()
        self._reading.register(process.stdout, selectors.EVENT_READ, "output")
        self._writing.register(process.stdin, selectors.EVENT_WRITE, "input")
        if self._exit_descriptor is not None:
            for selector in (self._reading, self._writing):
                selector.register(self._exit_descriptor, selectors.EVENT_READ, "exit")
        deadline = time.monotonic() + self.handshake_time
        self._send(f"pyramide-engine {ENGINE_PROTOCOL_VERSION}", deadline, "handshake")
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
                                              f"got {quoted(line)}")
        if not name:
            raise BotFailure("handshake", "handshake: the engine said 'ready' without 'id name …'")
        self.name = name

    def stop(self, graceful: bool = True) -> None:
        """End the program and every process of its group: ``quit``, a second to exit, then a kill
        (at once when not ``graceful``: an engine that missed its time limit is not waited for again).

        The group is killed even after a clean exit (a helper the engine started must not outlive
        it), and before the engine is reaped, so that its process group id cannot have been reused.
        """
        process, self._process = self._process, None
        for selector in (self._reading, self._writing):
            if selector is not None:
                selector.close()
        self._reading = self._writing = None
        exit_descriptor, self._exit_descriptor = self._exit_descriptor, None
        if process is None:
            return
        assert process.stdin is not None and process.stdout is not None
        if graceful and _exit_status(process) is None:
            if self.transcript is not None:
                self.transcript.append("> quit")
            try:
                os.write(process.stdin.fileno(), b"quit\n")
            except OSError:  # its input is full or closed: it is killed below
                pass
        process.stdin.close()  # the end of its input, for an engine that reads to the end
        if graceful:
            _wait_for_exit(process, exit_descriptor, time.monotonic() + QUIT_TIME)
        _kill_group(process)
        if exit_descriptor is not None:
            os.close(exit_descriptor)
        try:
            process.wait(timeout=QUIT_TIME)
        except subprocess.TimeoutExpired:  # not even SIGKILL ended it (a process stuck in the kernel)
            pass
        process.stdout.close()

    def _restart_if_needed(self) -> None:
        if self._broken is not None:
            raise BotFailure("unavailable", f"the engine could not be restarted: {self._broken}")
        if self._process is not None and _exit_status(self._process) is None:
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
        self._send(f"newgame {game.deal.code} {seed}", time.monotonic() + self.move_time, "newgame")

    def choose(self, game: Game) -> Move:
        state = game_state(game, history=False)
        del state["time_played"], state["level"], state["daily"], state["selected"]
        deadline = time.monotonic() + self.move_time
        self._send("position " + json.dumps(state, separators=(",", ":")), deadline, "move")
        while True:
            line = self._read_line(deadline, "move")
            if not _is_log(line):
                break
        if not line.startswith("move "):
            raise BotFailure("malformed", f"expected 'move <action>', got {quoted(line)}")
        action = line[len("move "):].strip()
        try:
            return Move.parse(action)
        except MoveSyntaxError:
            raise BotFailure("malformed", f"{quoted('move ' + action)} is not a move in the notation") from None

    def game_over(self, game: Game) -> None:
        """Tell the engine how the game ended (it need not answer)."""
        termination = "-" if game.termination is None else game.termination.value
        try:
            self._send(f"gameover {game.outcome.value} {termination} {game.score}",
                       time.monotonic() + self.move_time, "gameover")
        except BotFailure:  # the game is over already; the next one restarts the engine
            pass

    def close(self) -> None:
        self.stop()

    # -- lines --------------------------------------------------------------------------------
    def _send(self, line: str, deadline: float, waiting_for: str) -> None:
        """Write one line, waiting at most until ``deadline`` for the engine to read its input."""
        process, selector = self._process, self._writing
        if process is None or process.stdin is None or selector is None:
            raise BotFailure("crashed", "the engine is not running")
        if self.transcript is not None:
            self.transcript.append(f"> {line}")
        data = memoryview(line.encode("utf-8") + b"\n")
        descriptor = process.stdin.fileno()
        while data:
            try:
                data = data[os.write(descriptor, data):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                self._lost("crashed", self._exit_message("closed its input", waiting_for))
            left = deadline - time.monotonic()
            if left <= 0:
                self._lost("timeout", f"the engine did not read its input within {self._limit(waiting_for):g} s")
            ready = {key.data for key, _ in selector.select(min(left, self._poll()))}
            if "exit" in ready or (self._exit_descriptor is None and _exit_status(process) is not None):
                self._lost("crashed", self._exit_message("exited", waiting_for))

    def _read_line(self, deadline: float, waiting_for: str) -> str:
        """The next line from the engine, or :class:`BotFailure` (late, exited, too long, not UTF-8)."""
        process, selector = self._process, self._reading
        assert process is not None and process.stdout is not None and selector is not None
        descriptor = process.stdout.fileno()
        buffer = self._buffer
        while (end := buffer.find(b"\n")) < 0:
            if len(buffer) > MAX_LINE:
                self._lost("malformed", f"a line longer than {MAX_LINE} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                self._lost("timeout", f"no {waiting_for} within {self._limit(waiting_for):g} s")
            ready = {key.data for key, _ in selector.select(min(left, self._poll()))}
            if "output" in ready:
                chunk = os.read(descriptor, 65536)
                if not chunk:
                    self._lost("crashed", self._exit_message("closed its output", waiting_for))
                buffer += chunk
            elif "exit" in ready or (self._exit_descriptor is None and _exit_status(process) is not None):
                if not self._drain(descriptor):  # what it wrote before it exited is still read
                    self._lost("crashed", self._exit_message("exited", waiting_for))
        if end > MAX_LINE:
            self._lost("malformed", f"a line longer than {MAX_LINE} bytes")
        raw = bytes(buffer[:end])
        del buffer[:end + 1]
        try:
            line = raw.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError:
            self._lost("malformed", "a line that is not UTF-8")
        if self.transcript is not None:
            self.transcript.append(f"< {line}")
        return line

    def _drain(self, descriptor: int) -> bool:
        """After the engine's exit: read what is already in the pipe; whether a whole line came."""
        while b"\n" not in self._buffer and len(self._buffer) <= MAX_LINE:
            if not any(key.data == "output" for key, _ in self._reading.select(0)):  # type: ignore[union-attr]
                return False
            chunk = os.read(descriptor, 65536)
            if not chunk:
                return False
            self._buffer += chunk
        return True

    def _exit_message(self, what: str, waiting_for: str) -> str:
        process = self._process
        status = None if process is None else _exit_status(process)
        if status is None:
            return f"the engine {what} while the tournament waited for its {waiting_for}"
        how = f"with status {status}" if status >= 0 else f"killed by signal {-status}"
        return f"the engine {what} ({how}) while the tournament waited for its {waiting_for}"

    def _poll(self) -> float:
        return float("inf") if self._exit_descriptor is not None else EXIT_POLL

    def _limit(self, waiting_for: str) -> float:
        return self.handshake_time if waiting_for == "handshake" else self.move_time

    def _lost(self, reason: str, message: str) -> NoReturn:
        """The engine's state is unknown now: stop it (the next game restarts it) and fail."""
        self.stop(graceful=False)
        raise BotFailure(reason, message)


def _is_log(line: str) -> bool:
    return line.startswith(("info", "#")) or not line.strip()


# -- processes -----------------------------------------------------------------------------------
def _exit_descriptor(pid: int) -> int | None:
    """A descriptor readable once ``pid`` has exited (Linux 5.3+), so waits need no polling."""
    open_pidfd = getattr(os, "pidfd_open", None)
    if open_pidfd is None:
        return None
    try:
        return int(open_pidfd(pid))
    except OSError:
        return None


def _exit_status(process: subprocess.Popen[bytes]) -> int | None:
    """The engine's exit status (``-N``: killed by signal N) once it has exited, else ``None`` —
    without reaping it: while it is a zombie its process group id stays reserved for :func:`_kill_group`."""
    if process.returncode is not None:
        return process.returncode
    waitid = getattr(os, "waitid", None)
    if waitid is None:  # no waitid (Windows): poll reaps, and there is no group to kill
        return process.poll()
    try:
        result = waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return process.poll()
    if result is None:
        return None
    return result.si_status if result.si_code == os.CLD_EXITED else -result.si_status


def _wait_for_exit(process: subprocess.Popen[bytes], exit_descriptor: int | None, deadline: float) -> None:
    """Wait until the engine exits or ``deadline`` passes, without reaping it."""
    while _exit_status(process) is None:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        if exit_descriptor is not None:
            with selectors.DefaultSelector() as selector:
                selector.register(exit_descriptor, selectors.EVENT_READ)
                selector.select(left)
        else:
            time.sleep(min(left, EXIT_POLL / 5))


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the engine's whole process group (itself and every child it did not move out of it)."""
    if _OWN_GROUP and process.returncode is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return
    if process.returncode is None:
        process.kill()
