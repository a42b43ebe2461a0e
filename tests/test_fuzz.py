"""Fuzzing the command line with hostile files and arguments (issue 12): whatever comes in, no
traceback, no hang, one escaped ``pyramide: …`` line for an error, a documented exit status, and a
file that a refusing command leaves byte for byte as it was.

Bounded twice so the suite stays fast: each test tries a fixed number of examples (derandomized,
so every run tries the same ones) and stops early when its time budget is spent; each example
runs under a guard that fails it if it runs past :data:`EXAMPLE_BOUND` seconds (a hang or an
exponential blow-up, not a speed measure: an example takes milliseconds).
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import process_support
from cli_support import EXAMPLES, invoke, save_text

EXAMPLE_BOUND = 20.0
EXAMPLES_PER_TEST = int(os.environ.get("PYRAMIDE_FUZZ_EXAMPLES", "60"))
"""``make reliability`` runs a longer campaign (``PYRAMIDE_FUZZ_EXAMPLES=2000``, random seeds)."""
TEST_BUDGET = float(os.environ.get("PYRAMIDE_FUZZ_SECONDS", "4"))
"""Seconds of examples per test; the rest of the examples are skipped (the count is the real bound)."""
FUZZ = settings(max_examples=EXAMPLES_PER_TEST, deadline=None, derandomize="PYRAMIDE_FUZZ_EXAMPLES" not in os.environ,
                database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])
STATUSES = {0, 1, 2, 3, 4, 5, 6, 7}
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
CODE = "PY1-N-AAAAAAS"

BASE_SAVES = [
    save_text(CODE),
    save_text(CODE, "KC", "10H+3D", "draw", "draw", "undo"),
    (EXAMPLES / "won-n.yaml").read_text(),
    (EXAMPLES / "lost-o.yaml").read_text(),
]
BASE_LAYOUT = (EXAMPLES / "r24-layout.yaml").read_text()

HOSTILE_VALUES = [
    "[&a [x, x, x, x, x, x, x, x, x], &b [*a, *a, *a, *a, *a, *a, *a, *a, *a], *b]",
    "[&a [x, x, x, x, x, x, x, x, x]"
    + "".join(f", &{n} [{', '.join([f'*{p}'] * 9)}]" for p, n in zip("abcdef", "bcdefg", strict=True)) + "]",
    "0x" + "f" * 5000, "9" * 500, "9" * 5000, "-1", "1e999", ".nan", "-.inf", "~", "[]", "{}",
    "[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]",
    "!!binary AAAA", "!!set {a, b}", "!!python/object:os.system x", "2026-13-45", "12:30:00", "1:2:3:4:5:6",
    "'\x1b[2J\x07'", "\"\\u202e\\x00\"", "x" * 20_000, "*undefined", "&anchor 1", "<<: {a: 1}", "? [a]\n: 1",
    "'PY1-N-" + "A" * 3000 + "'", "\"\\udcff\"", "yes", "0o777", "0b101", "+12", "1_000", "3.", "!!float '1'",
]


def bounded(seconds: float = EXAMPLE_BOUND) -> contextlib.AbstractContextManager[None]:
    """Fail the example (instead of hanging the suite) if it runs past ``seconds``."""
    return process_support.bounded(seconds)


class Budget:
    """The time budget of one fuzz test: examples after it are skipped."""

    def __init__(self) -> None:
        self.end: float | None = None

    def spent(self) -> bool:
        if self.end is None:
            self.end = time.monotonic() + TEST_BUDGET
        return time.monotonic() > self.end


def check(outcome: object, json_output: bool = False) -> None:
    """The promises every run keeps, whatever its input."""
    assert outcome.status in STATUSES, outcome
    assert not RAW_CONTROL.search(outcome.stderr), outcome
    if json_output:
        assert outcome.stderr == "" and outcome.stdout.count("\n") == 1, outcome
        assert outcome.json()["ok"] is (outcome.status == 0) or outcome.status in (1, 3, 6, 7), outcome
    elif outcome.status in (0, 6):  # 6: solve's "unwinnable" is an answer, printed on stdout
        assert outcome.stderr == "", outcome
    else:
        assert outcome.stderr.startswith("pyramide: ") and outcome.stderr.count("\n") == 1, outcome
        assert len(outcome.stderr) < 1000, outcome


@st.composite
def mutated(draw: st.DrawFn, bases: list[str]) -> bytes:
    """A valid file changed: a value replaced by a hostile one, bytes flipped, lines cut or doubled."""
    text = draw(st.sampled_from(bases))
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["value", "bytes", "truncate", "line"]))
        if kind == "value":  # a top-level key's value (most of the time) or any line
            keyed = [index for index, line in enumerate(lines) if re.match(r"[a-z-]+:", line)]
            index = draw(st.sampled_from(keyed) if keyed and draw(st.integers(0, 4))
                         else st.integers(0, len(lines) - 1))
            key = lines[index].split(":", 1)[0] if ":" in lines[index] else "extra"
            value = draw(st.sampled_from(HOSTILE_VALUES))
            in_history = key == "history" and draw(st.booleans())
            lines[index] = f"{key}: [{value}, draw]\n" if in_history else f"{key}: {value}\n"
        elif kind == "line" and len(lines) > 1:
            index = draw(st.integers(0, len(lines) - 1))
            lines.insert(index, lines[index]) if draw(st.booleans()) else lines.pop(index)
        elif kind == "truncate":
            joined = "".join(lines)
            lines = joined[:draw(st.integers(0, len(joined)))].splitlines(keepends=True) or [""]
    data = "".join(lines).encode("utf-8", "surrogateescape")
    if draw(st.booleans()):
        noise = draw(st.binary(min_size=1, max_size=8))
        position = draw(st.integers(0, len(data)))
        data = data[:position] + noise + data[position + draw(st.integers(0, 4)):]
    return data


@FUZZ
@given(content=mutated(BASE_SAVES), word=st.sampled_from(["recycle", "10C+3S", "QD+AC", "KD", "undo", "draw"]),
       command=st.sampled_from(["show", "replay", "play", "solve", "json-play", "json-replay"]))
def test_mutated_saves(tmp_path: Path, content: bytes, word: str, command: str, budget: Budget) -> None:
    if budget.spent():
        return
    path = tmp_path / "g.yaml"
    path.write_bytes(content)
    json_output = command.startswith("json-")
    name = command.removeprefix("json-")
    args = {"show": ["show", str(path)], "replay": ["replay", str(path)], "play": ["play", str(path), word],
            "solve": ["solve", str(path), "--max-states", "300"]}[name] + (["--json"] if json_output else [])
    with bounded():
        outcome = invoke(*args)
    check(outcome, json_output)
    if outcome.status != 0:
        assert path.read_bytes() == content, outcome  # a refusing command never changes the file


@FUZZ
@given(content=mutated([BASE_LAYOUT]), command=st.sampled_from(["show", "deal"]))
def test_mutated_layouts(tmp_path: Path, content: bytes, command: str, budget: Budget) -> None:
    if budget.spent():
        return
    layout = tmp_path / "layout.yaml"
    layout.write_bytes(content)
    out = tmp_path / "out.yaml"
    args = (["show", str(layout)] if command == "show"
            else ["deal", "--from-layout", str(layout), "-o", str(out), "--force"])
    with bounded():
        outcome = invoke(*args)
    check(outcome)
    assert layout.read_bytes() == content


HOSTILE_TEXT = st.text(
    alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=40,
) | st.sampled_from(["PY1-N-" + "A" * 100_000, "PY1-N-AAAAAAS\x1b[2J", "-", "--", "--json", "-o", "..", ".", "",
                     "py1-t-aaaaaab", "PY1-N-" + "7" * 46, "10C+3S", "\udcff\udcfe", "0x" + "f" * 5000, "9" * 5000])


def value_options(command: str) -> set[str]:
    """The option names of ``command`` that take a value, read off the command itself (its Click
    parameters), so this table and the command line's never disagree."""
    import typer

    from pyramide_cli.cli import load_commands

    group = typer.main.get_command(load_commands([command]))
    return {name for param in group.commands[command].params
            if param.param_type_name == "option" and not param.is_flag and not param.count for name in param.opts}


VALUE_OPTIONS = {name: value_options(name) for name in ("show", "play", "replay", "deal")}


def wants_json(args: list[str]) -> bool:
    """Whether ``--json`` is among ``args`` as the flag (not an option's value, not after ``--``)."""
    takes_value, value_next = VALUE_OPTIONS[args[0]], False
    for argument in args[1:]:
        if value_next:
            value_next = False
        elif argument == "--":
            return False
        elif argument == "--json":
            return True
        else:
            value_next = argument in takes_value
    return False


@FUZZ
@given(text=HOSTILE_TEXT, slot=st.sampled_from([
    "file", "code", "tap", "rules", "expect", "expect-score", "upto", "level", "date", "output", "json-tap",
]))
def test_hostile_arguments(tmp_path: Path, text: str, slot: str, budget: Budget,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    if budget.spent():
        return
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "g.yaml"
    save.write_text(save_text(CODE, "KC"))
    before = save.read_bytes()
    local = text.replace("/", "_").replace("\x00", "_") or "_"  # file names stay in the test's folder
    args = {
        "file": ["show", local], "code": ["show", text], "tap": ["play", "g.yaml", text],
        "json-tap": ["play", "g.yaml", text, "--json"], "rules": ["deal", CODE, "--rules", text, "-o", "new.yaml"],
        "expect": ["replay", "g.yaml", "--expect", text], "expect-score": ["replay", "g.yaml", "--expect-score", text],
        "upto": ["replay", "g.yaml", "--upto", text], "level": ["deal", "--level", text, "-o", "new.yaml"],
        "date": ["deal", "--daily", "--date", text, "-o", "new.yaml"], "output": ["deal", CODE, "-o", local],
    }[slot]
    with bounded():
        outcome = invoke(*args)
    check(outcome, wants_json(args))
    if outcome.status != 0:
        assert save.read_bytes() == before, outcome


@pytest.fixture
def budget(request: pytest.FixtureRequest) -> Budget:
    """One budget per test function (Hypothesis runs every example with the same fixture value)."""
    return Budget()
