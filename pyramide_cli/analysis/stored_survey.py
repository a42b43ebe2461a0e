"""A survey written into a results store as it goes: start one, resume one, keep every solved deal.

The rows a run adds are exactly the deals of its range that the store does not hold yet, so a
resumed run never solves a stored deal again and never counts one twice; whatever interrupts a run
(Ctrl-C, an error, a lost cluster), the rows solved so far are committed before it stops.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..engine.rules import Rules
from ..engine.text import text
from ..solver.version import SOLVER_VERSION
from ..storage.survey_store import StoredDeal, StoreIdentity, SurveyStore
from .survey import DealOutcome, parse_deal_range


@dataclass(frozen=True)
class StoreRun:
    """An open store and the deals a run still has to solve in it."""

    store: SurveyStore
    rules: Rules
    numbers: range
    already: int

    @property
    def todo(self) -> int:
        return len(self.numbers) - self.already


def begin(path: Path | str, resume: bool, rules_text: str | None, deals_text: str | None,
          max_states: int | None, default_max_states: int, optimal: bool) -> StoreRun:
    """Create the store (refused when the file exists) or, with ``resume``, open it and check that
    the settings asked for are its own; settings not given are taken from the store."""
    if resume:
        store = SurveyStore.open(path, writable=True)
        try:
            held = store.identity
            rules = Rules.parse(rules_text if rules_text is not None else held.rules)
            store.check(StoreIdentity(SOLVER_VERSION, rules.name, held.max_states if max_states is None else max_states,
                                      optimal or held.optimal))
            if deals_text is None:
                deals_text = store.info("deals") or ""
                if not deals_text:
                    raise ValueError(text("{name!r} records no deal range: give --deals A-B", name=str(path)))
            numbers = parse_deal_range(deals_text)
            if store.info("deals") != deals_text:
                store.set_info("deals", deals_text)
        except BaseException:
            store.close()
            raise
    else:
        if deals_text is None:
            raise ValueError(text("--deals A-B is needed to start a survey (or --resume to continue one)"))
        rules = Rules.parse(rules_text or "N")
        numbers = parse_deal_range(deals_text)
        identity = StoreIdentity(SOLVER_VERSION, rules.name,
                                 default_max_states if max_states is None else max_states, optimal)
        store = SurveyStore.create(path, identity, deals_text)
    return StoreRun(store, rules, numbers, store.count(numbers))


def store_row(outcome: DealOutcome, identity: StoreIdentity) -> StoredDeal:
    """The row of one outcome (its optimal length only in an ``--optimal`` store)."""
    return StoredDeal(outcome.number, identity.rules, outcome.verdict.value, outcome.states,
                      outcome.max_pyramid_removed, outcome.max_removed, outcome.actions if identity.optimal else None,
                      identity.solver_version)


def fill(store: SurveyStore, outcomes: Iterable[DealOutcome], progress: Callable[[int], None] | None = None,
         batch_rows: int | None = None, batch_seconds: float | None = None) -> int:
    """Store every outcome in batches; the rows gathered are committed however the loop ends.

    Returns how many rows this call committed."""
    writer = store.writer(batch_rows, batch_seconds)
    identity = store.identity
    try:
        for outcome in outcomes:
            writer.add(store_row(outcome, identity))
            if progress is not None:
                progress(1)
    finally:
        writer.commit()
    return writer.committed
