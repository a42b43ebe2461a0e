"""The Gymnasium environment ``Pyramide-v0`` (pyramide_cli/gym, docs/bots.md): Gymnasium's own checker,
seeded resets, the mask against the engine under every rule set, the observation against the position,
the reward against R18, the episode's end, and a game played through it replaying as a save."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.error import ResetNeeded  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from pyramide_cli import read_game, write_game  # noqa: E402
from pyramide_cli.engine.cards import CARDS  # noqa: E402
from pyramide_cli.engine.deal import MAX_DEAL_NUMBER, Deal  # noqa: E402
from pyramide_cli.engine.moves import DRAW, RECYCLE, MoveKind  # noqa: E402
from pyramide_cli.engine.position import Place, Position  # noqa: E402
from pyramide_cli.engine.rules import Rules  # noqa: E402
from pyramide_cli.gym import ACTION_COUNT, ACTIONS, ENV_ID, PyramideEnv, action_of  # noqa: E402
from pyramide_cli.gym import observation as encoding  # noqa: E402

from cli_support import EXAMPLES, ROOT, run  # noqa: E402
from rules_strategies import any_rules  # noqa: E402


def position_moves(position: Position) -> tuple:
    """The engine's legal moves of a position (a method today, a property in API 2)."""
    moves = position.legal_moves
    return tuple(moves() if callable(moves) else moves)


def play_out(env: PyramideEnv, choose, seed: int | None = None, options: dict | None = None) -> tuple[float, dict]:
    """One episode: ``choose(info) -> action`` until it ends; the rewards' sum and the last info."""
    _, info = env.reset(seed=seed, options=options)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, info = env.step(choose(info))
        total += reward
        done = terminated or truncated
    return total, info


def random_choice(generator: np.random.Generator):
    return lambda info: int(generator.choice(np.flatnonzero(info["action_mask"])))


# -- Gymnasium's checker, registration --------------------------------------------------------------
@pytest.mark.parametrize("rules, stock", [("T", "visible"), ("N+draw-3+stock-top+waste-pair+strict", "hidden")])
def test_gymnasiums_environment_checker_passes(rules: str, stock: str) -> None:
    env = gymnasium.make(ENV_ID, rules=rules, stock=stock, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        check_env(env.unwrapped)


def test_the_id_is_made_by_module_path_without_importing_the_package_first() -> None:
    script = ("import sys, gymnasium\nassert 'pyramide_cli.gym' not in sys.modules\n"
              "env = gymnasium.make('pyramide_cli.gym:Pyramide-v0', rules='T')\n"
              "print(env.reset(seed=3)[1]['deal'], gymnasium.make('Pyramide-v0').unwrapped.__class__.__name__)")
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert completed.returncode == 0, completed.stderr
    code, name = completed.stdout.split()
    assert code == PyramideEnv(rules="T").reset(seed=3)[1]["deal"] and name == "PyramideEnv"


# -- the action table -------------------------------------------------------------------------------
def test_the_action_table_holds_every_king_and_every_pair_adding_to_13_once_then_draw_and_recycle() -> None:
    kings = {card for card in CARDS if card.is_king}
    pairs = {frozenset((a, b)) for a in CARDS for b in CARDS if a < b and a.rank + b.rank == 13}
    assert len(ACTIONS) == ACTION_COUNT == len(set(ACTIONS)) == len(kings) + len(pairs) + 2
    assert {move.cards[0] for move in ACTIONS if move.kind is MoveKind.KING} == kings
    assert {frozenset(move.cards) for move in ACTIONS if move.kind is MoveKind.PAIR} == pairs
    assert ACTIONS[-2:] == (DRAW, RECYCLE)
    assert [action_of(str(move)) for move in ACTIONS] == list(range(ACTION_COUNT))
    with pytest.raises(ValueError):
        action_of("undo")


# -- reset --------------------------------------------------------------------------------------
def test_reset_with_the_same_seed_deals_the_same_game_and_seeds_go_on_from_there() -> None:
    first, second = PyramideEnv(rules="T"), PyramideEnv(rules="T")
    observation, info = first.reset(seed=11)
    again, info_again = second.reset(seed=11)
    assert info["deal"] == info_again["deal"] and np.array_equal(observation, again)
    assert [first.reset()[1]["deal"] for _ in range(3)] == [second.reset()[1]["deal"] for _ in range(3)]
    codes = {PyramideEnv(rules="T").reset(seed=seed)[1]["deal"] for seed in range(5)}
    assert len(codes) == 5 and all(code.startswith("PY1-T-") for code in codes)


def test_reset_options_give_a_deal_code_a_number_or_rules() -> None:
    env = PyramideEnv()
    assert env.reset(options={"deal": "py1-e-aaaaaab"})[1]["deal"] == "PY1-E-AAAAAAB"
    assert env.reset(options={"number": 9, "rules": "T+draw-3"})[1]["deal"] == Deal.from_number(
        9, Rules.parse("TD")).code
    assert env.reset(seed=1, options={"rules": "O+strict"})[1]["deal"].startswith("PY1-OS-")
    assert env.reset(seed=1)[1]["deal"].startswith("PY1-N-")  # options last one episode only
    fixed = PyramideEnv(deal="PY1-T-AAAAAAJ")
    assert {fixed.reset(seed=seed)[1]["deal"] for seed in range(3)} == {"PY1-T-AAAAAAJ"}
    for wrong in ({"deal": "PY1-T-AAAAAAB", "rules": "N"}, {"colour": "red"}, {"rules": "T+sideways"},
                  {"deal": "PY1-X-AAAAAAB"}, {"number": MAX_DEAL_NUMBER + 1}, {"level": "hardest"}):
        with pytest.raises(ValueError):
            env.reset(options=wrong)


def test_r25_a_level_option_deals_a_winnable_deal_of_that_level() -> None:
    from pyramide_cli.analysis.grade import default_prover, is_level_deal, parse_level

    env = PyramideEnv(rules="N")
    code = env.reset(seed=1, options={"level": "medium"})[1]["deal"]  # a few deals solved and graded: ~0.1 s
    assert is_level_deal(Deal.from_code(code), parse_level("medium"), default_prover())
    assert env.reset(seed=1, options={"level": "medium"})[1]["deal"] == code


# -- the mask against the engine, under every rule set ---------------------------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=any_rules(), number=st.integers(0, MAX_DEAL_NUMBER), seed=st.integers(0, 2**32 - 1))
def test_every_allowed_action_is_legal_and_every_legal_move_allowed_on_every_position(rules, number, seed) -> None:
    """Along a random game, at every position: the mask is 1 exactly for the moves the position itself
    allows (``Position.refusal``, the engine's per-card rules, not the game's tables), and every legal
    move of the position has an action; an action ruled out changes nothing."""
    env = PyramideEnv(max_actions=100)
    generator = np.random.default_rng(seed)
    observation, info = env.reset(options={"number": number, "rules": rules})
    done = False
    while not done:
        game = env.game
        position = game.position
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"])
        allowed = {index for index in range(ACTION_COUNT) if position.refusal(ACTIONS[index]) is None}
        assert set(np.flatnonzero(mask)) == allowed
        assert {action_of(move) for move in position_moves(position)} == allowed
        if len(allowed) < ACTION_COUNT and generator.random() < 0.2:
            ruled_out = int(generator.choice(np.flatnonzero(mask == 0)))
            again, reward, terminated, truncated, info = env.step(ruled_out)
            assert info["illegal_action"] and reward == env.illegal_action_reward and not terminated
            assert np.array_equal(again, observation) and env.game.history == game.history
            done = truncated
            continue
        observation, _, terminated, truncated, info = env.step(int(generator.choice(sorted(allowed))))
        done = terminated or truncated
    assert not env.action_masks().any() or truncated


# -- the observation against the position -------------------------------------------------------------
def decode(observation: np.ndarray) -> dict:
    """Where the observation says each card is (docs/bots.md): rows, waste bottom to top, stock top first."""
    rows = [[None] * (row + 1) for row in range(7)]
    waste, stock = {}, {}
    for card in CARDS:
        code = int(observation[card])
        if encoding.PYRAMID <= code < encoding.WASTE_TOP:
            slot = code - encoding.PYRAMID
            row = next(r for r in range(7) if r * (r + 1) // 2 <= slot < (r + 1) * (r + 2) // 2)
            rows[row][slot - row * (row + 1) // 2] = card
        elif encoding.WASTE_TOP <= code < encoding.STOCK_TOP:
            waste[code - encoding.WASTE_TOP] = card
        elif code >= encoding.STOCK_TOP:
            stock.setdefault(code - encoding.STOCK_TOP, []).append(card)
    return {"rows": rows, "waste": [waste[depth] for depth in sorted(waste, reverse=True)], "stock": stock}


@pytest.mark.parametrize("rules", ["N", "T+stock-top+draw-3", "E+waste-pair+cover-pair+strict+recycles=3"])
def test_the_observation_says_where_every_card_is(rules: str) -> None:
    generator = np.random.default_rng(5)
    visible, hidden = PyramideEnv(rules=rules), PyramideEnv(rules=rules, stock="hidden")
    observation, info = visible.reset(seed=2)
    covered, _ = hidden.reset(seed=2)
    parsed = Rules.parse(rules)
    flags = [parsed.strict, parsed.waste_pair, parsed.cover_pair, parsed.stock_top, parsed.draw_count == 3]
    for _ in range(60):
        position = visible.game.position
        assert visible.observation_space.contains(observation) and hidden.observation_space.contains(covered)
        seen = decode(observation)
        assert seen["rows"] == position.rows() and seen["waste"] == list(position.waste)
        assert [cards for _, cards in sorted(seen["stock"].items())] == [[card] for card in position.stock]
        removed = {card for card in CARDS if observation[card] == encoding.REMOVED}
        assert removed == {card for card in CARDS if position.place(card) is Place.FOUNDATION}
        left = None if parsed.recycle_limit is None else parsed.recycle_limit - position.recycles
        assert observation[encoding.RECYCLES_INDEX] == (encoding.RECYCLES_UNLIMITED if left is None else left)
        assert list(observation[encoding.VARIANTS_INDEX:]) == flags
        shown = decode(covered)
        assert shown["rows"] == seen["rows"] and shown["waste"] == seen["waste"]
        top = [position.stock[0]] if parsed.stock_top and position.stock else []
        assert shown["stock"].get(0, []) == top
        assert sorted(shown["stock"].get(encoding.STOCK_HIDDEN - encoding.STOCK_TOP, [])) == sorted(
            position.stock[len(top):])
        if not info["action_mask"].any():
            break
        action = int(generator.choice(np.flatnonzero(info["action_mask"])))
        observation, _, _, _, info = visible.step(action)
        covered, *_ = hidden.step(action)


# -- reward, end, truncation, render -----------------------------------------------------------------
@pytest.mark.parametrize("rules", ["N", "T", "O+strict"])
def test_r18_the_rewards_add_up_to_the_score_and_a_win_adds_its_bonus(rules: str) -> None:
    env = PyramideEnv(rules=rules, win_reward=500.0)
    generator = np.random.default_rng(0)
    for seed in range(4):
        total, info = play_out(env, random_choice(generator), seed=seed)
        won = info["termination"] == "cleared"
        assert total == env.game.position.score + (500.0 if won else 0.0)
        assert info["termination"] == env.game.termination.value  # terminated where the rules end it


def test_the_won_example_game_played_through_the_environment_scores_280_and_ends_cleared() -> None:
    won = read_game(EXAMPLES / "won-n.yaml")
    env = PyramideEnv(deal=won.deal)
    env.reset()
    rewards = []
    for number, move in enumerate(won.history, 1):
        _, reward, terminated, truncated, info = env.step(action_of(move))
        rewards.append(reward)
        assert terminated is (number == len(won.history)) and not truncated and not info["illegal_action"]
    assert sum(rewards) == 280 + env.win_reward and info["termination"] == "cleared" and info["score"] == 280
    with pytest.raises(ResetNeeded):
        env.step(action_of("draw"))


def test_an_episode_is_truncated_at_the_action_cap_and_never_terminated_there() -> None:
    env = PyramideEnv(rules="N", max_actions=5)
    env.reset(seed=0)
    ends = [env.step(ACTION_COUNT - 2)[2:4] for _ in range(5)]  # draws: nothing ends the game under N
    assert ends == [(False, False)] * 4 + [(False, True)]
    with pytest.raises(ResetNeeded):
        env.step(ACTION_COUNT - 2)


def test_render_ansi_draws_the_board_with_the_stock_listed_only_when_visible() -> None:
    boards = {}
    for stock in ("visible", "hidden"):
        env = PyramideEnv(rules="T", stock=stock, render_mode="ansi")
        _, info = env.reset(seed=4)
        boards[stock] = env.render()
        assert info["deal"] in boards[stock] and "score 0" in boards[stock]
    listed = " ".join(card.name(symbols=True) for card in env.game.position.stock)
    assert listed in boards["visible"] and listed not in boards["hidden"]
    quiet = PyramideEnv()
    quiet.reset(seed=0)
    with pytest.warns(UserWarning):
        assert quiet.render() is None


# -- a game played through the environment is a save -----------------------------------------------------
@pytest.mark.parametrize("rules", ["T", "N+stock-top", "E+draw-3+cover-pair"])
def test_a_game_played_through_the_environment_replays_as_a_save_to_the_same_score(tmp_path, rules: str) -> None:
    env = PyramideEnv(rules=rules)
    total, info = play_out(env, random_choice(np.random.default_rng(3)), seed=7)
    points = total - (env.win_reward if info["termination"] == "cleared" else 0)
    path = tmp_path / "g.yaml"
    write_game(path, env.game)
    status = "won" if info["termination"] == "cleared" else "lost"
    outcome = run("replay", str(path), "--expect", status, "--expect-score", str(int(points)), cwd=tmp_path)
    assert outcome.status == 0, outcome
    assert read_game(path).history == env.game.history


def test_the_example_plays_both_agents_and_prints_their_win_rates(tmp_path) -> None:
    completed = subprocess.run([sys.executable, str(EXAMPLES / "gym_agents.py"), "--games", "3", "--rules", "T"],
                               capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert [line.split(":")[0].strip() for line in lines[1:]] == ["masked random", "greedy"]
    assert all(" of 3 (" in line for line in lines[1:])


def test_the_example_of_docs_bots_runs_and_its_action_table_is_the_environments() -> None:
    import re

    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    blocks = [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "gymnasium" in block]
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/bots.md", "exec"), {"__name__": "example"})
    named = re.findall(r"(\d+) (?:is )?`((?:[0-9]+|[AJQK])[CDHS]\+[^`]+)`", text)
    assert len(named) == 5 and all(str(ACTIONS[int(number)]) == move for number, move in named), named


def test_wrong_arguments_and_steps_out_of_turn_are_refused_with_a_clear_error() -> None:
    for wrong in ({"render_mode": "human"}, {"stock": "peek"}, {"max_actions": 0}, {"level": "hardest"},
                  {"deal": "PY1-T-AAAAAAB", "rules": "N"}):
        with pytest.raises(ValueError):
            PyramideEnv(**wrong)
    env = PyramideEnv(render_mode="ansi")
    for call in (lambda: env.step(0), env.render, lambda: env.game):
        with pytest.raises(ResetNeeded):
            call()
    env.reset(seed=0)
    for action in (-1, ACTION_COUNT):
        with pytest.raises(ValueError):
            env.step(action)
    assert env.action_move(env.action_index("recycle")) is RECYCLE
