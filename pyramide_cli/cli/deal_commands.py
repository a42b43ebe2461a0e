"""``pyramide deal`` (a new game in a save file) and ``pyramide show`` (the board of a file or code)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..engine.deal import Deal
from ..engine.game import Game
from ..engine.rules import Rules
from ..engine.text import text
from ..storage.files import SaveLock, check_output
from ..storage.save import SaveData, write_save
from .app import SUMMARIES, app
from .completion import complete_level, complete_rules
from .common import (
    AsciiOption, FrenchOption, JsonOption, RevealOption, board_style, echo, emit_json, extras_of, reporting,
    shown, usage_error, whole_number,
)
from .render import Extras, game_state, render_board
from .targets import load_target

DEAL_HELP = """Deal a new game and write it to a save file; print its code and the board.

Without CODE the deal number is random.  A deal code (R21-R22, case-insensitive) deals exactly
the same cards under the same rules on any machine; --rules deals the same number under other
rules (R23: same pyramid).  --from-layout starts a custom deal (R24) from a layout file
(docs/cli.md).  The file is pyramide-<code>.yaml unless -o says otherwise, and an existing file
is never overwritten without --force (which replaces only a save or an empty file, never a
FIFO, a device or a file of another kind, also behind a link).

\b
Rules: a preset N (default), T (3 passes), E (2 passes) or O (1 pass), then +variants:
  strict, recycles=K, waste-pair, cover-pair, stock-top, draw-3   e.g. T+strict

\b
Examples:
  pyramide deal                                # random deal under N
  pyramide deal PY1-N-AAAAAAS -o g.yaml        # that exact deal
  pyramide deal --rules T+strict -o hard.yaml
  pyramide deal --from-layout examples/r24-layout.yaml -o r24.yaml
  pyramide deal --json                         # code, file and position as JSON
  pyramide deal --level hard --rules T         # a winnable Hard deal (R25)
  pyramide deal --level easy --seed 42         # the same pick on every machine
  pyramide deal --daily                        # today's daily deal (R26)
  pyramide deal --daily --date 2026-03-14

\b
Levels (docs/levels.md): --level easy|medium|hard|expert deals a deal the solver proves
winnable, of that level, scanning up from a random deal number (or one derived from --seed).
--daily deals the Medium deal of a date (default today, local time), the same everywhere.
The save records the level and the daily date; show displays them.

Exit: 0 ok, 2 bad rules, level, date or options, 4 bad code or layout file, 5 file exists or
cannot be written, 7 no deal of the level found within the search limit.
"""

SHOW_HELP = """Show the board of a save file, of a layout file, or of a fresh deal given by its code.

The pyramid on top, stock and waste below on the left, the foundation below on the right, then
the status line: code, score, moves, pass (`pass 2 of 3`; `pass 2` when recycles are unlimited),
stock count, time played, selection and outcome.  Red suits are red on a terminal (never with
NO_COLOR); blocked cards are dim; the selected card is highlighted.

\b
Examples:
  pyramide show g.yaml
  pyramide show py1-n-aaaaaas --ascii          # codes are case-insensitive
  pyramide show g.yaml --json --reveal         # JSON, with the face-down stock

Exit: 0 ok, 4 bad code or file (also not UTF-8 or over 2 MiB), 5 missing, unreadable or not a
regular file.
"""

@app.command(help=DEAL_HELP, short_help=SUMMARIES["deal"])
def deal(
    code: Annotated[Optional[str], typer.Argument(
        metavar="CODE", help="A deal code such as PY1-N-AAAAAAS; random when left out.", show_default=False)] = None,
    rules: Annotated[Optional[str], typer.Option(
        "--rules", "-r", metavar="RULES", help="Rules such as N, T, T+strict, N+recycles=2 (default N, or the code's).",
        show_default=False, autocompletion=complete_rules)] = None,
    output: Annotated[Optional[str], typer.Option(
        "--output", "-o", metavar="FILE", help="The save file to write (default pyramide-<code>.yaml).",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it is a save (or an empty file).")] = False,
    from_layout: Annotated[Optional[str], typer.Option(
        "--from-layout", metavar="LAYOUT", help="Start a custom deal from a layout file (R24).",
        show_default=False)] = None,
    assist: Annotated[bool, typer.Option("--assist/--no-assist", help="Error help (R15) saved with the game.")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the code.")] = False,
    level: Annotated[Optional[str], typer.Option(
        "--level", "-l", metavar="LEVEL", help="Deal a winnable deal of this level: easy, medium, hard or expert.",
        show_default=False, autocompletion=complete_level)] = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", parser=whole_number, metavar="N",
        help="With --level: a reproducible pick (a whole number 0 to 2**64-1).",
        show_default=False)] = None,
    daily: Annotated[bool, typer.Option(
        "--daily", help="Deal the daily deal (a Medium deal, the same for everyone on a date).")] = False,
    date: Annotated[Optional[str], typer.Option(
        "--date", metavar="YYYY-MM-DD", help="With --daily: the daily deal of this date (default today).",
        show_default=False)] = None,
    json_output: JsonOption = False,
    ascii: AsciiOption = False,
    french: FrenchOption = False,
) -> None:
    with reporting(json_output):
        if code is not None and from_layout is not None:
            raise usage_error(text("give a deal code or --from-layout, not both"))
        chosen_rules = Rules.parse(rules) if rules is not None else None
        if output is not None:
            check_output(output, force)  # before a level search, not after it
        picked_level = picked_daily = None
        if level is not None or daily or seed is not None or date is not None:
            from .grade_commands import pick_deal

            if from_layout is not None:
                raise usage_error(text("--from-layout deals a custom deal: --level and --daily cannot go with it"))
            new_deal, picked_level, picked_daily = pick_deal(level, seed, daily, date, chosen_rules, code is not None)
        else:
            new_deal = _make_deal(code, chosen_rules, from_layout)
        path = check_output(output if output is not None else f"pyramide-{new_deal.code}.yaml", force)
        data = SaveData.new(new_deal, assist=assist, level=picked_level, daily=picked_daily)
        with SaveLock(path):
            check_output(path, force)
            write_save(path, data)
        game = Game(new_deal)
        extras = extras_of(data)
        if json_output:
            emit_json({"ok": True, "file": str(path), "number": new_deal.number, "custom": new_deal.is_custom,
                       **game_state(game, extras)})
        elif quiet:
            echo(new_deal.code)
        else:
            echo(text("{code}  (rules {rules}) saved to {name}", code=new_deal.code, rules=new_deal.rules.name,
                      name=shown(path)))
            if picked_level is not None:
                from .grade_commands import pick_text

                echo(pick_text(picked_level, picked_daily))
            echo(render_board(game, board_style(ascii, french), extras))


def _make_deal(code: str | None, rules: Rules | None, layout: str | None) -> Deal:
    if layout is not None:
        from ..storage.layout_file import read_layout

        return read_layout(layout, rules)
    if code is not None:
        dealt = Deal.from_code(code)
        return dealt.with_rules(rules) if rules is not None else dealt
    import secrets

    from ..engine.deal import MAX_DEAL_NUMBER

    return Deal.from_number(secrets.randbelow(MAX_DEAL_NUMBER + 1), rules or Rules())


@app.command(help=SHOW_HELP, short_help=SUMMARIES["show"],
             no_args_is_help=True)
def show(
    target: Annotated[str, typer.Argument(
        metavar="FILE|CODE", help="A save file, a layout file or a deal code.", show_default=False)],
    reveal: RevealOption = False,
    json_output: JsonOption = False,
    ascii: AsciiOption = False,
    french: FrenchOption = False,
) -> None:
    with reporting(json_output):
        game, data, file = load_target(target)
        extras = extras_of(data) if data is not None else Extras()
        if json_output:
            emit_json({"ok": True, "file": file, **game_state(game, extras, reveal=reveal)})
        else:
            echo(render_board(game, board_style(ascii, french), extras, reveal=reveal))
