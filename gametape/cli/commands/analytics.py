"""The read model: index, query, stats, export."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from gametape import messages
from gametape.cli.common import STATE, JsonOpt, progress
from gametape.cli.output import (
    EXIT_USAGE,
    err,
    fail,
    friendly_errors,
    label,
    out,
    print_json,
    render,
)
from gametape.cli.quick import STATUS_COLOURS, no_games, status_word
from gametape.errors import MachineError, UsageError, unknown_format
from gametape.messages import Message, Term, count_of, many, say

app = typer.Typer()


def _model() -> Any:
    from gametape.usecases.analysis import ReadModel

    return ReadModel(STATE.existing_store)


def _speak(model: Any) -> None:
    """Say what the model had to do on its own (a damaged model set aside and rebuilt)."""
    for note in model.notes:
        err.print(Text.assemble((label("warning"), "yellow"), f" {note}"))
    model.notes.clear()


def _refresh(model: Any, jobs: int = 0, quiet: bool = False) -> Any:
    with progress() as bar:
        doing = messages.render(say("cli.progress-indexing", "indexing"))
        task = bar.add_task(doing, total=None, visible=not quiet)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, visible=not quiet and total > 20)

        return model.refresh(progress=advance, jobs=jobs)


def fresh_model() -> Any:
    """The read model, refreshed first if any log changed. In a store that cannot be
    written, a fresh model there is used as it is; otherwise one is kept in the user's cache."""
    model = _model()
    if model.stale():
        if not model.writable:
            model = model.elsewhere()
            if not model.writable:  # neither the store nor the cache can hold a model
                raise MachineError(
                    say("cli.model-nowhere", "the store is read-only, and so is the cache for "
                        "its read model, {path}", path=str(model.path.parent)),
                    hint=say("cli.model-nowhere-hint", "set XDG_CACHE_HOME to a directory you "
                             "can write (the read model is kept there), or use --store with a "
                             "directory you own"),
                )  # fmt: skip
            kept = say("cli.model-elsewhere", "the store is read-only; the read model is kept "
                       "in {path}", path=str(model.path))  # fmt: skip
            err.print(Text(messages.render(kept), style="dim"))
        if model.stale():
            _refresh(model, quiet=True)
    _speak(model)
    return model


@app.command()
@friendly_errors
def index(
    rebuild: Annotated[bool, typer.Option(help="Delete the read model and build it anew.")] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per CPU).")] = 0,
    json: JsonOpt = False,
) -> None:
    """Refresh the DuckDB read model of the store (only new or changed logs are read).

    The model is `gametape.duckdb` in the store; it can be deleted at any time.

    Example: `gametape index` · `gametape index --rebuild`
    """
    model = _model()
    if not model.writable:
        raise MachineError(
            say("cli.model-read-only", "the store {path} is read-only: its read model cannot "
                "be written", path=str(model.root)),
            hint=say("cli.model-read-only-hint", "`gametape query` and `gametape stats` still "
                     "work: they keep a read model in your cache directory"),
        )  # fmt: skip
    if rebuild:
        model.discard()
    summary = _refresh(model, jobs, quiet=json)
    _speak(model)
    if json:
        print_json(
            {
                "database": str(model.path),
                "added": len(summary.added),
                "updated": len(summary.updated),
                "removed": len(summary.removed),
                "unchanged": summary.unchanged,
                "invalid": summary.invalid,
                "events": summary.events,
            }
        )
        return
    indexed = say("cli.indexed", "indexed {added} new, {updated} changed, {removed} removed, "
                  "{unchanged} unchanged games ({events} events read, {invalid} invalid)",
                  added=len(summary.added), updated=len(summary.updated),
                  removed=len(summary.removed), unchanged=summary.unchanged,
                  events=summary.events, invalid=summary.invalid)  # fmt: skip
    out.print(Text(messages.render(indexed)))
    where = say("cli.model-at", "read model: {path}", path=str(model.path))
    err.print(Text(messages.render(where), style="dim"))


SPARK = 40  # games in a player's rating or score line
TABLE_ROWS = 1000  # a terminal table shows this many rows; the other formats stream them all


@app.command()
@friendly_errors
def query(
    sql: Annotated[
        str,
        typer.Argument(
            help="SQL over the tables games, game_players, events, ratings, players and each "
            "game's schema."
        ),
    ],
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="table, csv, json or markdown.")
    ] = "table",
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Stop the query after this many seconds.")
    ] = 60.0,
    memory_limit: Annotated[
        str, typer.Option("--memory-limit", help="Memory the query may use (DuckDB sizes: 2GB).")
    ] = "2GB",
) -> None:
    """Run one read-only SQL statement (SELECT or EXPLAIN) on the read model, refreshed
    first if any log changed.

    Tables and columns: docs/analytics.md. json prints one object per row (JSON Lines).
    csv, json and markdown stream every row; a table shows the first 1,000. A query is
    stopped past `--timeout` (default 60 s) or `--memory-limit` (default 2GB) and writes
    no file anywhere.

    Example: `gametape query "SELECT player_count, avg(score) FROM games GROUP BY ALL"`
    """
    from gametape.cli.tables import FORMATS, rich_table, text_writer
    from gametape.usecases.analysis import QueryError, QueryLimits

    if fmt not in FORMATS:
        fail(unknown_format(fmt, FORMATS), EXIT_USAGE)
    model = fresh_model()
    limits = QueryLimits(seconds=timeout, memory=memory_limit)
    try:
        with model.stream(sql, limits) as (columns, batches):
            if fmt != "table":
                write = text_writer(columns, fmt, sys.stdout)
                for batch in batches:
                    write(batch)
                return
            rows: list[Any] = []
            more = 0
            for batch in batches:
                room = TABLE_ROWS - len(rows)
                rows += batch[:room]
                more += len(batch[room:]) if room < len(batch) else 0
    except QueryError as exc:
        tables = say("cli.query-tables", "tables: games, game_players, events, ratings, "
                     "players, and per game GAME.events (docs/analytics.md)")  # fmt: skip
        fail(str(exc), hint=exc.hint or tables)
    render(rich_table(columns, rows))
    if more:
        cut = say(
            "cli.rows-cut",
            "{rows} shown, {more} more not shown: --format csv or json prints them all",
            rows=count_of(len(rows), "row"),
            more=more,
        )
        err.print(Text(messages.render(cut), style="dim"))
    else:
        err.print(Text(messages.render(count_of(len(rows), "row")), style="dim"))


@app.command()
@friendly_errors
def stats(
    game: Annotated[
        str | None,
        typer.Argument(metavar="[GAME]", help="One game (default: every game in the store)."),
    ] = None,
    branches: Annotated[
        bool, typer.Option("--branches", help='Count branches ("what if" games) too.')
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Ready-made reports: scores by player count, outcomes, game length, players, and the
    game's own report (its most common kind of mistake), of the games played: branches
    (`gametape branch`) are left out unless `--branches`.

    Example: `gametape stats hanabi`
    """
    from gametape.cli.tables import histogram
    from gametape.usecases.browse import check_game_name

    if game is not None:
        check_game_name(game)
    model = fresh_model()
    reports = model.stats([game] if game else None, branches)
    if json:
        print_json(reports if game is None else reports[0])
        return
    (left,) = model.query("SELECT count(*) FROM games WHERE parent_game IS NOT NULL")[1][0]
    if left and not branches:
        said = say(
            "cli.branches-left-out",
            "{branches} (what if) left out; --branches counts them",
            branches=count_of(left, "branch", "branches"),
        )
        err.print(Text(messages.render(said), style="dim"))
    if not reports:
        out.print(Text(no_games(STATE.store.name)))
    for rep in reports:
        name = rep["ruleset"]
        out.rule(Text(name, style="bold"))
        if rep["scores"]:
            out.print(Text(messages.render(SCORES), style="bold"))
            heads = [messages.render(Term("core.column", c)) for c in ("players", "score", "games")]
            render(histogram(rep["scores"], heads))
        for key, title in CORE_REPORTS.items():
            if rep[key]:
                render(_report(name, rep[key], messages.render(title)))
        for own in rep["reports"]:
            title = own["title"] if own["id"] is None else Message(own["id"], own["title"])
            if own["rows"]:
                render(_report(name, own["rows"], messages.render(title)))
            else:
                none = say("cli.report-none", "{title}: none", title=title)
                out.print(Text(messages.render(none)))


def wrote(path: Any) -> Message:
    """``wrote out/games.parquet``."""
    return say("cli.wrote", "wrote {path}", path=str(path))


SCORES = say("cli.report-scores", "score by player count")
CORE_REPORTS = {
    "outcomes": say("cli.report-outcomes", "outcomes"),
    "lengths": say("cli.report-lengths", "game length"),
    "players": say("cli.report-players", "players"),
}


def _report(game: str, rows: list[dict[str, Any]], title: str) -> Any:
    """A report's rows as a table in the reader's language: each column by the game's word
    for it, else gametape's; an outcome in the game's words, a number in the digits."""
    from gametape.cli.tables import cell, heading, rich_table

    def value(column: str, v: Any) -> Any:
        if column == "outcome" and v in STATUS_COLOURS:  # a game with no outcome yet
            return status_word(v)
        if column == "outcome" and isinstance(v, str):
            return messages.render(Term(f"{game}.outcome", v))
        return messages.current().digits(cell(v)) if isinstance(v, int | float) else v

    cells = [[value(c, v) for c, v in r.items()] for r in rows]
    return rich_table([heading(game, c) for c in rows[0]], cells, title)


@app.command()
@friendly_errors
def players(
    words: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[NAME | merge NAME INTO | unmerge NAME]",
            help="One person (default: everyone); or merge two names into one person, or "
            "undo a merge.",
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format", "-f", help="table, csv, json, markdown, or html (one person's page)."
        ),
    ] = "table",
    abandoned: Annotated[
        bool,
        typer.Option(
            "--abandoned", help="Count abandoned games too (as games, never won, lost or rated)."
        ),
    ] = False,
    branches: Annotated[
        bool,
        typer.Option("--branches", help='Count branches ("what if" games) too (never rated).'),
    ] = False,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file (html).")
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Each person's record in every game they played: games, wins, draws, losses, the
    current streak (W2: won the last two), rating (openskill's, after their last game), mean
    score and when they last played, from finished games (abandoned ones with `--abandoned`).
    With a NAME, also their games by player count, their own play summed (in Hanabi: plays,
    clues given, critical discards and more), their rating (a cooperative game: the score)
    game by game, and their scores as a histogram; `-f html` writes that as a page with
    charts. Names are people: `Ann`, `ANN` and ` ann ` are one (docs/players.md); names that
    only look alike are warned about. A cooperative game (Hanabi) has no wins or losses: its
    mean score is the team's.

    `merge "Ann B" ann` counts every game of "Ann B" as ann's, kept in the store's
    players.log (no game log changes); `unmerge "Ann B"` takes that back.

    Example: `gametape players` · `gametape players ann --json` · `gametape players -f csv` ·
    `gametape players ann -f html -o ann.html` · `gametape players merge "Ann B" ann`
    """
    from gametape.cli.tables import FORMATS

    if fmt not in (*FORMATS, "html"):
        fail(unknown_format(fmt, (*FORMATS, "html")), EXIT_USAGE)
    words = words or []
    if len(words) > 1 and words[0] in ("merge", "unmerge"):
        _merge(words, json)
        return
    if len(words) > 1:
        fail(
            say("cli.players-one-name", "one name at a time, got {n}: {names}", n=len(words),
                names=many(words)),
            EXIT_USAGE,
            hint=say("cli.players-quote", 'quote a name with spaces: gametape players "Ann B"'),
        )  # fmt: skip
    name = words[0] if words else None
    if fmt == "html" and name is None:
        page = say("cli.players-page-name", "a page is one person's: say a NAME (gametape "
                   "players ann -f html)")  # fmt: skip
        fail(page, EXIT_USAGE)
    if output is not None and fmt != "html":
        fail(say("cli.players-output", "--output writes a page: use it with -f html"), EXIT_USAGE)
    found = fresh_model().players(name, abandoned, branches)
    rows = found["players"]
    if name is not None and not rows:
        fail(
            say("cli.players-none-named", "no game has a player named {name}", name=repr(name))
            if abandoned
            else say("cli.players-none-finished", "no finished game has a player named {name}",
                     name=repr(name)),
            hint=say("cli.players-everyone", "`gametape players` lists everyone (names are "
                     "matched ignoring case and width)"),
        )  # fmt: skip
    counted = messages.render(_counted(found["left_out"], abandoned, branches))
    if json:
        print_json(found)
    elif fmt == "html":
        _player_page(found, counted, output)
    elif fmt != "table":
        from gametape.cli.tables import text_writer

        columns = list(rows[0]) if rows else ["player", "ruleset", "games"]
        text_writer(columns, fmt, sys.stdout)([list(r.values()) for r in rows])
    else:
        _players_table(found)
    if not json and fmt in ("table", "html"):
        for group in found["look_alike"]:
            alike = say("cli.players-look-alike", "{names} only look alike: different letters, "
                        "so different people (if they are one: gametape players merge)",
                        names=many(map(repr, group), "and"))  # fmt: skip
            err.print(Text.assemble((label("warning"), "yellow"), " " + messages.render(alike)))
        if fmt == "table":
            legend = say(
                "cli.players-legend",
                "W-D-L: won (the only winner), drawn (a shared win), lost (any other place, "
                "second of three too; the rating counts places); streak W2: won the last two; "
                "{counted}",
                counted=_counted(found["left_out"], abandoned, branches),
            )
            err.print(Text(messages.render(legend), style="dim"))


def _counted(left_out: dict[str, int], abandoned: bool, branches: bool) -> Message:
    """Which games a players answer counted, in words."""
    if abandoned:
        said = say("cli.counted-abandoned", "finished and abandoned games")
    else:
        said = say("cli.counted-finished", "finished games only")
    if branches:
        said = say("cli.counted-branches", "{counted}, branches too", counted=said)
    if left_out:
        parts = many(
            count_of(n, "branch", "branches")
            if why == "branch"
            else say(
                "cli.games-why",
                "{games} {why}",
                games=count_of(n, "game"),
                why=Term("core.status", why),
            )
            for why, n in left_out.items()
        )
        said = say(
            "cli.counted-left-out", "{counted} ({parts} left out)", counted=said, parts=parts
        )
    return said


def _players_table(found: dict[str, Any]) -> None:
    from gametape.cli.tables import bar_table, rich_table, sparkline

    def heads(*columns: str) -> list[str]:
        return [messages.render(Term("core.column", c)) for c in columns]

    rows = found["players"]
    # `player` is `name` read one way; other spellings go under the table
    headings = heads("name", "game", "games", "W-D-L", "streak", "rating", "mean", "last game")
    digits = messages.current().digits
    table = [
        [
            r["name"],
            r["ruleset"],
            r["games"]
            if not r["abandoned"]
            else messages.render(
                say(
                    "cli.games-abandoned",
                    "{games} ({abandoned} abandoned)",
                    games=r["games"],
                    abandoned=r["abandoned"],
                )
            ),
            None if r["wins"] is None else digits(f"{r['wins']}-{r['draws']}-{r['losses']}"),
            r["streak"],
            r["rating"],
            r["mean_score"],
            r["last_played"],
        ]
        for r in rows
    ]
    render(rich_table(headings, table, messages.render(CORE_REPORTS["players"])))
    detail = found.get("detail")
    if detail is not None:
        render(
            rich_table(
                heads("game", "players", "games", "mean score"),
                [list(r.values()) for r in detail["by_player_count"]],
                messages.render(say("cli.by-player-count", "by player count")),
            )
        )
        for series in detail["history"]:
            values = series["values"]
            if len(values) > SPARK:
                last = say("cli.last-games", "the last {n} games", n=SPARK)
            else:
                last = say("cli.game-by-game", "game by game")
            head = say(
                "cli.series",
                "{game} {of}, {last}",
                game=series["ruleset"],
                of=Term("core.column", series["of"]),
                last=last,
            )
            now = say(
                "cli.series-now",
                "now {now} (low {low}, high {high})",
                now=values[-1],
                low=min(values),
                high=max(values),
            )
            out.print(
                Text.assemble(
                    (messages.render(head) + "  ", "bold"),
                    (sparkline(values, SPARK), "cyan"),
                    "  " + messages.render(now),
                )
            )
        if detail["histograms"]:
            out.print(Text(messages.render(say("cli.scores", "scores")), style="bold"))
            groups = {h["ruleset"]: h["bins"] for h in detail["histograms"]}
            render(bar_table(heads("game", "score", "games"), groups, width=30))
        for facts in detail["facts"]:
            game = facts["ruleset"]
            # a fact is the game's word for it: in English its name, in words (clues given)
            pairs = [
                [messages.render(Term(f"{game}.column", k.replace("_", " "))), v]
                for k, v in facts.items()
                if k != "ruleset"
            ]
            if pairs:  # a game whose facts sum to nothing gets no empty heading
                own = say("cli.own-play", "{game}: their own play", game=game)
                render(rich_table(["", *heads("total")], pairs, messages.render(own)))
    spellings: dict[str, set[str]] = {}
    for r in rows:
        spellings.setdefault(r["name"], set()).update(set(r["written"]) - {r["name"]})
    for shown_name, others in spellings.items():
        if others:
            also = say(
                "cli.also-as",
                "{name} also played as {others}",
                name=shown_name,
                others=many(sorted(others)),
            )
            err.print(Text(messages.render(also), style="dim"))


def _player_page(found: dict[str, Any], counted: str, output: Path | None) -> None:
    from gametape.usecases import export
    from gametape.usecases.analysis import player_page as page

    content = page(found, counted).encode()
    if output is None:
        sys.stdout.buffer.write(content)
        return
    export.write(output, content)
    err.print(Text(messages.render(wrote(output)), style="dim"))


def _merge(words: list[str], json: bool) -> None:
    model = fresh_model()
    if words[0] == "merge":
        if len(words) != 3:
            fail(
                say("cli.merge-two", 'say two names: gametape players merge "Ann B" ann'),
                EXIT_USAGE,
            )
        person, games = model.merge(words[1], words[2])
        if json:
            print_json({"merged": words[1], "into": person, "games": games})
            return
        merged = (
            say("cli.merged-one", "{name}'s {games} now counts as {person}'s", name=words[1],
                games=count_of(games, "game"), person=person)
            if games == 1
            else say("cli.merged", "{name}'s {games} now count as {person}'s", name=words[1],
                     games=count_of(games, "game"), person=person)
        )  # fmt: skip
        out.print(Text(messages.render(merged)))
        return
    if len(words) != 2:
        fail(say("cli.unmerge-one", "say one name: gametape players unmerge NAME"), EXIT_USAGE)
    was = model.unmerge(words[1])
    if json:
        print_json({"unmerged": words[1], "was": was})
        return
    unmerged = say("cli.unmerged", "{name} is their own person again (was merged into {was})",
                   name=words[1], was=was)  # fmt: skip
    out.print(Text(messages.render(unmerged)))


@app.command()
@friendly_errors
def export(
    game_refs: Annotated[
        list[str] | None,
        typer.Argument(metavar="[GAME]...", help="Games to export (with --format)."),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help="`html` (a replay page, for any game) or another tool's format "
            "(`gametape games` lists them).",
        ),
    ] = None,
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="html: only what this player could see at each step."),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="Write to this file, or into this directory (several games, or an existing "
            "directory: each file is named GAME.SUFFIX), instead of standard output.",
        ),
    ] = None,
    parquet: Annotated[
        Path | None,
        typer.Option("--parquet", help="Write the read model as Parquet into this directory."),
    ] = None,
) -> None:
    """Export games (`GAME... --format FORMAT`) or the whole read model (`--parquet DIR`).

    `--format html` writes one self-contained web page per game that replays it (a board, the
    moves, a slider, keys, `page.html#17` links); with `--as NAME` the page holds only what
    that player could see, otherwise it is everyone's view, every card shown (docs/replay.md).

    Parquet goes to `DIR/games/ruleset=NAME/*.parquet` (and the same for game_players and
    events), and each game's own views to `DIR/GAME/*.parquet`, for DuckDB, Spark or any
    Arrow tool.

    Example: `gametape export k3x9 --format html --as bob -o k3x9.html` ·
    `gametape export k3x9 --format hanablive -o game.json` · `gametape export --parquet out/`
    """
    if game_refs:
        if parquet is not None:
            raise UsageError(say("cli.export-parquet-whole", "--parquet exports the whole store; "
                                 "leave out GAME"))  # fmt: skip
        _export_games(game_refs, fmt, as_player, output)
        return
    if fmt is not None or as_player is not None:
        raise UsageError(say("cli.export-which", "say which games to export: GAME... --format "
                             "FORMAT"))  # fmt: skip
    if parquet is None:
        raise UsageError(say("cli.export-what", "say what to export: GAME... --format FORMAT, or "
                             "--parquet DIR"))  # fmt: skip
    for path in fresh_model().export_parquet(parquet):
        out.print(Text(messages.render(wrote(path))))


def _export_games(
    refs: list[str], fmt: str | None, as_player: str | None, output: Path | None
) -> None:
    """Write each game in ``fmt``: to ``output`` or standard output (one game), or into the
    directory ``output`` (several)."""
    from gametape.usecases import export

    fmt = export.check_request(fmt, as_player)
    export.check_output(len(refs), output)
    stopped = 0
    with progress() as bar:
        doing = messages.render(say("cli.progress-exporting", "exporting"))
        task = bar.add_task(doing, total=len(refs), visible=len(refs) > 5)
        for done in export.export_games(STATE.store, refs, fmt, as_player):
            for warning in done.warnings:
                err.print(Text.assemble((label("warning"), "yellow"), f" {warning}"))
            if done.cut:
                stopped += 1
                err.print(
                    Text.assemble((label("warning"), "yellow"), f" {done.path.stem} {done.cut}")
                )
            if output is None:
                sys.stdout.buffer.write(done.content)
            else:
                path = export.target(output, done, several=len(refs) > 1)
                export.write(path, done.content)
                err.print(Text(messages.render(wrote(path)), style="dim"))
            bar.advance(task)
    if stopped:
        fail(say("cli.export-stopped", "{stopped} of {games} replay only up to a bad event (see "
                 "above)", stopped=stopped, games=count_of(len(refs), "game")))  # fmt: skip
