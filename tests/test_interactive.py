"""The play session at a prompt (pyramide_cli/cli/interactive.py), with input() scripted."""

from __future__ import annotations

import builtins
import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pyramide_cli.cli import interactive
from pyramide_cli.cli.interactive import hint_text, run_session
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.moves import NO_MORE_MOVES
from pyramide_cli.cli.render import Style
from pyramide_cli.storage.save import load_game

from cli_support import EXAMPLES, make_save

CODE = "PY1-N-AAAAAAS"


def scripted_input(monkeypatch: pytest.MonkeyPatch, lines: list[str | BaseException]) -> None:
    feed: Iterator[str | BaseException] = iter(lines)

    def fake_input(prompt: str = "") -> str:
        sys.stdout.write(prompt)
        item = next(feed, EOFError())
        if isinstance(item, BaseException):
            raise item
        return item

    monkeypatch.setattr(builtins, "input", fake_input)


def session(path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            lines: list[str | BaseException]) -> str:
    scripted_input(monkeypatch, lines)
    run_session(path, io.StringIO(), True, None, Style(ascii=True), False, False)
    return capsys.readouterr().out


def test_the_board_is_redrawn_after_each_action_and_refusals_do_not_end_the_session(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, CODE)
    out = session(path, monkeypatch, capsys, ["KC", "QD", "nonsense!", "10H", "3D", "q", "draw"])
    assert out.count("PY1-N-AAAAAAS | score") == 5  # start, KC, QD (refused), 10H, 3D
    assert "QD: This card is blocked by another card" in out
    assert "pyramide> " in out and "Saved to" in out
    assert [str(move) for move in load_game(path).data.history] == ["KC", "10H+3D"]


def test_help_show_hint_and_end_of_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, CODE)
    out = session(path, monkeypatch, capsys, ["?", "show", "hint"])
    assert "undo (u)" in out
    assert out.count("PY1-N-AAAAAAS | score 0") == 2
    assert "hint: Tap " in out  # the solver's hint (issue 4)


def test_ctrl_c_saves_the_time_played_and_leaves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = make_save(tmp_path, CODE)
    clock = iter([100.0, 130.0, 175.0])
    monkeypatch.setattr(interactive, "Stopwatch", lambda: _FakeWatch(clock))
    with pytest.raises(KeyboardInterrupt):  # the command then exits 130 (test_play_faults.py)
        session(path, monkeypatch, capsys, ["draw", KeyboardInterrupt()])
    data = load_game(path).data
    assert data.moves == 1 and data.time_played == 75.0  # R19: 30 s to the draw, 45 s after it


class _FakeWatch:
    def __init__(self, clock: Iterator[float]) -> None:
        self.clock = clock
        self.last = next(clock)

    def lap(self) -> float:
        now = next(self.clock)
        elapsed, self.last = now - self.last, now
        return elapsed


def test_a_session_hint_is_the_solvers_hint_for_the_game_now() -> None:
    lost = load_game(EXAMPLES / "lost-o.yaml").game  # no removal, draw or recycle is left (R17)
    assert hint_text(lost) == f"{NO_MORE_MOVES}: start a new game."
    start = Game(Deal.from_code(CODE))  # a winnable deal
    assert hint_text(start).startswith("Tap ") and hint_text(start).endswith("— this position can still be won.")
