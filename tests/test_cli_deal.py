"""`pyramide deal` and `pyramide show` through Typer's CliRunner."""

from __future__ import annotations

from pathlib import Path

import pytest

from pyramide_cli.engine.deal import Deal
from pyramide_cli.storage.save import load_game

from cli_support import EXAMPLES, R24_TEXT_CODE, invoke, make_save


def test_deal_with_a_code_writes_the_default_file_and_prints_code_and_board(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    outcome = invoke("deal", "py1-n-aaaaaas", "--ascii")
    assert outcome.status == 0, outcome
    assert outcome.stdout.startswith("PY1-N-AAAAAAS  (rules N) saved to pyramide-PY1-N-AAAAAAS.yaml\n")
    assert "5D    KC    2S    JH    3D   10H    AS" in outcome.stdout
    saved = load_game(tmp_path / "pyramide-PY1-N-AAAAAAS.yaml")
    assert saved.data.deal == "PY1-N-AAAAAAS" and saved.data.history == ()
    assert saved.game.position.waste_top == Deal.from_number(18).talon[0]


def test_deal_never_overwrites_without_force(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", "KC")
    before = path.read_bytes()
    outcome = invoke("deal", "PY1-T-AAAAAAB", "-o", str(path))
    assert outcome.status == 5
    assert "already exists" in outcome.stderr and "--force" in outcome.stderr
    assert path.read_bytes() == before
    assert invoke("deal", "PY1-T-AAAAAAB", "-o", str(path), "--force").status == 0
    assert load_game(path).data.deal == "PY1-T-AAAAAAB"


def test_a_random_deal_is_a_valid_numbered_deal(tmp_path: Path) -> None:
    first = invoke("deal", "-o", str(tmp_path / "a.yaml"), "--json").json()
    second = invoke("deal", "-o", str(tmp_path / "b.yaml"), "--json").json()
    assert first["ok"] and first["rules"] == "N" and isinstance(first["number"], int)
    assert Deal.from_code(first["deal"]).number == first["number"]
    assert first["deal"] != second["deal"]  # 34 billion deal numbers
    assert first["file"] == str(tmp_path / "a.yaml") and first["custom"] is False


def test_rules_option_deals_the_same_number_under_other_rules(tmp_path: Path) -> None:
    document = invoke("deal", "PY1-N-AAAAAAS", "--rules", "T+strict", "-o", str(tmp_path / "g.yaml"), "--json").json()
    assert document["deal"] == "PY1-TS-AAAAAAS" and document["rules"] == "T+strict"
    n_pyramid = invoke("show", "PY1-N-AAAAAAS", "--json").json()["pyramid"]
    assert document["pyramid"] == n_pyramid  # R23: the same pyramid under every preset
    assert document["waste"] == [] and document["stock_count"] == 24


def test_quiet_deal_prints_only_the_code(tmp_path: Path) -> None:
    outcome = invoke("deal", "PY1-E-AAAAAAB", "-o", str(tmp_path / "g.yaml"), "--quiet")
    assert outcome.stdout == "PY1-E-AAAAAAB\n"


def test_deal_from_the_r24_layout(tmp_path: Path) -> None:
    outcome = invoke("deal", "--from-layout", str(EXAMPLES / "r24-layout.yaml"), "-o", str(tmp_path / "r.yaml"),
                     "--json")
    document = outcome.json()
    assert document["deal"] == R24_TEXT_CODE and document["custom"] is True and document["number"] is None
    assert document["pyramid"][0] == ["JD"] and document["waste"] == ["7D"]


def test_no_assist_is_saved_with_the_game(tmp_path: Path) -> None:
    invoke("deal", "PY1-N-AAAAAAS", "-o", str(tmp_path / "g.yaml"), "--no-assist")
    assert load_game(tmp_path / "g.yaml").data.assist is False


@pytest.mark.parametrize("args, status, words", [
    (["PY1-N-AAAAAA"], 4, "6 characters"),
    (["PY2-N-AAAAAAS"], 4, "unknown format version"),
    (["PY1-N-AAAAAA1"], 4, "bad character '1'"),
    (["--rules", "Z"], 2, "unknown rules preset"),
    (["--rules", "N+fast"], 2, "unknown variant"),
    (["PY1-N-AAAAAAS", "--from-layout", "x.yaml"], 2, "not both"),
    (["--from-layout", "missing.yaml"], 5, "no such file"),
    (["-o", "missing-folder/g.yaml"], 5, "no such file or folder"),
])
def test_deal_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], status: int, words: str) -> None:
    monkeypatch.chdir(tmp_path)
    outcome = invoke("deal", *args)
    assert outcome.status == status, outcome
    assert words in outcome.stderr and outcome.stderr.count("\n") == 1
    assert not any(path.suffix == ".yaml" for path in tmp_path.iterdir())


def test_deal_errors_as_json(tmp_path: Path) -> None:
    outcome = invoke("deal", "PY1-N-AAAAAA", "--json")
    document = outcome.json()
    assert outcome.status == 4 and outcome.stderr == ""
    assert document == {"schema": 2, "ok": False, "error": {"kind": "bad-input", "exit_status": 4,
                                               "message": document["error"]["message"]}}
    assert "6 characters" in document["error"]["message"]


def test_show_a_save_a_code_and_a_layout(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", "KC", "draw")
    from_file = invoke("show", str(path), "--json").json()
    assert from_file["file"] == str(path) and from_file["history"] == ["KC", "draw"]
    assert from_file["moves"] == 2 and from_file["waste"] == ["10C", "3S"]
    from_code = invoke("show", "py1-n-aaaaaas", "--json").json()
    assert from_code["file"] is None and from_code["moves"] == 0 and from_code["deal"] == "PY1-N-AAAAAAS"
    layout = invoke("show", str(EXAMPLES / "r24-layout.yaml"), "--json").json()
    assert layout["deal"] == R24_TEXT_CODE


def test_show_text_and_reveal(tmp_path: Path) -> None:
    outcome = invoke("show", "PY1-N-AAAAAAS", "--ascii", "--reveal")
    assert outcome.status == 0
    assert "stock, top first: 3S 4S 9D" in outcome.stdout
    assert "PY1-N-AAAAAAS | score 0 | moves 0 | pass 1 | stock 23 | time 0:00 | playing" in outcome.stdout
    revealed = invoke("show", "PY1-N-AAAAAAS", "--json", "--reveal").json()
    assert revealed["stock"][:3] == ["3S", "4S", "9D"] and len(revealed["stock"]) == 23


@pytest.mark.parametrize("target, status, words", [
    ("nothing.yaml", 5, "no such file"),
    ("PY1-N-AAAAAAAA", 4, "8 characters"),
])
def test_show_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, status: int, words: str) -> None:
    monkeypatch.chdir(tmp_path)
    outcome = invoke("show", target)
    assert outcome.status == status and words in outcome.stderr


def test_show_a_bad_save_names_the_field(tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", "KC")
    path.write_text(path.read_text().replace("score: 10", "score: 20"))
    outcome = invoke("show", str(path), "--json")
    assert outcome.status == 4
    assert "score: the file says 20 but its history gives 10" in outcome.json()["error"]["message"]
