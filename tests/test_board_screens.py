"""Stored screens of the board (SVG, as Rich and Textual export them): the start, a refusal (R13) and the end,
in each language.  ``PYRAMIDE_UPDATE_SCREENS=1`` writes them anew (then look at them before committing)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from board_support import SCREENS, UPDATE, board, card, click, drive, screen_svg
from cli_support import WON_N_CODE, WON_N_LINE, make_save

from pyramide_cli.board.adapter import WASTE

LANGUAGES = ("en", "fr", "he", "sv")


def compare(name: str, svg: str) -> None:
    stored = SCREENS / f"{name}.svg"
    if UPDATE:
        SCREENS.mkdir(exist_ok=True)
        stored.write_text(svg, encoding="utf-8")
    assert stored.exists(), f"no stored screen {stored.name}: run with PYRAMIDE_UPDATE_SCREENS=1"
    if svg != stored.read_text(encoding="utf-8"):
        failed = Path(os.environ.get("TMPDIR", "/tmp")) / f"{name}.new.svg"
        failed.write_text(svg, encoding="utf-8")
        raise AssertionError(f"the board no longer looks like {stored.name}: see {failed}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_and_a_refusal_look_as_stored(tmp_path: Path, lang: str) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS")
    app = board(path, lang=lang)

    async def body(pilot) -> None:
        compare(f"board-start-{lang}", screen_svg(app))
        await click(pilot, card("5D"))
        await click(pilot, card("2S"))  # R13: refused, 2♠ stays selected
        await pilot.pause()
        compare(f"board-refusal-{lang}", screen_svg(app))

    drive(app, body)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_end_looks_as_stored(tmp_path: Path, lang: str) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:-1])  # the last pair: 7♦ + 6♥
    app = board(path, lang=lang, stats=tmp_path / "stats.sqlite3")

    async def body(pilot) -> None:
        await click(pilot, card("7D") if app.session.game.position.waste_top != card("7D") else WASTE)
        await click(pilot, card("6H") if app.session.game.position.waste_top != card("6H") else WASTE)
        await pilot.pause()
        assert app.panel == "end"
        compare(f"board-end-{lang}", screen_svg(app))

    drive(app, body)
