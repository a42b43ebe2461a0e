"""``pyramide replay FILE|DIR ...``: many saves in one process, with a JUnit report and GitHub annotations.

One line per save, a summary, exit 1 when any save fails (diverges, misses an expectation, or
cannot be read).  ``--junit FILE`` writes a JUnit XML report (one test case per save) through
:func:`~pyramide_cli.storage.files.check_output` and an atomic write; under ``GITHUB_ACTIONS=true``
each failure is also an ``::error`` workflow command on stderr, which GitHub shows on the file.
What counts as a save in a folder, and what a save may expect: :mod:`pyramide_cli.storage.save_batch`.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from ..engine.errors import escaped
from ..engine.position import Outcome
from ..engine.text import message_of, plural, text
from ..storage.files import OutputKind, atomic_write, check_output
from ..storage.save_batch import Expected, SaveCheck, check_save, find_saves
from .common import echo, emit_json, kind_of, one_line, say_error, shown, status_for
from .exit_codes import ExitStatus
from .render import OUTCOME_WORDS, TERMINATION_WORDS

_REPORT_START = re.compile(r"^\s*(<\?xml[^>]*>\s*)?(<!--.*?-->\s*)*<testsuites?[\s>/]", re.DOTALL)
JUNIT_OUTPUT = OutputKind(text("a JUnit report"), lambda head: bool(_REPORT_START.match(head)))
"""``--junit`` files: ``--force`` replaces an earlier JUnit report (or an empty file), nothing else."""

_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def run_batch(paths: list[str], option: Expected, junit: str | None, force: bool, json_output: bool) -> int:
    """Check every save the paths name; print, report, and return the exit status."""
    if junit is not None:
        check_output(junit, force, JUNIT_OUTPUT)
    checks = [check_save(found, option) for found in find_saves(paths)]
    failed = [check for check in checks if not check.ok]
    if junit is not None:
        report = junit_report(checks)
        atomic_write(check_output(junit, force, JUNIT_OUTPUT), report)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for check in failed:
            sys.stderr.write(github_annotation(check) + "\n")
        sys.stderr.flush()
    summary = plural("{count} save replayed: {agree} agrees, {failed} failed",
                     "{count} saves replayed: {agree} agree, {failed} failed", len(checks),
                     agree=len(checks) - len(failed), failed=len(failed))
    if json_output:
        emit_json(batch_document(checks, junit, summary))
    else:
        for check in checks:
            echo(check_line(check))
        echo(summary)
        if failed:
            say_error(plural("{count} of {total} saves failed: {first}", "{count} of {total} saves failed, the "
                             "first: {first}", len(failed), total=len(checks), first=str(failed[0].path)))
    return int(ExitStatus.CHECK_FAILED if failed else ExitStatus.OK)


def first_failure(check: SaveCheck) -> str | None:
    """What a failed check shows first: the error that kept the save from being read, or the first failure."""
    if check.error is not None:
        return message_of(check.error)
    return check.failures[0] if check.failures else None


def check_line(check: SaveCheck) -> str:
    """``ok  saves/a.yaml: 73 actions, score 280, won`` or ``FAILED  saves/b.yaml: <the first failure>``."""
    name = shown(check.path)
    failure = first_failure(check)
    if failure is None:
        assert check.result is not None and check.data is not None
        game = check.result.game
        if game.outcome is Outcome.LOST and game.termination is not None:
            ending = text("lost ({how})", how=TERMINATION_WORDS[game.termination])
        else:
            ending = OUTCOME_WORDS[game.outcome]
        actions = plural("{count} action", "{count} actions", len(check.data.history))
        if check.checks:
            return plural("ok      {name}: {actions}, score {score}, {ending}; {count} expectation met",
                          "ok      {name}: {actions}, score {score}, {ending}; {count} expectations met",
                          len(check.checks), name=name, actions=actions, score=game.score, ending=ending)
        return text("ok      {name}: {actions}, score {score}, {ending}", name=name, actions=actions, score=game.score,
                    ending=ending)
    more = len(check.failures) - 1
    if more > 0:
        return plural("FAILED  {name}: {failure} (and {count} more failure)",
                      "FAILED  {name}: {failure} (and {count} more failures)", more, name=name, failure=failure)
    return text("FAILED  {name}: {failure}", name=name, failure=failure)


# -- JSON ----------------------------------------------------------------------------------------
def batch_document(checks: list[SaveCheck], junit: str | None, summary: str) -> dict[str, Any]:
    failed = sum(not check.ok for check in checks)
    document: dict[str, Any] = {
        "ok": not failed,
        "saves": len(checks),
        "agree": len(checks) - failed,
        "failed": failed,
        "junit": junit,
        "files": [file_document(check) for check in checks],
    }
    if failed:
        document["error"] = {"kind": kind_of(ExitStatus.CHECK_FAILED), "exit_status": int(ExitStatus.CHECK_FAILED),
                             "message": str(summary)}
    return document


def file_document(check: SaveCheck) -> dict[str, Any]:
    """One save of a batch: the keys of the single-file document without ``state``, ``upto``, ``steps``."""
    document: dict[str, Any] = {"ok": check.ok, "file": str(check.path),
                                "failures": [one_line(failure) for failure in check.failures]}
    if check.error is not None:
        status = status_for(check.error)
        document["error"] = {"kind": kind_of(status), "exit_status": int(status), "message": one_line(str(check.error))}
        return document
    assert check.data is not None and check.result is not None
    data, result, game = check.data, check.result, check.result.game
    document.update({
        "deal": data.deal, "actions": len(data.history), "score": game.score, "moves": game.move_count,
        "status": game.outcome.value, "termination": None if game.termination is None else game.termination.value,
        "format": data.format, "agrees": result.first is None,
        "divergence": None if result.first is None else divergence_document(result.first),
        "divergences": [divergence_document(divergence) for divergence in result.divergences],
        "expectations": check.checks,
    })
    return document


def divergence_document(divergence: Any) -> dict[str, Any]:
    return {"field": divergence.field, "recorded": divergence.recorded, "replayed": divergence.replayed,
            "action": divergence.action, "message": divergence.message}


# -- JUnit XML -----------------------------------------------------------------------------------
def xml_text(value: object) -> str:
    """Text that XML 1.0 can hold: controls and undecodable bytes written as escapes (``\\x1b``), any
    other character it forbids (U+FFFE…) replaced; ElementTree escapes ``&``, ``<``, ``>`` and quotes."""
    return _XML_INVALID.sub("\ufffd", escaped(str(value)))


def junit_report(checks: list[SaveCheck]) -> str:
    """The JUnit XML of a batch: one ``testcase`` per save; a divergence or unmet expectation is a
    ``failure`` (its message the first, its text all of them), an unreadable save an ``error``."""
    from xml.etree import ElementTree

    failures = sum(check.error is None and bool(check.failures) for check in checks)
    errors = sum(check.error is not None for check in checks)
    seconds = f"{sum(check.seconds for check in checks):.3f}"
    counts = {"tests": str(len(checks)), "failures": str(failures), "errors": str(errors), "time": seconds}
    suites = ElementTree.Element("testsuites", {"name": "pyramide replay", **counts})
    suite = ElementTree.SubElement(suites, "testsuite", {"name": "pyramide replay", **counts, "skipped": "0"})
    for check in checks:
        name = xml_text(check.path)
        case = ElementTree.SubElement(suite, "testcase", {"classname": "pyramide.replay", "name": name,
                                                          "file": name, "time": f"{check.seconds:.3f}"})
        if check.error is not None:
            status = status_for(check.error)
            element = ElementTree.SubElement(case, "error", {"message": xml_text(check.error), "type": kind_of(status)})
            element.text = xml_text(check.error)
        elif check.failures:
            element = ElementTree.SubElement(case, "failure", {"message": xml_text(check.failures[0]),
                                                               "type": kind_of(ExitStatus.CHECK_FAILED)})
            element.text = "\n".join(xml_text(failure) for failure in check.failures)
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"


# -- GitHub Actions ------------------------------------------------------------------------------
def github_data(value: str) -> str:
    """A workflow command's message, escaped as GitHub's runner reads it back (``%``, CR, LF)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(value: str) -> str:
    """A workflow command's property (``file=…``): the message escapes, and ``:`` and ``,`` too."""
    return github_data(value).replace(":", "%3A").replace(",", "%2C")


def annotation_path(path: Path) -> str:
    """The file as GitHub names it: relative to ``$GITHUB_WORKSPACE`` when the path is inside it."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    if workspace and path.is_absolute():
        try:
            return path.relative_to(workspace).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def github_annotation(check: SaveCheck) -> str:
    """``::error file=saves/b.yaml,line=9,title=pyramide replay::score: the file says 40 …``."""
    properties = [f"file={github_property(escaped(annotation_path(check.path)))}"]
    if check.line is not None:
        properties.append(f"line={check.line}")
    properties.append(f"title={github_property('pyramide replay')}")
    message = "\n".join(escaped(failure) for failure in ([str(check.error)] if check.error else check.failures))
    return f"::error {','.join(properties)}::{github_data(message)}"
