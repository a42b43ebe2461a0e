"""Layout files for custom deals (R24) (pyramide_cli/layout_file.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramide_cli.engine.cards import CARDS, parse_card
from pyramide_cli.engine.game import Game
from pyramide_cli.storage.layout_file import LayoutFileError, parse_layout, read_layout
from pyramide_cli.engine.rules import Rules
from pyramide_cli.engine.taps import TapSession

from cli_support import EXAMPLES

ROWS = """rows:
  - [JD]
  - [6C, 7H]
  - [AS, 4D, QS]
  - [5H, 3D, 6H, 8S]
  - [KH, KC, AD, KS, 9C]
  - [QC, 2C, 8D, 10D, 10S, JS]
  - [7C, 10C, 3H, 4H, 3S, KD, 7S]
"""


def test_r24_example_layout_holds_the_printed_cards_and_its_worked_example() -> None:
    deal = read_layout(EXAMPLES / "r24-layout.yaml")
    game = Game(deal)
    session = TapSession(game)
    rows = [[str(card) for card in row] for row in game.position.rows()]
    assert rows[0] == ["JD"] and rows[6] == ["7C", "10C", "3H", "4H", "3S", "KD", "7S"]
    assert str(game.position.waste_top) == "7D" and game.position.stock_count == 23
    assert session.play("QC").refusal.value == "blocked"  # R24: Q♣ is blocked at the start
    session.play("7C")
    assert session.play("7S").message == "The sum must equal 13"
    session.play("7S")  # clear the selection again
    for word in ("KD", "10C", "3S"):
        assert session.play(word).ok
    assert [str(card) for card in game.position.rows()[6] if card is not None] == ["7C", "3H", "4H", "7S"]


def test_the_same_layout_in_ascii_names_gives_the_same_deal() -> None:
    text = f"pyramide-layout: 1\n{ROWS}waste: 7D\n"
    assert parse_layout(text) == read_layout(EXAMPLES / "r24-layout.yaml")


def test_an_explicit_stock_is_dealt_top_first_and_rules_other_than_n_take_no_waste() -> None:
    pyramid = set(ROWS.replace("rows:", "").replace("-", "").replace("[", "").replace("]", "").replace(",", "").split())
    rest = [str(card) for card in CARDS if str(card) not in pyramid and str(card) not in ("2S", "AC")]
    stock = ["2S", "AC", *rest]
    deal = parse_layout(f"pyramide-layout: 1\nrules: T\n{ROWS}stock: [{', '.join(stock)}]\n")
    assert deal.rules == Rules.preset("T")
    assert [str(card) for card in deal.talon] == stock
    assert Game(deal).position.stock[:2] == (parse_card("2S"), parse_card("AC"))


def test_rules_from_the_command_line_override_the_file() -> None:
    deal = parse_layout(f"pyramide-layout: 1\nrules: N\n{ROWS}waste: 7D\n", rules=Rules.parse("N+strict"))
    assert deal.rules.strict


@pytest.mark.parametrize("text, words", [
    ("pyramide-layout: 1\nrows: [[JD]]\nwaste: 7D\n", "7 rows"),
    (f"pyramide-layout: 1\n{ROWS}", "must name it"),
    (f"pyramide-layout: 1\nrules: T\n{ROWS}waste: 7D\n", "deal no waste card"),
    (f"pyramide-layout: 1\n{ROWS}waste: 7Z\n", "unknown card '7Z'"),
    (f"pyramide-layout: 1\n{ROWS}waste: JD\n", "appears twice"),
    (f"pyramide-layout: 1\n{ROWS}waste: 7D\nstock: [2S]\n", "30 cards instead of 52"),
    (f"pyramide-layout: 1\n{ROWS}waste: 7D\nstock: 2C\n", "list of cards"),
    (f"pyramide-layout: 1\nrules: X\n{ROWS}waste: 7D\n", "rules"),
    (f"pyramide-layout: 2\n{ROWS}waste: 7D\n", "format 2 is not supported"),
    (f"pyramide-layout: 1\ncolour: red\n{ROWS}waste: 7D\n", "unknown key 'colour'"),
    ("pyramide-layout: 1\nrows: JD\n", "7 lists of cards"),
    ("rows: []\n", "not a pyramide layout file"),
    ("rows: [\n", "not valid YAML"),
])
def test_bad_layouts_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(LayoutFileError, match=words):
        parse_layout(text)


def test_a_bare_number_in_yaml_is_reported_as_the_card_text(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"pyramide-layout: 1\n{ROWS.replace('[JD]', '[10]')}waste: 7D\n")
    with pytest.raises(LayoutFileError, match="unknown card '10'"):
        read_layout(path)
    assert parse_card("10D")  # (10 alone has no suit)
