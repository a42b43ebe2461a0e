"""``play`` under faults of its input and of its save: bytes that are not UTF-8 on a strict stdin, Ctrl-C
in a session, a save whose rewrite would pass the size limit, a count too large for the statistics
(issue 26, items 3, 6, 7 and 10)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli_support import invoke, make_save
from pyramide_cli.cli import interactive
from pyramide_cli.storage.save import load_game


def play_piped(folder: Path, stdin: bytes, *options: str) -> subprocess.CompletedProcess[bytes]:
    """``pyramide play g.yaml`` as a process whose stdin is strict UTF-8 (as a UTF-8 locale gives it)."""
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYRAMIDE_HOME": str(folder / "home")}
    environment.pop("PYRAMIDE_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "pyramide_cli", "play", "g.yaml", *options], cwd=folder,
                          input=stdin, capture_output=True, env=environment, timeout=60)


def test_a_byte_that_is_not_utf8_is_an_unreadable_line_on_a_strict_stdin(tmp_path: Path) -> None:
    make_save(tmp_path)
    completed = play_piped(tmp_path, b"draw\n\xff\ndraw\n", "--quiet")
    assert completed.returncode == 2, completed
    assert completed.stderr.decode().startswith("pyramide: unknown word '\\xff'")
    assert completed.stderr.count(b"\n") == 1
    assert [str(move) for move in load_game(tmp_path / "g.yaml").data.history] == ["draw"]


def test_a_byte_that_is_not_utf8_gives_the_json_document_of_the_steps_saved(tmp_path: Path) -> None:
    make_save(tmp_path)
    completed = play_piped(tmp_path, b"draw\n\xffdraw\n", "--json")
    document = json.loads(completed.stdout)
    assert completed.returncode == 2 and completed.stderr == b""
    assert document["error"]["kind"] == "usage" and [step["move"] for step in document["steps"]] == ["draw"]


@pytest.fixture
def interrupted_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The session's lines: the given ones, then Ctrl-C (as the terminal or a pipe's reader meets it)."""
    lines: list[str] = []

    def lines_then_ctrl_c(stream: Any, prompt: bool) -> Iterator[str]:
        yield from lines
        raise KeyboardInterrupt

    monkeypatch.setattr(interactive, "_lines", lines_then_ctrl_c)
    yield lines


def test_ctrl_c_in_a_session_exits_130_with_one_line_after_saving(tmp_path: Path,
                                                                  interrupted_after: list[str]) -> None:
    save = make_save(tmp_path)
    interrupted_after.extend(["draw", "draw"])
    outcome = invoke("play", str(save), "--quiet", "--no-record")
    assert outcome.status == 130 and outcome.stderr == "pyramide: interrupted\n"
    assert [str(move) for move in load_game(save).data.history] == ["draw", "draw"]


def test_ctrl_c_in_a_session_with_json_lists_the_steps_saved(tmp_path: Path, interrupted_after: list[str]) -> None:
    save = make_save(tmp_path)
    interrupted_after.append("draw")
    outcome = invoke("play", str(save), "--json", "--no-record")
    document = outcome.json()
    assert outcome.status == 130 and document["error"]["kind"] == "interrupted"
    assert [step["move"] for step in document["steps"]] == ["draw"] and document["written"] is True
