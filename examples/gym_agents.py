"""Two agents play Pyramid solitaire through the Gymnasium environment ``Pyramide-v0``.

A masked random agent (it samples only actions the mask allows, as a maskable learner starts out)
and the built-in greedy bot (``pyramide tournament --bot greedy``, its move turned into an action
index) play the same deals; their win rates are printed.  Nothing heavier than Gymnasium (and the
NumPy it brings) is imported: a learning agent would take the random agent's place.

    python examples/gym_agents.py --rules T --games 200
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import pyramide_cli.gym  # noqa: F401  (registers Pyramide-v0)
from pyramide_cli.bots.players import GreedyBot
from pyramide_cli.gym import action_of

Agent = Callable[[gymnasium.Env[Any, Any], dict[str, Any]], int]


def masked_random_agent(seed: int) -> Agent:
    """Uniform among the legal actions (those the mask allows)."""
    generator = np.random.default_rng(seed)

    def act(env: gymnasium.Env[Any, Any], info: dict[str, Any]) -> int:
        legal = np.flatnonzero(info["action_mask"])
        return int(legal[generator.integers(len(legal))])

    return act


def greedy_agent() -> Agent:
    """The built-in greedy bot: it reads a copy of the environment's game and names a move."""
    bot = GreedyBot()

    def act(env: gymnasium.Env[Any, Any], info: dict[str, Any]) -> int:
        return action_of(bot.choose(env.unwrapped.game))  # type: ignore[attr-defined]

    return act


def play(env: gymnasium.Env[Any, Any], agent: Agent, seeds: range) -> tuple[int, float]:
    """Games won and the mean score over one episode per seed (the seed picks the deal)."""
    wins, scores = 0, []
    for seed in seeds:
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(agent(env, info))
            done = terminated or truncated
        wins += info["termination"] == "cleared"
        scores.append(info["score"])
    return wins, sum(scores) / len(scores)


def main(arguments: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="T", help="rules of the deals (default T)")
    parser.add_argument("--games", type=int, default=100, help="deals, one game each (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (default 0)")
    options = parser.parse_args(arguments)
    env = gymnasium.make("Pyramide-v0", rules=options.rules)
    seeds = range(options.seed, options.seed + options.games)
    print(f"rules {options.rules}, {options.games} deals (seeds {seeds.start}-{seeds.stop - 1})")
    for name, agent in (("masked random", masked_random_agent(options.seed)), ("greedy", greedy_agent())):
        wins, mean_score = play(env, agent, seeds)
        print(f"{name:>13}: won {wins} of {options.games} ({100 * wins / options.games:.1f} %), "
              f"mean score {mean_score:.1f}")
    env.close()


if __name__ == "__main__":
    main()
