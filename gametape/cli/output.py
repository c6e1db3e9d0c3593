"""Terminal output shared by every command: consoles, JSON, errors and exit codes.

User and log text (names, moves, messages) is always printed as text, never as rich markup.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar

import msgspec
import typer
from rich.console import Console
from rich.text import Text

from gametape.errors import EXIT_INVALID, EXIT_USAGE, GametapeError

__all__ = [
    "EXIT_INVALID",
    "EXIT_USAGE",
    "err",
    "fail",
    "friendly_errors",
    "out",
    "render",
]

# soft_wrap: long lines are never broken by us (a pipe or a grep gets each line whole);
# tables and boards still fit the width.
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

F = TypeVar("F", bound=Callable[..., Any])


def render(renderable: Any) -> None:
    """Print a board or a table: laid out (and wrapped) to the width, unlike plain lines."""
    out.print(renderable, soft_wrap=False)


def fail(message: str, code: int = EXIT_INVALID, hint: str | None = None) -> NoReturn:
    """Print a one-line error (and an optional hint), as text, and exit with ``code``."""
    err.print(Text.assemble(("error:", "bold red"), " ", message))
    if hint:
        err.print(Text(hint, style="dim"))
    raise typer.Exit(code)


def friendly_errors(func: F) -> F:
    """Turn a GametapeError into one clear line and its exit code; anything else is a bug
    and keeps its traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GametapeError as exc:
            fail(str(exc), exc.exit_code, hint=exc.hint)

    return wrapper  # type: ignore[return-value]


def print_json(obj: Any) -> None:
    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def print_json_lines(items: Iterable[Any]) -> None:
    enc = msgspec.json.Encoder()
    for item in items:
        sys.stdout.write(enc.encode(item).decode() + "\n")
