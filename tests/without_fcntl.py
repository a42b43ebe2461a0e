"""Run ``pyramide`` as on a system without ``fcntl`` (Windows): ``python tests/without_fcntl.py ARGS``.

``import fcntl`` fails, ``os.pread`` and ``os.pwrite`` are gone, and ``msvcrt`` is a stand-in with
Windows' semantics for what the save lock uses: ``locking(fd, LK_NBLCK, 1)`` takes the byte or raises
``OSError(EACCES)`` when another handle holds it, ``LK_UNLCK`` lets it go, and the system releases it
when the file is closed or the process ends.  (It is built on ``flock`` taken before ``fcntl`` is hidden,
which gives exactly that between handles.)  (``tests/test_portable_lock.py`` does the same in its own process.)
"""

from __future__ import annotations

import errno
import os
import sys
import types


def fake_msvcrt() -> types.ModuleType:
    import fcntl

    module = types.ModuleType("msvcrt")
    module.LK_UNLCK, module.LK_LOCK, module.LK_NBLCK, module.LK_RLCK, module.LK_NBRLCK = 0, 1, 2, 3, 4

    def locking(descriptor: int, mode: int, size: int) -> None:
        if mode == module.LK_UNLCK:
            fcntl.flock(descriptor, fcntl.LOCK_UN)
            return
        if mode != module.LK_NBLCK:
            raise NotImplementedError("only LK_NBLCK and LK_UNLCK are used")
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OSError(errno.EACCES, "Permission denied") from None

    module.locking = locking  # type: ignore[attr-defined]
    return module


def install() -> None:
    """Hide ``fcntl`` (and ``os.pread``/``os.pwrite``) and put the stand-in ``msvcrt`` in its place.

    ``subprocess`` takes any importable ``msvcrt`` for Windows (and would then want ``_winapi``), so
    it is imported first, as on a real system where it finds the platform it runs on."""
    stand_in = fake_msvcrt()
    sys.modules["fcntl"] = None  # type: ignore[assignment]
    import subprocess  # noqa: F401 - see above

    sys.modules["msvcrt"] = stand_in
    for name in ("pread", "pwrite"):
        if hasattr(os, name):
            delattr(os, name)


if __name__ == "__main__":
    install()
    from pyramide_cli.__main__ import main

    sys.argv = ["pyramide", *sys.argv[1:]]
    main()
