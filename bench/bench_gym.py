"""Issue 24 benchmark: steps per second of the Gymnasium environment ``Pyramide-v0``.

A masked random agent (uniform among the actions the mask allows) plays episodes under rules ``T``
on one core, in one process, timed in CPU seconds (``time.process_time``), the median of several
rounds:

* the environment itself (``PyramideEnv``), the mask read from ``info["action_mask"]``;
* through ``gymnasium.make`` (its order-enforcing and passive-checker wrappers), the mask asked from
  ``action_masks()`` every step, as sb3-contrib's MaskablePPO does;
* the engine alone (``Game.legal_moves`` and ``Game.push``, Python's ``random``), for what the
  environment's observation, mask and info add.

Target: >= 5,000 steps/s with masks.  ``--quick`` runs a fifth of the steps.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: NumPy's thread pools stay single (before importing it)

import random
import statistics
import sys
import time
from collections.abc import Callable

import gymnasium
import numpy as np

import pyramide_cli.gym  # noqa: F401  (registers Pyramide-v0)
from pyramide_cli.engine.deal import MAX_DEAL_NUMBER, Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.rules import Rules
from pyramide_cli.gym import PyramideEnv

QUICK = "--quick" in sys.argv
ROUNDS = 5
STEPS = 10_000 if QUICK else 50_000
RULES = "T"
TARGET = 5_000


def environment_steps(env: gymnasium.Env, seed: int, mask_of: Callable[[dict], np.ndarray]) -> tuple[int, int, float]:
    """(steps, episodes, CPU seconds) of a masked random agent playing ``STEPS`` steps."""
    generator = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    _, info = env.reset(seed=seed)
    while steps < STEPS:
        legal = np.flatnonzero(mask_of(info))
        _, _, terminated, truncated, info = env.step(legal[generator.integers(len(legal))])
        steps += 1
        if terminated or truncated:
            episodes += 1
            _, info = env.reset()
    return steps, episodes, time.process_time() - start


def engine_steps(seed: int) -> tuple[int, int, float]:
    """(steps, games, CPU seconds) of random games through the engine alone, deals drawn as the env does."""
    rules = Rules.parse(RULES)
    rng = random.Random(seed)
    steps = games = 0
    start = time.process_time()
    while steps < STEPS:
        game = Game(Deal.from_number(rng.randrange(MAX_DEAL_NUMBER + 1), rules))
        while not game.is_over and steps < STEPS:
            legal = game.legal_moves
            game.push(legal[int(rng.random() * len(legal))])
            steps += 1
        games += 1
    return steps, games, time.process_time() - start


def report(name: str, runs: list[tuple[int, int, float]]) -> float:
    rate = statistics.median(steps / seconds for steps, _, seconds in runs)
    per_episode = statistics.median(steps / max(episodes, 1) for steps, episodes, _ in runs)
    print(f"{name}: {rate:,.0f} steps/s ({per_episode:.0f} steps per episode; CPU, one core, median of "
          f"{ROUNDS} rounds of {STEPS:,} steps)")
    return rate


def main() -> None:
    raw = PyramideEnv(rules=RULES)
    made = gymnasium.make("Pyramide-v0", rules=RULES)
    mask_from_info = report(f"PyramideEnv, rules {RULES}, masked random agent (info['action_mask'])",
                            [environment_steps(raw, seed, lambda info: info["action_mask"]) for seed in range(ROUNDS)])
    masks_called = made.unwrapped.action_masks
    through_make = report(f"gymnasium.make('Pyramide-v0'), rules {RULES}, masked random agent (action_masks())",
                          [environment_steps(made, seed, lambda info: masks_called()) for seed in range(ROUNDS)])
    engine = report(f"the engine alone (Game.legal_moves + push), rules {RULES}, random",
                    [engine_steps(seed) for seed in range(ROUNDS)])
    slowest = min(mask_from_info, through_make)
    print(f"environment/engine = {mask_from_info / engine:.2f}; target >= {TARGET:,} steps/s with masks: "
          f"{'met' if slowest >= TARGET else 'NOT met'} ({slowest:,.0f})")


if __name__ == "__main__":
    main()
