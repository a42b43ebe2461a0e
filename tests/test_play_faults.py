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
from pyramide_cli.storage.files import MAX_FILE_BYTES
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


def test_play_refuses_to_write_a_save_it_could_not_read_back(tmp_path: Path) -> None:
    """Item 6: a save just under 2 MiB (a long leading comment, which a rewrite keeps) grew past the limit."""
    save = make_save(tmp_path)
    text = save.read_text()
    save.write_text("# " + "x" * (MAX_FILE_BYTES - len(text.encode()) - 4) + "\n" + text)
    before = save.read_bytes()
    assert len(before) == MAX_FILE_BYTES - 1
    outcome = invoke("play", str(save), "draw", "--json")
    document = outcome.json()
    assert outcome.status == 5 and "a save can be read back from" in document["error"]["message"]
    assert document["written"] is False and save.read_bytes() == before
    assert invoke("show", str(save)).status == 0  # still readable: nothing was written


def test_a_huge_hint_count_is_a_bad_save_not_a_traceback(tmp_path: Path) -> None:
    """Item 7: `hints: 9223372036854775808` (19 digits, within the 40-character limit) overflowed SQLite."""
    save = make_save(tmp_path)
    save.write_text(save.read_text().replace("hints: 0", "hints: 9223372036854775808"))
    outcome = invoke("play", str(save), "resign", "--json", "--db", str(tmp_path / "stats.sqlite3"))
    document = outcome.json()
    assert outcome.status == 4 and "hints" in document["error"]["message"]


def test_a_count_sqlite_cannot_hold_is_a_warning_when_a_game_is_recorded(tmp_path: Path) -> None:
    from pyramide_cli.storage.stats import GameRecord, StatsDB, record_game

    record = GameRecord(key="k", deal="PY1-N-AAAAAAS", rules="N", result="lost", termination="resigned", score=0,
                        moves=0, time_played=0.0, hints=2**63)
    assert "not counted" in (record_game(StatsDB(tmp_path / "stats.sqlite3"), record) or "")


@pytest.mark.parametrize("start", ["\ufeff", "\n", "\n\n"])
def test_leading_comments_after_a_byte_order_mark_or_blank_lines_survive_a_rewrite(tmp_path: Path,
                                                                                   start: str) -> None:
    """Item 14: a save starting with a BOM or a blank line lost its leading comments on rewrite."""
    save = make_save(tmp_path)
    save.write_text(start + "# my notes\n#\n# more notes\n" + save.read_text().split("pyramide-save:", 1)[0].replace(
        "#", "# kept") + "pyramide-save:" + save.read_text().split("pyramide-save:", 1)[1], encoding="utf-8")
    assert invoke("play", str(save), "draw", "--quiet").status == 0
    written = save.read_text(encoding="utf-8")
    assert written.startswith("# my notes\n#\n# more notes\n") and written.count("# kept") == 2


def test_a_float_longer_than_40_characters_is_refused(tmp_path: Path) -> None:
    """Item 14: the 40-character limit applied to whole numbers only."""
    save = make_save(tmp_path)
    save.write_text(save.read_text().replace("time_played: 0.0", "time_played: 1." + "5" * 5000))
    outcome = invoke("show", str(save))
    assert outcome.status == 4 and "a number of 5,002 characters (at most 40)" in outcome.stderr
