"""The four languages through the command line (issue 15): the documents' refusals, the board in
each language (with and without --ascii), what stays the same in every language (JSON, saves, deal
codes, move notation), how --lang and the environment choose, and Hebrew in a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import EXAMPLES, R24_TEXT_CODE, invoke, make_save

from pyramide_cli.cli import after_root_options, modules_for
from pyramide_cli.cli.app import hoisted_language
from pyramide_cli.engine.text import joined, text
from pyramide_cli.i18n import LANGUAGES, set_language, tr
from pyramide_cli.i18n.bidi import LRM, LTR_LINE, RLM, visual_order

LAYOUT = EXAMPLES / "r24-layout.yaml"

# RULES.md §8 and the source documents (000 Hebrew, 002 Swedish); French translated (issue 15).
SUM_NOT_13 = {"en": "The sum must equal 13", "fr": "La somme doit être égale à 13",
              "he": "הסכום חייב להיות שווה ל־13", "sv": "Summan måste vara lika med 13"}
BLOCKED = {"en": "This card is blocked by another card", "fr": "Cette carte est bloquée par une autre carte",
           "he": "הקלף הזה חסום על ידי קלף אחר", "sv": "Det här kortet blockeras av ett annat"}
NO_MORE_MOVES = {"en": "No more moves possible", "fr": "Plus aucun coup possible",
                 "he": "אין עוד מהלכים אפשריים", "sv": "Inga fler drag möjliga"}
TALON_WORDS = {"en": ("stock", "waste", "foundation"), "fr": ("talon", "défausse", "fondation"),
               "he": ("קופה", "השלכה", "ערימת הבית"), "sv": ("talong", "kasthög", "grundhög")}
ENGLISH_TO_FRENCH_LETTERS = str.maketrans({"K": "R", "Q": "D", "J": "V"})


def plain(line: str) -> str:
    """A line without its directional marks (what a reader sees, in logical order)."""
    return line.replace(LRM, "").replace(RLM, "")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_refused_pair_prints_the_documents_text(tmp_path: Path, language: str) -> None:
    """R13 through the CLI: 7♣+7♠ at the start of the R24 layout, in each language (exit 3)."""
    save = make_save(tmp_path, R24_TEXT_CODE)
    outcome = invoke("--lang", language, "play", str(save), "7C", "7S", "--quiet")
    assert outcome.status == 3
    assert SUM_NOT_13[language] in plain(outcome.stderr)
    assert plain(outcome.stderr).startswith("pyramide: 7S")  # the input, as typed, names the step
    assert len(outcome.stderr.splitlines()) == 1


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_blocked_card_prints_the_documents_text_with_the_option_after_the_command(
        tmp_path: Path, language: str) -> None:
    """R11: Q♣ (row 6) is covered at the start; ``--lang`` also works after the command."""
    save = make_save(tmp_path, R24_TEXT_CODE)
    outcome = invoke("play", str(save), "QC", "--quiet", "--lang", language)
    assert outcome.status == 3 and BLOCKED[language] in plain(outcome.stderr)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_game_with_no_move_left_says_so_in_each_language(language: str) -> None:
    """R17's words under the board of a lost game (examples/lost-o.yaml)."""
    outcome = invoke("show", str(EXAMPLES / "lost-o.yaml"), "--lang", language)
    assert outcome.status == 0 and plain(outcome.stdout.splitlines()[-1]).strip() == NO_MORE_MOVES[language]


@pytest.mark.parametrize("ascii_only", [True, False])
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_board_keeps_its_shape_in_each_language(language: str, ascii_only: bool) -> None:
    flags = ["--ascii"] if ascii_only else []
    english = invoke("show", str(LAYOUT), *flags).stdout.splitlines()
    board = invoke("--lang", language, "show", str(LAYOUT), *flags).stdout.splitlines()
    assert len(board) >= 10 and len(english) >= 10  # the status line may wrap onto a second line (80 columns)
    pyramid = english[:7] if language == "en" else [row.translate(ENGLISH_TO_FRENCH_LETTERS) for row in english[:7]]
    assert board[:7] == pyramid  # the same cards in the same places; R, D, V under fr, he and sv
    assert board[7] == ""
    talon, status = plain(board[8]), plain(board[9])
    assert all(len(plain(line)) <= 80 for line in board)
    stock, waste, foundation = TALON_WORDS[language]
    assert talon.index(stock) < talon.index(waste) < talon.index(foundation)  # stock left, foundation right
    assert ("7D" if ascii_only else "7♦") in talon
    assert status.startswith(" PY1-N-") and status.split()[1] == english[9].split()[1]  # the deal code
    if language == "he":  # kept left to right as a whole, card names and numbers marked
        assert board[8].startswith(LTR_LINE) and board[9].startswith(LTR_LINE) and f"{LRM}23{LRM}" in board[8]
    else:
        assert LRM not in "".join(board)


def test_json_saves_codes_and_notation_are_the_same_in_every_language(tmp_path: Path) -> None:
    documents = {}
    for language in LANGUAGES:
        folder = tmp_path / language
        folder.mkdir()
        save = make_save(folder, R24_TEXT_CODE)
        played = invoke("--lang", language, "play", str(save), "KD", "10C", "3S", "7C", "7S", "--json")
        assert played.status == 3
        shown = invoke("show", str(save), "--json", "--lang", language)
        dealt = invoke("--lang", language, "deal", "PY1-N-AAAAAAS", "-o", str(folder / "d.yaml"), "--json")
        outputs = tuple(outcome.stdout.replace(str(folder), "FOLDER") for outcome in (played, shown, dealt))
        documents[language] = (*outputs, save.read_bytes(), (folder / "d.yaml").read_bytes())
    assert documents["he"] == documents["en"] == documents["fr"] == documents["sv"]
    played_json = documents["en"][0]
    assert '"message": "7S: The sum must equal 13; 7S is selected now"' in played_json  # English, as ever


@pytest.mark.parametrize(("option", "environment", "language"), [
    ((), {"LANGUAGE": "", "LANG": "fr_FR.UTF-8"}, "fr"),
    ((), {"LANGUAGE": "sv:fr", "LANG": "fr_FR.UTF-8"}, "sv"),
    ((), {"LANGUAGE": "", "LC_ALL": "he_IL.UTF-8", "LANG": "sv_SE.UTF-8"}, "he"),
    ((), {"LANGUAGE": "", "LANG": "de_DE.UTF-8"}, "en"),
    (("--lang", "en"), {"LANGUAGE": "he"}, "en"),
])
def test_the_environment_chooses_when_there_is_no_option(tmp_path: Path, option: tuple[str, ...],
                                                         environment: dict[str, str], language: str) -> None:
    save = make_save(tmp_path, R24_TEXT_CODE)
    outcome = invoke(*option, "play", str(save), "7C", "7S", "--quiet", env=environment)
    assert outcome.status == 3 and SUM_NOT_13[language] in plain(outcome.stderr)


@pytest.mark.parametrize("arguments", [("--lang", "klingon", "show", "PY1-N-AAAAAAS"),
                                       ("show", "PY1-N-AAAAAAS", "--lang", "xx"), ("--lang=", "--version")])
def test_an_unknown_language_is_a_usage_error(arguments: tuple[str, ...]) -> None:
    outcome = invoke(*arguments)
    assert outcome.status == 2 and outcome.stdout == ""
    assert len(outcome.stderr.splitlines()) == 1 and "choose one of en, fr, he, sv" in outcome.stderr


def test_language_option_moves_before_the_command_only_when_it_is_one() -> None:
    commands = {"play": _Command(["--db"]), "show": _Command([])}
    assert hoisted_language(["play", "g.yaml", "7C", "--lang", "he"], commands) == [
        "--lang", "he", "play", "g.yaml", "7C"]
    assert hoisted_language(["play", "g.yaml", "--lang=fr"], commands) == ["--lang=fr", "play", "g.yaml"]
    assert hoisted_language(["play", "--db", "--lang", "g.yaml"], commands) == ["play", "--db", "--lang", "g.yaml"]
    after_dashes = ["play", "g.yaml", "--", "--lang", "he"]
    assert hoisted_language(after_dashes, commands) == after_dashes
    assert hoisted_language(["--lang", "he", "show", "x"], commands) == ["--lang", "he", "show", "x"]
    assert after_root_options(["--lang", "he", "play", "g.yaml"]) == ["play", "g.yaml"]
    assert modules_for(["--lang=fr", "play", "g.yaml"], {}) == ["play_commands"]  # start-up stays narrow


class _Command:
    """The little of a Click command :func:`hoisted_language` reads: which options take a value."""

    def __init__(self, valued: list[str]) -> None:
        self.params = [_Param([name]) for name in valued]


class _Param:
    def __init__(self, opts: list[str]) -> None:
        self.opts, self.is_flag, self.count = opts, False, False


def test_the_session_help_and_prompts_are_translated(tmp_path: Path) -> None:
    save = make_save(tmp_path, R24_TEXT_CODE)
    outcome = invoke("--lang", "fr", "play", str(save), input="help\nKD\n")
    assert outcome.status == 0
    assert "Touchez une carte par son nom" in outcome.stdout and "KD : retiré R♦ (+10)" in outcome.stdout


def test_reports_are_translated_and_tables_keep_their_columns(tmp_path: Path) -> None:
    database = tmp_path / "stats.sqlite3"
    save = make_save(tmp_path, R24_TEXT_CODE)
    assert invoke("play", str(save), "resign", "--db", str(database), "--quiet").status == 0
    report = invoke("--lang", "he", "stats", "--db", str(database)).stdout.splitlines()
    header = next(line for line in report if "כללים" in line and "רמה" in line)
    row = report[report.index(header) + 1]
    assert header.startswith(LTR_LINE) and row.startswith(LTR_LINE)  # a table stays left to right in Hebrew
    assert plain(header).index("רמה") == plain(row).index("-")  # the level column lines up
    french = invoke("--lang", "fr", "stats", "--db", str(database)).stdout
    assert "Statistiques : 1 partie jouée, 0 gagnées" in french and "abandonnée" in french


def test_hebrew_lines_read_right_to_left_and_can_be_reordered_for_plain_terminals(tmp_path: Path) -> None:
    save = make_save(tmp_path, R24_TEXT_CODE)
    marked = invoke("--lang", "he", "play", str(save), "7C", "7S", "--quiet")
    assert marked.stderr.startswith(RLM + "pyramide: " + LRM + "7S" + LRM)  # the line reads right to left
    visual = invoke("--lang", "he", "play", str(save), "QC", "--quiet", env={"PYRAMIDE_BIDI": "visual"})
    line = visual.stderr.rstrip("\n")
    assert LRM not in line and RLM not in line
    assert line == "רחא ףלק ידי לע םוסח הזה ףלקה :pyramide: QC"  # laid out from the right, as shown


def test_joined_parts_are_translated_one_by_one() -> None:
    parts = joined([text("rules"), "N", text("solver version")], " / ")
    assert parts == "rules / N / solver version"
    assert tr(parts, "fr") == "règles / N / version du solveur"
    set_language("sv")
    assert tr(text("{list}", list=parts)) == "regler / N / lösarversion"


def test_visual_order_keeps_a_left_to_right_line_in_place() -> None:
    assert visual_order(LTR_LINE + " קופה 23   השלכה 7♦") == " הפוק 23   הכלשה 7♦"
    assert visual_order(RLM + "7S: הסכום") == "םוכסה :7S"


def test_a_usage_error_after_a_root_language_option_still_answers_in_json(tmp_path: Path) -> None:
    save = make_save(tmp_path, R24_TEXT_CODE)
    outcome = invoke("--lang", "he", "play", str(save), "--bogus", "--json")
    assert outcome.status == 2 and outcome.json()["error"]["kind"] == "usage"
    assert "pyramide play --help" in outcome.json()["error"]["message"]
