"""``pyramide stats``: the games played, won, streaks, bests per rules and level, daily deals, the last games.

The records come from :mod:`pyramide_cli.storage.stats` (SQLite, imported inside the command).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from ..engine.errors import quoted, quoted_name
from ..engine.level import LEVEL_WORDS
from ..engine.text import message_of, plural, text
from ..i18n import for_display, left_to_right, tr
from ..storage.files import check_output, csv_output
from ..storage.stats import COLUMNS
from .app import SUMMARIES, app
from .completion import complete_level, complete_rules
from .common import (
    CommandError, DbOption, JsonOption, echo, emit_json, reporting, shown, stats_db, usage_error, whole_number,
)
from .exit_codes import ExitStatus

if TYPE_CHECKING:
    from ..storage.stats import GameRecord, StatsDB, Summary

STATS_HELP = """Statistics of the games you finished: played, won, win %, streaks, best times.

Every game that ends in `pyramide play` — won, lost (no more moves, or no card can ever be
removed again) or resigned — is counted once, when it ends.  Shown: games played and won, the win
rate, the current and the best streak of wins, the best time (timed games only) and the fewest
moves of a win for each rules and level, the daily deals done, the last games and a chart of the
results by day.

The database is stats.sqlite3 in $PYRAMIDE_HOME when it is set, else in the user's data folder
(~/.local/share/pyramide, or $XDG_DATA_HOME/pyramide; ~/Library/Application Support/pyramide on
macOS); --db names another file.

\b
Examples:
  pyramide stats
  pyramide stats --rules T --level hard
  pyramide stats --json                    # played, won, win_rate, streak, groups, last_games ...
  pyramide stats --csv games.csv           # every game, one row each
  pyramide stats --reset                   # asks first; --yes for scripts

Exit: 0 ok, 2 bad option, 4 the database is damaged or newer than this pyramide, 5 it cannot be
read, or the CSV file exists (without --force) or cannot be written.
"""

STATS_CSV = csv_output(text("a statistics CSV"), ",".join(COLUMNS))
"""What ``--csv --force`` may replace: an earlier export (its header line is :data:`COLUMNS`) or an empty file."""
FORCE_HELP = "Overwrite the --csv file if it exists (only a statistics CSV or an empty file)."
CHART_DAYS = 14
CHART_WIDTH = 30


@app.command(help=STATS_HELP, short_help=SUMMARIES["stats"])
def stats(
    rules: Annotated[Optional[str], typer.Option(
        "--rules", "-r", metavar="RULES", help="Only games under these rules (N, T, T+strict …).",
        show_default=False, autocompletion=complete_rules)] = None,
    level: Annotated[Optional[str], typer.Option(
        "--level", "-l", metavar="LEVEL", help="Only games dealt for this level: easy, medium, hard or expert.",
        show_default=False, autocompletion=complete_level)] = None,
    last: Annotated[int, typer.Option(
        "--last", parser=whole_number, metavar="N", help="How many of the last games to list.")] = 10,
    csv_file: Annotated[Optional[str], typer.Option(
        "--csv", metavar="FILE", help="Also write every game (after the filters) to FILE, one row each.",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", help=FORCE_HELP)] = False,
    reset: Annotated[bool, typer.Option("--reset", help="Delete every recorded game (asks first).")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --reset: do not ask.")] = False,
    db: DbOption = None,
    json_output: JsonOption = False,
    ascii: Annotated[bool, typer.Option("--ascii", help="Plain ASCII in the chart.")] = False,
) -> None:
    with reporting(json_output):
        from ..storage.stats import StatsDB, StatsError

        database = StatsDB(stats_db(db))
        try:
            if reset:
                _reset(database, yes, json_output)
                return
            chosen_rules, chosen_level = _filters(rules, level)
            if last < 0:
                raise usage_error(text("--last {value}: must be 0 or more", value=last))
            if csv_file is not None:
                check_output(csv_file, force, STATS_CSV)
            _report(database, chosen_rules, chosen_level, last, csv_file, force, json_output, ascii)
        except StatsError as error:
            status = ExitStatus.BAD_INPUT if error.bad_file else ExitStatus.FILE_ERROR
            raise CommandError(message_of(error), status, database=str(database.path)) from None


def _filters(rules: str | None, level: str | None) -> tuple[str | None, str | None]:
    from ..engine.level import LEVELS
    from ..engine.rules import Rules

    chosen_rules = None if rules is None else Rules.parse(rules).name
    names = [known.value for known in LEVELS]
    if level is not None and level.lower() not in names:
        raise usage_error(text("--level {value}: expected one of {known}", value=quoted(level), known=", ".join(names)))
    return chosen_rules, None if level is None else level.lower()


def _reset(database: StatsDB, yes: bool, json_output: bool) -> None:
    from ..storage.stats import StatsError

    try:
        count: int | None = len(database.games()) if database.path.exists() else 0
    except StatsError as error:
        if not error.bad_file:
            raise
        count = None  # damaged: it is set aside, not emptied
    if not yes:
        if json_output:
            raise usage_error(text("stats --reset --json cannot ask: add --yes to delete every recorded game"))
        if count is None:
            question = text("Set the damaged database {name} aside and start a new one? [y/N] ",
                            name=quoted_name(database.path))
        else:
            question = plural("Delete the {count} game recorded in {name}? [y/N] ",
                              "Delete the {count} games recorded in {name}? [y/N] ", count,
                              name=quoted_name(database.path))
        sys.stderr.write(for_display(tr(question)))
        sys.stderr.flush()
        answer = sys.stdin.readline()
        if not answer:
            sys.stderr.write("\n")
            raise usage_error(text("stats --reset asks before deleting: answer y, or add --yes"))
        from .interactive import YES_WORDS

        if answer.strip().lower() not in YES_WORDS:
            echo(text("Nothing deleted."))
            return
    deleted = database.reset()
    if json_output:
        emit_json({"ok": True, "database": str(database.path), "deleted": deleted})
    else:
        echo(plural("Deleted {count} game from {name}.", "Deleted {count} games from {name}.", deleted,
                    name=shown(database.path)))


def _report(database: StatsDB, rules: str | None, level: str | None, last: int, csv_file: str | None,
            force: bool, json_output: bool, ascii: bool) -> None:
    from ..storage.stats import filtered, summarize

    games = filtered(database.games(), rules, level)
    summary = summarize(games)
    written = _write_csv(csv_file, force, games) if csv_file is not None else None
    if json_output:
        emit_json({"ok": True, **stats_document(summary, rules, level, last), "database": str(database.path),
                   "csv": written})
        return
    echo(stats_text(summary, rules, level, last, ascii=ascii or not _can_draw_blocks()))
    if written is not None:
        echo(plural("{count} game written to {name}", "{count} games written to {name}", len(games),
                    name=shown(written)))
    echo(text("Database: {name}", name=shown(database.path)))


def _can_draw_blocks() -> bool:
    from .render import can_encode_symbols

    return can_encode_symbols(sys.stdout)


def _write_csv(csv_file: str, force: bool, games: list[GameRecord]) -> str:
    import csv
    import io

    from ..storage.files import atomic_write

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(game.row() for game in games)
    atomic_write(check_output(csv_file, force, STATS_CSV), buffer.getvalue())
    return csv_file


# -- JSON --------------------------------------------------------------------------------------
def stats_document(summary: Summary, rules: str | None, level: str | None, last: int) -> dict[str, Any]:
    """The ``stats --json`` document (without ``ok``, ``database``, ``csv``); ``docs/cli.md``."""
    return {
        "filters": {"rules": rules, "level": level},
        "played": summary.played,
        "won": summary.won,
        "lost": summary.played - summary.won,
        "win_rate": summary.win_rate,
        "streak": {"current": summary.current_streak, "best": summary.best_streak},
        "daily": {"done": summary.daily_done, "won": summary.daily_won},
        "groups": [{"rules": group.rules, "level": group.level, "played": group.played, "won": group.won,
                    "win_rate": group.win_rate, "best_time": group.best_time, "fewest_moves": group.fewest_moves}
                   for group in summary.groups],
        "last_games": [game.row() for game in reversed(summary.games[-last:] if last else [])],
    }


# -- text --------------------------------------------------------------------------------------
def stats_text(summary: Summary, rules: str | None, level: str | None, last: int, ascii: bool = False) -> str:
    """The report ``pyramide stats`` prints, in the reader's language (the table keeps its columns)."""
    from .render import format_duration, table

    scope = _scope(rules, level)
    if not summary.played:
        if scope is None:
            return tr(text("No games recorded yet.  A game is counted when it ends in `pyramide play`: "
                           "won, lost or resigned."))
        return tr(text("No games recorded yet ({scope}).  A game is counted when it ends in `pyramide play`: "
                       "won, lost or resigned.", scope=scope))
    played = plural("{count} game played", "{count} games played", summary.played)
    rate = f"{100 * (summary.win_rate or 0):.1f}"
    if scope is None:
        headline = text("Statistics: {played}, {won} won ({rate} %)", played=played, won=summary.won, rate=rate)
    else:
        headline = text("Statistics ({scope}): {played}, {won} won ({rate} %)", scope=scope, played=played,
                        won=summary.won, rate=rate)
    lines = [tr(headline), tr(text("Streak of wins: {now} now, {best} at best", now=summary.current_streak,
                                   best=summary.best_streak))]
    if summary.daily_done:
        lines.append(tr(plural("Daily deals: {count} done, {won} won", "Daily deals: {count} done, {won} won",
                               summary.daily_done, won=summary.daily_won)))
    rows = [[group.rules, tr(LEVEL_NAMES.get(group.level, group.level or "-")), str(group.played), str(group.won),
             f"{100 * (group.win_rate or 0):.1f}%",
             "-" if group.best_time is None else format_duration(group.best_time),
             "-" if group.fewest_moves is None else str(group.fewest_moves)] for group in summary.groups]
    headers = text("rules|level|played|won|win %|best time|fewest moves")
    lines += [""] + table(headers, rows, widths=(12, 7, 6, 5, 7, 10, 13), right=(2, 3, 4, 5, 6))
    if last:
        lines += ["", tr(text("Last games, newest first:"))]
        for game in reversed(summary.games[-last:]):
            lines.append(left_to_right("  " + game_line(game)))
    legend = text("Results by day (# won, . lost):") if ascii else text("Results by day (■ won, □ lost):")
    lines += ["", tr(legend)]
    lines += [left_to_right("  " + line) for line in chart_lines(summary.games, ascii)]
    return "\n".join(lines)


def _scope(rules: str | None, level: str | None) -> str | None:
    """``rules T, level hard`` (the filters of the report), or ``None``."""
    if rules and level:
        return text("rules {rules}, level {level}", rules=rules, level=LEVEL_NAMES.get(level, level))
    if rules:
        return text("rules {rules}", rules=rules)
    if level:
        return text("level {level}", level=LEVEL_NAMES.get(level, level))
    return None


RESULT_WORDS = {"cleared": text("won"), "no-moves": text("lost"), "dead": text("lost (dead)"),
                "resigned": text("resigned")}
LEVEL_NAMES: dict[str | None, str] = {level.value: word for level, word in LEVEL_WORDS.items()}


def game_line(game: GameRecord) -> str:
    """``2026-11-30 22:14  PY1-N-AAAAAAS  N  medium  won  280  74 moves  4:12  1 hint  3 undos``
    (in the reader's language)."""
    from .render import format_duration

    parts: list[str] = [local_time(game.finished_at), game.deal, game.rules]
    if game.level:
        parts.append(LEVEL_NAMES.get(game.level, game.level))
    if game.daily:
        parts.append(text("daily {date}", date=game.daily))
    parts += [
        RESULT_WORDS.get(game.termination, game.result),
        text("score {score}", score=game.score),
        plural("{count} move", "{count} moves", game.moves),
        text("time {time}", time=format_duration(game.time_played)) if game.time_played else text("untimed"),
        plural("{count} hint", "{count} hints", game.hints),
        plural("{count} undo", "{count} undos", game.undos),
    ]
    return "  ".join(tr(part) for part in parts)


def local_time(stamp: str) -> str:
    """``2026-11-30T21:14:05Z`` as local ``2026-11-30 22:14`` (the text itself when it is no time)."""
    import datetime

    try:
        moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def chart_lines(games: list[GameRecord], ascii: bool = False) -> list[str]:
    """One line per day with games (the last :data:`CHART_DAYS` of them): a mark per game, in order."""
    won_mark, lost_mark = ("#", ".") if ascii else ("■", "□")
    days: dict[str, list[bool]] = {}
    for game in games:
        days.setdefault(local_time(game.finished_at)[:10], []).append(game.result == "won")
    lines = []
    for day, results in list(days.items())[-CHART_DAYS:]:
        marks = "".join(won_mark if won else lost_mark for won in results[:CHART_WIDTH])
        more = f" +{len(results) - CHART_WIDTH}" if len(results) > CHART_WIDTH else ""
        lines.append(f"{day}  {marks + more:<{CHART_WIDTH + 5}} "
                     + tr(text("{won} of {count} won", won=sum(results), count=len(results))))
    return lines
