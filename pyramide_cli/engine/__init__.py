"""The engine: cards, rules, deals, moves, positions, games and random playouts.

Pure: no files, no terminal, no clock.  Everything else in the package is built on it and it
imports nothing from outside this folder.  ``docs/engine.md`` is the map.
"""
