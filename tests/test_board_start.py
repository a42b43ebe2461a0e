"""When ``pyramide play FILE`` opens the full-screen board (issue 22, item 1): stdin, stdout and
stderr at a terminal (Textual draws on stderr), a terminal that can take it."""

from __future__ import annotations

import sys

import pytest

from pyramide_cli.cli.play_commands import wants_board


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
