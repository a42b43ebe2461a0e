"""The exact search, for every rule set: pyramid, talon in its order, draw pointer, recycles.

A node is a position ``(pyramid, talon, drawn, recycles)`` after its forced moves.  From a node
the only actions that change nothing but the draw pointer are draws and recycles, and they are
deterministic, so a node's children are its removals *now* plus every removal that becomes
possible somewhere along that deterministic walk (each at its first occurrence).  The walk ends
at the end of the last allowed pass (with unlimited recycles: after one whole cycle).

Phase 1 (:meth:`TalonSearch.find_win`) looks for a win with every pruning rule of
docs/solver.md (:class:`~pyramide_cli.solver.rules.SearchRule`).  When there is none, phase 2
(:class:`~pyramide_cli.solver.maximise.Maximiser`) finds the most pyramid cards and the most cards
in all that can be removed, by branch and bound over the positions phase 1 set aside.  Both are
depth-first over the search's transposition table.
"""

from __future__ import annotations

from .budget import Budget, SearchCapped
from .maximise import PASS_SHIFT, TALON_KEY_SHIFT, Maximiser, Step
from .relaxation import KEY_SHIFT, Gains, Relaxation
from .rules import DEFAULT_OPTIONS, SearchOptions, SearchRule
from .reach import unreachable_talon
from .segments import LastPassSegments
from .tables import DealTables, Shape
from .waste_stack import WasteStack

Deferred = tuple[int, int, int, int, int, tuple[Step, ...], int, int]
"""A node phase 1 set aside: (pyramid, talon, drawn, recycles, counts, path, bound on the pyramid cards,
bound on the cards in all)."""


class TalonSearch:
    """Depth-first search over the exact positions of one deal (see the module docstring)."""

    def __init__(self, tables: DealTables, relaxation: Relaxation, budget: Budget,
                 recycle_limit: int | None = None, last_pass_cut: bool = False,
                 options: SearchOptions = DEFAULT_OPTIONS, pyramid_only: bool = False) -> None:
        """``recycle_limit``: search only wins using at most that many recycles (limited rules only;
        ``None``: the rules' own limit).  ``last_pass_cut``: in the last allowed pass, also cut
        positions whose reachable talon cannot win the multiset game (buried-waste, and after it
        last-pass-segments or waste-stack; no talon pairs only).  ``options``: the rules switched off.
        ``pyramid_only``: phase 2 looks for the most pyramid cards alone (the hint's objective): its
        cards in all are those of a line to them, not the most."""
        rules = tables.rules
        uses = options.check().uses
        self.tables = tables
        self.relaxation = relaxation
        self.budget = budget
        self.options = options
        self.pyramid_only = pyramid_only
        self.limit = rules.recycle_limit if recycle_limit is None else recycle_limit
        self.last_pass_cut = last_pass_cut and uses(SearchRule.BURIED_WASTE)
        self.relaxation_cuts = uses(SearchRule.MULTISET_RELAXATION)
        self.bounds = uses(SearchRule.BRANCH_AND_BOUND)
        self.segments = (LastPassSegments(tables, relaxation, budget)
                         if self.last_pass_cut and not rules.strict and rules.draw_count == 1
                         and uses(SearchRule.LAST_PASS_SEGMENTS) else None)
        """Last-pass-segments, after buried-waste under draw-1 (not under ``strict``, where
        multiset-relaxation already cuts every position holding a dead card; not under ``draw-3``)."""
        self.draw_count = rules.draw_count
        self.waste_stack = (WasteStack(tables, relaxation, budget)
                            if self.last_pass_cut and rules.draw_count > 1 and uses(SearchRule.WASTE_STACK) else None)
        """Waste-stack, the last pass's waste in its order (draw-3: after buried-waste, in both phases)."""
        self.key_of = (_draw_one_key if rules.draw_count == 1
                       else _draw_three_key if self.limit is not None
                       else _pass_start_key if uses(SearchRule.PASS_START) else _draw_three_key_untimed)
        """``(search, pyramid, talon, drawn, recycles)`` → (transposition key, the node's time): a later
        time on the same key is dominated (time-dominance, recycle-dominance); a plain function."""
        self.marks_pass_start = self.key_of is _pass_start_key
        self.unreachable_cut = rules.draw_count > 1 and not rules.talon_pairs and uses(SearchRule.UNREACHABLE_TALON)
        """Unreachable-talon (draw-3 without talon pairs): talon cards no draw can bring up are left out."""
        self.lost_pointers = rules.draw_count > 1 and self.key_of is not _draw_three_key_untimed and uses(
            SearchRule.LOST_POINTERS)
        """Lost-pointers (draw-3): the pointers a lost node's pass draws to are lost too, at its time."""
        self.strict = rules.strict
        self.stock_top = rules.stock_top
        self.waste_pair = rules.waste_pair
        # Under draw-1 a talon king is removed the moment it reaches the top (talon-kings-at-top).
        self.silent_kings = rules.draw_count == 1
        self.plain = rules.plain_talon
        self.tops_only = rules.draw_count > 1 and not rules.waste_pair and not rules.stock_top
        """Only the waste top is in play, and nothing vanishes at a recycle (no talon-kings-at-top under draw-3)."""
        self.walk_tops = tables.talon_cards.walk_tops
        self.kings = tables.talon_kings
        self.talon_cards = tables.talon_cards
        self.children_of = (TalonSearch._plain_children if self.plain
                            else TalonSearch._tops_children if self.tops_only else TalonSearch._walk_children)
        """``(search, pyramid, talon, drawn, recycles, counts, shape)`` → ``(step, pyramid, talon, drawn,
        recycles, counts)`` for every removal along the walk, for these rules; a plain function called
        with the search (a bound method kept on the search would make a reference cycle)."""
        self.talon_rules = self.talon_cards.talon_rules
        self.drop = tables.talon_kings if self.silent_kings else 0
        """Talon bits that vanish at a recycle: the talon kings under draw-1 (talon-kings-at-top)."""
        self.memo: dict[int, int] = {}
        """Key → the earliest time searched without a win."""
        self.won: dict[int, int] = {}
        """Key → the latest time a win was found from (a win from a time is a win from any earlier)."""
        self.path: list[Step] = []
        self.deferred: list[Deferred] = []
        self.max_pyramid = -1
        self.max_all = -1
        self.best = (-1, -1)
        self.best_path: tuple[Step, ...] = ()

    def maximise(self) -> None:
        """Phase 2, after :meth:`find_win` failed: the maxima by branch and bound (:class:`Maximiser`)."""
        Maximiser(self).run()

    def key_and_time(self, pyramid: int, talon: int, drawn: int, recycles: int) -> tuple[int, int]:
        """Transposition key and the node's time (a later time on the same key is dominated)."""
        return self.key_of(self, pyramid, talon, drawn, recycles)

    # -- positions ---------------------------------------------------------------------------------
    def normalise(self, pyramid: int, talon: int, drawn: int) -> tuple[int, int, int]:
        """Play the forced moves (pyramid-kings, talon-kings-at-top): free pyramid kings, and under draw-1
        the talon kings.

        Pyramid kings are appended to :attr:`path`; talon kings are left to the line builder,
        which removes each king the moment it reaches the top (the search's talon simply no
        longer holds the kings still in the stock).
        """
        shape_of = self.tables.shape
        kings = shape_of(pyramid).kings
        while kings:
            low = kings & -kings
            self.path.append((low, 0))
            pyramid ^= low
            kings = shape_of(pyramid).kings
        if self.silent_kings:
            talon_kings = self.tables.talon_kings
            talon &= ~(talon_kings & ~((1 << drawn) - 1))
            top = drawn - 1
            while top >= 0 and talon_kings >> top & 1:
                talon ^= 1 << top
                drawn = (talon & ((1 << top) - 1)).bit_length()
                top = drawn - 1
        return pyramid, talon, drawn

    def is_won(self, pyramid: int, talon: int) -> bool:
        return not pyramid and not (self.strict and talon)

    def note(self, pyramid: int, talon: int, recycles: int) -> None:
        """Record how far this node got (and the path to it, for hints).

        Under draw-1 the talon kings still below the waste top count as removed when a recycle is
        left: the walk brings each to the top, where it goes at once (talon-kings-at-top).
        """
        removed_pyramid = 28 - pyramid.bit_count()
        removed_all = 52 - pyramid.bit_count() - talon.bit_count()
        if self.silent_kings and talon and (self.limit is None or recycles < self.limit):
            removed_all += (talon & self.tables.talon_kings).bit_count()
        if removed_pyramid > self.max_pyramid:
            self.max_pyramid = removed_pyramid
        if removed_all > self.max_all:
            self.max_all = removed_all
        if (removed_pyramid, removed_all) > self.best:
            self.best = (removed_pyramid, removed_all)
            self.best_path = tuple(self.path)

    # -- moves ---------------------------------------------------------------------------------------
    def _tops_children(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, shape: Shape) -> list:
        """Draw-3 without talon pairs: :meth:`_walk_children` on the walk by its stops (only the waste top
        is in play; a card alone is a king, which leaves the counts as they are)."""
        out = [((mask, 0), pyramid & ~mask, talon, drawn, recycles, counts) for mask in shape.pairs]
        by_need = shape.by_need
        units = self.tables.talon_units
        for _, bits, value, after, after_drawn, passes in self.walk_tops(talon, drawn, recycles, self.limit,
                                                                         shape.wanted_talon | self.kings):
            if value:  # every free pyramid card needing its value
                after_counts = counts - units[bits.bit_length() - 1]
                for bit in by_need[value]:
                    out.append(((bit, bits), pyramid & ~bit, after, after_drawn, passes, after_counts))
            else:
                out.append(((0, bits), pyramid, after, after_drawn, passes, counts))
        return out

    def _plain_children(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, shape: Shape) -> list:
        """Draw-1 without talon pairs: each talon card is in play once per pass, as the waste top."""
        out = [((mask, 0), pyramid & ~mask, talon, drawn, recycles, counts) for mask in shape.pairs]
        wanted = talon & shape.wanted_talon
        if not wanted:
            return out
        by_need = shape.by_need
        values = self.tables.talon_values
        units = self.tables.talon_units
        walk = self.talon_rules.plain_passes(talon, drawn, recycles, self.drop, self.limit)
        for cards, _, pass_talon, passes in walk:
            rest = wanted & cards
            while rest:
                low = rest & -rest
                rest ^= low
                card = low.bit_length() - 1
                after = pass_talon ^ low
                after_drawn = (after & (low - 1)).bit_length()
                after_counts = counts - units[card]
                for bit in by_need[values[card]]:
                    out.append(((bit, low), pyramid & ~bit, after, after_drawn, passes, after_counts))
        return out

    def _walk_children(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, shape: Shape) -> list:
        """Every rule set: the removals of each talon card and talon pair in play along the walk."""
        tables = self.tables
        out = [((mask, 0), pyramid & ~mask, talon, drawn, recycles, counts) for mask in shape.pairs]
        by_need = shape.by_need
        units = tables.talon_units
        walk = self.talon_cards.events(talon, drawn, recycles, self.drop, self.limit,
                                       shape.wanted_talon | tables.talon_kings)
        for _, bits, value, after, after_drawn, passes in walk:
            if value:  # a wanted card: every free pyramid card needing its value
                after_counts = counts - units[bits.bit_length() - 1]
                for bit in by_need[value]:
                    out.append(((bit, bits), pyramid & ~bit, after, after_drawn, passes, after_counts))
            else:  # a king, or two talon cards
                spent = 0
                rest = bits
                while rest:
                    low = rest & -rest
                    spent += units[low.bit_length() - 1]
                    rest ^= low
                out.append(((0, bits), pyramid, after, after_drawn, passes, counts - spent))
        return out

    # -- phase 1: is there a win? --------------------------------------------------------------------
    def find_win(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int) -> bool:
        """Whether the node can be won; on a win :attr:`path` holds its steps.  A node a relaxation
        proves lost is set aside for phase 2 (:attr:`deferred`) with the bounds the relaxation gave."""
        path = self.path
        base = len(path)
        tables = self.tables
        shape = tables.shapes.get(pyramid) or tables.shape(pyramid)
        if shape.kings or (self.silent_kings and (talon & tables.talon_kings) >> (drawn - 1 if drawn else 0)):
            pyramid, talon, drawn = self.normalise(pyramid, talon, drawn)  # kings on the top or in the stock
            shape = tables.shape(pyramid)
        if not pyramid and not (self.strict and talon):
            return True
        key, time = self.key_of(self, pyramid, talon, drawn, recycles)
        won = self.won.get(key) if self.won else None
        if won is not None and time <= won:
            return True  # a win from here was found earlier (only when answering can_win)
        memo = self.memo
        failed = memo.get(key)
        if failed is not None and time >= failed:
            del path[base:]
            return False
        memo[key] = time
        try:
            budget = self.budget
            budget.states += 1
            if budget.states >= budget.next_check:
                budget.check()
            if (28 - pyramid.bit_count() >= self.best[0]
                    or 52 - pyramid.bit_count() - talon.bit_count() + (talon & tables.talon_kings).bit_count()
                    > self.max_all):
                self.note(pyramid, talon, recycles)
            gains = self._relaxed_gains(pyramid, talon, drawn, recycles, counts, shape)
            if gains is not None:
                self._defer(pyramid, talon, drawn, recycles, counts, gains)
            elif self._a_child_wins(pyramid, talon, drawn, recycles, counts, shape):
                if failed is None:
                    del memo[key]
                else:
                    memo[key] = failed
                if won is None or time > won:
                    self.won[key] = time
                return True
        except SearchCapped:  # this node was not searched to the end: forget it was tried
            if failed is None:
                del memo[key]
            else:
                memo[key] = failed
            raise
        if self.marks_pass_start and key >> TALON_KEY_SHIFT:
            memo.setdefault(key & ~(-1 << TALON_KEY_SHIFT), 0)  # pass-start: its pass's start is reached from it
        if self.lost_pointers and (key >> TALON_KEY_SHIFT or not self.marks_pass_start):
            self._mark_walk_lost(key & ((1 << TALON_KEY_SHIFT) - 1), talon, drawn, time)
        del path[base:]
        return False

    def _mark_walk_lost(self, key: int, talon: int, drawn: int, time: int) -> None:
        """Lost-pointers: every pointer the draws from a lost node reach is lost at the time they reach it
        (its walk is the rest of this one): this pass's, and under limited recycles the next pass's
        from its start.  ``key``: the node's key without its pointer."""
        memo = self.memo
        step = self.draw_count
        timed = not self.marks_pass_start
        while True:
            stock = talon >> drawn << drawn
            while True:
                for _ in range(step):
                    top = stock & -stock
                    stock ^= top
                if not stock:
                    break  # the whole talon on the waste (unlimited recycles: the pass start's key, marked already)
                walked = key | top.bit_length() << TALON_KEY_SHIFT
                failed = memo.get(walked)
                if failed is None or time < failed:
                    memo[walked] = time
            if not timed or time >= self.limit or not drawn and not talon:
                return
            time += 1  # the recycle: the next pass from its start
            drawn = 0
            failed = memo.get(key)
            if failed is None or time < failed:
                memo[key] = time
            else:
                return  # that pass was marked (or searched) at this time or an earlier one

    def _a_child_wins(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, shape: Shape) -> bool:
        """Whether some child wins (its steps then stay on :attr:`path`)."""
        path = self.path
        find_win = self.find_win
        for step, child_pyramid, child_talon, child_drawn, child_recycles, child_counts in self.children_of(
                self, pyramid, talon, drawn, recycles, counts, shape):
            path.append(step)
            if find_win(child_pyramid, child_talon, child_drawn, child_recycles, child_counts):
                return True
            path.pop()
        return False

    def _relaxed_gains(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int,
                       shape: Shape) -> Gains | None:
        """Multiset-relaxation (and in the last pass buried-waste, last-pass-segments, waste-stack):
        the exact gains of a relaxation of the node's game that cannot win, or ``None`` when none
        rules out a win."""
        gains = None
        if self.relaxation_cuts:
            relaxation = self.relaxation
            relaxed_key = pyramid | (counts & (shape.need if relaxation.mask_useless
                                               else relaxation.key_mask(shape))) << KEY_SHIFT
            if relaxed_key not in relaxation.wins:
                # (under pairs_last what is stored leaves out the pairs of the values no card needs)
                gains = None if relaxation.pairs_last else relaxation.losses.get(relaxed_key)
                if gains is None:
                    gains = relaxation.search(pyramid, counts)
        if gains is None and self.unreachable_cut:
            gains = self.unreachable_gains(pyramid, talon, drawn, recycles, counts, shape)
        if gains is None and self.last_pass_cut and recycles == self.limit:
            if self.segments is None:
                return self._buried_waste_gains(pyramid, talon, drawn, counts, shape)
            return self.last_pass_gains(pyramid, shape, talon, drawn, counts, True)[0]
        return gains

    def unreachable_gains(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int,
                          shape: Shape) -> Gains | None:
        """Unreachable-talon: the multiset game without the talon cards no draw can bring to the top
        again (``None``: there are none, or it can still clear the pyramid)."""
        hidden = self.unreachable_cards(talon, drawn, recycles, shape)
        if not hidden:
            return None
        return self.relaxation.search(pyramid, counts - self.tables.counts(hidden))

    def unreachable_cards(self, talon: int, drawn: int, recycles: int, shape: Shape) -> int:
        """Unreachable-talon's cards at a node: those no draw can bring to the top again that could
        leave, had a draw brought them up (the cards that can never leave are out of the game already)."""
        dead = shape.dead_talon
        return unreachable_talon(talon, drawn, dead, self.limit is None or recycles < self.limit) & ~dead

    def _buried_waste_gains(self, pyramid: int, talon: int, drawn: int, counts: int, shape: Shape) -> Gains | None:
        """Buried-waste without segments (:meth:`last_pass_gains`, inline): the multiset game on the
        talon the last pass still reaches, then under draw-3 the waste-stack game."""
        tables = self.tables
        relaxation = self.relaxation
        gains = None
        waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()
        if waste_cut:  # else the talon in reach is the whole talon: multiset-relaxation's question
            reach = counts - tables.counts(talon & ((1 << waste_cut) - 1))
            if not relaxation.mask_useless:
                gains = relaxation.search(pyramid, reach)
            elif (relaxed_key := pyramid | (reach & shape.need) << KEY_SHIFT) not in relaxation.wins:  # search()
                gains = relaxation.losses.get(relaxed_key)
                if gains is None:
                    gains = relaxation.search(pyramid, reach)
        if gains is None and self.waste_stack is not None:
            waste = talon & ((1 << drawn) - 1) & (-1 << waste_cut)
            if waste & (waste - 1):  # two cards or more (one is always on top: the same game)
                gains = self.waste_stack.search(pyramid, waste, tables.counts(talon >> drawn << drawn))
        return gains

    def _defer(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int, gains: Gains) -> None:
        """Set a node a relaxation proved lost aside for phase 2, with the bounds its gains give
        (branch-and-bound's or larger: the whole talon counts, kings too), unless they cannot beat
        the best found (they never will: the best only grows)."""
        left = pyramid.bit_count()
        bound_pyramid = 28 - left + gains[0]
        bound_all = 52 - left - talon.bit_count() + gains[1] + (talon & self.tables.talon_kings).bit_count()
        if not self.bounds or self.may_beat(bound_pyramid, bound_all):
            self.deferred.append((pyramid, talon, drawn, recycles, counts, tuple(self.path), bound_pyramid,
                                  bound_all))

    def may_beat(self, bound_pyramid: int, bound_all: int) -> bool:
        """Whether bounds on a node's pyramid cards and cards in all may beat the best found
        (branch-and-bound; under ``pyramid_only`` only more pyramid cards do)."""
        if bound_pyramid > self.max_pyramid:
            return True
        if self.pyramid_only:
            return False
        return bound_all > self.max_all or bound_pyramid == self.best[0] and bound_all > self.best[1]

    def last_pass_gains(self, pyramid: int, shape: Shape, talon: int, drawn: int,
                        counts: int, relaxed_win: bool = False) -> tuple[Gains | None, int]:
        """At a node of the last pass: upper bounds on what the rest of the game can still remove
        (``None``: buried-waste and last-pass-segments cannot rule out a win), and the count vector of
        the talon the pass can still reach (buried-waste: the stock, and the waste down to, not
        including, its highest card that no pyramid card can remove).  ``relaxed_win``: the multiset
        game on the whole talon is known to win."""
        waste_cut = (talon & shape.dead_talon & ((1 << drawn) - 1)).bit_length()
        if waste_cut:
            counts -= self.tables.counts(talon & ((1 << waste_cut) - 1))
        gains = None if relaxed_win and not waste_cut else self.relaxation.search(pyramid, counts)
        if gains is None and self.segments is not None:
            gains = self.segments.gains(pyramid, shape, talon, drawn, waste_cut)
        return gains, counts

    def known(self, pyramid: int, talon: int, drawn: int, recycles: int) -> bool | None:
        """What earlier searches already proved about a position without free pyramid kings
        (draw-1): ``True`` won, ``False`` lost, ``None`` not known (ask :meth:`can_win`)."""
        if self.draw_count != 1:
            return None
        if self.silent_kings:  # the key find_win would use: stock kings gone, top kings removed
            talon_kings = self.tables.talon_kings
            talon &= ~(talon_kings & ~((1 << drawn) - 1))
            if drawn and talon_kings >> (drawn - 1) & 1:
                return None
        key, time = self.key_and_time(pyramid, talon, drawn, recycles)
        won = self.won.get(key)
        if won is not None and time <= won:
            return True
        failed = self.memo.get(key)
        if failed is not None and time >= failed:
            return False
        return None

    def can_win(self, pyramid: int, talon: int, drawn: int, recycles: int, counts: int,
                max_states: int | None = None) -> bool | None:
        """Whether a position can be won, remembering wins and losses across calls (for A*).

        ``max_states``: give up (answer ``None``) after that many positions; what was fully
        searched stays remembered.
        """
        self.path = []
        self.deferred.clear()
        recycles = 0 if self.limit is None else recycles
        if max_states is None:
            return self.find_win(pyramid, talon, drawn, recycles, counts)
        self.budget.cap(max_states)
        try:
            return self.find_win(pyramid, talon, drawn, recycles, counts)
        except SearchCapped:
            return None
        finally:
            self.budget.cap(None)


def _draw_one_key(search: TalonSearch, pyramid: int, talon: int, drawn: int, recycles: int) -> tuple[int, int]:
    """Draw-1: the key is (pyramid, talon); the time ``recycles·32 + drawn`` (time-dominance: the walk from
    an earlier time passes every later pointer), always 0 with unlimited recycles."""
    return pyramid | talon << KEY_SHIFT, 0 if search.limit is None else recycles << PASS_SHIFT | drawn


def _draw_three_key(search: TalonSearch, pyramid: int, talon: int, drawn: int, recycles: int) -> tuple[int, int]:
    """Draw-3, limited recycles: the key holds the pointer, the time is the recycles (recycle-dominance)."""
    return pyramid | talon << KEY_SHIFT | drawn << TALON_KEY_SHIFT, recycles


def _draw_three_key_untimed(search: TalonSearch, pyramid: int, talon: int, drawn: int,
                            recycles: int) -> tuple[int, int]:
    """Draw-3, unlimited recycles, without pass-start: every pointer a key of its own."""
    return pyramid | talon << KEY_SHIFT | drawn << TALON_KEY_SHIFT, 0


def _pass_start_key(search: TalonSearch, pyramid: int, talon: int, drawn: int, recycles: int) -> tuple[int, int]:
    """Draw-3, unlimited recycles (pass-start): a pointer the pass from the start walks through (the waste
    holds a multiple of three cards, or the whole talon) shares the pass start's key."""
    on_waste = (talon & ((1 << drawn) - 1)).bit_count()
    if not on_waste % search.draw_count or on_waste == talon.bit_count():
        drawn = 0
    return pyramid | talon << KEY_SHIFT | drawn << TALON_KEY_SHIFT, 0
