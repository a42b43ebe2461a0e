"""Shell completion (bash, zsh, fish): what pressing Tab offers beyond command and option names.

``pyramide --install-completion`` installs the script of the shell it runs in (Typer's, found by
``shellingham``); ``pyramide --show-completion`` prints it.  The script calls ``pyramide`` back with
``_PYRAMIDE_COMPLETE`` set, and Click completes commands and options itself; the functions here
complete the values a person would otherwise have to look up: rules (``--rules T+str<Tab>``),
levels, ``replay --expect`` outcomes, and — reading the save being played — the cards and moves
``pyramide play FILE <Tab>`` accepts right now.  An argument that names a file gets nothing from
here, so the shell offers file names.

Each function is called only while completing, never on a normal run (this module imports
nothing heavy at load: command modules import it for the references).  A completer never raises:
a missing or bad save completes to nothing.
"""

from __future__ import annotations

import os
from typing import Any

COMPLETE_VAR = "_PYRAMIDE_COMPLETE"
"""Set by the completion scripts when the shell asks ``pyramide`` for completions."""
DESCRIPTION_COLUMNS = 1000
"""The width descriptions are laid out in while completing: wider than any of them."""

RULES_PRESETS = (("N", "default: 23-card stock, a waste card, unlimited recycles"),
                 ("T", "24-card stock, three passes"), ("E", "24-card stock, two passes"),
                 ("O", "24-card stock, one pass"))
RECYCLE_CHOICES = ("recycles=0", "recycles=1", "recycles=2", "recycles=3")


def prepare() -> None:
    """Before answering the shell.  zsh and fish show a description beside each choice, and Typer
    renders it through rich, which breaks lines at the width of the terminal (80 columns when, as
    here, the output goes to the shell and not to a terminal): a longer description would become a
    second, bogus choice.  ``COLUMNS`` (the POSIX variable, which rich reads) keeps each on its line."""
    os.environ["COLUMNS"] = str(DESCRIPTION_COLUMNS)


def _matching(choices: list[tuple[str, str]], incomplete: str) -> list[tuple[str, str]]:
    """The choices that start with ``incomplete``, in any case; written in lower case when it is
    (the shell keeps only words that start with exactly what was typed; input is read in any case)."""
    lower = incomplete.islower()
    found = []
    for value, help_text in choices:
        shown = value.lower() if lower else value
        if shown.startswith(incomplete):
            found.append((shown, help_text))
        elif value.lower().startswith(incomplete.lower()):
            found.append((incomplete + value[len(incomplete):], help_text))
    return found


def complete_rules(incomplete: str) -> list[tuple[str, str]]:
    """``N``, ``T``, ``E``, ``O``; after ``T+``: ``T+strict``, ``T+waste-pair``, ``T+recycles=1`` …"""
    from ..engine.rules import VARIANTS

    if "+" not in incomplete:
        return _matching(list(RULES_PRESETS), incomplete)
    head, _, _ = incomplete.rpartition("+")
    taken = {part.lower().split("=")[0] for part in head.split("+")[1:]}
    choices = []
    for variant, description in VARIANTS.items():
        name = variant.split("=")[0]
        if name in taken:
            continue
        if variant == "recycles=K":
            choices += [(f"{head}+{choice}", description) for choice in RECYCLE_CHOICES]
        else:
            choices.append((f"{head}+{variant}", description))
    return _matching(choices, incomplete)


def complete_level(incomplete: str) -> list[tuple[str, str]]:
    from ..engine.level import LEVELS

    return _matching([(level.value, f"a {level.label} deal") for level in LEVELS], incomplete)


def complete_expect(incomplete: str) -> list[tuple[str, str]]:
    from ..engine.position import Outcome, Termination

    choices = [(member.value, "status") for member in Outcome]
    choices += [(member.value, "how it ended") for member in Termination]
    return _matching(choices, incomplete)


def complete_play(ctx: Any, incomplete: str) -> list[tuple[str, str]]:
    """The taps and moves ``play FILE`` accepts now, after the words already typed on the line."""
    try:
        return _play_choices(ctx, incomplete)
    except Exception:  # noqa: BLE001 - completing must never break the shell; nothing to offer then
        return []


def _play_choices(ctx: Any, incomplete: str) -> list[tuple[str, str]]:
    from ..engine.taps import TapSession
    from ..storage.save import load_game
    from .render import playable_cards

    file = ctx.params.get("file")
    if not file:
        return []
    session: TapSession = load_game(file).session
    for word in ctx.params.get("taps") or ():
        session.play(word)  # the words already on the line, as play will apply them (refusals change nothing)
    game = session.game
    if game.is_over:
        return []
    choices: list[tuple[str, str]] = []
    selected = session.selected
    for card in playable_cards(game.position):
        if card == selected:
            choices.append((str(card), "selected: tap again to unselect"))
        elif selected is not None and selected.rank + card.rank == 13:
            choices.append((str(card), f"pairs with {selected}"))
        else:
            choices.append((str(card), "king: removed at once" if card.is_king else "free card"))
    moves = [str(move) for move in game.legal_moves]
    choices += [(move, "pair") for move in moves if "+" in move]
    if "draw" in moves or "recycle" in moves:
        choices.append(("stock", "draw" if "draw" in moves else "recycle the waste"))
    choices += [(move, "") for move in moves if move in ("draw", "recycle", "undo")]
    choices.append(("resign", "give this game up"))
    return _matching(choices, incomplete)
