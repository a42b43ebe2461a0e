"""Helpers for engine tests: custom deals written as card names, and the R24 layout."""

from __future__ import annotations

from pyramide_cli.engine.cards import CARDS, parse_card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.moves import Move
from pyramide_cli.engine.position import Position
from pyramide_cli.engine.rules import Rules
from pyramide_cli.engine.taps import TapSession
from pyramide_cli.storage import format_1

R24_ROWS = [
    ["JD"], ["6C", "7H"], ["AS", "4D", "QS"], ["5H", "3D", "6H", "8S"], ["KH", "KC", "AD", "KS", "9C"],
    ["QC", "2C", "8D", "10D", "10S", "JS"], ["7C", "10C", "3H", "4H", "3S", "KD", "7S"],
]


def r24_deal(rules: Rules | None = None) -> Deal:
    """docs/rules.md R24's layout: waste 7♦, the 23 other cards in the stock in deck order."""
    return Deal.from_layout(R24_ROWS, waste="7D", rules=rules or Rules())


def build_deal(pyramid: str, talon: str = "", rules: str = "N") -> Deal:
    """A custom deal: 28 pyramid card names (apex first), then the talon's first cards in order
    (the waste card first under N); the cards not named follow in deck order."""
    rules_value = Rules.parse(rules)
    head = [parse_card(name) for name in pyramid.split()]
    assert len(head) == 28, f"{len(head)} pyramid cards"
    talon_cards = [parse_card(name) for name in talon.split()]
    named = set(head) | set(talon_cards)
    rest = [card for card in CARDS if card not in named]
    return Deal.custom(head + talon_cards + rest, rules_value)


def session_after(deal: Deal, *words: str, assist: bool = True) -> TapSession:
    """A tap session after playing the words (taps or moves); each must succeed."""
    session = TapSession(Game(deal), assist=assist)
    for word in words:
        result = session.play(word)
        assert result.ok, (word, result)
    return session


def play(deal: Deal, *words: str) -> Game:
    """A game after playing the words (taps or moves); each must succeed."""
    return session_after(deal, *words).game


def rules_moves(position: Position) -> tuple[Move, ...]:
    """The moves of the rules R1–R17 alone: a dead position still offers its draw or recycle (the end
    rule of save format 1, which storage replays old files by; the engine ends the game there)."""
    return format_1.moves(position)


def apply_by_rules(position: Position, move: Move) -> Position:
    """The position after ``move``, which must be one of :func:`rules_moves` (a dead position included)."""
    assert move in rules_moves(position), move
    return position.apply_unchecked(move)
