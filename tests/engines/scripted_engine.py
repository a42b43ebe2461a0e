"""A test engine that says what a script tells it to (the fuzz tests write the script).

    python3 scripted_engine.py SCRIPT PIDS

SCRIPT is a JSON object: ``handshake``, the lines (hex of their bytes) answered to the handshake,
and ``answers``, one action per position asked, in order: ``["line", HEX]`` writes those bytes;
``["exit", STATUS]`` exits; ``["orphan"]`` starts a sleeping child that keeps the pipes open, then
exits; ``["helper"]`` starts a sleeping child and answers the first legal move; ``["silent"]``
never answers again; ``["deaf"]`` never reads again and writes moves without end; ``["close"]``
closes its output and keeps reading.  Past the script: the first legal move.  Each child's pid is
appended to PIDS.
"""

import json
import os
import subprocess
import sys
import time

script = json.loads(open(sys.argv[1]).read())
answers = list(script["answers"])
out = sys.stdout.buffer


def start_child() -> None:
    child = subprocess.Popen(["sleep", "300"])
    with open(sys.argv[2], "a") as pids:
        pids.write(f"{child.pid}\n")


def first_legal(rest: str) -> bytes:
    legal = [move for move in json.loads(rest)["legal_moves"] if move != "undo"]
    return f"move {legal[0] if legal else 'resign'}\n".encode()


for line in sys.stdin:
    command, _, rest = line.rstrip("\n").partition(" ")
    if command == "pyramide-engine":
        out.write(b"".join(bytes.fromhex(piece) for piece in script["handshake"]))
        out.flush()
    elif command == "position":
        action = answers.pop(0) if answers else ["legal"]
        kind = action[0]
        if kind == "line":
            out.write(bytes.fromhex(action[1]))
        elif kind == "exit":
            sys.exit(action[1])
        elif kind == "orphan":
            start_child()
            sys.exit(0)
        elif kind == "helper":
            start_child()
            out.write(first_legal(rest))
        elif kind == "silent":
            time.sleep(300)
        elif kind == "deaf":
            while True:
                out.write(b"move draw\nmove undo\n" * 1000)
                out.flush()
        elif kind == "close":
            os.close(1)
            continue
        else:
            out.write(first_legal(rest))
        try:
            out.flush()
        except OSError:
            pass
    elif command == "quit":
        break
