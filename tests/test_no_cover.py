"""``@pytest.mark.no_cover`` (tests/conftest.py): a marked test runs without coverage's tracer, and the
tracer is back for the next test."""

from __future__ import annotations

import sys

import pytest


def coverage_traces() -> bool:
    tracer = sys.gettrace()
    return tracer is not None and type(tracer).__module__.split(".")[0] == "coverage"


@pytest.mark.no_cover
def test_a_test_marked_no_cover_runs_untraced() -> None:
    assert not coverage_traces()


def test_other_tests_are_traced_when_coverage_runs() -> None:
    assert coverage_traces() == ("coverage" in sys.modules and sys.modules["coverage"].Coverage.current() is not None)
