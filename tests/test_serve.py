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


# -- limits on what a client can send: every line gets one valid JSON line back, the session goes on ----------
def strict_json(line: bytes) -> Any:
    """One response line: UTF-8, and JSON as the standard has it (no NaN, no Infinity)."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON: {line[:200]!r}")

    return json.loads(line.decode("utf-8"), parse_constant=refuse)


def serve_process(lines: list[bytes], cwd: Path) -> list[Any]:
    """Run ``pyramide serve`` on ``lines`` with a strict UTF-8 stdin (what a UTF-8 locale gives)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    env.pop("PYRAMIDE_DEBUG", None)
    done = subprocess.run([sys.executable, "-m", "pyramide_cli", "serve"], input=b"".join(lines), cwd=cwd, env=env,
                          capture_output=True, timeout=60)
    assert done.returncode == 0 and done.stderr == b"", done.stderr[-2000:]
    return [strict_json(line) for line in done.stdout.splitlines()]


HOSTILE_LINES = [
    b"[" * 100_000 + b"\n",  # RecursionError in the JSON decoder
    b'{"op": "x", "id": "\\ud800"}\n', b'{"op": "\\ud800"}\n', b'{"op": "new", "file": "\\ud800"}\n',
    b'{"op": "new", "file": "a\\u0000b"}\n', b'{"op": "save", "file": "a\\u0000b"}\n',
    b"\xff\n", b'{"op": "x\xff"}\n',  # not UTF-8
    b'{"op": "legal", "id": NaN}\n', b'{"op": "legal", "id": Infinity}\n', b'{"op": "legal", "id": -1e999}\n',
    b'{"op": "legal", "op": "quit"}\n',
    b'{"op": "play", "input": "' + b"draw " * 300_000 + b'"}\n',  # past the longest line
]


def test_lines_that_ended_the_session_are_error_responses_and_the_session_goes_on(tmp_path: Path) -> None:
    hello, new, legal = (b'{"op": "hello", "protocol": 1}\n', b'{"op": "new", "code": "PY1-T-AAAAAAB"}\n',
                         b'{"op": "legal", "id": "alive"}\n')
    lines = [hello, new]
    for line in HOSTILE_LINES:
        lines += [line, legal]
    responses = serve_process([*lines, b'{"op": "quit"}\n'], tmp_path)
    assert len(responses) == len(lines) + 1 and responses[-1]["bye"] is True
    for line, (refused, alive) in zip(HOSTILE_LINES, zip(responses[2::2], responses[3::2], strict=False), strict=True):
        assert refused["ok"] is False and refused["error"]["kind"] == "usage", (line[:60], refused)
        assert alive == {"id": "alive", "op": "legal", "ok": True, "moves": ["KC", "KH", "draw"], "undo": False,
                         "status": "playing"}, line[:60]
    assert sorted(path.name for path in tmp_path.iterdir()) == []  # nothing written, no lock file


@pytest.mark.parametrize("line, words", [
    ("[" * 100_000, "nested more than 32 levels deep"),
    ('{"id": ' + "[" * 33 + "]" * 33 + ', "op": "legal"}', "nested more than 32 levels deep"),
    ('{"op": "x", "id": "\\ud800"}', "lone surrogate"),
    ('{"op": "new", "file": "a\\u0000b"}', "NUL"),
    ('{"op": "legal", "id": NaN}', "NaN is not a JSON number"),
    ('{"op": "legal", "id": 1e999}', "too large"),
    ('{"op": "legal", "op": "quit"}', "'op' twice"),
    ('{"op": "play", "input": {"a": 1, "a": 2}}', "'a' twice"),
])
def test_what_a_request_line_may_not_hold(line: str, words: str) -> None:
    server = greeted()
    response = server.handle_line(line)
    assert response["ok"] is False and words in response["error"]["message"], response
    assert "id" not in response or response["id"] is None or isinstance(response["id"], str)


def test_nesting_up_to_the_limit_is_served() -> None:
    server = greeted()
    ident = json.loads("[" * 31 + "]" * 31)
    response = ask(server, op="legal", id=ident)
    assert response["id"] == ident and response["error"]["message"].startswith("no game yet")


def test_save_checks_its_target_before_taking_the_lock(tmp_path: Path) -> None:
    server = greeted()
    ask(server, op="new", code="PY1-T-AAAAAAB")
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("my notes\n")
    for name, words in ((f"{tmp_path}/sub/", "ends with a '/'"), (f"{tmp_path}/folder", "it is a folder"),
                        (f"{tmp_path}/notes.txt", "already exists")):
        refused = ask(server, op="save", file=name)
        assert refused["error"]["kind"] == "file-error" and words in refused["error"]["message"], refused
    refused = ask(server, op="save", file=f"{tmp_path}/notes.txt", overwrite=True)
    assert "it is not a pyramide save" in refused["error"]["message"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["folder", "notes.txt"]  # no sub, no X.lock/X.queue
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"


def test_a_line_past_the_limit_is_refused_without_being_kept_whole() -> None:
    import io

    from pyramide_cli.bots.serve import MAX_REQUEST_BYTES, serve

    long_line = b'{"op": "play", "input": "' + b"x" * MAX_REQUEST_BYTES + b'"}\n'
    output = io.BytesIO()
    serve(io.BytesIO(b'{"op": "hello"}\n' + long_line + b'{"op": "quit"}\n'), output, serve_error)
    responses = [strict_json(line) for line in output.getvalue().splitlines()]
    assert [response["ok"] for response in responses] == [True, False, True]
    assert f"longer than {MAX_REQUEST_BYTES:,} bytes" in responses[1]["error"]["message"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_an_output_that_fails_is_one_line_and_exit_5() -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([sys.executable, "-m", "pyramide_cli", "serve"], input=b'{"op": "hello"}\n',
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 5 and done.stderr.decode().startswith("pyramide: ") and done.stderr.count(b"\n") == 1


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
