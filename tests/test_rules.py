"""Rules presets and variants (docs/rules.md §6, R9 recycle limits, R16 strict)."""

from __future__ import annotations

import itertools

import pytest

from pyramide_cli.engine.errors import RulesError
from pyramide_cli.engine.rules import PRESETS, VARIANTS, Rules


@pytest.mark.parametrize(
    ("letter", "initial_waste", "stock", "limit", "passes"),
    [("N", True, 23, None, None), ("T", False, 24, 2, 3), ("E", False, 24, 1, 2), ("O", False, 24, 0, 1)],
)
def test_presets_match_the_table_of_section_6(letter, initial_waste, stock, limit, passes):
    rules = Rules.preset(letter)
    assert rules.initial_waste is initial_waste
    assert rules.stock_size == stock
    assert rules.recycle_limit == limit
    assert rules.passes == passes
    assert not (rules.strict or rules.waste_pair or rules.cover_pair or rules.stock_top)
    assert rules.draw_count == 1
    assert rules.code_segment == letter == rules.name
    assert rules.is_plain_preset


def test_default_rules_are_n():
    assert Rules() == Rules.preset("N") == Rules.parse("n")
    assert Rules(preset_letter="T") == Rules.preset("T")


ALL_VARIANT_SPELLINGS = ["strict", "recycles=1", "waste-pair", "cover-pair", "stock-top", "draw-3"]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_combination_has_one_code_and_round_trips(preset):
    code_of: dict[Rules, str] = {}
    for size in range(len(ALL_VARIANT_SPELLINGS) + 1):
        for combination in itertools.combinations(ALL_VARIANT_SPELLINGS, size):
            rules = Rules.parse("+".join((preset, *combination)))
            assert Rules.parse(rules.name) == rules
            assert Rules.from_code_segment(rules.code_segment) == rules
            assert Rules.from_code_segment(rules.code_segment.lower()) == rules
            code_of[rules] = rules.code_segment
    assert len(set(code_of.values())) == len(code_of)  # distinct rules, distinct codes


def test_variant_flags_and_code_letters():
    rules = Rules.parse("T+draw-3+stock-top+cover-pair+waste-pair+strict+recycles=5")
    assert (rules.strict, rules.waste_pair, rules.cover_pair, rules.stock_top, rules.draw_count) == (
        True, True, True, True, 3)
    assert rules.recycle_limit == 5 and rules.passes == 6
    assert rules.code_segment == "TR5SWCUD"
    assert rules.name == "T+recycles=5+strict+waste-pair+cover-pair+stock-top+draw-3"
    assert str(rules) == rules.name


def test_recycle_limit_k_zero_means_no_recycling():
    rules = Rules.parse("N+recycles=0")
    assert rules.recycle_limit == 0 and rules.passes == 1 and rules.initial_waste
    assert rules.code_segment == "NR0"
    assert Rules.parse("O+k0") == Rules.preset("O")  # the preset's own limit is not a variant
    assert Rules.parse("TR2") == Rules.preset("T")  # a redundant limit is accepted on input


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("X", "unknown rules preset"),
        ("", "empty rules"),
        ("T+foo", "unknown variant 'foo'"),
        ("N+strict+strict", "given twice"),
        ("TSS", "bad rules segment"),
        ("N+recycles=100", "out of range"),
        ("strict", "unknown rules preset"),
    ],
)
def test_bad_rules_are_refused_with_a_reason(text, fragment):
    with pytest.raises(RulesError) as error:
        Rules.parse(text)
    assert fragment in str(error.value)


def test_codes_must_be_canonical():
    with pytest.raises(RulesError, match="write it as 'T'"):
        Rules.from_code_segment("TR2")
    with pytest.raises(RulesError):
        Rules.from_code_segment("TWS")


def test_constructor_validation():
    with pytest.raises(RulesError):
        Rules(preset_letter="Z")
    with pytest.raises(RulesError):
        Rules(preset_letter="T", recycle_limit=None)
    with pytest.raises(RulesError):
        Rules(draw_count=2)
    with pytest.raises(RulesError):
        Rules(recycle_limit=-3)


def test_every_variant_is_described():
    assert set(VARIANTS) == {"strict", "recycles=K", "waste-pair", "cover-pair", "stock-top", "draw-3"}
    assert all(preset.description for preset in PRESETS.values())
