"""Replaying a save: its history from the deal code, checked against what the file records.

On load any disagreement is a bad file naming the field (:func:`game_from_save`); ``replay``
reports the first divergence instead (:func:`replay`).  A format-1 file is replayed by that
format's end rule (:mod:`.format_1`) and reported by today's.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.position import Outcome
from ..engine.text import text
from ..versions import SAVE_FORMAT_VERSION as FORMAT_VERSION
from . import format_1
from .save_format import SaveData
from .strict_yaml import SaveFileError


class Divergence(NamedTuple):
    """Where a file and its own history disagree (``action`` is 1-based for an illegal history entry)."""

    field: str
    recorded: object
    replayed: object
    message: str
    action: int | None = None


class Replay(NamedTuple):
    """The game rebuilt from a save's history, and the first divergence found (``None`` if it agrees).

    ``format`` is the file's save format; for format 1, ``upgradable`` says whether its history is
    also valid by today's end rule (then it may be written back as format 2).  The game is always
    returned playing by today's rule; ``selected`` is the file's selection when it holds.
    """

    game: Game
    divergences: list[Divergence]
    format: int = FORMAT_VERSION
    upgradable: bool = True
    selected: Card | None = None

    @property
    def first(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None


def replay(data: SaveData) -> Replay:
    """Replay the history from the deal code; compare the recorded fields with the result.

    An illegal history entry stops the replay there (the game is the one before it).
    """
    walked = data.walk()
    game = walked.game
    if walked.refused is not None:
        number = walked.played + 1
        move = data.history[walked.played]
        return Replay(game, [Divergence(
            "history", str(move), None,
            text("history: action {number} ({move}) cannot be played after the {before} before it: {reason}",
                 number=number, move=str(move), before=number - 1, reason=walked.refused.refusal.reason),
            number)], data.format, False)
    found = []
    recorded_fields: list[tuple[str, object, object]] = [
        ("score", data.score, game.score),
        ("moves", data.moves, game.move_count),
        ("status", data.status.value, (format_1.status(game) if data.format == 1 else game.outcome).value),
    ]
    if data.format >= 2 and data.termination_given:
        recorded_fields.append(("termination", _value(data.termination), _value(game.termination)))
    for name, recorded, replayed in recorded_fields:
        if recorded != replayed:
            found.append(Divergence(name, recorded, replayed,
                                    text("{field}: the file says {recorded} but its history gives {replayed}",
                                         field=name, recorded=_shown(recorded), replayed=_shown(replayed))))
    selected = data.selected
    if selected is not None:
        over = format_1.status(game) is not Outcome.PLAYING if data.format == 1 else game.is_over
        if over or not game.position.is_playable(selected):
            found.append(Divergence("selected", str(selected), None,
                                    text("selected: {card} is not a card in play after the history",
                                         card=str(selected))))
            selected = None
        elif game.is_over:  # format 1 played on at a dead position; today's rule ends the game there
            selected = None
    upgradable = not isinstance(game, format_1.Format1Game)
    return Replay(game, found, data.format, upgradable, selected)


def _shown(value: object) -> str:
    return "null" if value is None else str(value)


def _value(member: Enum | None) -> str | None:
    return None if member is None else member.value


def game_from_save(data: SaveData, source: str | None = None) -> Game:
    """The game a save describes; :class:`SaveFileError` naming the field when the file disagrees with itself."""
    result = replay(data)
    if result.first is not None:
        raise SaveFileError(text("{source}: {reason}", source=text("save file") if source is None else source,
                                 reason=result.first.message), result.first.field)
    return result.game
