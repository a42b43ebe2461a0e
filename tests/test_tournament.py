"""pyramide tournament: built-in bots, external engines that misbehave, --jobs, the reports (bots/)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from cli_support import ROOT, invoke
from process_support import all_ended, bounded, pids_in

from pyramide_cli.bots.players import GreedyBot, RandomBot, SolverBot, built_in_bot
from pyramide_cli.bots.tournament import BotSpec, TournamentSpec, game_seed, play_game, run_tournament, summary
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.game import Game
from pyramide_cli.engine.rules import Rules
from pyramide_cli.storage.save import load_game

FAULTY = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'faulty_engine.py'}"
EXAMPLE = f"{sys.executable} {ROOT / 'examples' / 'engine.py'}"


def timing_free(results: list) -> list[dict]:
    return [{key: value for key, value in result.to_dict().items() if key != "bot_seconds"} for result in results]


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), SolverBot(max_states=20_000)])
def test_built_in_bots_play_whole_games_that_replay(bot) -> None:
    deal = Deal.from_number(3, Rules.preset("T"))
    result = play_game(bot, deal, seed=game_seed(0, 3))
    assert result.reason is None and result.status in ("won", "lost")
    replayed = Game.replay(deal, result.history)
    assert replayed.is_over and replayed.score == result.score and replayed.outcome.value == result.status


def test_the_solver_bot_wins_every_winnable_deal_and_resigns_at_its_best_otherwise() -> None:
    from pyramide_cli import Limits, solve

    for number in range(4):
        deal = Deal.from_number(number, Rules.preset("T"))
        verdict = solve(deal, limits=Limits(max_states=200_000))
        result = play_game(SolverBot(200_000), deal)
        if verdict.winnable:
            assert result.status == "won"
        else:
            assert result.termination in ("resigned", "dead") and result.pyramid_removed == verdict.max_pyramid_removed


def test_the_action_cap_resigns_for_a_bot_that_loops() -> None:
    result = play_game(RandomBot(), Deal.from_number(0, Rules.preset("N")), seed=1, max_actions=5)
    assert (result.reason, result.termination, result.actions) == ("action-cap", "resigned", 5)
    assert result.history[-1] == "resign"


class VandalBot:
    """Plays the first legal move, after resigning and taking back the game it was handed."""

    name = "vandal"

    def choose(self, game):
        move = game.legal_moves[0]
        game.push(move)
        if not game.is_over:
            game.resign()
        return move


def test_a_bot_is_handed_a_copy_and_cannot_change_the_game_being_played() -> None:
    import pyramide_cli

    deal = Deal.from_code("PY1-T-AAAAAAB")
    result = pyramide_cli.play_game(VandalBot(), deal.code)  # the public loop; a bot needs only name and choose
    assert result.reason is None and "resign" not in result.history
    replayed = Game.replay(deal, result.history)  # each action is the first legal move of the game as it was
    walk = Game(deal)
    for move in result.history:
        assert move == str(walk.legal_moves[0])
        walk.push(move)
    assert replayed.is_over and replayed.score == result.score


class TextBot:
    name = "text"

    def __init__(self, answers):
        self.answers = list(answers)

    def choose(self, game):
        return self.answers.pop(0)


def test_a_bot_may_answer_a_moves_text_and_a_bad_text_loses_as_malformed() -> None:
    deal = Deal.from_code("PY1-T-AAAAAAB")
    result = play_game(TextBot(["KC", "draw", "10C-3S"]), deal)
    assert (result.reason, result.history, result.termination) == ("malformed", ("KC", "draw", "resign"), "resigned")
    assert play_game(TextBot([None]), deal).reason == "malformed"


def test_a_random_tournament_is_the_same_with_one_or_two_processes() -> None:
    spec = TournamentSpec(BotSpec("random"), Rules.preset("T"), range(12), seed=7)
    one, two = run_tournament(spec, jobs=1), run_tournament(spec, jobs=2)
    assert timing_free(one) == timing_free(two) and [result.number for result in one] == list(range(12))
    assert timing_free(run_tournament(TournamentSpec(BotSpec("random"), Rules.preset("T"), range(12), seed=8))) \
        != timing_free(one)  # the seed matters


def test_summary_figures() -> None:
    results = run_tournament(TournamentSpec(BotSpec("greedy"), Rules.preset("T"), range(20)))
    figures = summary(results)
    wins = sum(result.status == "won" for result in results)
    assert figures["games"] == 20 and figures["wins"] == wins and figures["win_rate"] == wins / 20
    low, high = figures["win_rate_ci95"]
    assert 0 <= low <= wins / 20 <= high <= 1
    assert figures["mean_score"] == sum(result.score for result in results) / 20
    assert sum(figures["endings"].values()) == 20 and figures["failures"] == {}


def test_an_engine_that_crashes_hangs_or_answers_nonsense_loses_only_that_game() -> None:
    command = f"{FAULTY} crash=AAAAAAB hang=AAAAAAC nonsense=AAAAAAD illegal=AAAAAAE"
    spec = TournamentSpec(BotSpec(engine=command, move_time=0.3, handshake_time=10.0), Rules.preset("T"), range(6))
    results = run_tournament(spec)
    reasons = [result.reason for result in results]
    assert reasons == [None, "crashed", "timeout", "malformed", "illegal", None]
    for result in results[1:5]:
        assert result.termination == "resigned" and result.history[-1] == "resign" and result.detail
    assert results[0].actions > 10 and results[5].actions > 10  # it was restarted and played on
    assert results[4].detail.startswith("7S+7C: ")


# -- limits on what an engine can do (a hostile engine loses its games; the tournament ends, nothing stays) --------
def test_an_engine_that_never_reads_its_input_loses_by_timeout_instead_of_hanging_the_tournament() -> None:
    spec = TournamentSpec(BotSpec(engine=f"{FAULTY} flood", move_time=0.3, handshake_time=10.0), Rules.preset("T"),
                          range(1))
    with bounded(5):
        [result] = run_tournament(spec)
    assert result.reason == "timeout" and "read" in result.detail and result.termination == "resigned"


def test_an_engine_that_exits_leaving_a_child_crashed_and_the_child_is_ended(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    command = f"{FAULTY} orphan=AAAAAAB pids={pids}"
    spec = TournamentSpec(BotSpec(engine=command, move_time=60.0, handshake_time=60.0), Rules.preset("T"), range(3))
    with bounded(30):  # the orphan holds the pipe open: a wait for --move-time would run past this
        results = run_tournament(spec)
    assert [result.reason for result in results] == [None, "crashed", None]
    assert "exited" in results[1].detail
    assert len(pids_in(pids)) == 1 and all_ended(pids_in(pids))


def test_a_helper_the_engine_started_is_ended_with_the_engine(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = TournamentSpec(BotSpec(engine=f"{FAULTY} helper pids={pids}"), Rules.preset("T"), range(2))
    results = run_tournament(spec)
    assert [result.reason for result in results] == [None, None]
    assert len(pids_in(pids)) == 1 and all_ended(pids_in(pids))


def test_an_engine_killed_at_its_time_limit_takes_its_children_with_it(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = TournamentSpec(BotSpec(engine=f"{FAULTY} helper hang=AAAAAAA pids={pids}", move_time=0.2),
                          Rules.preset("T"), range(2))
    results = run_tournament(spec)
    assert [result.reason for result in results] == ["timeout", None]
    assert len(pids_in(pids)) == 2 and all_ended(pids_in(pids))  # one helper per start


def test_the_processes_of_the_pool_end_their_engines_and_the_engines_children(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    spec = TournamentSpec(BotSpec(engine=f"{FAULTY} helper pids={pids}"), Rules.preset("T"), range(2))
    results = run_tournament(spec, jobs=2)  # the pool ends its processes with SIGTERM
    assert [result.reason for result in results] == [None, None]
    assert len(pids_in(pids)) == 2 and all_ended(pids_in(pids))


def test_the_report_escapes_what_the_engine_calls_itself(tmp_path: Path) -> None:
    command = f"{FAULTY} evil-name"
    outcome = invoke("tournament", "--engine", command, "--rules", "T", "--deals", "0-0",
                     "--save-dir", str(tmp_path / "saves"))
    assert outcome.status == 0, outcome
    head = outcome.stdout.splitlines()[0]
    assert not any(ord(character) < 32 or 0x7f <= ord(character) < 0xa0 or character == "\u202e"
                   for character in outcome.stdout.replace("\n", "")), head
    assert head.startswith("tournament: \\x1b]0;owned\\x07\\x1b[2J\\u202eevil") and len(head) < 600
    [save] = (tmp_path / "saves").iterdir()
    assert invoke("replay", str(save)).status == 0  # the note that names the engine keeps the save readable


def test_the_example_engine_plays_through_the_command_line(tmp_path: Path) -> None:
    csv_path, saves = tmp_path / "games.csv", tmp_path / "saves"
    outcome = invoke("tournament", "--engine", EXAMPLE, "--rules", "T", "--deals", "0-3", "--json",
                     "--csv", str(csv_path), "--save-dir", str(saves))
    assert outcome.status == 0, outcome
    document = outcome.json()
    assert document["bot"] == {"name": "example", "version": "1.0", "engine": EXAMPLE}
    assert document["summary"]["games"] == 4 and len(document["games"]) == 4
    rows = list(csv.DictReader(csv_path.open()))
    assert [row["deal"] for row in rows] == [game["deal"] for game in document["games"]]
    for game in document["games"]:
        saved = load_game(saves / f"{game['deal']}.yaml")
        assert (saved.game.score, saved.data.status.value) == (game["score"], game["status"])
        assert invoke("replay", str(saves / f"{game['deal']}.yaml")).status == 0
    again = invoke("tournament", "--engine", EXAMPLE, "--rules", "T", "--deals", "0-3", "--save-dir", str(saves))
    assert again.status == 5 and "already exists" in again.stderr  # saves are never overwritten


def test_the_text_report(tmp_path: Path) -> None:
    outcome = invoke("tournament", "--bot", "greedy", "--rules", "T", "--deals", "0-9")
    assert outcome.status == 0
    assert outcome.stdout.startswith("tournament: greedy on deals 0-9 under T (10 games, seed 0)\n")
    assert "95 % CI" in outcome.stdout and "mean pyramid removed" in outcome.stdout


@pytest.mark.parametrize("args, status, words", [
    (["--bot", "clever"], 2, "built-in bots are random, greedy, solver"),
    (["--bot", "random", "--engine", "x"], 2, "not both"),
    (["--deals", "9-3"], 2, "--deals"),
    (["--jobs", "0"], 2, "--jobs"),
    (["--move-time", "soon"], 2, "--move-time"),
    (["--level", "tricky"], 2, "unknown level"),
    (["--engine", "/nonexistent/engine"], 5, "cannot start engine"),
    (["--engine", ""], 5, "the command is empty"),
    (["--engine", "'unbalanced"], 5, "No closing quotation"),
    (["--engine", f"{FAULTY} handshake"], 4, "handshake"),
])
def test_bad_options_and_engines_that_cannot_play_at_all(args: list[str], status: int, words: str) -> None:
    outcome = invoke("tournament", "--deals", "0-1", *args)
    assert outcome.status == status and words in outcome.stderr, outcome


def test_built_in_bot_names() -> None:
    assert built_in_bot("greedy").name == "greedy"
    with pytest.raises(ValueError, match="unknown bot"):
        built_in_bot("perfect")


def test_level_keeps_only_the_deals_of_that_level() -> None:
    from pyramide_cli.analysis.grade import Level, default_prover, is_level_deal

    results = run_tournament(TournamentSpec(BotSpec("greedy"), Rules.preset("T"), range(4, 6), level="hard"))
    hard = [number for number in range(4, 6)
            if is_level_deal(Deal.from_number(number, Rules.preset("T")), Level.HARD, default_prover())]
    assert [result.number for result in results] == hard and hard


# -- the engine transcript of docs/protocol.md -------------------------------------------------------------
PROTOCOL_DOC = ROOT / "docs" / "protocol.md"
START, END = "<!-- engine transcript: start -->", "<!-- engine transcript: end -->"
HEAD, TAIL = 8, 5


def engine_transcript() -> list[str]:
    from pyramide_cli.bots.engine import EngineBot

    engine = EngineBot(f"python3 {ROOT / 'examples' / 'engine.py'}")
    engine.transcript = []
    play_game(engine, Deal.from_code("PY1-T-AAAAAAB"), seed=1234)
    engine.close()
    lines = [line.replace(str(ROOT) + "/", "") for line in engine.transcript]
    return lines[:HEAD] + ["…"] + lines[-TAIL:]


def test_the_documented_engine_transcript_is_what_happens() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    block = text[text.index(START) + len(START):text.index(END)].strip().splitlines()[1:-1]
    assert block == engine_transcript(), "run: python tests/test_tournament.py --write"


def write_transcript() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    block = "\n".join(["```", *engine_transcript(), "```"])
    PROTOCOL_DOC.write_text(f"{head}{START}\n{block}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_transcript()
    else:
        sys.exit("usage: python tests/test_tournament.py --write   "
                 "(rewrites the engine transcript of docs/protocol.md)")
