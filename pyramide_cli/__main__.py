"""``pyramide`` (the console script) and ``python -m pyramide_cli``: the command line.

Most of what a short command costs is its start-up: importing Typer and the engine builds some
30,000 objects that the cyclic garbage collector tracks and that live until the process ends.  The
collector would walk them again and again while they are being built, and once more at exit, to
find no garbage among them: a good share of a command like ``pyramide play g.yaml draw``
(``bench/bench_cli.py`` measures it).  So the collector is off while the command line is imported, and
:func:`pyramide_cli.cli.main` then freezes what was built (``gc.freeze``: kept out of every later
collection, as meant for objects made once and kept) and turns the collector back on before the
command runs.  This module imports nothing else, so that the pause covers every import.
"""

from __future__ import annotations

import gc


def main() -> None:
    """The ``pyramide`` script."""
    gc.disable()  # until the start-up is over: pyramide_cli.cli.main turns it back on
    from pyramide_cli.cli import main as command_line

    command_line()


if __name__ == "__main__":
    main()
