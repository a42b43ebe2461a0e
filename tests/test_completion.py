"""Shell completion (issue 14.6): scripts for bash, zsh and fish, and what Tab offers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import WON_N_CODE, WON_N_LINE, app, make_save
from typer.testing import CliRunner

from pyramide_cli.cli.completion import complete_expect, complete_level, complete_rules

NO_DETECTION_PAIR = ("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
NO_DETECTION = dict([NO_DETECTION_PAIR])
"""Typer's switch that makes --show-completion and --install-completion take the shell's name."""


def offered(words: str, shell: str = "bash") -> list[str]:
    """What the shell gets for the command line ``words`` (the last word is being typed)."""
    if shell == "bash":
        parts = words.split(" ")
        env = {"_PYRAMIDE_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)}
    else:
        env = {"_PYRAMIDE_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": words,
               "_TYPER_COMPLETE_FISH_ACTION": "get-args"}
    result = CliRunner().invoke(app, [], env=env, prog_name="pyramide")
    assert result.exit_code == 0 and result.stderr == "", result.output
    return [line for line in result.stdout.splitlines() if line]


def values(choices: list[tuple[str, str]]) -> list[str]:
    return [value for value, _ in choices]


def test_rules_complete_presets_then_variants() -> None:
    assert values(complete_rules("")) == ["N", "T", "E", "O"]
    assert values(complete_rules("t+s")) == ["t+strict", "t+stock-top"]
    assert values(complete_rules("T+strict+")) == ["T+strict+recycles=0", "T+strict+recycles=1", "T+strict+recycles=2",
                                                   "T+strict+recycles=3", "T+strict+waste-pair", "T+strict+cover-pair",
                                                   "T+strict+stock-top", "T+strict+draw-3"]
    assert values(complete_level("h")) == ["hard"]
    assert values(complete_level("")) == ["easy", "medium", "hard", "expert"]
    assert "dead" in values(complete_expect("")) and values(complete_expect("re")) == ["resigned"]


def test_commands_and_options_complete() -> None:
    assert offered("pyramide s") == ["serve", "show", "solve", "survey", "stats"]
    assert set(offered("pyramide deal --d")) == {"--daily", "--date"}
    assert offered("pyramide stats --rules T+w") == ["T+waste-pair"]
    assert offered("pyramide deal --level e") == ["easy", "expert"]
    assert offered("pyramide replay g.yaml --expect d") == ["dead"]


def test_play_completes_the_cards_and_moves_of_the_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_save(tmp_path, "PY1-N-AAAAAAS")  # row 7: 5D KC 2S JH 3D 10H AS; waste 10C
    choices = offered("pyramide play g.yaml ")
    assert choices[:8] == ["5D", "KC", "2S", "JH", "3D", "10H", "AS", "10C"]
    assert {"10H+3D", "JH+2S", "10C+3D", "stock", "draw", "resign"} <= set(choices) and "QC" not in choices
    assert offered("pyramide play g.yaml k") == ["kc"]
    assert offered("pyramide play g.yaml KC 10H 3") == ["3D"]  # the words already typed are played first
    assert "KC" not in offered("pyramide play g.yaml KC ")


def test_zsh_and_fish_get_the_same_choices_with_their_help(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_save(tmp_path, "PY1-N-AAAAAAS")
    zsh = "\n".join(offered("pyramide play g.yaml K", "zsh"))
    assert zsh.startswith("_arguments '*: :((") and '"KC":"king\\\\: removed at once"' in zsh
    assert offered("pyramide play g.yaml K", "fish") == ["KC\tking: removed at once"]


def test_a_description_longer_than_the_terminal_stays_on_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramide_cli.cli.app import SUMMARIES
    from pyramide_cli.cli.completion import prepare

    assert len(SUMMARIES["grade"]) > 80
    monkeypatch.setenv("COLUMNS", "80")  # restored after the test; prepare() sets it as pyramide does
    prepare()
    assert offered("pyramide g", "fish") == [f"grade\t{SUMMARIES['grade']}"]
    zsh = offered("pyramide g", "zsh")
    assert len(zsh) == 1 and SUMMARIES["grade"].replace(":", "\\\\:") in zsh[0]


def test_nothing_to_offer_leaves_file_names_to_the_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    (tmp_path / "bad.yaml").write_text("not: a save\n")
    assert offered("pyramide play g.yaml ") == []  # the game is over
    assert offered("pyramide play bad.yaml ") == [] and offered("pyramide play missing.yaml ") == []
    assert offered("pyramide play ") == []
    assert offered("pyramide play ", "zsh") == ["_files"]


@pytest.mark.parametrize(("shell", "line"), [
    ("bash", "complete -o default -F _pyramide_completion pyramide"),
    ("zsh", "compdef _pyramide_completion pyramide"),
    ("fish", "complete --command pyramide --no-files"),
])
def test_show_completion_prints_each_shells_script(shell: str, line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(*NO_DETECTION_PAIR)  # read when the command is built, before CliRunner sets its env
    result = CliRunner().invoke(app, ["--show-completion", shell], prog_name="pyramide")
    assert result.exit_code == 0 and line in result.stdout and "_PYRAMIDE_COMPLETE=complete_" in result.stdout


@pytest.mark.parametrize(("shell", "script", "rc"), [
    ("bash", ".bash_completions/pyramide.sh", ".bashrc"),
    ("zsh", ".zfunc/_pyramide", ".zshrc"),
    ("fish", ".config/fish/completions/pyramide.fish", None),
])
def test_install_completion_writes_the_script_where_the_shell_reads_it(
        tmp_path: Path, shell: str, script: str, rc: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(*NO_DETECTION_PAIR)
    monkeypatch.setenv("HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["--install-completion", shell], prog_name="pyramide")
    assert result.exit_code == 0 and f"{shell} completion installed in" in result.stdout
    assert "_PYRAMIDE_COMPLETE" in (tmp_path / script).read_text()
    if rc is not None:
        assert "pyramide" in (tmp_path / rc).read_text() or ".zfunc" in (tmp_path / rc).read_text()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completes_through_the_installed_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scripts = Path(sys.executable).parent
    if not (scripts / "pyramide").exists():
        pytest.skip("the pyramide script is not installed beside this Python")
    make_save(tmp_path, "PY1-N-AAAAAAS")
    monkeypatch.setenv(*NO_DETECTION_PAIR)
    script = CliRunner().invoke(app, ["--show-completion", "bash"], prog_name="pyramide").stdout
    probe = (script + "\nCOMP_WORDS=(pyramide play g.yaml 10); COMP_CWORD=3; _pyramide_completion pyramide\n"
             "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    completed = subprocess.run(["bash", "--norc", "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                               env={**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}"},
                               timeout=60)
    assert completed.stdout.split() == ["10H", "10C", "10H+3D", "10C+3D"], completed.stderr
