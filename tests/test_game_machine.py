"""Interleavings of push, pop, undo, copy, resign and taps, checked against the naive rules model.

A Hypothesis state machine plays a random deal under random rules through a
:class:`~pyramide_cli.engine.taps.TapSession`: legal pushes (one or a run), refused pushes, the
player's undo, :meth:`Game.pop`, copies of the session (play goes on on the copy, the original must
not change), resignation, and taps on a playable card, the stock and the waste.  After every step
the game must agree with :class:`naive_rules.NaiveGame` and the model's own record: the board, the
legal moves (none once the model says the game is over, dead games included), how it ended, the
score, the move counter (R19), the undo depth (R20) and the history; a pop restores the game exactly
as it was before its action.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from naive_rules import NaiveGame, board, deal_strategy
from test_properties import EVERY_REMOVAL

from pyramide_cli.engine.cards import Card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.errors import IllegalMoveError
from pyramide_cli.engine.game import UNDO_LIMIT, Game
from pyramide_cli.engine.moves import DRAW, RECYCLE, UNDO, Move, Refusal
from pyramide_cli.engine.position import Position, Termination
from pyramide_cli.engine.taps import STOCK, WASTE, TapAction, TapSession


@dataclass
class Expected:
    """What the game must be, by the model: the board and the game's record around it."""

    naive: NaiveGame
    history: list[str] = field(default_factory=list)
    move_count: int = 0
    undo_boards: list[NaiveGame] = field(default_factory=list)
    undo_available: int = 0
    resigned: bool = False

    def copy(self) -> Expected:
        return replace(self, naive=self.naive.copy(), history=list(self.history), undo_boards=list(self.undo_boards))

    @property
    def termination(self) -> Termination | None:
        return Termination.RESIGNED if self.resigned else self.naive.termination()

    @property
    def legal(self) -> set[str]:
        return set() if self.termination is not None else self.naive.moves()

    def move(self, move: Move) -> None:
        self.undo_boards.append(self.naive.copy())
        self.undo_available = min(self.undo_available + 1, UNDO_LIMIT)
        self.naive.apply(move)
        self.history.append(str(move))
        self.move_count += 1

    def undo(self) -> None:
        self.naive = self.undo_boards.pop().copy()  # the boards are shared with the copies kept for pop
        self.undo_available -= 1
        self.history.append(str(UNDO))


def observed(session: TapSession) -> tuple:
    """Everything a caller can read of a session's game (and its selection)."""
    game = session.game
    return (game.position, tuple(game.history), game.move_count, game.undo_depth, game.score, game.termination,
            game.legal_moves, session.selected)


class GameMachine(RuleBasedStateMachine):
    session: TapSession
    expected: Expected
    taken_back: list[tuple[Expected, Position]]
    """Per action played, the model and the engine's position before it (what pop must restore)."""
    selected: Card | None
    left_behind: list[tuple[TapSession, tuple]]
    """Sessions copied from, and what they showed when copied: they must never change afterwards."""

    @initialize(deal=deal_strategy)
    def start(self, deal: Deal) -> None:
        self.session = TapSession(Game(deal))
        self.expected = Expected(NaiveGame(deal))
        self.taken_back, self.selected, self.left_behind = [], None, []

    @property
    def game(self) -> Game:
        return self.session.game

    def legal_list(self) -> list[Move]:
        return sorted(self.game.legal_moves, key=str)

    def before_action(self, before: tuple[Expected, Position] | None = None) -> None:
        self.taken_back.append(before or (self.expected.copy(), self.game.position))

    def played(self, move: Move, before: tuple[Expected, Position] | None = None) -> None:
        self.before_action(before)
        self.expected.move(move)

    # -- the board's actions ------------------------------------------------------------------
    @precondition(lambda self: self.expected.legal)
    @rule(choice=st.integers(0, 10**6))
    def push(self, choice: int) -> None:
        legal = self.legal_list()
        move = legal[choice % len(legal)]
        self.played(move)
        record = self.game.push(move)
        assert record.move is move and record.score == self.game.score
        assert record.termination is self.expected.termination

    @precondition(lambda self: self.expected.legal)
    @rule(choices=st.lists(st.integers(0, 10**6), min_size=2, max_size=40))
    def push_a_run(self, choices: list[int]) -> None:
        """Several moves at once, so that runs reach the ends of games (cleared, no moves, dead)."""
        for choice in choices:
            legal = self.legal_list()
            if not legal:
                break
            self.played(legal[choice % len(legal)])
            self.game.push(legal[choice % len(legal)])

    @rule(move=st.sampled_from(EVERY_REMOVAL + [DRAW, RECYCLE]))
    def push_what_is_not_legal(self, move: Move) -> None:
        if str(move) in self.expected.legal:
            return
        before = observed(self.session)
        with pytest.raises(IllegalMoveError) as refused:
            self.game.push(move)
        assert refused.value.refusal is (Refusal.GAME_OVER if self.expected.termination else refused.value.refusal)
        assert observed(self.session) == before

    @rule()
    def undo(self) -> None:
        before = (self.expected.copy(), self.game.position)
        self.selected = self.still_selected()  # a word of input checks the selection first, as a tap does
        result = self.session.play("undo")
        if self.expected.termination is not None or not self.expected.undo_available:
            assert result.action is TapAction.REFUSED
            assert result.refusal is (Refusal.GAME_OVER if self.expected.termination else Refusal.NOTHING_TO_UNDO)
            return
        assert result.action is TapAction.MOVED and result.move == UNDO
        self.before_action(before)
        self.expected.undo()
        self.selected = None  # an undo clears the selection

    @precondition(lambda self: self.expected.termination is None)
    @rule(data=st.data())
    def resign(self, data: st.DataObject) -> None:
        if not data.draw(st.integers(0, 19), label="resign now") == 0:  # rarely: it ends the game
            return
        self.before_action()
        self.expected.history.append("resign")
        self.expected.resigned = True
        assert self.game.resign().termination is Termination.RESIGNED

    @precondition(lambda self: self.taken_back)
    @rule()
    def pop(self) -> None:
        last = self.expected.history[-1]
        assert str(self.game.pop()) == last
        self.expected, position = self.taken_back.pop()
        assert self.game.position == position  # the selection is the session's: pop leaves it to the next tap

    @rule()
    def copy(self) -> None:
        """Go on with a copy: the session copied from must stay as it is, whatever the copy does."""
        self.left_behind.append((self.session, observed(self.session)))
        self.session = self.session.copy()
        assert observed(self.session) == self.left_behind[-1][1]

    def still_selected(self) -> Card | None:
        """The model's selection, which lasts only while the game goes on and its card is in play."""
        selected, expected = self.selected, self.expected
        if selected is None or expected.termination is not None or selected not in expected.naive.playable():
            return None
        return selected

    # -- taps ---------------------------------------------------------------------------------
    def tapped(self, target: Card | str, card: Card | None) -> None:
        """Tap ``target`` (``card`` is the card it means, ``None`` for the stock) and check what the tap did
        against the model of R11–R14: the stock draws or recycles; a playable card is selected, unselected,
        paired with the selected one, or removed alone when a king."""
        expected, selected = self.expected, self.still_selected()
        legal = expected.legal
        move: Move | None = None
        if expected.termination is not None:
            action = TapAction.REFUSED
        elif card is None:
            move = DRAW if "draw" in legal else RECYCLE if "recycle" in legal else None
            action = TapAction.MOVED if move else TapAction.REFUSED
        elif card == selected:
            action, selected = TapAction.DESELECTED, None
        elif selected is not None and selected.rank + card.rank == 13 and str(Move.pair(selected, card)) in legal:
            move, action, selected = Move.pair(selected, card), TapAction.MOVED, None
        elif card.rank == 13:
            move = Move.king(card) if str(Move.king(card)) in legal else None
            action = TapAction.MOVED if move else TapAction.REFUSED
        elif selected is None:
            action, selected = TapAction.SELECTED, card
        else:
            action, selected = TapAction.REFUSED, card  # not 13, or a pair these rules refuse: the second stays
        before, held = (expected.copy(), self.game.position), self.session.selected
        result = self.session.tap(target)
        assert (result.action, result.move) == (action, move), (target, held, self.selected, result, sorted(legal))
        assert result.ok is (action is not TapAction.REFUSED)
        if expected.termination is not None:
            assert result.refusal is Refusal.GAME_OVER
        if move is not None:
            self.played(move, before)
            self.selected = selected
            selected = self.still_selected()
        self.selected = selected
        assert self.session.selected == selected

    @rule(choice=st.integers(0, 10**6))
    def tap_a_playable_card(self, choice: int) -> None:
        cards = self.expected.naive.playable()
        if cards:
            card = cards[choice % len(cards)]
            self.tapped(card, card)

    @rule()
    def tap_the_stock(self) -> None:
        self.tapped(STOCK, None)

    @rule()
    def tap_the_waste(self) -> None:
        waste = self.expected.naive.waste
        if waste or self.expected.termination is not None:
            self.tapped(WASTE, waste[-1] if waste else None)
        else:
            assert self.session.tap(WASTE).refusal is Refusal.NOT_IN_PLAY

    # -- after every step ---------------------------------------------------------------------
    @invariant()
    def agrees_with_the_model(self) -> None:
        expected, game = self.expected, self.game
        naive = expected.naive
        assert board(game.position) == (naive.rows, naive.waste, naive.stock)
        termination = expected.termination
        assert game.termination is termination and game.is_over is (termination is not None)
        assert {str(move) for move in game.legal_moves} == expected.legal
        assert game.score == 10 * (28 - naive.pyramid_left())
        assert game.move_count == expected.move_count
        assert game.undo_depth == (0 if termination is not None else expected.undo_available)
        assert [str(move) for move in game.history] == expected.history

    @invariant()
    def sessions_copied_from_are_unchanged(self) -> None:
        for session, seen in self.left_behind:
            assert observed(session) == seen


GameMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=30, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_game_machine = GameMachine.TestCase
