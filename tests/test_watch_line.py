"""``pyramide play FILE --watch`` without a terminal (issue 22, item 7: "for scripts and demos"): the
solver's line printed one action at a time with its board, the save left byte for byte as it was."""

from __future__ import annotations

from pathlib import Path

from cli_support import WON_N_CODE, WON_N_LINE, invoke, make_save


def test_watch_without_a_terminal_prints_the_winning_line_and_leaves_the_save(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE[:20])
    before = path.read_bytes()
    result = invoke("play", str(path), "--watch", "--ascii")
    assert result.status == 0, result
    header = next(line for line in result.stdout.splitlines() if line.startswith("-- the solver's"))
    count = int(header.split(": ")[1].split()[0])
    assert result.stdout.count("\n-- action ") == count and f"-- action {count}: " in result.stdout
    assert result.stdout.rstrip().splitlines()[-2].endswith("won")  # the last board: the pyramid cleared
    assert path.read_bytes() == before


def test_watch_of_a_position_that_cannot_be_won_goes_to_the_most_pyramid_cards(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAU4")  # R17's example
    result = invoke("play", str(path), "--watch")
    assert result.status == 0, result
    assert "-- this position cannot be won: the line to the most pyramid cards that can come off (" in result.stdout


def test_watch_of_a_finished_game_says_there_is_no_line(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    result = invoke("play", str(path), "--watch")
    assert result.status == 0 and "-- the game is over: there is no line to watch" in result.stdout
    assert "-- action" not in result.stdout


def test_watch_with_taps_or_json_is_a_usage_error_and_changes_nothing(tmp_path: Path) -> None:
    path = make_save(tmp_path)
    before = path.read_bytes()
    for extra in (["KC"], ["--json"], ["--line"]):
        result = invoke("play", str(path), "--watch", *extra)
        assert result.status == 2 and "--watch plays the solver's line" in result.stderr + result.stdout, result
    assert path.read_bytes() == before
