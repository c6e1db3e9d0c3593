"""``gametape``: the typer application. Commands live in ``gametape.cli.commands``."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Annotated

import typer

from gametape.cli.commands import analytics, play, review, serve, store
from gametape.cli.common import STATE, StoreOpt
from gametape.cli.output import err, friendly_errors, out
from gametape.errors import UsageError
from gametape.usecases.store import is_url

app = typer.Typer(
    name="gametape",
    help="Record card games as append-only event logs; replay, validate and query them.\n\n"
    "`gametape games` lists the installed games. The store is a directory of logs (or a "
    "postgresql:// URL, docs/stores.md): --store, else $GAMETAPE_STORE, else "
    "~/.local/share/gametape.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
for group in (play.app, review.app, store.app, analytics.app, serve.app):
    app.registered_commands += group.registered_commands
app.add_typer(store.stores)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"gametape {version('gametape')}")
        raise typer.Exit()


@app.callback()
@friendly_errors
def _main(
    store: StoreOpt = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    if store is not None and not store.strip():
        raise UsageError("--store is empty: name a directory (or leave the option out)")
    STATE.store_path = store if store is None or is_url(store) else Path(store)


def _register_only_the_command_run(argv: list[str]) -> None:
    """Keep only the command named in ``argv``: typer then builds that one command, not every
    command's parameters from its signature (about 50 ms of each start-up). With no command
    named (``--help``, ``--version``, a mistyped name) every command stays."""
    words = iter(argv)
    for word in words:
        if word == "--store":
            next(words, None)
        elif not word.startswith("-"):
            break
    else:
        return
    chosen = [
        c
        for c in app.registered_commands
        if (c.name or getattr(c.callback, "__name__", "").replace("_", "-")) == word
    ]
    if chosen:
        app.registered_commands = chosen


def main() -> None:
    """Console-script entry point."""
    import sys

    _register_only_the_command_run(sys.argv[1:])
    # When the reader goes away (`gametape validate --json | head -1`), stop quietly as other
    # Unix tools do: SIGPIPE ends the process (status 141 in a shell). Every recorded move is
    # on disk before anything about it is printed, so nothing is lost.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
