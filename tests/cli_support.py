"""Helpers for the CLI-side tests: saves built with the engine, the CLI in-process and as a process."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from pyramide_cli.cli import load_commands
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.moves import Move
from pyramide_cli.storage.save import SaveData

app = load_commands()  # every command registered (a run of `pyramide` loads only the one it runs)
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
WON_N_CODE = "PY1-N-AAAAAAB"
WON_N_LINE = (
    "KC KH 8S+5H draw draw draw draw draw draw draw KS draw draw draw draw draw draw 10H+3D draw 10S+3S "
    "9D+4H draw draw draw JS+2H draw draw draw 10D+3H 7H+6S KD draw draw draw recycle draw QC+AD JH+2C draw "
    "draw draw draw draw draw draw draw draw draw draw draw draw 8C+5D JD+2D draw 10C+3C 9S+4C draw JC+2S "
    "draw draw 7S+6D 8H+5S recycle draw draw draw draw draw 8D+5C 9C+4D draw draw 7D+6H"
).split()
R24_TEXT_CODE = "PY1-N-AVIYQEQL2JCIWP3H4TLWKHHABHQIP2CZJU3HUYQL3OQAAA"

typer_imports_pydantic = pytest.mark.xfail(
    tuple(int(part) for part in typer.__version__.split(".")[:2]) >= (0, 29), strict=True,
    reason="Typer 0.29 converts every parameter a command processes through pydantic (typer/_coercion.py "
           "build_runtime_param imports it), so every command imports it; pyproject.toml")
"""On a test that a command imports no pydantic: expected to fail under Typer 0.29, and to fail the run
as soon as a Typer release stops importing it (``strict``), to say the guard is whole again."""


def game_of(code: str, *moves: str) -> Game:
    return Game.replay(Deal.from_code(code), [Move.parse(move) for move in moves])


def save_text(code: str, *moves: str, **fields: Any) -> str:
    """The text of a valid save of ``code`` after ``moves``; ``fields`` replace recorded values."""
    data = SaveData.from_game(game_of(code, *moves), None)
    text = data.to_text()
    for key, value in fields.items():
        lines = text.splitlines()
        lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in lines]
        text = "\n".join(lines) + "\n"
    return text


def make_save(folder: Path, code: str = "PY1-N-AAAAAAS", *moves: str, name: str = "g.yaml") -> Path:
    path = folder / name
    path.write_text(save_text(code, *moves), encoding="utf-8")
    return path


class Outcome:
    """What one run of the CLI did."""

    def __init__(self, status: int, stdout: str, stderr: str) -> None:
        self.status = status
        self.stdout = stdout
        self.stderr = stderr

    def json(self) -> Any:
        return json.loads(self.stdout)

    def __repr__(self) -> str:
        return f"Outcome({self.status}, stdout={self.stdout[-400:]!r}, stderr={self.stderr!r})"


def invoke(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Outcome:
    """The CLI in-process (Typer's CliRunner); stdin is not a terminal."""
    result = CliRunner().invoke(app, list(args), input=input, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Outcome(result.exit_code, result.stdout, result.stderr)


def run(*args: str, cwd: Path, input: str | None = None, env: dict[str, str] | None = None,
        timeout: float = 60) -> Outcome:
    """The CLI as a real process: ``python -m pyramide_cli ARGS`` in ``cwd``."""
    environment = {**os.environ, "NO_COLOR": "1", **(env or {})}
    environment.pop("PYRAMIDE_DEBUG", None)
    completed = subprocess.run(
        [sys.executable, "-m", "pyramide_cli", *args], cwd=cwd, input=input, capture_output=True, text=True,
        env=environment, timeout=timeout,
    )
    return Outcome(completed.returncode, completed.stdout, completed.stderr)


@contextlib.contextmanager
def unwritable_folder(folder: Path) -> Iterator[Path]:
    """``folder`` made unwritable for this process: mode 0500, or ``chattr +i`` when running as root
    (root ignores permission bits); the test is skipped when neither works."""
    folder.mkdir(exist_ok=True)
    if os.geteuid() != 0:
        os.chmod(folder, 0o500)
        try:
            yield folder
        finally:
            os.chmod(folder, 0o700)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("cannot make a folder unwritable for root here (no chattr +i)")
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)


class Terminal:
    """``python -m pyramide_cli ARGS`` on a pseudo-terminal (POSIX), as a person at a terminal runs it:
    :meth:`read_until` collects what it prints until a marker shows, :meth:`write` types.  A context
    manager: the process is killed and the terminal closed on the way out, whatever happened."""

    def __init__(self, *args: str, cwd: Path, env: dict[str, str] | None = None) -> None:
        import pty

        self.controller, terminal = pty.openpty()
        environment = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", **(env or {})}
        self.process = subprocess.Popen([sys.executable, "-m", "pyramide_cli", *args], cwd=cwd, stdin=terminal,
                                        stdout=terminal, stderr=terminal, env=environment, close_fds=True)
        os.close(terminal)
        self.output = b""

    def read_until(self, marker: bytes, seconds: float = 30) -> bool:
        """Read until ``marker`` has been printed (True) or ``seconds`` have passed (False)."""
        import select
        import time

        deadline = time.monotonic() + seconds
        while marker not in self.output and time.monotonic() < deadline:
            ready, _, _ = select.select([self.controller], [], [], 0.2)
            if ready:
                try:
                    self.output += os.read(self.controller, 65536)
                except OSError:
                    break
        return marker in self.output

    def write(self, typed: bytes) -> None:
        os.write(self.controller, typed)

    @property
    def text(self) -> str:
        return self.output.decode(errors="replace")

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)
        os.close(self.controller)
