"""`make reliability`: the kill, concurrency and lock-order figures of docs/reliability.md (also through
the lock of a system without ``fcntl``), the hostile inputs tried and issue 26's inputs and faults
(``bench/reliability_faults.py``), rerunnable by anyone (Linux; a few minutes; not part of `make test`).

    python bench/reliability.py [--kills 100] [--sessions 8] [--rounds 10] [--seed 12]

Every figure is a count of outcomes, not a speed: kills survived / total, moves lost / total, lock
waits served in order / total, hostile inputs handled / total.  The kill delays are drawn from a
seeded generator; what a kill interrupts still depends on the machine, so the counts of kills that
landed inside a write vary from run to run (the survival count must not).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyramide_cli.engine.deal import Deal  # noqa: E402
from pyramide_cli.engine.game import Game  # noqa: E402
from pyramide_cli.engine.moves import Move  # noqa: E402
from pyramide_cli.storage.files import STALE_TEMPORARY_AGE  # noqa: E402
from pyramide_cli.storage.save import SaveData, load_game  # noqa: E402

CODE = "PY1-N-AAAAAAS"  # rules N: unlimited recycles, so `stock` is always a legal tap
PYRAMIDE = [sys.executable, "-m", "pyramide_cli"]
WITHOUT_FCNTL = [sys.executable, str(ROOT / "tests" / "without_fcntl.py")]
"""pyramide as on a system without ``fcntl`` (Windows): the save lock is ``msvcrt``'s (a stand-in)."""
ENV = {**os.environ, "NO_COLOR": "1"}
ENV.pop("PYRAMIDE_DEBUG", None)


def fresh_save(path: Path, actions: int = 0) -> None:
    game = Game(Deal.from_code(CODE))
    stock = Move.parse("draw"), Move.parse("recycle")
    while len(game.history) < actions:
        game.apply(stock[0] if game.refusal(stock[0]) is None else stock[1])
    path.write_text(SaveData.from_game(game, None).to_text())


def cli(*args: str, cwd: Path, input: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PYRAMIDE, *args], cwd=cwd, input=input, capture_output=True, text=True, env=ENV,
                          timeout=timeout)


def history_length(path: Path) -> int:
    return len(load_game(path).data.history)


# -- kills -------------------------------------------------------------------------------------------
def kills(folder: Path, total: int, rng: random.Random) -> dict[str, int]:
    """Kill -9 a play session that saves a move per line at a random moment; the save must load and
    agree with itself, and a temporary file left by a kill inside a write must go at the next write."""
    save = folder / "k.yaml"
    lines = folder / "lines.txt"
    lines.write_text("stock\n" * 20_000)
    figures = {"kills": total, "survived": 0, "inside_write": 0, "temporaries_cleaned": 0, "moves_saved": 0}
    for _ in range(total):
        fresh_save(save)
        first = save.stat().st_mtime_ns
        with open(lines) as stdin:
            child = subprocess.Popen([*PYRAMIDE, "play", str(save), "--quiet"], stdin=stdin, env=ENV,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while save.stat().st_mtime_ns == first and time.monotonic() < deadline:  # writing has begun
                time.sleep(0.002)
            time.sleep(rng.uniform(0.0, 0.3))
            child.send_signal(signal.SIGKILL)
            child.wait()
        try:
            figures["moves_saved"] += history_length(save)  # loads, validates and replays it
            figures["survived"] += 1
        except Exception as error:  # noqa: BLE001 - a lost save is what we count
            print(f"  LOST: {error}", file=sys.stderr)
        left = [path for path in folder.iterdir() if path.name.endswith(".tmp")]
        if left:
            figures["inside_write"] += 1
            for path in left:
                past = time.time() - STALE_TEMPORARY_AGE - 1
                os.utime(path, (past, past))
            cli("play", str(save), "stock", "--quiet", cwd=folder)
            if not any(path.exists() for path in left):
                figures["temporaries_cleaned"] += 1
    return figures


# -- concurrent sessions -----------------------------------------------------------------------------
def sessions(folder: Path, count: int, lines: int, actions: int, command: list[str] = PYRAMIDE) -> dict[str, int]:
    """``count`` piped sessions of ``lines`` moves each, all at once on one save of ``actions`` actions:
    every move a session reports saved must be in the file (its JSON lists the steps it saved, also
    when it fails), and with a fair lock none should time out.  ``command`` runs pyramide
    (``WITHOUT_FCNTL``: as on a system without ``fcntl``)."""
    save = folder / f"s{actions}-{len(command)}.yaml"
    fresh_save(save, actions)
    children = [subprocess.Popen([*command, "play", str(save), "--json"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
                for _ in range(count)]
    for child in children:
        assert child.stdin is not None
        child.stdin.write("stock\n" * lines)
        child.stdin.close()
    reported = failed = 0
    for child in children:
        assert child.stdout is not None
        out = child.stdout.read()
        child.wait()
        document = json.loads(out)
        reported += len(document.get("steps", []))
        failed += child.returncode != 0
    saved = history_length(save) - actions
    return {"sessions": count, "failed": failed, "moves_reported": reported, "moves_saved": saved,
            "moves_lost": reported - saved, "lines": count * lines}


# -- lock order ----------------------------------------------------------------------------------------
ARRIVAL_WAIT = 30.0
"""Longest wait for a waiter to be seen blocked before the next one starts (a version that polls
instead of blocking is never seen: it then gets this long a head start)."""
HOLDER = """
import sys
from pyramide_cli.storage.files import SaveLock
with SaveLock(sys.argv[1], timeout=60):
    print("held", flush=True)
    sys.stdin.readline()
"""


def blocked_on(path: Path) -> int:
    """``flock`` calls blocked on the save's lock file (Linux's /proc/locks)."""
    try:
        inode = os.stat(f"{path}.lock").st_ino
        rows = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return -1
    return sum(1 for row in rows if "->" in row.split() and row.split()[-3].endswith(f":{inode}"))


def queued_on(path: Path) -> int:
    """Tickets in the save's queue (a waiter that polls, without ``fcntl``, is seen there)."""
    try:
        return len(Path(f"{path}.queue").read_text().splitlines())
    except OSError:
        return 0


def lock_order(folder: Path, rounds: int, waiters: int, command: list[str] = PYRAMIDE) -> dict[str, int]:
    """A process holds the lock; ``waiters`` play processes arrive one after the other (each seen
    waiting — blocked in ``flock``, or without ``fcntl`` its ticket queued — before the next starts);
    the holder lets go.  Served in order: the move counter each one reports is its arrival rank."""
    save = folder / f"o-{len(command)}.yaml"
    fresh_save(save)
    in_order = total = 0
    windows = command is WITHOUT_FCNTL
    if not windows and blocked_on(save) < 0 and not Path("/proc/locks").exists():
        return {"waits": 0, "in_order": 0}
    holder_script = ("import without_fcntl; without_fcntl.install()\n" if windows else "") + HOLDER
    for _ in range(rounds):
        holder = subprocess.Popen([sys.executable, "-c", holder_script, str(save)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True,
                                  env={**ENV, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])})
        assert holder.stdout is not None and holder.stdin is not None
        holder.stdout.readline()
        base = load_game(save).data.moves
        children = []
        for rank in range(waiters):
            children.append(subprocess.Popen([*command, "play", str(save), "stock", "--json"],
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=ENV))
            deadline = time.monotonic() + ARRIVAL_WAIT
            while (queued_on(save) if windows else blocked_on(save)) < rank + 1 and time.monotonic() < deadline:
                time.sleep(0.005)
        holder.stdin.write("go\n")
        holder.stdin.close()
        holder.wait()
        for rank, child in enumerate(children):
            out, _ = child.communicate(timeout=120)
            total += 1
            in_order += json.loads(out)["state"]["moves"] == base + rank + 1
    return {"waits": total, "in_order": in_order}


# -- hostile inputs ------------------------------------------------------------------------------------
def alias_bomb() -> str:
    parts = ["&a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    parts += [f"&{name} [{', '.join([f'*{before}'] * 9)}]" for before, name in zip("abcdefgh", "bcdefghi", strict=True)]
    return f"[{', '.join(parts)}]"


def with_value(text: str, key: str, value: str) -> str:
    if key == "history":
        return text.replace("history: [", f"history: [{value}, ", 1)
    if f"\n{key}:" not in text:
        return text.replace("\nhistory:", f"\n{key}: {value}\nhistory:")
    return "\n".join(f"{key}: {value}" if line.startswith(f"{key}:") else line for line in text.splitlines()) + "\n"


def hostile(folder: Path) -> list[dict[str, object]]:
    """Each hostile input once: its exit status, whether stderr was one escaped ``pyramide:`` line,
    whether the file (or device) was left as it was, and the wall time (a hang shows as a timeout)."""
    save_text = SaveData.from_game(Game.replay(Deal.from_code(CODE), [Move.parse(word) for word in ("KC", "draw")]),
                                   None).to_text()
    layout_text = (ROOT / "examples" / "r24-layout.yaml").read_text()
    cases: list[tuple[str, Callable[[Path], list[str]], int]] = []

    def file_case(name: str, content: str | bytes, command: str = "show", expected: int = 4) -> None:
        def prepare(path: Path, content: str | bytes = content, command: str = command) -> list[str]:
            target = path / "h.yaml"
            target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogateescape"))
            return [command, str(target)] + (["stock"] if command == "play" else [])
        cases.append((name, prepare, expected))

    for key in ("score", "moves", "status", "selected", "assist", "level", "daily", "deal", "time_played",
                "pyramide-save", "history"):
        file_case(f"alias bomb in `{key}`", with_value(save_text, key, alias_bomb()), "play")
    for key, value in (("score", "0x" + "f" * 20_000), ("moves", "0x" + "f" * 20_000),
                       ("pyramide-save", "0x" + "f" * 20_000), ("time_played", "9" * 400)):
        file_case(f"huge number in `{key}`", with_value(save_text, key, value))
    file_case("huge number as a key", save_text + "? 0x" + "f" * 20_000 + "\n: 1\n")
    file_case("huge layout version", layout_text.replace("pyramide-layout: 1", "pyramide-layout: 0x" + "f" * 20_000))
    file_case("control character in a value", save_text.replace("status: playing", "status: pla\x1b[2Jying"))
    file_case("Latin-1 text", save_text.replace("# ", "# é ", 1).encode("latin-1"))
    file_case("UTF-16 text", save_text.encode("utf-16"))
    file_case("binary junk", bytes(range(256)) * 4)
    file_case("50 MB comment", "# " + "x" * 50_000_000 + "\n" + save_text)
    big = Game(Deal.from_code(CODE))
    draw, recycle = Move.parse("draw"), Move.parse("recycle")
    while len(big.history) < 100_001:
        big.apply(draw if big.refusal(draw) is None else recycle)
    file_case("100,001-action history", SaveData.from_game(big, None).to_text(), "replay")
    file_case("deep nesting", save_text.replace("selected: null", "selected: " + "[" * 5000 + "]" * 5000))

    def fifo(command: str) -> Callable[[Path], list[str]]:
        def prepare(path: Path) -> list[str]:
            os.mkfifo(path / "f.yaml")
            return [command, str(path / "f.yaml")] + (["stock"] if command == "play" else [])
        return prepare

    def link(device: str, command: str) -> Callable[[Path], list[str]]:
        def prepare(path: Path) -> list[str]:
            (path / "d.yaml").symlink_to(device)
            return [command, str(path / "d.yaml")] + (["stock"] if command == "play" else [])
        return prepare

    cases += [("FIFO as the save (`show`)", fifo("show"), 5), ("FIFO as the save (`play`)", fifo("play"), 5),
              ("link to /dev/zero (`show`)", link("/dev/zero", "show"), 5),
              ("link to /dev/urandom (`play`)", link("/dev/urandom", "play"), 5)]

    def output(target: Callable[[Path], str], *extra: str) -> Callable[[Path], list[str]]:
        return lambda path: ["deal", CODE, "-o", target(path), *extra]

    def notes_link(path: Path) -> str:
        (path / "notes.txt").write_text("precious\n")
        (path / "l.yaml").symlink_to(path / "notes.txt")
        return str(path / "l.yaml")

    def fifo_out(path: Path) -> str:
        os.mkfifo(path / "p.yaml")
        return str(path / "p.yaml")

    def device(path: Path) -> str:  # a node of our own: a regression must never replace the system's /dev/null
        os.mknod(path / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        return str(path / "null")

    if os.geteuid() == 0:
        cases.append(("`deal -o DEVICE --force` (a copy of /dev/null, as root)", output(device, "--force"), 5))
    cases += [
              ("`deal -o newdir/`", output(lambda path: str(path / "newdir") + "/"), 5),
              ("`-o` link to a non-save, `--force`", output(notes_link, "--force"), 5),
              ("`-o` FIFO, `--force`", output(fifo_out, "--force"), 5),
              ("`play g.yaml --bogus`", lambda path: ["play", "g.yaml", "--bogus"], 2),
              ("`deal -o`", lambda path: ["deal", "-o"], 2),
              ("`replay g.yaml --expect-score abc`", lambda path: ["replay", "g.yaml", "--expect-score", "abc"], 2),
              ("100,000-character deal code", lambda path: ["show", "PY1-N-" + "A" * 100_000], 4),
              ("file name with escape sequences", lambda path: ["replay", "\x1b]0;pwned\x07\x1b[2Jt.yaml"], 5)]

    results = []
    for name, prepare, expected in cases:
        case_folder = Path(tempfile.mkdtemp(dir=folder))
        args = prepare(case_folder)
        before = snapshot(case_folder)
        start = time.monotonic()
        try:
            done = cli(*args, cwd=case_folder, timeout=60)
            status, stderr = done.returncode, done.stderr
        except subprocess.TimeoutExpired:
            status, stderr = None, "timeout"
        seconds = time.monotonic() - start
        one_line = stderr.startswith("pyramide: ") and stderr.count("\n") == 1 and not any(
            ord(char) < 32 and char != "\n" or 0x7f <= ord(char) < 0xa0 for char in stderr)
        unchanged = snapshot(case_folder) == before
        results.append({"input": name, "status": status, "expected": expected, "one_line": one_line,
                        "unchanged": unchanged, "seconds": round(seconds, 2), "message": stderr.strip()[:150]})
        shutil.rmtree(case_folder, ignore_errors=True)
    return results


def snapshot(folder: Path) -> dict[str, object]:
    """Names and contents (regular files) of a folder, to see that nothing changed (but the lock files
    `play` makes beside a save it reads under its lock, which are documented and harmless)."""
    found: dict[str, object] = {}
    for path in sorted(folder.iterdir()):
        if path.name.endswith((".lock", ".queue")):
            continue
        mode = os.lstat(path).st_mode
        found[path.name] = path.read_bytes() if stat.S_ISREG(mode) else mode
    return found


def fuzz(examples: int) -> str:
    """The fuzz tests of the suite, with ``examples`` random examples per test instead of 60 fixed ones."""
    env = {**ENV, "PYRAMIDE_FUZZ_EXAMPLES": str(examples), "PYRAMIDE_FUZZ_SECONDS": "1000"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_fuzz.py"],
                          cwd=ROOT, capture_output=True, text=True, env=env)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--fuzz-examples", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--protocol-repeats", type=int, default=3, help="runs of each hostile engine (0: none)")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"pyramide reliability run, {time.strftime('%Y-%m-%d %H:%M')}, Python {sys.version.split()[0]}, "
              f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
        figures = kills(folder, options.kills, rng)
        print(f"kills: {figures['survived']}/{figures['kills']} survived (save loads and replays); "
              f"{figures['inside_write']} landed inside a write and left a temporary file, "
              f"{figures['temporaries_cleaned']}/{figures['inside_write']} removed by the next write")
        small = sessions(folder, options.sessions, 60, 0)
        print(f"concurrency: {options.sessions} sessions x 60 moves on one save: moves lost "
              f"{small['moves_lost']}/{small['moves_reported']} reported saved "
              f"({small['moves_saved']} in the file, {small['lines']} sent), "
              f"sessions failed {small['failed']}/{small['sessions']}")
        large = sessions(folder, options.sessions, 20, 3000)
        print(f"concurrency: {options.sessions} sessions x 20 moves on a 3,000-action save: moves lost "
              f"{large['moves_lost']}/{large['moves_reported']}, sessions failed {large['failed']}/{large['sessions']} "
              "(default 10 s lock timeout)")
        order = lock_order(folder, options.rounds, 6)
        print(f"lock order: {order['in_order']}/{order['waits']} waits served in arrival order")
        windows = sessions(folder, options.sessions, 30, 0, WITHOUT_FCNTL)
        print(f"without fcntl (msvcrt's lock): {options.sessions} sessions x 30 moves on one save: moves lost "
              f"{windows['moves_lost']}/{windows['moves_reported']} reported saved "
              f"({windows['moves_saved']} in the file), sessions failed {windows['failed']}/{windows['sessions']}")
        order = lock_order(folder, options.rounds, 6, WITHOUT_FCNTL)
        print(f"without fcntl (msvcrt's lock): {order['in_order']}/{order['waits']} waits served in arrival order")
        results = hostile(folder)
        good = sum(1 for row in results if row["status"] == row["expected"] and row["one_line"] and row["unchanged"])
        print(f"hostile inputs: {good}/{len(results)} refused as documented "
              "(status, one escaped line, nothing changed)")
        print("| input | exit | one line | unchanged | seconds | message |\n|---|---|---|---|---|---|")
        for row in results:
            message = str(row["message"]).replace("|", "\\|")
            print(f"| {row['input']} | {row['status']} | {'yes' if row['one_line'] else 'NO'} | "
                  f"{'yes' if row['unchanged'] else 'NO'} | {row['seconds']} | {message} |")
        from reliability_faults import faults

        results = faults(folder)
        good = sum(1 for row in results if row["status"] == row["expected"] and row["one_line"] and row["unchanged"])
        print(f"issue 26 inputs and faults: {good}/{len(results)} as documented (status, one escaped line or one "
              "JSON document, nothing changed but what must)")
        print("| input | exit | one line | as it must be | seconds | message |\n|---|---|---|---|---|---|")
        for row in results:
            message = str(row["message"]).replace("|", "\\|")
            print(f"| {row['input']} | {row['status']} | {'yes' if row['one_line'] else 'NO'} | "
                  f"{'yes' if row['unchanged'] else 'NO'} | {row['seconds']} | {message} |")
        if options.fuzz_examples:
            print(f"fuzz ({options.fuzz_examples} random examples x 3 tests): {fuzz(options.fuzz_examples)}")
        if options.protocol_repeats:  # hostile engines and serve requests: bench/reliability_protocols.py
            from reliability_protocols import report as protocols

            protocols(folder, options.protocol_repeats, options.fuzz_examples // 4)


if __name__ == "__main__":
    main()
