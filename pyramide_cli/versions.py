"""The version numbers of every public contract, in one place (``docs/api.md`` explains each).

A number changes only when its contract changes in a way a careful user would notice: something
removed, renamed or given another meaning.  Additions (a new function, a new JSON key, a new
request) keep the number.  Cheap to import: no other module of the package is loaded.
"""

from __future__ import annotations

PACKAGE_VERSION = "0.1.0"
"""The version of pyramide itself (``pyramide --version``, ``pyramide_cli.__version__``)."""

API_VERSION = 2
"""The Python API: the names in ``pyramide_cli.__all__`` and what they promise."""

JSON_SCHEMA_VERSION = 2
"""Every ``--json`` document carries it as ``"schema"`` (1 was the schema before it was written down)."""

SAVE_FORMAT_VERSION = 2
"""``pyramide-save:`` of the save files this version writes (format 1 is still read)."""

SERVE_PROTOCOL_VERSION = 1
"""The JSON-lines protocol of ``pyramide serve`` (``docs/protocol.md``)."""

ENGINE_PROTOCOL_VERSION = 1
"""The line protocol ``pyramide tournament --engine`` speaks to external engines (``docs/protocol.md``)."""

SURVEY_STORE_FORMAT = 1
"""The layout of a ``survey --store`` file (SQLite, ``PRAGMA user_version``; ``docs/scale.md``)."""
