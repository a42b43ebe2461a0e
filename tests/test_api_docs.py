"""The public API (pyramide_cli/__init__.py): every example of docs/api.md runs, and __all__ is honest."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import pyramide_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples() -> None:
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("number", range(len(EXAMPLES)))
def test_every_example_of_docs_api_runs(number: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(EXAMPLES[number], f"docs/api.md example {number + 1}", "exec"), {"__name__": "example"})


def test_the_bot_example_of_docs_bots_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    (example,) = [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "play_game" in block]
    exec(compile(textwrap.dedent(example), "docs/bots.md example", "exec"), {"__name__": "example"})
    assert re.fullmatch(r"\d+ of 20 won\n", capsys.readouterr().out)


def test_every_public_name_resolves_and_nothing_else_is_promised() -> None:
    for name in pyramide_cli.__all__:
        assert getattr(pyramide_cli, name) is not None, name
    assert len(set(pyramide_cli.__all__)) == len(pyramide_cli.__all__)
    assert set(pyramide_cli.__all__) - {"__version__"} == set(pyramide_cli._WHERE) | {
        "API_VERSION", "ENGINE_PROTOCOL_VERSION", "JSON_SCHEMA_VERSION", "SAVE_FORMAT_VERSION",
        "SERVE_PROTOCOL_VERSION"}
    with pytest.raises(AttributeError, match="no attribute 'Board'"):
        pyramide_cli.Board  # noqa: B018
    assert "Game" in dir(pyramide_cli)


def test_importing_the_package_loads_nothing_heavy() -> None:
    code = ("import sys, pyramide_cli; print(sorted(m for m in sys.modules if m.startswith(('pyramide_cli', 'yaml', "
            "'typer'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['pyramide_cli', 'pyramide_cli.versions']"
