"""The catalogs (issue 15): complete, placeholders right, compiled files current; language choice; bidi."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from pyramide_cli.engine.moves import Refusal
from pyramide_cli.engine.text import Text, plural, text
from pyramide_cli.i18n import LANGUAGES, LanguageError, choose_language, for_display, tr
from pyramide_cli.i18n.bidi import LRM, visual_order, wrap_ltr
from pyramide_cli.i18n.catalog import CatalogError, Entry, compile_mo, format_po, parse_po
from pyramide_cli.i18n.extract import PO_FOLDER, ExtractionError, all_messages, messages_in, mo_path

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def fields(template: str) -> set[tuple[str, str | None]]:
    """The named fields of a format template with their conversions ({card!r} -> ('card', 'r'))."""
    return {(name, conversion) for _, name, _, conversion in string.Formatter().parse(template) if name is not None}


def catalog_entries(language: str) -> dict[str, Entry]:
    path = PO_FOLDER / f"{language}.po"
    return {entry.msgid: entry for entry in parse_po(path.read_text(encoding="utf-8"), str(path))}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_code_is_translated_with_the_same_placeholders(language: str) -> None:
    entries = catalog_entries(language)
    problems = []
    for msgid, message in all_messages().items():
        entry = entries.get(msgid)
        if entry is None or not entry.translated:
            problems.append(f"{message.where}: missing {msgid!r}")
            continue
        for form in entry.msgstr:
            wanted = fields(msgid) | (fields(message.msgid_plural) if message.msgid_plural else set())
            if fields(form) != wanted and fields(form) | {("count", None)} != wanted:
                problems.append(f"{message.where}: placeholders of {form!r} differ from {msgid!r}")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("language", TRANSLATED)
def test_compiled_catalogs_are_current(language: str) -> None:
    path = PO_FOLDER / f"{language}.po"
    compiled = compile_mo(parse_po(path.read_text(encoding="utf-8"), str(path)))
    assert mo_path(language).read_bytes() == compiled, "run `make catalogs`"


@pytest.mark.parametrize("language", TRANSLATED)
def test_po_files_are_in_their_canonical_form(language: str) -> None:
    text_of = (PO_FOLDER / f"{language}.po").read_text(encoding="utf-8")
    assert format_po(parse_po(text_of)) == text_of


def test_a_missing_placeholder_would_be_caught() -> None:
    assert fields("{card}: bloquée") != fields("{card}: {reason}")
    assert fields("{text!r}") != fields("{text}")


@pytest.mark.parametrize(("option", "environ", "expected"), [
    ("fr", {"LANG": "sv_SE.UTF-8"}, "fr"),
    ("HE", {}, "he"),
    (None, {"LANGUAGE": "de:sv", "LANG": "fr_FR.UTF-8"}, "sv"),
    (None, {"LANGUAGE": "de", "LC_ALL": "he_IL.UTF-8", "LANG": "fr_FR"}, "he"),
    (None, {"LC_MESSAGES": "fr_CA.UTF-8", "LANG": "sv_SE"}, "fr"),
    (None, {"LANG": "sv_FI.UTF-8@euro"}, "sv"),
    (None, {"LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_language_choice_follows_option_then_gettext_variables(option, environ, expected) -> None:
    assert choose_language(option, environ) == expected


def test_an_unknown_language_option_is_refused() -> None:
    with pytest.raises(LanguageError, match="choose one of en, fr, he, sv"):
        choose_language("klingon", {})


def test_refusals_use_the_source_documents_words() -> None:
    """R11, R13, R17 texts quoted in the Hebrew (000) and Swedish (002) documents."""
    assert tr(Refusal.BLOCKED.message, "he") == "הקלף הזה חסום על ידי קלף אחר"
    assert tr(Refusal.SUM_NOT_13.message, "he") == "הסכום חייב להיות שווה ל־13"
    assert tr(Refusal.BLOCKED.message, "sv") == "Det här kortet blockeras av ett annat"
    assert tr(Refusal.SUM_NOT_13.message, "sv") == "Summan måste vara lika med 13"
    assert tr(Refusal.SUM_NOT_13.message, "en") == "The sum must equal 13"


def test_text_is_english_and_translates_nested_values() -> None:
    inner = Refusal.SUM_NOT_13.message
    outer = Text("{card}: {reason}", {"card": "7S", "reason": inner})
    assert outer == "7S: The sum must equal 13"
    assert tr(outer, "fr") == "7S: La somme doit être égale à 13"  # the template itself is not in the catalog
    assert tr("plain", "fr") == "plain"


def test_plural_picks_the_form_by_count() -> None:
    assert plural("{count} position", "{count} positions", 1) == "1 position"
    assert plural("{count} position", "{count} positions", 3) == "3 positions"
    assert plural("{count} position", "{count} positions", 3).count("s") == 2  # still a str: str.count works


def test_left_to_right_values_are_marked_inside_hebrew() -> None:
    marked = tr(Text("{card}: {reason}", {"card": "10♣", "reason": Refusal.BLOCKED.message}), "he")
    assert marked.startswith(f"{LRM}10♣{LRM}: ")
    assert wrap_ltr("הקלף") == "הקלף"


def test_visual_order_reverses_hebrew_and_keeps_card_names() -> None:
    line = "10♣: הקלף חסום"
    assert visual_order(line) == "םוסח ףלקה :10♣"
    assert visual_order("no hebrew here") == "no hebrew here"
    assert visual_order("(א) 7C+6D") == "7C+6D (א)"


def test_visual_reordering_is_opt_in() -> None:
    line = "הקלף 7C"
    assert for_display(line, "he", {}) == "\u200f" + line  # the terminal reorders; the mark gives the direction
    assert for_display(line, "he", {"PYRAMIDE_BIDI": "visual"}) == "7C ףלקה"
    assert for_display(line, "fr", {"PYRAMIDE_BIDI": "visual"}) == line
    assert for_display("  7C   10C", "he", {}) == "  7C   10C"  # no Hebrew: a board row stays as it is


def test_templates_must_be_literal(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from pyramide_cli.engine.text import text\nmessage = 'x'\ntext(message)\n")
    with pytest.raises(ExtractionError, match="literal"):
        list(messages_in(bad, tmp_path))


def test_a_bad_po_line_is_reported() -> None:
    with pytest.raises(CatalogError, match=":2:"):
        parse_po('msgid "a"\nmsgstr a\n')


def test_text_survives_pickling() -> None:
    import pickle

    value = text("{card} stays", card="KD")
    copy = pickle.loads(pickle.dumps(value))
    assert isinstance(copy, Text) and copy.template == "{card} stays" and copy == "KD stays"


def test_a_hebrew_line_starting_with_a_card_name_still_reads_right_to_left() -> None:
    """The LRMs around a leading card name are no direction of the line; only LTR_LINE is."""
    from pyramide_cli.i18n import left_to_right
    from pyramide_cli.i18n.bidi import LTR_LINE, RLM

    line = tr(Text("{card}: {reason}", {"card": "7S", "reason": Refusal.SUM_NOT_13.message}), "he")
    assert line.startswith(LRM) and for_display(line, "he", {}) == RLM + line
    kept = left_to_right(" קופה 23", "he")
    assert kept.startswith(LTR_LINE) and for_display(kept, "he", {}) == kept
    assert left_to_right(" stock 23", "fr") == " stock 23"


def test_the_rules_document_quotes_what_each_language_prints() -> None:
    """docs/rules.md §8 lists R11, R13 and R17 in the four languages: the catalogs agree with it."""
    from pyramide_cli.engine.moves import NO_MORE_MOVES

    rules = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    for message in (Refusal.BLOCKED.message, Refusal.SUM_NOT_13.message, NO_MORE_MOVES):
        row = next(line for line in rules.splitlines() if line.startswith("| R") and f"| {message} |" in line)
        assert [cell.strip() for cell in row.strip("|").split("|")][1:] == [
            tr(message, language) for language in ("en", "fr", "he", "sv")]


def test_make_text_counts_as_text_where_a_parameter_is_called_text(tmp_path: Path) -> None:
    """``Move.parse(text=…)`` and ``Rules.parse(text=…)`` keep their public parameter name."""
    from pyramide_cli.engine.moves import Move
    from pyramide_cli.engine.rules import Rules

    module = tmp_path / "aliased.py"
    module.write_text("from pyramide_cli.engine.text import text as make_text\nmake_text('kept {x}', x=1)\n")
    assert [message.msgid for message in messages_in(module, tmp_path)] == ["kept {x}"]
    assert str(Move.parse(text="KC")) == "KC" and Rules.parse(text="T").name == "T"
