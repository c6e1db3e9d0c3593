"""Terminal output shared by every command: consoles, JSON, errors and exit codes."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar

import duckdb
import msgspec
import typer
from rich.console import Console

from gametape.engine.game import IllegalEvent
from gametape.engine.ruleset import NotationError, RuleViolation
from gametape.events.errors import LogError
from gametape.replay import OutOfRange

EXIT_INVALID = 1  # the data is invalid: validation failed, an illegal move was refused
EXIT_USAGE = 2  # the command was used wrongly: unknown game, bad option

# soft_wrap: long lines are never broken by us (a pipe or a grep gets each line whole);
# tables and boards still fit the width.
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = EXIT_INVALID, hint: str | None = None) -> NoReturn:
    """Print a one-line error (and an optional hint) and exit with ``code``."""
    err.print(f"[bold red]error:[/] {message}", markup=True, highlight=False)
    if hint:
        err.print(f"[dim]{hint}[/]")
    raise typer.Exit(code)


def friendly_errors(func: F) -> F:
    """Turn the errors a user can cause into one clear line and an exit code; no traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RuleViolation as exc:
            fail(f"illegal move: {exc.message}", hint=f"rule: {exc.rule}; nothing was recorded")
        except IllegalEvent as exc:
            fail(f"the log is invalid at seq {exc.seq}: {exc.violation}")
        except NotationError as exc:
            fail(str(exc), EXIT_INVALID, hint="nothing was recorded; see `gametape move --help`")
        except LogError as exc:
            fail(str(exc))
        except KeyError as exc:
            fail(str(exc.args[0]) if exc.args else str(exc), EXIT_USAGE)
        except OutOfRange as exc:
            fail(str(exc), EXIT_USAGE)
        except ValueError as exc:
            fail(str(exc), EXIT_USAGE)
        except OSError as exc:
            fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
        except duckdb.Error as exc:  # the read model: a full disk, a damaged file
            fail(str(exc).splitlines()[0],
                 hint="the read model can be rebuilt any time: gametape index --rebuild")

    return wrapper  # type: ignore[return-value]


def print_json(obj: Any) -> None:
    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def print_json_lines(items: Iterable[Any]) -> None:
    enc = msgspec.json.Encoder()
    for item in items:
        sys.stdout.write(enc.encode(item).decode() + "\n")
