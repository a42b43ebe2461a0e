"""Keep the catalogs in step with the code: ``make catalogs`` (``python -m pyramide_cli.i18n.extract``).

1. Every ``text("…")`` and ``plural("…", "…", n)`` call in the package is a message; its template
   (a literal string, required) is the ``msgid``.  A function whose public parameter is called
   ``text`` (``Move.parse(text)``) calls them as ``make_text`` / ``make_plural`` (imported under
   that name), which count the same.
2. Each ``po/<lang>.po`` gets the new messages (empty, for a translator to fill in) and loses the
   ones the code no longer has; translations of the others are kept.
3. Each ``.po`` is compiled to ``locale/<lang>/LC_MESSAGES/pyramide.mo`` (shipped in the package).

Adding a language: add it to :data:`pyramide_cli.i18n.LANGUAGES`, create ``po/<lang>.po`` with a
header (copy one; set ``Language`` and ``Plural-Forms``), run ``make catalogs``, translate every
entry, run ``make catalogs`` again; the test suite fails while an entry is missing or its
``{placeholders}`` differ from the English.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES
from .catalog import Entry, compile_mo, format_po, parse_po

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent
PO_FOLDER = HERE / "po"
LOCALE_FOLDER = HERE / "locale"
MARKERS = {"text": 1, "plural": 2}
"""Function names that build messages, and how many leading literal templates each takes."""
ALIASES = {"make_text": "text", "make_plural": "plural"}
"""The names they are imported under where ``text`` is taken (see the module docstring)."""


@dataclass(frozen=True)
class Message:
    msgid: str
    msgid_plural: str | None
    where: str


class ExtractionError(ValueError):
    """A message call whose template is not a literal string."""


def _marker(call: ast.Call) -> str | None:
    """``text`` or ``plural`` when the call builds a message: a bare call of the imported function
    (a method that happens to be called ``text`` is not one)."""
    func = call.func
    if not isinstance(func, ast.Name):
        return None
    name = ALIASES.get(func.id, func.id)
    return name if name in MARKERS else None


def messages_in(path: Path, root: Path = PACKAGE) -> Iterator[Message]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    calls = sorted((node for node in ast.walk(tree) if isinstance(node, ast.Call)),
                   key=lambda node: (node.lineno, node.col_offset))
    for node in calls:
        name = _marker(node)
        if name is None:
            continue
        where = f"{path.relative_to(root.parent)}:{node.lineno}"
        literals = node.args[:MARKERS[name]]
        if len(literals) < MARKERS[name] or not all(
                isinstance(arg, ast.Constant) and isinstance(arg.value, str) for arg in literals):
            raise ExtractionError(f"{where}: {name}() needs literal template strings")
        values = [arg.value for arg in literals]  # type: ignore[attr-defined]
        yield Message(values[0], values[1] if len(values) > 1 else None, where)


def all_messages(root: Path = PACKAGE) -> dict[str, Message]:
    """Every message of the package by ``msgid`` (the first place it appears)."""
    found: dict[str, Message] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name == "text.py" and path.parent.name == "engine":
            continue  # the definitions of text() and plural() themselves
        for message in messages_in(path, root):
            found.setdefault(message.msgid, message)
    return found


def updated_entries(existing: list[Entry], messages: dict[str, Message]) -> list[Entry]:
    """The catalog's entries for exactly ``messages`` (header first, code order), translations kept."""
    old = {entry.msgid: entry for entry in existing}
    header = old.get("") or Entry("", msgstr=[""])
    entries = [header]
    for msgid, message in messages.items():
        entry = old.get(msgid)
        if entry is None or entry.msgid_plural != message.msgid_plural:
            forms = 1 if message.msgid_plural is None else 2
            entry = Entry(msgid, message.msgid_plural, [""] * forms)
        entry.comments = [f"#: {message.where}"]
        entries.append(entry)
    return entries


def mo_path(language: str) -> Path:
    return LOCALE_FOLDER / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def main() -> None:
    messages = all_messages()
    for language in LANGUAGES:
        if language == DEFAULT_LANGUAGE:
            continue
        po = PO_FOLDER / f"{language}.po"
        entries = updated_entries(parse_po(po.read_text(encoding="utf-8"), str(po)), messages)
        po.write_text(format_po(entries), encoding="utf-8")
        missing = sum(1 for entry in entries[1:] if not entry.translated)
        target = mo_path(language)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compile_mo(entries))
        where = target.relative_to(PACKAGE.parent)
        print(f"{language}: {len(entries) - 1} messages, {missing} to translate -> {where}")


if __name__ == "__main__":
    main()
