"""Terminal output shared by every command: consoles, JSON, errors and exit codes.

User and log text (names, moves, messages) is always printed as text, never as rich markup:
the consoles read no markup at all, and every control character in printed text (an ESC
from a forged log, say) is shown as a visible symbol instead of reaching the terminal.
"""

from __future__ import annotations

import errno
import functools
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.segment import Segment
from rich.text import Text

from gametape.cli.quick import label, print_json, print_json_lines
from gametape.errors import EXIT_INVALID, EXIT_USAGE, GametapeError, os_error
from gametape.messages import Message, say, text_of
from gametape.text import visible

__all__ = [
    "EXIT_INVALID",
    "EXIT_USAGE",
    "err",
    "fail",
    "friendly_errors",
    "out",
    "print_json",
    "print_json_lines",
    "render",
]


class SafeConsole(Console):
    """A console that never reads markup and never lets a control character through: text
    segments (never rich's own control segments) have theirs made visible just before they
    are written, so no renderer, table or board can forget it."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(markup=False, emoji=False, highlight=False, **kwargs)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(visible(segment.text), segment.style)
            for segment in buffer
        )


# soft_wrap: long lines are never broken by us (a pipe or a grep gets each line whole);
# tables and boards still fit the width.
out = SafeConsole(soft_wrap=True)
err = SafeConsole(stderr=True, soft_wrap=True)

F = TypeVar("F", bound=Callable[..., Any])


def render(renderable: Any) -> None:
    """Print a board or a table: laid out (and wrapped) to the width, unlike plain lines."""
    out.print(renderable, soft_wrap=False)


def fail(
    message: str | Message, code: int = EXIT_INVALID, hint: str | Message | None = None
) -> NoReturn:
    """Print a one-line error (and an optional hint), as text in the reader's language, and
    exit with ``code``."""
    err.print(Text.assemble((label("error"), "bold red"), " ", text_of(message)))
    if hint:
        err.print(Text(text_of(hint), style="dim"))
    raise typer.Exit(code)


DEBUG = {"on": False}  # `gametape --debug`: a game's fault keeps its whole traceback


def friendly_errors(func: F) -> F:
    """Turn a GametapeError into one clear line and its exit code; so too an error of the
    machine (a read-only store, a full disk, a name too long: ``errors.os_error``), and an
    exception raised in a game's own code (``plugins.fault``: the game's, named, exit 1).
    Anything else is a bug of gametape's and keeps its traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GametapeError as exc:
            fail(str(exc), exc.exit_code, hint=exc.hint)
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise
            error = os_error(exc)
            fail(str(error), error.exit_code, hint=error.hint)
        except Exception as exc:
            from gametape.plugins import fault

            said = fault(exc)
            if said is None or DEBUG["on"]:
                raise
            where = say("cli.debug-hint", "`gametape --debug ...` shows where, in full")
            fail(said, EXIT_INVALID, hint=where)

    return wrapper  # type: ignore[return-value]
