"""`pyramide replay FILE|DIR ...`: batches, the JUnit report, GitHub annotations, saves' own expectations."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

import yaml

from cli_support import EXAMPLES, ROOT, WON_N_CODE, WON_N_LINE, invoke, make_save, save_text

from pyramide_cli.cli.replay_batch import github_data, github_property
from pyramide_cli.storage.save_batch import is_save_text

NO_GITHUB = {"GITHUB_ACTIONS": None, "GITHUB_WORKSPACE": None}
EXAMPLE_SAVES = sorted(path.name for path in EXAMPLES.glob("*.yaml") if "pyramide-layout:" not in path.read_text())


def saves_folder(tmp_path: Path) -> Path:
    """The examples' saves in ``saves/`` and ``saves/more/``, and a won game whose score was changed."""
    folder = tmp_path / "saves"
    (folder / "more").mkdir(parents=True)
    for name in EXAMPLE_SAVES:
        shutil.copy(EXAMPLES / name, folder / ("more" if name.startswith("w") else "") / name)
    shutil.copy(EXAMPLES / "r24-layout.yaml", folder)  # a layout file: not a save
    (folder / "notes.yaml").write_text("title: not a save\n")
    tampered = folder / "more" / "tampered.yaml"
    tampered.write_text(save_text(WON_N_CODE, *WON_N_LINE).replace("score: 280", "score: 290"))
    return folder


def junit_cases(path: Path) -> dict[str, ElementTree.Element]:
    root = ElementTree.parse(path).getroot()
    return {case.get("name"): case for case in root.iter("testcase")}


def test_a_folder_with_one_tampered_save_fails_and_the_junit_report_names_it_alone(tmp_path: Path) -> None:
    folder = saves_folder(tmp_path)
    report = tmp_path / "replay.xml"
    outcome = invoke("replay", str(folder), "--junit", str(report), env=NO_GITHUB)
    assert outcome.status == 1, outcome
    cases = junit_cases(report)
    tampered = str(folder / "more" / "tampered.yaml")
    assert len(cases) == len(EXAMPLE_SAVES) + 1 and tampered in cases  # no layout, no notes.yaml
    failed = {name for name, case in cases.items() if list(case)}
    assert failed == {tampered}
    failure = cases[tampered].find("failure")
    assert failure is not None and "score" in failure.get("message") and "290" in failure.get("message")
    assert f"FAILED  {tampered}: " in outcome.stdout and outcome.stdout.count("\nok      ") == len(EXAMPLE_SAVES) - 1
    assert tampered in outcome.stderr and outcome.stderr.count("\n") == 1


def test_the_batch_document_has_one_entry_per_save(tmp_path: Path) -> None:
    folder = saves_folder(tmp_path)
    outcome = invoke("replay", str(folder), "--json", env=NO_GITHUB)
    document = outcome.json()
    assert outcome.status == 1 and outcome.stderr == ""
    assert document["ok"] is False and document["error"]["kind"] == "check-failed"
    assert (document["saves"], document["failed"]) == (len(EXAMPLE_SAVES) + 1, 1)
    by_name = {Path(entry["file"]).name: entry for entry in document["files"]}
    assert by_name["tampered.yaml"]["divergence"]["field"] == "score"
    assert (by_name["tampered.yaml"]["divergence"]["recorded"], by_name["tampered.yaml"]["score"]) == (290, 280)
    assert by_name["won-n.yaml"]["expectations"] == [  # from the file's own "# pyramide-expect" lines
        {"check": "status", "expected": "won", "actual": "won", "ok": True},
        {"check": "score", "expected": 280, "actual": 280, "ok": True}]


def test_every_example_agrees_as_a_batch_with_its_own_expectations() -> None:
    outcome = invoke("replay", str(EXAMPLES), env=NO_GITHUB)
    assert outcome.status == 0, outcome
    assert outcome.stdout.count("2 expectations met") == len(EXAMPLE_SAVES)


def test_an_unreadable_file_fails_alone_and_the_batch_goes_on(tmp_path: Path) -> None:
    good = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"pyramide-save: 2\n\xff\xfe\x00")
    outcome = invoke("replay", str(binary), str(tmp_path / "missing.yaml"), str(good), "--json", env=NO_GITHUB)
    entries = outcome.json()["files"]
    assert outcome.status == 1
    assert [entry["ok"] for entry in entries] == [False, False, True]
    assert [entry["error"]["kind"] for entry in entries[:2]] == ["bad-input", "file-error"]
    assert "not UTF-8" in entries[0]["error"]["message"] and entries[2]["score"] == 280


def test_a_folder_without_saves_fails(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    outcome = invoke("replay", str(tmp_path / "empty"), env=NO_GITHUB)
    assert outcome.status == 1 and "no save in" in outcome.stdout


def test_a_saves_own_expectation_fails_it_alone_or_in_a_batch(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text("# pyramide-expect: lost\n" + save_text(WON_N_CODE, *WON_N_LINE))
    single = invoke("replay", str(path))
    assert single.status == 1 and single.stderr == f"pyramide: {path}: expected status lost, replay gives won\n"
    batch = invoke("replay", str(path), str(path), env=NO_GITHUB)
    assert batch.status == 1 and batch.stdout.count("expected status lost, replay gives won") == 2
    path.write_text("# pyramide-expect-score: lots\n" + save_text(WON_N_CODE, *WON_N_LINE))
    assert invoke("replay", str(path)).status == 4


def test_expect_options_apply_to_every_save_of_a_batch() -> None:
    outcome = invoke("replay", str(EXAMPLES), "--expect", "lost", "--json", env=NO_GITHUB)
    failed = {Path(entry["file"]).name for entry in outcome.json()["files"] if not entry["ok"]}
    assert outcome.status == 1 and failed == {"won-n.yaml", "r24-worked-example.yaml"}


def test_step_and_upto_need_a_single_file() -> None:
    outcome = invoke("replay", str(EXAMPLES), "--upto", "1")
    assert outcome.status == 2 and "name a single file" in outcome.stderr


def test_the_junit_file_follows_the_output_rules(tmp_path: Path) -> None:
    save = make_save(tmp_path, WON_N_CODE, *WON_N_LINE)
    report = tmp_path / "report.xml"
    report.write_text("precious\n")
    refused = invoke("replay", str(save), "--junit", str(report), "--force", env=NO_GITHUB)
    assert refused.status == 5 and report.read_text() == "precious\n"
    report.write_text("")
    assert invoke("replay", str(save), "--junit", str(report), env=NO_GITHUB).status == 5
    assert invoke("replay", str(save), "--junit", str(report), "--force", env=NO_GITHUB).status == 0
    assert list(junit_cases(report)) == [str(save)]
    assert invoke("replay", str(save), "--junit", str(report), "--force", env=NO_GITHUB).status == 0  # a report


def test_junit_xml_holds_hostile_names_and_messages(tmp_path: Path) -> None:
    folder = tmp_path / "a<&\"b"
    folder.mkdir()
    path = folder / "x\x1b]0;y.yaml"
    path.write_text(save_text(WON_N_CODE, *WON_N_LINE).replace("score: 280", "score: 281"))
    report = tmp_path / "r.xml"
    assert invoke("replay", str(folder), "--junit", str(report), env=NO_GITHUB).status == 1
    [(name, case)] = junit_cases(report).items()
    assert name == str(path).replace("\x1b", "\\x1b") and case.find("failure") is not None


def test_github_annotations_name_the_file_and_line(tmp_path: Path) -> None:
    path = make_save(tmp_path, WON_N_CODE, *WON_N_LINE, name="a,b:c%.yaml")
    path.write_text(path.read_text().replace("score: 280", "score: 290"))
    line = next(number for number, text in enumerate(path.read_text().splitlines(), 1) if text.startswith("score:"))
    outcome = invoke("replay", str(path), str(path), "--json", env={"GITHUB_ACTIONS": "true",
                                                                    "GITHUB_WORKSPACE": str(tmp_path)})
    annotations = outcome.stderr.splitlines()
    assert len(annotations) == 2 and outcome.json()["failed"] == 2
    assert annotations[0] == (f"::error file=a%2Cb%3Ac%25.yaml,line={line},title=pyramide replay::score: the file says "
                              "290 but its history gives 280")


def test_github_escaping_follows_the_runners_rules() -> None:
    # actions/toolkit: data escapes % CR LF; properties also : and ,
    assert github_data("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext: a,b"
    assert github_property("50% done\r\nnext: a,b") == "50%25 done%0D%0Anext%3A a%2Cb"


@pytest.mark.parametrize("head, is_save", [
    ("pyramide-save: 2\ndeal: x\n", True),
    ("# a comment\n\n---\npyramide-save: 1\n", True),
    ("\ufeffpyramide-save : 2\n", True),
    ("pyramide-layout: 1\n", False),
    ("deal: x\npyramide-save: 2\n", False),
    ("# pyramide-save: 2\n", False),
    ("", False),
])
def test_a_save_in_a_folder_is_a_file_whose_first_key_is_pyramide_save(head: str, is_save: bool) -> None:
    assert is_save_text(head) is is_save


def test_the_ci_configurations_of_docs_ci_replay_a_folder_of_saves(tmp_path: Path, monkeypatch) -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "ci.md").read_text(encoding="utf-8"), re.DOTALL)
    configurations = [yaml.safe_load(block) for block in blocks if "jobs:" in block or "script:" in block]
    github, gitlab = configurations
    commands = [step["run"] for step in github["jobs"]["replay"]["steps"] if "run" in step]
    commands += gitlab["replay-saves"]["script"]
    replays = [shlex.split(command) for command in commands if command.startswith("pyramide replay")]
    assert len(replays) == 2 and gitlab["replay-saves"]["artifacts"]["reports"]["junit"] == "replay-report.xml"
    shutil.copytree(EXAMPLES, tmp_path / "saves")
    monkeypatch.chdir(tmp_path)
    for arguments in replays:
        assert invoke(*arguments[1:], "--force", env=NO_GITHUB).status == 0
        assert len(junit_cases(tmp_path / "replay-report.xml")) == len(EXAMPLE_SAVES)


def test_an_illegal_action_is_annotated_on_its_history_line(tmp_path: Path) -> None:
    text = save_text("PY1-N-AAAAAAS", "KC", "draw").replace("history: [KC, draw]", "history:\n- KC\n- draw\n- KD\n")
    path = tmp_path / "g.yaml"
    path.write_text(text)
    line = text.splitlines().index("- KD") + 1
    outcome = invoke("replay", str(path), "--junit", str(tmp_path / "r.xml"),
                     env={"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": None})
    assert outcome.status == 1
    assert f"::error file={path.as_posix().replace(':', '%3A')},line={line},title=" in outcome.stderr
