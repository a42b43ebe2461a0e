"""How a batch of taps and moves reads on the terminal: one line per step played, and the refusal.

The steps come from :func:`~pyramide_cli.storage.session.play_words`; ``play`` and the play prompt
print them with a card-naming function of the board's style.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.cards import Card
from ..engine.moves import MoveKind, Refusal
from ..engine.taps import TapAction
from ..engine.text import text
from ..storage.session import Step


def describe(step: Step, name: Callable[[Card], str] = str) -> str:
    """A short line for a played step: ``removed 10♣+3♠ (+20)``, ``selected 7♣``, ``drew 5♠`` …"""
    result = step.result
    if result.action is TapAction.SELECTED:
        return text("selected {card}", card=name(step.selected)) if step.selected is not None else text("selected")
    if result.action is TapAction.DESELECTED:
        return text("selection cleared")
    move = result.move
    assert move is not None
    if move.cards:
        return text("removed {cards} ({points})", cards="+".join(name(card) for card in move.cards),
                    points=f"+{step.points}")
    if move.kind is MoveKind.DRAW:
        return text("drew {card}", card=name(step.waste_top)) if step.waste_top is not None else text("drew")
    if move.kind is MoveKind.RECYCLE:
        return text("recycled the waste: pass {number}", number=step.pass_number)
    if move.kind is MoveKind.RESIGN:
        return text("resigned: the game is lost")
    return text("undid the last action (score {score})", score=step.score)


def refusal_line(step: Step, name: Callable[[Card], str] = str) -> str:
    """``7S: The sum must equal 13; 7♠ is selected now`` — or only the reason code without error help (R15)."""
    result = step.result
    assert result.refusal is not None
    if result.message is None:
        return text("{input}: refused ({reason})", input=step.text, reason=result.refusal.value)
    if step.card is not None:
        return text("{input}: {message}", input=step.text, message=result.refusal.message_about(name(step.card)))
    if result.refusal is Refusal.SUM_NOT_13 and step.selected is not None:
        return text("{input}: {message}; {card} is selected now", input=step.text, message=result.message,
                    card=name(step.selected))
    return text("{input}: {message}", input=step.text, message=result.message)
