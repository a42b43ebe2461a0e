"""The documents live in the repository: every link resolves inside it, every rule R1–R27 is written down."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "DEVELOPERS.md", ROOT / "CONTRIBUTING.md",
                    *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_links_point_inside_the_repository(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    assert "../shared" not in text and "/work/" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # web addresses and anchors in the same page
        resolved = (document.parent / target.split("#")[0]).resolve()
        assert resolved.is_relative_to(ROOT), f"{document.name} links outside the repository: {target}"
        assert resolved.exists(), f"{document.name} links to a missing file: {target}"


def test_the_rules_document_defines_every_rule_once() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    defined = re.findall(r"^- \*\*R(\d+)\.\*\*", text, flags=re.MULTILINE)
    assert [int(number) for number in defined] == list(range(1, 28))


def test_the_rules_document_quotes_the_messages_the_engine_prints() -> None:
    from pyramide_cli.engine.moves import NO_MORE_MOVES, Refusal

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for message in (Refusal.BLOCKED.message, Refusal.SUM_NOT_13.message, NO_MORE_MOVES):
        assert f"| {message} |" in text


def readme_console() -> list[tuple[str, list[str]]]:
    """The commands of README's refusal example and the lines each prints."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```console\n", 1)[1].split("```", 1)[0]
    examples: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            examples.append((line[2:], []))
        else:
            examples[-1][1].append(line)
    return examples


def test_the_readme_refusal_and_status_line_examples_are_what_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    from cli_support import invoke

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert invoke("deal", "PY1-N-AAAAAAS", "-o", "tour.yaml", "--quiet").status == 0
    assert invoke("play", "tour.yaml", "KC", "10H", "3D", "--quiet").status == 0
    examples = readme_console()
    assert len(examples) >= 5
    for command, expected in examples:
        words = shlex.split(command.split(" | ")[0])
        assert words[0] == "pyramide"
        outcome = invoke(*words[1:])
        if " | tail -" in command:
            printed = outcome.stdout.splitlines()[-int(command.rsplit("-", 1)[1]):]
        else:
            assert outcome.stdout == "" and outcome.status in (2, 3), command
            printed = outcome.stderr.splitlines()
        assert printed == expected, command


def readme_tour() -> list[str]:
    """The command lines of the README's tour block (its ```sh block), comments dropped."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A 60-second tour", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def test_the_readme_tour_runs_as_pasted() -> None:
    """Pasted into a shell, a command that reads the terminal takes the block's next lines as its
    input: every `pyramide play` of the tour has its moves as arguments or from a pipe, and nothing
    else in it asks a question (stats --reset without --yes)."""
    import shlex

    commands = readme_tour()
    assert len(commands) > 10 and commands[-1].startswith("rm -f")
    for line in commands:
        for command in line.split(";"):
            piped = "|" in command
            words = shlex.split(command.split("|")[-1])
            if words[:2] == ["pyramide", "play"]:
                positional = [word for word in words[2:] if not word.startswith("-")]
                assert piped or len(positional) > 1, f"reads the terminal when pasted: {line}"
            if words[:2] == ["pyramide", "stats"]:
                assert "--reset" not in words or "--yes" in words, line
