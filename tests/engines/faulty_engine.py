"""A test engine that misbehaves on purpose in the games named on its command line.

    python3 faulty_engine.py crash=AAAAAAB hang=AAAAAAC nonsense=AAAAAAD illegal=AAAAAAE handshake

``crash=X``: exits at the first position of the game whose deal code ends with X; ``hang``: never
answers it; ``nonsense``: answers a line that is not a move; ``illegal``: answers an illegal move;
``handshake`` (alone): garbage instead of the handshake.  Other games: the first legal move.
"""

import json
import sys
import time

faults = dict(arg.split("=", 1) if "=" in arg else (arg, "") for arg in sys.argv[1:])
game = ""
for line in sys.stdin:
    command, _, rest = line.rstrip("\n").partition(" ")
    if command == "pyramide-engine":
        if "handshake" in faults:
            print("hello there", flush=True)
            continue
        print("# starting", "id name faulty", "id version 0", "ready", sep="\n", flush=True)
    elif command == "newgame":
        game = rest.split()[0]
    elif command == "position":
        fault = next((name for name, code in faults.items() if code and game.endswith(code)), None)
        if fault == "crash":
            sys.exit(3)
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
