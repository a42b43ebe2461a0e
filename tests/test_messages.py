"""Messages a person understands (issue 14.4): unknown words, the card a refusal is about, plurals."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cli_support import invoke, make_save

from pyramide_cli.cli.interactive import run_session
from pyramide_cli.cli.render import Style
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.errors import MoveSyntaxError, UnknownWordError
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.text import plural
from pyramide_cli.cli.steps import refusal_line
from pyramide_cli.storage.session import play_words
from pyramide_cli.engine.taps import TapSession, parse_input

CODE = "PY1-N-AAAAAAS"  # row 7: 5D KC 2S JH 3D 10H AS; QC above 3D and 10H


@pytest.mark.parametrize("word", ["clear", "the", "hello", "x", ""])
def test_a_word_that_is_no_card_is_called_unknown_and_the_accepted_words_are_listed(word: str) -> None:
    with pytest.raises(UnknownWordError) as error:
        parse_input(word)
    message = str(error.value)
    assert message.startswith(f"unknown word {word!r}:")
    assert "is not a suit" not in message and "a card (7C)" in message and "undo" in message


@pytest.mark.parametrize(("word", "reason"), [("7X", "'X' is not a suit"), ("ZC", "'Z' is not a rank"),
                                              ("11d", "'11' is not a rank")])
def test_a_card_with_a_typo_gets_the_reason(word: str, reason: str) -> None:
    with pytest.raises(MoveSyntaxError) as error:
        parse_input(word)
    assert not isinstance(error.value, UnknownWordError)
    assert reason in str(error.value) and repr(word) in str(error.value)


def test_a_refused_pair_move_names_the_card_already_removed(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC")
    result = play_words(path, ["QC+KC"])
    assert result.refused is not None and str(result.refused.card) == "KC"
    assert refusal_line(result.refused) == "QC+KC: KC has already been removed"


def test_a_refused_pair_move_names_the_blocked_card(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    result = play_words(path, ["AS+QC"])
    assert result.refused is not None
    line = refusal_line(result.refused, lambda card: card.name(symbols=True))
    assert line == "AS+QC: Q♣ is blocked by another card"


def test_a_refused_tap_keeps_the_rules_text(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    result = play_words(path, ["QC"])
    assert result.refused is not None and result.refused.card is None
    assert refusal_line(result.refused) == "QC: This card is blocked by another card"  # R11


def test_play_arguments_with_an_unknown_word_exit_2_and_change_nothing(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    before = path.read_bytes()
    outcome = invoke("play", str(path), "KC", "clear")
    assert outcome.status == 2 and outcome.stderr.startswith("pyramide: unknown word 'clear': ")
    assert path.read_bytes() == before


def test_a_piped_session_names_its_own_words_too(tmp_path: Path) -> None:
    outcome = invoke("play", str(make_save(tmp_path, CODE)), input="KC\nthe\n")
    assert outcome.status == 2
    assert "unknown word 'the':" in outcome.stderr
    assert "hint, show, help, new, restart, resign or quit" in outcome.stderr


def test_at_the_prompt_an_unknown_word_points_to_help(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    lines = iter(["clear", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    run_session(make_save(tmp_path, CODE), io.StringIO(), True, None, Style(ascii=True), False, False)
    assert "pyramide: unknown word 'clear': type help to see" in capsys.readouterr().err


def test_plural_chooses_the_whole_phrase() -> None:
    assert plural("{count:,} position", "{count:,} positions", 1) == "1 position"
    assert plural("{count:,} position", "{count:,} positions", 0) == "0 positions"
    assert plural("{count:,} position", "{count:,} positions", 12345) == "12,345 positions"


def test_replay_says_1_action(tmp_path: Path) -> None:
    outcome = invoke("replay", str(make_save(tmp_path, CODE, "KC")))
    assert outcome.status == 0 and ": 1 action, score 10" in outcome.stdout


def test_survey_help_names_only_the_statuses_it_returns() -> None:
    outcome = invoke("survey", "--help")
    assert outcome.status == 0
    assert "exit 7" not in outcome.stdout and "Exit: 0 done" in outcome.stdout


def test_a_game_reads_both_refusal_texts() -> None:
    game = Game(Deal.from_code(CODE))
    session = TapSession(game)
    assert session.play("QC").message == "This card is blocked by another card"
