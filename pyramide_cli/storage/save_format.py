"""The save format (format 2; format 1 still read): its keys, strict validation and migrations.

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

The keys are :data:`FIELDS`, a table: each key's kind of value (:mod:`.save_fields`: how it is read
and written, and the words of its errors), whether a file must have it or what its absence means,
and the format version that brought it; reading and writing both follow the table.  Unknown keys
are errors; files of a newer format are refused; older formats are migrated by :data:`MIGRATIONS`.
YAML is read with a safe loader only, and duplicate keys are errors (plain PyYAML would silently
keep the last one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.cards import Card, parse_card
from ..engine.deal import Deal
from ..engine.errors import CardError, DealCodeError
from ..engine.game import Game, HistoryWalk
from ..engine.level import Level
from ..engine.moves import Move
from ..engine.position import Outcome, Termination
from ..engine.text import message_of, plural, text
from ..versions import SAVE_FORMAT_VERSION
from . import format_1
from .save_fields import (
    Date, Flag, FormatVersion, Kind, MoveList, OneOf, Parsed, RulesOfDeal, Seconds, WholeNumber, kind_of,
)
from .strict_yaml import YAML_WIDTH, SaveFileError, dump_yaml, leading_comments, load_yaml

FORMAT_KEY = "pyramide-save"
FORMAT_VERSION = SAVE_FORMAT_VERSION
LAYOUT_KEY = "pyramide-layout"
HEADER = (
    "# Pyramide save file: `pyramide play FILE` to go on, `pyramide replay FILE` to check it.\n"
    "# The deal code and the history decide the game; score, moves and status must agree with them.\n"
)
MAX_COUNT = 10**15
"""The largest count a save may hold (``hints``): far beyond any game, and a counted hint more still
fits the statistics database's 64-bit integers."""
MAX_HISTORY = 100_000
"""The most actions a save's history holds: a file at this ceiling loads, replays and is rewritten
in about a second; a longer history is refused on reading (exit 4) and never written (exit 5)."""


# -- the fields ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    """One key of the format: the kind of its value, whether a file must have it (else what its
    absence means), the format version that brought it, and the :class:`SaveData` attribute it fills."""

    key: str
    kind: Kind
    required: bool = False
    default: object = None
    since: int = 1
    null: bool = False
    """A null value is allowed and reads as ``None`` (else a null is checked like any other value)."""
    omitted_when_null: bool = False
    """Written only when set (else ``None`` is written as ``null``)."""
    attribute: str = ""
    """The :class:`SaveData` attribute, when it is not the key."""

    @property
    def name(self) -> str:
        """The :class:`SaveData` attribute the field fills."""
        return self.attribute or self.key


FIELDS: tuple[Field, ...] = (
    Field(FORMAT_KEY, FormatVersion(), required=True, attribute="format"),
    Field("deal", Parsed(Deal.from_code, DealCodeError, text("a deal code such as PY1-N-AAAAAAS")), required=True),
    Field("rules", RulesOfDeal()),  # absent: the deal's rules
    Field("status", OneOf(Outcome), required=True),
    Field("termination", OneOf(Termination, null=text("null (still playing)")), since=2, null=True),
    Field("score", WholeNumber(), required=True),
    Field("moves", WholeNumber(), required=True),
    Field("time_played", Seconds(text("{source}: time_played: expected seconds (a number 0 or more), found {value}")),
          default=0.0),
    Field("hints", WholeNumber(MAX_COUNT, text("{source}: hints: {value} is more than the {most:,} a save can count")),
          default=0, since=2),
    Field("selected", Parsed(parse_card, CardError, text("a card name or null")), null=True),
    Field("assist", Flag(text("{source}: assist: expected true or false, found {value}")), default=True),
    Field("level", OneOf(Level), null=True, omitted_when_null=True),
    Field("daily", Date(text("{source}: daily: expected a date YYYY-MM-DD, found {value}")), null=True,
          omitted_when_null=True),
    Field("history", MoveList(), required=True),  # always the last key (see history_yaml)
)
"""The format: its keys in the order a file has them."""
FIELD = {entry.key: entry for entry in FIELDS}
CHECK_ORDER = ("deal", "rules", "history", "status", "termination", "hints", "time_played", "selected", "assist",
               "level", "daily", "score", "moves")
"""The order :func:`parse_save` checks the fields in: a file wrong in several is refused for the first of
them in this order.  The rules come after the deal, which they must agree with; the format version is
read first of all, by :func:`migrate`."""
KNOWN_KEYS = tuple(entry.key for entry in FIELDS)
REQUIRED_KEYS = tuple(entry.key for entry in FIELDS if entry.required)


def keys_since(version: int) -> tuple[str, ...]:
    """The keys format ``version`` brought (a file of an older format cannot have them)."""
    return tuple(entry.key for entry in FIELDS if entry.since == version)


# -- the migrations ------------------------------------------------------------------------------
def _from_format_1(document: dict[str, Any]) -> dict[str, Any]:
    """Format 1 → 2: the keys are the same (``termination`` and ``hints`` are optional); what
    changes is the end rule the history is replayed by, which :func:`parse_save` remembers."""
    for key in keys_since(2):
        if key in document:
            raise SaveFileError(text("{key}: a format-1 save has no {key!r} key (write pyramide-save: 2)", key=key),
                                key)
    return {**document, FORMAT_KEY: 2}


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _from_format_1}
"""``MIGRATIONS[v]`` turns a format-``v`` document into a format-``v+1`` one."""


def migrate(document: dict[str, Any], source: str) -> dict[str, Any]:
    """Bring a document of an older format up to :data:`FORMAT_VERSION`; refuse newer ones."""
    version = FIELD[FORMAT_KEY].kind.read(document[FORMAT_KEY], FORMAT_KEY, source, document)
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


# -- the document ------------------------------------------------------------------------------
_last_history: tuple[tuple[Move, ...], str, int] = ((), "history: [", 10)
"""The last history :func:`history_yaml` wrote: the moves, their text without the closing ``]``, its last column."""


def history_yaml(history: tuple[Move, ...]) -> str:
    """``history: [KD, 10C+3S, …]`` as :func:`~.strict_yaml.dump_yaml` writes it as the last key of a
    file (the flow style, a line broken with a two-space indent once past column 96), character for
    character.

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
        if column > YAML_WIDTH:
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
        return cls.from_game(Game(deal), base=None, level=level, daily=daily, assist=assist)

    @classmethod
    def from_game(
        cls, game: Game, base: SaveData | None, time_played: float | None = None,
        level: Level | None = None, daily: str | None = None, *, selected: Card | None = None,
        assist: bool = True,
    ) -> SaveData:
        """The save of ``game`` with ``selected`` (a tap session's selection); settings not held by the
        game (time, level, hints, error help, …) come from ``base``, or else from the arguments."""
        if game.start != game.start.start(game.deal):
            raise ValueError("only a game played from the start of its deal can be saved (its history is the record)")
        previous = base or cls(deal="", history=(), score=0, moves=0, status=Outcome.PLAYING,
                               assist=assist, level=level, daily=daily)
        if previous.format >= 2 and isinstance(game, format_1.Format1Game):
            previous = replace(previous, format=1)  # its history draws on after a dead position: format 1 only
        if previous.format == 1:
            status, termination = format_1.status(game), None
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
            selected=selected,
            time_played=previous.time_played if time_played is None else round(time_played, 1),
        )

    def to_text(self) -> str:
        """The file's text: the header comments, then the keys of this data's format in :data:`FIELDS`' order."""
        document: dict[str, Any] = {}
        for entry in FIELDS[:-1]:  # the history is written last, by history_yaml
            value = getattr(self, entry.name)
            if self.format < entry.since or (value is None and entry.omitted_when_null):
                continue
            document[entry.key] = None if value is None else entry.kind.write(value)
        return self.header + dump_yaml(document, block=True) + history_yaml(self.history)

    def deal_object(self) -> Deal:
        return Deal.from_code(self.deal)

    def walk(self, actions: int | None = None, each: Callable[[int, Move, Game], None] | None = None) -> HistoryWalk:
        """Play the history (its first ``actions`` entries) by the end rule of this data's format."""
        history = self.history if actions is None else self.history[:actions]
        if self.format == 1:
            return format_1.walk(self.deal_object(), history, each)
        return Game.walk(self.deal_object(), history, each)


def parse_save(content: str, source: str | None = None) -> SaveData:
    """Read and validate a save file's text (no replay yet); :class:`SaveFileError` names what is wrong."""
    source = text("save file") if source is None else source
    if not content.strip():
        raise SaveFileError(text("{source}: the file is empty", source=source))
    document = load_yaml(content, source)
    if not isinstance(document, dict):
        raise SaveFileError(text("{source}: not a pyramide save file (expected a mapping of keys, found {kind})",
                                 source=source, kind=kind_of(document)))
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


def _validated(document: dict[str, Any], source: str, header: str) -> SaveData:
    """The data of a document in today's format, each field read by its kind (in :data:`CHECK_ORDER`)."""
    unknown = [str(key) for key in document if key not in FIELD]
    if unknown:
        raise SaveFileError(plural(
            "{source}: unknown key {keys} (a format-{format} save has {known})",
            "{source}: unknown keys {keys} (a format-{format} save has {known})", len(unknown), source=source,
            keys=", ".join(map(repr, unknown)), format=FORMAT_VERSION, known=", ".join(KNOWN_KEYS)), unknown[0])
    missing = [key for key in REQUIRED_KEYS if key not in document]
    if missing:
        raise SaveFileError(plural("{source}: missing key {keys}", "{source}: missing keys {keys}", len(missing),
                                   source=source, keys=", ".join(map(repr, missing))), missing[0])
    read: dict[str, Any] = {}
    for key in CHECK_ORDER:
        entry = FIELD[key]
        if key not in document:
            read[key] = entry.default
        elif document[key] is None and entry.null:
            read[key] = None
        else:
            read[key] = entry.kind.read(document[key], key, source, read)
    deal = read["deal"]
    values = {FIELD[key].name: value for key, value in read.items()}
    values.update(deal=deal.code, rules=deal.rules.name)  # the code decides
    return SaveData(**values, header=header, termination_given="termination" in document)
