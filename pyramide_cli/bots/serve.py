"""``pyramide serve``: one long-lived game server speaking JSON lines (``docs/protocol.md``).

Every request is one line holding a JSON object with an ``op``; every request gets exactly one
response line, written and flushed at once.  Nothing a client sends ends the session except
``quit`` or the end of its input: a line that is not JSON, not an object, past the limits of
:mod:`.request_lines` (length, nesting, UTF-8, standard JSON), an unknown request, a bad key or an
illegal move each get an ``ok: false`` response with the same ``error`` fields as the command
line's JSON errors (``kind``, ``exit_status``, ``message``).  Responses are UTF-8 and standard
JSON whatever the request held.

The session holds one game at a time.  The first request must be ``hello`` (the version
handshake).  Games played here are never recorded in the player's statistics.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ..engine.deal import MAX_DEAL_NUMBER, Deal
from ..engine.errors import PyramideError, quoted
from ..engine.game import ActionRecord, Game
from ..engine.moves import RESIGN, UNDO, Move, refusal_error
from ..engine.rules import Rules
from ..engine.taps import TapAction, TapResult, TapSession, parse_input
from ..storage.game_document import Extras, game_state
from ..versions import JSON_SCHEMA_VERSION, PACKAGE_VERSION, SERVE_PROTOCOL_VERSION
from .request_lines import MAX_REQUEST_BYTES, MAX_REQUEST_DEPTH, RequestError, TooLong, decode_request, request_lines

__all__ = ["MAX_REQUEST_BYTES", "MAX_REQUEST_DEPTH", "REQUESTS", "RequestError", "ServeSession", "serve"]

ErrorDocument = Callable[[PyramideError], dict[str, Any]]
"""Turns one of the project's errors into ``{"kind", "exit_status", "message"}`` (the CLI's own)."""


# Keys each request may carry besides ``op`` and ``id`` (a typo is an error, not silently ignored).
REQUESTS: dict[str, tuple[str, ...]] = {
    "hello": ("protocol",),
    "new": ("code", "rules", "number", "level", "seed", "daily", "date", "file", "assist"),
    "state": ("reveal",),
    "legal": (),
    "play": ("input", "state"),
    "undo": ("state",),
    "resign": ("state",),
    "hint": ("max_states",),
    "solve": ("max_states", "optimal"),
    "save": ("file", "overwrite"),
    "quit": (),
}


class ServeSession:
    """The state of one ``serve`` session and the handling of its requests (no I/O here)."""

    def __init__(self, error_document: ErrorDocument) -> None:
        self.error_document = error_document
        self.greeted = False
        self.finished = False
        self.session: TapSession | None = None
        self.source: Path | None = None
        """The save file the game was read from, if any (``save`` writes back to it by default)."""
        self.base: Any = None
        """The :class:`~pyramide_cli.storage.save.SaveData` of that file: time, hints, level … are kept."""

    # -- lines --------------------------------------------------------------------------------
    def respond(self, line: str | bytes | TooLong) -> str:
        """The response line (without the newline) to one request line: standard JSON, and UTF-8
        text (should a response hold text that is not, it is written with ``\\u`` escapes)."""
        document = self.handle_line(line)
        response = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        try:
            response.encode("utf-8")
        except UnicodeEncodeError:
            response = json.dumps(document, separators=(",", ":"), allow_nan=False)
        return response

    def handle_line(self, line: str | bytes | TooLong) -> dict[str, Any]:
        if isinstance(line, str):
            line = line.encode("utf-8", "surrogatepass")  # a lone surrogate stays what it is: not UTF-8
        try:
            request = decode_request(line)
        except RequestError as error:
            return self._error(error, None, None)
        if not isinstance(request, dict):
            return self._error(RequestError(f"not a JSON object but {type(request).__name__}: {quoted(request)}"),
                               None, None)
        return self.handle(request)

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The response to one request (already decoded)."""
        ident = request.get("id")
        op = request.get("op")
        try:
            if not isinstance(op, str):
                raise RequestError(f"a request needs an \"op\": one of {', '.join(REQUESTS)}")
            if op not in REQUESTS:
                raise RequestError(f"unknown request {quoted(op)}: known requests are {', '.join(REQUESTS)}")
            unknown = [key for key in request if key not in ("op", "id", *REQUESTS[op])]
            if unknown:
                allowed = ", ".join(REQUESTS[op]) or "none"
                raise RequestError(f"unknown key {quoted(unknown[0])} in request {op!r} (its keys: {allowed})")
            if op != "hello" and op != "quit" and not self.greeted:
                raise RequestError(f'say hello first: {{"op": "hello", "protocol": {SERVE_PROTOCOL_VERSION}}}')
            body = getattr(self, f"_op_{op}")(request)
        except _Refused as refused:
            document = self._error(refused.error, ident, op)
            document["error"].update(refused.error_fields)
            document.update(refused.body)
            return document
        except PyramideError as error:
            return self._error(error, ident, op)
        except Exception as error:  # a bug: answered, so that the session (and the client's game) goes on
            if os.environ.get("PYRAMIDE_DEBUG", "") not in ("", "0"):
                raise
            document = self._error(RequestError(f"internal error: {type(error).__name__}: {error}"), ident, op)
            document["error"].update(kind="internal", exit_status=1)
            return document
        return {"id": ident, "op": op, "ok": True, **body} if ident is not None else {"op": op, "ok": True, **body}

    def _error(self, error: PyramideError, ident: Any, op: Any) -> dict[str, Any]:
        document: dict[str, Any] = {} if ident is None else {"id": ident}
        if isinstance(op, str):
            document["op"] = op
        document["ok"] = False
        document["error"] = self.error_document(error)
        return document

    # -- requests -----------------------------------------------------------------------------
    def _op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        wanted = request.get("protocol", SERVE_PROTOCOL_VERSION)
        if wanted != SERVE_PROTOCOL_VERSION:
            raise RequestError(f"protocol {wanted!r} is not spoken here: this server speaks protocol "
                               f"{SERVE_PROTOCOL_VERSION} (pyramide {PACKAGE_VERSION})")
        self.greeted = True
        return {"server": "pyramide", "version": PACKAGE_VERSION, "protocol": SERVE_PROTOCOL_VERSION,
                "schema": JSON_SCHEMA_VERSION, "requests": list(REQUESTS)}

    def _op_quit(self, request: dict[str, Any]) -> dict[str, Any]:
        self.finished = True
        return {"bye": True}

    def _op_new(self, request: dict[str, Any]) -> dict[str, Any]:
        sources = [key for key in ("code", "number", "level", "daily", "file") if request.get(key) not in (None, False)]
        if len(sources) > 1:
            raise RequestError(f"new: give one of code, number, level, daily or file, not {' and '.join(sources)}")
        assist = _flag(request, "assist", True)
        rules_text = _text(request, "rules")
        rules = None if rules_text is None else Rules.parse(rules_text)
        for key, needs in (("seed", "level"), ("date", "daily")):
            if request.get(key) is not None and needs not in sources:
                raise RequestError(f"new: {key!r} goes with {needs!r}")
        extras: dict[str, Any] = {}
        source = sources[0] if sources else None
        if source == "file":
            if rules is not None:
                raise RequestError("new: a save file has its own rules; leave 'rules' out")
            return self._load(_file_name(request, "file") or "")
        if source == "code":
            deal = Deal.from_code(_text(request, "code") or "")
            deal = deal.with_rules(rules) if rules is not None else deal
        elif source == "number":
            deal = Deal.from_number(_whole(request, "number", MAX_DEAL_NUMBER), rules or Rules())
        elif source in ("level", "daily"):
            deal, extras = _level_deal(request, source, rules or Rules())
        else:
            deal = Deal.from_number(secrets.randbelow(MAX_DEAL_NUMBER + 1), rules or Rules())
        from ..storage.save import SaveData

        self.session = TapSession(Game(deal), assist=assist)
        self.source = None
        self.base = SaveData.new(deal, assist=assist, level=extras.get("level"), daily=extras.get("daily"))
        return {"state": self._state()}

    def _load(self, file: str) -> dict[str, Any]:
        from ..storage.save import load_game

        saved = load_game(file)
        self.session, self.source, self.base = saved.session, saved.path, saved.data
        return {"file": str(saved.path), "state": self._state()}

    def _op_state(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"state": self._state(reveal=_flag(request, "reveal", False))}

    def _op_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        game = self._current()
        return {"moves": [str(move) for move in game.legal_moves], "undo": game.can_undo,
                "status": game.outcome.value}

    def _op_play(self, request: dict[str, Any]) -> dict[str, Any]:
        session = self._session()
        game = session.game
        words = request.get("input")
        if isinstance(words, str):
            words = [words]
        if not isinstance(words, list) or not words or not all(isinstance(word, str) for word in words):
            raise RequestError("play: 'input' must be a tap or move (\"KD\", \"10C+3S\", \"draw\", \"7C\", \"stock\") "
                               "or a list of them")
        for word in words:
            parse_input(word)  # unreadable text: nothing is played
        steps = []
        for word in words:
            score = game.score
            result = session.play(word)
            if not result.ok:
                return self._refused(word, result, steps, request)
            steps.append(_step(word, result, session, score))
        return {"steps": steps, **self._summary(request)}

    def _refused(self, word: str, result: TapResult, steps: list[dict[str, Any]],
                 request: dict[str, Any]) -> dict[str, Any]:
        """A refusal is an error response that still tells what was played before it."""
        assert result.refusal is not None
        from ..engine.errors import IllegalMoveError

        message = f"{word}: {result.refusal.message}"
        error = IllegalMoveError(message, result.refusal)
        raise _Refused(error, {"refusal": result.refusal.value, "input": word},
                       {"steps": steps, **self._summary(request)})

    def _op_undo(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"record": self._game_action(UNDO).to_dict(), **self._summary(request)}

    def _op_resign(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"record": self._game_action(RESIGN).to_dict(), **self._summary(request)}

    def _game_action(self, action: Move) -> ActionRecord:
        """``undo`` or ``resign`` through the session (which clears the selection); raises when refused."""
        result = self._session().play(str(action))
        if result.record is None:
            assert result.refusal is not None
            raise refusal_error(action, result.refusal)
        return result.record

    def _op_hint(self, request: dict[str, Any]) -> dict[str, Any]:
        from ..analysis.hint import HINT_LIMITS, hint_for
        from ..solver import Limits

        budget = _budget(request)
        limits = Limits(max_states=HINT_LIMITS.max_states if budget is None else budget, timeout=None)
        session = self._session()
        return {"hint": hint_for(session.game, limits, selected=session.selected).to_dict()}

    def _op_solve(self, request: dict[str, Any]) -> dict[str, Any]:
        from ..solver import DEFAULT_LIMITS, Limits, solve

        budget = _budget(request)
        limits = Limits(max_states=DEFAULT_LIMITS.max_states if budget is None else budget, timeout=None)
        result = solve(self._current(), optimal=_flag(request, "optimal", False), limits=limits)
        return {"result": result.to_dict()}

    def _op_save(self, request: dict[str, Any]) -> dict[str, Any]:
        from ..storage.files import SaveLock, check_output
        from ..storage.save import SaveData, read_save, write_save

        session = self._session()
        game = session.game
        file = _file_name(request, "file")
        if file is None and self.source is None:
            raise RequestError("save: give a 'file' (this game was not read from one)")
        spelled = str(self.source) if file is None else file  # as given: Path("sub/") would drop the '/'
        own = self.source is not None and os.path.realpath(spelled) == os.path.realpath(self.source)
        force = _flag(request, "overwrite", False) or own  # the game's own file is written back
        # The target is checked before its lock is taken (a refused name gets no X.lock beside it) and again
        # under the lock, where nothing can change it before the write.
        target = check_output(spelled, force, how_to_force='"overwrite": true')
        with SaveLock(target):
            check_output(spelled, force, how_to_force='"overwrite": true')
            base = self.base
            if (target.exists() or target.is_symlink()) and not own:
                previous = read_save(target)
                base = previous if previous.deal == game.deal.code else base
            data = SaveData.from_game(game, base, selected=session.selected, assist=session.assist)
            write_save(target, data)
        self.source, self.base = target, data
        return {"file": str(target), "written": True}

    # -- helpers ------------------------------------------------------------------------------
    def _session(self) -> TapSession:
        if self.session is None:
            raise RequestError("no game yet: start one with {\"op\": \"new\"}")
        return self.session

    def _current(self) -> Game:
        return self._session().game

    def _state(self, reveal: bool = False) -> dict[str, Any]:
        base, session = self.base, self._session()
        extras = Extras(selected=session.selected) if base is None else Extras(base.time_played, base.level,
                                                                               base.daily, session.selected)
        return game_state(session.game, extras, reveal=reveal)

    def _summary(self, request: dict[str, Any]) -> dict[str, Any]:
        """What a bot needs after an action; the whole state when the request says ``"state": true``."""
        game = self._current()
        termination = game.termination
        summary = {
            "score": game.score, "moves": game.move_count, "status": game.outcome.value,
            "termination": None if termination is None else termination.value,
            "legal_moves": [str(move) for move in game.legal_moves], "undo": game.can_undo,
        }
        if _flag(request, "state", False):
            summary["state"] = self._state()
        return summary


class _Refused(PyramideError):
    """Internal: a refused play, carrying the fields of its error response."""

    def __init__(self, error: PyramideError, error_fields: dict[str, Any], body: dict[str, Any]) -> None:
        super().__init__(str(error))
        self.error = error
        self.error_fields = error_fields
        self.body = body


def _step(word: str, result: TapResult, session: TapSession, score_before: int) -> dict[str, Any]:
    step: dict[str, Any] = {"input": word, "action": result.action.value}
    if result.action is TapAction.MOVED and result.record is not None:
        step.update(result.record.to_dict())
    else:
        step.update({"move": None, "points": 0, "score": score_before})
    step["selected"] = None if session.selected is None else str(session.selected)
    return step


def _flag(request: dict[str, Any], key: str, default: bool) -> bool:
    value = request.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RequestError(f"{key!r} must be true or false, not {value!r}")
    return value


def _text(request: dict[str, Any], key: str) -> str | None:
    value = request.get(key)
    if value is not None and not isinstance(value, str):
        raise RequestError(f"{key!r} must be text, not {value!r}")
    return value


def _file_name(request: dict[str, Any], key: str) -> str | None:
    name = _text(request, key)
    if name is not None and "\x00" in name:
        raise RequestError(f"{key!r}: a file name cannot hold the NUL character (\\x00): {quoted(name)}")
    return name


def _whole(request: dict[str, Any], key: str, maximum: int) -> int:
    value = request.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise RequestError(f"{key!r} must be a whole number from 0 to {maximum}, not {value!r}")
    return value


def _budget(request: dict[str, Any]) -> int | None:
    if request.get("max_states") is None:
        return None
    return max(1, _whole(request, "max_states", 10**12))


def _level_deal(request: dict[str, Any], source: str, rules: Rules) -> tuple[Deal, dict[str, Any]]:
    """A level deal (``level``, ``seed``) or the daily deal (``daily``, ``date``), as ``deal --level/--daily``."""
    import datetime

    from ..analysis.grade import (
        DAILY_LEVEL,
        GradeError,
        daily_deal,
        find_level_deal,
        parse_date,
        parse_level,
        random_start,
        seed_start,
    )

    try:
        if source == "daily":
            if request.get("daily") is not True:
                raise RequestError("'daily' must be true")
            date_text = _text(request, "date")
            date = datetime.date.today() if date_text is None else parse_date(date_text)
            found = daily_deal(date, rules)
            return found.deal, {"level": DAILY_LEVEL, "daily": found.daily}
        level = parse_level(_text(request, "level") or "")
        seed = request.get("seed")
        start = random_start() if seed is None else seed_start(_whole(request, "seed", 2**64 - 1))
        return find_level_deal(level, rules, start).deal, {"level": level}
    except GradeError as error:
        raise RequestError(str(error)) from None


def serve(requests: IO[bytes], output: IO[bytes], error_document: ErrorDocument) -> int:
    """Answer every request line of ``requests`` on ``output`` (both bytes: the protocol is UTF-8
    whatever the locale); return when ``quit`` comes or the input ends."""
    session = ServeSession(error_document)
    for line in request_lines(requests):
        if not isinstance(line, TooLong) and not line.strip():
            continue
        output.write(session.respond(line).encode("utf-8") + b"\n")
        output.flush()
        if session.finished:
            break
    return 0
