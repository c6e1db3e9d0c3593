"""``gametape``: the typer application. Each command parses, calls the library, renders."""

from __future__ import annotations

import json as json_module
import random
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from gametape.cli.boards import render_board
from gametape.cli.output import (
    EXIT_INVALID,
    EXIT_USAGE,
    err,
    fail,
    friendly_errors,
    out,
    print_json,
    print_json_lines,
)
from gametape.engine import simulate as sim
from gametape.engine.game import UNDO_WORDS, Game, IllegalEvent, describe, iter_states, notation
from gametape.engine.registry import RULESETS, get_ruleset
from gametape.engine.validate import Report, validate, validate_paths
from gametape.events import Store, actor, default_store, read_log, repair_torn
from gametape.events.log import LogRead

app = typer.Typer(
    name="gametape",
    help="Record card games as append-only event logs; replay, validate and query them.\n\n"
    "Games: " + ", ".join(sorted(RULESETS)) + ". The store is a directory of logs: "
    "--store, else $GAMETAPE_STORE, else ~/.local/share/gametape.",
    no_args_is_help=True,
    rich_markup_mode="markdown",
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

StoreOpt = Annotated[Path | None, typer.Option(
    "--store", envvar="GAMETAPE_STORE", help="Directory of game logs.", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


class Ctx:
    store_path: Path | None = None

    @property
    def store(self) -> Store:
        return Store(self.store_path or default_store())


STATE = Ctx()


@app.callback()
def _main(store: StoreOpt = None) -> None:
    STATE.store_path = store


def _read(ref: str) -> LogRead:
    return read_log(STATE.store.resolve(ref))


def _game(read: LogRead, upto: int | None = None) -> Game:
    """Fold a read log (up to seq ``upto``). A broken log stops at its last good event."""
    events = read.events if upto is None else read.events[: upto + 1]
    if not events:
        fail(str(read.error) if read.error else f"{read.path}: empty log")
    try:
        return Game.from_events(events)
    except IllegalEvent as exc:
        fail(f"{read.path}:{exc.seq + 1}, seq {exc.seq}: {exc.violation}",
             hint="the log is invalid from there; `gametape validate` reports every game")


def _seat(game: Game, name: str | None) -> int | None:
    if name is None:
        return None
    try:
        return game.seat(name)
    except KeyError as exc:
        fail(str(exc.args[0]), EXIT_USAGE)


def _player_range(rules: Any) -> str:
    lo, hi = rules.min_players, rules.max_players
    return f"exactly {lo}" if lo == hi else f"{lo}-{hi}"


def _parse_options(items: list[str]) -> dict[str, str]:
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            fail(f"option {item!r} is not key=value", EXIT_USAGE)
        options[key.strip()] = value.strip()
    return options


@app.command()
@friendly_errors
def new(
    ruleset: Annotated[str, typer.Argument(help="The game: " + ", ".join(sorted(RULESETS)))],
    players: Annotated[str, typer.Option("--players", "-p",
                                         help="Comma-separated names, in seat order.")],
    seed: Annotated[int | None, typer.Option(help="Shuffle with this seed (kept as metadata).")
                    ] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A ruleset option as key=value (repeatable).")] = None,
    json: JsonOpt = False,
) -> None:
    """Start a new game and print its id.

    Example: `gametape new hanabi --players alice,bob,cara --seed 7`
    """
    rules = get_ruleset(ruleset)
    names = [p.strip() for p in players.split(",") if p.strip()]
    if not rules.min_players <= len(names) <= rules.max_players:
        fail(f"{ruleset} needs {_player_range(rules)} players, got {len(names)}", EXIT_USAGE)
    if len({n.lower() for n in names}) != len(names):
        fail("player names must differ", EXIT_USAGE)
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    game = Game.create(rules, names, random.Random(seed), _parse_options(option or []),
                       seed=seed)
    store = STATE.store
    gid = store.create(game.setup, game.events[1:])
    if json:
        print_json({"game": gid, "path": str(store.path(gid)), "ruleset": ruleset,
                    "players": names, "seed": seed})
        return
    out.print(f"[bold]{gid}[/]")
    err.print(f"[dim]new {ruleset} game for {', '.join(names)} → {store.path(gid)}[/]")
    err.print(f"[dim]next: gametape show {gid}   ·   gametape move {gid} \"…\"[/]")


@app.command()
@friendly_errors
def move(
    game_ref: Annotated[str, typer.Argument(metavar="GAME", help="Game id (or a unique prefix).")],
    text: Annotated[str, typer.Argument(metavar="MOVE", help="The move in notation.")],
    by: Annotated[str | None, typer.Option(
        "--by", help="Who moves (default: whoever is to act, for turn-based games).")] = None,
    json: JsonOpt = False,
) -> None:
    """Record one move. An illegal move is refused with the rule it breaks; nothing is written.

    Hanabi: `play 2`, `discard 5`, `clue bob red`, `clue bob 4` (slots from 1, newest first).
    Hanamikoji: `assign alice perform=red8 hidden=blue5 sacrifice=green4 vote=violet7`.
    Ohanami: `pick bob 37 row=2`, `pick bob 5 discard`.
    Any game: `abandon`; `undo` takes back the last move (the log keeps it, marked as
    retracted). See docs/notation.md.

    Example: `gametape move k3x9 "clue bob red"`
    """
    read = _read(game_ref)
    if read.error is not None:
        fail(str(read.error), hint="nothing was recorded; `gametape validate` tells more")
    game = _game(read)
    seat = _seat(game, by)
    before = game.state
    if text.strip().lower() in UNDO_WORDS:
        taken = game.undo(seat)
        for retraction in taken:
            game.push(retraction)
        STATE.store.append(game.setup.game or game_ref, taken, expected_seq=len(read.events))
        seqs = ", ".join(str(r.seq) for r in taken)
        if json:
            print_json({"retracted": [r.seq for r in taken], "over": game.is_over})
            return
        out.print(f"took back seq {seqs}")
        _status_line(game)
        err.print(f"[dim]recorded in {read.path} (the log keeps the retracted moves)[/]")
        return
    event = game.parse(text, seat)
    game.push(event)
    line = describe(game.ruleset, before, event, game.state)
    seed = game.setup.meta.get("seed")
    dealt = game.deal(random.Random(f"{seed}:{len(game.events)}") if seed is not None
                      else random.Random())
    last = STATE.store.append(game.setup.game or game_ref, [event, *dealt],
                              expected_seq=len(read.events))
    if json:
        print_json({"seq": last, "move": notation(game.ruleset, before, event),
                    "description": line, "over": game.is_over, "result": game.result()})
        return
    out.print(line)
    _status_line(game)
    err.print(f"[dim]recorded as seq {len(read.events)} in {read.path}[/]")


def _status_line(game: Game) -> None:
    if game.is_over:
        res = game.result()
        out.print(f"[bold]game over[/]: {res.outcome}, scores {list(res.scores)}")  # type: ignore[union-attr]
    else:
        names = ", ".join(game.players[s] for s in game.to_act())
        out.print(f"turn {game.ruleset.turn(game.state)}: {names} to act")


@app.command()
@friendly_errors
def show(
    game_ref: Annotated[str, typer.Argument(metavar="GAME")],
    at: Annotated[int | None, typer.Option("--at", help="Show the state after this seq.")
                  ] = None,
    as_player: Annotated[str | None, typer.Option(
        "--as", help="Show only what this player can see.")] = None,
    json: JsonOpt = False,
) -> None:
    """Show a game's state, for everyone or as one player sees it.

    Example: `gametape show k3x9 --as bob --at 12`
    """
    read = _read(game_ref)
    last = len(read.events) - 1
    if at is not None and not 0 <= at <= last:
        fail(f"no seq {at}: this game has seqs 0 to {last}", EXIT_USAGE)
    game = _game(read, at)
    seat = _seat(game, as_player)
    view = game.view(seat)
    if json:
        print_json({"game": game.setup.game, "seq": len(game.events) - 1, "view": view,
                    "result": game.result()})
        return
    title = f"{game.setup.game} · seq {len(game.events) - 1}/{last}"
    out.print(render_board(view, title))
    if read.error is not None:
        err.print(f"[yellow]warning:[/] {read.error}")


@app.command("log")
@friendly_errors
def log_cmd(
    game_ref: Annotated[str, typer.Argument(metavar="GAME")],
    json: JsonOpt = False,
) -> None:
    """The move list in notation, one line per event, like a score sheet.

    Example: `gametape log k3x9`
    """
    read = _read(game_ref)
    game = _game(read, 0)
    rules = game.ruleset
    rows: list[dict[str, Any]] = []
    before = game.state
    try:
        for seq, event, after in iter_states(read.events):
            if seq == 0:
                continue
            who = actor(event)
            rows.append({"seq": seq, "turn": rules.turn(before),
                         "player": game.players[who] if who is not None else None,
                         "move": notation(rules, before, event),
                         "description": describe(rules, before, event, after)})
            before = after
    except IllegalEvent as exc:
        rows.append({"seq": exc.seq, "error": str(exc.violation)})
    if json:
        print_json_lines(rows)
        return
    table = Table(title=f"{rules.name} {game.setup.game}: {', '.join(game.players)}",
                  title_justify="left", box=None)
    for col in ("seq", "turn", "player", "move", "what happened"):
        table.add_column(col, justify="right" if col in ("seq", "turn") else "left")
    for r in rows:
        if "error" in r:
            table.add_row(str(r["seq"]), "", "", "[red]invalid[/]", f"[red]{r['error']}[/]")
        else:
            table.add_row(str(r["seq"]), str(r["turn"]), r["player"] or "", r["move"],
                          r["description"])
    out.print(table)
    if read.error is not None:
        err.print(f"[yellow]warning:[/] {read.error}")


@app.command()
@friendly_errors
def replay(
    game_ref: Annotated[str, typer.Argument(metavar="GAME")],
    as_player: Annotated[str | None, typer.Option(
        "--as", help="Replay from this player's seat: only what they could see.")] = None,
    at: Annotated[int | None, typer.Option("--at", help="Print the frame at this seq.")] = None,
    all_frames: Annotated[bool, typer.Option("--all", help="Print every frame in order.")
                          ] = False,
    json: Annotated[bool, typer.Option(
        "--json", help="Frames as JSON Lines (with --at: one frame).")] = False,
) -> None:
    """Step through a game, move by move, for everyone or from one player's seat.

    On a terminal, opens the interactive viewer: → next, ← back, Home/End, `:` jump to a seq
    (or `t12` for turn 12), `k` pick a kind of event and `]`/`[` jump to the next/previous one
    (Hanabi: strike, play, clue to NAME; Hanamikoji: round; Ohanami: round end), `q` quit.
    A game still being recorded is followed live.

    Example: `gametape replay k3x9 --as bob` · `gametape replay k3x9 --at 17 --json`
    """
    from gametape.cli.frames import render_frame
    from gametape.replay import Cursor

    cursor = Cursor.open(STATE.store.resolve(game_ref))
    seat = None
    if as_player is not None:
        players = cursor.ruleset.players(cursor.states[0])
        names = [p.lower() for p in players]
        if as_player.lower() not in names:
            fail(f"no player {as_player!r}; the players are {', '.join(players)}", EXIT_USAGE)
        seat = names.index(as_player.lower())
    if at is not None:
        frames = [cursor.frame(at, seat)]
    elif all_frames or json:
        frames = [cursor.frame(s, seat) for s in range(cursor.last + 1)]
    elif out.is_terminal:
        from gametape.cli.viewer import ReplayApp

        ReplayApp(cursor, seat).run()
        return
    else:
        fail("the interactive replay needs a terminal; use --at SEQ, --all or --json",
             EXIT_USAGE)
    if json:
        print_json_lines(frames)
    else:
        for frame in frames:
            out.print(render_frame(cursor, frame))
    if cursor.problem and (at is None or at == cursor.last):
        fail(f"the replay stops at seq {cursor.last}: {cursor.problem}")


def _targets(paths: list[str] | None) -> list[Path]:
    store = STATE.store
    if not paths:
        return [store.path(g) for g in store.game_ids()]
    found: list[Path] = []
    for ref in paths:
        p = Path(ref).expanduser()
        if p.is_dir():
            found += sorted(p.glob("*.jsonl"))
        elif p.is_file():
            found.append(p)
        else:
            found.append(store.resolve(ref))
    return found


def _progress() -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=err, transient=True)


def _reports(files: list[Path], jobs: int = 0) -> list[Report]:
    reports = []
    with _progress() as bar:
        task = bar.add_task("validating", total=len(files), visible=len(files) > 20)
        for report in validate_paths(files, jobs):
            reports.append(report)
            bar.advance(task)
    return reports


@app.command("validate")
@friendly_errors
def validate_cmd(
    paths: Annotated[list[str] | None, typer.Argument(
        metavar="[PATH|GAME]...", help="Logs, directories or game ids (default: the store).")
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per CPU).")] = 0,
    json: JsonOpt = False,
) -> None:
    """Check logs: JSON, schema, seq, hash chain, and every move against the rules.

    Reports each game as finished, in progress, or invalid (with file, line, seq and why).
    Exit status 0 when every game is valid, 1 otherwise.

    Example: `gametape validate` · `gametape validate k3x9 --json`
    """
    files = _targets(paths)
    reports = _reports(files, jobs)
    bad = sum(r.status == "invalid" for r in reports)
    if json:
        print_json_lines(reports)
    else:
        _print_reports(reports)
    if bad:
        raise typer.Exit(EXIT_INVALID)


def _print_reports(reports: list[Report]) -> None:
    colours = {"finished": "green", "in_progress": "yellow", "invalid": "red"}
    table = Table(box=None)
    for col in ("game", "ruleset", "status", "events", "result"):
        table.add_column(col)
    for r in reports:
        if r.result:
            scores = r.result.scores
            shown = str(scores[0]) if len(set(scores)) == 1 else "/".join(map(str, scores))
            result = f"{r.result.outcome} {shown}"
        elif r.problem:
            result = str(r.problem)
        else:
            result = f"turn {r.turn}"
        table.add_row(r.game or Path(r.file).stem, r.ruleset or "?",
                      f"[{colours[r.status]}]{r.status.replace('_', ' ')}[/]", str(r.events),
                      result)
    if len(reports) <= 200:
        out.print(table)
    else:
        for r in reports:
            if r.problem:
                out.print(f"[red]invalid[/] {r.problem}")
    counts = Counter(r.status for r in reports)
    out.print(f"{len(reports)} games: {counts['finished']} finished, "
              f"{counts['in_progress']} in progress, {counts['invalid']} invalid")


@app.command("list")
@friendly_errors
def list_cmd(json: JsonOpt = False) -> None:
    """List the games in the store with their status.

    Example: `gametape list --json`
    """
    reports = _reports(_targets(None))
    if json:
        print_json_lines(reports)
        return
    if not reports:
        out.print(f"no games in {STATE.store.root}")
        return
    _print_reports(reports)


@app.command()
@friendly_errors
def simulate(
    ruleset: Annotated[str, typer.Argument(help="The game to simulate.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 10,
    players: Annotated[int | None, typer.Option(
        "--players", "-k", help="Players per game (default: 3, or the nearest allowed).")] = None,
    bot: Annotated[str | None, typer.Option(
        help="A bot of the ruleset (default: its best one).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="Ruleset option key=value.")] = None,
    json: JsonOpt = False,
) -> None:
    """Write complete games played by bots (fsyncs batched), with a progress bar.

    Example: `gametape simulate hanabi --games 100 --players 3 --bot heuristic --seed 1`
    """
    rules = get_ruleset(ruleset)
    players = players or sim.default_count(rules)
    if not rules.min_players <= players <= rules.max_players:
        fail(f"{ruleset} needs {_player_range(rules)} players", EXIT_USAGE)
    bot = bot or rules.default_bot
    if bot not in rules.bots:
        fail(f"no bot {bot!r} for {ruleset}; bots: {', '.join(rules.bots)}", EXIT_USAGE)
    names = sim.default_players(players)
    options = _parse_options(option or [])
    store = STATE.store
    ids: list[str] = []
    outcomes: Counter[str] = Counter()
    scores: list[int] = []
    with store.batch(), _progress() as bar:
        task = bar.add_task(f"simulating {ruleset}", total=games)
        for i in range(games):
            game = sim.play(rules, names, bot, random.Random(seed + i), options, seed=seed + i)
            ids.append(store.create(game.setup, game.events[1:]))
            res = game.result()
            outcomes[res.outcome] += 1  # type: ignore[union-attr]
            scores.append(max(res.scores))  # type: ignore[union-attr]
            bar.advance(task)
    summary = {"store": str(store.root), "games": ids, "outcomes": dict(outcomes),
               "mean_score": sum(scores) / len(scores)}
    if json:
        print_json(summary)
        return
    mix = ", ".join(f"{k} {v}" for k, v in outcomes.most_common())
    out.print(f"wrote {games} {ruleset} games to {store.root}")
    out.print(f"outcomes: {mix}; mean score {summary['mean_score']:.1f}")
    out.print(f"first: {ids[0]}   last: {ids[-1]}")


@app.command()
@friendly_errors
def repair(game_ref: Annotated[str, typer.Argument(metavar="GAME")]) -> None:
    """Move a torn last line (an interrupted write) aside into `<log>.torn`.

    Every complete event stays; the fragment is kept beside the log, not deleted.

    Example: `gametape repair k3x9`
    """
    path = STATE.store.resolve(game_ref)
    done = repair_torn(path)
    if done is None:
        out.print(f"{path}: not torn, nothing to do")
        return
    offset, side = done
    out.print(f"{path}: cut the torn line at byte {offset}; the fragment is in {side}")


def _model() -> Any:
    from gametape.analytics import ReadModel

    return ReadModel(STATE.store.root)


def _refresh(model: Any, jobs: int = 0, quiet: bool = False) -> Any:
    with _progress() as bar:
        task = bar.add_task("indexing", total=None, visible=not quiet)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, visible=not quiet and total > 20)

        return model.refresh(progress=progress, jobs=jobs)


@app.command()
@friendly_errors
def index(
    rebuild: Annotated[bool, typer.Option(help="Delete the read model and build it anew.")
                       ] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per CPU).")] = 0,
    json: JsonOpt = False,
) -> None:
    """Refresh the DuckDB read model of the store (only new or changed logs are read).

    The model is `gametape.duckdb` in the store; it can be deleted at any time.

    Example: `gametape index` · `gametape index --rebuild`
    """
    model = _model()
    if rebuild:
        model.path.unlink(missing_ok=True)
    summary = _refresh(model, jobs, quiet=json)
    if json:
        print_json({"database": str(model.path), "added": len(summary.added),
                    "updated": len(summary.updated), "removed": len(summary.removed),
                    "unchanged": summary.unchanged, "invalid": summary.invalid,
                    "events": summary.events})
        return
    out.print(f"indexed {len(summary.added)} new, {len(summary.updated)} changed, "
              f"{len(summary.removed)} removed, {summary.unchanged} unchanged games "
              f"({summary.events} events read, {summary.invalid} invalid)")
    err.print(f"[dim]read model: {model.path}[/]")


@app.command()
@friendly_errors
def query(
    sql: Annotated[str, typer.Argument(help="SQL over the tables games, game_players, events.")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv, json or markdown.")
                   ] = "table",
) -> None:
    """Run SQL on the read model (refreshed first if any log changed).

    Tables and columns: docs/analytics.md. json prints one object per row (JSON Lines).

    Example: `gametape query "SELECT player_count, avg(score) FROM games GROUP BY ALL"`
    """
    from gametape.analytics import QueryError
    from gametape.cli.tables import FORMATS, as_text, rich_table

    if fmt not in FORMATS:
        fail(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}", EXIT_USAGE)
    model = _model()
    if model.stale():
        _refresh(model, quiet=True)
    try:
        columns, rows = model.query(sql)
    except QueryError as exc:
        fail(str(exc), hint="tables: games, game_players, events (docs/analytics.md)")
    if fmt == "table":
        out.print(rich_table(columns, rows))
        err.print(f"[dim]{len(rows)} rows[/]")
    else:
        sys.stdout.write(as_text(columns, rows, fmt))


@app.command()
@friendly_errors
def stats(
    ruleset: Annotated[str | None, typer.Argument(help="One ruleset (default: all).")] = None,
    json: JsonOpt = False,
) -> None:
    """Ready-made reports: scores by player count, outcomes, game length, players, mistakes.

    Mistakes: Hanabi misplays by rank; Hanamikoji captures lost to ties; Ohanami discards by
    season.

    Example: `gametape stats hanabi`
    """
    from gametape.cli.tables import histogram, rich_table

    if ruleset is not None:
        get_ruleset(ruleset)
    model = _model()
    if model.stale():
        _refresh(model, quiet=True)
    reports = model.stats([ruleset] if ruleset else None)
    if json:
        print_json(reports if ruleset is None else reports[0])
        return
    if not reports:
        out.print(f"no games in {STATE.store.root}")
    for rep in reports:
        out.rule(f"[bold]{rep['ruleset']}[/]")
        if rep["scores"]:
            out.print("[bold]score by player count[/]")
            out.print(histogram(rep["scores"]))
        for key, title in (("outcomes", "outcomes"), ("lengths", "game length"),
                           ("players", "players")):
            rows = rep[key]
            if rows:
                out.print(rich_table(list(rows[0]), [list(r.values()) for r in rows], title))
        mistakes = rep["mistakes"]
        rows = mistakes["rows"]
        if rows:
            out.print(rich_table(list(rows[0]), [list(r.values()) for r in rows],
                                 mistakes["title"]))
        else:
            out.print(f"{mistakes['title']}: none")


@app.command()
@friendly_errors
def export(
    game_ref: Annotated[str | None, typer.Argument(
        metavar="[GAME]", help="One game to export (with --format).")] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", help="hanablive: hanab.live's JSON game export.")] = None,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write to this file instead of standard output.")] = None,
    parquet: Annotated[Path | None, typer.Option(
        "--parquet", help="Write games, game_players and events as Parquet into this directory, "
        "partitioned by ruleset.")] = None,
) -> None:
    """Export one game (`GAME --format hanablive`) or the whole read model (`--parquet DIR`).

    Parquet goes to DIR/games/ruleset=hanabi/*.parquet, and the same for game_players and
    events, for DuckDB, Spark or any Arrow tool.

    Example: `gametape export k3x9 --format hanablive -o game.json` ·
    `gametape export --parquet out/`
    """
    if game_ref is not None:
        if parquet is not None:
            fail("--parquet exports the whole store; leave out GAME", EXIT_USAGE)
        if fmt != "hanablive":
            fail("say the format: --format hanablive", EXIT_USAGE)
        from gametape.interop import hanablive

        read = _read(game_ref)
        if read.error is not None:
            fail(str(read.error))
        data = hanablive.from_events(read.events)
        end = hanablive.hanablive_end(read.events)
        if end is not None:
            err.print(f"[yellow]warning:[/] hanab.live would have ended this game at seq {end} "
                      "(the best score still reachable); it will refuse the moves after it")
        text = json_module.dumps(data, indent=1) + "\n"
        if output is None:
            sys.stdout.write(text)
        else:
            output.write_text(text)
            err.print(f"[dim]wrote {output}[/]")
        return
    if parquet is None:
        fail("say what to export: GAME --format hanablive, or --parquet DIR", EXIT_USAGE)
    model = _model()
    if model.stale():
        _refresh(model, quiet=True)
    for path in model.export_parquet(parquet):
        out.print(f"wrote {path}")


import_app = typer.Typer(help="Import games recorded elsewhere.", no_args_is_help=True,
                         rich_markup_mode="markdown")
app.add_typer(import_app, name="import")


@import_app.command("hanablive")
@friendly_errors
def import_hanablive(
    paths: Annotated[list[Path], typer.Argument(
        metavar="FILE_OR_DIR...", help="hanab.live JSON exports, or directories of them.")],
    json: JsonOpt = False,
) -> None:
    """Import hanab.live JSON game exports ("No Variant" games), validating every action.

    Other variants are refused with a message naming the variant; an illegal action is
    reported with the file, the action's index and the rule, and that game is not written.
    Games already in the store (same hanab.live id, or same deck and actions) are skipped.
    Exit status 1 if a file was malformed or illegal.

    Example: `gametape import hanablive ~/Downloads/hanablive/`
    """
    from gametape.interop.importer import import_files

    store = STATE.store
    with _progress() as bar:
        task = bar.add_task("importing", total=None)
        results = import_files(store, paths, progress=lambda _p: bar.advance(task))
    if json:
        print_json_lines(results)
    else:
        for r in results:
            if r.status == "refused":
                out.print(f"[red]refused[/] {r.file}: {r.reason}")
            elif r.status in ("duplicate", "ignored"):
                out.print(f"[dim]{'skipped' if r.status == 'duplicate' else 'ignored'}[/] "
                          f"{r.file}: {r.reason}")
            else:
                ending = (f"{r.outcome}, score {r.score}" if r.outcome
                          else f"in progress ({r.reason})")
                out.print(f"[green]imported[/] {r.file} → {r.game}: {ending}, "
                          f"fireworks {r.fireworks_sum}")
        counts = Counter(r.status for r in results)
        out.print(f"[bold]{counts['imported']} imported, {counts['duplicate']} skipped as "
                  f"duplicates, {counts['refused']} refused[/] → {store.root}")
    if any(r.status == "refused" and r.kind != "variant" for r in results):
        raise typer.Exit(EXIT_INVALID)


DEMO_MARK = ".gametape-demo"


@app.command()
@friendly_errors
def demo(
    games: Annotated[int, typer.Option(help="Games per ruleset.")] = 5,
) -> None:
    """Simulate a few games in a demo store, show one, list its moves, validate the store.

    Uses ./demo-store unless --store is given; `make demo` runs this.

    Example: `gametape demo`
    """
    root = STATE.store_path or Path("demo-store")
    if root.exists() and any(root.iterdir()) and not (root / DEMO_MARK).exists():
        fail(f"{root} is not empty and not a demo store; pick another with --store")
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    (root / DEMO_MARK).write_text("made by `gametape demo`; safe to delete\n")
    STATE.store_path = root
    store = STATE.store
    first: dict[str, str] = {}
    for name, rules in sorted(RULESETS.items()):
        players = sim.default_players(sim.default_count(rules))
        with store.batch():
            for i in range(games):
                game = sim.play(rules, players, rules.default_bot, random.Random(i), seed=i)
                gid = store.create(game.setup, game.events[1:])
                first.setdefault(name, gid)
        out.rule(f"[bold]{name}[/]: {games} simulated games in {root}")
        gid = first[name]
        read = read_log(store.path(gid))
        game = _game(read)
        out.print(render_board(game.view(None), f"{gid} · final position"))
        rules_ = game.ruleset
        before = game.ruleset.start(game.setup)
        out.print("[bold]first moves[/]")
        for seq, event, after in list(iter_states(read.events))[1:9]:
            out.print(f"  {seq:>3}  {describe(rules_, before, event, after)}")
            before = after
    out.rule("[bold]validate[/]")
    reports = [validate(read_log(store.path(g)))[0] for g in store.game_ids()]
    _print_reports(reports)
    gid = next(iter(first.values()))
    out.print("\n[bold]Try next[/]")
    for line in (f"gametape --store {root} log {gid}",
                 f"gametape --store {root} show {gid} --at 10 --as bob",
                 f"gametape --store {root} replay {gid} --as bob",
                 f"gametape --store {root} stats",
                 f"gametape --store {root} query \"SELECT ruleset, avg(score) FROM games "
                 "GROUP BY ALL\"",
                 "gametape new hanabi --players alice,bob,cara"):
        out.print(f"  {line}")


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
