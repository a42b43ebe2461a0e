"""The request lines of ``pyramide serve``, read and decoded within limits (``docs/protocol.md``).

Whatever a client sends, each line becomes either a request (a JSON object) or a
:class:`RequestError` that the server answers like any other error, and the session goes on:

* a line is at most :data:`MAX_REQUEST_BYTES` bytes; a longer one is read to its end in pieces
  and dropped, never kept whole in memory;
* a line is UTF-8 (a strict decoder: the locale's encoding plays no part);
* a line is JSON as the standard has it: ``NaN``, ``Infinity`` and numbers too large for a float are
  refused, and so is a key given twice in one object (``{"op": "legal", "op": "quit"}`` would
  otherwise quietly mean ``quit``);
* nesting is at most :data:`MAX_REQUEST_DEPTH` lists and objects deep (checked before decoding, so
  a line of 100,000 ``[`` costs a scan, not a recursion);
* text holds no lone surrogate (``"\\ud800"`` is valid JSON syntax but no Unicode text: it could
  not be echoed, written to a file name, or printed).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import IO, Any

from ..engine.errors import PyramideError, quoted

MAX_REQUEST_BYTES = 1 << 20
"""The longest request line, newline excluded (1 MiB): a ``play`` list of 100,000 moves fits."""
MAX_REQUEST_DEPTH = 32
"""The deepest nesting of lists and objects in a request (a request needs 2; ``id`` may use the rest)."""
_READ_PIECE = 1 << 16

_BRACKETS = re.compile(rb'[\[\]{}"]')
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class RequestError(PyramideError, ValueError):
    """A request that cannot be carried out as written (its ``kind`` is the CLI's ``usage``)."""


class TooLong:
    """Stands for a line past :data:`MAX_REQUEST_BYTES` (its bytes were dropped as they came)."""

    def __init__(self, size: int) -> None:
        self.size = size


def request_lines(stream: IO[bytes]) -> Iterator[bytes | TooLong]:
    """The lines of ``stream`` as they come (each without its newline), a :class:`TooLong` for each
    line past the limit; a client waiting for an answer gets it as soon as its line is complete."""
    while True:
        line = stream.readline(MAX_REQUEST_BYTES + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) <= MAX_REQUEST_BYTES:
            yield line  # the last line, without a newline
        else:
            size = len(line)
            while line and not line.endswith(b"\n"):
                line = stream.readline(_READ_PIECE)
                size += len(line)
            yield TooLong(size - 1 if line.endswith(b"\n") else size)


def decode_request(line: bytes | TooLong) -> Any:
    """The JSON value of one request line, or :class:`RequestError` saying what is wrong with it."""
    if isinstance(line, TooLong):
        raise RequestError(f"a request line longer than {MAX_REQUEST_BYTES:,} bytes ({line.size:,} bytes): "
                           f"nothing of it was read")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(f"not UTF-8: byte {line[error.start]:#04x} at byte {error.start + 1}") from None
    depth = _deepest(line)
    if depth > MAX_REQUEST_DEPTH:
        raise RequestError(f"not a request: lists and objects nested more than {MAX_REQUEST_DEPTH} levels deep")
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_no_twice)
    except RequestError:
        raise
    except (ValueError, RecursionError) as error:
        raise RequestError(f"not a JSON object: {error}") from None
    _check_text(value)
    return value


def _deepest(line: bytes) -> int:
    """How deep lists and objects nest in ``line`` (brackets inside strings do not count); a line
    with fewer brackets than the limit needs no scan."""
    if line.count(b"[") + line.count(b"{") <= MAX_REQUEST_DEPTH:
        return 0
    depth = deepest = 0
    in_string = False
    for match in _BRACKETS.finditer(line):
        character = match.group()
        if character == b'"':
            if not (in_string and _is_escaped(line, match.start())):
                in_string = not in_string
        elif in_string:
            continue
        elif character in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _is_escaped(line: bytes, index: int) -> bool:
    """Whether the character at ``index`` follows an odd number of backslashes (each run of
    backslashes is counted once, by the quote that ends it: the scan stays linear)."""
    start = index
    while start > 0 and line[start - 1] == 0x5C:
        start -= 1
    return (index - start) % 2 == 1


def _no_constant(name: str) -> Any:
    raise RequestError(f"not a JSON object: {name} is not a JSON number")


def _finite(spelled: str) -> float:
    number = float(spelled)
    if not math.isfinite(number):
        raise RequestError(f"not a JSON object: the number {quoted(spelled)} is too large")
    return number


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) < len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise RequestError(f"not a request: an object gives its key {quoted(twice)} twice")
    return mapping


def _check_text(value: Any) -> None:
    """Refuse a lone surrogate anywhere in the request, keys included (nesting is bounded already)."""
    if isinstance(value, str):
        if _LONE_SURROGATE.search(value):
            raise RequestError("not a request: its text holds a lone surrogate (\\ud800-\\udfff), which is no Unicode "
                               "character")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)
