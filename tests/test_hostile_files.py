"""Hostile save and layout files (issue 12, items 1, 2, 4, 9): refused at once, in one line, with the
documented exit status, and never changed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pyramide_cli.storage import save, save_format
from pyramide_cli.storage.files import MAX_FILE_BYTES
from pyramide_cli.storage.save import SaveFileError, load_yaml

from cli_support import invoke, make_save, run, save_text

CODE = "PY1-N-AAAAAAS"
LAYOUT = Path(__file__).resolve().parent.parent / "examples" / "r24-layout.yaml"


def alias_bomb(levels: int) -> str:
    """A "billion laughs": ``levels`` lists of 9 aliases of the one before (9**levels leaves)."""
    names = "abcdefghijklmnop"
    parts = ["&a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for before, name in zip(names, names[1:levels], strict=False):
        parts.append(f"&{name} [{', '.join([f'*{before}'] * 9)}]")
    return f"[{', '.join(parts)}]"


def replace_line(text: str, key: str, value: str) -> str:
    """``text`` with the line of ``key`` given ``value`` (the history's first entry for ``history``)."""
    if key == "history":
        return text.replace("history: [KC", f"history: [{value}")
    if f"\n{key}:" not in text:  # an optional key the save does not have yet
        return text.replace("\nhistory:", f"\n{key}: {value}\nhistory:")
    lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def one_line_error(outcome: object, status: int) -> str:
    assert outcome.status == status, outcome
    assert outcome.stderr.count("\n") == 1 and outcome.stderr.startswith("pyramide: "), outcome
    assert len(outcome.stderr) < 700, len(outcome.stderr)
    return outcome.stderr


# -- item 1: alias bombs ---------------------------------------------------------------------
FIELDS = ("score", "moves", "status", "selected", "assist", "level", "daily", "deal", "time_played",
          "pyramide-save", "history")


@pytest.mark.parametrize("field", FIELDS)
def test_an_alias_bomb_in_any_field_is_refused_before_it_expands(tmp_path: Path, field: str) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(replace_line(save_text(CODE, "KC"), field, alias_bomb(6)))  # 531,441 leaves
    before = path.read_bytes()
    for command in (["show"], ["replay"], ["play"]):
        args = [*command, str(path)] + (["draw"] if command == ["play"] else [])
        message = one_line_error(invoke(*args), 4)
        assert "anchors and aliases" in message and "line " in message
    assert path.read_bytes() == before


def test_the_full_billion_laughs_is_refused_at_once_by_the_loader() -> None:
    with pytest.raises(SaveFileError, match="anchors and aliases .* not allowed .*line 1, column 2"):
        load_yaml(alias_bomb(9), "bomb")


@pytest.mark.parametrize("text", ["score: &x 0", "a: !!str &x b", "? &k a\n: 1"])
def test_an_anchor_alone_is_refused_too(text: str) -> None:
    with pytest.raises(SaveFileError, match="anchors and aliases"):
        load_yaml(text, "f")


def test_nesting_deeper_than_the_ceiling_is_refused_without_recursing() -> None:
    with pytest.raises(SaveFileError, match="nested more than 16 levels"):
        load_yaml("a: " + "[" * 100 + "]" * 100, "f")
    assert load_yaml("a: " + "[" * 10 + "]" * 10, "f") == {"a": [[[[[[[[[[]]]]]]]]]]}


def test_an_alias_bomb_in_a_layout_is_refused(tmp_path: Path) -> None:
    layout = tmp_path / "layout.yaml"
    layout.write_text(LAYOUT.read_text().replace("rules: N", f"rules: {alias_bomb(6)}"))
    message = one_line_error(invoke("deal", "--from-layout", str(layout), "-o", str(tmp_path / "g.yaml")), 4)
    assert "anchors and aliases" in message


# -- item 2: huge integers ---------------------------------------------------------------------
HUGE_HEX = "0x" + "f" * 20_000


@pytest.mark.parametrize("field, value", [
    ("score", HUGE_HEX), ("moves", HUGE_HEX), ("pyramide-save", HUGE_HEX), ("score", "9" * 5000),
    ("time_played", "9" * 400), ("moves", "-" + "1" * 4400), ("score", "1:" * 3000 + "1"),
])
def test_a_huge_number_is_one_clear_line_and_exit_4(tmp_path: Path, field: str, value: str) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(replace_line(save_text(CODE), field, value))
    for command in ("show", "replay"):
        message = one_line_error(invoke(command, str(path)), 4)
        assert "a number of" in message and "(at most 40)" in message


def test_a_huge_number_as_a_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "key.yaml"
    path.write_text(save_text(CODE) + f"? {HUGE_HEX}\n: 1\n")
    assert "a number of 20,002 characters" in one_line_error(invoke("show", str(path)), 4)


def test_a_layout_version_that_is_a_huge_number_is_refused(tmp_path: Path) -> None:
    layout = tmp_path / "layout.yaml"
    layout.write_text(LAYOUT.read_text().replace("pyramide-layout: 1", f"pyramide-layout: {HUGE_HEX}"))
    assert "a number of" in one_line_error(invoke("show", str(layout)), 4)
    assert "a number of" in one_line_error(invoke("deal", "--from-layout", str(layout)), 4)


def test_a_long_but_fine_number_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(replace_line(save_text(CODE), "time_played", "1" + "0" * 30))  # 10**30 seconds
    assert invoke("show", str(path)).status == 0


# -- item 4: special and huge files ------------------------------------------------------------
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("command", [["show"], ["replay"], ["play", "draw"], ["solve"], ["hint"]])
def test_a_fifo_is_refused_at_once_and_play_takes_no_lock(tmp_path: Path, command: list[str]) -> None:
    fifo = tmp_path / "g.yaml"
    os.mkfifo(fifo)
    outcome = run(command[0], str(fifo), *command[1:], cwd=tmp_path, timeout=20)  # hung for ever before
    assert "FIFO" in one_line_error(outcome, 5)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.yaml"]  # no g.yaml.lock made


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_link_to_a_device_is_refused_at_once(tmp_path: Path, device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    link = tmp_path / "g.yaml"
    link.symlink_to(device)
    for command in (["show"], ["play", "draw"]):
        outcome = run(command[0], str(link), *command[1:], cwd=tmp_path, timeout=20)  # MemoryError / 1.7 GB before
        assert "a device" in one_line_error(outcome, 5)


def test_a_folder_is_refused_as_a_save(tmp_path: Path) -> None:
    assert "it is a folder" in one_line_error(invoke("play", str(tmp_path), "draw"), 5)


def test_a_file_over_the_size_ceiling_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with open(path, "w") as handle:  # a 50 MB comment took 3.7 s before
        handle.write("# " + "x" * (MAX_FILE_BYTES + 10) + "\n" + save_text(CODE))
    for command in (["show"], ["replay"], ["play", "draw"]):
        message = one_line_error(invoke(command[0], str(path), *command[1:]), 4)
        assert "larger than the 2,097,152 bytes" in message
    os.truncate(path, MAX_FILE_BYTES + 10)  # sparse but the same size: refused by its size alone


def test_a_history_over_the_ceiling_is_refused_on_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(save_format, "MAX_HISTORY", 30)  # the check on reading
    path = tmp_path / "long.yaml"
    path.write_text(save_text(CODE, *["draw"] * 23, "recycle", *["draw"] * 7))
    message = one_line_error(invoke("replay", str(path)), 4)
    assert "31 actions, more than the 30 a save can hold" in message


def test_play_never_writes_a_history_over_the_ceiling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(save, "MAX_HISTORY", 30)  # the check on writing
    path = make_save(tmp_path, CODE, *["draw"] * 23, "recycle", *["draw"] * 5)
    before = path.read_bytes()
    assert invoke("play", str(path), "draw").status == 0  # the 30th action fits
    after = path.read_bytes()
    message = one_line_error(invoke("play", str(path), "draw"), 5)
    assert "more than the 30 a save can hold" in message and path.read_bytes() == after != before


# -- item 9: text that is not UTF-8 is a bad file (exit 4, as docs/cli.md says) ----------------
@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "binary"])
def test_a_save_that_is_not_utf8_is_a_bad_save_file(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "g.yaml"
    text = save_text(CODE).replace("# Pyramide", "# Pyramide à")
    path.write_bytes(os.urandom(64) + b"\xff\x00" if encoding == "binary" else text.encode(encoding))
    for command in (["show"], ["replay"], ["play", "draw"]):
        message = one_line_error(invoke(command[0], str(path), *command[1:]), 4)
        assert "not UTF-8 text" in message
    document = invoke("replay", str(path), "--json").json()
    assert document["error"]["kind"] == "bad-input" and document["error"]["exit_status"] == 4


def test_a_layout_that_is_not_utf8_is_a_bad_layout(tmp_path: Path) -> None:
    layout = tmp_path / "layout.yaml"
    layout.write_bytes(LAYOUT.read_text().encode("utf-16"))
    assert "bad layout file" in one_line_error(invoke("deal", "--from-layout", str(layout)), 4)


def test_control_characters_in_a_save_are_one_escaped_line(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(save_text(CODE).replace("status: playing", "status: play\x07ing"))
    message = one_line_error(invoke("show", str(path)), 4)
    assert "\x07" not in message and "'\\x07' at character" in message
