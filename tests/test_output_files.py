"""Where a command may write a file the user named (issue 12, item 5): ``check_output``'s rules, the
same for ``deal``, ``solve -o`` and ``survey --csv``."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pyramide_cli.storage.files import (
    SAVE_OUTPUT, FileAccessError, atomic_write, check_output, csv_output,
)

from cli_support import WON_N_CODE, invoke, make_save

CODE = "PY1-N-AAAAAAS"


@pytest.fixture
def device(tmp_path: Path) -> Path:
    """A character device of the test's own (what /dev/null is, made with mknod), so that a regression
    replaces this node and never the system's /dev/null (this test, failing as root, once did)."""
    path = tmp_path / "null"
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (AttributeError, OSError):
        pytest.skip("cannot make a device node here (root only); /dev/null itself is never risked")
    return path


def test_a_new_name_is_written(tmp_path: Path) -> None:
    assert check_output(str(tmp_path / "new.yaml"), force=False) == tmp_path / "new.yaml"


def test_nothing_that_exists_is_replaced_without_force(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    dangling = tmp_path / "dangling.yaml"
    dangling.symlink_to(tmp_path / "missing.yaml")
    for name in (save, dangling):
        with pytest.raises(FileAccessError, match="add --force"):
            check_output(str(name), force=False)


def test_force_replaces_a_save_or_an_empty_file(tmp_path: Path) -> None:
    save = make_save(tmp_path, CODE)
    empty = tmp_path / "empty.yaml"
    empty.touch()
    assert check_output(str(save), force=True) == save
    assert check_output(str(empty), force=True) == empty


def test_force_refuses_a_file_that_is_not_a_save(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(FileAccessError, match="it is not a pyramide save, and --force replaces only"):
        check_output(str(notes), force=True)


def test_force_follows_a_link_and_judges_its_target(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(notes)
    with pytest.raises(FileAccessError, match=r"a link to .*notes.txt.*not a pyramide save"):
        check_output(str(link), force=True)
    saved = make_save(tmp_path, CODE, name="real.yaml")
    good = tmp_path / "good.yaml"
    good.symlink_to(saved)
    assert check_output(str(good), force=True) == good


def test_force_never_creates_a_file_through_a_dangling_link(tmp_path: Path) -> None:
    dangling = tmp_path / "dangling.yaml"
    dangling.symlink_to(tmp_path / "elsewhere.yaml")
    with pytest.raises(FileAccessError, match="symbolic link to a missing file"):
        check_output(str(dangling), force=True)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_force_refuses_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    with pytest.raises(FileAccessError, match="a FIFO"):
        check_output(str(fifo), force=True)


def test_force_refuses_a_device(device: Path) -> None:
    with pytest.raises(FileAccessError, match="a device; --force replaces only a regular file"):
        check_output(str(device), force=True)


def test_a_folder_or_a_name_ending_in_a_slash_is_refused(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    with pytest.raises(FileAccessError, match="it is a folder"):
        check_output(str(tmp_path / "games"), force=True)
    with pytest.raises(FileAccessError, match="ends with a '/'"):
        check_output(str(tmp_path / "newdir") + "/", force=False)
    with pytest.raises(FileAccessError, match="an empty file name"):
        check_output("", force=False)


def test_a_csv_kind_recognises_its_whole_header_line() -> None:
    survey = csv_output("a survey CSV", "number,code,verdict")
    assert survey.recognises("number,code,verdict\n1,PY1,won\n") and survey.recognises("number,code,verdict\r\n")
    assert not survey.recognises("numbers are fun\n")
    assert not survey.recognises("number,phone\n1,555\n")  # another CSV whose first column is `number`
    assert not survey.recognises("number,code,verdict,score\n")  # a tournament's, say
    assert SAVE_OUTPUT.recognises("# comment\npyramide-save: 1\n") and not SAVE_OUTPUT.recognises("x: 1\n")


@pytest.mark.parametrize("head", [
    "pyramide-save: 2\n", "# comment\n\n---\npyramide-save: 2\n", "\ufeff# c\npyramide-save : 2\n",
])
def test_a_save_is_recognised_by_its_first_key(head: str) -> None:
    assert SAVE_OUTPUT.recognises(head)


@pytest.mark.parametrize("head", [
    "# Notes\n\nSome text\npyramide-save: is a key\n",  # a README that mentions the key
    "x: 1\npyramide-save: 2\n", "  pyramide-save: 2\n", "text\n", "",
])
def test_a_file_that_only_mentions_the_save_key_is_not_a_save(head: str) -> None:
    assert not SAVE_OUTPUT.recognises(head)


def test_atomic_write_itself_never_replaces_a_device(device: Path) -> None:
    with pytest.raises(FileAccessError, match="only a regular file is ever replaced"):
        atomic_write(device, "x")
    assert stat.S_ISCHR(os.lstat(device).st_mode)


# -- the commands --------------------------------------------------------------------------------
def test_deal_to_a_device_with_force_leaves_the_device(device: Path) -> None:
    outcome = invoke("deal", CODE, "-o", str(device), "--force")  # replaced /dev/null when run as root
    assert outcome.status == 5 and "a device" in outcome.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    assert sorted(path.name for path in device.parent.iterdir()) == ["null"]  # no lock file beside it


def test_deal_into_newdir_slash_writes_no_file_named_newdir(tmp_path: Path) -> None:
    outcome = invoke("deal", CODE, "-o", f"{tmp_path}/newdir/")
    assert outcome.status == 5 and "names a folder" in outcome.stderr
    assert list(tmp_path.iterdir()) == []


def test_deal_force_through_a_link_to_a_non_save_changes_nothing(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("precious\n")
    (tmp_path / "g.yaml").symlink_to(notes)
    outcome = invoke("deal", CODE, "-o", str(tmp_path / "g.yaml"), "--force")
    assert outcome.status == 5 and "not a pyramide save" in outcome.stderr
    assert notes.read_text() == "precious\n"


def test_deal_force_through_a_link_to_a_save_replaces_the_save_and_keeps_the_link(tmp_path: Path) -> None:
    real = make_save(tmp_path, CODE, "KC", name="real.yaml")
    link = tmp_path / "g.yaml"
    link.symlink_to(real)
    assert invoke("deal", WON_N_CODE, "-o", str(link), "--force").status == 0
    assert link.is_symlink() and f"deal: {WON_N_CODE}" in real.read_text()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_solve_output_refuses_a_fifo_before_searching(tmp_path: Path) -> None:
    fifo = tmp_path / "won.yaml"
    os.mkfifo(fifo)
    outcome = invoke("solve", WON_N_CODE, "-o", str(fifo), "--force", "--json")
    assert outcome.status == 5 and "a FIFO" in outcome.json()["error"]["message"]
    assert "verdict" not in outcome.json()  # refused before the search, not after it
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_survey_csv_follows_the_same_rules(tmp_path: Path) -> None:
    csv = tmp_path / "out.csv"
    args = ["survey", "--deals", "0-1", "--csv", str(csv), "--max-states", "2000"]
    assert invoke(*args).status == 0 and csv.read_text().startswith("number,")
    again = invoke(*args)
    assert again.status == 5 and "add --force" in again.stderr
    assert invoke(*args, "--force").status == 0
    notes = tmp_path / "notes.csv"
    notes.write_text("name,phone\n")
    refused = invoke("survey", "--deals", "0-1", "--csv", str(notes), "--force")
    assert refused.status == 5 and "not a survey CSV" in refused.stderr and notes.read_text() == "name,phone\n"


def test_stats_csv_follows_the_same_rules(tmp_path: Path) -> None:
    db = tmp_path / "stats.sqlite3"
    csv = tmp_path / "games.csv"
    first = invoke("stats", "--db", str(db), "--csv", str(csv))
    assert first.status == 0 and csv.read_text().startswith("finished_at,")
    again = invoke("stats", "--db", str(db), "--csv", str(csv))
    assert again.status == 5 and "add --force" in again.stderr
    assert invoke("stats", "--db", str(db), "--csv", str(csv), "--force").status == 0
    notes = tmp_path / "notes.csv"
    notes.write_text("name,phone\n")
    refused = invoke("stats", "--db", str(db), "--csv", str(notes), "--force")
    assert refused.status == 5 and "not a statistics CSV" in refused.stderr and notes.read_text() == "name,phone\n"


# -- the writers of the bots: tournament, serve, the Python API --------------------------------------
def test_tournament_csv_follows_the_same_rules_and_save_dir_refuses_a_dangling_link(tmp_path: Path) -> None:
    csv = tmp_path / "t.csv"
    args = ["tournament", "--bot", "greedy", "--deals", "0-1", "--csv", str(csv)]
    assert invoke(*args).status == 0 and csv.read_text().startswith("number,")
    assert "add --force" in invoke(*args).stderr
    assert invoke(*args, "--force").status == 0
    notes = tmp_path / "notes.csv"
    notes.write_text("name,phone\n")
    refused = invoke("tournament", "--bot", "greedy", "--deals", "0-1", "--csv", str(notes), "--force")
    assert refused.status == 5 and "not a tournament CSV" in refused.stderr and notes.read_text() == "name,phone\n"
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "PY1-N-AAAAAAA.yaml").symlink_to(tmp_path / "elsewhere.yaml")  # deal 0 under N
    dangling = invoke("tournament", "--bot", "greedy", "--deals", "0-1", "--save-dir", str(folder))
    assert dangling.status == 5 and not (tmp_path / "elsewhere.yaml").exists()


def test_serve_save_with_overwrite_replaces_only_a_save(tmp_path: Path) -> None:
    from test_serve import ask, greeted

    notes = tmp_path / "notes.yaml"
    notes.write_text("my notes\n")
    server = greeted()
    ask(server, op="new", code=CODE)
    refused = ask(server, op="save", file=str(notes), overwrite=True)
    assert refused["ok"] is False and "not a pyramide save" in refused["error"]["message"]
    assert notes.read_text() == "my notes\n"


def test_write_game_with_overwrite_replaces_only_a_save(tmp_path: Path) -> None:
    from pyramide_cli.api import read_game, write_game

    notes = tmp_path / "notes.yaml"
    notes.write_text("my notes\n")
    game = read_game(make_save(tmp_path, CODE, "KC"))
    with pytest.raises(FileAccessError, match="overwrite=True replaces only a pyramide save"):
        write_game(notes, game, overwrite=True)
    assert notes.read_text() == "my notes\n"
    write_game(tmp_path / "g.yaml", game, overwrite=True)  # a save is replaced


def test_write_game_checks_its_target_before_taking_the_lock(tmp_path: Path) -> None:
    """Issue 26 (item 4, the Python API's writer): a refused target gets no X.lock / X.queue beside it,
    and a trailing '/' is refused rather than written as a file."""
    from pyramide_cli import FileAccessError, Game, write_game

    folder = tmp_path / "folder"
    folder.mkdir()
    for name in (str(folder), str(tmp_path / "sub") + "/"):
        with pytest.raises(FileAccessError):
            write_game(name, Game.from_code("PY1-N-AAAAAAS"), overwrite=True)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["folder"]
    assert list(folder.iterdir()) == []


def test_force_replaces_neither_notes_mentioning_the_save_key_nor_another_csv(tmp_path: Path) -> None:
    """Issue 26, item 5: a README.md with a line `pyramide-save:` counted as a save, any CSV whose first
    column is `number` as a survey's, and a survey's CSV as a tournament's."""
    notes = tmp_path / "README.md"
    notes.write_text("# Notes\n\nHow to play:\npyramide-save: is the first key of a save\n")
    outcome = invoke("deal", "PY1-N-AAAAAAS", "-o", str(notes), "--force", "--quiet")
    assert outcome.status == 5 and "is not a pyramide save" in outcome.stderr
    phones = tmp_path / "phones.csv"
    phones.write_text("number,phone\n1,555\n")
    survey = tmp_path / "survey.csv"
    assert invoke("survey", "--deals", "0-0", "--max-states", "50", "--csv", str(survey)).status == 0
    for target, kind in ((phones, "survey"), (survey, "tournament")):
        before = target.read_text()
        command = (["survey", "--deals", "0-0", "--max-states", "50"] if kind == "survey"
                   else ["tournament", "--bot", "random", "--deals", "0-0"])
        outcome = invoke(*command, "--csv", str(target), "--force")
        assert outcome.status == 5 and f"is not a {kind} CSV" in outcome.stderr, outcome
        assert target.read_text() == before
    outcome = invoke("survey", "--deals", "0-1", "--max-states", "50", "--csv", str(survey), "--force")
    assert outcome.status == 0 and survey.read_text().count("\n") == 3  # its own kind is replaced
