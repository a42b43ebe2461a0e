"""The calibration of the level thresholds (R25): quartiles of the win counts of winnable deals."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pyramide_cli.analysis import calibrate
from pyramide_cli.analysis.calibrate import (
    BEGIN_MARK, END_MARK, band_text, measure_deal, parse_games, parse_presets, parse_range, replace_section,
    split_thresholds,
)
from pyramide_cli.engine.deal import Deal
from pyramide_cli.solver import Verdict
from pyramide_cli.analysis.grade import GRADING_SEED, LEVELS, Level, LevelThresholds
from pyramide_cli.analysis.level_table import CALIBRATION, LEVEL_TABLE
from pyramide_cli.engine.playout import win_rate
from pyramide_cli.engine.rules import Rules

from cli_support import invoke


def test_evenly_spread_counts_split_at_their_quartiles():
    # 100 deals winning 0..99 games: a quarter below 25, half below 50, three quarters below 75
    assert split_thresholds(range(100), 200) == (75, 50, 25)


def test_when_many_deals_are_never_won_the_rest_is_split_in_thirds():
    # 40 deals never won, then 60 deals with 1..60 wins: Expert is the 40, the 60 others split 20/20/20
    wins = [0] * 40 + list(range(1, 61))
    easy, medium, hard = split_thresholds(wins, 1000)
    assert hard == 1
    assert (sum(1 <= w < medium for w in wins), sum(medium <= w < easy for w in wins), sum(w >= easy for w in wins)) \
        == (20, 20, 20)


def test_thresholds_stay_increasing_on_a_degenerate_sample():
    easy, medium, hard = split_thresholds([0, 0, 0, 0], 10)
    assert 10 >= easy > medium > hard >= 1
    with pytest.raises(ValueError, match="no winnable deal"):
        split_thresholds([], 10)


def test_the_table_is_calibrated_as_documented():
    """Each row's shares add up to its sample's winnable deals, and docs/levels.md shows the table."""
    docs = (Path(calibrate.__file__).resolve().parents[2] / "docs" / "levels.md").read_text(encoding="utf-8")
    assert docs.count(BEGIN_MARK) == 1 and docs.count(END_MARK) == 1
    assert calibrate.docs_section(LEVEL_TABLE, CALIBRATION) in docs
    for preset in ("N", "T"):
        info = CALIBRATION[preset]
        assert sum(info["shares"].values()) == info["winnable"]
        assert info["winnable"] + info["unwinnable"] + info["unknown"] == info["sample"] >= 2000
        assert f"--games {preset}={LEVEL_TABLE[preset]['games']}" in info["command"]
        for count in info["shares"].values():  # each level a meaningful share of the winnable deals
            assert count >= 0.15 * info["winnable"]


def test_measure_deal_plays_every_game_on_winnable_deals_only():
    deal = Deal.from_number(2)
    measured = measure_deal("N", 2, 30, prover=lambda _: Verdict.WINNABLE)
    assert measured.wins == round(win_rate(deal, 30, GRADING_SEED) * 30)
    assert measure_deal("N", 2, 30, prover=lambda _: Verdict.UNKNOWN).wins == 0


def test_band_texts():
    limits = LevelThresholds("T", 1000, 18, 6, 2)
    assert [band_text(limits, level) for level in LEVELS] == [
        "≥ 18 wins (≥ 1.80%)", "6–17 wins (0.60% – 1.80%)", "2–5 wins (0.20% – 0.60%)", "≤ 1 win (< 0.20%)"]
    single = LevelThresholds("O", 100, 3, 2, 1)
    assert band_text(single, Level.MEDIUM) == "2 wins (2.00% – 3.00%)"
    assert band_text(single, Level.EXPERT) == "0 wins (< 1.00%)"


def test_a_preset_without_calibration_says_so():
    section = calibrate.docs_section({"N": LEVEL_TABLE["N"]}, {})
    assert "| N | not calibrated |" in section and "| N | 500 |" in section


def test_replace_section_replaces_or_appends():
    section = f"{BEGIN_MARK}\nnew\n{END_MARK}"
    assert replace_section(f"# T\n\n{BEGIN_MARK}\nold\n{END_MARK}\ntail\n", section) == f"# T\n\n{section}\ntail\n"
    assert replace_section("# T\n", section) == f"# T\n\n{section}\n"


def test_argument_parsers():
    assert parse_range("10-19") == (10, 19)
    assert parse_games("N=500,t=1000") == {"N": 500, "T": 1000}
    assert parse_presets(" n, T ") == ["N", "T"]
    for bad in ("19-10", "x", "5"):
        with pytest.raises(ValueError, match="bad deal range"):
            parse_range(bad)
    for bad in ("N=2", "Q=100", "N500"):
        with pytest.raises(ValueError, match="bad games"):
            parse_games(bad)
    with pytest.raises(ValueError, match=r"unknown presets \['Q'\]"):
        parse_presets("N,Q")


def test_the_command_writes_a_table_module_and_the_docs(tmp_path: Path):
    """A tiny run with the real solver; one worker and two give the same table; --write round-trips."""
    table, docs = tmp_path / "level_table.py", tmp_path / "levels.md"
    docs.write_text(f"# Levels\n\nintro\n\n{BEGIN_MARK}\nOLD-SECTION\n{END_MARK}\n\nafter\n", encoding="utf-8")
    arguments = ["calibrate", "--presets", "N", "--deals", "0-11", "--games", "N=40", "--table-file", str(table),
                 "--docs-file", str(docs)]
    assert invoke(*arguments, "--write").status == 0
    spec = importlib.util.spec_from_file_location("written_table", table)
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)  # type: ignore[union-attr]
    row = written.LEVEL_TABLE["N"]
    assert row["games"] == 40 and written.LEVEL_TABLE["T"] == LEVEL_TABLE["T"]
    info = written.CALIBRATION["N"]
    assert info["sample"] == 12 and info["deals"] == "0-11"
    assert info["winnable"] == sum(calibrate.default_prover()(Deal.from_number(n, Rules())) is Verdict.WINNABLE
                                   for n in range(12))
    text = docs.read_text(encoding="utf-8")
    assert text.startswith("# Levels\n\nintro\n\n") and text.endswith("\n\nafter\n") and "OLD-SECTION" not in text
    assert "pyramide calibrate --presets N --deals 0-11 --games N=40 --write" in text
    printed = invoke(*arguments, "--jobs", "2").stdout
    assert f"N: games 40, easy >= {row['easy']}, medium >= {row['medium']}, hard >= {row['hard']}" in printed
    assert table.read_text(encoding="utf-8") == calibrate.table_module(written.LEVEL_TABLE, written.CALIBRATION)


def test_the_command_rejects_bad_options_with_a_usage_error():
    for arguments in (["--presets", "N,Q"], ["--deals", "9-1"], ["--games", "N=2"], ["--jobs", "0"]):
        outcome = invoke("calibrate", *arguments)
        assert outcome.status == 2 and outcome.stderr.startswith("pyramide: "), arguments


def test_a_sample_without_a_winnable_deal_is_refused_in_one_line_and_writes_nothing(tmp_path: Path):
    table = tmp_path / "level_table.py"
    losing = next(number for number in range(20)
                  if calibrate.default_prover()(Deal.from_number(number, Rules())) is not Verdict.WINNABLE)
    outcome = invoke("calibrate", "--presets", "N", "--deals", f"{losing}-{losing}", "--games", "N=4",
                     "--table-file", str(table), "--docs-file", str(tmp_path / "levels.md"), "--write")
    assert outcome.status == 2 and not table.exists()
    assert outcome.stderr.count("\n") == 1 and "no deal of the sample is winnable under N" in outcome.stderr


def test_the_command_is_hidden_from_the_command_list():
    listing = invoke("--help").stdout
    assert "calibrate" not in listing and "solve" in listing
