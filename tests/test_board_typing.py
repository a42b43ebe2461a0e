"""What a player types on the full-screen board besides its keys (issue 22, items 4 and 8): card
names, the board's words in each language with Enter, ``:`` lines, and how refusals and hints name
cards; the board of a finished game."""

from __future__ import annotations

from pathlib import Path

import pytest
from board_support import board, card, click, drive, screen_text
from cli_support import make_save

from pyramide_cli.board.adapter import WASTE
from pyramide_cli.board.typed import completed_card, starts_line
from pyramide_cli.storage.save import load_game

START = "PY1-N-AAAAAAS"
"""Bottom row at the start: 5♦ K♣ 2♠ J♥ 3♦ 10♥ A♠; 10♣ on the waste, 23 cards in the stock."""


def history(path: Path) -> list[str]:
    return [str(move) for move in load_game(path).data.history]


@pytest.mark.parametrize(("lang", "word"), [("fr", "talon"), ("fr", "pioche"), ("sv", "talong"), ("he", "קופה"),
                                            ("en", ":stock"), ("fr", ":défausse")])
def test_the_boards_word_for_the_stock_typed_then_enter_taps_it(tmp_path: Path, lang: str, word: str) -> None:
    path = make_save(tmp_path, START)
    app = board(path, lang=lang)

    async def body(pilot) -> None:
        await pilot.press(*word)
        assert app.typed == word and app.panel is None  # `talong`: its l and n were typed, not played
        await pilot.press("enter")
        assert app.typed == ""

    drive(app, body)
    assert history(path) == (["draw"] if "défausse" not in word else [])
    if "défausse" in word:  # the waste's card alone: selected (R13), nothing played
        assert load_game(path).data.selected == card("10C")


def test_indice_typed_under_french_shows_a_hint_and_plays_nothing(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path, lang="fr")

    async def body(pilot) -> None:
        await pilot.press(*"indice", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.hint is not None and app.hint.cards == (card("KC"),)

    drive(app, body)
    assert history(path) == [] and load_game(path).data.hints == 1


def test_a_colon_line_takes_command_letters_a_lower_case_king_and_a_move(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        await pilot.press(":", "k", "c", "enter")  # k alone moves the focus; after : it is typed
        await pilot.press(":", *"10c+3d", "enter")
        await pilot.press(":", *"draw", "enter")

    drive(app, body)
    assert history(path) == ["KC", "10C+3D", "draw"]


def test_a_card_name_still_taps_at_once_and_backspace_takes_a_key_back(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path)

    async def body(pilot) -> None:
        await pilot.press("1", "0", "h")
        assert app.session.data.selected == card("10H") and app.typed == ""
        await pilot.press("a", "x", "backspace", "s")  # a, x taken back, s: A♠ (10♥ + A♠: refused)
        assert app.typed == "" and app.refused and app.session.data.selected == card("AS")

    drive(app, body)


def test_a_typed_word_that_is_no_tap_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    before = path.read_bytes()
    app = board(path)

    async def body(pilot) -> None:
        await pilot.press(*"pomme", "enter")
        assert app.refused and len(app.messages) == 1 and "unknown word 'pomme'" in app.messages[0]
        assert "unknown word 'pomme'" in screen_text(app)

    drive(app, body)
    assert path.read_bytes() == before


def test_ctrl_c_quits_while_a_name_is_typed(tmp_path: Path) -> None:
    app = board(make_save(tmp_path, START))
    exits: list[bool] = []

    async def body(pilot) -> None:
        app.exit = lambda *args, **kwargs: exits.append(True)  # type: ignore[method-assign]
        await pilot.press("t", "a", "q")
        assert app.typed == "taq" and exits == []  # q is typed
        await pilot.press("ctrl+c")
        assert exits == [True]

    drive(app, body)


def test_the_keys_that_start_a_line_are_no_commands() -> None:
    assert all(starts_line(key) for key in "AaTtKQJRDV1pi:קå")
    assert not any(starts_line(key) for key in "dujklhHwsnrXq? ")
    assert completed_card("10", "h") == card("10H") and completed_card("v", "d") == card("JD")
    assert completed_card(":k", "d") is None and completed_card("ta", "s") is None


def test_a_refused_click_on_the_waste_names_its_card(tmp_path: Path) -> None:
    app = board(make_save(tmp_path, START))

    async def body(pilot) -> None:
        await click(pilot, card("5D"))
        await click(pilot, WASTE)  # 5 + 10: refused (R13), 10♣ selected now
        assert app.refused and app.messages[-1].startswith("10♣: The sum must equal 13")

    drive(app, body)


def test_the_board_of_a_finished_game_shows_its_keys_and_b_goes_back_to_the_end(tmp_path: Path) -> None:
    app = board(make_save(tmp_path, START))

    async def body(pilot) -> None:
        await click(pilot, card("KC"))
        await pilot.press("X", "y")
        assert app.panel == "end"
        await pilot.press("b")
        assert app.panel is None and "b the end of the game" in screen_text(app) and "H hint" not in screen_text(app)
        await pilot.press("b")
        assert app.panel == "end" and "You resigned" in screen_text(app)

    drive(app, body)


@pytest.mark.parametrize(("lang", "named"), [("en", "K♣"), ("fr", "R♣")])
def test_a_hint_names_its_cards_as_the_board_draws_them(tmp_path: Path, lang: str, named: str) -> None:
    from pyramide_cli.i18n import tr

    app = board(make_save(tmp_path, START), lang=lang)

    async def body(pilot) -> None:
        await pilot.press("H")
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = tr(app.messages[0])
        assert named in said and "KC" not in said, said
        assert named in screen_text(app)

    drive(app, body)


def test_new_with_a_level_typed_deals_a_game_of_that_level_after_asking(tmp_path: Path) -> None:
    """In the player's words (``:nouvelle facile`` is ``new easy``); one case, as a level search plays games."""
    path, stats = make_save(tmp_path, START), tmp_path / "stats.sqlite3"
    app = board(path, lang="fr", stats=stats)
    line = ":nouvelle facile"

    async def body(pilot) -> None:
        await click(pilot, card("KC"))  # a game in progress: the new deal is asked first, as `n` is
        await pilot.press(*line, "enter")
        assert app.panel == "confirm:n"
        await pilot.press("y")
        assert app.panel is None and app.session.game.move_count == 0

    drive(app, body)
    saved = load_game(path).data
    assert saved.level is not None and saved.level.value == "easy" and saved.deal != START


def test_new_with_a_level_that_is_none_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    before = path.read_bytes()
    app = board(path)

    async def body(pilot) -> None:
        await pilot.press(*":new hardest", "enter")
        assert app.refused and app.panel is None
        assert "a level is easy, medium, hard or expert" in screen_text(app)

    drive(app, body)
    assert path.read_bytes() == before


def test_the_footer_names_enter_space_and_esc_as_the_messages_do(tmp_path: Path) -> None:
    path = make_save(tmp_path, START)
    app = board(path, lang="fr")

    async def body(pilot) -> None:
        assert "Entrée " in screen_text(app) and "Enter " not in screen_text(app)
        await pilot.press("?")
        assert "Échap" in screen_text(app) and "Esc " not in screen_text(app)

    drive(app, body)
