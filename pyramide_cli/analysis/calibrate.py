"""Calibrate the level thresholds (R25): ``pyramide calibrate --write`` (a maintenance command).

For each rules preset: solve every deal of the sample (deal numbers ``--deals A-B``), play the
random player's games on each winnable one — all of them, seeded exactly as grading seeds them —
and put the thresholds at the quartiles of the win counts, so that Easy, Medium, Hard and Expert
are each about a quarter of the winnable deals (when more than a quarter are never won by the
random player, those are Expert and the other three levels share the rest equally).  Deals the solver
cannot decide within its limits are left out (they are never dealt either).

``--write`` rewrites :mod:`pyramide_cli.analysis.level_table` (the one place the thresholds live) and the
calibration section of ``docs/levels.md`` (each file replaced in one step); without it the results
are only printed.  Results do not depend on ``--jobs`` (:func:`~pyramide_cli.analysis.pool.ordered_map`).
The command line is ``cli/calibrate_commands.py``; this module holds the work.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..engine.deal import Deal
from ..engine.rules import PRESETS, Rules
from ..engine.text import text
from ..solver import Verdict
from ..storage.files import atomic_write
from .grade import LEVELS, GradingRun, Level, LevelThresholds, Prover, default_prover
from .level_table import CALIBRATION, LEVEL_TABLE
from .pool import ordered_map

PACKAGE = Path(__file__).resolve().parent
TABLE_FILE = PACKAGE / "level_table.py"
DOCS_FILE = PACKAGE.parent.parent / "docs" / "levels.md"
BEGIN_MARK = "<!-- calibration:begin (written by pyramide calibrate --write) -->"
END_MARK = "<!-- calibration:end -->"


@dataclass(frozen=True, slots=True)
class Measured:
    number: int
    winnability: Verdict
    wins: int


@dataclass(frozen=True)
class Calibration:
    """One preset's sample and the thresholds drawn from it."""

    preset: str
    first: int
    last: int
    measured: tuple[Measured, ...]
    thresholds: LevelThresholds
    seconds: float

    def count(self, verdict: Verdict) -> int:
        return sum(item.winnability is verdict for item in self.measured)

    @property
    def winnable_wins(self) -> list[int]:
        return [item.wins for item in self.measured if item.winnability is Verdict.WINNABLE]

    def shares(self) -> dict[Level, int]:
        """How many winnable deals of the sample fall in each level."""
        counts = {level: 0 for level in LEVELS}
        for wins in self.winnable_wins:
            counts[self.thresholds.level_of(wins)] += 1
        return counts


def measure_deal(preset: str, number: int, games: int, prover: Prover | None = None) -> Measured:
    """Solve one deal; play all ``games`` random games when it is winnable."""
    deal = Deal.from_number(number, Rules.preset(preset))
    verdict = (prover or default_prover())(deal)
    if verdict is not Verdict.WINNABLE:
        return Measured(number, verdict, 0)
    table = LevelThresholds(preset, games, games, 2, 1)  # only ``games`` matters here
    return Measured(number, verdict, GradingRun(deal, table).play().wins)


def _measure_task(task: tuple[str, int, int]) -> Measured:
    return measure_deal(*task)


def split_thresholds(wins: Sequence[int], games: int) -> tuple[int, int, int]:
    """``(easy, medium, hard)`` minimum win counts splitting ``wins`` into four shares as equal as ties allow.

    A threshold ``t`` leaves ``share(wins < t)`` below it.  ``hard`` is the ``t`` (at least 1)
    whose share is nearest 25 %; when ties make Expert bigger (many winnable deals the random
    player never wins), ``medium`` and ``easy`` split the rest in thirds instead of at 50 % and
    75 %.  The smaller ``t`` wins a tie; the three stay strictly increasing.
    """
    if not wins:
        raise ValueError("no winnable deal in the sample: nothing to calibrate")
    ordered = sorted(wins)
    total = len(ordered)
    candidates = sorted({value for value in ordered if value >= 1} | {value + 1 for value in ordered} | {1})

    def share_below(threshold: int) -> float:
        return sum(value < threshold for value in ordered) / total

    def nearest(target: float, floor: int) -> int:
        return min((t for t in candidates if t >= floor), key=lambda t: (abs(share_below(t) - target), t),
                   default=floor)

    hard = nearest(0.25, 1)
    expert_share = share_below(hard)
    medium = nearest(expert_share + (1 - expert_share) / 3, hard + 1)
    easy = nearest(expert_share + 2 * (1 - expert_share) / 3, medium + 1)
    return min(easy, games), medium, hard


class NothingToCalibrate(ValueError):
    """No deal of the sample is winnable under a preset: there are no win counts to split."""


def calibrate(preset: str, first: int, last: int, games: int, jobs: int = 1) -> Calibration:
    """Measure deals ``first``…``last`` under ``preset`` and draw the thresholds; raises
    :class:`NothingToCalibrate` when none of them is winnable."""
    started = time.perf_counter()
    tasks = [(preset, number, games) for number in range(first, last + 1)]
    measured = tuple(ordered_map(_measure_task, tasks, jobs))
    winnable = [item.wins for item in measured if item.winnability is Verdict.WINNABLE]
    if not winnable:
        raise NothingToCalibrate(text("--deals {first}-{last}: no deal of the sample is winnable under {preset}, "
                                      "so there is nothing to calibrate", first=first, last=last, preset=preset))
    easy, medium, hard = split_thresholds(winnable, games)
    thresholds = LevelThresholds(preset, games, easy, medium, hard)
    return Calibration(preset, first, last, measured, thresholds, time.perf_counter() - started)


# -- writing the results -----------------------------------------------------------------------
def summary(result: Calibration, command: str) -> dict[str, object]:
    """What ``docs/levels.md`` says about one preset's calibration (kept in the table module)."""
    shares = result.shares()
    return {
        "deals": f"{result.first}-{result.last}",
        "sample": len(result.measured),
        "winnable": result.count(Verdict.WINNABLE),
        "unwinnable": result.count(Verdict.UNWINNABLE),
        "unknown": result.count(Verdict.UNKNOWN),
        "never_won": sum(wins == 0 for wins in result.winnable_wins),
        "shares": {level.value: shares[level] for level in LEVELS},
        "seconds": round(result.seconds),
        "command": command,
    }


def table_module(table: dict[str, dict[str, int]], calibration: dict[str, dict[str, object]]) -> str:
    """The source of :mod:`pyramide_cli.analysis.level_table`."""
    lines = [
        '"""Level thresholds per rules preset: the one place they live (see :mod:`pyramide_cli.analysis.grade`).',
        "",
        "Written by ``pyramide calibrate --write`` (``docs/levels.md`` shows it).  A deal",
        "winning at least ``easy`` of ``games`` random games is Easy, at least ``medium`` Medium, at least",
        "``hard`` Hard, fewer Expert.  Changing a number changes levels and daily deals: recalibrate",
        "rather than edit.  ``CALIBRATION`` records the sample each row came from.",
        '"""',
        "",
        "LEVEL_TABLE: dict[str, dict[str, int]] = {",
    ]
    for preset, entry in table.items():
        fields = ", ".join(f'"{key}": {entry[key]}' for key in ("games", "easy", "medium", "hard"))
        lines.append(f'    "{preset}": {{{fields}}},')
    lines += ["}", "", "CALIBRATION: dict[str, dict[str, object]] = {"]
    for preset, entry in calibration.items():
        lines.append(f'    "{preset}": {{')
        lines += [f"        {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},"
                  for key, value in entry.items()]
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def band_text(limits: LevelThresholds, level: Level) -> str:
    """``12–40 wins (1.20% – 4.10%)``: one level's band in wins and in win rates."""
    (low, high), fewest, most = limits.rate_band(level), limits.minimum_wins(level), limits.maximum_wins(level)
    if level is Level.EASY:
        return f"≥ {fewest} wins (≥ {low:.2%})"
    wins = f"{most} win{'s' if most != 1 else ''}" if fewest == most else f"{fewest}–{most} wins"
    if level is Level.EXPERT and fewest != most:
        wins = f"≤ {most} win{'s' if most != 1 else ''}"
    return f"{wins} (< {high:.2%})" if level is Level.EXPERT else f"{wins} ({low:.2%} – {high:.2%})"


def docs_section(table: dict[str, dict[str, int]], calibration: dict[str, dict[str, object]]) -> str:
    """The calibration tables of ``docs/levels.md`` (Markdown), for every preset of the table."""
    lines = [
        BEGIN_MARK,
        "",
        "Thresholds (wins out of `games` random games, and the same as win rates):",
        "",
        "| preset | games | Easy | Medium | Hard | Expert |",
        "|---|---|---|---|---|---|",
    ]
    for preset, entry in table.items():
        limits = LevelThresholds(preset, entry["games"], entry["easy"], entry["medium"], entry["hard"])
        cells = [band_text(limits, level) for level in LEVELS]
        lines.append(f"| {preset} | {limits.games} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Samples and level shares (each level's share of the sample's winnable deals):",
        "",
        "| preset | deal numbers | winnable | unwinnable | unknown (left out) | Easy | Medium | Hard | Expert |"
        " never won by the random player | time |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for preset in table:
        info = calibration.get(preset)
        if info is None:
            lines.append(f"| {preset} | not calibrated |" + " |" * 9)
            continue
        sample, winnable = int(info["sample"]), int(info["winnable"])  # type: ignore[call-overload]
        shares: dict[str, int] = info["shares"]  # type: ignore[assignment]
        lines.append(
            f"| {preset} | {info['deals']} ({sample}) | {winnable} ({percent(winnable, sample)}) | "
            f"{info['unwinnable']} | {info['unknown']} | "
            + " | ".join(f"{shares[level.value]} ({percent(shares[level.value], winnable)})" for level in LEVELS)
            + f" | {info['never_won']} ({percent(int(info['never_won']), winnable)}) | {info['seconds']} s |"  # type: ignore[call-overload]
        )
    lines += ["", "Commands that regenerate each row:", ""]
    lines += [f"    {calibration[preset]['command']}" for preset in table if preset in calibration]
    lines += ["", END_MARK]
    return "\n".join(lines)


def replace_section(document: str, section: str) -> str:
    """``document`` with its calibration section replaced (appended when it has none)."""
    pattern = re.compile(re.escape(BEGIN_MARK) + r".*?" + re.escape(END_MARK), re.DOTALL)
    if pattern.search(document):
        return pattern.sub(lambda _: section, document)
    return document.rstrip("\n") + "\n\n" + section + "\n"


def parse_range(written: str) -> tuple[int, int]:
    """``A-B`` with ``A <= B`` → ``(A, B)``; a ``ValueError`` saying what is wrong otherwise."""
    match = re.fullmatch(r"\s*(\d+)\s*-\s*(\d+)\s*", written)
    if not match or int(match.group(1)) > int(match.group(2)):
        raise ValueError(text("bad deal range {range!r}: expected A-B with A <= B, e.g. 0-1999", range=written))
    return int(match.group(1)), int(match.group(2))


def parse_games(written: str) -> dict[str, int]:
    """``N=500,T=1000`` → ``{"N": 500, "T": 1000}`` (at least 4 games); a ``ValueError`` otherwise."""
    games = {}
    for part in written.split(","):
        match = re.fullmatch(r"\s*([NTEOnteo])\s*=\s*(\d+)\s*", part)
        if not match or int(match.group(2)) < 4:
            raise ValueError(text("bad games {part!r}: expected PRESET=GAMES such as T=1000 (at least 4)", part=part))
        games[match.group(1).upper()] = int(match.group(2))
    return games


def parse_presets(written: str) -> list[str]:
    """``N,t`` → ``["N", "T"]``; a ``ValueError`` naming the unknown ones otherwise."""
    presets = [preset.strip().upper() for preset in written.split(",") if preset.strip()]
    unknown = [preset for preset in presets if preset not in PRESETS]
    if unknown or not presets:
        raise ValueError(text("unknown presets {presets}: choose among N, T, E, O", presets=str(unknown)))
    return presets


def run(presets: Sequence[str], first: int, last: int, games: dict[str, int], jobs: int, write: bool,
        table_file: Path = TABLE_FILE, docs_file: Path = DOCS_FILE, say: Callable[[str], None] = print) -> None:
    """Calibrate ``presets`` on deals ``first``…``last``; print the results; with ``write``, rewrite both files."""
    table = {preset: dict(entry) for preset, entry in LEVEL_TABLE.items()}
    calibration = {preset: dict(entry) for preset, entry in CALIBRATION.items()}
    for preset in presets:
        count = games.get(preset, LEVEL_TABLE[preset]["games"])
        command = f"pyramide calibrate --presets {preset} --deals {first}-{last} --games {preset}={count} --write"
        result = calibrate(preset, first, last, count, jobs)
        limits = result.thresholds
        table[preset] = {"games": count, "easy": limits.easy, "medium": limits.medium, "hard": limits.hard}
        calibration[preset] = summary(result, command)
        say(f"{preset}: games {count}, easy >= {limits.easy}, medium >= {limits.medium}, hard >= {limits.hard}; "
            f"shares {calibration[preset]['shares']} ({result.seconds:.0f} s)")
    section = docs_section(table, calibration)
    say(section)
    if write:
        atomic_write(table_file, table_module(table, calibration))
        docs = docs_file.read_text(encoding="utf-8") if docs_file.exists() else "# Levels\n"
        atomic_write(docs_file, replace_section(docs, section))
        say(f"wrote {table_file} and {docs_file}")
