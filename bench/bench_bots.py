"""Issue 10 benchmark: games through the public API, serve round trips, an external-engine tournament.

* Random games under T through ``pyramide_cli.Game`` (``legal_moves`` + ``push``), beside the
  internal random playout of grading, both on one core in the same run (CPU time, medians of
  several rounds).  Target: >= 1,500 games/s and within 2x of the playout.
* ``pyramide serve`` driven by a Python client over a pipe, one move per round trip (wall time, the
  client and the server each on their own core at best).  Target: >= 5,000 moves/s.
* A 1,000-game ``tournament`` of ``examples/engine.py`` under T.  Target: <= 30 s on one core: the
  CPU time of the tournament and of the engine together is what one core would need.

Quote the CPU figures: the machine these run on is often shared and loaded, and wall time then says
more about the neighbours than about pyramide.  ``--quick`` runs a tenth of everything.
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = "--quick" in sys.argv
ROUNDS = 3 if QUICK else 5
DEALS = 20 if QUICK else 100
GAMES_PER_DEAL = 5
SERVE_GAMES = 10 if QUICK else 100
TOURNAMENT_GAMES = 100 if QUICK else 1000


def api_random_games(rules_text: str, seed: int) -> tuple[int, int, float]:
    """(games, actions, CPU seconds) of random games through the public API."""
    from pyramide_cli import Deal, Game, Rules

    rules = Rules.parse(rules_text)
    rng = random.Random(seed).random
    games = actions = 0
    deals = [Deal.from_number(number, rules) for number in range(DEALS)]
    start = time.process_time()
    for deal in deals:
        for _ in range(GAMES_PER_DEAL):
            game = Game(deal)
            while not game.is_over:
                legal = game.legal_moves
                game.push(legal[int(rng() * len(legal))])
            games += 1
            actions += len(game.history)
    return games, actions, time.process_time() - start


def playout_games(rules_text: str, seed: int) -> tuple[int, int, float]:
    """(games, actions, CPU seconds) of the internal random playout (grading's player)."""
    from pyramide_cli.engine.deal import Deal
    from pyramide_cli.engine.playout import PlayoutTables, random_game
    from pyramide_cli.engine.rules import Rules

    rules = Rules.parse(rules_text)
    rng = random.Random(seed).random
    games = actions = 0
    deals = [Deal.from_number(number, rules) for number in range(DEALS)]
    start = time.process_time()
    for deal in deals:
        tables = PlayoutTables(deal)
        for _ in range(GAMES_PER_DEAL):
            actions += random_game(tables, rng).actions
            games += 1
    return games, actions, time.process_time() - start


def measure_api() -> None:
    for rules in ("T",):
        api_rates, playout_rates, api_actions, playout_actions = [], [], 0, 0
        for round_number in range(ROUNDS):
            games, actions, seconds = api_random_games(rules, round_number)
            api_rates.append(games / seconds)
            api_actions = actions // games
            games, actions, seconds = playout_games(rules, round_number)
            playout_rates.append(games / seconds)
            playout_actions = actions // games
        api, playout = statistics.median(api_rates), statistics.median(playout_rates)
        print(f"random games under {rules}: public API {api:,.0f} games/s ({api_actions} actions/game), internal "
              f"playout {playout:,.0f} games/s ({playout_actions} actions/game): playout/API = {playout / api:.2f} "
              f"(CPU, median of {ROUNDS} rounds of {DEALS * GAMES_PER_DEAL} games)")


def measure_serve() -> None:
    process = subprocess.Popen([sys.executable, "-m", "pyramide_cli", "serve"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, bufsize=1, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None

    def ask(request: dict) -> dict:
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    ask({"op": "hello", "protocol": 1})
    ask({"op": "new", "number": 0, "rules": "T"})  # warm up
    moves = 0
    rng = random.Random(0)
    wall, cpu = time.perf_counter(), time.process_time()
    for number in range(SERVE_GAMES):
        legal = ask({"op": "new", "number": number, "rules": "T"})["state"]["legal_moves"]
        while legal:
            legal = ask({"op": "play", "input": rng.choice([move for move in legal if move != "undo"])})["legal_moves"]
            moves += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    ask({"op": "quit"})
    process.wait()
    server = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = server.ru_utime + server.ru_stime
    print(f"serve round trips: {moves / wall:,.0f} moves/s wall ({moves} moves of {SERVE_GAMES} random games under T; "
          f"client CPU {1e6 * cpu / moves:.0f} us/move, server CPU {1e6 * server_cpu / moves:.0f} us/move, "
          "its start-up included)")


def measure_tournament() -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "pyramide_cli", "tournament", "--engine", f"{sys.executable} examples/engine.py",
         "--rules", "T", "--deals", f"0-{TOURNAMENT_GAMES - 1}", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    figures = json.loads(completed.stdout)["summary"]
    print(f"tournament of examples/engine.py, {figures['games']} games under T: {cpu:.1f} s CPU (tournament and "
          f"engine together: one core's work), {wall:.1f} s wall; won {figures['wins']}, "
          f"{figures['mean_actions']:.0f} actions/game, {figures['ms_per_move']:.3f} ms per move as the tournament "
          "saw it")


if __name__ == "__main__":
    measure_api()
    measure_serve()
    measure_tournament()
