"""Batch replay (`pyramide replay DIR`) against one `pyramide replay FILE` process per save (issue 24: >= 50x).

1,000 saves of mixed lengths are written to a temporary folder: random games (uniform among the
legal actions) on deals 0-999 under the four presets, each stopped after a length drawn from 0 to
300 actions or at its end, so the folder holds fresh deals, short games and long finished ones.
The batch replays the folder once per run; the per-file way runs `pyramide replay FILE` for
``BENCH_PROCESSES`` saves (default 50, spread over the folder) and extrapolates their median to
1,000 processes (the processes differ only in their file, and start-up is most of each).  The
figure that decides is CPU time (user + system of the child, ``os.wait4``); wall medians are
printed too.  The package's bytecode is written first, as an install does.  ``BENCH_RUNS``
(default 5) sets the batch runs.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_cli import measured, pyramide_command  # bench/ is the script's folder, first on sys.path
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.rules import Rules
from pyramide_cli.storage.save import SaveData

SAVES = 1000
PROCESSES = int(os.environ.get("BENCH_PROCESSES", "50"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TARGET = 50.0


def compile_package() -> None:
    """Write the package's bytecode first, as installing it would (else every process compiles it)."""
    import compileall

    compileall.compile_dir(Path(__file__).resolve().parent.parent / "pyramide_cli", quiet=1)



def write_saves(folder: Path, seed: int = 24) -> list[int]:
    """The saves of the module docstring; returns their lengths in actions."""
    rng = random.Random(seed)
    lengths = []
    for number in range(SAVES):
        code = Deal.from_number(number, Rules.preset("NTEO"[number % 4])).code
        game = Game.from_code(code)
        for _ in range(rng.randrange(301)):
            moves = game.legal_moves
            if game.is_over or not moves:
                break
            game.push(rng.choice(moves))
        lengths.append(len(game.history))
        (folder / f"save-{number:04}.yaml").write_text(SaveData.from_game(game, None).to_text(), encoding="utf-8")
    return lengths


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-replay-batch-") as temporary:
        folder = Path(temporary) / "saves"
        folder.mkdir()
        lengths = write_saves(folder)
        print(f"{SAVES} saves: actions min {min(lengths)}, median {statistics.median(lengths):.0f}, "
              f"max {max(lengths)}, {sum(lengths):,} in all")
        command = pyramide_command()
        compile_package()
        measured([*command, "replay", str(folder / "save-0000.yaml")], folder)  # warm-up: bytecode, page cache
        batch = []
        for _ in range(RUNS):
            cpu, wall, status = measured([*command, "replay", str(folder)], folder)
            assert status == 0, "the batch should agree with every save"
            batch.append((cpu, wall))
        single = []
        for index in range(PROCESSES):
            name = f"save-{index * SAVES // PROCESSES:04}.yaml"
            cpu, wall, status = measured([*command, "replay", name], folder)
            assert status == 0, name
            single.append((cpu, wall))
    batch_cpu, batch_wall = (statistics.median(run[i] for run in batch) for i in (0, 1))
    one_cpu, one_wall = (statistics.median(run[i] for run in single) for i in (0, 1))
    print(f"batch, one process ({RUNS} runs, medians): CPU {batch_cpu:.2f} s, wall {batch_wall:.2f} s")
    print(f"one process per save ({PROCESSES} processes, medians x {SAVES}): CPU {one_cpu * SAVES:.1f} s "
          f"({one_cpu * 1000:.0f} ms each), wall {one_wall * SAVES:.1f} s ({one_wall * 1000:.0f} ms each)")
    cpu_ratio, wall_ratio = one_cpu * SAVES / batch_cpu, one_wall * SAVES / batch_wall
    verdict = "ok" if cpu_ratio >= TARGET else "BELOW TARGET"
    print(f"batch is {cpu_ratio:.0f}x faster in CPU, {wall_ratio:.0f}x in wall (target >= {TARGET:.0f}x): {verdict}")


if __name__ == "__main__":
    main()
