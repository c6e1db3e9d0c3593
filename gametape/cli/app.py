"""``gametape``: the typer application. Commands live in ``gametape.cli.commands``.

The top level names its commands without importing them (``COMMANDS``): a run imports the
one module that defines the command it runs, and ``gametape --help`` is printed from the table
below without importing typer, rich or any command. ``app`` (every command, for tests and
tools that drive the CLI in-process) is built the first time it is asked for.
"""

import gc
import signal
import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# Every command: the module of gametape.cli.commands that defines it, and its line of help
# (the first line of the command's docstring; a test keeps the two the same).
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("play", "Start a new game and print its id."),
    "move": ("play", "Record one move. An illegal move is refused with the rule it breaks; …"),
    "show": ("play", "Show a game's state, for everyone or as one player sees it."),
    "log": ("play", "The move list in notation, one line per event, like a score sheet."),
    "replay": ("play", "Step through a game, move by move, for everyone or from one player's …"),
    "record": ("play", "Record a whole game at the table, move after move, at one prompt."),
    "games": ("play", "The installed games: players, bots, how moves are written, options …"),
    "note": ("review", "Write a note on a move (and a mark: `!` good, `?` a mistake, as in …"),
    "branch": ("review", 'Make a "what if" game: a new game that starts from this one\'s state …'),
    "notes": ("review", "List a game's notes: number, seq, author, mark, card and text; a note …"),
    "validate": (
        "store",
        "Check logs: JSON, schema, seq, hash chain, and every move against the …",
    ),
    "list": ("store", "List the games in the store: when each was last played, who played, …"),
    "repair": ("store", "Move a torn last line (an interrupted write) aside into `<log>.torn`."),
    "simulate": ("store", "Write complete games played by bots (fsyncs batched), with a …"),
    "import": ("store", "Import games recorded by other tools, validating every move."),
    "demo": ("store", "Simulate a few games of each game in a demo store, show one, validate …"),
    "store": ("store", "The store itself: make a PostgreSQL store's tables, copy games …"),
    "index": ("analytics", "Refresh the DuckDB read model of the store (only new or changed …"),
    "query": ("analytics", "Run one read-only SQL statement (SELECT or EXPLAIN) on the read …"),
    "stats": ("analytics", "Ready-made reports: scores by player count, outcomes, game length, …"),
    "players": ("analytics", "Each person's record in every game they played: games, wins, …"),
    "export": ("analytics", "Export games (`GAME... --format FORMAT`) or the whole read model …"),
    "serve": ("serve", "Start the web recorder: every player records from their own phone, …"),
}
GROUPS = ("store",)  # commands that are typer groups of their own (`gametape store init`)
HELP = (
    "Record card games as append-only event logs; replay, validate and query them.\n\n"
    "`gametape games` lists the installed games. The store is a directory of logs (or a "
    "postgresql:// URL, docs/stores.md): --store, else $GAMETAPE_STORE, else "
    "~/.local/share/gametape."
)


def build(only: str | None = None) -> Any:
    """The typer application: every command, or only the command ``only`` (typer then builds
    that one command's parameters, not every command's)."""
    from importlib import import_module
    from pathlib import Path
    from typing import Annotated

    import typer

    from gametape.cli.common import STATE, StoreOpt
    from gametape.cli.output import DEBUG, friendly_errors, out
    from gametape.errors import UsageError
    from gametape.usecases.store import is_url

    app = typer.Typer(
        name="gametape",
        help=HELP,
        no_args_is_help=True,
        rich_markup_mode="markdown",
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )

    def _version(value: bool) -> None:
        if value:
            from importlib.metadata import version

            out.print(f"gametape {version('gametape')}")
            raise typer.Exit()

    @app.callback()
    @friendly_errors
    def _main(
        ctx: typer.Context,
        store: StoreOpt = None,
        version: Annotated[
            bool,
            typer.Option(
                "--version", callback=_version, is_eager=True, help="Print the version and exit."
            ),
        ] = False,
        debug: Annotated[
            bool,
            typer.Option(
                "--debug", help="Show the whole traceback of a fault in a game's own code."
            ),
        ] = False,
        lang: Annotated[
            str | None,
            typer.Option(
                "--lang",
                metavar="CODE",
                help="The language of what gametape says: en, fa or hu (default: the "
                "environment's: LANGUAGE, LC_ALL, LC_MESSAGES or LANG).",
            ),
        ] = None,
    ) -> None:
        DEBUG["on"] = debug
        if lang is not None:  # main() reads it before typer; this is for the app alone
            from gametape.i18n import choose, default, language

            try:
                chosen = language(lang)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            before = default()
            choose(chosen)
            ctx.call_on_close(lambda: choose(before))
        if store is not None and not store.strip():
            raise UsageError("--store is empty: name a directory (or leave the option out)")
        STATE.store_path = store if store is None or is_url(store) else Path(store)

    names = [only] if only is not None else list(COMMANDS)
    for module_name in dict.fromkeys(COMMANDS[n][0] for n in names):
        module = import_module(f"gametape.cli.commands.{module_name}")
        app.registered_commands += [
            c for c in module.app.registered_commands if only is None or _name(c) == only
        ]
        if module_name == "store" and (only is None or only in GROUPS):
            app.add_typer(module.stores)
    return app


def _name(command: Any) -> str:
    return command.name or command.callback.__name__.replace("_", "-")


def __getattr__(name: str) -> Any:
    if name == "app":  # every command, built once, on first use
        built = globals()["app"] = build()
        return built
    raise AttributeError(name)


def command_named(argv: list[str]) -> str | None:
    """The command ``argv`` runs (its first word that is not an option or --store's value),
    if it is one of COMMANDS."""
    words = iter(argv)
    for word in words:
        if word == "--store":
            next(words, None)
        elif not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def plain_help() -> str:
    """``gametape --help``, from the table above alone."""
    width = max(map(len, COMMANDS))
    lines = [
        "Usage: gametape [OPTIONS] COMMAND [ARGS]...",
        "",
        *HELP.replace("`", "").split("\n"),
        "",
        "Options:",
        "  --store TEXT  Directory of game logs, or a postgresql:// URL (docs/stores.md)",
        "                [env var: GAMETAPE_STORE].",
        "  --version     Print the version and exit.",
        "  --debug       Show the whole traceback of a fault in a game's own code.",
        "  --lang CODE   The language of what gametape says: en, fa or hu (default: the",
        "                environment's, LANGUAGE, LC_ALL, LC_MESSAGES or LANG).",
        "  -h, --help    Show this message and exit.",
        "",
        "Commands:",
        *(f"  {name:<{width}}  {help_}" for name, (_, help_) in COMMANDS.items()),
        "",
        "`gametape COMMAND --help` says more, with examples.",
    ]
    return "\n".join(lines) + "\n"


def _lean(work: Callable[[list[str]], T], argv: list[str]) -> T:
    """``work(argv)`` without typing_extensions. msgspec imports it wherever it is installed
    (a dependency of typer, rich and Starlette) only to read that module's own kinds of type,
    which no gametape type uses: 15 ms, half of msgspec's import. It is kept from msgspec
    while the language is chosen and ``gametape.cli.quick`` answers, and given back before
    typer runs."""
    hidden = "typing_extensions" not in sys.modules
    if hidden:
        sys.modules["typing_extensions"] = None  # type: ignore[assignment]
    try:
        return work(argv)
    finally:
        if hidden and sys.modules.get("typing_extensions", 0) is None:
            del sys.modules["typing_extensions"]


def _quick(argv: list[str]) -> int | None:
    """``gametape.cli.quick``'s answer to argv (None: typer runs it)."""
    from gametape.cli.quick import run

    return run(argv)


DIGITS = 30  # a number on the command line (a seq, a count, a seed) has at most these


def _number_in(arg: str) -> str | None:
    """The number ``arg`` is, or gives an option (``--at=12``), if it is one: ASCII digits."""
    value = arg.split("=", 1)[1] if arg.startswith("--") and "=" in arg else arg
    digits = value[1:] if value.startswith("-") else value
    return value if digits.isascii() and digits.isdigit() else None


GLOBAL = ("--store", "--debug")  # the options of gametape itself, not of a command


def hoisted(argv: list[str]) -> list[str]:
    """``argv`` with gametape's own options given after the command (``serve --store DIR``)
    put before it, where typer reads them; nothing after ``--`` is touched."""
    command = command_named(argv)
    if command is None:
        return argv
    at = argv.index(command)
    before, after, moved = argv[:at], [], []
    words = iter(argv[at:])
    for word in words:
        if word == "--":
            after += [word, *words]
        elif word == "--store":
            moved += [word, next(words, "")]
        elif word.startswith("--store=") or word == "--debug":
            moved.append(word)
        else:
            after.append(word)
    return [*before, *moved, *after]


def _language(argv: list[str]) -> list[str]:
    """``argv`` without gametape's ``--lang CODE`` (anywhere before ``--``), having chosen
    the language every message is rendered in: that one, else the environment's, as gettext
    reads it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English by default."""
    explicit, kept, words = None, [], iter(argv)
    for word in words:
        if word == "--":
            kept += [word, *words]
        elif word == "--lang":
            explicit = next(words, "")
        elif word.startswith("--lang="):
            explicit = word.split("=", 1)[1]
        else:
            kept.append(word)
    from gametape.i18n import choose, language

    try:
        lang = language(explicit)
    except ValueError as exc:
        sys.stderr.write(f"error: {exc}\n")
        raise SystemExit(2) from None
    if lang != "en":
        choose(lang)
    return kept


def _english() -> bool:
    from gametape.i18n import default

    return default() == "en"


def main() -> None:
    """Console-script entry point. A run is one short process, so Python's cycle collector is
    kept to where it pays: off while gametape starts and ``show``, ``move`` and ``list``
    answer (importing makes objects, not garbage; its passes were 5% of ``show``), on again
    before typer runs any other command, which may be long (``serve``, ``index``). At the end
    what is still alive is frozen, so the interpreter's last collection, which would walk it
    all to find nothing, skips it (12% of ``show``). ``python -m bench.startup_bench``."""
    gc.disable()
    try:
        _main()
    finally:
        gc.freeze()


def _main() -> None:
    argv = sys.argv[1:] = hoisted(_lean(_language, sys.argv[1:]))
    command = command_named(argv)
    if command is None and (not argv or argv in (["-h"], ["--help"])) and _english():
        sys.stdout.write(plain_help())
        return
    # When the reader goes away (`gametape validate --json | head -1`), stop quietly as other
    # Unix tools do: SIGPIPE ends the process (status 141 in a shell). Every recorded move is
    # on disk before anything about it is printed, so nothing is lost.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    number = next((n for n in map(_number_in, argv) if n and len(n.lstrip("-")) > DIGITS), None)
    if number is not None:  # Python's int() refuses past 4,300 digits, in a traceback
        digits = len(number.lstrip("-"))
        sys.stderr.write(
            f"error: {number[:12]}…{number[-4:]} ({digits:,} digits) is no seq, count or seed\n"
            f"a number on the command line has at most {DIGITS} digits\n"
        )
        raise SystemExit(2)
    if command in ("show", "move", "list"):  # their usual forms, without typer or rich
        code = _lean(_quick, argv)
        if code is not None:
            sys.stdout.flush()
            raise SystemExit(code)
    gc.enable()
    from gametape.cli.helpwords import run
    from gametape.cli.output import err

    application = build(command)  # no command named (--version, a typo): every command
    try:
        run(application)
    except KeyboardInterrupt:
        err.print("interrupted")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
