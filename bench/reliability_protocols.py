"""The hostile-engine and hostile-request campaigns of docs/reliability.md ("The line protocols"),
run by ``make reliability`` (``bench/reliability.py``) or alone:

    python bench/reliability_protocols.py [--repeats 3] [--fuzz-examples 300]

Every figure is a count of outcomes: tournaments that ended with the documented failures and no
process left behind; request lines answered with one standard JSON line while the session went on.
The wall-clock seconds printed beside them say how long a hostile engine held a tournament (its
time limit), not how fast anything is.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYRAMIDE = [sys.executable, "-m", "pyramide_cli"]
sys.path.insert(0, str(ROOT / "tests"))

from process_support import running  # noqa: E402 - the tests' own check of a process left behind
ENV = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8:strict"}
ENV.pop("PYRAMIDE_DEBUG", None)
FAULTY = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'faulty_engine.py'}"
SCRIPTED = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'scripted_engine.py'}"


def left_behind(pids: Path) -> int:
    """Processes of the pid file still running 2 s after the tournament returned (a kill is asynchronous)."""
    numbers = [int(line) for line in pids.read_text().split()] if pids.exists() else []
    deadline = time.monotonic() + 2
    while any(running(pid) for pid in numbers) and time.monotonic() < deadline:
        time.sleep(0.02)
    alive = [pid for pid in numbers if running(pid)]
    for pid in alive:  # the campaign leaves nothing behind either
        os.kill(pid, 9)
    return len(alive)


def shell_engine(folder: Path, name: str, body: str) -> str:
    path = folder / f"{name}.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return str(path)


def scripted(folder: Path, name: str, answers: list[list[object]], handshake: bytes = b"id name s\nready\n") -> str:
    script = folder / f"{name}.json"
    script.write_text(json.dumps({"handshake": [handshake.hex()], "answers": answers}))
    return f"{SCRIPTED} {script} {folder / 'pids'}"


def engine_cases(folder: Path) -> list[tuple[str, str, list[str], set[str]]]:
    """(what, command, tournament options, the failure reasons allowed)."""
    pids = folder / "pids"
    spam = shell_engine(folder, "spam", f'echo $$ >> {pids}; echo "id name s"; echo ready; exec yes "move draw"\n')
    forker = shell_engine(folder, "forker", f'read hello; echo "id name f"; echo ready\nwhile read line; do\n'
                          f'  case "$line" in position*) sleep 300 & echo $! >> {pids}; exit 0;; esac\ndone\n')
    starter = shell_engine(folder, "starter", f'sleep 300 & echo $! >> {pids}\nexec {sys.executable} '
                           f'{ROOT / "examples" / "engine.py"}\n')
    return [
        ("never reads its input, writes `move draw` without end (`yes`), deals 0-30", spam,
         ["--deals", "0-30", "--move-time", "2"], {"illegal", "timeout"}),
        ("forks a `sleep` and exits while its move is awaited, deals 0-3", forker, ["--deals", "0-3"], {"crashed"}),
        ("starts a helper at start-up, then plays well, deals 0-3", starter, ["--deals", "0-3"], set()),
        ("the same with `--jobs 2`", starter, ["--deals", "0-3", "--jobs", "2"], set()),
        ("never reads again, writes moves without end, `--jobs 2`", f"{FAULTY} flood",
         ["--deals", "0-3", "--jobs", "2"], {"timeout"}),
        ("never answers one position, deals 0-3", f"{FAULTY} hang=AAAAAAB helper pids={pids}", ["--deals", "0-3"],
         {"timeout"}),
        ("a 2 MiB line", scripted(folder, "long", [["line", ("x" * (2 << 20) + "\n").encode().hex()]]),
         ["--deals", "0-1"], {"malformed"}),
        ("bytes that are not UTF-8", scripted(folder, "bytes", [["line", b"move \xff\xfe\n".hex()]]),
         ["--deals", "0-1"], {"malformed"}),
        ("closes its output and keeps reading", scripted(folder, "close", [["close"]]), ["--deals", "0-1"],
         {"crashed"}),
        ("an orphan keeps the pipe, the engine exits", scripted(folder, "orphan", [["orphan"]]), ["--deals", "0-1"],
         {"crashed"}),
        ("control characters and 100,000 characters in `id name`/`id version`", f"{FAULTY} evil-name",
         ["--deals", "0-1"], set()),
    ]


def hostile_engines(folder: Path, repeats: int) -> list[dict[str, object]]:
    rows = []
    for what, command, options, reasons in engine_cases(folder):
        for _ in range(repeats):
            (folder / "pids").unlink(missing_ok=True)
            start = time.monotonic()
            try:
                done = subprocess.run([*PYRAMIDE, "tournament", "--engine", command, "--rules", "T", "--move-time",
                                       "1", *options, "--json"], capture_output=True, text=True, env=ENV, timeout=300)
                status, document = done.returncode, json.loads(done.stdout) if done.returncode == 0 else {}
            except subprocess.TimeoutExpired:
                status, document = None, {}
            seconds = time.monotonic() - start
            failures = document.get("summary", {}).get("failures", {}) if document else {}
            report = subprocess.run([*PYRAMIDE, "tournament", "--engine", command, "--rules", "T", "--deals", "0-0"],
                                    capture_output=True, text=True, env=ENV, timeout=300).stdout \
                if "id name" in what else ""
            raw = any(ord(char) < 32 and char != "\n" or 0x7f <= ord(char) < 0xa0 or char == "\u202e"
                      for char in report)
            left = left_behind(folder / "pids")
            rows.append({"engine": what, "status": status, "failures": failures, "seconds": round(seconds, 1),
                         "left": left, "good": status == 0 and set(failures) <= reasons and left == 0 and not raw})
    return rows


REQUESTS = [
    ("`[` x 100,000", b"[" * 100_000),
    ("lone surrogate in `id`", b'{"op": "x", "id": "\\ud800"}'), ("lone surrogate in `op`", b'{"op": "\\ud800"}'),
    ("lone surrogate in `file`", b'{"op": "new", "file": "\\ud800"}'),
    ("NUL in `file` (`new`)", b'{"op": "new", "file": "a\\u0000b"}'),
    ("NUL in `file` (`save`)", b'{"op": "save", "file": "a\\u0000b"}'),
    ("one `\\xff` byte", b"\xff"), ("`\\xff` inside `op`", b'{"op": "x\xff"}'),
    ("`\"id\": NaN`", b'{"op": "legal", "id": NaN}'), ("`\"id\": Infinity`", b'{"op": "legal", "id": Infinity}'),
    ("`\"id\": 1e999`", b'{"op": "legal", "id": 1e999}'), ("`op` twice", b'{"op": "legal", "op": "quit"}'),
    ("`save` to `sub/`", b'{"op": "save", "file": "sub/"}'), ("`save` to a folder", b'{"op": "save", "file": "dir"}'),
    ("a 5 MB line", b'{"op": "play", "input": "' + b"draw " * 1_000_000 + b'"}'),
]


def hostile_requests(folder: Path) -> dict[str, object]:
    """Each line of :data:`REQUESTS` in one session, each followed by `legal`: how many were answered with
    one standard JSON line (an error), how many times the session still answered, what was written."""
    work = Path(tempfile.mkdtemp(dir=folder))
    (work / "dir").mkdir()
    lines = [b'{"op": "hello", "protocol": 1}', b'{"op": "new", "code": "PY1-T-AAAAAAB"}']
    for _, line in REQUESTS:
        lines += [line, b'{"op": "legal", "id": "alive"}']
    done = subprocess.run([*PYRAMIDE, "serve"], input=b"\n".join(lines) + b"\n", cwd=work, capture_output=True,
                          env=ENV, timeout=120)
    responses = []
    for raw in done.stdout.splitlines():
        try:
            responses.append(json.loads(raw.decode("utf-8"), parse_constant=lambda name: {}["NaN"]))
        except (ValueError, KeyError):
            responses.append(None)
    refused = sum(1 for response in responses[2::2] if response is not None and response["ok"] is False)
    alive = sum(1 for response in responses[3::2] if response is not None and response.get("id") == "alive"
                and response["ok"])
    return {"lines": len(REQUESTS), "refused": refused, "alive": alive, "status": done.returncode,
            "stderr": done.stderr.decode("utf-8", "replace")[-200:], "written": sorted(
                path.name for path in work.iterdir() if path.name != "dir")}


def fuzz(examples: int) -> str:
    env = {**ENV, "PYRAMIDE_FUZZ_EXAMPLES": str(examples), "PYRAMIDE_FUZZ_SECONDS": "3000"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_fuzz_protocols.py"],
                          cwd=ROOT, capture_output=True, text=True, env=env)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]


def report(folder: Path, repeats: int, fuzz_examples: int) -> None:
    rows = hostile_engines(folder, repeats)
    print(f"hostile engines: {sum(bool(row['good']) for row in rows)}/{len(rows)} tournaments ended with the "
          f"documented failures and no process left ({sum(int(row['left']) for row in rows)} left in all)")
    print("| engine | exit | failures | seconds | left |\n|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['engine']} | {row['status']} | {row['failures']} | {row['seconds']} | {row['left']} |")
    requests = hostile_requests(folder)
    print(f"hostile requests: {requests['refused']}/{requests['lines']} answered with an error line, the session "
          f"answered after {requests['alive']}/{requests['lines']}; exit {requests['status']}; files written: "
          f"{requests['written'] or 'none'} {requests['stderr']}")
    if fuzz_examples:
        print(f"protocol fuzz ({fuzz_examples} random examples x 2 tests): {fuzz(fuzz_examples)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--fuzz-examples", type=int, default=300)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        report(Path(name), options.repeats, options.fuzz_examples)


if __name__ == "__main__":
    main()
