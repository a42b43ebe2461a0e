"""The Typer application and its group class: usage errors as one line (or JSON with ``--json``).

Only public interfaces of Typer and Click are used: ``typer.Typer(cls=...)`` with a subclass of
``typer.core.TyperGroup`` overriding Click's documented ``main`` and ``format_commands``, and Typer's
``registered_commands`` to build only the command that runs (:func:`narrowed`).  Command modules
register themselves with ``@app.command()``; ``cli/__init__.py`` imports only the one a command needs
(:data:`COMMANDS`), and none for ``pyramide --help``, which lists the commands by their summaries
(:data:`SUMMARIES`).  Keep heavy imports (solver, rich, …) inside command functions so that every
command stays fast (``bench/bench_cli.py`` measures each one against ``import typer, yaml``).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Optional

import typer
from typer.core import TyperCommand, TyperGroup

from .. import __version__
from ..engine.text import text
from .common import emit_json, error_document, say_error
from .exit_codes import ExitStatus, exit_status_table

COMMANDS: dict[str, str] = {
    "serve": "bot_commands",
    "tournament": "bot_commands",
    "calibrate": "calibrate_commands",
    "deal": "deal_commands",
    "show": "deal_commands",
    "grade": "grade_commands",
    "play": "play_commands",
    "replay": "replay_commands",
    "solve": "solve_commands",
    "hint": "solve_commands",
    "survey": "survey_commands",
    "stats": "stats_commands",
}
"""Command name → the module of ``pyramide_cli.cli`` that registers it (modules load in this order, and
``--help`` and completion list their commands in that order)."""

SUMMARIES: dict[str, str] = {
    "serve": "Serve games to a bot: JSON lines on stdin and stdout.",
    "tournament": "Let a bot (built in or external) play many deals; win rate and more.",
    "deal": "Deal a new game into a save file; print its code and board.",
    "show": "Show the board of a save file, a layout file or a deal code.",
    "grade": "Grade a deal: can it be won, how often does a player without a plan win it, and its level.",
    "play": "Play taps and moves: arguments, stdin or an interactive prompt.",
    "replay": "Replay a save from its deal code; check score, moves and status.",
    "solve": "Prove a deal or save winnable (with a line) or unwinnable.",
    "hint": "Suggest the next action for a save file (never changes it).",
    "survey": "Solve a range of deals (here or on a cluster), keep them in a store, report.",
    "stats": "Your statistics: played, won, streaks, best times, last games.",
}
"""The line each command shows in ``pyramide --help`` (its ``short_help``: a command registers
``short_help=SUMMARIES[name]``).  Hidden commands have none.  Root help lists them from here
without importing a single command module."""


def is_no_args_help(error: typer.TyperException) -> bool:
    """A bare ``pyramide`` (or ``pyramide play``): Click raises a usage error whose message is the
    command's help, which is shown as Click shows it."""
    context = getattr(error, "ctx", None)
    return context is not None and error.format_message() == context.get_help()


def usage_message(error: Any, arguments: Sequence[str] = ()) -> str:
    """Click's message for a usage error, with where to read more: ``No such option: --bogus (see
    `pyramide play --help`)`` — one line instead of Click's Usage/Try/Error block."""
    message = error.format_message().rstrip().rstrip(".")
    arguments = after_root_options(arguments)
    context = getattr(error, "ctx", None)
    if context is not None:
        where = context.command_path
    elif arguments and arguments[0] in {command_name(info) for info in app.registered_commands}:
        where = f"pyramide {arguments[0]}"
    else:
        where = "pyramide"
    return f"{message} (see `{where} --help`)"


class PyramideGroup(TyperGroup):
    """Click's own usage errors keep exit status 2 and come as the one ``pyramide: …`` line every error
    gets (or, with ``--json``, as one JSON document); asking for nothing still shows the help."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        arguments = hoisted_language(list(sys.argv[1:] if args is None else args), self.commands)
        try:
            status = super().main(arguments, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.TyperException as error:  # Click's errors: Typer's public base class of them (0.28+)
            status = error.exit_code
            kind = ExitStatus(status) if status in iter(ExitStatus) else ExitStatus.USAGE
            if self.asks_for_json(arguments):
                emit_json(error_document(usage_message(error, arguments), kind))
            elif is_no_args_help(error):
                typer.echo(error.format_message(), err=True)
            else:
                say_error(usage_message(error, arguments))
        except typer.Abort:  # Ctrl-C or end of input at one of Click's own prompts
            say_error(text("interrupted"))
            status = ExitStatus.INTERRUPTED
        status = status if isinstance(status, int) else 0
        if standalone_mode:
            sys.exit(status)
        return status

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The "Commands" section of the help.  ``pyramide --help`` loads no command module, so a command
        not built here is listed by its summary: a bare command with the same ``short_help`` as the
        real one, which Typer formats the same way (tests/test_cli_app.py compares both helps)."""
        if all(name in self.commands for name in SUMMARIES):
            return super().format_commands(ctx, formatter)
        listed = copy.copy(self)
        listed.commands = {
            name: self.commands.get(name) or TyperCommand(name=name, short_help=SUMMARIES[name])
            for name in dict.fromkeys([*COMMANDS, *self.commands]) if name in self.commands or name in SUMMARIES}
        return TyperGroup.format_commands(listed, ctx, formatter)

    def asks_for_json(self, arguments: Sequence[str]) -> bool:
        """Whether ``--json`` is among the arguments as the flag, not as the value of an option
        (``replay g.yaml --expect-score --json`` is a usage error in text)."""
        arguments = after_root_options(arguments)
        command = self.commands.get(arguments[0]) if arguments else None
        if command is None:
            return "--json" in arguments
        takes_value = _takes_value(command)
        value_next = False
        for argument in arguments[1:]:
            if value_next:
                value_next = False
            elif argument == "--":
                return False
            elif argument == "--json":
                return True
            else:
                value_next = argument in takes_value
        return False


def _takes_value(command: Any) -> set[str]:
    """The option names of ``command`` that take a value (``--db FILE``): the word after them is no option."""
    return {name for param in getattr(command, "params", ()) if getattr(param, "is_flag", True) is False
            and not getattr(param, "count", False) for name in getattr(param, "opts", ())}


def after_root_options(arguments: Sequence[str]) -> list[str]:
    """The arguments from the command name on: a leading ``--lang LANG`` (or ``--lang=LANG``), the
    root option every command takes, is passed over to find which command runs."""
    rest = list(arguments)
    while rest and (rest[0] == "--lang" or rest[0].startswith("--lang=")):
        rest = rest[2:] if rest[0] == "--lang" else rest[1:]
    return rest


def hoisted_language(arguments: list[str], commands: Mapping[str, Any]) -> list[str]:
    """``--lang LANG`` given after the command (``pyramide play g.yaml 7C --lang he``) moved before it,
    where Click reads the root option; words after ``--`` and values of the command's options
    (``--db --lang``) are left alone.  The last ``--lang`` wins, as for any option."""
    if not arguments or arguments[0] not in commands:
        return arguments
    takes_value = _takes_value(commands[arguments[0]])
    kept, moved, index = [arguments[0]], [], 1
    while index < len(arguments):
        argument = arguments[index]
        if argument == "--":
            kept += arguments[index:]
            break
        if argument == "--lang" and index + 1 < len(arguments):
            moved += arguments[index:index + 2]
            index += 2
            continue
        if argument.startswith("--lang="):
            moved.append(argument)
        else:
            kept.append(argument)
            if argument in takes_value and index + 1 < len(arguments):
                kept.append(arguments[index + 1])
                index += 1
        index += 1
    return moved + kept


HELP = """Pyramid solitaire for the terminal, for scripts and for bots.

Every game lives in a YAML save file holding its deal code and its move history, so every game
is reproducible: deal one, look at it, play it a tap at a time, replay it in CI.

\b
Examples:
  pyramide deal -o g.yaml            a new random deal, saved to g.yaml
  pyramide play g.yaml KD 10C 3S     tap K♦ (removed), then 10♣ and 3♠ (a pair)
  pyramide play g.yaml               an interactive game (or moves from stdin)
  pyramide show g.yaml --json        the position as one JSON document
  pyramide replay g.yaml --expect won --expect-score 280

\b
Moves: 10C+3S (a pair), KD (a king), draw, recycle, undo.
Taps: a card (7C, 10♣, T♣, French RD), stock, waste.

\b
Languages: --lang en|fr|he|sv (before or after the command), else LANGUAGE, LC_ALL,
LC_MESSAGES or LANG, else English.  Messages, boards and reports change; --help texts,
--json output, save files, deal codes and the move notation stay the same (docs/i18n.md).

\b
Exit statuses (every command):
""" + "\n".join("  " + line for line in exit_status_table().splitlines())

app = typer.Typer(
    name="pyramide",
    cls=PyramideGroup,
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode=None,
    pretty_exceptions_show_locals=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def command_name(info: Any) -> str:
    """The name Typer gives a registered command (its ``name=``, else the function's, dashed)."""
    return info.name or info.callback.__name__.lower().replace("_", "-")


def narrowed(application: typer.Typer, arguments: Sequence[str]) -> typer.Typer:
    """The app with only the command about to run, when the first argument names one.

    Typer builds the parameters of every registered command before running any; building only
    the one that runs keeps ``pyramide play g.yaml draw`` quick.  Help,
    ``--version`` and unknown names (with their "did you mean" hint) get the whole app.
    """
    if not arguments or arguments[0].startswith("-"):
        return application
    wanted = [info for info in application.registered_commands if command_name(info) == arguments[0]]
    if not wanted:
        return application
    single = copy.copy(application)
    single.registered_commands = wanted
    return single


def _complete_language(incomplete: str) -> list[str]:
    """The languages ``--lang`` takes, for shell completion."""
    from ..i18n import LANGUAGES

    return [name for name in LANGUAGES if name.startswith(incomplete.lower())]


def _language(value: str | None) -> str | None:
    """Choose the language before any command runs: ``--lang``, else the environment, else English."""
    from ..i18n import LanguageError, choose_language, set_language

    try:
        set_language(choose_language(value))
    except LanguageError as error:
        raise typer.BadParameter(str(error)) from None
    return value


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"pyramide {__version__}\n")
        raise typer.Exit()


@app.callback(help=HELP)
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
    lang: Optional[str] = typer.Option(
        None, "--lang", metavar="LANG", callback=_language, is_eager=True, show_default=False,
        autocompletion=_complete_language,
        help="The language of messages and boards: en, fr, he or sv (default: LANGUAGE, LC_ALL, LC_MESSAGES or "
             "LANG, else en).  Also accepted after the command."),
) -> None:
    """Pyramid solitaire for the terminal, for scripts and for bots."""
