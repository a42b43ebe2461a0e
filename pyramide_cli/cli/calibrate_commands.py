"""``pyramide calibrate``: the maintenance command that recalibrates the level thresholds (R25).

Hidden from ``pyramide --help``: players never need it; maintainers run it when the random player
or the solver changes.  The work is :mod:`pyramide_cli.analysis.calibrate`, imported inside.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..engine.text import message_of, text
from .app import app
from .common import echo, reporting, usage_error, whole_number

CALIBRATE_HELP = """Recalibrate the level thresholds (R25) from a sample of deals (maintainers only).

For each rules preset: solve every deal of the sample, play the random player's games on each
winnable one (seeded exactly as grading seeds them) and put the thresholds at the quartiles of
the win counts (docs/levels.md).  Without --write the results are only printed; with it
pyramide_cli/analysis/level_table.py and the calibration section of docs/levels.md are rewritten.
Results do not depend on --jobs.  Takes minutes per preset on the default sample.

\b
Examples:
  pyramide calibrate --presets N --deals 0-99 --games N=100     # a quick look, nothing written
  pyramide calibrate --presets T --deals 0-3999 --games T=1000 --jobs 2 --write

Exit: 0 done, 2 bad option (or a sample without a winnable deal), 5 a file cannot be written.
"""


@app.command(help=CALIBRATE_HELP, short_help="Recalibrate the level thresholds (maintainers).", hidden=True)
def calibrate(
    presets: Annotated[str, typer.Option("--presets", metavar="P,Q", help="Comma-separated presets.")] = "N,T,E,O",
    deals: Annotated[str, typer.Option("--deals", metavar="A-B", help="Deal numbers of the sample.")] = "0-1999",
    games: Annotated[str, typer.Option("--games", metavar="P=G,…",
                                       help="Games per preset, e.g. N=500,T=1000 (default: the current table's).",
                                       show_default=False)] = "",
    jobs: Annotated[int, typer.Option("--jobs", "-j", parser=whole_number, metavar="N", help="Worker processes.")] = 1,
    write: Annotated[bool, typer.Option("--write", help="Rewrite level_table.py and docs/levels.md.")] = False,
    table_file: Annotated[str, typer.Option("--table-file", hidden=True)] = "",
    docs_file: Annotated[str, typer.Option("--docs-file", hidden=True)] = "",
) -> None:
    with reporting(False):
        from pathlib import Path

        from ..analysis import calibrate as work

        try:
            chosen = work.parse_presets(presets)
            first, last = work.parse_range(deals)
            counts = work.parse_games(games) if games.strip() else {}
        except ValueError as error:
            raise usage_error(message_of(error)) from None
        if jobs < 1:
            raise usage_error(text("--jobs {value}: must be at least 1", value=jobs))

        def say(line: str) -> None:
            echo(line)
            sys.stdout.flush()

        try:
            work.run(chosen, first, last, counts, jobs, write,
                     table_file=Path(table_file) if table_file else work.TABLE_FILE,
                     docs_file=Path(docs_file) if docs_file else work.DOCS_FILE, say=say)
        except work.NothingToCalibrate as error:  # nothing is written: the files are written last
            raise usage_error(message_of(error)) from None
