"""What a long game costs per action: a piped ``play`` session and ``replay --step --json`` do a bounded
amount of work per action, whatever the length of the history (issue 26, items 12 and 15).

Counted in work, never in seconds: the calls to ``Move.__str__`` (writing a move's notation) and
``Move.parse`` (reading one).  Work that grows with the history at every action makes these counts
grow with the square of the number of actions.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_support import invoke, make_save
from pyramide_cli.engine.level import Level
from pyramide_cli.engine.moves import Move
from pyramide_cli.engine.position import Outcome
from pyramide_cli.storage import session
from pyramide_cli.storage.files import FileAccessError
from pyramide_cli.storage.save import SaveData, dump_yaml
from pyramide_cli.storage.session import KeptSave, play_words


@pytest.fixture
def notation_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter[str]]:
    """How many times a move's notation was written (``str``) and read (``parse``)."""
    calls: Counter[str] = Counter()
    write, read = Move.__str__, Move.parse.__func__  # type: ignore[attr-defined]

    def counted_str(self: Move) -> str:
        calls["str"] += 1
        return write(self)

    def counted_parse(cls: type[Move], text: str) -> Move:
        calls["parse"] += 1
        return read(cls, text)

    monkeypatch.setattr(Move, "__str__", counted_str)
    monkeypatch.setattr(Move, "parse", classmethod(counted_parse))
    yield calls


def test_replay_step_json_writes_each_move_a_bounded_number_of_times(tmp_path: Path,
                                                                     notation_calls: Counter[str]) -> None:
    actions = 600
    path = make_save(tmp_path, "PY1-N-AAAAAAS", *["draw", "undo"] * (actions // 2))
    notation_calls.clear()
    outcome = invoke("replay", str(path), "--step", "--json")
    document = outcome.json()
    assert outcome.status == 0 and len(document["steps"]) == actions + 1
    assert all("history" not in step["state"] for step in document["steps"])
    # Each step names its move once and lists the legal moves; the whole history at every step is 180,000.
    assert notation_calls["str"] <= 10 * actions, notation_calls


def test_a_piped_session_reads_and_writes_each_move_a_bounded_number_of_times(
        tmp_path: Path, notation_calls: Counter[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = 120
    path = make_save(tmp_path)
    monkeypatch.setattr(os, "fsync", lambda descriptor: None)  # the disk's time is not what is counted here
    notation_calls.clear()
    outcome = invoke("play", str(path), "--quiet", "--no-record", input="draw\nundo\n" * (lines // 2))
    assert outcome.status == 0, outcome
    # Rewriting (and re-reading) the whole history at every line is about 7,000 of each.
    assert notation_calls["str"] <= 5 * lines, notation_calls
    assert notation_calls["parse"] <= 5 * lines, notation_calls
    history = path.read_text().split("history:")[1]
    assert history.count("draw") == history.count("undo") == lines // 2


MOVES = [Move.parse(text) for text in ("draw", "undo", "recycle", "KD", "10C+3S", "QH+AS", "JC+2S", "resign")]


@given(st.lists(st.lists(st.sampled_from(MOVES), max_size=150), min_size=1, max_size=5), st.data())
@settings(max_examples=30, deadline=None, derandomize=True)
def test_a_save_text_is_yaml_dumping_it_whole_writes_whatever_history_came_before(
        histories: list[list[Move]], data: st.DataObject) -> None:
    """The history's text is extended from the last one written (a session's next action) or written
    anew; either way it is what dumping the whole document gives, character for character."""
    previous: tuple[Move, ...] = ()
    for history in histories:
        moves = (previous if data.draw(st.booleans()) else ()) + tuple(history)
        saved = SaveData(deal="PY1-N-AAAAAAS", history=moves, score=0, moves=0, status=Outcome.PLAYING,
                         level=data.draw(st.sampled_from([None, Level.HARD])))
        written = saved.to_text()
        document = yaml.safe_load(written)
        assert written == saved.header + dump_yaml(document)
        assert document["history"] == [str(move) for move in moves]
        previous = moves


def test_a_kept_game_is_played_on_only_while_the_file_holds_the_text_it_was_kept_with(tmp_path: Path) -> None:
    path = make_save(tmp_path)
    kept = KeptSave(path)
    first = play_words(path, ["draw"], kept=kept)
    second = play_words(path, ["draw"], kept=kept)
    assert second.game is first.game  # played on in memory: the file holds what the first batch wrote
    play_words(path, ["draw"])  # another process plays the file meanwhile
    third = play_words(path, ["draw"], expected_text=second.text, kept=kept)
    assert third.game is not first.game and third.changed_elsewhere
    assert [str(move) for move in third.game.history] == ["draw"] * 4
    assert path.read_text() == third.text and "history: [draw, draw, draw, draw]" in third.text


def test_a_batch_that_fails_midway_leaves_nothing_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = make_save(tmp_path)
    kept = KeptSave(path)
    play_words(path, ["draw"], kept=kept)

    def full_disk(*_: object) -> str:
        raise FileAccessError("cannot write g.yaml: no space left on the device")

    monkeypatch.setattr(session, "write_save", full_disk)
    with pytest.raises(FileAccessError):
        play_words(path, ["draw"], kept=kept)  # played in memory, never written
    assert kept.saved is None
    monkeypatch.undo()
    after = play_words(path, ["undo"], kept=kept)
    assert [str(move) for move in after.game.history] == ["draw", "undo"]
