"""A test engine that misbehaves on purpose in the games named on its command line.

    python3 faulty_engine.py crash=AAAAAAB hang=AAAAAAC nonsense=AAAAAAD illegal=AAAAAAE handshake

``crash=X``: exits at the first position of the game whose deal code ends with X; ``hang``: never
answers it; ``nonsense``: answers a line that is not a move; ``illegal``: answers an illegal move;
``orphan=X``: starts a child that holds the engine's output open, then exits (the child sleeps).
Alone: ``handshake``: garbage instead of the handshake; ``flood``: after the handshake never reads
again and writes ``move draw``/``move undo`` without end; ``helper``: starts a sleeping child at
start-up, then plays; ``evil-name``: an ``id name`` and ``id version`` full of control characters.
``pids=FILE``: each child's pid is appended to FILE (the tests check that none outlives the game).
Other games: the first legal move.
"""

import json
import subprocess
import sys
import time

faults = dict(arg.split("=", 1) if "=" in arg else (arg, "") for arg in sys.argv[1:])


def start_child() -> None:
    child = subprocess.Popen(["sleep", "300"])  # inherits stdin and stdout: the pipes stay open
    if "pids" in faults:
        with open(faults["pids"], "a") as pids:
            pids.write(f"{child.pid}\n")


if "helper" in faults:
    start_child()
game = ""
for line in sys.stdin:
    command, _, rest = line.rstrip("\n").partition(" ")
    if command == "pyramide-engine":
        if "handshake" in faults:
            print("hello there", flush=True)
            continue
        if "evil-name" in faults:
            print("id name \x1b]0;owned\x07\x1b[2J\u202eevil\x00", "id version " + "\x1b[31m" * 20_000, "ready",
                  sep="\n", flush=True)
            continue
        print("# starting", "id name faulty", "id version 0", "ready", sep="\n", flush=True)
        if "flood" in faults:
            while True:
                sys.stdout.write("move draw\nmove undo\n" * 1000)
                sys.stdout.flush()
    elif command == "newgame":
        game = rest.split()[0]
    elif command == "position":
        fault = next((name for name, code in faults.items() if code and game.endswith(code)), None)
        if fault == "crash":
            sys.exit(3)
        if fault == "orphan":
            start_child()
            sys.exit(0)
        if fault == "hang":
            time.sleep(60)
        if fault == "nonsense":
            print("I would rather not", flush=True)
            continue
        if fault == "illegal":
            print("move 7C+7S", flush=True)
            continue
        legal = [move for move in json.loads(rest)["legal_moves"] if move != "undo"]
        print("info thinking", flush=True)
        print("move " + legal[0], flush=True)
    elif command == "quit":
        break
