"""Pyramide: Pyramid solitaire for the terminal, for scripts and for bots.

The public Python API is what ``__all__`` lists (``docs/api.md`` is its manual)::

    from pyramide_cli import Game

    game = Game.from_code("PY1-T-AAAAAAB")
    record = game.push(game.legal_moves[0])   # an ActionRecord: move, points, removed, uncovered, outcome
    game.pop()                                 # take it back

Names are loaded on first use, so ``import pyramide_cli`` stays cheap (the command line imports
this package too); type checkers read the imports under ``TYPE_CHECKING`` instead, so they see each
name with its real type (the package ships ``py.typed``).  ``API_VERSION`` changes only when a name
here is removed or changes meaning.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .versions import (
    API_VERSION,
    ENGINE_PROTOCOL_VERSION,
    JSON_SCHEMA_VERSION,
    PACKAGE_VERSION,
    SAVE_FORMAT_VERSION,
    SERVE_PROTOCOL_VERSION,
)

__version__ = PACKAGE_VERSION

_WHERE = {
    # the engine: cards, rules, deals, moves, positions, games
    "Card": "engine.cards", "Suit": "engine.cards", "parse_card": "engine.cards",
    "Rules": "engine.rules",
    "Deal": "engine.deal",
    "Move": "engine.moves", "MoveKind": "engine.moves", "Refusal": "engine.moves",
    "DRAW": "engine.moves", "RECYCLE": "engine.moves", "UNDO": "engine.moves", "RESIGN": "engine.moves",
    "Position": "engine.position", "Outcome": "engine.position", "Termination": "engine.position",
    "Game": "engine.game", "ActionRecord": "engine.game",
    "TapSession": "engine.taps", "TapResult": "engine.taps", "TapAction": "engine.taps",
    # errors: one base class; the others say what was wrong
    "PyramideError": "engine.errors", "CardError": "engine.errors", "RulesError": "engine.errors",
    "DealCodeError": "engine.errors", "MoveSyntaxError": "engine.errors", "IllegalMoveError": "engine.errors",
    "SaveFileError": "storage.save", "FileAccessError": "storage.files",
    # save files, the solver, hints
    "read_game": "api", "write_game": "api", "hint": "api",
    "solve": "solver", "Limits": "solver", "Limit": "solver", "SolveResult": "solver", "Verdict": "solver",
    "Hint": "analysis.hint", "HintKind": "analysis.hint",
    # bots: the protocol and the tournament's game loop
    "Bot": "bots.players", "BotFailure": "bots.players", "play_game": "bots.tournament",
    "GameResult": "bots.tournament",
}

if TYPE_CHECKING:  # what type checkers see; at run time each name is loaded by __getattr__ (a test checks both agree)
    from .analysis.hint import Hint, HintKind
    from .api import hint, read_game, write_game
    from .bots.players import Bot, BotFailure
    from .bots.tournament import GameResult, play_game
    from .engine.cards import Card, Suit, parse_card
    from .engine.deal import Deal
    from .engine.errors import (
        CardError,
        DealCodeError,
        IllegalMoveError,
        MoveSyntaxError,
        PyramideError,
        RulesError,
    )
    from .engine.game import ActionRecord, Game
    from .engine.moves import DRAW, RECYCLE, RESIGN, UNDO, Move, MoveKind, Refusal
    from .engine.position import Outcome, Position, Termination
    from .engine.rules import Rules
    from .engine.taps import TapAction, TapResult, TapSession
    from .solver import Limit, Limits, SolveResult, Verdict, solve
    from .storage.files import FileAccessError
    from .storage.save import SaveFileError

__all__ = [
    "API_VERSION", "ENGINE_PROTOCOL_VERSION", "JSON_SCHEMA_VERSION", "SAVE_FORMAT_VERSION", "SERVE_PROTOCOL_VERSION",
    "__version__", "Card", "Suit", "parse_card", "Rules", "Deal", "Move", "MoveKind", "Refusal", "DRAW", "RECYCLE",
    "UNDO", "RESIGN", "Position", "Outcome", "Termination", "Game", "ActionRecord", "TapSession", "TapResult",
    "TapAction", "PyramideError", "CardError", "RulesError", "DealCodeError", "MoveSyntaxError", "IllegalMoveError",
    "SaveFileError", "FileAccessError", "read_game", "write_game", "solve", "hint", "Limits", "Limit", "SolveResult",
    "Verdict", "Hint", "HintKind", "Bot", "BotFailure", "play_game", "GameResult",
]
"""Every public name: the versions, then the names of ``_WHERE`` (a test checks they agree)."""


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'pyramide_cli' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
