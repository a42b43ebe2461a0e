"""Keep pydantic off the command path: plain ``str``/``int`` parameters need no schema library.

Recent Typer releases coerce every parameter value through a pydantic ``TypeAdapter``, built on
first use.  Importing pydantic alone costs about 100 ms, more than everything else
``pyramide play g.yaml draw`` does, and issue 3 sets that command a budget of 1.5 × the import of
Typer and PyYAML.  Our parameters are plain text, whole numbers and flags, so for exactly those we
give Typer's parameter a small coercer up front (the same conversions, the same
``BadParameter`` errors); anything else (paths, choices, callbacks with parsers, ranges) keeps
Typer's own path.  Typer versions without this machinery are left untouched.
"""

from __future__ import annotations

from typing import Any, Callable


class _PlainCoercion:
    """Coerce one plain value (or each value of a list) the way Typer's adapters do."""

    def __init__(self, convert: Callable[[Any], Any], type_name: str) -> None:
        self.convert = convert
        self.type_name = type_name

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        import typer

        multiple = getattr(param, "multiple", False) or getattr(param, "nargs", 1) == -1
        if value is None:
            return () if multiple else None
        if multiple and isinstance(value, str):
            raise typer.BadParameter("Value must be an iterable.", ctx=ctx, param=param)
        try:
            if multiple:
                return [self.convert(item) for item in value]
            return self.convert(value)
        except (TypeError, ValueError):
            raise typer.BadParameter(f"{value!r} is not a valid {self.type_name}.", ctx=ctx, param=param) from None


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _whole_number(value: Any) -> int:
    if isinstance(value, bool):
        raise TypeError("a flag is not a number")
    if isinstance(value, int):
        return value
    return int(str(value).strip())


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "t", "yes", "y", "on"):
        return True
    if text in ("0", "false", "f", "no", "n", "off", ""):
        return False
    raise ValueError(text)


_CONVERTERS = {str: (_text, "string"), int: (_whole_number, "integer"), bool: (_flag, "boolean")}


def plain_coercion(descriptor: Any) -> _PlainCoercion | None:
    """A coercer for a ``str``, ``int`` or ``bool`` parameter (or a list of one) with no extras, else ``None``."""
    try:
        annotation = descriptor.annotation
        info = descriptor.parameter_info
        if descriptor.is_file or descriptor.is_path or descriptor.is_choice or descriptor.is_ranged:
            return None
        if getattr(info, "parser", None) is not None or getattr(info, "click_type", None) is not None:
            return None
        if descriptor.is_list:
            item_types = getattr(annotation, "__args__", ())
            annotation = item_types[0] if len(item_types) == 1 else None
        converter = _CONVERTERS.get(annotation)
    except AttributeError:
        return None
    return None if converter is None else _PlainCoercion(*converter)


def install() -> None:
    """Patch Typer's parameter class once, if it has the pydantic-based coercion to avoid."""
    try:
        from typer.core import _TyperParameter  # type: ignore[attr-defined]
    except ImportError:
        return
    original = getattr(_TyperParameter, "get_runtime_param", None)
    if original is None or getattr(original, "pyramide_plain", False):
        return

    def get_runtime_param(self: Any) -> Any:
        if getattr(self, "_runtime_param", None) is None:
            plain = plain_coercion(getattr(self, "type_descriptor", None))
            if plain is not None:
                self._runtime_param = plain
        return original(self)

    get_runtime_param.pyramide_plain = True  # type: ignore[attr-defined]
    _TyperParameter.get_runtime_param = get_runtime_param
