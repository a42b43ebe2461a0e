"""Where pyramide keeps the player's own data: the statistics database and the finished games kept.

``$PYRAMIDE_HOME`` when it is set; else the platform's folder for application data:
``$XDG_DATA_HOME/pyramide`` (``~/.local/share/pyramide`` when unset) on Linux and other Unix
systems, ``~/Library/Application Support/pyramide`` on macOS, ``%LOCALAPPDATA%\\pyramide`` on
Windows.  Nothing here touches the disk: the folders are made when something is first written.
A small module on purpose: ``pyramide play`` asks it for a path on every command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

DB_NAME = "stats.sqlite3"
GAMES_FOLDER = "games"


def data_home(environ: Mapping[str, str] | None = None, platform: str | None = None,
              home: Path | None = None) -> Path:
    """The folder of the user's pyramide data (see the module docstring)."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if environ.get("PYRAMIDE_HOME"):
        return Path(environ["PYRAMIDE_HOME"]).expanduser()
    home = Path.home() if home is None else home
    if platform.startswith("win"):
        base = environ.get("LOCALAPPDATA") or environ.get("APPDATA")
        return Path(base) / "pyramide" if base else home / "AppData" / "Local" / "pyramide"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "pyramide"
    xdg = environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"  # XDG: ignore relative
    return base / "pyramide"


def default_db_path() -> Path:
    """The statistics database: ``stats.sqlite3`` in :func:`data_home`."""
    return data_home() / DB_NAME


def games_folder() -> Path:
    """Where finished games are kept when a new deal takes their file: ``games/`` in :func:`data_home`."""
    return data_home() / GAMES_FOLDER
