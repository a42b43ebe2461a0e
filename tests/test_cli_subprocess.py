"""The real thing: `python -m pyramide_cli` as a process, for every command and every exit status,
two processes playing one save at once, a session on a pseudo-terminal, and what the play path imports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pyramide_cli.cli import COMMANDS as COMMAND_MODULE_OF
from pyramide_cli.storage.files import SaveLock
from pyramide_cli.storage.save import load_game

from cli_support import (
    EXAMPLES, WON_N_CODE, WON_N_LINE, Terminal, invoke, make_save, run, save_text, typer_imports_pydantic,
    unwritable_folder,
)

CODE = "PY1-N-AAAAAAS"


def test_deal_show_play_replay_succeed_with_status_0(tmp_path: Path) -> None:
    dealt = run("deal", CODE, "-o", "g.yaml", "--ascii", cwd=tmp_path)
    assert dealt.status == 0 and dealt.stdout.startswith(f"{CODE}  (rules N) saved to g.yaml"), dealt
    shown = run("show", "g.yaml", "--json", cwd=tmp_path)
    assert shown.status == 0 and shown.json()["deal"] == CODE
    played = run("play", "g.yaml", "KC", "10H", "3D", "--quiet", cwd=tmp_path)
    assert played.status == 0 and played.stdout == "" and played.stderr == ""
    replayed = run("replay", "g.yaml", "--expect", "playing", "--expect-score", "30", cwd=tmp_path)
    assert replayed.status == 0 and "agrees with the file" in replayed.stdout
    assert run("--help", cwd=tmp_path).status == 0


def test_status_1_when_a_check_fails(tmp_path: Path) -> None:
    make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    outcome = run("replay", "g.yaml", "--expect", "lost", cwd=tmp_path)
    assert outcome.status == 1 and outcome.stderr == "pyramide: g.yaml: expected status lost, replay gives won\n"


@pytest.mark.parametrize("args", [
    ["play", "g.yaml", "1Z"], ["play"], ["deal", "--rules", "Q"], ["show", "g.yaml", "--bogus"],
])
def test_status_2_for_usage_errors(tmp_path: Path, args: list[str]) -> None:
    make_save(tmp_path, CODE)
    outcome = run(*args, cwd=tmp_path)
    assert outcome.status == 2, outcome
    assert "Traceback" not in outcome.stderr


def test_status_3_for_a_refused_tap_and_the_file_keeps_every_byte(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC")
    before = path.read_bytes()
    outcome = run("play", "g.yaml", "QD", cwd=tmp_path)
    assert outcome.status == 3 and outcome.stderr == "pyramide: QD: This card is blocked by another card\n"
    assert path.read_bytes() == before


@pytest.mark.parametrize("content, words", [
    ("pyramide-save: 1\ndeal: [PY1\n", "not valid YAML"),
    (save_text(CODE, "KC", "draw")[:-12], "history"),  # truncated in the middle of the history
    (save_text(CODE).replace("score: 0", "score: zero"), "score: expected a whole number"),
    (save_text(CODE).replace("pyramide-save: 2", "pyramide-save: 3"), "newer pyramide"),
    (save_text(CODE).replace("deal: PY1-N-AAAAAAS", "deal: PY1-N-AAAAAA8"), "bad character '8'"),
    (save_text(CODE, "KC").replace("history: [KC]", "history: [KC, 7C+7S]"), "action 2 (7S+7C)"),
])
def test_status_4_for_bad_save_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str,
                                     words: str) -> None:
    """In-process (the status and the line are the CLI's own); the test below runs a real process."""
    (tmp_path / "g.yaml").write_text(content)
    monkeypatch.chdir(tmp_path)
    for command in (["play", "g.yaml", "draw"], ["show", "g.yaml"]):
        outcome = invoke(*command)
        assert outcome.status == 4, outcome
        assert words in outcome.stderr and outcome.stderr.count("\n") == 1 and "Traceback" not in outcome.stderr
    assert (tmp_path / "g.yaml").read_text() == content


def test_status_4_for_a_bad_save_file_in_a_real_process(tmp_path: Path) -> None:
    content = save_text(CODE, "KC").replace("history: [KC]", "history: [KC, 7C+7S]")
    (tmp_path / "g.yaml").write_text(content)
    outcome = run("play", "g.yaml", "draw", cwd=tmp_path)
    assert outcome.status == 4, outcome
    assert "action 2 (7S+7C)" in outcome.stderr and outcome.stderr.count("\n") == 1
    assert (tmp_path / "g.yaml").read_text() == content


def test_status_4_for_a_bad_deal_code_and_a_bad_layout(tmp_path: Path) -> None:
    assert run("show", "PY1-N-AAAAA", cwd=tmp_path).status == 4
    (tmp_path / "bad-layout.yaml").write_text("pyramide-layout: 1\nrows: [[JD]]\nwaste: 7D\n")
    outcome = run("deal", "--from-layout", "bad-layout.yaml", cwd=tmp_path)
    assert outcome.status == 4 and "7 rows" in outcome.stderr


def test_status_5_for_a_missing_file_and_an_unwritable_folder(tmp_path: Path) -> None:
    missing = run("play", "nowhere.yaml", "draw", cwd=tmp_path)
    assert missing.status == 5 and "no such file" in missing.stderr
    with unwritable_folder(tmp_path / "locked") as folder:
        outcome = run("deal", CODE, "-o", str(folder / "g.yaml"), cwd=tmp_path)
        assert outcome.status == 5, outcome
        assert "cannot" in outcome.stderr and "Traceback" not in outcome.stderr
        assert list(folder.iterdir()) == []


def test_status_5_when_the_lock_does_not_come_and_nothing_is_played(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    with SaveLock(path):
        outcome = run("play", "g.yaml", "draw", "--json", cwd=tmp_path, env={"PYRAMIDE_LOCK_TIMEOUT": "0.3"})
    assert outcome.status == 5
    assert outcome.json()["error"]["kind"] == "file-error" and "locked by another" in outcome.json()["error"]["message"]
    assert load_game(path).data.moves == 0


@pytest.mark.parametrize("args", [
    ["show", "missing.yaml", "--json"], ["play", "g.yaml", "QD", "--json"], ["play", "g.yaml", "1Z", "--json"],
    ["replay", "g.yaml", "--expect", "won", "--json"], ["deal", "PY1", "--json"], ["play", "--json"],
])
def test_with_json_every_outcome_is_exactly_one_json_document_on_stdout(tmp_path: Path, args: list[str]) -> None:
    make_save(tmp_path, CODE)
    outcome = run(*args, cwd=tmp_path)
    assert outcome.status != 0 and outcome.stderr == ""
    document = json.loads(outcome.stdout)  # a second document would make this fail
    assert document["ok"] is False and document["error"]["exit_status"] == outcome.status


def test_two_processes_playing_the_same_save_lose_no_move(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    failures: list[object] = []

    def player(words: list[str]) -> None:
        for word in words:
            outcome = run("play", "g.yaml", word, "--quiet", cwd=tmp_path)
            if outcome.status != 0:
                failures.append(outcome)

    # one draws (or recycles) 4 times, the other alternates drawing and taking a draw back (bench/reliability.py
    # runs many more processes at once)
    threads = [threading.Thread(target=player, args=(["stock"] * 4,)),
               threading.Thread(target=player, args=(["stock", "undo"] * 2,))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []
    data = load_game(path).data  # also replays the history and checks it against the file
    assert len(data.history) == 8
    assert sum(str(move) == "undo" for move in data.history) == 2
    assert data.moves == 6


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_an_interactive_session_on_a_terminal(tmp_path: Path) -> None:
    make_save(tmp_path, CODE)
    with Terminal("play", "g.yaml", "--ascii", cwd=tmp_path) as terminal:
        terminal.read_until(b"pyramide> ")
        terminal.write(b"KC\n")
        terminal.read_until(b"KC: removed KC (+10)")
        terminal.read_until(b"pyramide> ")
        terminal.write(b"quit\n")
        terminal.read_until(b"Saved to g.yaml")
        assert terminal.process.wait(30) == 0
    assert "Type help for the commands" in terminal.text and "| score 10 |" in terminal.text
    assert [str(move) for move in load_game(tmp_path / "g.yaml").data.history] == ["KC"]


def probe(tmp_path: Path, *arguments: str, report: str) -> tuple[int, str]:
    """``pyramide ARGUMENTS`` as the script runs it (``pyramide_cli.__main__``): its exit status and the
    value of ``report`` (an expression) at exit."""
    script = (
        "import atexit, gc, sys\n"
        f"atexit.register(lambda: sys.stderr.write('\\nREPORT ' + str(({report}))))\n"
        f"sys.argv = ['pyramide', *{list(arguments)!r}]\n"
        "from pyramide_cli.__main__ import main\n"
        "main()\n"
    )
    # Not measured by coverage (make test measures subprocesses): its tracer imports sqlite3 for its data file.
    environment = {name: value for name, value in os.environ.items() if not name.startswith("COVERAGE_")}
    completed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                               env={**environment, "NO_COLOR": "1"}, timeout=60)
    assert "\nREPORT " in completed.stderr, completed.stderr
    return completed.returncode, completed.stderr.rpartition("\nREPORT ")[2]


HEAVY = ("pydantic", "rich", "textual", "pyramide_cli.board",
         "sqlite3", "dask", "distributed", "pyramide_cli.storage.stats", "pyramide_cli.gym", "gymnasium", "numpy")
"""Never loaded by the commands below: pydantic (Typer 0.29 would convert every parameter through it),
rich (progress bars, tracebacks), Textual and the full-screen board, the statistics database, the
cluster, the Gymnasium environment."""
ENGINE_AND_FILES = ("yaml", "pyramide_cli.engine.game", "pyramide_cli.storage", "pyramide_cli.cli.render")
COMMAND_MODULES = tuple(f"pyramide_cli.cli.{module}" for module in set(COMMAND_MODULE_OF.values()))
SEARCH = ("pyramide_cli.solver", "pyramide_cli.analysis", "random")


IMPORT_CASES = [
    (["--help"], (*ENGINE_AND_FILES, *COMMAND_MODULES, *SEARCH)),
    (["--version"], (*ENGINE_AND_FILES, *COMMAND_MODULES, *SEARCH)),
    (["show", "g.yaml"], SEARCH),
    (["play", "g.yaml", "draw"], SEARCH),
    (["replay", "g.yaml", "--expect", "playing"], (*SEARCH, "xml", "pyramide_cli.cli.replay_batch")),
    (["replay", "g.yaml", "g.yaml"], (*SEARCH, "xml")),  # a batch without --junit writes no XML
    (["deal", CODE, "-o", "dealt.yaml"], SEARCH),
    (["hint", "g.yaml"], ("pyramide_cli.analysis.grade", "random")),
    (["solve", CODE, "--max-states", "1"], ("yaml", "pyramide_cli.analysis", "random")),  # a code: no file read
    (["grade", "PY1-N-NOTACODE"], ("yaml",)),
]
"""(arguments, modules the command must not import, beside :data:`HEAVY`)."""


@pytest.mark.parametrize("arguments, unwanted", [
    pytest.param(*case, id=" ".join(case[0]), marks=() if case[0][0].startswith("-") else typer_imports_pydantic)
    for case in IMPORT_CASES])  # help and version process no parameter with a value: no pydantic under any Typer
def test_a_command_imports_nothing_heavy_it_does_not_need(tmp_path: Path, arguments: list[str],
                                                          unwanted: tuple[str, ...]) -> None:
    """What each command's start-up imports (bench/bench_cli.py measures what it costs): no command
    loads Typer's pydantic path, rich or the database; help and version load no command module and
    neither the engine nor YAML; only the solver's commands load the solver; a deal code reads no YAML."""
    make_save(tmp_path, CODE)
    names = (*HEAVY, *unwanted)
    report = f"' '.join(sorted(m for m in sys.modules if any(m == n or m.startswith(n + '.') for n in {names!r})))"
    status, loaded = probe(tmp_path, *arguments, report=report)
    assert status in (0, 4, 7)  # grade: a bad code (4), solve: the position limit (7)
    assert loaded == "", arguments


def test_a_command_runs_with_the_garbage_collector_on_and_its_start_up_frozen(tmp_path: Path) -> None:
    """The script pauses the collector while it imports (pyramide_cli/__main__.py): the command itself
    runs with it on again, and the start-up's objects (the modules, Typer's and ours) are frozen."""
    make_save(tmp_path, CODE)
    status, report = probe(tmp_path, "play", "g.yaml", "draw", "--quiet",
                           report="gc.isenabled(), 'pyramide_cli.engine.game' in sys.modules, gc.get_freeze_count()")
    assert status == 0
    enabled, loaded, frozen = report.strip("()").split(", ")
    assert (enabled, loaded) == ("True", "True") and int(frozen) > 10_000, report
    assert load_game(tmp_path / "g.yaml").data.moves == 1


def test_the_examples_replay_as_make_replay_examples_says(tmp_path: Path) -> None:
    outcome = run("replay", str(EXAMPLES / "won-n.yaml"), "--expect", "won", "--expect-score", "280", cwd=tmp_path)
    assert outcome.status == 0, outcome


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")
def test_make_play_on_a_finished_game_keeps_it_and_deals_a_new_one_at_a_terminal(tmp_path: Path) -> None:
    make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    finished = (tmp_path / "g.yaml").read_bytes()
    home = tmp_path / "home"
    with Terminal("play", "g.yaml", "--new-if-finished", "--ascii", cwd=tmp_path,
                  env={"PYRAMIDE_HOME": str(home)}) as terminal:
        terminal.read_until(b"pyramide> ")
        terminal.write(b"draw\n")
        terminal.read_until(b"pyramide> ", 10)
        terminal.write(b"restart\n")
        terminal.read_until(b"not counted in your statistics. [y/N] ")
        terminal.write(b"y\n")
        terminal.read_until(b"The same deal again")
        terminal.write(b"quit\n")
        terminal.read_until(b"Saved to g.yaml")
        assert terminal.process.wait(30) == 0
    text = terminal.text
    assert "A new deal: PY1-N-" in text and "Type help for the commands" in text
    kept = {path.name.split("-", 3)[3]: path for path in (home / "games").iterdir()}  # without the date
    assert len(kept) == 2 and kept[f"{WON_N_CODE}-won.yaml"].read_bytes() == finished
    assert [name for name in kept if name.endswith("-playing.yaml")]  # the new deal's attempt, kept by restart
    assert load_game(tmp_path / "g.yaml").data.history == ()
    from pyramide_cli.storage.stats import StatsDB

    records = StatsDB(home / "stats.sqlite3").games()
    assert [record.result for record in records] == ["won"]  # the restarted attempt is not counted
