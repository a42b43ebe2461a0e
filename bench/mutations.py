"""Mutation checks: the suite must fail when a rule of the engine or of the solver is broken.

Each mutation below changes one line of a copy of the package (the repository is never touched),
runs the tests that should notice on that copy, and must see at least one of them fail.  The
failing tests are listed; a mutation that no test catches, or whose line is no longer in the code,
makes the script exit 1.  Hypothesis does not shrink here (profile ``mutations``, tests/conftest.py).

    make mutations                      # every mutation
    .venv/bin/python bench/mutations.py kernel-pair-sum   # one by name
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 900
"""Seconds a mutation's tests may take (a mutation that makes a game never end would hang them)."""


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str
    path: str
    before: str
    after: str
    tests: tuple[str, ...]


ENGINE_TESTS = ("tests/test_properties.py", "tests/test_game_machine.py", "tests/test_dead.py", "tests/test_kernel.py",
                "tests/test_game.py", "tests/test_position.py")
SOLVER_TESTS = ("tests/test_solver.py", "tests/test_solver_optimal.py", "tests/test_talon_order.py",
                "tests/test_talon_set.py", "tests/test_relaxation.py", "tests/test_segments.py",
                "tests/test_waste_stack.py", "tests/test_search_rules.py")

THEN_IF_CUT = "\n" + " " * 8 + "if waste_cut:  # else the talon in reach"
"""The next line in the search's buried-waste gains (the same cut in last_pass_gains stays)."""

MUTATIONS = (
    Mutation("kernel-pair-sum", "the rules kernel: under waste-pair the waste top pairs with the card under it "
             "when they make 12, not 13",
             "pyramide_cli/engine/kernel.py", "if under >= 0 and values[under] + top_value == 13:",
             "if under >= 0 and values[under] + top_value == 12:", ENGINE_TESTS),
    Mutation("kernel-stock-top-pair", "the rules kernel: under stock-top the waste top and the stock top pair "
             "when they make 12",
             "pyramide_cli/engine/kernel.py", "if top_value + up_value == 13:", "if top_value + up_value == 12:",
             ENGINE_TESTS),
    Mutation("dead-end-recycle-limit", "the dead-end test forgets the recycle limit: a removal after a recycle "
             "that is not allowed keeps the game alive",
             "pyramide_cli/engine/kernel.py", "if start and (rules.limit is None or recycles < rules.limit):",
             "if start:", ENGINE_TESTS),
    Mutation("dead-end-pyramid-pairs", "the dead-end test forgets that two free pyramid cards making 13 are a "
             "removal: such a game ends as dead",
             "pyramide_cli/engine/kernel.py", "if value == KING or needed >> value & 1:", "if value == KING:",
             ENGINE_TESTS),
    Mutation("pruning-last-pass-cut", "a solver pruning rule: in the last pass the whole waste counts as out of "
             "reach (not only down to its highest card no pyramid card removes)",
             "pyramide_cli/solver/talon_search.py",
             "waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()" + THEN_IF_CUT,
             "waste_cut = (talon & ((1 << drawn) - 1)).bit_length()" + THEN_IF_CUT, SOLVER_TESTS),
    Mutation("pruning-dominance", "a solver pruning rule: a node counts as dominated by a failed one on the same "
             "key that was reached later, not earlier",
             "pyramide_cli/solver/talon_search.py", "if failed is not None and time >= failed:",
             "if failed is not None and time <= failed:", SOLVER_TESTS),
    Mutation("pruning-dominance-off-by-one", "a solver pruning rule: a node counts as dominated by a failed one on "
             "the same key that was reached one step earlier (under draw-3, with one more recycle left)",
             "pyramide_cli/solver/talon_search.py", "if failed is not None and time >= failed:",
             "if failed is not None and time >= failed - 1:", SOLVER_TESTS),
)


def run(mutation: Mutation) -> tuple[bool, list[str], float]:
    """Apply ``mutation`` to a copy of the repository and run its tests there: (caught, failing tests, seconds)."""
    with tempfile.TemporaryDirectory(prefix=f"mutation-{mutation.name}-") as folder:
        copy = Path(folder)
        for part in ("pyramide_cli", "tests"):
            shutil.copytree(ROOT / part, copy / part, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
        for part in ("pyproject.toml", "docs", "examples"):
            source = ROOT / part
            if source.is_dir():
                shutil.copytree(source, copy / part)
            elif source.exists():
                shutil.copy(source, copy / part)
        target = copy / mutation.path
        source = target.read_text(encoding="utf-8")
        if mutation.before not in source:
            raise SystemExit(f"{mutation.name}: its line is no longer in {mutation.path}; update bench/mutations.py")
        target.write_text(source.replace(mutation.before, mutation.after, 1), encoding="utf-8")
        started = time.perf_counter()
        completed = subprocess.run(
            [sys.executable, "-m", "pytest", *mutation.tests, "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
             "--hypothesis-profile=mutations", "-o", "addopts=", "--tb=no", "-rf"],
            cwd=copy, capture_output=True, text=True, timeout=TIMEOUT)
        seconds = time.perf_counter() - started
        probe = subprocess.run([sys.executable, "-c", "import pyramide_cli; print(pyramide_cli.__file__)"],
                               cwd=copy, capture_output=True, text=True)
        if not probe.stdout.startswith(str(copy)):
            raise SystemExit(f"the tests did not import the mutated copy: {probe.stdout or probe.stderr}")
        failing = re.findall(r"^FAILED (\S+)", completed.stdout, flags=re.MULTILINE)
        return completed.returncode == 1 and bool(failing), failing, seconds


def main(names: list[str]) -> int:
    chosen = [mutation for mutation in MUTATIONS if not names or mutation.name in names]
    missed = 0
    for mutation in chosen:
        caught, failing, seconds = run(mutation)
        missed += not caught
        print(f"{mutation.name}: {'caught' if caught else 'NOT CAUGHT'} ({seconds:.0f} s): {mutation.what}",
              flush=True)
        for test in failing:
            print(f"    {test}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
