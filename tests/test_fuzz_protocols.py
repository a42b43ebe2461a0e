"""Fuzzing the two line protocols (issue 26): whatever a ``serve`` client sends, every line gets one
line back that is standard JSON in UTF-8 and the session goes on; whatever an engine answers (or
does instead of answering), the tournament ends in bounded time, each game with a documented
result, and no process the engine started is left running.

Bounded like ``tests/test_fuzz.py``: a fixed number of derandomized examples per test and a time
budget (``PYRAMIDE_FUZZ_EXAMPLES`` and ``PYRAMIDE_FUZZ_SECONDS``; ``make reliability`` runs more).
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from process_support import all_ended, bounded, pids_in
from test_fuzz import Budget

from cli_support import ROOT
from pyramide_cli.bots.serve import REQUESTS, serve
from pyramide_cli.bots.tournament import BotSpec, TournamentSpec, run_tournament
from pyramide_cli.cli.bot_commands import serve_error
from pyramide_cli.engine.rules import Rules

EXAMPLES_PER_TEST = int(os.environ.get("PYRAMIDE_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES_PER_TEST, deadline=None, derandomize="PYRAMIDE_FUZZ_EXAMPLES" not in os.environ,
                database=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])
SCRIPTED = ROOT / "tests" / "engines" / "scripted_engine.py"
REASONS = {None, "illegal", "malformed", "timeout", "crashed", "unavailable", "action-cap"}


@pytest.fixture
def budget() -> Budget:
    return Budget()


# -- serve ---------------------------------------------------------------------------------------------------------
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=30)
WORDS = st.sampled_from(["KC", "KH", "draw", "recycle", "undo", "resign", "stock", "waste", "10C+3S", "PY1-T-AAAAAAB",
                         "T", "N+recycles=1", "easy-ish", "2026-02-30", "g.yaml", "sub/", ".", ""])
SCALARS = (st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=True, allow_infinity=True)
           | ANY_TEXT | WORDS)
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(ANY_TEXT | WORDS, inner, max_size=4), max_leaves=12)
KEYS = sorted({key for keys in REQUESTS.values() for key in keys} | {"id"})
SLOW = {"level", "daily", "seed", "date"}  # a level search is slow by design, not a protocol matter


@st.composite
def request_objects(draw: st.DrawFn) -> dict[str, Any]:
    op = draw(st.sampled_from([name for name in REQUESTS if name != "quit"]) | ANY_TEXT | JSON_VALUES)
    request: dict[str, Any] = {"op": op}
    for key in draw(st.lists(st.sampled_from(KEYS) | ANY_TEXT, max_size=4)):
        if key not in SLOW:
            request[key] = draw(JSON_VALUES)
    if isinstance(request.get("file"), str):  # file names stay in the test's folder
        request["file"] = request["file"].replace("/", "_").replace("\\", "_") or "_"
    if "max_states" in request:
        request["max_states"] = draw(st.integers(0, 2_000))
    return request


@st.composite
def request_lines(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["object", "object", "object", "value", "text", "bytes", "nested"]))
    if kind == "object":
        text = json.dumps(draw(request_objects()), ensure_ascii=draw(st.booleans()))
    elif kind == "value":
        text = json.dumps(draw(JSON_VALUES), ensure_ascii=draw(st.booleans()))
    elif kind == "text":
        text = draw(ANY_TEXT)
    elif kind == "nested":
        depth = draw(st.integers(0, 3_000))
        opening, closing = draw(st.sampled_from([("[", "]"), ('{"id":', "}"), ('{"op":"legal","id":[', "]}")]))
        text = opening * depth + draw(st.sampled_from(["", "1", '"x"'])) + closing * draw(st.integers(0, depth))
    else:
        return draw(st.binary(max_size=40)).replace(b"\n", b" ")
    return text.encode("utf-8", "surrogatepass").replace(b"\n", b" ")


def strict_json(line: bytes) -> Any:
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in a response")

    return json.loads(line.decode("utf-8"), parse_constant=refuse)


@FUZZ
@given(lines=st.lists(request_lines(), min_size=1, max_size=5))
def test_serve_answers_every_line_with_one_json_line_and_goes_on(lines: list[bytes], tmp_path: Path, budget: Budget,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if budget.spent():
        return
    monkeypatch.chdir(tmp_path)
    session = [b'{"op": "hello", "protocol": 1}', b'{"op": "new", "code": "PY1-T-AAAAAAB"}', *lines,
               b'{"op": "legal", "id": "alive"}']
    output = io.BytesIO()
    with bounded(20):
        assert serve(io.BytesIO(b"\n".join(session) + b"\n"), output, serve_error) == 0
    asked = [line for line in session if line.strip()]
    responses = [strict_json(line) for line in output.getvalue().split(b"\n")[:-1]]
    assert len(responses) == len(asked), (asked, responses)
    for response in responses:
        assert isinstance(response["ok"], bool), response
        if not response["ok"]:
            assert set(response["error"]) >= {"kind", "exit_status", "message"}, response
            assert response["error"]["kind"] != "internal", response
    assert responses[-1]["id"] == "alive" and responses[-1]["ok"] is True, responses[-1]


# -- tournament ----------------------------------------------------------------------------------------------------
LINE_TEXT = (st.sampled_from(["move KC", "move draw", "move undo", "move resign", "move 7C+7S", "move zz", "info x",
                              "# log", "", "move", "id name x", "ready", "move draw\r"])
             | st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=("Cs",)), max_size=20))
LINES = st.builds(lambda text, ending: text.encode("utf-8") + ending, LINE_TEXT,
                  st.sampled_from([b"\n", b"\n", b"\n", b"", b"\r\n"])) | st.binary(max_size=16)
ACTIONS = (st.tuples(st.just("line"), LINES.map(bytes.hex)) | st.tuples(st.just("exit"), st.integers(0, 3))
           | st.sampled_from([("orphan",), ("helper",), ("silent",), ("deaf",), ("close",), ("legal",)]))
HANDSHAKES = (st.sampled_from([[b"id name fuzz\n", b"ready\n"], [b"id name fuzz\n", b"id version 1\n", b"ready\n"]])
              | st.lists(LINES, max_size=3).map(lambda lines: [*lines, b"id name fuzz\n", b"ready\n"])
              | st.lists(LINES, max_size=3))


FAULTS = st.sampled_from([("orphan",), ("helper",), ("deaf",), ("silent",), ("close",), ("exit", 1)])
FIRST_HANDSHAKE = [b"id name fuzz\n", b"ready\n"]


@FUZZ
@given(handshake=st.booleans().flatmap(lambda plain: st.just(FIRST_HANDSHAKE) if plain else HANDSHAKES),
       fault=FAULTS, answers=st.lists(ACTIONS, max_size=5), where=st.integers(0, 5), games=st.integers(1, 2))
def test_a_tournament_ends_whatever_the_engine_answers(handshake: list[bytes], fault: tuple[Any, ...],
                                                      answers: list[tuple[Any, ...]], where: int, games: int,
                                                      tmp_path: Path, budget: Budget) -> None:
    """Each example has one of the faults that hung the tournament or outlived it, among other answers."""
    if budget.spent():
        return
    answers.insert(min(where, len(answers)), fault)
    script, pids = tmp_path / "script.json", tmp_path / "pids"
    script.write_text(json.dumps({"handshake": [line.hex() for line in handshake], "answers": answers}))
    pids.unlink(missing_ok=True)
    command = f"{sys.executable} {SCRIPTED} {script} {pids}"
    spec = TournamentSpec(BotSpec(engine=command, move_time=0.2, handshake_time=1.0), Rules.preset("T"),
                          range(games), max_actions=200)
    with bounded(30):  # each failure costs at most a time limit; a hang would run past this
        results = run_tournament(spec)
    assert len(results) == games
    for result in results:
        assert result.reason in REASONS, result
        assert result.status in ("won", "lost") and result.termination is not None, result
    assert all_ended(pids_in(pids)), pids_in(pids)
