"""The pytest plugin (entry point ``pytest11``): ``pytest --pyramide-saves DIR`` collects saves as tests.

Each test runs pytest as a separate process in a temporary folder, as a CI job would, and reads
the outcome of every item from pytest's own ``--junitxml`` report.  Hypothesis's plugin is turned
off in those runs only to keep them fast.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

from cli_support import EXAMPLES, WON_N_CODE, WON_N_LINE, save_text

EXAMPLE_SAVES = sorted(path.name for path in EXAMPLES.glob("*.yaml") if "pyramide-layout:" not in path.read_text())


def run_pytest(folder: Path, *args: str) -> tuple[int, str, dict[str, str | None]]:
    """pytest in ``folder``: its exit status, its output, and each item's id → failure message (``None``: passed)."""
    report = folder / "pytest-report.xml"
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    process = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:randomly",
         f"--junitxml={report}", *args], cwd=folder, env=environment, capture_output=True, text=True, timeout=120)
    items: dict[str, str | None] = {}
    if report.exists():
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            failure = case.find("failure")
            items[f"{case.get('classname')}::{case.get('name')}"] = None if failure is None else failure.get("message")
    return process.returncode, process.stdout + process.stderr, items


def test_the_plugin_collects_and_passes_every_example(tmp_path: Path) -> None:
    status, output, items = run_pytest(tmp_path, "--pyramide-saves", str(EXAMPLES))
    assert status == 0, output
    assert len(items) == len(EXAMPLE_SAVES) and set(items.values()) == {None}, items
    assert all(name.endswith(".replay") or name.endswith("::replay") for name in items)


def test_a_tampered_save_fails_with_its_divergence_under_xdist(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    (saves / "deep").mkdir(parents=True)
    for name in EXAMPLE_SAVES:
        shutil.copy(EXAMPLES / name, saves / name)
    (saves / "deep" / "tampered.yaml").write_text(
        save_text(WON_N_CODE, *WON_N_LINE).replace("score: 280", "score: 290"))
    status, output, items = run_pytest(tmp_path, "-n", "2", "--pyramide-saves", "saves")
    assert status == 1, output
    assert "[gw0]" in output or "[gw1]" in output or "2 workers" in output  # xdist ran it
    failed = {name: message for name, message in items.items() if message is not None}
    assert len(items) == len(EXAMPLE_SAVES) + 1 and len(failed) == 1, items
    [(name, message)] = failed.items()
    assert "tampered" in name and "score: the file says 290 but its history gives 280" in output
    assert "the replay does not agree with the save" in message


def test_without_the_option_the_plugin_collects_nothing(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "won-n.yaml", tmp_path)
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n")
    status, output, items = run_pytest(tmp_path, "-q")
    assert status == 0 and list(items) == ["test_one::test_one"], output


def test_loading_the_plugin_imports_nothing_of_the_engine_or_storage() -> None:
    """pytest loads the plugin in every run of an environment with pyramide: it must cost nothing."""
    code = ("import sys, pytest; before = set(sys.modules); import pyramide_cli.pytest_plugin; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert set(loaded) <= {"pyramide_cli", "pyramide_cli.versions", "pyramide_cli.pytest_plugin"}, loaded
