"""The package's layers (docs/engine.md): every import points down, and no two modules import each other.

Read from the source with :mod:`ast`, imports inside functions included, so a lazy import cannot
hide a dependency that points the wrong way.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pyramide_cli"

BASE = "versions"
"""``pyramide_cli.versions``: the contracts' version numbers, constants only, importable from every layer."""
ALLOWED = {
    "versions": set(),
    "engine": {"engine"},
    "solver": {"engine", "solver"},
    "storage": {"engine", "storage"},
    "i18n": {"engine", "i18n"},
    "analysis": {"engine", "solver", "storage", "analysis"},
    "bots": {"engine", "solver", "storage", "analysis", "bots", "i18n"},
    "board": {"engine", "solver", "storage", "analysis", "i18n", "board"},
    "cli": {"engine", "solver", "storage", "analysis", "bots", "i18n", "board", "cli", "(top)"},
    "gym": {"engine", "solver", "storage", "analysis", "bots", "i18n", "cli", "gym"},
}
"""What each folder may import.  The top of the package (the public API) and ``__main__`` may import anything.
No folder imports ``gym`` (the Gymnasium environment, an optional extra): nothing on a command's path loads it."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, text: str | None = None) -> Iterator[str]:
    """The ``pyramide_cli`` modules ``path`` imports (relative imports resolved), anywhere in the file
    except under ``if TYPE_CHECKING:`` (those never run)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8") if text is None else text)
    for block in ast.walk(tree):
        if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING":
            block.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.split(".")[0] == "pyramide_cli")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "pyramide_cli":
                target = node.module
            else:
                continue
            for alias in node.names:  # ``from . import deal_commands`` names a module
                candidate = f"{target}.{alias.name}"
                yield candidate if module_path(candidate) is not None else target


def module_path(name: str) -> Path | None:
    base = PACKAGE.parent.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def layer(name: str) -> str:
    parts = name.split(".")
    if parts[1:] == [BASE]:
        return BASE
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else "(top)"


def graph() -> dict[str, set[str]]:
    return {module_name(path): set(imports(path)) for path in PACKAGE.rglob("*.py")}


def test_every_import_points_down_the_layers() -> None:
    wrong = sorted(
        f"{source} imports {target}"
        for source, targets in graph().items() if layer(source) in ALLOWED
        for target in targets if layer(target) not in ALLOWED[layer(source)] | {BASE}
    )
    assert wrong == []


def test_the_engine_imports_nothing_but_the_standard_library_and_itself() -> None:
    for path in (PACKAGE / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom) and not getattr(node, "level", 0):
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(name.split(".")[0] in ("pyramide_cli", "typer", "yaml", "click", "rich")
                               for name in names), (path.name, names)


def test_no_two_modules_depend_on_each_other() -> None:
    edges = graph()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            current = todo.pop()
            if current == goal:
                return True
            if current not in seen:
                seen.add(current)
                todo.extend(edges.get(current, ()))
        return False

    cycles = sorted(f"{source} <-> {target}" for source, targets in edges.items() for target in targets
                    if target != source and target in edges and source < target and reaches(target, source))
    assert cycles == []


def test_the_checker_sees_an_upward_import() -> None:
    """The checks above can fail: an engine module importing the CLI, even lazily, is caught."""
    text = "from . import cards\n\ndef f():\n    from ..cli.render import Style\n"
    found = set(imports(PACKAGE / "engine" / "position.py", text))
    assert found == {"pyramide_cli.engine.cards", "pyramide_cli.cli.render"}
    assert layer("pyramide_cli.cli.render") not in ALLOWED["engine"]
