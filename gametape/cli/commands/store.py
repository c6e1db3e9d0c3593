"""The store as a whole: validate, list, repair, simulate, import, demo."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from gametape import messages
from gametape.cli.board import render as draw
from gametape.cli.common import (
    STATE,
    GameArg,
    JsonOpt,
    game_of,
    parse_options,
    print_reports,
    progress,
)
from gametape.cli.output import (
    EXIT_INVALID,
    fail,
    friendly_errors,
    out,
    print_json,
    print_json_lines,
    render,
)
from gametape.cli.quick import no_games
from gametape.messages import Term, count_of, many, say
from gametape.usecases import browse, position
from gametape.usecases.check import demo_store, validate_paths, validate_store
from gametape.usecases.simulate import simulate as simulate_games
from gametape.usecases.store import Report, Source, is_url, repair_torn

if TYPE_CHECKING:
    from gametape.usecases.importing import ImportResult

app = typer.Typer()


def targets(paths: list[str] | None) -> list[Path | Source]:
    """Log files named by the user (files, directories, ids), or the whole store."""
    store = STATE.store
    if not paths:
        store.require()
        return [store.path(g) for g in store.game_ids()]
    found: list[Path | Source] = []
    for ref in paths:
        p = Path(ref).expanduser()
        if p.is_dir():
            found += sorted(p.glob("*.jsonl"))
        elif p.is_file():
            found.append(p)
        else:
            found.append(store.resolve(ref))
    return found


def reports_of(paths: list[str] | None, jobs: int = 0) -> list[Report]:
    """Validate the logs ``paths`` name (see ``targets``), or the whole store."""
    store = STATE.store
    files = targets(paths) if paths else None
    total = len(files) if files is not None else len(store.require().game_ids())
    reports = []
    with progress() as bar:
        doing = messages.render(say("cli.progress-validating", "validating"))
        task = bar.add_task(doing, total=total, visible=total > 20)
        found = validate_paths(files, jobs) if files is not None else validate_store(store, jobs)
        for report in found:
            reports.append(report)
            bar.advance(task)
    return reports


@app.command("validate")
@friendly_errors
def validate_cmd(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[PATH|GAME]...", help="Logs, directories or game ids (default: the store)."
        ),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes (0: one per CPU).")] = 0,
    json: JsonOpt = False,
) -> None:
    """Check logs: JSON, schema, seq, hash chain, and every move against the rules.

    Reports each game as finished, in progress, or invalid (with file, line, seq and why).
    Exit status 0 when every game is valid, 1 otherwise.

    Example: `gametape validate` · `gametape validate k3x9 --json`
    """
    reports = reports_of(paths, jobs)
    if json:
        print_json_lines(reports)
    else:
        print_reports(reports)
    if any(r.status == "invalid" for r in reports):
        raise typer.Exit(EXIT_INVALID)


@app.command("list")
@friendly_errors
def list_cmd(json: JsonOpt = False) -> None:
    """List the games in the store: when each was last played, who played, its status and
    result (winners by name). `--json` gives one object per game, `winners` by name.

    Example: `gametape list --json`
    """
    reports = reports_of(None)
    if json:
        print_json_lines(reports)
        return
    if not reports:
        out.print(Text(no_games(STATE.store.name)))
        return
    print_reports(reports, listing=True)


@app.command()
@friendly_errors
def repair(game_ref: GameArg) -> None:
    """Move a torn last line (an interrupted write) aside into `<log>.torn`.

    Every complete event stays; the fragment is kept beside the log, not deleted.

    Example: `gametape repair k3x9`
    """
    path = STATE.store.resolve(game_ref)
    if not isinstance(path, Path):
        whole = say("cli.repair-postgres", "{path}: nothing to repair: PostgreSQL commits whole "
                    "transactions, so no line of it is ever torn", path=str(path))  # fmt: skip
        out.print(Text(messages.render(whole)))
        return
    done = repair_torn(path)
    if done is None:
        untorn = say("cli.repair-not-torn", "{path}: not torn, nothing to do", path=str(path))
        out.print(Text(messages.render(untorn)))
        return
    offset, side = done
    if offset == 0:
        empty = say("cli.repair-empty", "{path}: held no complete event (a crash while it was "
                    "created); moved aside to {side}", path=str(path), side=str(side))  # fmt: skip
        out.print(Text(messages.render(empty)))
        return
    cut = say("cli.repair-cut", "{path}: cut the torn line at byte {offset}; the fragment is in "
              "{side}", path=str(path), offset=offset, side=str(side))  # fmt: skip
    out.print(Text(messages.render(cut)))


@app.command()
@friendly_errors
def simulate(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game to simulate.")],
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 10,
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-k", help="Players per game (default: 3, or the nearest allowed)."
        ),
    ] = None,
    bot: Annotated[
        str | None, typer.Option(help="A bot of the game (default: its best one).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed+i.")] = 0,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Game option key=value.")
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Write complete games played by bots (fsyncs batched), with a progress bar.

    Example: `gametape simulate hanabi --games 100 --players 3 --bot heuristic --seed 1`
    """
    store = STATE.store
    with progress() as bar:
        doing = messages.render(say("cli.progress-simulating", "simulating {game}", game=game))
        task = bar.add_task(doing, total=games)
        done = simulate_games(
            store,
            game,
            games,
            players,
            bot,
            seed,
            parse_options(option or []),
            lambda: bar.advance(task),
        )
    summary = {
        "store": store.name,
        "games": done.ids,
        "outcomes": dict(done.outcomes),
        "mean_score": done.mean_score,
    }
    if json:
        print_json(summary)
        return
    mix = many(
        say("cli.outcome-count", "{outcome} {n}", outcome=Term(f"{game}.outcome", k), n=v)
        for k, v in done.outcomes.most_common()
    )
    written = say(
        "cli.simulated", "wrote {n} {game} games to {store}", n=games, game=game, store=store.name
    )
    out.print(Text(messages.render(written)))
    mean = round(done.mean_score, 1)
    said = say("cli.simulated-outcomes", "outcomes: {mix}; mean score {mean}", mix=mix, mean=mean)
    out.print(Text(messages.render(said)))
    ends = say(
        "cli.simulated-ids", "first: {first}   last: {last}", first=done.ids[0], last=done.ids[-1]
    )
    out.print(Text(messages.render(ends)))


def _import_line(r: ImportResult) -> str:
    """What became of one file, after its word: ``FILE → GAME: normal, score 23, fireworks
    sum 23`` (the outcome and facts in the game's words), or ``FILE: why``."""
    if r.status != "imported":
        where = messages.render(say("cli.import-file", "{file}:", file=r.file))
        return f"{where} {r.reason}"
    game = r.ruleset or ""
    if r.outcome:
        outcome = Term(f"{game}.outcome", r.outcome)
        ending = say(
            "cli.imported-ending", "{outcome}, score {score}", outcome=outcome, score=r.score or 0
        )
    else:
        ending = say("cli.imported-going", "in progress ({why})", why=r.reason or "")
    facts = [
        say(
            "cli.imported-fact",
            "{fact} {value}",
            fact=Term(f"{game}.column", k.replace("_", " ")),
            value=v,
        )
        for k, v in r.facts.items()
    ]
    line = say(
        "cli.imported-line",
        "{file} → {game}: {ending}",
        file=r.file,
        game=r.game or "",
        ending=many([ending, *facts]),
    )
    return messages.render(line)


IMPORT_WORDS = {
    "imported": (say("cli.imported", "imported"), "green"),
    "refused": (say("cli.import-refused", "refused"), "red"),
    "duplicate": (say("cli.import-skipped", "skipped"), "dim"),
    "ignored": (say("cli.import-ignored", "ignored"), "dim"),
}


@app.command("import")
@friendly_errors
def import_cmd(
    fmt: Annotated[
        str,
        typer.Argument(
            metavar="FORMAT", help="The other tool's format (`gametape games` lists them)."
        ),
    ],
    paths: Annotated[
        list[Path],
        # readable=False: a file that cannot be read is refused by name, and the others import
        typer.Argument(
            metavar="FILE_OR_DIR...", help="Files, or directories of them.", readable=False
        ),
    ],
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A format option as key=value, e.g. play_on=true for "
            "hanablive files from tools that play on.",
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Import games recorded by other tools, validating every move.

    Directories are searched for *.json files. Games already in the store (same id, or same
    deck and moves) are skipped. A file in another variant is refused naming it; an illegal
    move is reported with the file, the move's index and the rule, and that game is not
    written. Exit status 1 if a file was malformed or illegal.

    Example: `gametape import hanablive ~/Downloads/hanablive/`
    """
    import_files_cli(fmt, paths, json, parse_options(option or []))


def import_files_cli(fmt_name: str, paths: list[Path], json: bool, options: dict[str, str]) -> None:
    from gametape.usecases.importing import find_format, import_files

    fmt = find_format(fmt_name)
    store = STATE.store
    with progress() as bar:
        task = bar.add_task(messages.render(say("cli.progress-importing", "importing")), total=None)
        results = import_files(
            store, fmt, paths, progress=lambda _p: bar.advance(task), options=options
        )
    if json:
        print_json_lines(results)
    else:
        for r in results:
            word, style = IMPORT_WORDS[r.status]
            out.print(Text.assemble((messages.render(word), style), " " + _import_line(r)))
        counts = Counter(r.status for r in results)
        summary = say(
            "cli.imported-summary",
            "{imported} imported, {duplicates} skipped as duplicates, {refused} refused → {store}",
            imported=counts["imported"],
            duplicates=counts["duplicate"],
            refused=counts["refused"],
            store=store.name,
        )
        out.print(Text(messages.render(summary), style="bold"))
    if any(r.status == "refused" and r.kind != "variant" for r in results):
        raise typer.Exit(EXIT_INVALID)


@app.command()
@friendly_errors
def demo(
    games: Annotated[int, typer.Option(help="Games per game.")] = 5,
) -> None:
    """Simulate a few games of each game in a demo store, show one, validate the store.

    Uses ./demo-store unless --store is given; `make demo` runs this.

    Example: `gametape demo`
    """
    if isinstance(STATE.store_path, str):
        fail(say("cli.demo-folder", "the demo makes a folder store of its own: name a directory, "
                 "or leave --store out"))  # fmt: skip
    root = STATE.store_path or Path("demo-store")
    store = demo_store(root)
    STATE.store_path = root
    first: dict[str, str] = {}
    for info in browse.installed_games()[0]:
        done = simulate_games(store, info.name, games)
        first[info.name] = gid = done.ids[0]
        made = say("cli.demo-games", "{game}: {games} simulated in {path}", game=info.name,
                   games=count_of(games, "game"), path=str(root))  # fmt: skip
        out.rule(Text(messages.render(made), style="bold"))
        game = game_of(browse.read(store, gid))
        final = say("cli.demo-final", "{game} · final position", game=gid)
        render(draw(position.board(game, None, title=messages.render(final))))
        out.print(Text(messages.render(say("cli.demo-first-moves", "first moves")), style="bold"))
        for seq, what in browse.first_moves(game, 8):
            out.print(Text(f"  {seq:>3}  {what}"))
    out.rule(Text(messages.render(say("cli.demo-validate", "validate")), style="bold"))
    print_reports(list(validate_paths([store.path(g) for g in store.game_ids()])))
    if not first:
        fail(say("cli.no-games-installed", "no games are installed"))
    gid = next(iter(first.values()))
    example = next(iter(first))
    out.print(Text("\n" + messages.render(say("cli.demo-try-next", "Try next")), style="bold"))
    for line in (
        f"gametape --store {root} log {gid}",
        f"gametape --store {root} show {gid} --at 10 --as bob",
        f"gametape --store {root} replay {gid} --as bob",
        f"gametape --store {root} export {gid} --format html -o {gid}.html   # share it",
        f"gametape --store {root} stats",
        f'gametape --store {root} query "SELECT ruleset, avg(score) FROM games GROUP BY ALL"',
        f"gametape new {example} --players alice,bob,cara",
    ):
        out.print(Text(f"  {line}"))


stores = typer.Typer(
    name="store",
    help="The store itself: make a PostgreSQL store's tables, copy games between stores.",
    no_args_is_help=True,
)


@stores.command("init")
@friendly_errors
def store_init(json: JsonOpt = False) -> None:
    """Make the store: a directory, or a PostgreSQL database's tables (run it once, as a
    role that may create tables; docs/stores.md lists what a recording role needs after).

    Example: `gametape --store postgresql://club@db.example/club store init`
    """
    store = STATE.store.ensure()
    if json:
        print_json({"store": store.name, "games": len(store.game_ids())})
        return
    ready = say("cli.store-ready", "{store} is ready ({games})", store=store.name,
                games=count_of(len(store.game_ids()), "game"))  # fmt: skip
    out.print(Text(messages.render(ready)))


@stores.command("copy")
@friendly_errors
def store_copy(
    source: Annotated[str, typer.Argument(metavar="SRC", help="A directory or postgresql:// URL.")],
    target: Annotated[str, typer.Argument(metavar="DST", help="A directory or postgresql:// URL.")],
    with_invalid: Annotated[
        bool,
        typer.Option("--with-invalid", help="Copy games that do not validate too, as they are."),
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Copy every game of SRC that DST lacks, log line for line: files to PostgreSQL, back,
    or between two of either. Each game is validated before it is written and read back
    after (its bytes and chain must match); a game that does not validate is reported and
    left out unless `--with-invalid`. Exit status 1 if any game was left out or refused.

    Example: `gametape store copy ~/.local/share/gametape postgresql://club@db.example/club`
    """
    from gametape.usecases.copying import PLAYERS, copy_store
    from gametape.usecases.store import open_store

    src, dst = (open_store(s if is_url(s) else Path(s).expanduser()) for s in (source, target))
    results = []
    with progress() as bar:
        task = bar.add_task(messages.render(say("cli.progress-copying", "copying")), total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, visible=total > 20)

        for result in copy_store(src, dst, with_invalid, advance):
            results.append(result)
    counts = Counter(r.outcome for r in results if r.game != PLAYERS)
    names = next((r for r in results if r.game == PLAYERS), None)
    if json:
        print_json_lines(results)
    else:
        for r in results:
            if r.outcome in ("skipped", "refused", "copied invalid"):
                word = messages.render(Term("core.copy-outcome", r.outcome))
                out.print(Text.assemble((word, "yellow"), f" {r.game}: {r.reason}"))
        notes = sum(r.notes for r in results)
        if notes:
            with_games = say("cli.copy-notes", "{notes} copied with their games",
                             notes=count_of(notes, "note"))  # fmt: skip
            out.print(Text(messages.render(with_games)))
        if names is not None and names.outcome == "copied":
            merged = say("cli.copy-names", "merged names ({file}): {lines} copied", file=PLAYERS,
                         lines=names.reason)  # fmt: skip
            out.print(Text(messages.render(merged)))
        outcomes = [
            say("cli.copy-outcome", "{n} {outcome}", n=n,
                outcome=Term("core.copy-outcome", what))
            for what, n in counts.most_common()
        ]  # fmt: skip
        said = many(outcomes) if outcomes else say("cli.copy-none", "no games")
        shown = dst.name if is_url(target) else target  # as typed; a URL without its password
        out.print(Text(messages.render(say("cli.copy-done", "{said} → {store}", said=said,
                                           store=shown))))  # fmt: skip
    if counts["skipped"] or counts["refused"] or (names is not None and names.outcome == "refused"):
        raise typer.Exit(EXIT_INVALID)
