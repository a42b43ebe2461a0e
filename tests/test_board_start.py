"""When ``pyramide play FILE`` opens the full-screen board (issue 22, item 1): stdin, stdout and
stderr at a terminal (Textual draws on stderr), a terminal that can take it; what the board says
first."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from cli_support import WON_N_CODE, WON_N_LINE, invoke, make_save

from pyramide_cli.cli.play_commands import wants_board
from pyramide_cli.storage.save import load_game


class Stream:
    def __init__(self, terminal: bool) -> None:
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal


@pytest.mark.parametrize(("stdin", "stdout", "stderr", "term", "expected"), [
    (True, True, True, "xterm-256color", True),
    (True, True, False, "xterm-256color", False),  # `play g.yaml 2>log`: the board would be drawn into log
    (True, False, True, "xterm-256color", False),
    (False, True, True, "xterm-256color", False),
    (True, True, True, "dumb", False),
])
def test_the_board_opens_only_with_every_stream_at_a_terminal(monkeypatch: pytest.MonkeyPatch, stdin: bool,
                                                               stdout: bool, stderr: bool, term: str,
                                                               expected: bool) -> None:
    monkeypatch.setenv("TERM", term)
    monkeypatch.setattr(sys, "stdin", Stream(stdin))
    monkeypatch.setattr(sys, "stdout", Stream(stdout))
    monkeypatch.setattr(sys, "stderr", Stream(stderr))
    assert wants_board() is expected


def test_make_play_on_a_finished_game_says_on_the_board_where_the_game_went(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`make play` (`play FILE --new-if-finished`) keeps a finished game and deals a new one: the board's
    message line says so, since the screen hides what was printed before it."""
    import pyramide_cli.board
    from pyramide_cli.cli import play_commands

    opened: list[dict[str, Any]] = []
    monkeypatch.setattr(play_commands, "wants_board", lambda: True)
    monkeypatch.setattr(pyramide_cli.board, "run_board", lambda *args, **kwargs: opened.append(kwargs))
    monkeypatch.setenv("PYRAMIDE_HOME", str(tmp_path / "home"))
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    assert invoke("play", str(path), "--new-if-finished", "--no-record").status == 0
    messages = [str(message) for message in opened[0]["messages"]]
    kept = next((tmp_path / "home" / "games").iterdir())
    assert messages == [f"The last game is kept in the games folder as {kept.name}.",
                        f"A new deal: {load_game(path).data.deal} (rules N)."]


def test_the_boards_first_messages_are_on_its_message_line(tmp_path: Path) -> None:
    from board_support import drive, screen_text

    from pyramide_cli.board.app import BoardApp
    from pyramide_cli.board.layout import Style
    from pyramide_cli.board.session import BoardSession
    from pyramide_cli.cli.steps import refusal_line

    app = BoardApp(BoardSession(make_save(tmp_path), None, None), Style(), refusal_line=refusal_line,
                   messages=("A new deal: PY1-N-AAAAAAS.",))

    async def body(pilot: Any) -> None:
        assert " A new deal: PY1-N-AAAAAAS." in screen_text(app).splitlines()

    drive(app, body)


class Ended(Exception):
    """Stands for ``os._exit`` in these tests."""


def test_a_hang_up_between_actions_saves_the_time_and_ends_at_once(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed terminal ends the board without Textual's shutdown, which can wait forever for it."""
    import os
    import signal

    from pyramide_cli.board.session import BoardSession

    def ended(code: int) -> None:
        raise Ended(code)

    monkeypatch.setattr(os, "_exit", ended)
    now = [0.0]
    path = make_save(tmp_path)
    session = BoardSession(path, None, None, clock=lambda: now[0])
    session.play("KC")
    now[0] = 30.0
    with pytest.raises(Ended) as raised:
        session.hang_up(signal.SIGHUP)
    assert raised.value.args == (129,)
    assert load_game(path).data.time_played == pytest.approx(30.0)
    assert [str(move) for move in load_game(path).data.history] == ["KC"]


def test_a_hang_up_during_a_save_ends_the_board_when_the_save_is_done(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import signal

    from pyramide_cli.board import session as board_session

    exits: list[int] = []
    monkeypatch.setattr(os, "_exit", exits.append)
    real_play_words = board_session.play_words
    path = make_save(tmp_path)
    session = board_session.BoardSession(path, None, None)

    signals: list[int] = []

    def play_words_hung_up(*args: Any, **kwargs: Any) -> Any:
        if not signals:
            signals.append(signal.SIGHUP)
            session.hang_up(signal.SIGHUP)  # the signal comes while the action is being saved
            assert exits == []
        return real_play_words(*args, **kwargs)

    monkeypatch.setattr(board_session, "play_words", play_words_hung_up)
    session.play("KC")
    assert exits == [129]
    assert [str(move) for move in load_game(path).data.history] == ["KC"]
