"""The YAML save file (format 2; format 1 still read): validate strictly, migrate, replay, write atomically.

A save holds everything needed to reproduce a game: the deal code and the history in the
canonical move notation (undos and a resignation included, so the move counter replays).  Score,
move counter, status and termination are *recorded* too, so a reader (or a CI job) sees them at a
glance and so a file that does not agree with its own history is caught: on load the history is
replayed with the engine and any disagreement is a bad file naming the field.  ``replay`` reports
the first divergence instead.

Format 2, keys in this order (``docs/cli.md`` is the reference)::

    pyramide-save: 2          # format version, always first
    deal: PY1-N-AAAAAAS       # the deal code: authoritative
    rules: N                  # human form of the code's rules (must agree with the code)
    status: lost              # playing | won | lost
    termination: dead         # null while playing | cleared | no-moves | dead | resigned (optional)
    score: 20
    moves: 2                  # the move counter (R19): removals, draws, recycles
    time_played: 42.5         # seconds, optional (default 0)
    hints: 0                  # hints asked for, optional (default 0)
    selected: null            # a selected card (R13), optional
    assist: true              # error help (R15), optional (default true)
    level: medium             # optional: easy | medium | hard | expert (issue 5)
    daily: '2026-11-29'       # optional: the date of a daily deal (issue 5)
    history: [KD, 10C+3S]     # canonical notation, undos and resign included

Format 1 (no ``termination``/``hints``, no ``resign``) was written before games could end dead: its
history is replayed by that format's end rule (a dead position still allowed draws and recycles)
and its ``status`` is checked against that rule; the game is then reported by today's rule, so a
format-1 game stuck at a dead position reads as ``lost``/``dead``.  It is written back as format 2
only when its history is also valid by today's rule (see :class:`SavedGame`).

Unknown keys are errors; files of a newer format are refused; older formats are migrated by
:data:`MIGRATIONS`.  YAML is read with a safe loader only, and duplicate keys are errors (plain
PyYAML would silently keep the last one).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from ..engine.cards import Card, parse_card
from ..engine.deal import Deal
from ..engine.errors import (
    CardError, DealCodeError, IllegalMoveError, MoveSyntaxError, PyramideError, RulesError, escaped, quoted,
    quoted_name,
)
from ..engine.game import Game
from ..engine.level import Level
from ..engine.moves import Move
from ..engine.position import Outcome, Termination
from ..engine.rules import Rules
from ..engine.text import message_of, plural, text
from ..versions import SAVE_FORMAT_VERSION
from .files import MAX_FILE_BYTES, FileAccessError, FileContentError, atomic_write, read_text

FORMAT_KEY = "pyramide-save"
FORMAT_VERSION = SAVE_FORMAT_VERSION
LAYOUT_KEY = "pyramide-layout"
EnumType = TypeVar("EnumType", bound=Enum)
REQUIRED_KEYS = (FORMAT_KEY, "deal", "status", "score", "moves", "history")
KNOWN_KEYS = (
    FORMAT_KEY, "deal", "rules", "status", "termination", "score", "moves", "time_played", "hints", "selected",
    "assist", "level", "daily", "history",
)
FORMAT_2_KEYS = ("termination", "hints")
"""Keys a format-1 file cannot have."""
HEADER = (
    "# Pyramide save file: `pyramide play FILE` to go on, `pyramide replay FILE` to check it.\n"
    "# The deal code and the history decide the game; score, moves and status must agree with them.\n"
)

def _from_format_1(document: dict[str, Any]) -> dict[str, Any]:
    """Format 1 → 2: the keys are the same (``termination`` and ``hints`` are optional); what
    changes is the end rule the history is replayed by, which :func:`parse_save` remembers."""
    for key in FORMAT_2_KEYS:
        if key in document:
            raise SaveFileError(text("{key}: a format-1 save has no {key!r} key (write pyramide-save: 2)", key=key),
                                key)
    return {**document, FORMAT_KEY: 2}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_format_1}
"""``MIGRATIONS[v]`` turns a format-``v`` document into a format-``v+1`` one."""


class SaveFileError(PyramideError, ValueError):
    """A save (or layout) file whose content is wrong; ``field`` names the culprit when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


# -- YAML --------------------------------------------------------------------------------------
MAX_YAML_DEPTH = 16
"""How deeply lists and mappings may nest in a save or layout file (they need 3 levels)."""
MAX_NUMBER_CHARACTERS = 40
"""The longest number a file may spell (``0x`` and 20,000 ``f`` would not even print), whole or not."""
MAX_COUNT = 10**15
"""The largest count a save may hold (``hints``): far beyond any game, and a counted hint more still
fits the statistics database's 64-bit integers."""
MAX_HISTORY = 100_000
"""The most actions a save's history holds: a file at this ceiling loads, replays and is rewritten
in about a second; a longer history is refused on reading (exit 4) and never written (exit 5)."""
_LOADER: Any = None


def _strict_loader() -> Any:
    """A safe YAML loader (on the C parser when available) for files that need none of YAML's extras.

    Refused before anything is built from them, with the line and column: anchors and aliases (a
    "billion laughs" file expands a few lines into billions of values; our files never need them),
    nesting deeper than :data:`MAX_YAML_DEPTH`, numbers longer than :data:`MAX_NUMBER_CHARACTERS`,
    duplicate keys (plain PyYAML would silently keep the last one) and keys that are lists or mappings.
    """
    global _LOADER
    if _LOADER is None:
        import yaml
        from yaml.composer import Composer

        class RefusingComposer(Composer):
            """Builds the node tree from the parser's events, refusing anchors, aliases and deep nesting."""

            _depth = 0

            def compose_node(self, parent: Any, index: Any) -> Any:
                event = self.peek_event()
                if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                    raise _Refused(text("anchors and aliases (&name, *name) are not allowed in pyramide files"),
                                   event.start_mark)
                if self._depth >= MAX_YAML_DEPTH:
                    raise _Refused(text("lists and mappings nested more than {depth} levels deep",
                                        depth=MAX_YAML_DEPTH), event.start_mark)
                self._depth += 1
                try:
                    return super().compose_node(parent, index)
                finally:
                    self._depth -= 1

        if hasattr(yaml, "CSafeLoader"):
            class StrictSafeLoader(RefusingComposer, yaml.CSafeLoader):  # type: ignore[misc]
                def __init__(self, stream: Any) -> None:
                    yaml.CSafeLoader.__init__(self, stream)
                    Composer.__init__(self)
        else:  # pragma: no cover - PyYAML built without libyaml
            class StrictSafeLoader(RefusingComposer, yaml.SafeLoader):  # type: ignore[misc, no-redef]
                pass

        def construct_mapping(loader: Any, node: Any, deep: bool = False) -> Any:
            loader.flatten_mapping(node)
            seen: set[Any] = set()
            for key_node, _ in node.value:
                key = loader.construct_object(key_node, deep=True)
                try:
                    duplicate = key in seen
                    seen.add(key)
                except TypeError:
                    raise _Refused(text("a key that is a list or mapping"), key_node.start_mark) from None
                if duplicate:
                    raise _Refused(text("duplicate key {key}", key=quoted(key)), key_node.start_mark)
            return yaml.SafeLoader.construct_mapping(loader, node, deep=deep)

        def construct_timestamp_as_text(loader: Any, node: Any) -> str:
            # Dates stay text (``daily`` is checked by us): YAML's own constructor raises plain
            # ValueErrors on 2026-13-45 and turns times into datetimes we never want.
            return str(loader.construct_scalar(node))

        def bounded(construct: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
            def construct_bounded(loader: Any, node: Any) -> Any:
                digits = loader.construct_scalar(node)
                if len(digits) > MAX_NUMBER_CHARACTERS:
                    raise _Refused(text("a number of {count:,} characters (at most {most})", count=len(digits),
                                        most=MAX_NUMBER_CHARACTERS), node.start_mark)
                return construct(loader, node)

            return construct_bounded

        StrictSafeLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
        StrictSafeLoader.add_constructor("tag:yaml.org,2002:timestamp", construct_timestamp_as_text)
        StrictSafeLoader.add_constructor("tag:yaml.org,2002:int", bounded(yaml.SafeLoader.construct_yaml_int))
        StrictSafeLoader.add_constructor("tag:yaml.org,2002:float", bounded(yaml.SafeLoader.construct_yaml_float))
        _LOADER = StrictSafeLoader
    return _LOADER


class _Refused(Exception):
    """Something our files never hold, found at ``mark`` (a YAML mark: line and column)."""

    def __init__(self, problem: str, mark: Any) -> None:
        super().__init__(problem)
        self.problem, self.mark = problem, mark


def _where(mark: Any) -> str:
    if mark is None:
        return text("somewhere")
    return text("line {line}, column {column}", line=mark.line + 1, column=mark.column + 1)


def load_yaml(content: str, source: str) -> Any:
    """Parse YAML text safely; :class:`SaveFileError` (one line, quoting the line and column) when it
    is not YAML or holds what our files never do (see :func:`_strict_loader`)."""
    import yaml

    try:
        return yaml.load(content, Loader=_strict_loader())  # noqa: S506 - a safe loader subclass
    except _Refused as error:
        raise SaveFileError(text("{source}: {problem} (at {where})", source=source, problem=error.problem,
                                 where=_where(error.mark))) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = escaped(" ".join(str(error.problem or error.context or "malformed").split()))
        raise SaveFileError(text("{source}: not valid YAML at {where}: {problem}", source=source, where=_where(mark),
                                 problem=problem)) from None
    except yaml.reader.ReaderError as error:
        character = quoted(chr(error.character)) if isinstance(error.character, int) else quoted(error.character)
        raise SaveFileError(text("{source}: not valid YAML: {reason} ({character} at character {position:,})",
                                 source=source, reason=escaped(str(error.reason)), character=character,
                                 position=error.position + 1)) from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError) as error:
        raise SaveFileError(text("{source}: not valid YAML: {reason}", source=source,
                                 reason=quoted(str(error), 200))) from None


_YAML_WIDTH = 96
"""The column past which the YAML of our files breaks a line."""


def dump_yaml(document: dict[str, Any], block: bool = False) -> str:
    """YAML text of ``document``: lists of scalars in the flow style (``[KD, draw]``), or with ``block``
    a mapping of scalars alone in the block style (one ``key: value`` a line)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(document, Dumper=dumper, sort_keys=False, default_flow_style=False if block else None,
                     allow_unicode=True, width=_YAML_WIDTH)


_last_history: tuple[tuple[Move, ...], str, int] = ((), "history: [", 10)
"""The last history :func:`history_yaml` wrote: the moves, their text without the closing ``]``, its last column."""


def history_yaml(history: tuple[Move, ...]) -> str:
    """``history: [KD, 10C+3S, …]`` as :func:`dump_yaml` writes it as the last key of a file (the flow
    style, a line broken with a two-space indent once past column 96), character for character.

    A history that starts with the last one written is extended from it: a session rewrites its
    save after every action, and writing the whole history again each time made each action cost
    as much as the game so far.  (Comparing the tuples is cheap: they hold the same move objects.)
    """
    global _last_history
    known_moves, known_text, column = _last_history
    known = len(known_moves)
    if len(history) >= known and history[:known] == known_moves:
        parts, start = [known_text], known
    else:
        parts, start, column = ["history: ["], 0, 10
    for index in range(start, len(history)):
        notation = str(history[index])
        if index:
            parts.append(",")
            column += 1
        if column > _YAML_WIDTH:
            parts.append("\n  ")
            column = 2
        elif index:
            parts.append(" ")
            column += 1
        parts.append(notation)
        column += len(notation)
    written = "".join(parts)
    _last_history = (history, written, column)
    return written + "]\n"


def leading_comments(text: str) -> str:
    """The block of ``#`` lines at the top of a file, blank lines among them included (kept when the
    file is rewritten); a byte-order mark and blank lines before them are not kept."""
    lines = []
    for line in text.removeprefix("\ufeff").lstrip(" \t\r\n").splitlines(keepends=True):
        if not line.startswith("#") and line.strip():
            break
        lines.append(line if line.endswith("\n") else line + "\n")
    while lines and not lines[-1].strip():  # blank lines after the comments are the YAML's, not the header's
        lines.pop()
    return "".join(lines)


# -- the document ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SaveData:
    """The content of a save file, validated but not yet replayed.  ``deal`` is the canonical code.

    ``format`` is the save format the data is written in: 2, or 1 for a format-1 file read as it
    is (its history is replayed by format 1's end rule, see the module docstring).
    """

    deal: str
    history: tuple[Move, ...]
    score: int
    moves: int
    status: Outcome
    rules: str = "N"
    time_played: float = 0.0
    selected: Card | None = None
    assist: bool = True
    level: Level | None = None
    daily: str | None = None
    header: str = field(default=HEADER, compare=False)
    termination: Termination | None = None
    hints: int = 0
    format: int = FORMAT_VERSION
    termination_given: bool = field(default=True, compare=False)
    """False when a format-2 file leaves ``termination`` out (then it is not checked)."""

    @classmethod
    def new(cls, deal: Deal, assist: bool = True, level: Level | None = None, daily: str | None = None) -> SaveData:
        """The save of a game not yet started."""
        return cls.from_game(Game(deal, assist), base=None, level=level, daily=daily)

    @classmethod
    def from_game(
        cls, game: Game, base: SaveData | None, time_played: float | None = None,
        level: Level | None = None, daily: str | None = None,
    ) -> SaveData:
        """The save of ``game``; settings not held by the game (time, level, hints, …) come from ``base``."""
        if game.start != game.start.start(game.deal):
            raise ValueError("only a game played from the start of its deal can be saved (its history is the record)")
        previous = base or cls(deal="", history=(), score=0, moves=0, status=Outcome.PLAYING,
                               assist=game.assist, level=level, daily=daily)
        if previous.format >= 2 and game.played_by_format_1 and Game.walk(game.deal, game.history).refused:
            previous = replace(previous, format=1)  # its history draws on after a dead position: format 1 only
        if previous.format == 1:
            status, termination = format_1_status(game), None
        else:
            status, termination = game.outcome, game.termination
        return replace(
            previous,
            deal=game.deal.code,
            rules=game.deal.rules.name,
            history=tuple(game.history),
            score=game.score,
            moves=game.move_count,
            status=status,
            termination=termination,
            selected=game.selected,
            time_played=previous.time_played if time_played is None else round(time_played, 1),
        )

    def to_text(self) -> str:
        """The file's text: the header comments, then the keys in the documented order."""
        document: dict[str, Any] = {
            FORMAT_KEY: self.format,
            "deal": self.deal,
            "rules": self.rules,
            "status": self.status.value,
        }
        if self.format >= 2:
            document["termination"] = None if self.termination is None else self.termination.value
        document.update({
            "score": self.score,
            "moves": self.moves,
            "time_played": float(self.time_played),  # as read, or a rounded sum (from_game): never rounded again
        })
        if self.format >= 2:
            document["hints"] = self.hints
        document.update({
            "selected": None if self.selected is None else str(self.selected),
            "assist": self.assist,
        })
        if self.level is not None:
            document["level"] = self.level.value
        if self.daily is not None:
            document["daily"] = self.daily
        return self.header + dump_yaml(document, block=True) + history_yaml(self.history)  # history: the last key

    def deal_object(self) -> Deal:
        return Deal.from_code(self.deal)

    def new_game(self) -> Game:
        """The game at the start of the deal, played by the end rule of this data's format."""
        return Game(self.deal_object(), self.assist, dead_ends=self.format >= 2)


def format_1_status(game: Game) -> Outcome:
    """The status format 1 records: by its end rule a dead position was still ``playing``."""
    if game.termination is Termination.RESIGNED:
        return Outcome.LOST
    position = game.position
    if position.is_won:
        return Outcome.WON
    return Outcome.PLAYING if position.legal_moves(dead_ends=False) else Outcome.LOST


def parse_save(content: str, source: str | None = None) -> SaveData:
    """Read and validate a save file's text (no replay yet); :class:`SaveFileError` names what is wrong."""
    source = text("save file") if source is None else source
    if not content.strip():
        raise SaveFileError(text("{source}: the file is empty", source=source))
    document = load_yaml(content, source)
    if not isinstance(document, dict):
        raise SaveFileError(text("{source}: not a pyramide save file (expected a mapping of keys, found {kind})",
                                 source=source, kind=_kind(document)))
    if FORMAT_KEY not in document:
        if LAYOUT_KEY in document:
            raise SaveFileError(text(
                "{source}: this is a layout file, not a save; start a game from it with "
                "`pyramide deal --from-layout FILE`", source=source), FORMAT_KEY)
        raise SaveFileError(text("{source}: not a pyramide save file (no {key!r} format version)", source=source,
                                 key=FORMAT_KEY), FORMAT_KEY)
    version = document[FORMAT_KEY]
    _check_history_length(document.get("history"), source)
    document = migrate(document, source)
    data = _validated(document, source, leading_comments(content))
    return replace(data, format=1) if version == 1 else data


def _check_history_length(history: object, source: str) -> None:
    """Refuse a history over :data:`MAX_HISTORY` before any of it is read or replayed."""
    if isinstance(history, list) and len(history) > MAX_HISTORY:
        raise SaveFileError(text("{source}: history: {count:,} actions, more than the {most:,} a save can hold",
                                 source=source, count=len(history), most=MAX_HISTORY), "history")


def migrate(document: dict[str, Any], source: str) -> dict[str, Any]:
    """Bring a document of an older format up to :data:`FORMAT_VERSION`; refuse newer ones."""
    version = document[FORMAT_KEY]
    if isinstance(version, bool) or not isinstance(version, int):
        raise SaveFileError(text("{source}: {key}: the format version must be a whole number, not {value}",
                                 source=source, key=FORMAT_KEY, value=quoted(version)), FORMAT_KEY)
    if version > FORMAT_VERSION:
        raise SaveFileError(text(
            "{source}: written in save format {version} by a newer pyramide; this one reads format "
            "{known} and older: upgrade pyramide", source=source, version=version, known=FORMAT_VERSION), FORMAT_KEY)
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveFileError(text("{source}: unknown save format {version} (known: 1 to {known})", source=source,
                                     version=version, known=FORMAT_VERSION), FORMAT_KEY)
        try:
            document = step(document)
        except SaveFileError as error:
            raise SaveFileError(text("{source}: {reason}", source=source, reason=message_of(error)),
                                error.field) from None
        version = document[FORMAT_KEY]
    return document


def _kind(value: object) -> str:
    """What a YAML value is, for a message: ``a list``, ``text``, ``a number``, ``nothing`` (else its type)."""
    kind = type(value)
    if kind is list:
        return text("a list")
    if kind is str:
        return text("text")
    if kind in (int, float):
        return text("a number")
    if value is None:
        return text("nothing")
    return kind.__name__


def _whole_number(document: dict[str, Any], key: str, source: str) -> int:
    value = document[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SaveFileError(text("{source}: {key}: expected a whole number 0 or more, found {value}", source=source,
                                 key=key, value=quoted(value)), key)
    return value


def _parsed_text(value: object, key: str, source: str, parse: Callable[[str], Any],
                 errors: type[Exception], expected: str) -> Any:
    """``parse(value)`` for a text field; a :class:`SaveFileError` naming ``key`` otherwise."""
    if not isinstance(value, str):
        raise SaveFileError(text("{source}: {key}: expected {expected}, found {value}", source=source, key=key,
                                 expected=expected, value=quoted(value)), key)
    try:
        return parse(value)
    except errors as error:
        raise SaveFileError(text("{source}: {key}: {reason}", source=source, key=key, reason=message_of(error)),
                            key) from None


def _validated(document: dict[str, Any], source: str, header: str) -> SaveData:
    unknown = [str(key) for key in document if key not in KNOWN_KEYS]
    if unknown:
        raise SaveFileError(plural(
            "{source}: unknown key {keys} (a format-{format} save has {known})",
            "{source}: unknown keys {keys} (a format-{format} save has {known})", len(unknown), source=source,
            keys=", ".join(map(repr, unknown)), format=FORMAT_VERSION, known=", ".join(KNOWN_KEYS)), unknown[0])
    missing = [key for key in REQUIRED_KEYS if key not in document]
    if missing:
        raise SaveFileError(plural("{source}: missing key {keys}", "{source}: missing keys {keys}", len(missing),
                                   source=source, keys=", ".join(map(repr, missing))), missing[0])

    deal = _parsed_text(document["deal"], "deal", source, Deal.from_code, DealCodeError,
                        text("a deal code such as PY1-N-AAAAAAS"))
    rules_text = document.get("rules", deal.rules.name)
    rules = _parsed_text(rules_text, "rules", source, Rules.parse, RulesError, text("rules such as N or T+strict"))
    if rules != deal.rules:
        raise SaveFileError(text(
            "{source}: rules: the file says {rules} but deal {code} is played under "
            "{code_rules!r} (the code decides; fix or remove the rules line)", source=source,
            rules=quoted(rules_text), code=deal.code, code_rules=deal.rules.name), "rules")

    history_value = document["history"]
    if history_value is None:
        history_value = []
    if not isinstance(history_value, list):
        raise SaveFileError(text("{source}: history: expected a list of moves such as [KD, 10C+3S, draw], found {kind}",
                                 source=source, kind=_kind(history_value)), "history")
    history = []
    for number, entry in enumerate(history_value, start=1):
        if not isinstance(entry, str):
            raise SaveFileError(text("{source}: history: action {number} is {entry}, not a move", source=source,
                                     number=number, entry=quoted(entry)), "history")
        try:
            history.append(Move.parse(entry))
        except MoveSyntaxError as error:
            raise SaveFileError(text("{source}: history: action {number}: {reason}", source=source, number=number,
                                     reason=message_of(error)), "history") from None

    status = _enum_value(document["status"], Outcome, "status", source)
    termination_value = document.get("termination")
    termination = None if termination_value is None else _enum_value(
        termination_value, Termination, "termination", source, null_meaning=text("null (still playing)"))
    hints = _whole_number(document, "hints", source) if "hints" in document else 0
    if hints > MAX_COUNT:
        raise SaveFileError(text("{source}: hints: {value} is more than the {most:,} a save can count", source=source,
                                 value=quoted(hints), most=MAX_COUNT), "hints")

    time_played = document.get("time_played", 0.0)
    if (isinstance(time_played, bool) or not isinstance(time_played, (int, float))
            or not math.isfinite(time_played) or time_played < 0):
        raise SaveFileError(text("{source}: time_played: expected seconds (a number 0 or more), found {value}",
                                 source=source, value=quoted(time_played)), "time_played")

    selected_value = document.get("selected")
    selected = None if selected_value is None else _parsed_text(
        selected_value, "selected", source, parse_card, CardError, text("a card name or null"))

    assist = document.get("assist", True)
    if not isinstance(assist, bool):
        raise SaveFileError(text("{source}: assist: expected true or false, found {value}", source=source,
                                 value=quoted(assist)), "assist")

    level_value = document.get("level")
    level = None if level_value is None else _enum_value(level_value, Level, "level", source)

    daily = _daily_date(document.get("daily"), source)
    return SaveData(
        deal=deal.code, history=tuple(history), score=_whole_number(document, "score", source),
        moves=_whole_number(document, "moves", source), status=status, rules=deal.rules.name,
        time_played=float(time_played), selected=selected, assist=assist, level=level, daily=daily,
        header=header, termination=termination, hints=hints, termination_given="termination" in document,
    )


def _enum_value(value: object, kind: type[EnumType], key: str, source: str,
                null_meaning: str | None = None) -> EnumType:
    """The member of ``kind`` whose value is ``value`` (exactly: no case folding, no numbers)."""
    for member in kind:
        if isinstance(value, str) and member.value == value:
            return member
    expected = ", ".join(member.value for member in kind)
    if null_meaning is not None:
        raise SaveFileError(text("{source}: {key}: expected {null} or one of {expected}, found {value}", source=source,
                                 key=key, null=null_meaning, expected=expected, value=quoted(value)), key)
    raise SaveFileError(text("{source}: {key}: expected one of {expected}, found {value}", source=source, key=key,
                             expected=expected, value=quoted(value)), key)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _daily_date(value: object, source: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and _DATE.fullmatch(value):
        import datetime

        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise SaveFileError(text("{source}: daily: expected a date YYYY-MM-DD, found {value}", source=source,
                             value=quoted(value)), "daily")


# -- replaying ---------------------------------------------------------------------------------
# A NamedTuple rather than a dataclass: it is built ~7x faster, and every command pays for it at start-up.
class Divergence(NamedTuple):
    """Where a file and its own history disagree (``action`` is 1-based for an illegal history entry)."""

    field: str
    recorded: object
    replayed: object
    message: str
    action: int | None = None


# A NamedTuple rather than a dataclass: it is built ~7x faster, and every command pays for it at start-up.
class Replay(NamedTuple):
    """The game rebuilt from a save's history, and the first divergence found (``None`` if it agrees).

    ``format`` is the file's save format; for format 1, ``upgradable`` says whether its history is
    also valid by today's end rule (then it may be written back as format 2).  The game is always
    returned playing by today's rule.
    """

    game: Game
    divergences: list[Divergence]
    format: int = FORMAT_VERSION
    upgradable: bool = True

    @property
    def first(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None


def replay(data: SaveData) -> Replay:
    """Replay the history from the deal code; compare the recorded fields with the result.

    An illegal history entry stops the replay there (the game is the one before it).
    """
    walked = Game.walk(data.deal_object(), data.history, data.assist, dead_ends=data.format >= 2)
    game = walked.game
    if walked.refused is not None:
        game.use_dead_end_rule()
        number = walked.played + 1
        move = data.history[walked.played]
        return Replay(game, [Divergence(
            "history", str(move), None,
            text("history: action {number} ({move}) cannot be played after the {before} before it: {reason}",
                 number=number, move=str(move), before=number - 1, reason=walked.refused.refusal.reason),
            number)], data.format, False)
    found = []
    recorded_fields: list[tuple[str, object, object]] = [
        ("score", data.score, game.score),
        ("moves", data.moves, game.move_count),
        ("status", data.status.value, game.outcome.value),
    ]
    if data.format >= 2 and data.termination_given:
        recorded_fields.append(("termination", _value(data.termination), _value(game.termination)))
    for name, recorded, replayed in recorded_fields:
        if recorded != replayed:
            found.append(Divergence(name, recorded, replayed,
                                    text("{field}: the file says {recorded} but its history gives {replayed}",
                                         field=name, recorded=_shown(recorded), replayed=_shown(replayed))))
    if data.selected is not None:
        if game.is_over or not game.position.is_playable(data.selected):
            found.append(Divergence("selected", str(data.selected), None,
                                    text("selected: {card} is not a card in play after the history",
                                         card=str(data.selected))))
        else:
            game.selected = data.selected
    upgradable = True
    if not game.dead_ends:
        try:
            Game.replay(game.deal, data.history)
        except IllegalMoveError:
            upgradable = False
        game.use_dead_end_rule()
        if game.is_over:
            game.selected = None
    return Replay(game, found, data.format, upgradable)


def _shown(value: object) -> str:
    return "null" if value is None else str(value)


def _value(member: Enum | None) -> str | None:
    return None if member is None else member.value


def game_from_save(data: SaveData, source: str | None = None) -> Game:
    """The game a save describes; :class:`SaveFileError` naming the field when the file disagrees with itself."""
    result = replay(data)
    if result.first is not None:
        raise SaveFileError(text("{source}: {reason}", source=text("save file") if source is None else source,
                                 reason=result.first.message), result.first.field)
    return result.game


# -- files -------------------------------------------------------------------------------------
# A NamedTuple rather than a dataclass: it is built ~7x faster, and every command pays for it at start-up.
class SavedGame(NamedTuple):
    """A save file read from disk: its path, its exact text, its data and the replayed game."""

    path: Path
    text: str
    data: SaveData
    game: Game

    def updated(self, game: Game, time_added: float = 0.0) -> SaveData:
        """The save of ``game``; ``time_played`` keeps the file's exact value unless time was added, so a
        batch that changes nothing gives data equal to the file's (and the file is not rewritten)."""
        if not time_added:
            return SaveData.from_game(game, self.data)
        return SaveData.from_game(game, self.data, self.data.time_played + time_added)


def save_source(path: Path | str) -> str:
    """How messages name a save file: ``bad save file 'g.yaml'`` (quoted, escaped, bounded)."""
    return text("bad save file {name}", name=quoted_name(path))


def read_save_text(path: Path | str) -> str:
    """A save file's text; a file too large or not UTF-8 is a bad save (:class:`SaveFileError`, exit 4)."""
    try:
        return read_text(path)
    except FileContentError as error:
        raise SaveFileError(text("{source}: {problem}", source=save_source(path), problem=error.problem)) from None


def read_save(path: Path | str) -> SaveData:
    """Read and validate a save file without replaying it (what ``replay`` starts from)."""
    return parse_save(read_save_text(path), save_source(path))


def load_game(path: Path | str) -> SavedGame:
    """Read, validate and replay a save file.

    A format-1 file whose history is valid by today's end rule comes back as format-2 data, so it
    is written as format 2 the next time it changes; any other format-1 file stays format 1.
    """
    content = read_save_text(path)
    source = save_source(path)
    data = parse_save(content, source)
    result = replay(data)
    if result.first is not None:
        raise SaveFileError(text("{source}: {reason}", source=source, reason=result.first.message), result.first.field)
    game = result.game
    if data.format == 1 and result.upgradable:
        data = replace(data, format=FORMAT_VERSION)
        data = SaveData.from_game(game, data)
    return SavedGame(Path(path), content, data, game)


class SaveLimitError(FileAccessError):
    """A save that would exceed :data:`MAX_HISTORY` (exit 5, like a full disk: nothing is written)."""


def write_save(path: Path | str, data: SaveData) -> str:
    """Write ``data`` atomically (caller holds the :class:`~pyramide_cli.storage.files.SaveLock`); returns the text.

    A history longer than :data:`MAX_HISTORY` is never written: the file could not be read back.
    """
    if len(data.history) > MAX_HISTORY:
        raise SaveLimitError(text("cannot write {name}: its history would hold {count:,} actions, more than the "
                                  "{most:,} a save can hold; start a new game", name=quoted_name(path),
                                  count=len(data.history), most=MAX_HISTORY))
    content = data.to_text()
    size = len(content.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise SaveLimitError(text("cannot write {name}: it would be {size:,} bytes, more than the {most:,} bytes "
                                  "(2 MiB) a save can be read back from; shorten its leading comments or start a "
                                  "new game", name=quoted_name(path), size=size, most=MAX_FILE_BYTES))
    atomic_write(path, content)
    return content
