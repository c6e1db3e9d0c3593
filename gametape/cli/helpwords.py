"""typer's words in the reader's language: every command's help (its docstring and each
option's ``help``), what typer says around them (its panels' titles, ``Usage:``,
``[default: …]``) and what it says when a command line is wrong (a missing argument, an
option it does not know).

The help texts stay English in the code, where typer reads them. The click command typer
builds from them is given the reader's words before it runs (``run``, ``localised``): each
text is looked up by its English in the context ``cli.help`` (``catalogued`` lists them, and
typer's own words, for the catalogue). The click bundled in typer writes its usage errors as
English f-strings, so those are said again here, by their kind, as messages
(``usage_message``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NoReturn

from gametape.messages import Message, current, many, say

HELP = "cli.help"  # the context of a command's or a parameter's help text
TYPER = "cli.typer"  # the context of typer's own words
# typer.rich_utils' words, by the name it keeps each under (read when it writes a help page
# or an error); typer's own gettext calls at run time are looked up in TYPER too.
RICH_WORDS = {
    "DEPRECATED_STRING": "(deprecated) ",
    "DEFAULT_STRING": "[default: {}]",
    "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "ERRORS_PANEL_TITLE": "Error",
    "ABORTED_TEXT": "Aborted.",
    "RICH_HELP": "Try '{command_path} {help_option}' for help.",
}
# what typer.core says through gettext (a test holds this to what Babel finds in typer)
CORE_WORDS = (
    "(dynamic)", "Aborted!", "default: {default}", "required", "env var: {var}", "Arguments",
    "Options", "Commands", "Missing command.", "No such command {name!r}.",
)  # fmt: skip
USAGE = "Usage: "  # click's prefix of a usage line


def catalogued(app: Any) -> Iterator[tuple[str, str]]:
    """Every text of ``app``'s help and of typer's, as the catalogue holds it: (context,
    English text)."""
    for text in dict.fromkeys(_help_texts(_tree(app))):
        yield HELP, text
    for text in dict.fromkeys((*RICH_WORDS.values(), *CORE_WORDS, USAGE)):
        yield TYPER, text


def run(app: Any) -> NoReturn:
    """Run ``app`` as typer would, its help and what it refuses in the language chosen now.
    typer's rich printer (160 ms to import) is loaded only when help or an error is shown."""
    from typer._click.exceptions import Abort, ClickException

    command = localised(app)
    try:
        code = command.main(prog_name="gametape", standalone_mode=False)
    except ClickException as error:
        said = usage_message(error)
        if said is not None:
            error = _usage_error(str(said), error)
        _rich().rich_format_error(error)
        raise SystemExit(error.exit_code) from None
    except Abort:
        _rich().rich_abort_error()
        raise SystemExit(1) from None
    raise SystemExit(code if isinstance(code, int) else 0)


def localised(app: Any) -> Any:
    """``app``'s click command, its help texts and typer's words in the language chosen now."""
    import typer.core

    typer.core._ = _typer_word
    command = _tree(app)
    context = _context_class(command.context_class, _typer_word(USAGE))
    for each in _commands(command):
        _localise(each, context)
    return command


def _typer_word(message: str) -> str:
    return current().text(TYPER, message)


def _rich() -> Any:
    """typer.rich_utils, its words (panel titles, ``[default: …]``) in the reader's language."""
    import typer.rich_utils

    for name, text in RICH_WORDS.items():
        setattr(typer.rich_utils, name, _typer_word(text))
    return typer.rich_utils


def _usage_error(said: str, error: Any) -> Any:
    from typer._click.exceptions import UsageError

    return UsageError(said, getattr(error, "ctx", None))


def _tree(app: Any) -> Any:
    import typer.main

    return typer.main.get_command(app)


def _commands(command: Any) -> Iterator[Any]:
    yield command
    for sub in getattr(command, "commands", {}).values():
        yield from _commands(sub)


def _help_texts(command: Any) -> Iterator[str]:
    from typer._click import Context

    for each in _commands(command):
        help_option = each.get_help_option(Context(each))
        for text in (each.help, *(p.help for p in each.params), help_option.help):
            if text:
                yield text


def _localise(command: Any, context: type) -> None:
    words = current()
    if command.help:
        command.help = words.text(HELP, command.help)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = words.text(HELP, param.help)
    command.context_class = context
    said = command.get_help_option

    def help_option(ctx: Any) -> Any:
        option = said(ctx)
        if option is not None and not getattr(option, "localised", False):
            option.help, option.localised = words.text(HELP, option.help), True
        return option

    command.get_help_option = help_option
    help_of = command.format_help

    def format_help(ctx: Any, formatter: Any) -> None:
        _rich()  # its words said before it writes the page
        help_of(ctx, formatter)

    command.format_help = format_help
    if hasattr(command, "commands"):
        _suggest(command)


def _suggest(group: Any) -> None:
    """``group`` says a command it lacks, and the names it has that are close, in the
    reader's words (typer adds its suggestion in English)."""
    from difflib import get_close_matches

    from typer._click.exceptions import UsageError

    group.suggest_commands = False
    resolve = group.resolve_command

    def resolve_command(ctx: Any, args: list[str]) -> Any:
        try:
            return resolve(ctx, args)
        except UsageError:
            if not args or args[0].startswith("-") or group.get_command(ctx, args[0]):
                raise
        unknown = say("cli.usage-no-such-command", "No such command: {name}", name=args[0])
        close = get_close_matches(args[0], list(group.commands))
        raise UsageError(str(_or_perhaps(unknown, close)), ctx)

    group.resolve_command = resolve_command


def _context_class(base: type, usage: str) -> type:
    """A click context whose usage lines begin with ``usage`` (click's ``Usage: ``)."""

    class Formatter(base.formatter_class):  # type: ignore[name-defined, misc]
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, usage if prefix is None else prefix)

    return type("Context", (base,), {"formatter_class": Formatter})


def usage_message(error: Any) -> Message | None:
    """What a usage error of typer's click says, as a message (None: typer's own words,
    already in the reader's language)."""
    from typer._click import exceptions, types

    if isinstance(error, exceptions.MissingParameter) and error.param is not None:
        name = _name(error.param)
        if error.param.param_type_name == "option":
            return say("cli.usage-missing-option", "Missing option {name}.", name=name)
        return say("cli.usage-missing-argument", "Missing argument {name}.", name=name)
    if isinstance(error, exceptions.NoSuchOption):
        option = error.option_name
        unknown = say("cli.usage-no-such-option", "No such option: {option}", option=option)
        return _or_perhaps(unknown, sorted(error.possibilities or ()))
    if isinstance(error, exceptions.BadParameter) and error.param is not None:
        name, kind = _name(error.param), error.param.type
        low, high = getattr(kind, "min", None), getattr(kind, "max", None)
        whole = isinstance(kind, types.IntParamType)
        if low is not None and high is None:  # what gametape's ranges are: --games 1 and up
            if whole:
                return say("cli.usage-whole-number-from", "{name} takes a whole number, "
                           "{low} or more.", name=name, low=low)  # fmt: skip
            return say("cli.usage-number-from", "{name} takes a number, {low} or more.",
                       name=name, low=low)  # fmt: skip
        if low is None and high is None and whole:
            return say("cli.usage-whole-number", "{name} takes a whole number.", name=name)
        if low is None and high is None and isinstance(kind, types.FloatParamType):
            return say("cli.usage-number", "{name} takes a number.", name=name)
        why = error.message
        return say("cli.usage-invalid", "Invalid value for {name}: {why}", name=name, why=why)
    if isinstance(error, exceptions.BadOptionUsage):  # click knows no more than the option
        option = error.option_name
        return say("cli.usage-option-value", "{option} is written wrong: an option that takes "
                   "a value needs one after it, and a flag takes none.", option=option)  # fmt: skip
    command = getattr(error.ctx, "command", None)  # a group's errors are typer's words
    if type(error) is exceptions.UsageError and command and not hasattr(command, "commands"):
        return say("cli.usage-extra", "Got an extra argument: the command takes fewer.")
    return None


def _or_perhaps(unknown: Message, close: list[str]) -> Message:
    """``unknown`` (no such option, or command), and the names close to it, if any."""
    if not close:
        return unknown
    return say("cli.usage-did-you-mean", "{unknown} (did you mean {options}?)",
               unknown=unknown, options=many(close, "or"))  # fmt: skip


def _name(param: Any) -> str:
    """A parameter as a command line writes it: ``GAME``, ``--players``."""
    if param.param_type_name == "option":
        return str(max(param.opts, key=len))
    return str(param.human_readable_name)
