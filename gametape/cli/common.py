"""What the commands share: the store option, reading a game, progress bars, reports."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from gametape.cli.output import EXIT_USAGE, err, fail, out, render
from gametape.errors import UsageError
from gametape.text import plural
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


def result_line(players: Sequence[str], result: Any) -> str:
    """How a game ended, in words: ``normal, 19 points`` for a team, ``win: ben 13, ann 6``
    (highest first) when each seat has its own score."""
    scores = result.scores
    if len(set(scores)) == 1 and not result.winners:
        return f"{result.outcome}, {plural(scores[0], 'point') if scores else 'no score'}"
    ranked = sorted(zip(players, scores, strict=False), key=lambda p: -p[1])
    return f"{result.outcome}: " + ", ".join(f"{name} {score}" for name, score in ranked)


def status_line(game: Game) -> None:
    if game.is_over:
        res = game.result()
        assert res is not None
        out.print(Text.assemble(("game over", "bold"), f": {result_line(game.players, res)}"))
    else:
        names = ", ".join(game.players[s] for s in game.to_act())
        rules = game.ruleset
        out.print(Text(f"{rules.turn_word} {game.turn}: {names} to act"))


def print_reports(reports: list[Report], listing: bool = False) -> None:
    """Validation reports as a table; ``listing`` (``gametape list``) adds when each game
    was last played and who played it."""
    colours = {"finished": "green", "in_progress": "yellow", "invalid": "red"}
    from rich.table import Table

    table = Table(box=None)
    columns = ("game", "ruleset", "last played", "players") if listing else ("game", "ruleset")
    for col in (*columns, "status", "events", "result"):
        table.add_column(col)
    for r in reports:
        if r.result:
            scores = r.result.scores
            shown = str(scores[0]) if len(set(scores)) == 1 else "/".join(map(str, scores))
            result = f"{r.result.outcome} {shown}"
            if r.winners:
                result += f" · {', '.join(r.winners)} won"
        elif r.problem:
            result = str(r.problem)
        else:
            result = f"{browse.turn_word(r.ruleset)} {r.turn}"
        cells = [Text(r.game or Path(r.file).stem), Text(r.ruleset or "?")]
        if listing:
            when = f"{r.last[:10]} {r.last[11:16]}" if r.last else ""
            cells += [Text(when), Text(", ".join(r.players))]
        table.add_row(
            *cells,
            Text(r.status.replace("_", " "), style=colours[r.status]),
            str(r.events),
            Text(result),
        )
    if len(reports) <= 200:
        render(table)
    else:
        for r in reports:
            if r.problem:
                out.print(Text.assemble(("invalid", "red"), " ", str(r.problem)))
    counts = Counter(r.status for r in reports)
    out.print(
        f"{len(reports)} games: {counts['finished']} finished, "
        f"{counts['in_progress']} in progress, {counts['invalid']} invalid"
    )
