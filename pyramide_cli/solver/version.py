"""The solver's version: the number a survey store records beside every verdict it keeps.

A stored verdict is only worth re-using while the same search would give it again.  Whoever
changes how the solver searches — its pruning rules, the order it tries moves in, how it counts
positions against ``Limits.max_states`` — in a way that can change a verdict, a position count
or the maxima (``max_pyramid_removed``, ``max_removed``, the length of an ``--optimal`` line) of any
deal under any limits, bumps :data:`SOLVER_VERSION` by one.  Survey stores made with another version
are then refused (``docs/scale.md``), so old and new answers never mix in one table.

Refactors that keep every answer and every position count bit for bit keep the number.
"""

from __future__ import annotations

SOLVER_VERSION = 7
"""Bump when a solve of some deal under some limits could answer differently (see above)."""
