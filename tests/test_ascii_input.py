"""Codes, rules and ranges are ASCII: look-alike letters and other scripts' digits are refused, not read as
the ASCII they resemble (issue 26, item 14).  An engine command that cannot run is exit 5."""

from __future__ import annotations

import pytest

from cli_support import invoke
from pyramide_cli.analysis.survey import parse_deal_range
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.errors import DealCodeError, RulesError
from pyramide_cli.engine.rules import Rules


@pytest.mark.parametrize("code", [
    "PY1-N-AAAAAA\u017f",  # ſ (long s): upper() makes it S
    "PY1-N-AAAAAA\u0131",  # ı (dotless i): upper() makes it I
    "PY1-\u017f-AAAAAAS", "PY1-T\u017f-AAAAAAS", "PY1-TR\uff13-AAAAAAS",  # a full-width 3
    "P\u0178\u0131-N-AAAAAAS",
])
def test_a_deal_code_with_look_alikes_is_refused(code: str) -> None:
    with pytest.raises(DealCodeError):
        Deal.from_code(code)


def test_a_deal_code_keeps_reading_ascii_in_any_case() -> None:
    assert Deal.from_code(" py1-ts-aaaaaas ").code == Deal.from_code("PY1-TS-AAAAAAS").code


@pytest.mark.parametrize("rules", ["T+recycles=\uff13", "T+recycles=\u0663", "TR\uff13", "\u017f", "T+\u212a=3",
                                   "T+\u017ftrict"])
def test_rules_with_other_digits_or_look_alike_letters_are_refused(rules: str) -> None:
    with pytest.raises(RulesError):
        Rules.parse(rules)


@pytest.mark.parametrize("written", ["\u0660-\u0661", "\uff10-\uff13", "\u0663"])
def test_a_deal_range_in_another_script_s_digits_is_refused(written: str) -> None:
    with pytest.raises(ValueError, match="bad deal range"):
        parse_deal_range(written)
    outcome = invoke("survey", "--deals", written, "--max-states", "10")
    assert outcome.status == 2 and "bad deal range" in outcome.stderr


@pytest.mark.parametrize("command", ["", "   ", "'unbalanced"])
def test_an_engine_command_that_cannot_run_is_exit_5(command: str) -> None:
    outcome = invoke("tournament", "--engine", command, "--deals", "0-0")
    assert outcome.status == 5 and outcome.stderr.startswith("pyramide: --engine") and outcome.stderr.count("\n") == 1
