"""The board's panels and key lists: the end of a game, the keys, the statistics, the footer.

Every line is a message in the player's language (:func:`~pyramide_cli.i18n.tr`); the keys stay as
they are typed, but Enter, Space and Esc are named as the messages name them (``Entrée``, ``Échap``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.text import plural, text
from .layout import Style, clock
from .session import BoardSession

Keys = tuple[tuple[str, str], ...]


def play_keys(style: Style) -> Keys:
    """The footer while playing: every key and what it does."""
    arrows = "arrows hjkl" if style.ascii else "←↓↑→ hjkl"
    return ((arrows, text("move")), (text("Enter"), text("tap")), ("d", text("stock")), ("u", text("undo")),
            ("H", text("hint")), ("w", text("watch the solver")), ("n", text("new deal")), ("r", text("restart")),
            ("X", text("resign")), ("s", text("statistics")), (":", text("type a word")), ("?", text("keys")),
            ("q", text("quit")))


def watch_keys(style: Style) -> Keys:
    return ((text("Space"), text("pause")), (".", text("one step")), (text("Esc"), text("stop")), ("q", text("quit")))


def panel_keys(panel: str, style: Style) -> Keys:
    if panel == "end":
        return (("n", text("new deal")), ("r", text("restart")), ("b", text("look at the board")),
                ("q", text("quit")))
    if panel == "over":  # the board of a finished game, looked at from its end screen
        return (("n", text("new deal")), ("r", text("restart")), ("b", text("the end of the game")),
                ("q", text("quit")))
    if panel.startswith("confirm:"):
        return (("y", text("yes")), ("n", text("no")))
    return ((text("Esc"), text("back")), ("q", text("quit")))


def end_lines(session: BoardSession, end_message: Callable[[Any], str] | None) -> list[str]:
    """How the game ended, with its score, moves and time, then the player's record under these rules."""
    game, data = session.game, session.data
    if end_message is not None:
        lines = [end_message(session.last)]
    else:
        lines = [text("score {score}, {moves}, time {time}", score=game.score,
                      moves=plural("{count} move", "{count} moves", game.move_count), time=clock(data.time_played))]
    lines += ["", *record_lines(session)]
    return lines


def record_lines(session: BoardSession) -> list[str]:
    record = session.record()
    if record is None:
        return [text("This game is not counted in the statistics (--no-record).")]
    return [text("Your record under rules {rules}: {played} played, {won} won; wins in a row now: {streak}.",
                 rules=session.game.deal.rules.name, played=record.played, won=record.won, streak=record.streak)]


def stats_lines(session: BoardSession) -> list[str]:
    return [text("Statistics"), "", *record_lines(session), text("`pyramide stats` shows them all.")]


def help_lines(style: Style) -> list[str]:
    """The keys, one a line (``?``)."""
    return [
        text("Keys"),
        text("Click a card, or move the focus with the arrows (or h j k l) and press Enter or Space: a tap."),
        text("Type a card's name to tap it: 10h, KS, RD (K, Q and J in capitals: k, j and q are keys)."),
        text("Type : then a word of the board or a move, and Enter: :stock, :hint, :10C+3S, :kd."),
        text("d or a click on the stock: draw, or turn the waste over; u: undo (up to 100)."),
        text("H: a hint from your selection, its cards underlined (it plays nothing); Esc cancels it."),
        text("w: watch the solver play from here (Space pauses, . one step, Esc stops); your save is not changed."),
        text("n: a new deal; r: this deal again (not counted); X: resign (counted as lost); s: statistics."),
        text("q or Ctrl-C: quit. Every action is saved at once: `pyramide play FILE` goes on."),
        text("Framed [7C] cards are free, bare ones blocked, >7C< is selected.") if style.ascii else
        text("Framed [7♣] cards are free, bare ones blocked, »7♣« is selected."),
    ]
