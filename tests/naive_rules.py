"""A deliberately naive model of the rules, written straight from docs/rules.md (lists of lists, no bit
masks), and the random deals the engine is checked against it on (test_properties.py, test_game_machine.py).

The model knows R1–R17 and the variants.  Whether a game is dead (no card can ever be removed again)
it works out by playing the forced draws and recycles on a copy, one at a time.
"""

from __future__ import annotations

import itertools

from hypothesis import strategies as st

from pyramide_cli.engine.cards import Card
from pyramide_cli.engine.deal import Deal
from pyramide_cli.engine.moves import DRAW, RECYCLE, Move
from pyramide_cli.engine.position import Position, Termination
from pyramide_cli.engine.rules import Rules

VARIANTS = ["strict", "recycles=1", "recycles=0", "waste-pair", "cover-pair", "stock-top", "draw-3"]

rules_strategy = st.builds(
    lambda preset, variants: Rules.parse("+".join([preset, *sorted(set(variants), key=VARIANTS.index)]))
    if not {"recycles=1", "recycles=0"} <= set(variants) else Rules.preset(preset),
    st.sampled_from("NTEO"),
    st.lists(st.sampled_from(VARIANTS), max_size=3),
)
deal_strategy = st.builds(Deal.from_number, st.integers(min_value=0, max_value=10**9), rules_strategy)


class NaiveGame:
    """docs/rules.md played with plain lists: rows of cards (None when gone), stock top first, waste bottom first."""

    def __init__(self, deal: Deal) -> None:
        self.rules = deal.rules
        cards = list(deal.cards)
        self.rows: list[list[Card | None]] = [cards[row * (row + 1) // 2: row * (row + 1) // 2 + row + 1]
                                              for row in range(7)]
        talon = cards[28:]
        self.waste = talon[:1] if self.rules.initial_waste else []
        self.stock = talon[1:] if self.rules.initial_waste else talon
        self.recycles = 0

    def copy(self) -> NaiveGame:
        clone = NaiveGame.__new__(NaiveGame)
        clone.rules, clone.recycles = self.rules, self.recycles
        clone.rows = [list(row) for row in self.rows]
        clone.waste, clone.stock = list(self.waste), list(self.stock)
        return clone

    def free(self, row: int, col: int) -> bool:
        if self.rows[row][col] is None:
            return False
        return row == 6 or (self.rows[row + 1][col] is None and self.rows[row + 1][col + 1] is None)

    def won(self) -> bool:
        pyramid_gone = all(item is None for row in self.rows for item in row)
        return pyramid_gone and not (self.rules.strict and (self.stock or self.waste))

    def pyramid_left(self) -> int:
        return sum(item is not None for row in self.rows for item in row)

    def playable(self) -> list[Card]:
        """The cards a player may tap: the free pyramid cards, the waste top, the card under it
        (``waste-pair``) and the stock top (``stock-top``)."""
        cards = [self.rows[r][c] for r in range(7) for c in range(r + 1) if self.free(r, c)]
        if self.waste:
            cards.append(self.waste[-1])
        if self.rules.waste_pair and len(self.waste) >= 2:
            cards.append(self.waste[-2])
        if self.rules.stock_top and self.stock:
            cards.append(self.stock[0])
        return cards  # type: ignore[return-value]

    def moves(self) -> set[str]:
        if self.won():
            return set()
        playable = [(self.rows[r][c], "pyramid") for r in range(7) for c in range(r + 1) if self.free(r, c)]
        if self.waste:
            playable.append((self.waste[-1], "waste"))
        if self.rules.stock_top and self.stock:
            playable.append((self.stock[0], "stock"))
        moves = {str(Move.king(card)) for card, _ in playable if card.rank == 13}
        for (first, where_first), (second, where_second) in itertools.combinations(playable, 2):
            if first.rank + second.rank == 13 and not (where_first == where_second == "waste"):
                moves.add(str(Move.pair(first, second)))
        if self.rules.waste_pair and len(self.waste) >= 2 and self.waste[-1].rank + self.waste[-2].rank == 13:
            moves.add(str(Move.pair(self.waste[-1], self.waste[-2])))
        if self.rules.cover_pair:
            for r in range(6):
                for c in range(r + 1):
                    below = self.rows[r][c]
                    coverers = [(r + 1, c), (r + 1, c + 1)]
                    present = [(rr, cc) for rr, cc in coverers if self.rows[rr][cc] is not None]
                    if below is not None and len(present) == 1 and self.free(*present[0]):
                        top = self.rows[present[0][0]][present[0][1]]
                        if below.rank + top.rank == 13:
                            moves.add(str(Move.pair(below, top)))
        if self.stock:
            moves.add("draw")
        elif self.waste and (self.rules.recycle_limit is None or self.recycles < self.rules.recycle_limit):
            moves.add("recycle")
        return moves

    def apply(self, move: Move) -> None:
        if move == DRAW:
            for _ in range(self.rules.draw_count):
                if self.stock:
                    self.waste.append(self.stock.pop(0))
        elif move == RECYCLE:
            self.stock, self.waste = self.waste, []
            self.recycles += 1
        else:
            for card in move.cards:
                for row in self.rows:
                    if card in row:
                        row[row.index(card)] = None
                for pile in (self.waste, self.stock):
                    if card in pile:
                        pile.remove(card)

    def termination(self) -> Termination | None:
        """Why the game is over here, or ``None``: cleared, no move at all (R17), or dead — the forced
        draws and recycles, played on a copy for three passes, never offer a removal."""
        if self.won():
            return Termination.CLEARED
        if not self.moves():
            return Termination.NO_MOVES
        walk = self.copy()
        for _ in range(4 * (len(self.stock) + len(self.waste) + 2)):
            moves = walk.moves()
            if moves - {"draw", "recycle"}:
                return None
            if not moves:
                break
            walk.apply(DRAW if "draw" in moves else RECYCLE)
        return Termination.DEAD


def board(position: Position) -> tuple[list[list[Card | None]], list[Card], list[Card]]:
    """A position as the model holds it: rows, waste (bottom first), stock (top first)."""
    return (position.rows(), list(position.waste), list(position.stock))
