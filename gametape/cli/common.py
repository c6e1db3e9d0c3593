"""What the commands share: the store option, reading a game, progress bars, reports."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from gametape import messages, results
from gametape.cli import quick
from gametape.cli.drawing import text_of
from gametape.cli.output import EXIT_USAGE, err, fail, out, render
from gametape.errors import UsageError
from gametape.messages import count_of, say
from gametape.usecases import browse, record
from gametape.usecases.store import Game, GameStore, LogRead, Report, default_store, open_store

if TYPE_CHECKING:
    from rich.progress import Progress

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        envvar="GAMETAPE_STORE",
        help="Directory of game logs, or a postgresql:// URL (docs/stores.md).",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
GameArg = Annotated[
    str,
    typer.Argument(metavar="GAME", help="Game id (or a unique prefix), or a path to a .jsonl log."),
]


class Ctx:
    store_path: Path | str | None = None
    _opened: tuple[Path | str, GameStore] | None = None

    @property
    def store(self) -> GameStore:
        """The store (one per command: a PostgreSQL store keeps its connection); commands
        that create games may create its directory or tables."""
        spec = self.store_path or default_store()
        if self._opened is None or self._opened[0] != spec:
            self._opened = (spec, open_store(spec))
        return self._opened[1]

    @property
    def existing_store(self) -> GameStore:
        """The store, which must exist (exit 2 naming the path if it does not)."""
        return self.store.require()


STATE = Ctx()


def read(ref: str) -> LogRead:
    """Read the log of a game named by id, prefix or path."""
    return browse.read(STATE.store, ref)


game_of = browse.game_of


def seat_of(game: Game, name: str | None) -> int | None:
    """The seat to show a game as: the one an option (``--as``) names, if any (an unknown
    player is a usage error), or the seat whose hypothesis a branch is."""
    return record.viewing_seat(game, name)


def parse_options(items: list[str]) -> dict[str, str]:
    """``key=value`` options (gametape.usecases.record.parse_options), a usage error else."""
    try:
        return record.parse_options(items)
    except UsageError as exc:
        fail(exc.message, EXIT_USAGE)


def progress() -> Progress:
    """A progress bar on standard error (rich.progress is imported only when one is made)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,  # nothing at all, not even a blank line, in a pipe
    )


result_line = results.result_line


def status_line(game: Game) -> None:
    """The line under a move: the end of the game, or whose turn it is."""
    out.print(Text.assemble(*quick.status(game)))


def print_reports(reports: list[Report], listing: bool = False) -> None:
    """Validation reports as a table (gametape.cli.quick.reports_table); ``listing``
    (``gametape list``) adds when each game was last played and who played it. More than
    200: only the invalid ones, a line each."""
    if len(reports) <= 200:
        table = quick.reports_table(reports, listing)
        lines = quick.lines_of_table(table, out.is_terminal)
        if lines is not None:
            out.file.write(text_of(lines, out.is_terminal and out.color_system is not None))
        else:
            render(_rich_table(table))
    else:
        for r in reports:
            if r.problem:
                out.print(Text.assemble((quick.status_word("invalid"), "red"), " ", str(r.problem)))
    if not listing:  # a valid log's notices: claims made void or in dispute
        for r in (r for r in reports if r.notices):
            said = say("cli.notices", "{notices} on {game}, a valid log:", game=r.game or "",
                       notices=count_of(len(r.notices), "notice"))  # fmt: skip
            out.print(Text(messages.render(said), style="yellow"))
            for notice in r.notices:
                out.print(Text(f"  {notice}"))
    out.print(quick.counts_line(reports))


def _rich_table(table: quick.Table) -> Any:
    from rich.table import Table

    drawn = Table(box=None)
    for column in table.header:
        drawn.add_column(column)
    for row in table.rows:
        drawn.add_row(*(Text.assemble(*cell) for cell in row))
    return drawn
