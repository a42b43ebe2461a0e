"""`pyramide grade`, `deal --level` and `deal --daily` through Typer's CliRunner (R25–R26).

Most tests swap the solver for a stand-in (even deal numbers winnable, odd ones not, multiples of
5 undecided) and use few games, so that they are fast and check the command line's own logic;
``test_grade_subprocess.py`` runs the real thing.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from pyramide_cli.analysis import grade
from pyramide_cli.engine.deal import Deal
from pyramide_cli.solver import Verdict
from pyramide_cli.analysis.grade import GRADING_SEED, GradingRun, Level, LevelThresholds, daily_start, seed_start
from pyramide_cli.engine.playout import win_rate
from pyramide_cli.engine.rules import Rules
from pyramide_cli.storage.save import load_game

from cli_support import invoke, make_save

SMALL = LevelThresholds("N", 40, 12, 6, 2)


def parity_prover(deal: Deal) -> Verdict:
    if deal.number is None or deal.number % 5 == 0:
        return Verdict.UNKNOWN
    return Verdict.WINNABLE if deal.number % 2 == 0 else Verdict.UNWINNABLE


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in solver and 40 games a deal."""
    monkeypatch.setattr(grade, "default_prover", lambda: parity_prover)
    monkeypatch.setattr(grade, "thresholds_for", lambda rules: SMALL)


def full_level(deal: Deal) -> Level:
    return SMALL.level_of(GradingRun(deal, SMALL).play().wins)


# -- grade -------------------------------------------------------------------------------------
def test_grade_json_of_a_winnable_deal(stand_in: None) -> None:
    outcome = invoke("grade", "PY1-N-AAAAAAC", "--json")  # deal 2
    assert outcome.status == 0, outcome
    document = outcome.json()
    deal = Deal.from_number(2)
    wins = round(win_rate(deal, SMALL.games, GRADING_SEED) * SMALL.games)
    assert document["ok"] is True and document["deal"] == "PY1-N-AAAAAAC" and document["rules"] == "N"
    assert document["winnable"] is True and document["verdict"] == "winnable"
    assert (document["wins"], document["games"]) == (wins, SMALL.games)
    assert document["win_rate"] == wins / SMALL.games
    assert document["level"] == SMALL.level_of(wins).value
    assert document["thresholds"] == {"preset": "N", "games": 40, "easy": 12, "medium": 6, "hard": 2}


def test_grade_text_names_the_level_and_the_record(stand_in: None) -> None:
    outcome = invoke("grade", "PY1-N-AAAAAAC")
    deal = Deal.from_number(2)
    wins = GradingRun(deal, SMALL).play().wins
    assert outcome.status == 0 and outcome.stderr == ""
    assert outcome.stdout.splitlines()[0] == "PY1-N-AAAAAAC  (rules N)"
    assert "winnable:       yes, proven by the solver" in outcome.stdout
    assert f"won {wins} of 40 games" in outcome.stdout
    assert f"level:          {SMALL.level_of(wins).label}  (under N: Easy >= 30.00%" in outcome.stdout


def test_grade_of_an_unwinnable_deal_has_no_level_and_exit_6(stand_in: None) -> None:
    outcome = invoke("grade", "PY1-N-AAAAAAD", "--json")  # deal 3
    assert outcome.status == 6 and outcome.stderr == ""
    document = outcome.json()
    assert document["ok"] is True and "error" not in document and document["verdict"] == "unwinnable"
    assert document["winnable"] is False and document["level"] is None and document["wins"] == 0
    assert document["deal"] == "PY1-N-AAAAAAD" and document["games"] == SMALL.games
    text = invoke("grade", "PY1-N-AAAAAAD")
    assert text.status == 6 and text.stderr == ""  # an answer on stdout, not an error (issue 14.5)
    assert text.stdout.splitlines() == [
        "PY1-N-AAAAAAD  (rules N)",
        "winnable:       no, proven by the solver",
        "random player:  won 0 of 40 games (0.00%), uniformly random moves",
        "level:          none: an unwinnable deal has no level and is never dealt for one",
    ]


def test_grade_when_the_solver_gives_up_exit_7_unless_a_random_game_won(stand_in: None) -> None:
    wins = {number: GradingRun(Deal.from_number(number), SMALL).play().wins for number in range(0, 100, 5)}
    never = [number for number, count in wins.items() if count == 0]
    won = [number for number, count in wins.items() if count > 0]
    undecided = invoke("grade", Deal.from_number(never[0]).code, "--json")
    assert undecided.status == 7
    document = undecided.json()
    assert document["ok"] is False and document["error"]["kind"] == "search-limit"
    assert document["winnable"] is None and document["verdict"] == "unknown" and document["level"] is None
    text = invoke("grade", Deal.from_number(never[0]).code)
    assert text.status == 7 and "the solver reached its limit" in text.stderr and text.stderr.count("\n") == 1
    proven = invoke("grade", Deal.from_number(won[0]).code, "--json")
    assert proven.status == 0 and proven.json()["winnable"] is True and proven.json()["level"] is not None
    assert "yes, a random game won it" in invoke("grade", Deal.from_number(won[0]).code).stdout


def test_grade_of_a_save_file_grades_its_deal_from_the_start(stand_in: None, tmp_path: Path) -> None:
    path = make_save(tmp_path, "PY1-N-AAAAAAS", "KC")
    by_file = invoke("grade", str(path), "--json").json()
    by_code = invoke("grade", "PY1-N-AAAAAAS", "--json").json()
    assert by_file == by_code


def test_grade_with_other_rules(stand_in: None) -> None:
    document = invoke("grade", "PY1-N-AAAAAAC", "--rules", "T", "--json").json()
    deal = Deal.from_number(2, Rules.preset("T"))
    assert document["deal"] == "PY1-T-AAAAAAC" and document["wins"] == GradingRun(deal, SMALL).play().wins


@pytest.mark.parametrize("args, status, words", [
    (["PY1-N-AAAAAA"], 4, "6 characters"),
    (["nothing-here.yaml"], 5, "no such file"),
    (["PY1-N-AAAAAAC", "--rules", "Z"], 2, "unknown rules preset"),
])
def test_grade_errors(stand_in: None, args: list[str], status: int, words: str) -> None:
    outcome = invoke("grade", *args)
    assert outcome.status == status and words in outcome.stderr and outcome.stdout == ""
    assert outcome.stderr.count("\n") == 1 and outcome.stderr.startswith("pyramide: ")
    as_json = invoke("grade", *args, "--json")
    assert as_json.status == status and as_json.stderr == ""
    assert as_json.json()["ok"] is False and as_json.json()["error"]["exit_status"] == status


# -- deal --level ------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_deal_level_records_the_level_and_show_displays_it(stand_in: None, tmp_path: Path, level: str) -> None:
    path = tmp_path / "g.yaml"
    outcome = invoke("deal", "--level", level, "--seed", "7", "-o", str(path), "--ascii")
    assert outcome.status == 0, outcome
    saved = load_game(path)
    deal = saved.game.deal
    assert saved.data.level == level and saved.data.daily is None
    assert parity_prover(deal) is Verdict.WINNABLE and full_level(deal) is Level(level)
    assert deal.number >= seed_start(7) or deal.number < 20_000  # scanned up from the seed's start
    lines = outcome.stdout.splitlines()
    assert lines[0] == f"{deal.code}  (rules N) saved to {path}"
    article = "An" if level in ("easy", "expert") else "A"
    assert lines[1] == f"{article} {level.capitalize()} deal, proven winnable"
    shown = invoke("show", str(path), "--ascii")
    assert f"level {level}" in shown.stdout
    assert invoke("show", str(path), "--json").json()["level"] == level


def test_deal_level_json_and_seed_reproducibility(stand_in: None, tmp_path: Path) -> None:
    first = invoke("deal", "--level", "hard", "--seed", "3", "-o", str(tmp_path / "a.yaml"), "--json").json()
    again = invoke("deal", "--level", "HARD", "--seed", "3", "-o", str(tmp_path / "b.yaml"), "--json").json()
    other = invoke("deal", "--level", "hard", "--seed", "4", "-o", str(tmp_path / "c.yaml"), "--json").json()
    assert first["ok"] and first["level"] == "hard" and first["daily"] is None
    assert first["deal"] == again["deal"] and first["deal"] != other["deal"]


def test_deal_level_under_other_rules(stand_in: None, tmp_path: Path) -> None:
    document = invoke("deal", "--level", "expert", "--rules", "T", "-o", str(tmp_path / "g.yaml"), "--json").json()
    deal = Deal.from_code(document["deal"])
    assert deal.rules == Rules.preset("T") and full_level(deal) is Level.EXPERT


def test_deal_level_without_seed_starts_anywhere(stand_in: None, tmp_path: Path) -> None:
    codes = {invoke("deal", "--level", "medium", "-o", str(tmp_path / f"{run}.yaml"), "--quiet").stdout
             for run in range(3)}
    assert len(codes) == 3


def test_a_level_search_that_gives_up_exits_7(stand_in: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grade, "default_prover", lambda: (lambda deal: Verdict.UNWINNABLE))
    monkeypatch.setattr(grade, "MAX_SCAN", 3)
    outcome = invoke("deal", "--level", "easy", "-o", str(tmp_path / "g.yaml"))
    assert outcome.status == 7 and "no easy deal under rules N among the 3 deals" in outcome.stderr
    assert not (tmp_path / "g.yaml").exists()


# -- deal --daily ------------------------------------------------------------------------------
def test_daily_deal_of_a_date(stand_in: None, tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    outcome = invoke("deal", "--daily", "--date", "2026-03-14", "-o", str(path), "--ascii")
    assert outcome.status == 0, outcome
    saved = load_game(path)
    deal = saved.game.deal
    assert saved.data.daily == "2026-03-14" and saved.data.level == "medium"
    assert parity_prover(deal) is Verdict.WINNABLE and full_level(deal) is Level.MEDIUM
    start = daily_start(datetime.date(2026, 3, 14))
    assert all(parity_prover(Deal.from_number(number)) is not Verdict.WINNABLE
               or full_level(Deal.from_number(number)) is not Level.MEDIUM for number in range(start, deal.number))
    assert outcome.stdout.splitlines()[1] == "The daily deal of 2026-03-14 (a Medium deal, proven winnable)"
    shown = invoke("show", str(path), "--ascii").stdout
    assert "daily deal of 2026-03-14" in shown
    assert invoke("show", str(path), "--json").json()["daily"] == "2026-03-14"


def test_the_same_date_gives_the_same_daily_deal_and_dates_differ(stand_in: None, tmp_path: Path) -> None:
    def daily(date: str, name: str) -> str:
        return invoke("deal", "--daily", "--date", date, "-o", str(tmp_path / name), "--quiet").stdout

    assert daily("2026-03-14", "a.yaml") == daily("2026-03-14", "b.yaml")
    codes = {daily(f"2026-03-{day:02d}", f"{day}.yaml") for day in range(1, 6)}
    assert len(codes) >= 4


def test_daily_deal_defaults_to_today(stand_in: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pyramide_cli.cli import grade_commands

    monkeypatch.setattr(grade_commands, "today", lambda: datetime.date(2026, 3, 14))
    today = invoke("deal", "--daily", "-o", str(tmp_path / "t.yaml"), "--json").json()
    dated = invoke("deal", "--daily", "--date", "2026-03-14", "-o", str(tmp_path / "d.yaml"), "--json").json()
    assert today["deal"] == dated["deal"] and today["daily"] == "2026-03-14"


def test_daily_deal_without_a_date_is_the_local_date(stand_in: None, tmp_path: Path) -> None:
    before = datetime.date.today()
    document = invoke("deal", "--daily", "-o", str(tmp_path / "t.yaml"), "--json").json()
    assert document["daily"] in {before.isoformat(), datetime.date.today().isoformat()}


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--level", "impossible"], "unknown level 'impossible': choose easy, medium, hard or expert"),
    (["--level", ""], "unknown level ''"),
    (["--daily", "--date", "2026-02-30"], "bad date '2026-02-30': day is out of range for month"),
    (["--daily", "--date", "14/03/2026"], "bad date '14/03/2026': expected YYYY-MM-DD"),
    (["--date", "2026-03-14"], "--date goes with --daily"),
    (["--seed", "4"], "--seed goes with --level"),
    (["--level", "easy", "--seed", "-1"], "seed -1 out of range"),
    (["--level", "easy", "--daily"], "give --level or --daily, not both"),
    (["PY1-N-AAAAAAS", "--level", "easy"], "give a deal code, --level or --daily"),
    (["PY1-N-AAAAAAS", "--daily"], "give a deal code, --level or --daily"),
    (["--from-layout", "x.yaml", "--daily"], "--level and --daily cannot go with it"),
    (["--level", "easy", "--seed", "x"], "'x' is not a valid int"),
])
def test_bad_levels_dates_and_combinations_are_usage_errors(stand_in: None, tmp_path: Path, args: list[str],
                                                           words: str) -> None:
    outcome = invoke("deal", *args, "-o", str(tmp_path / "g.yaml"))
    assert outcome.status == 2, outcome
    assert words in outcome.stderr and "Traceback" not in outcome.stderr
    assert not (tmp_path / "g.yaml").exists()
    as_json = invoke("deal", *args, "-o", str(tmp_path / "g.yaml"), "--json")
    assert as_json.status == 2 and as_json.json()["ok"] is False and words in as_json.json()["error"]["message"]


# -- the real thing: processes and the real solver ---------------------------------------------
def solved_and_replayed(code: str) -> bool:
    from pyramide_cli.engine.game import Game
    from pyramide_cli.solver import solve

    deal = Deal.from_code(code)
    result = solve(deal)
    return result.verdict is Verdict.WINNABLE and Game.replay(deal, result.solution).position.is_won


def graded_level(code: str) -> str:
    """The level from all the games, counted by playout.win_rate."""
    deal = Deal.from_code(code)
    limits = grade.thresholds_for(deal.rules)
    return limits.level_of(round(win_rate(deal, limits.games, GRADING_SEED) * limits.games)).value


def test_real_deal_level_and_grade_agree(tmp_path: Path) -> None:
    from cli_support import run

    dealt = run("deal", "--level", "expert", "--rules", "T", "--seed", "9", "-o", "g.yaml", "--json", cwd=tmp_path)
    assert dealt.status == 0 and dealt.stderr == "", dealt
    code = dealt.json()["deal"]
    assert dealt.json()["level"] == "expert" and code.startswith("PY1-T-")
    assert solved_and_replayed(code) and graded_level(code) == "expert"
    graded = run("grade", "g.yaml", "--json", cwd=tmp_path)
    assert graded.status == 0 and graded.json()["level"] == "expert" and graded.json()["winnable"] is True
    assert "level expert" in run("show", "g.yaml", "--ascii", cwd=tmp_path).stdout
    assert run("replay", "g.yaml", cwd=tmp_path).status == 0


def test_real_daily_deal_and_errors(tmp_path: Path) -> None:
    from cli_support import run

    daily = run("deal", "--daily", "--date", "2026-03-14", "-o", "d.yaml", "--ascii", cwd=tmp_path)
    assert daily.status == 0, daily
    code = daily.stdout.split()[0]
    assert solved_and_replayed(code) and graded_level(code) == "medium"
    assert "daily deal of 2026-03-14 | level medium" in run("show", "d.yaml", "--ascii", cwd=tmp_path).stdout
    bad = run("deal", "--daily", "--date", "2026-02-29", cwd=tmp_path)
    assert bad.status == 2 and bad.stderr == (
        "pyramide: bad date '2026-02-29': day is out of range for month\n") and bad.stdout == ""


def test_real_grade_of_an_unwinnable_deal_exits_6(tmp_path: Path) -> None:
    from cli_support import run

    outcome = run("grade", "PY1-N-AAAAAAD", cwd=tmp_path)
    assert outcome.status == 6 and "winnable:       no, proven by the solver" in outcome.stdout


def test_deal_level_refuses_an_existing_file_before_searching(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from pyramide_cli.cli import grade_commands

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the level search ran although the file exists")

    monkeypatch.setattr(grade_commands, "pick_deal", no_search)
    target = tmp_path / "mine.yaml"
    target.write_text("precious\n")
    outcome = invoke("deal", "--level", "easy", "-o", str(target))
    assert outcome.status == 5 and "already exists" in outcome.stderr
    assert target.read_text() == "precious\n"
