#!/usr/bin/env python3
"""An example engine for `pyramide tournament --engine "python3 examples/engine.py"`.

Plain Python, standard library only, no import of pyramide: it shows the whole engine protocol of
docs/protocol.md.  It plays the strategy tips of the rules' sources, simply: a king at once; else a
pair of two pyramid cards; else a pair using a talon card; else draw (or recycle).

Protocol in short (one line per message; lines it writes starting with "info" or "#" are logs):
    tournament: pyramide-engine 1          engine: id name ..., id version ..., ready
    tournament: newgame CODE SEED          (no answer)
    tournament: position {JSON}            engine: move MOVE   (a move of "legal_moves", or resign)
    tournament: gameover STATUS TERMINATION SCORE   (no answer)
    tournament: quit                       the engine exits
"""

import json
import sys
from typing import Any

PROTOCOL = "1"


def choose(position: dict[str, Any]) -> str:
    """The move to play: a move of position["legal_moves"] in the save notation."""
    legal = [move for move in position["legal_moves"] if move != "undo"]
    free = set(position["free"])
    kings = [move for move in legal if "+" not in move and move[0] == "K"]
    if kings:
        return kings[0]
    pairs = [move for move in legal if "+" in move]
    pyramid_pairs = [move for move in pairs if all(card in free for card in move.split("+"))]
    if pyramid_pairs:
        return pyramid_pairs[0]
    if pairs:
        return pairs[0]
    return legal[-1] if legal else "resign"  # draw or recycle come last in legal_moves


def main() -> None:
    for line in sys.stdin:
        words = line.split(" ", 1)
        command = words[0].strip()
        if command == "pyramide-engine":
            if words[1].strip() != PROTOCOL:
                print(f"# this engine speaks protocol {PROTOCOL} only", flush=True)
            print("id name example", "id version 1.0", "ready", sep="\n", flush=True)
        elif command == "position":
            print("move " + choose(json.loads(words[1])), flush=True)
        elif command == "quit":
            return
        # newgame and gameover need no answer; anything else is ignored


if __name__ == "__main__":
    main()
