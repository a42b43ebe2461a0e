"""Captured screens of the four languages (issue 15): what a player sees, as plain text.

For each of en, fr, he and sv: ``pyramide show PY1-N-AAAAAAS --ascii`` and a refused pair on a
fresh save of that deal (``play g.yaml 5D 2S``: 5♦ and 2♠ make 7, not 13), with the message the
player reads.  Hebrew is printed twice: as Pyramide writes it (logical order with directional
marks, for a terminal with bidi support) and with ``PYRAMIDE_BIDI=visual`` (reordered for a
terminal without it).  The marks are invisible; ``--marks`` shows them as ``<LRM>``/``<RLM>``.

    python bench/screens.py            # every language
    python bench/screens.py fr he      # some of them
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from pyramide_cli.i18n import LANGUAGES, is_right_to_left

CODE = "PY1-N-AAAAAAS"
REFUSED_PAIR = ("5D", "2S")


def pyramide_command() -> list[str]:
    script = Path(sys.executable).with_name("pyramide")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pyramide_cli"]


def run(arguments: list[str], folder: Path, environment: dict[str, str]) -> str:
    """stdout then stderr of one command, as a terminal would show them one after the other."""
    done = subprocess.run([*pyramide_command(), *arguments], cwd=folder, env=environment, capture_output=True,
                          text=True, check=False)
    return done.stdout + done.stderr + f"[exit {done.returncode}]\n"


def screens(language: str, folder: Path, visual: bool = False) -> str:
    environment = {**os.environ, "LANGUAGE": "", "NO_COLOR": "1"}
    environment.pop("PYRAMIDE_BIDI", None)
    if visual:
        environment["PYRAMIDE_BIDI"] = "visual"
    save = f"{language}.yaml"
    subprocess.run([*pyramide_command(), "deal", CODE, "-o", save, "--quiet", "--force"], cwd=folder, check=True,
                   capture_output=True)
    shown = ["--lang", language, "show", CODE, "--ascii"]
    played = ["--lang", language, "play", save, *REFUSED_PAIR, "--ascii"]
    title = f"== {language}" + (" (PYRAMIDE_BIDI=visual)" if visual else "")
    return (f"{title}\n$ pyramide {' '.join(shown)}\n{run(shown, folder, environment)}"
            f"$ pyramide {' '.join(played)}\n{run(played, folder, environment)}")


def main(arguments: list[str]) -> int:
    marks = "--marks" in arguments
    chosen = [argument for argument in arguments if argument in LANGUAGES] or list(LANGUAGES)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        home = folder / "home"
        os.environ["PYRAMIDE_HOME"] = str(home)  # nothing counted in anyone's statistics
        for language in chosen:
            output = screens(language, folder)
            if is_right_to_left(language):
                output += "\n" + screens(language, folder, visual=True)
            if marks:
                output = output.replace("\u200e", "<LRM>").replace("\u200f", "<RLM>")
            sys.stdout.write(output + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
