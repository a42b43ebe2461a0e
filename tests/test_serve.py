"""pyramide serve: the JSON-lines protocol, its errors, and the transcript in docs/protocol.md (bots/serve.py).

``python tests/test_serve.py --write`` rewrites the transcript of docs/protocol.md from a real session.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pyramide_cli.bots.serve import ServeSession
from pyramide_cli.cli.bot_commands import serve_error
from pyramide_cli.storage.save import load_game

ROOT = Path(__file__).resolve().parent.parent
PROTOCOL_DOC = ROOT / "docs" / "protocol.md"
START, END = "<!-- serve transcript: start -->", "<!-- serve transcript: end -->"

TRANSCRIPT_REQUESTS = [
    '{"op": "hello", "protocol": 1, "id": 1}',
    '{"op": "new", "code": "PY1-T-AAAAAAB", "id": 2}',
    '{"op": "play", "input": "KC", "id": 3}',
    '{"op": "play", "input": ["KH", "8S", "5H"], "id": 4}',
    '{"op": "legal", "id": 5}',
    '{"op": "play", "input": "10H+3S", "id": 6}',
    '{"op": "play", "input": "draw", "state": true, "id": 7}',
    '{"op": "undo", "id": 8}',
    '{"op": "hint", "max_states": 100000, "id": 9}',
    '{"op": "solve", "max_states": 100000, "id": 10}',
    'this is not JSON',
    '{"op": "fly", "id": 11}',
    '{"op": "play", "moves": "KD", "id": 12}',
    '{"op": "save", "file": "game.yaml", "id": 13}',
    '{"op": "resign", "id": 14}',
    '{"op": "play", "input": "draw", "id": 15}',
    '{"op": "save", "id": 16}',
    '{"op": "new", "file": "game.yaml", "id": 17}',
    '{"op": "quit", "id": 18}',
]


def session() -> ServeSession:
    return ServeSession(serve_error)


def ask(server: ServeSession, **request: Any) -> dict[str, Any]:
    return json.loads(server.respond(json.dumps(request)))


def greeted() -> ServeSession:
    server = session()
    assert ask(server, op="hello", protocol=1)["ok"]
    return server


def run_transcript(folder: Path) -> list[tuple[str, str]]:
    """Each request line with its response line, played in ``folder`` (where game.yaml is saved)."""
    server, pairs = session(), []
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        for line in TRANSCRIPT_REQUESTS:
            pairs.append((line, server.respond(line)))
    finally:
        os.chdir(cwd)
    return pairs


def normalised(response: str) -> Any:
    """A response with its timing (the only part that changes from run to run) taken out."""
    document = json.loads(response)
    if isinstance(document.get("result"), dict):
        document["result"].pop("seconds", None)
    return document


def transcript_block(pairs: list[tuple[str, str]]) -> str:
    lines = ["```"]
    for request, response in pairs:
        lines += [f"> {request}", f"< {response}"]
    return "\n".join(lines + ["```"])


def documented_pairs() -> list[tuple[str, str]]:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    block = text[text.index(START) + len(START):text.index(END)]
    requests = [line[2:] for line in block.splitlines() if line.startswith("> ")]
    responses = [line[2:] for line in block.splitlines() if line.startswith("< ")]
    return list(zip(requests, responses, strict=True))


# -- the transcript of docs/protocol.md is a real session ---------------------------------------------------
def test_the_documented_transcript_is_what_serve_answers(tmp_path: Path) -> None:
    documented = documented_pairs()
    actual = run_transcript(tmp_path)
    assert [request for request, _ in documented] == TRANSCRIPT_REQUESTS, "run: python tests/test_serve.py --write"
    for (request, expected), (_, response) in zip(documented, actual, strict=True):
        assert normalised(response) == normalised(expected), f"{request}: run python tests/test_serve.py --write"


# -- the protocol ----------------------------------------------------------------------------------------------
def test_hello_comes_first_and_says_the_versions() -> None:
    server = session()
    refused = ask(server, op="state")
    assert refused["ok"] is False and refused["error"]["kind"] == "usage" and "hello" in refused["error"]["message"]
    wrong = ask(server, op="hello", protocol=99)
    assert wrong["ok"] is False and "speaks protocol 1" in wrong["error"]["message"]
    hello = ask(server, op="hello", protocol=1, id="a")
    assert hello["id"] == "a" and (hello["protocol"], hello["schema"]) == (1, 2) and "play" in hello["requests"]


@pytest.mark.parametrize("line, words", [
    ("{not json", "not a JSON object"),
    ("[1, 2]", "not a JSON object but list"),
    ('{"id": 3}', "needs an \"op\""),
    ('{"op": "teleport"}', "unknown request 'teleport'"),
    ('{"op": "play", "input": "KC", "colour": "red"}', "unknown key 'colour'"),
    ('{"op": "play", "input": 7}', "'input' must be"),
    ('{"op": "play", "input": "zz"}', "unknown word 'zz'"),
    ('{"op": "new", "code": "PY1-Q-AAAAAAB"}', "bad deal code"),
    ('{"op": "new", "code": "PY1-T-AAAAAAB", "number": 4}', "not code and number"),
    ('{"op": "new", "rules": "T+fast"}', "unknown variant"),
    ('{"op": "new", "number": -1}', "whole number"),
    ('{"op": "new", "seed": 3}', "'seed' goes with 'level'"),
    ('{"op": "new", "file": "/nonexistent/g.yaml"}', "cannot read"),
    ('{"op": "solve", "max_states": "lots"}', "whole number"),
])
def test_a_bad_line_is_an_error_response_and_the_session_goes_on(line: str, words: str) -> None:
    server = greeted()
    ask(server, op="new", code="PY1-T-AAAAAAB")
    response = json.loads(server.respond(line))
    assert response["ok"] is False and words in response["error"]["message"], response
    assert set(response["error"]) >= {"kind", "exit_status", "message"}
    assert ask(server, op="play", input="KC")["ok"]  # still serving the same game


def test_an_illegal_move_stops_the_batch_after_what_came_before() -> None:
    server = greeted()
    ask(server, op="new", code="PY1-T-AAAAAAB", id=1)
    response = ask(server, op="play", input=["KC", "7D", "KH"], id=2)
    assert response["ok"] is False and response["id"] == 2
    assert response["error"] == {"kind": "illegal-move", "exit_status": 3, "refusal": "blocked", "input": "7D",
                                 "message": "7D: This card is blocked by another card"}
    assert [step["move"] for step in response["steps"]] == ["KC"] and response["score"] == 10
    assert "KH" in response["legal_moves"]


def test_requests_before_a_game_and_after_its_end() -> None:
    server = greeted()
    assert "no game yet" in ask(server, op="legal")["error"]["message"]
    ask(server, op="new", number=5, rules="O")
    resigned = ask(server, op="resign")
    assert (resigned["status"], resigned["termination"], resigned["legal_moves"]) == ("lost", "resigned", [])
    for request in ({"op": "undo"}, {"op": "resign"}, {"op": "play", "input": "draw"}):
        answer = ask(server, **request)
        assert answer["ok"] is False and answer["error"]["kind"] == "illegal-move"
    assert ask(server, op="hint")["hint"]["move"] is None


def test_save_is_atomic_keeps_what_it_should_and_never_overwrites_by_accident(tmp_path: Path) -> None:
    server = greeted()
    target = tmp_path / "g.yaml"
    ask(server, op="new", code="PY1-N-AAAAAAS")
    ask(server, op="play", input="KC")
    assert ask(server, op="save", file=str(target))["written"]
    assert load_game(target).game.history[0].cards[0].rank == 13
    ask(server, op="new", code="PY1-T-AAAAAAB")
    refused = ask(server, op="save", file=str(target))
    assert refused["error"]["kind"] == "file-error" and "overwrite" in refused["error"]["message"]
    assert load_game(target).data.deal == "PY1-N-AAAAAAS"  # untouched
    assert ask(server, op="save", file=str(target), overwrite=True)["ok"]
    assert load_game(target).data.deal == "PY1-T-AAAAAAB"
    loaded = ask(server, op="new", file=str(target))
    assert loaded["file"] == str(target) and loaded["state"]["deal"] == "PY1-T-AAAAAAB"
    ask(server, op="play", input="draw")
    assert ask(server, op="save")["file"] == str(target)  # back to the file it came from
    assert len(load_game(target).game.history) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.yaml", "g.yaml.lock", "g.yaml.queue"]


def test_a_level_deal_and_the_daily_deal() -> None:
    server = greeted()
    import datetime

    from pyramide_cli.analysis.grade import Level, daily_deal, find_level_deal, seed_start
    from pyramide_cli.engine.rules import Rules

    level = ask(server, op="new", level="easy", seed=3, rules="T")
    assert level["state"]["level"] == "easy" and level["state"]["rules"] == "T"
    assert level["state"]["deal"] == find_level_deal(Level.EASY, Rules.preset("T"), seed_start(3)).deal.code
    daily = ask(server, op="new", daily=True, date="2026-03-14")
    assert daily["state"]["daily"] == "2026-03-14" and daily["state"]["level"] == "medium"
    assert daily["state"]["deal"] == daily_deal(datetime.date(2026, 3, 14)).deal.code


def test_serve_as_a_process_answers_each_line_at_once_and_survives_garbage() -> None:
    process = subprocess.Popen([sys.executable, "-m", "pyramide_cli", "serve"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert process.stdin is not None and process.stdout is not None

    def exchange(line: str) -> dict[str, Any]:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        return json.loads(process.stdout.readline())

    try:
        assert exchange('{"op": "hello", "protocol": 1}')["ok"]
        assert exchange("\x00\x01 garbage")["ok"] is False
        state = exchange('{"op": "new", "code": "PY1-T-AAAAAAB"}')["state"]
        moves = 0
        while state["legal_moves"] and moves < 300:
            state = exchange(json.dumps({"op": "play", "input": state["legal_moves"][0]}))
            moves += 1
        assert state["status"] in ("won", "lost") and state["termination"] is not None
        assert exchange('{"op": "quit"}') == {"op": "quit", "ok": True, "bye": True}
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()


def write_transcript() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        block = transcript_block(run_transcript(Path(folder)))
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    PROTOCOL_DOC.write_text(f"{head}{START}\n{block}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_transcript()
    else:
        sys.exit("usage: python tests/test_serve.py --write   (rewrites the transcript of docs/protocol.md)")
