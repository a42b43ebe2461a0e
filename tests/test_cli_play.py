"""`pyramide play` through Typer's CliRunner: arguments, stdin, refusals, JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramide_cli.engine.position import Outcome, Termination
from pyramide_cli.storage.save import load_game

from cli_support import WON_N_CODE, WON_N_LINE, invoke, make_save

CODE = "PY1-N-AAAAAAS"  # row 7: 5D KC 2S JH 3D 10H AS; waste 10C; stock 3S 4S 9D …


def history(path: Path) -> list[str]:
    return [str(move) for move in load_game(path).data.history]


def test_taps_and_moves_as_arguments(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), "KC", "10H", "3D", "draw", "--ascii")
    assert outcome.status == 0, outcome
    lines = outcome.stdout.splitlines()
    assert lines[:4] == ["KC: removed KC (+10)", "10H: selected 10H", "3D: removed 10H+3D (+20)", "draw: drew 3S"]
    assert "score 30 | moves 3" in outcome.stdout
    assert history(path) == ["KC", "10H+3D", "draw"]


def test_cards_may_be_written_with_symbols_t_and_french_letters(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    assert invoke("play", str(path), "R♣", "T♥", "3d", "-q").status == 0
    assert history(path) == ["KC", "10H+3D"]


def test_a_refusal_exits_3_with_one_line_and_keeps_what_came_before(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), "KC", "5D", "AS", "draw", "--ascii")
    assert outcome.status == 3
    assert outcome.stderr == "pyramide: AS: The sum must equal 13; AS is selected now\n"
    saved = load_game(path)
    assert history(path) == ["KC"] and str(saved.data.selected) == "AS"  # R13


def test_a_refused_move_leaves_the_file_unchanged(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC")
    before = path.read_bytes()
    outcome = invoke("play", str(path), "QD")
    assert outcome.status == 3 and "This card is blocked by another card" in outcome.stderr  # R11
    assert path.read_bytes() == before


def test_no_assist_silences_the_message_but_not_the_status(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), "QD", "--no-assist")
    assert outcome.status == 3 and outcome.stderr == "pyramide: QD: refused (blocked)\n"  # R15
    document = invoke("play", str(path), "QD", "--no-assist", "--json").json()
    assert document["refused"]["message"] is None and document["error"]["refusal"] == "blocked"


def test_json_reports_steps_refusal_and_state(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), "KC", "7C+7S", "--json")
    document = outcome.json()
    assert outcome.status == 3 and outcome.stderr == ""
    assert document["ok"] is False
    assert document["error"]["kind"] == "illegal-move" and document["error"]["exit_status"] == 3
    assert [step["move"] for step in document["steps"]] == ["KC"]
    assert document["refused"]["input"] == "7C+7S" and document["refused"]["refusal"] == "not-in-play"
    assert document["written"] is True and document["state"]["history"] == ["KC"]
    ok = invoke("play", str(path), "draw", "--json").json()
    assert ok["ok"] is True and "error" not in ok and ok["state"]["moves"] == 2


@pytest.mark.parametrize("word", ["1Z", "10C-3S", "7"])
def test_unreadable_text_is_a_usage_error_and_changes_nothing(tmp_path: Path, word: str) -> None:
    path = make_save(tmp_path, CODE)
    before = path.read_bytes()
    outcome = invoke("play", str(path), "KC", word)
    assert outcome.status == 2 and repr(word) in outcome.stderr
    assert path.read_bytes() == before


def test_missing_and_bad_files(tmp_path: Path) -> None:
    assert invoke("play", str(tmp_path / "none.yaml"), "draw").status == 5
    bad = tmp_path / "bad.yaml"
    bad.write_text("pyramide-save: 1\ndeal: PY1-N-AAAAAAS\n")
    outcome = invoke("play", str(bad), "draw", "--json")
    assert outcome.status == 4 and "missing keys" in outcome.json()["error"]["message"]


def test_a_won_game_refuses_more_taps(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    outcome = invoke("play", str(path), "draw")
    assert outcome.status == 3 and "The game is over" in outcome.stderr
    assert "You won" in invoke("show", str(path)).stdout


def test_stdin_lines_with_comments_blank_lines_and_aliases(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    script = "# my opening\nKC\n\n10H\n  3D  \ns\nw\nhelp\nshow\nu\nquit\ndraw\n"
    outcome = invoke("play", str(path), "--ascii", input=script)
    assert outcome.status == 0, outcome
    assert history(path) == ["KC", "10H+3D", "draw", "undo"]  # 'draw' after quit is not read
    assert load_game(path).data.selected is None  # 'w' selected the waste top; undo cleared it
    assert "waste: selected 3S" in outcome.stdout
    assert "undo (u)" in outcome.stdout  # the help text


def test_stdin_stops_at_the_first_refusal(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), input="KC\nQD\ndraw\n")
    assert outcome.status == 3 and "blocked" in outcome.stderr
    assert history(path) == ["KC"]


def test_stdin_unreadable_line_is_a_usage_error_after_the_lines_before_it(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), input="KC\nfoo bar baz\ndraw\n")
    assert outcome.status == 2 and "foo bar baz" in outcome.stderr
    assert history(path) == ["KC"]


def test_stdin_with_json_gives_one_document_with_every_step_and_the_hints(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("play", str(path), "--json", input="KC\nhint\n10H+3D\n")
    document = outcome.json()
    assert outcome.status == 0
    assert [step["move"] for step in document["steps"]] == ["KC", "10H+3D"]
    assert len(document["hints"]) == 1 and document["hints"][0].startswith("Tap ")  # the solver's hint (issue 4)
    assert document["state"]["score"] == 30


def test_stdin_with_nothing_prints_the_board(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE)
    before = path.read_bytes()
    outcome = invoke("play", str(path), "--ascii", input="")
    assert outcome.status == 0 and "PY1-N-AAAAAAS | score 0" in outcome.stdout
    assert path.read_bytes() == before


@pytest.mark.parametrize("word", ["hint", "quit", "help"])
def test_session_words_as_arguments_are_usage_errors(tmp_path: Path, word: str) -> None:
    path = make_save(tmp_path, CODE)
    before = path.read_bytes()
    outcome = invoke("play", str(path), "KC", word)
    assert outcome.status == 2 and "works in a play session" in outcome.stderr
    assert path.read_bytes() == before


def test_resign_ends_the_game_and_the_file_says_so(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC")
    outcome = invoke("play", str(path), "resign", "--json")
    document = outcome.json()
    assert outcome.status == 0 and document["schema"] == 2
    assert (document["state"]["status"], document["state"]["termination"]) == ("lost", "resigned")
    assert document["state"]["legal_moves"] == [] and document["state"]["undo_available"] == 0
    saved = load_game(path)
    assert (saved.data.status, saved.data.termination) == (Outcome.LOST, Termination.RESIGNED)
    refused = invoke("play", str(path), "undo")
    assert refused.status == 3 and "The game is over" in refused.stderr
    shown = invoke("show", str(path), "--ascii")
    assert "You resigned: the game is lost" in shown.stdout and "| lost" in shown.stdout
    assert invoke("replay", str(path), "--expect", "resigned").status == 0
    assert invoke("replay", str(path), "--expect", "dead").status == 1
