"""Gettext catalogs without external tools: read ``.po`` sources, write ``.mo`` files.

The ``.po`` files in ``pyramide_cli/i18n/po/`` are the sources translators edit; the compiled
``.mo`` files under ``pyramide_cli/i18n/locale/`` ship in the package, so an install needs no
``msgfmt``.  This module is the small subset of GNU gettext the project needs: ``msgid``,
``msgid_plural``, ``msgstr``/``msgstr[n]``, comments, ``#, fuzzy`` (fuzzy entries are left out of
the compiled catalog, as ``msgfmt`` does).  The ``.mo`` layout is the one documented in the GNU
gettext manual ("The Format of GNU MO Files"), without the optional hash table.
"""

from __future__ import annotations

import ast
import struct
from dataclasses import dataclass, field

MO_MAGIC = 0x950412DE


class CatalogError(ValueError):
    """A ``.po`` file that cannot be read."""


@dataclass
class Entry:
    """One message: its id (and plural id), its translations, flags and comments."""

    msgid: str
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)

    @property
    def translated(self) -> bool:
        return "fuzzy" not in self.flags and all(self.msgstr) and bool(self.msgstr)


def _unquote(line: str, number: int, source: str) -> str:
    text = line.strip()
    if not (text.startswith('"') and text.endswith('"') and len(text) >= 2):
        raise CatalogError(f"{source}:{number}: expected a quoted string, found {line.strip()[:60]!r}")
    try:
        value = ast.literal_eval(text)
    except (SyntaxError, ValueError):
        raise CatalogError(f"{source}:{number}: bad string {text[:60]!r}") from None
    if not isinstance(value, str):
        raise CatalogError(f"{source}:{number}: bad string {text[:60]!r}")
    return value


def parse_po(source_text: str, source: str = "catalog") -> list[Entry]:
    """The entries of a ``.po`` file, in file order (the header entry, ``msgid ""``, first)."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None
    flags: set[str] = set()
    comments: list[str] = []

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for number, raw in enumerate(source_text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if current is not None and target is not None and target[0] == "msgstr":
                finish()
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            else:
                comments.append(raw)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid":
            finish()
            current = Entry(_unquote(rest, number, source), flags=flags, comments=comments)
            flags, comments = set(), []
            target = ("msgid", 0)
        elif keyword == "msgid_plural" and current is not None:
            current.msgid_plural = _unquote(rest, number, source)
            current.msgstr = []
            target = ("msgid_plural", 0)
        elif keyword == "msgstr" and current is not None:
            current.msgstr = [_unquote(rest, number, source)]
            target = ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]") and current is not None:
            index = int(keyword[7:-1])
            while len(current.msgstr) <= index:
                current.msgstr.append("")
            current.msgstr[index] = _unquote(rest, number, source)
            target = ("msgstr", index)
        elif line.startswith('"') and current is not None and target is not None:
            piece = _unquote(line, number, source)
            kind, index = target
            if kind == "msgid":
                current.msgid += piece
            elif kind == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + piece
            else:
                current.msgstr[index] += piece
        else:
            raise CatalogError(f"{source}:{number}: cannot read {line[:60]!r}")
    finish()
    return entries


def compile_mo(entries: list[Entry]) -> bytes:
    """The ``.mo`` bytes of the translated entries (and the header), keys sorted as msgfmt does."""
    pairs: list[tuple[bytes, bytes]] = []
    for entry in entries:
        if entry.msgid and not entry.translated:
            continue
        key = entry.msgid if entry.msgid_plural is None else entry.msgid + "\0" + entry.msgid_plural
        pairs.append((key.encode("utf-8"), "\0".join(entry.msgstr).encode("utf-8")))
    pairs.sort()
    count = len(pairs)
    originals_offset = 7 * 4
    translations_offset = originals_offset + count * 8
    data_offset = translations_offset + count * 8
    originals = b"".join(key + b"\0" for key, _ in pairs)
    translations = b"".join(value + b"\0" for _, value in pairs)
    table_originals: list[int] = []
    offset = data_offset
    for key, _ in pairs:
        table_originals += [len(key), offset]
        offset += len(key) + 1
    table_translations: list[int] = []
    for _, value in pairs:
        table_translations += [len(value), offset]
        offset += len(value) + 1
    header = struct.pack("<7I", MO_MAGIC, 0, count, originals_offset, translations_offset, 0, 0)
    tables = struct.pack(f"<{4 * count}I", *table_originals, *table_translations)
    return header + tables + originals + translations


def _quote(value: str) -> str:
    escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t"))
    return f'"{escaped}"'


def format_po(entries: list[Entry]) -> str:
    """A ``.po`` file's text for ``entries`` (long strings kept on one line: diffs stay readable)."""
    blocks = []
    for entry in entries:
        lines = list(entry.comments)
        if entry.flags:
            lines.append("#, " + ", ".join(sorted(entry.flags)))
        if entry.msgid == "" and entry.msgstr and "\n" in entry.msgstr[0]:
            lines.append('msgid ""')
            lines.append('msgstr ""')
            lines += [_quote(part) for part in entry.msgstr[0].splitlines(keepends=True)]
        else:
            lines.append(f"msgid {_quote(entry.msgid)}")
            if entry.msgid_plural is not None:
                lines.append(f"msgid_plural {_quote(entry.msgid_plural)}")
                lines += [f"msgstr[{index}] {_quote(value)}" for index, value in enumerate(entry.msgstr)]
            else:
                lines.append(f"msgstr {_quote(entry.msgstr[0] if entry.msgstr else '')}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
