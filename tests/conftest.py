"""The whole suite plays with its own data folder: no test counts a game in the statistics of the
person running it, nor keeps a game in their games folder (``PYRAMIDE_HOME`` is inherited by the
processes the tests start)."""

from __future__ import annotations

import atexit
import os
import resource
import shutil
import sys
import tempfile
import time

import pytest
from hypothesis import Phase, settings

from pyramide_cli.i18n import set_language

_HOME = tempfile.mkdtemp(prefix="pyramide-tests-home-")
os.environ["PYRAMIDE_HOME"] = _HOME
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)

# English messages whatever the locale of the person running the suite (a French LANG would
# translate every line the tests read); tests of other languages ask for them with --lang or env=.
os.environ["LANGUAGE"] = "en"
os.environ.pop("PYRAMIDE_BIDI", None)


settings.register_profile("mutations", phases=[Phase.explicit, Phase.reuse, Phase.generate], database=None)
"""``--hypothesis-profile=mutations`` (bench/mutations.py): find a failing example, do not shrink it."""


@pytest.fixture(autouse=True)
def _english_between_tests() -> None:
    """A test that ran the CLI with ``--lang he`` leaves no Hebrew behind for the next one (the
    language is process-wide state, set by each command)."""
    set_language("en")


_CPU_LOG = os.environ.get("PYRAMIDE_TEST_CPU")
"""``PYRAMIDE_TEST_CPU=cpu.tsv pytest ...`` appends one line per test: the CPU seconds it took (this
process and the processes it waited for, its fixtures' set-up included) and its id.  Unlike
``--durations`` the figure hardly moves when the machine is busy with other work."""


def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


if _CPU_LOG:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
        start = _cpu_seconds()
        yield
        with open(_CPU_LOG, "a", encoding="utf-8") as log:
            log.write(f"{_cpu_seconds() - start:.4f}\t{item.nodeid}\n")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "no_cover: a model check's sweep, run untraced by coverage (tests/conftest.py)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """``@pytest.mark.no_cover`` (pytest-cov's name for it): the test's body runs without coverage's tracer.

    The sweeps that check the solver or the engine against an independent model over many
    positions run the same lines over and over, and tracing them triples their run time.  What
    they catch is unchanged; the lines they run must be covered by the focused tests (make test
    fails under 90 %).  Only tests that start no process and no thread are marked (those would
    be traced all the same)."""
    tracer = _coverage_tracer() if item.get_closest_marker("no_cover") else None
    if tracer is not None:
        sys.settrace(None)
    yield
    if tracer is not None:
        sys.settrace(tracer)


def _coverage_tracer() -> object | None:
    """This thread's trace function if it is coverage's (a debugger's is left alone)."""
    tracer = sys.gettrace()
    module = getattr(tracer, "__module__", None) or type(tracer).__module__
    return tracer if tracer is not None and module.split(".")[0] == "coverage" else None
