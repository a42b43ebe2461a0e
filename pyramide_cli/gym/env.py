"""``PyramideEnv``: one game of Pyramid solitaire per episode, for Gymnasium (``docs/bots.md``).

The environment is a thin shell on the engine's :class:`~pyramide_cli.engine.game.Game`: an action
index names a move (:mod:`.actions`), the step pushes it when it is legal, the reward is the points
it scored (R18) and a win's bonus, and the episode ends where the rules end the game (cleared, no
moves, dead) or is truncated at the action cap.  The engine decides everything; the mask is
``game.legal_moves`` written as a vector.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from ..engine.deal import MAX_DEAL_NUMBER, Deal
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.position import Outcome
from ..engine.rules import Rules
from .actions import ACTION_COUNT, ACTION_OF, ACTIONS
from .observation import STOCK_VIEWS, Observer, observation_space

DEFAULT_MAX_ACTIONS = 1_000
"""The action cap of an episode, as ``pyramide tournament --max-actions`` has by default."""
WIN_REWARD = 100.0
"""What a win adds to the points of the removal that wins it."""
ILLEGAL_ACTION_REWARD = -1.0
"""The reward of an action the mask rules out (the game does not change)."""
OPTION_KEYS = ("deal", "number", "rules", "level")


class PyramideEnv(gym.Env[np.ndarray, np.int64]):
    """Pyramid solitaire as a Gymnasium environment (registered as ``Pyramide-v0``).

    ``rules`` (``"T"``, ``"N+draw-3"``, a :class:`Rules`; by default ``N``, the project's default),
    ``deal`` (a code or a :class:`Deal`: the same deal every episode) and ``level`` (``"easy"`` …
    ``"expert"``: a winnable deal of that level, R25) are the defaults of :meth:`reset`'s options.
    ``stock`` is ``"visible"`` or ``"hidden"`` (the observation shows the stock's order or not);
    ``max_actions`` the cap that truncates an episode; ``win_reward`` and ``illegal_action_reward``
    as documented in ``docs/bots.md``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, *, rules: str | Rules | None = None, deal: str | Deal | None = None, level: str | None = None,
                 stock: str = "visible", max_actions: int = DEFAULT_MAX_ACTIONS, win_reward: float = WIN_REWARD,
                 illegal_action_reward: float = ILLEGAL_ACTION_REWARD, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if stock not in STOCK_VIEWS:
            raise ValueError(f"stock must be 'visible' or 'hidden', not {stock!r}")
        if max_actions < 1:
            raise ValueError(f"max_actions must be at least 1, not {max_actions}")
        self.render_mode = render_mode
        self.stock = stock
        self.max_actions = max_actions
        self.win_reward = float(win_reward)
        self.illegal_action_reward = float(illegal_action_reward)
        self.defaults = self._options({"rules": rules, "deal": deal, "level": level}, {})
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_space = observation_space()
        self._game: Game | None = None
        self._observer: Observer | None = None
        self._mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        self._steps = 0

    # -- the episode ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game: of ``options["deal"]`` (a code or a :class:`Deal`), of deal ``options["number"]``,
        of a deal of ``options["level"]``, or of a deal drawn from the seed; under ``options["rules"]``
        (a code's own rules for ``deal``).  The same seed and options give the same deal."""
        super().reset(seed=seed)
        chosen = self._options(options or {}, self.defaults)
        deal = self._deal(chosen)
        self._game = game = Game(deal)
        self._observer = observer = Observer(deal, self.stock)
        self._steps = 0
        self._mask = self._mask_of(game)
        return observer.observe(game.position), self._info(game, False)

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play action ``action`` (an index of :data:`~pyramide_cli.gym.actions.ACTIONS`).

        A legal action is pushed on the game and rewarded with its points (R18: 10 per pyramid card),
        plus ``win_reward`` when it wins; an illegal one changes nothing and is rewarded with
        ``illegal_action_reward``.  Either counts towards ``max_actions``.
        """
        game, observer = self._game, self._observer
        if game is None or observer is None:
            raise ResetNeeded("call reset() before step()")
        if game.is_over or self._steps >= self.max_actions:
            raise ResetNeeded("the episode is over: call reset() before step()")
        index = int(action)
        if not 0 <= index < ACTION_COUNT:
            raise ValueError(f"action {index} out of range 0-{ACTION_COUNT - 1}")
        move = ACTIONS[index]
        if move in game.legal_moves:
            record = game.push(move)
            reward = float(record.points)
            if record.outcome is Outcome.WON:
                reward += self.win_reward
            illegal = False
        else:
            reward, illegal = self.illegal_action_reward, True
        self._steps += 1
        terminated = game.is_over
        truncated = not terminated and self._steps >= self.max_actions
        self._mask = self._mask_of(game)
        return observer.observe(game.position), reward, terminated, truncated, self._info(game, illegal)

    def action_masks(self) -> np.ndarray:
        """1 for each legal action, 0 for the others (``int8``, as sb3-contrib's MaskablePPO and
        ``action_space.sample(mask=...)`` take it); all 0 once the game is over."""
        return self._mask.copy()

    def render(self) -> str | None:  # type: ignore[override]
        """The board as ``pyramide show`` draws it (``render_mode="ansi"``; the stock listed when visible)."""
        if self.render_mode is None:
            gym.logger.warn("render() without a render_mode: make the environment with render_mode='ansi'")
            return None
        if self._game is None:
            raise ResetNeeded("call reset() before render()")
        from ..cli.render import Style, render_board  # plain text, no terminal needed; loaded only to render

        return render_board(self._game, Style(), reveal=self.stock == "visible") + "\n"

    # -- reading ------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """A copy of the game being played (to save it with ``pyramide_cli.write_game``, to ask the solver)."""
        if self._game is None:
            raise ResetNeeded("call reset() first")
        return self._game.copy()

    @staticmethod
    def action_move(action: SupportsInt) -> Move:
        """The move of an action index."""
        return ACTIONS[int(action)]

    @staticmethod
    def action_index(move: Move | str) -> int:
        """The action index of a move (``"10C+3S"``, ``"draw"``; ``ValueError`` for ``undo``/``resign``)."""
        from .actions import action_of

        return action_of(move)

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _mask_of(game: Game) -> np.ndarray:
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        mask[[ACTION_OF[move] for move in game.legal_moves]] = 1
        return mask

    def _info(self, game: Game, illegal: bool) -> dict[str, Any]:
        termination = game.termination
        return {"action_mask": self._mask.copy(), "deal": game.deal.code, "score": game.score, "moves": game.move_count,
                "termination": None if termination is None else termination.value, "illegal_action": illegal}

    @staticmethod
    def _options(options: Mapping[str, Any], defaults: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked and read (rules and level parsed, a code read), over ``defaults``."""
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise ValueError(f"unknown reset option {unknown[0]!r}: the options are {', '.join(OPTION_KEYS)}")
        given = {key: value for key, value in options.items() if value is not None}
        if "deal" in given and len(given) > 1:
            raise ValueError("the option 'deal' comes alone: a deal code carries its rules")
        if "number" in given and "level" in given:
            raise ValueError("give the option 'number' or 'level', not both")
        chosen = dict(defaults)
        if given.keys() & {"deal", "number", "level"}:
            for key in ("deal", "number", "level"):
                chosen.pop(key, None)
        if "deal" in given:
            chosen.pop("rules", None)
        for key, value in given.items():
            if key == "rules":
                value = value if isinstance(value, Rules) else Rules.parse(value)
            elif key == "deal":
                value = value if isinstance(value, Deal) else Deal.from_code(value)
            elif key == "number":
                if not 0 <= int(value) <= MAX_DEAL_NUMBER:
                    raise ValueError(f"deal number {value} out of range 0-{MAX_DEAL_NUMBER}")
                value = int(value)
            elif key == "level":
                from ..analysis.grade import parse_level

                value = parse_level(value)
            chosen[key] = value
        return chosen

    def _deal(self, chosen: Mapping[str, Any]) -> Deal:
        """The deal of an episode: the one given, the number given, a level's or one drawn from the seed."""
        if "deal" in chosen:
            return chosen["deal"]  # type: ignore[no-any-return]
        rules = chosen.get("rules") or Rules()
        if "number" in chosen:
            return Deal.from_number(chosen["number"], rules)
        start = int(self.np_random.integers(0, MAX_DEAL_NUMBER + 1))
        if "level" in chosen:
            from ..analysis.grade import find_level_deal

            return find_level_deal(chosen["level"], rules, start).deal
        return Deal.from_number(start, rules)
