"""When the output cannot be written (a full disk: ``> /dev/full``; a closed stdout: ``>&-``) every command
says so in one line on stderr and exits 5; what it saved stays saved (issue 26, item 9)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_support import make_save
from pyramide_cli.storage.save import load_game

FULL = Path("/dev/full")


def run_into(folder: Path, stdout: object, *args: str, closed: bool = False) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYRAMIDE_HOME": str(folder / "home")}
    environment.pop("PYRAMIDE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "pyramide_cli", *args], cwd=folder, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=environment, timeout=60,
                          preexec_fn=(lambda: os.close(1)) if closed else None)


@pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ["show", "g.yaml"], ["show", "g.yaml", "--json"], ["--help"], ["replay", "g.yaml"], ["play", "g.yaml", "draw"],
    ["deal", "PY1-N-AAAAAAB", "-o", "new.yaml"],
], ids=lambda args: " ".join(args))
def test_a_full_output_is_one_line_and_exit_5(tmp_path: Path, args: list[str]) -> None:
    make_save(tmp_path)
    with FULL.open("w") as full:
        completed = run_into(tmp_path, full, *args)
    assert completed.returncode == 5, completed
    assert completed.stderr == "pyramide: cannot write the output: No space left on device\n"
    if args[0] == "play":  # the move was saved before the board could not be printed
        assert [str(move) for move in load_game(tmp_path / "g.yaml").data.history] == ["draw"]
    if args[0] == "deal":
        assert load_game(tmp_path / "new.yaml").data.deal == "PY1-N-AAAAAAB"


def test_a_closed_output_is_one_line_and_exit_5_and_a_quiet_command_does_not_mind(tmp_path: Path) -> None:
    make_save(tmp_path)
    completed = run_into(tmp_path, None, "show", "g.yaml", closed=True)
    assert (completed.returncode, completed.stderr) == (5, "pyramide: cannot write the output: Bad file descriptor\n")
    completed = run_into(tmp_path, None, "play", "g.yaml", "draw", "--quiet", closed=True)
    assert (completed.returncode, completed.stderr) == (0, "")
    assert [str(move) for move in load_game(tmp_path / "g.yaml").data.history] == ["draw"]
