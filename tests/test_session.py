"""Playing a save file batch by batch (pyramide_cli/session.py): what is saved, what is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramide_cli.engine.errors import MoveSyntaxError
from pyramide_cli.storage.files import LockTimeoutError, SaveLock
from pyramide_cli.storage.save import load_game
from pyramide_cli.cli.steps import describe, refusal_line
from pyramide_cli.storage.session import MAX_PAUSE, Stopwatch, check_word, play_words

from cli_support import make_save

CODE = "PY1-N-AAAAAAS"  # row 7: 5D KC 2S JH 3D 10H AS; waste 10C; stock 3S 4S 9D …


def test_words_apply_in_order_and_are_saved(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    result = play_words(path, ["KC", "10H", "3D", "draw"])
    assert result.refused is None and result.written
    assert [describe(step) for step in result.steps] == [
        "removed KC (+10)", "selected 10H", "removed 10H+3D (+20)", "drew 3S"]
    saved = load_game(path)
    assert [str(move) for move in saved.data.history] == ["KC", "10H+3D", "draw"]
    assert saved.data.score == 30 and saved.data.moves == 3


def test_a_refused_move_leaves_the_file_byte_for_byte_unchanged(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC")
    before = path.read_bytes()
    for words in (["5D+AS"], ["recycle"], ["KS"], ["7H"], ["JD"]):  # not 13, stock not empty, not in play …
        result = play_words(path, words)
        assert result.refused is not None and not result.written
        assert path.read_bytes() == before


def test_actions_before_a_refusal_stay_played_and_the_rest_is_not_tried(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    result = play_words(path, ["KC", "5D+AS", "draw"])
    assert [step.text for step in result.steps] == ["KC"]
    assert result.refused.text == "5D+AS" and result.refused.result.refusal.value == "sum-not-13"
    assert [str(move) for move in load_game(path).data.history] == ["KC"]


def test_r13_a_refused_pair_tap_keeps_the_second_card_selected_in_the_file(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    result = play_words(path, ["5D", "AS"])
    assert result.refused is not None and result.refused.result.message == "The sum must equal 13"
    assert result.written
    assert str(load_game(path).data.selected) == "AS"
    assert refusal_line(result.refused) == "AS: The sum must equal 13; AS is selected now"
    # a blocked card leaves the selection alone; another sum that is not 13 moves it again (R13)
    assert play_words(path, ["QD"]).refused.result.refusal.value == "blocked"
    assert str(load_game(path).data.selected) == "AS"
    assert play_words(path, ["5D"]).refused.result.refusal.value == "sum-not-13"
    assert str(load_game(path).data.selected) == "5D"


def test_the_selection_persists_between_batches(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    play_words(path, ["10H"])
    assert str(load_game(path).data.selected) == "10H"
    result = play_words(path, ["3D"])
    assert describe(result.steps[0]) == "removed 10H+3D (+20)"
    assert load_game(path).data.selected is None


def test_unreadable_text_changes_nothing_even_after_good_words(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    before = path.read_bytes()
    with pytest.raises(MoveSyntaxError, match="'1Z'"):
        play_words(path, ["KC", "1Z"])
    assert path.read_bytes() == before


@pytest.mark.parametrize("word", [
    "7C", "10♣", "tc", "RD", "10C+3S", "10c 3s", "draw", "RECYCLE", "undo", "stock", "waste",
])
def test_check_word_accepts_what_game_play_reads(word: str) -> None:
    check_word(word)


@pytest.mark.parametrize("word", ["", "1Z", "7", "10C-3S", "7C+", "hello world again", "5D+5D"])
def test_check_word_refuses_unreadable_text(word: str) -> None:
    with pytest.raises(MoveSyntaxError):
        check_word(word)


def test_without_error_help_a_refusal_has_only_its_code(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    result = play_words(path, ["QD"], assist=False)
    assert result.refused.result.message is None
    assert refusal_line(result.refused) == "QD: refused (blocked)"
    assert load_game(path).data.assist is True  # the override is not saved


def test_time_is_added_while_playing_only(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    play_words(path, [], time_added=12.0)
    assert load_game(path).data.time_played == 12.0
    play_words(path, ["draw"], time_added=3.0)
    assert load_game(path).data.time_played == 15.0


def test_undo_and_recycle_are_described(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", *["draw"] * 23)
    result = play_words(path, ["stock", "undo", "recycle"])
    assert [describe(step) for step in result.steps] == [
        "recycled the waste: pass 2", "undid the last action (score 0)", "recycled the waste: pass 2"]


def test_a_batch_waits_for_the_lock_and_fails_clearly_when_it_does_not_come(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = make_save(tmp_path, CODE)
    monkeypatch.setenv("PYRAMIDE_LOCK_TIMEOUT", "0.2")
    with SaveLock(path):
        with pytest.raises(LockTimeoutError):
            play_words(path, ["draw"])
    assert load_game(path).data.moves == 0


def test_changes_by_another_process_are_noticed(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    first = play_words(path, ["draw"])
    play_words(path, ["draw"])  # "another process"
    again = play_words(path, ["draw"], expected_text=first.text)
    assert again.changed_elsewhere and again.data.moves == 3


def test_the_stopwatch_caps_long_pauses() -> None:
    times = iter([0.0, 5.0, 5.0 + 2 * MAX_PAUSE, -1.0])
    watch = Stopwatch(lambda: next(times))
    assert watch.lap() == 5.0
    assert watch.lap() == MAX_PAUSE
    assert watch.lap() == 0.0  # a clock going backwards adds nothing


@pytest.mark.parametrize("line, value", [
    ("time_played", "0.04"), ("time_played", "42"), ("time_played", "1.0e-05"), ("time_played", "12.345678"),
    ("deal", "py1-n-aaaaaas"), ("daily", "'2026-03-14'"),
])
def test_a_refused_move_never_rewrites_a_file_whose_values_would_round_trip_differently(
        tmp_path: Path, line: str, value: str) -> None:
    """Issue 12, item 3: ``time_played: 0.04`` became ``0.0`` after a refused move."""
    path = make_save(tmp_path, CODE, "KC")
    text = path.read_text()
    if f"\n{line}:" in text:
        text = "\n".join(f"{line}: {value}" if row.startswith(f"{line}:") else row for row in text.splitlines()) + "\n"
    else:
        text = text.replace("\nhistory:", f"\n{line}: {value}\nhistory:")
    text = text.replace("rules: N\n", "") + "# a comment at the end\n"
    path.write_text(text)
    for words in (["AD"], ["5D+AS"], ["recycle"]):
        result = play_words(path, words)
        assert result.refused is not None and not result.written
        assert path.read_text() == text


def test_time_added_is_rounded_but_a_value_read_is_written_back_as_it_was(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    path.write_text(path.read_text().replace("time_played: 0.0", "time_played: 0.04"))
    play_words(path, ["draw"])  # no time added: the value stays exactly
    assert "time_played: 0.04\n" in path.read_text()
    play_words(path, ["draw"], time_added=1.234)
    assert "time_played: 1.3\n" in path.read_text()
