"""`pyramide replay`: divergences, --expect checks, --step and --upto (CliRunner)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import EXAMPLES, WON_N_CODE, WON_N_LINE, invoke, make_save

CODE = "PY1-N-AAAAAAS"


def test_a_consistent_file_replays_and_says_so(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    outcome = invoke("replay", str(path), "--expect", "won", "--expect-score", "280")
    assert outcome.status == 0, outcome
    assert f"replay {path}: 73 actions, score 280, moves 73, won: agrees with the file" in outcome.stdout
    assert "expect status won: ok" in outcome.stdout and "expect score 280: ok" in outcome.stdout
    assert outcome.stderr == ""


@pytest.mark.parametrize("options, failure", [
    (["--expect", "lost"], "expected status lost, replay gives won"),
    (["--expect-score", "270"], "expected score 270, replay gives 280"),
])
def test_unmet_expectations_exit_1(tmp_path: Path, options: list[str], failure: str) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    outcome = invoke("replay", str(path), *options)
    assert outcome.status == 1
    assert outcome.stderr == f"pyramide: {path}: {failure}\n"


def test_a_recorded_score_the_history_does_not_give_is_the_first_divergence(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC", "draw")
    path.write_text(path.read_text().replace("score: 10", "score: 40"))
    outcome = invoke("replay", str(path), "--json")
    document = outcome.json()
    assert outcome.status == 1 and document["ok"] is False and document["agrees"] is False
    assert document["divergence"] == {"field": "score", "recorded": 40, "replayed": 10, "action": None,
                                      "message": "score: the file says 40 but its history gives 10"}
    assert document["error"]["kind"] == "check-failed" and document["error"]["exit_status"] == 1


def test_an_illegal_action_in_the_history_is_named(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC", "draw")
    path.write_text(path.read_text().replace("history: [KC, draw]", "history: [KC, draw, KD]"))
    outcome = invoke("replay", str(path))
    assert outcome.status == 1
    assert ("action 3 (KD) cannot be played after the 2 before it: this card is blocked by another card"
            in outcome.stderr)


def test_upto_shows_the_position_after_n_actions(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC", "draw", "draw")
    outcome = invoke("replay", str(path), "--upto", "1", "--json")
    state = outcome.json()["state"]
    assert state["moves"] == 1 and state["history"] == ["KC"] and outcome.json()["upto"] == 1
    text = invoke("replay", str(path), "--upto", "0", "--ascii").stdout
    assert "| moves 0 |" in text
    bad = invoke("replay", str(path), "--upto", "4")
    assert bad.status == 2 and "the history has 3 actions" in bad.stderr


def test_step_prints_every_position(tmp_path: Path) -> None:
    path = make_save(tmp_path, CODE, "KC", "draw")
    text = invoke("replay", str(path), "--step", "--ascii").stdout
    assert text.count("-- ") == 3 and "-- action 2: draw" in text
    steps = invoke("replay", str(path), "--step", "--json").json()["steps"]
    assert [step["move"] for step in steps] == [None, "KC", "draw"]
    assert [step["state"]["moves"] for step in steps] == [0, 1, 2]


@pytest.mark.parametrize("args, status, words", [
    (["--expect", "maybe"], 2, "playing, won, lost"),
    (["--expect-score", "lots"], 2, "'lots' is not a valid int"),
])
def test_bad_options(tmp_path: Path, args: list[str], status: int, words: str) -> None:
    path = make_save(tmp_path, CODE)
    outcome = invoke("replay", str(path), *args)
    assert outcome.status == status and words in outcome.stderr


def test_bad_and_missing_files(tmp_path: Path) -> None:
    assert invoke("replay", str(tmp_path / "none.yaml")).status == 5
    path = make_save(tmp_path, CODE)
    path.write_text(path.read_text().replace("pyramide-save: 2", "pyramide-save: 9"))
    outcome = invoke("replay", str(path))
    assert outcome.status == 4 and "newer pyramide" in outcome.stderr


def test_a_format_1_save_stuck_at_a_dead_position_replays_to_lost_dead() -> None:
    path = str(EXAMPLES / "stuck-n.yaml")
    outcome = invoke("replay", path, "--expect", "dead")
    assert outcome.status == 0, outcome
    assert "score 70, moves 69, lost (dead): agrees with the file" in outcome.stdout
    assert "its status playing agrees with that format's end rule" in outcome.stdout
    document = invoke("replay", path, "--json").json()
    assert (document["status"], document["termination"], document["format"]) == ("lost", "dead", 1)
    assert document["state"]["legal_moves"] == [] and document["state"]["termination"] == "dead"
