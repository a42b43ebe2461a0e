"""The solver's pruning rules and bounds, by name, and the options that switch them off.

Each rule is described, with why it never cuts off a win or a shorter line, under its name in
docs/solver.md.  A search with a rule switched off gives the same verdicts and maxima (and the same
``--optimal`` lengths) with more positions: the differential tests compare the two.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


class SearchRule(Enum):
    """A pruning rule or bound of the solver (``.value``: its name in docs/solver.md)."""

    # The exact talon search (both phases)
    WALK_EDGES = "walk-edges"
    """A node's children are the removals along the deterministic draw/recycle walk, each at its first
    occurrence."""
    TIME_DOMINANCE = "time-dominance"
    """Draw-1: a (pyramid, talon) searched without a win at an earlier time dominates later times."""
    RECYCLE_DOMINANCE = "recycle-dominance"
    """Draw-3: a (pyramid, talon, pointer) searched with fewer recycles dominates more."""
    PASS_START = "pass-start"
    """Draw-3, unlimited recycles: a pointer the pass from its start walks through shares the start's key."""
    LOST_POINTERS = "lost-pointers"
    """Draw-3: the pointers the draws from a lost node reach (this pass, the next) are lost at their time."""
    PYRAMID_KINGS = "pyramid-kings"
    """Free pyramid kings are removed at once."""
    TALON_KINGS_AT_TOP = "talon-kings-at-top"
    """Draw-1: a talon king is removed the moment it reaches the waste top."""
    MULTISET_RELAXATION = "multiset-relaxation"
    """A node whose multiset game (talon order forgotten) cannot win is cut (phase 1)."""
    UNREACHABLE_TALON = "unreachable-talon"
    """Draw-3, no talon pairs: the talon cards no draw can bring to the top again leave the multiset game."""
    BURIED_WASTE = "buried-waste"
    """Last pass, no talon pairs: the waste under a card nothing can remove is out of reach."""
    LAST_PASS_SEGMENTS = "last-pass-segments"
    """Last pass, draw-1: the stock's dead cards cut the rest of the pass into segments."""
    WASTE_STACK = "waste-stack"
    """Last pass, draw-3: the waste keeps its order (a stack), the stock is a bag."""
    BRANCH_AND_BOUND = "branch-and-bound"
    """Phase 2 expands a node only if its upper bounds can beat the best found."""
    TALON_ORDER = "talon-order"
    """Talon pairs: a bound on the cards in all that keeps the talon's order (with caps per value)."""
    PROBE = "probe"
    """Talon pairs: phase 2 first runs a short search trying the talon's removals first."""
    TALON_SET = "talon-set"
    """Talon pairs: the talon-set game, asked where the talon-order bound lets a node through."""
    # The --optimal A* and its lower bounds
    LABEL_DOMINANCE = "label-dominance"
    """A queued (cost, recycles, pointer) dominates a label its walk reaches for no more."""
    TALON_KINGS_FIRST_DRAW = "talon-kings-first-draw"
    """Limited recycles: a talon king not on the waste at the start goes at its first draw."""
    NEEDED_CARDS = "needed-cards"
    """The walk must reach the first talon cards meeting every need of the pyramid."""
    WASTE_DIG = "waste-dig"
    """A waste card counts as in play only if the rest of the pass can dig it out."""
    PASSED_STOCK = "passed-stock"
    """Stock-top: the stock cards a line must pass, and the pyramid cards they can take."""
    STOCK_TOP_DIG = "stock-top-dig"
    """Stock-top: the dig may also remove the waste top with a stock card."""
    WASTE_PAIR_DIG = "waste-pair-dig"
    """Waste-pair: the dig may also remove the waste top with the card under it or a stock card."""
    PASSED_BY_VALUE_PAIR = "passed-by-value-pair"
    """Stock-top: the passed-stock count taken per value pair."""
    PASS_CHECK = "pass-check"
    """Limited recycles: "can this position be won before the next recycle?" asked of the exact search."""
    FIRST_WINNING_PASS = "first-winning-pass"
    """Limited recycles: no line wins before the first pass a win from the start can end in."""
    NEXT_PASS_STARTS = "next-pass-starts"
    """Limited recycles: the A* starts from every (pyramid, talon) the next pass can start from."""
    LAZY_BOUNDS = "lazy-bounds"
    """Stock-top: children are queued with the removals bound, the whole bound taken when popped."""


SWITCHABLE = frozenset({
    SearchRule.PASS_START, SearchRule.LOST_POINTERS, SearchRule.MULTISET_RELAXATION, SearchRule.UNREACHABLE_TALON,
    SearchRule.BURIED_WASTE,
    SearchRule.LAST_PASS_SEGMENTS, SearchRule.WASTE_STACK, SearchRule.BRANCH_AND_BOUND, SearchRule.TALON_ORDER,
    SearchRule.PROBE, SearchRule.TALON_SET,
})
"""The rules a search can be run without.  The others are the search's structure (its edges, its
keys, the forced kings) or the ``--optimal`` search's, which reads no options yet."""


PROBE_STATES = 3_000
"""Positions phase 2's probe may expand before the search proper, by default."""


class SearchOptions(NamedTuple):
    """How a solve searches: ``disabled``, the rules switched off (each of :data:`SWITCHABLE`;
    buried-waste off takes last-pass-segments and waste-stack with it, talon-order takes talon-set).

    For tests and measurements: every rule is sound, so the answers stay the same and only the
    positions expanded grow.  The default, every rule on, is what ``solve`` uses.
    """

    disabled: frozenset[SearchRule] = frozenset()
    probe_states: int = PROBE_STATES
    """Positions the probe may expand before phase 2's search proper."""

    def uses(self, rule: SearchRule) -> bool:
        return rule not in self.disabled

    def check(self) -> SearchOptions:
        """These options, or :class:`ValueError` naming a rule that cannot be switched off."""
        fixed = sorted(rule.value for rule in self.disabled - SWITCHABLE)
        if fixed:
            raise ValueError(f"these solver rules cannot be switched off: {', '.join(fixed)}")
        return self


DEFAULT_OPTIONS = SearchOptions()
