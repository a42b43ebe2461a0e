"""examples/: every save is checked by `make replay-examples`, and each says what it claims (R17, R18, R24)."""

from __future__ import annotations

import re

import pytest

from builders import rules_moves

from pyramide_cli.engine.deal import Deal
from pyramide_cli.storage.layout_file import read_layout
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.position import Outcome, Position, Termination
from pyramide_cli.storage.save import LAYOUT_KEY, load_game

from cli_support import EXAMPLES, ROOT

SAVES = sorted(path for path in EXAMPLES.glob("*.yaml") if LAYOUT_KEY not in path.read_text())


def makefile_checks() -> dict[str, tuple[str, int]]:
    target = ROOT.joinpath("Makefile").read_text().split("replay-examples:", 1)[1].split("\n\n", 1)[0]
    checks = {}
    for match in re.finditer(r"pyramide replay (\S+) --expect (\w+) --expect-score (\d+)", target):
        checks[match.group(1)] = (match.group(2), int(match.group(3)))
    return checks


def test_there_are_the_examples_issue_3_asks_for() -> None:
    names = {path.name for path in SAVES}
    assert {"r24-worked-example.yaml", "won-n.yaml", "stuck-n.yaml"} <= names


@pytest.mark.parametrize("path", SAVES, ids=lambda path: path.name)
def test_every_save_is_checked_by_make_replay_examples_with_its_own_outcome(path) -> None:
    expected = makefile_checks()[f"examples/{path.name}"]
    saved = load_game(path)  # replays the history and checks the recorded fields
    assert (saved.game.outcome.value, saved.game.score) == expected
    assert f"--expect {expected[0]} --expect-score {expected[1]}" in path.read_text()  # its comment says so too


def test_r24_worked_example_is_the_layout_played_as_the_rules_say() -> None:
    saved = load_game(EXAMPLES / "r24-worked-example.yaml")
    assert saved.game.deal == read_layout(EXAMPLES / "r24-layout.yaml")
    assert [str(move) for move in saved.data.history] == ["KD", "10C+3S"]
    row_7 = [str(card) for card in saved.game.position.rows()[6] if card is not None]
    assert row_7 == ["7C", "3H", "4H", "7S"]


def test_the_won_game_is_under_n_and_scores_280() -> None:
    saved = load_game(EXAMPLES / "won-n.yaml")
    assert saved.game.deal.rules.name == "N" and saved.data.status is Outcome.WON and saved.data.score == 280


def most_removable(code: str) -> tuple[int, int, int]:
    """Exhaustive search: (positions, most pyramid cards removed, most cards removed) over all play
    by the rules' own moves (R17: draws and recycles included at dead positions, as format 1 played)."""
    deal = Deal.from_code(code)
    limited = deal.rules.recycle_limit is not None
    seen, stack, most_pyramid, most_cards = set(), [Position.start(deal)], 0, 0
    while stack:
        position = stack.pop()
        key = (position.pyramid, position.talon, position.drawn, position.recycles if limited else 0)
        if key in seen:
            continue
        seen.add(key)
        most_pyramid = max(most_pyramid, position.pyramid_removed)
        most_cards = max(most_cards, position.cards_removed)
        stack.extend(position.apply_unchecked(move) for move in rules_moves(position))
    return len(seen), most_pyramid, most_cards


def test_the_stuck_deal_never_gets_past_14_cards_and_is_dead_under_format_2() -> None:
    saved = load_game(EXAMPLES / "stuck-n.yaml")
    assert saved.game.deal.code == "PY1-N-AAAAAU4"
    assert most_removable("PY1-N-AAAAAU4") == (8718, 7, 14)  # the numbers its comment quotes
    assert saved.game.position.cards_removed == 14 and saved.game.position.pass_number == 4
    # A format-1 file: its status (playing) is checked by its own end rule, the game is reported by today's.
    assert saved.data.format == 1 and saved.data.status is Outcome.PLAYING  # kept as format 1 (draws after death)
    assert (saved.game.outcome, saved.game.termination) == (Outcome.LOST, Termination.DEAD)
    assert not saved.game.legal_moves and saved.game.position.can_draw  # draws remain, but nothing can be removed
    dead_at = next(number for number in range(len(saved.data.history) + 1)
                   if Game.walk(saved.game.deal, saved.data.history[:number]).game.is_over)
    assert str(saved.data.history[dead_at - 1]) == "10C+3D"  # its last removal ends the game today


def test_the_lost_twin_under_o() -> None:
    saved = load_game(EXAMPLES / "lost-o.yaml")
    assert most_removable("PY1-O-AAAAAU4") == (576, 7, 12)
    assert saved.data.status is Outcome.LOST and not saved.game.legal_moves and not saved.game.can_undo
