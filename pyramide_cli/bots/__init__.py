"""Playing without a person: ``pyramide serve`` (JSON lines), ``pyramide tournament``, the built-in
bots and the line protocol of external engines (``docs/protocol.md``).

Games played here are never recorded in the player's statistics.
"""
