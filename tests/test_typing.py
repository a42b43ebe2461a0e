"""The public API as type checkers see it: py.typed, the TYPE_CHECKING imports of pyramide_cli/__init__.py,
and what mypy infers for a bot author's code (the real classes, never ``Any``)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pyramide_cli

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pyramide_cli"

SNIPPET = """
from pyramide_cli import Bot, Game, Limits, Move, hint, play_game, solve

game = Game.from_code("PY1-T-AAAAAAB")
reveal_type(game)
reveal_type(game.push("KC"))
reveal_type(game.push("KH").uncovered)
reveal_type(solve(game, limits=Limits(max_states=10)))
reveal_type(hint(game))


class First:
    name = "first"

    def choose(self, game: Game) -> Move:
        return game.legal_moves[0]


bot: Bot = First()
reveal_type(play_game(bot, "PY1-T-AAAAAAB", seed=1))
solve(game, max_states=10)
"""
EXPECTED = {
    5: r"pyramide_cli\.engine\.game\.Game",
    6: r"(tuple\[.*fallback=)?pyramide_cli\.engine\.\w+\.ActionRecord\]?",  # a class (or a NamedTuple) of the engine
    7: r"tuple\[pyramide_cli\.engine\.cards\.Card, \.\.\.\]",
    8: r"pyramide_cli\.solver\.SolveResult",
    9: r"pyramide_cli\.analysis\.hint\.Hint",
    20: r"pyramide_cli\.bots\.tournament\.GameResult",
}
"""Line of the snippet -> the type mypy must reveal there (a regular expression)."""


def type_checking_imports() -> dict[str, str]:
    """Name -> module (relative to the package) of every import under ``if TYPE_CHECKING:`` in __init__.py."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.level == 1, ast.dump(statement)
                for alias in statement.names:
                    found[alias.asname or alias.name] = statement.module or ""
    return found


def test_type_checkers_import_every_public_name_from_where_it_is_loaded_at_run_time() -> None:
    assert type_checking_imports() == pyramide_cli._WHERE


def test_the_package_ships_its_py_typed_marker() -> None:
    assert (PACKAGE / "py.typed").is_file()
    assert re.search(r'"pyramide_cli" = \["py\.typed"\]', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_mypy_sees_the_real_types_of_the_public_api(tmp_path: Path) -> None:
    """One mypy run (a few seconds, cold cache in tmp_path) for every reveal_type of the snippet; and a
    wrong keyword of ``solve`` is an error, which it would not be if the names were ``Any``."""
    source = tmp_path / "bot.py"
    source.write_text(SNIPPET, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--no-error-summary",
         "--cache-dir", str(tmp_path / "cache"), str(source)],
        cwd=ROOT, capture_output=True, text=True)
    revealed = {int(line): kind for line, kind in re.findall(r"bot\.py:(\d+): note: Revealed type is \"(.+?)\"",
                                                            run.stdout)}
    assert revealed.keys() == EXPECTED.keys(), run.stdout + run.stderr
    for line, pattern in EXPECTED.items():
        assert re.fullmatch(pattern, revealed[line]), (line, revealed[line])
    errors = re.findall(r"bot\.py:(\d+): error: (.+)", run.stdout)
    assert errors == [("21", 'Unexpected keyword argument "max_states" for "solve"  [call-arg]')], run.stdout
