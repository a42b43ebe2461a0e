"""``pyramide grade`` and the deals ``pyramide deal --level`` / ``--daily`` pick (R25–R26).

The engine side is :mod:`pyramide_cli.analysis.grade`; it is imported inside the functions (with the
solver) so that the other commands never pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..engine.text import joined, message_of, text
from .app import SUMMARIES, app
from .completion import complete_rules
from .common import CommandError, JsonOption, echo, emit_json, reporting, usage_error
from .exit_codes import ExitStatus

if TYPE_CHECKING:
    from ..engine.deal import Deal
    from ..analysis.grade import Grade, LevelDeal, LevelThresholds
    from ..engine.level import Level
    from ..engine.rules import Rules

GRADE_HELP = """Grade a deal: can it be won, how often does a player without a plan win it, and its level.

The solver decides whether the deal can be won (R25: only winnable deals have a level).  Then
the random player plays the deal a fixed number of times (per rules preset) choosing uniformly
among the legal moves; its games are seeded, so every machine gets the same count.  The win
rate gives the level through the thresholds calibrated for the preset (docs/levels.md): deals
it often wins are Easy, deals it almost never wins are Expert.  A save file is graded from the
start of its deal.

\b
Examples:
  pyramide grade PY1-N-AAAAAAB
  pyramide grade PY1-T-AAAAAAB --json          # deal, winnable, win_rate, games, level ...
  pyramide grade g.yaml                        # the deal of a save file
  pyramide grade PY1-N-AAAAAAB --rules T       # the same deal number under rules T

The report goes to stdout (with --json: "ok": true) for a winnable and for a proven unwinnable
deal; exit 6 tells a script the deal cannot be won.  A deal left undecided is an error: one line
on stderr (with --json: "ok": false), exit 7.

Exit: 0 graded (winnable), 6 unwinnable (no level), 7 the solver reached its limit and no random
game was won (no level), 2 bad rules, 4 bad code or file, 5 missing file.
"""


@app.command(help=GRADE_HELP, short_help=SUMMARIES["grade"], no_args_is_help=True)
def grade(
    target: Annotated[str, typer.Argument(
        metavar="CODE|FILE", help="A deal code, or a save or layout file.", show_default=False)],
    rules: Annotated[Optional[str], typer.Option(
        "--rules", "-r", metavar="RULES", help="Grade the same deal number under these rules (R23).",
        show_default=False, autocompletion=complete_rules)] = None,
    json_output: JsonOption = False,
) -> None:
    with reporting(json_output):
        from ..analysis.grade import grade_deal
        from ..engine.rules import Rules
        from .targets import load_target

        chosen_rules = Rules.parse(rules) if rules is not None else None
        deal = load_target(target)[0].deal
        if chosen_rules is not None:
            deal = deal.with_rules(chosen_rules)
        graded = grade_deal(deal)
        if graded.winnable is None:  # undecided: no answer, an error with its own status (as `solve`)
            raise CommandError(no_level_message(graded), ExitStatus.SEARCH_LIMIT, **grade_document(graded))
        if json_output:
            emit_json({"ok": True, **grade_document(graded)})
        else:
            echo(grade_text(graded))
        if graded.winnable is False:  # proven unwinnable: an answer on stdout, and exit 6 (as `solve`)
            raise typer.Exit(int(ExitStatus.UNWINNABLE))


def grade_document(graded: Grade) -> dict[str, Any]:
    """The ``grade --json`` document (without ``ok``)."""
    from ..analysis.grade import GRADING_SEED

    limits = graded.thresholds
    return {
        "deal": graded.deal.code,
        "rules": graded.deal.rules.name,
        "winnable": graded.winnable,
        "verdict": graded.winnability.value,
        "win_rate": graded.win_rate,
        "wins": graded.wins,
        "games": graded.games,
        "level": None if graded.level is None else graded.level.value,
        "seed": GRADING_SEED,
        "thresholds": {"preset": limits.preset, "games": limits.games, "easy": limits.easy,
                       "medium": limits.medium, "hard": limits.hard},
    }


def thresholds_text(limits: LevelThresholds) -> str:
    from ..engine.level import Level

    lows = {level: limits.rate_band(level)[0] for level in (Level.EASY, Level.MEDIUM, Level.HARD)}
    return text("under {preset}: Easy >= {easy:.2%}, Medium >= {medium:.2%}, Hard >= {hard:.2%}, Expert below",
                preset=limits.preset, easy=lows[Level.EASY], medium=lows[Level.MEDIUM], hard=lows[Level.HARD])


def grade_text(graded: Grade) -> str:
    """The report of a graded deal: winnable with its level, or proven unwinnable (no level)."""
    from .render import LEVEL_LABELS

    deal = graded.deal
    if graded.winnable is False:
        proof = text("no, proven by the solver")
        level = text("none: an unwinnable deal has no level and is never dealt for one")
    else:
        proof = (text("yes, proven by the solver") if graded.solver_proved
                 else text("yes, a random game won it (the solver reached its limit)"))
        assert graded.level is not None
        level = text("{level}  ({thresholds})", level=LEVEL_LABELS[graded.level],
                     thresholds=thresholds_text(graded.thresholds))
    return joined([
        text("{code}  (rules {rules})", code=deal.code, rules=deal.rules.name),
        text("winnable:       {proof}", proof=proof),
        text("random player:  won {wins} of {games} games ({rate:.2%}), uniformly random moves", wins=graded.wins,
             games=graded.games, rate=graded.win_rate),
        text("level:          {level}", level=level),
    ], "\n")


def no_level_message(graded: Grade) -> str:
    """The error line for a deal left undecided within the solver's budget (no level)."""
    from ..analysis.grade import SOLVER_STATES

    return text("{code}: the solver reached its limit of {states:,} positions and the random player won none of its "
                "{games} games, so the deal has no level", code=graded.deal.code, states=SOLVER_STATES,
                games=graded.games)


# -- the deals `pyramide deal --level / --daily` picks ------------------------------------------
def pick_deal(level: str | None, seed: int | None, daily: bool, date: str | None, rules: Rules | None,
              code_given: bool) -> tuple[Deal, Level | None, str | None]:
    """``(deal, level, daily date)`` for ``deal --level L [--seed S]`` or ``deal --daily [--date D]``."""
    from ..analysis.grade import (
        DAILY_LEVEL, GradeError, LevelSearchError, daily_deal, find_level_deal, parse_date, parse_level, random_start,
        seed_start,
    )
    from ..engine.rules import Rules as RulesType

    if code_given and (level is not None or daily):
        raise usage_error(text("give a deal code, --level or --daily, not two of them"))
    if level is not None and daily:
        raise usage_error(text("--daily deals a Medium deal: give --level or --daily, not both"))
    if date is not None and not daily:
        raise usage_error(text("--date goes with --daily"))
    if seed is not None and level is None:
        raise usage_error(text("--seed goes with --level"))
    chosen_rules = rules or RulesType()
    try:
        if daily:
            found: LevelDeal = daily_deal(today() if date is None else parse_date(date), chosen_rules)
            return found.deal, DAILY_LEVEL, found.daily
        wanted = parse_level(level or "")
        start = random_start() if seed is None else seed_start(seed)
        found = find_level_deal(wanted, chosen_rules, start)
        return found.deal, wanted, None
    except LevelSearchError as error:
        raise CommandError(message_of(error), ExitStatus.SEARCH_LIMIT) from None
    except GradeError as error:
        raise usage_error(message_of(error)) from None


def today() -> Any:
    """The calendar date here (the daily deal changes at local midnight)."""
    import datetime

    return datetime.date.today()


def pick_text(level: Level, daily: str | None) -> str:
    """The line ``deal`` prints under the code for a level or daily deal."""
    from ..engine.level import Level

    if daily is not None:
        return text("The daily deal of {date} (a Medium deal, proven winnable)", date=daily)
    return {Level.EASY: text("An Easy deal, proven winnable"), Level.MEDIUM: text("A Medium deal, proven winnable"),
            Level.HARD: text("A Hard deal, proven winnable"),
            Level.EXPERT: text("An Expert deal, proven winnable")}[level]
