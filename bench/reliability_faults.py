"""The inputs and faults of issue 26 that `make reliability` reruns (``bench/reliability.py`` prints them).

Each case runs once as a real process and is judged as the hostile inputs are: the documented exit
status, stderr exactly one escaped ``pyramide:`` line (or, with ``--json``, stdout one JSON document),
and whatever was at the file names unchanged — except where the case says what must change (a move
played before the output failed stays saved; a rewritten save keeps its comments).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
PYRAMIDE = [sys.executable, "-m", "pyramide_cli"]
WITHOUT_FCNTL = [sys.executable, str(ROOT / "tests" / "without_fcntl.py")]
"""``pyramide`` as on a system without ``fcntl`` (Windows): the save lock is ``msvcrt``'s."""
CODE = "PY1-N-AAAAAAS"
MAX_FILE_BYTES = 2 * 1024 * 1024


class Run(NamedTuple):
    status: int | None
    stdout: bytes
    stderr: str


def nothing(folder: Path) -> None:
    pass


class Case(NamedTuple):
    name: str
    prepare: Callable[[Path], None]
    """Makes the files the command meets (a save, a database); the command must leave them as they are…"""
    run: Callable[[Path], Run]
    expected: int
    json: bool = False
    check: Callable[[Path], bool] | None = None
    """…unless this says what must hold afterwards instead."""


def environment(folder: Path, **extra: str) -> dict[str, str]:
    values = {**os.environ, "NO_COLOR": "1", "PYRAMIDE_HOME": str(folder / "home"), **extra}
    values.pop("PYRAMIDE_DEBUG", None)
    return values


def pyramide(*args: str, stdin: bytes | None = None, stdout: Path | None | int = subprocess.PIPE,
             closed: bool = False, env: dict[str, str] | None = None,
             command: list[str] = PYRAMIDE) -> Callable[[Path], Run]:
    """The command as a process in the case's folder (``stdout``: a pipe, a file such as /dev/full, or
    ``None`` with ``closed``: no stdout at all)."""
    def run(folder: Path) -> Run:
        target = open(stdout, "w") if isinstance(stdout, Path) else stdout  # noqa: SIM115 - closed below
        try:
            done = subprocess.run([*command, *args], cwd=folder, input=stdin, stdout=target, stderr=subprocess.PIPE,
                                  env=environment(folder, **(env or {})), timeout=60,
                                  preexec_fn=(lambda: os.close(1)) if closed else None)
        except subprocess.TimeoutExpired:
            return Run(None, b"", "timeout")
        finally:
            if isinstance(stdout, Path):
                target.close()
        return Run(done.returncode, done.stdout or b"", done.stderr.decode("utf-8", "replace"))
    return run


def save_text(*moves: str) -> str:
    from pyramide_cli.engine.deal import Deal
    from pyramide_cli.engine.game import Game
    from pyramide_cli.engine.moves import Move
    from pyramide_cli.storage.save import SaveData

    return SaveData.from_game(Game.replay(Deal.from_code(CODE), [Move.parse(move) for move in moves]), None).to_text()


def history(folder: Path, name: str = "g.yaml") -> list[str]:
    from pyramide_cli.storage.save import load_game

    return [str(move) for move in load_game(folder / name).data.history]


def stats_db(folder: Path, statement: str, *parameters: object) -> None:
    """A statistics database of one resigned game, then ``statement`` run on it (a damaged row)."""
    (folder / "r.yaml").write_text(save_text())
    subprocess.run([*PYRAMIDE, "play", "r.yaml", "resign", "--quiet", "--db", "stats.db"], cwd=folder,
                   env=environment(folder), capture_output=True, check=True)
    (folder / "r.yaml").unlink()
    with sqlite3.connect(folder / "stats.db") as connection:
        connection.execute(statement, parameters)
    connection.close()


def survey_store(folder: Path, statement: str) -> None:
    subprocess.run([*PYRAMIDE, "survey", "--deals", "0-1", "--max-states", "100", "--store", "s.db"], cwd=folder,
                   env=environment(folder), capture_output=True, check=True)
    with sqlite3.connect(folder / "s.db") as connection:
        connection.execute(statement)
    connection.close()


def with_save(text: str, name: str = "g.yaml") -> Callable[[Path], None]:
    return lambda folder: (folder / name).write_text(text, encoding="utf-8")


def with_file(name: str, text: str) -> Callable[[Path], None]:
    return lambda folder: (folder / name).write_text(text, encoding="utf-8")


def interrupted_session(folder: Path) -> Run:
    """A piped session that has saved a move when Ctrl-C (SIGINT) reaches it."""
    before = (folder / "g.yaml").stat().st_mtime_ns
    child = subprocess.Popen([*PYRAMIDE, "play", "g.yaml", "--quiet"], cwd=folder, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(folder))
    assert child.stdin is not None
    child.stdin.write(b"draw\n")
    child.stdin.flush()
    deadline = time.monotonic() + 30
    while (folder / "g.yaml").stat().st_mtime_ns == before and time.monotonic() < deadline:
        time.sleep(0.005)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    return Run(child.returncode, out, err.decode("utf-8", "replace"))


def cases() -> list[Case]:
    plain = save_text()
    near_limit = "# " + "x" * (MAX_FILE_BYTES - len(plain.encode()) - 4) + "\n" + plain
    strict = {"PYTHONIOENCODING": "utf-8:strict"}
    survey_header = "number,code,verdict,seconds,states,actions,max_pyramid_removed,max_removed\n"
    found = [
        Case("`\\xff` on a strict UTF-8 stdin, piped `play`", with_save(plain),
             pyramide("play", "g.yaml", stdin=b"\xff\n", env=strict), 2),
        Case("the same with `--json`", with_save(plain),
             pyramide("play", "g.yaml", "--json", stdin=b"\xff\n", env=strict), 2, json=True),
        Case("`deal -o README.md --force`, a README with a `pyramide-save:` line",
             with_file("README.md", "# Notes\n\nSome text\npyramide-save: is a key\n"),
             pyramide("deal", CODE, "-o", "README.md", "--force"), 5),
        Case("`survey --csv phones.csv --force`, a CSV whose first column is `number`",
             with_file("phones.csv", "number,phone\n1,555\n"),
             pyramide("survey", "--deals", "0-0", "--max-states", "50", "--csv", "phones.csv", "--force"), 5),
        Case("`tournament --csv survey.csv --force`, a survey's CSV", with_file("survey.csv", survey_header),
             pyramide("tournament", "--bot", "random", "--deals", "0-0", "--csv", "survey.csv", "--force"), 5),
        Case("`play` on a save 1 byte under 2 MiB (a long comment)", with_save(near_limit),
             pyramide("play", "g.yaml", "draw"), 5),
        Case("`hints: 9223372036854775808`, `play … resign`",
             with_save(plain.replace("hints: 0", "hints: 9223372036854775808")),
             pyramide("play", "g.yaml", "resign", "--db", "stats.db"), 4),
        Case("5,002-character `time_played`",
             with_save(plain.replace("time_played: 0.0", "time_played: 1." + "5" * 5000)),
             pyramide("show", "g.yaml"), 4),
        Case("a save starting with a BOM and a blank line, `play … draw` (comments kept)",
             with_save("\ufeff\n# my notes\n" + plain), pyramide("play", "g.yaml", "draw", "--quiet"), 0,
             check=lambda folder: (folder / "g.yaml").read_text().startswith("# my notes\n")),
    ]
    for name, statement, parameters in (
            ("`time_played='abc'`", "UPDATE games SET time_played = 'abc'", ()),
            ("a blob in `rules`", "UPDATE games SET rules = ?", (b"\x00\xff",)),
            ("an infinite `time_played`", "UPDATE games SET time_played = 9e999", ()),
            ("an escape sequence in `deal`", "UPDATE games SET deal = ?", ("PY1\x1b[2J",))):
        def damaged(folder: Path, statement: str = statement, parameters: tuple[object, ...] = parameters) -> None:
            stats_db(folder, statement, *parameters)

        found.append(Case(f"`stats` on {name}", damaged, pyramide("stats", "--db", "stats.db"), 4))
        found.append(Case(f"`stats --csv` on {name}", damaged,
                          pyramide("stats", "--db", "stats.db", "--csv", "games.csv"), 4))
    found += [
        Case("`survey --report` on `positions='lots'`",
             lambda folder: survey_store(folder, "UPDATE deals SET positions = 'lots'"),
             pyramide("survey", "--report", "s.db"), 4),
        Case("`survey --report` on a store whose rules are `X`",
             lambda folder: survey_store(folder, "UPDATE store_info SET value = 'X' WHERE key = 'rules'"),
             pyramide("survey", "--report", "s.db"), 4),
        Case("Ctrl-C in a piped `play` session (the move stays saved)", with_save(plain), interrupted_session, 130,
             check=lambda folder: history(folder) == ["draw"]),
        Case("`survey --jobs 99999 --deals 0-3`", nothing, pyramide("survey", "--jobs", "99999", "--deals", "0-3"), 2),
        Case("`tournament --engine \"\"`", nothing, pyramide("tournament", "--engine", "", "--deals", "0-0"), 5),
        Case("`tournament --engine \"'abc\"` (unbalanced quote)", nothing,
             pyramide("tournament", "--engine", "'abc", "--deals", "0-0"), 5),
        Case("deal code `PY1-N-AAAAAAſ` (long s)", nothing, pyramide("show", "PY1-N-AAAAAA\u017f"), 4),
        Case("deal code `PY1-N-AAAAAAı` (dotless i)", nothing, pyramide("show", "PY1-N-AAAAAA\u0131"), 4),
        Case("`deal --rules T+recycles=３`", nothing,
             pyramide("deal", "--rules", "T+recycles=\uff13", "-o", "n.yaml"), 2),
        Case("`survey --deals ٠-١`", nothing, pyramide("survey", "--deals", "\u0660-\u0661", "--max-states", "10"), 2),
        Case("`show g.yaml >&-` (stdout closed)", with_save(plain),
             pyramide("show", "g.yaml", stdout=None, closed=True), 5),
    ]
    full = Path("/dev/full")
    if full.exists():
        for args in (("show", "g.yaml"), ("--help",), ("replay", "g.yaml"), ("show", "g.yaml", "--json")):
            found.append(Case(f"`{' '.join(args)} > /dev/full`", with_save(plain), pyramide(*args, stdout=full), 5))
        found.append(Case("`play g.yaml draw > /dev/full` (the move stays saved)", with_save(plain),
                          pyramide("play", "g.yaml", "draw", stdout=full), 5,
                          check=lambda folder: history(folder) == ["draw"]))
    found += [
        Case("`deal` where `fcntl` does not exist (msvcrt's lock)", nothing,
             pyramide("deal", CODE, "-o", "w.yaml", "--quiet", command=WITHOUT_FCNTL), 0,
             check=lambda folder: history(folder, "w.yaml") == []),
        Case("`play` where `fcntl` does not exist (msvcrt's lock)", with_save(plain),
             pyramide("play", "g.yaml", "draw", "--quiet", command=WITHOUT_FCNTL), 0,
             check=lambda folder: history(folder) == ["draw"]),
    ]
    return found


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())
            if path.is_file() and not path.name.endswith((".lock", ".queue", "-wal", "-shm"))}


def faults(folder: Path) -> list[dict[str, object]]:
    """Each case once: its exit status, one escaped line (or one JSON document; nothing for a success),
    and the files unchanged (or its own check)."""
    results = []
    for case in cases():
        case_folder = Path(tempfile.mkdtemp(dir=folder))
        case.prepare(case_folder)
        before = snapshot(case_folder)
        start = time.monotonic()
        status, stdout, stderr = case.run(case_folder)
        seconds = time.monotonic() - start
        if case.json:
            try:
                json.loads(stdout)
                one_line = stderr == "" and stdout.count(b"\n") == 1
            except ValueError:
                one_line = False
        elif case.expected == 0:
            one_line = stderr == ""
        else:
            one_line = stderr.startswith("pyramide: ") and stderr.count("\n") == 1 and not any(
                ord(char) < 32 and char != "\n" or 0x7f <= ord(char) < 0xa0 for char in stderr)
        unchanged = _holds(case.check, case_folder) if case.check is not None else snapshot(case_folder) == before
        results.append({"input": case.name, "status": status, "expected": case.expected, "one_line": one_line,
                        "unchanged": unchanged, "seconds": round(seconds, 2),
                        "message": (stderr or stdout.decode("utf-8", "replace")).strip()[:150]})
    return results


def _holds(check: Callable[[Path], bool], folder: Path) -> bool:
    try:
        return check(folder)
    except Exception:  # noqa: BLE001 - a file that is not there, or not a save, fails the check
        return False
