"""The strict YAML of pyramide's files (saves and layout files): a safe loader that refuses what
these files never hold, and the one error for a file whose content is wrong.

Refused before anything is built from them, with the line and column: anchors and aliases,
nesting deeper than :data:`MAX_YAML_DEPTH`, numbers longer than :data:`MAX_NUMBER_CHARACTERS`,
duplicate keys (plain PyYAML would silently keep the last one) and keys that are lists or mappings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.errors import PyramideError, escaped, quoted
from ..engine.text import text


class SaveFileError(PyramideError, ValueError):
    """A save (or layout) file whose content is wrong; ``field`` names the culprit when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field



MAX_YAML_DEPTH = 16
"""How deeply lists and mappings may nest in a save or layout file (they need 3 levels)."""
MAX_NUMBER_CHARACTERS = 40
"""The longest number a file may spell (``0x`` and 20,000 ``f`` would not even print), whole or not."""
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


YAML_WIDTH = 96
"""The column past which the YAML of our files breaks a line."""


def dump_yaml(document: dict[str, Any], block: bool = False) -> str:
    """YAML text of ``document``: lists of scalars in the flow style (``[KD, draw]``), or with ``block``
    a mapping of scalars alone in the block style (one ``key: value`` a line)."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(document, Dumper=dumper, sort_keys=False, default_flow_style=False if block else None,
                     allow_unicode=True, width=YAML_WIDTH)


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

