"""Playing and looking at one game: new, move, show, log, replay."""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec
import typer
from rich.table import Table
from rich.text import Text

from gametape import messages
from gametape.cli import quick
from gametape.cli.board import render as draw
from gametape.cli.common import (
    STATE,
    GameArg,
    JsonOpt,
    game_of,
    parse_options,
    read,
    seat_of,
    status_line,
)
from gametape.cli.output import (
    EXIT_USAGE,
    SafeConsole,
    err,
    fail,
    friendly_errors,
    label,
    out,
    print_json,
    print_json_lines,
    render,
)
from gametape.errors import GametapeError, no_seq
from gametape.messages import Term, count_of, many, say
from gametape.pagewords import script_message
from gametape.usecases import browse, position, record
from gametape.usecases.store import RuleViolation

app = typer.Typer()

LEARNED_LATER = (
    "a game recorded at a table: faces learned later are shown from the moment the card "
    "entered play (--as NAME shows what that player knew then)"
)


@app.command()
@friendly_errors
def new(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game (`gametape games`).")],
    players: Annotated[
        str, typer.Option("--players", "-p", help="Comma-separated names, in seat order.")
    ],
    seed: Annotated[
        int | None, typer.Option(help="Shuffle with this seed (kept as metadata).")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A game option as key=value (repeatable)."),
    ] = None,
    table: Annotated[
        bool,
        typer.Option(
            "--table",
            help="The cards were shuffled and dealt at a real table: nothing of the "
            "deal is known; cards enter the log as the game shows them.",
        ),
    ] = False,
    json: JsonOpt = False,
) -> None:
    """Start a new game and print its id.

    Example: `gametape new hanabi --players alice,bob,cara --seed 7` ·
    `gametape new hanabi --players ann,ben,cat --table` (then `gametape record GAME`)
    """
    # ", " separates names as "," does; any other space around a name is kept, so the one
    # rule for names refuses it (" ann" is not a name).
    listed = re.split(r", ?", players)
    gid, created = record.new_game(
        STATE.store, game, listed, seed, parse_options(option or []), table=table
    )
    path = STATE.store.path(gid)
    if json:
        print_json(
            {
                "game": gid,
                "path": str(path),
                "ruleset": game,
                "players": listed,
                "seed": created.setup.meta.get("seed"),
            }
        )
        return
    out.print(Text(gid, style="bold"))
    made = say(
        "cli.new-game",
        "new {game} game for {players} → {path}",
        game=game,
        players=many(listed),
        path=str(path),
    )
    err.print(Text(messages.render(made), style="dim"))
    show, move, record_it = (f"gametape {w} {gid}" for w in ("show", "move", "record"))
    if table:
        then = say(
            "cli.next-record",
            "next: {record}   (type the moves as the table plays)",
            record=record_it,
        )
    else:
        then = say("cli.next-move", 'next: {show}   ·   {move} "…"', show=show, move=move)
    err.print(Text(messages.render(then), style="dim"))


@app.command()
@friendly_errors
def move(
    game_ref: GameArg,
    text: Annotated[str, typer.Argument(metavar="MOVE", help="The move in notation.")],
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who moves (default: whoever is to act, for turn-based games)."),
    ] = None,
    move_id: Annotated[
        str | None,
        typer.Option(
            "--id",
            help="An id for the move (8-64 letters, digits, - or _): sent again, it is "
            "recorded once and answered as the first time.",
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Record one move. An illegal move is refused with the rule it breaks; nothing is written.

    Moves are written in the game's notation: `gametape games` shows examples for each game,
    docs/notation.md has them all. Any game: `abandon`; `undo` takes back the last move (the
    log keeps it, marked as retracted). `?` lists the moves that are legal now.

    Example: `gametape move k3x9 "clue bob red"` · `gametape move k3x9 "play 2" --id a1b2c3d4`
    """
    log = read(game_ref)
    if text.strip() == "?":
        _legal(log, json)
        return
    if move_id is not None:
        record.check_move_id(move_id)
    try:
        done = record.record_move(STATE.store, log, text, by, move_id=move_id or "")
    except RuleViolation as exc:
        why = (
            say("cli.illegal-at", "illegal move (as seq {seq}): {why}", seq=exc.seq, why=exc.said)
            if exc.seq is not None
            else say("cli.illegal", "illegal move: {why}", why=exc.said)
        )
        fail(
            messages.render(why),
            hint=messages.render(
                say("cli.rule-nothing", "rule: {rule}; nothing was recorded", rule=exc.broken)
            ),
        )
    if done.again and not json:
        err.print(Text(done.again_said, style="dim"))
    if json:
        print_json(quick.move_json(done))
        return
    out.print(Text(done.description))
    status_line(done.game)
    err.print(Text(quick.recorded_where(done, log.path), style="dim"))


@app.command()
@friendly_errors
def show(
    game_ref: GameArg,
    at: Annotated[int | None, typer.Option("--at", help="Show the state after this seq.")] = None,
    as_player: Annotated[
        str | None, typer.Option("--as", help="Show only what this player can see.")
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Show a game's state, for everyone or as one player sees it.

    Example: `gametape show k3x9 --as bob --at 12`
    """
    log = read(game_ref)
    last = len(log.events) - 1
    if at is not None and not 0 <= at <= last:
        fail(no_seq(at, last), EXIT_USAGE)
    game = game_of(log, at)
    seat = seat_of(game, as_player)
    if json:
        print_json(position.shown(game, seat))
        return
    render(draw(position.board(game, seat, last=last)))
    if log.error is not None:
        err.print(Text.assemble((label("warning"), "yellow"), f" {log.error}"))


def _game_options(name: str, json: bool) -> None:
    """``games NAME``: the game's options (``-o key=value`` for ``new`` and ``simulate``)."""
    options = browse.game_options(name)
    if json:
        print_json_lines(msgspec.structs.asdict(o) for o in options)
        return
    if not options:
        none = say("cli.games-no-options", "{game} has no options", game=name)
        out.print(Text(messages.render(none)))
        return
    title = say("cli.games-options", "{game}: options (-o NAME=VALUE)", game=name)
    table = Table(title=Text(messages.render(title)), title_justify="left", box=None)
    for col in (
        say("cli.col-option", "option"),
        say("cli.col-type", "type"),
        say("cli.col-default", "default"),
        say("cli.col-what-it-does", "what it does"),
    ):
        table.add_column(messages.render(col))
    for o in options:
        kind = " | ".join(o.choices) if o.choices else o.type
        what = o.help
        if o.named is not None:
            names = say("cli.games-names-played", " ({played:,} of {named:,} names played: "
                        "`gametape games {game} {option}`)", played=o.played or 0, named=o.named,
                        game=name, option=o.name)  # fmt: skip
            what += messages.render(names)
        table.add_row(Text(o.name, style="bold"), Text(kind), Text(o.default or "-"), Text(what))
    render(table)


def _option_values(name: str, option: str, match: str, json: bool) -> None:
    """``games NAME OPTION``: every name the option takes, and why any is not played."""
    values = browse.option_values(name, option, match)
    if json:
        print_json_lines(msgspec.structs.asdict(v) for v in values)
        return
    played = sum(v.refused is None for v in values)
    for v in values:
        if v.refused is None:
            out.print(Text(v.name))
        else:
            needs = say("cli.games-not-played", "  (not played: needs {why})", why=v.refused)
            out.print(Text.assemble(v.name, (messages.render(needs), "dim")))
    n = len(values)
    said = (
        say("cli.games-names-containing", "{names} containing {match}; {played:,} played",
            names=count_of(n, "name"), match=repr(match), played=played)
        if match
        else say("cli.games-names", "{names}; {played:,} played", names=count_of(n, "name"),
                 played=played)
    )  # fmt: skip
    out.print(Text(messages.render(said)))


def _legal(log: Any, json: bool = False) -> None:
    """``move GAME ?``: what each seat to act may do now, as the recorder's ``?`` lists it;
    ``--json``: one object per seat, each move its words and, where it is known whole, its
    value (what ``move`` and a server's ``POST …/move`` take back)."""
    game = record.open_game(log)
    if json:
        print_json_lines(
            {"player": game.players[seat], "moves": record.moves_offered(game, seat, forms)}
            for seat, forms in record.move_forms(game).items()
        )
        return
    for line in quick.legal_lines(game):
        out.print(Text.assemble(*line))


@app.command("log")
@friendly_errors
def log_cmd(
    game_ref: GameArg,
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="Only what this player saw: secret moves as '(hidden)'."),
    ] = None,
    json: JsonOpt = False,
) -> None:
    """The move list in notation, one line per event, like a score sheet.

    Example: `gametape log k3x9` · `gametape log k3x9 --as bob`
    """
    from gametape.usecases.review import read_notes

    log = read(game_ref)
    notes, problems = read_notes(STATE.store, log.path)
    for problem in problems:
        err.print(Text.assemble((label("warning"), "yellow"), f" {problem}"))
    sheet = browse.sheet(log, notes, record.viewing_seat(game_of(log, 0), as_player))
    if json:
        print_json_lines(r.to_dict() for r in sheet.rows)
        return
    table = Table(
        title=Text(f"{sheet.ruleset} {sheet.game}: {', '.join(sheet.players)}"),
        title_justify="left",
        box=None,
    )
    columns: tuple[messages.Message | Term, ...] = (
        say("cli.col-seq", "seq"),
        Term("core.turn-word", sheet.turn_word),
        say("cli.col-player", "player"),
        say("cli.col-move", "move"),
        say("cli.col-what", "what happened"),
    )
    for at, col in enumerate(columns):
        table.add_column(messages.render(col), justify="right" if at < 2 else "left")
    for r in sheet.rows:
        if r.error is not None:
            table.add_row(
                str(r.seq), "", "", Text("invalid", style="red"), Text(r.error, style="red")
            )
        else:
            undone = r.undone_by is not None
            style = "dim strike" if undone else ""
            marks = " ".join(n["mark"] for n in r.notes if "mark" in n)
            table.add_row(
                str(r.seq),
                str(r.turn),
                Text(r.player or "", style=style),
                Text.assemble((r.move or "", style), (f" {marks}" if marks else "", "magenta")),
                Text.assemble(
                    (r.description or "", style),
                    (taken_back(r.undone_by) if undone else "", "yellow"),
                ),
            )
            for n in r.notes:
                if n["text"]:
                    about = f" ({n.get('named') or n['card']})" if "card" in n else ""
                    said = f"✎ {n['author']}{about}: {n['text']}"
                    table.add_row("", "", "", "", Text(said, style="italic cyan"))
    render(table)
    _tree(log)
    if sheet.read_problem is not None:
        err.print(Text.assemble((label("warning"), "yellow"), f" {sheet.read_problem}"))


@app.command()
@friendly_errors
def replay(
    game_ref: GameArg,
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="Replay from this player's seat: only what they could see."),
    ] = None,
    at: Annotated[int | None, typer.Option("--at", help="Print the frame at this seq.")] = None,
    all_frames: Annotated[bool, typer.Option("--all", help="Print every frame in order.")] = False,
    json: Annotated[
        bool, typer.Option("--json", help="Frames as JSON Lines (with --at: one frame).")
    ] = False,
) -> None:
    """Step through a game, move by move, for everyone or from one player's seat.

    On a terminal, opens the interactive viewer: → next, ← back, Home/End, `:` jump to a seq
    (or `t12` for turn 12), `k` pick a kind of event and `]`/`[` jump to the next/previous one,
    `s` the next seat's view, ↓ ↑ PgDn PgUp scroll a tall board
    (each game names its kinds: a strike, a round, a round end), `q` quit.
    A game still being recorded is followed live.

    Example: `gametape replay k3x9 --as bob` · `gametape replay k3x9 --at 17 --json`
    """
    from gametape.cli.frames import render_frame
    from gametape.usecases.replaying import Cursor
    from gametape.usecases.review import read_notes
    from gametape.usecases.store import Game

    log = STATE.store.resolve(game_ref)
    cursor = Cursor.open(log)
    seat = seat_of(Game.from_events(cursor.events[:1]), as_player)
    notes, problems = read_notes(STATE.store, log)
    for problem in problems:
        err.print(Text.assemble((label("warning"), "yellow"), f" {problem}"))
    if at is not None:
        frames = [cursor.frame(at, seat)]
    elif all_frames or json:
        frames = [cursor.frame(s, seat) for s in range(cursor.last + 1)]
    elif out.is_terminal:
        from gametape.cli.viewer import ReplayApp
        from gametape.usecases.branches import branch_tree

        def opener(gid: str) -> tuple[Any, Any]:
            found = STATE.store.path(gid)
            return Cursor.open(found), read_notes(STATE.store, found)[0]

        ReplayApp(cursor, seat, notes=notes, tree=branch_tree(STATE.store), opener=opener).run()
        return
    else:
        needs = say("cli.replay-needs-a-terminal", "the interactive replay needs a terminal; use "
                    "--at SEQ, --all or --json")  # fmt: skip
        fail(needs, EXIT_USAGE)
    if json:
        print_json_lines(frames)
    else:
        if seat is None and cursor.learned_later:
            err.print(Text(LEARNED_LATER, style="dim"))
        from gametape.usecases.branches import branches_of

        lines = branches_of(STATE.store, log)
        for frame in frames:
            render(render_frame(cursor, frame, notes))
            for b in (b for b in lines if b["at"] == frame.seq):
                said = say("cli.replay-branch", "↳ what if: branch {game} leaves here (gametape "
                           "replay {game})", game=b["game"])  # fmt: skip
                out.print(Text(messages.render(said), style="cyan"))
    if cursor.problem and (at is None or at == cursor.last):
        fail(say("cli.replay-stops", "the replay stops at seq {seq}: {problem}", seq=cursor.last,
                 problem=str(cursor.problem)))  # fmt: skip


@app.command("record")
@friendly_errors
def record_cmd(
    game_ref: Annotated[
        str | None,
        typer.Argument(
            metavar="[GAME]",
            help="The game (default: the last one changed that is still in progress).",
        ),
    ] = None,
    as_player: Annotated[
        str | None,
        typer.Option("--as", help="Show the board as this player sees it (default: everything)."),
    ] = None,
    keep_going: Annotated[
        bool,
        typer.Option(
            "--keep-going",
            help="Moves from a pipe: go on after a refused move (exit 1 at the end all the same).",
        ),
    ] = False,
) -> None:
    """Record a whole game at the table, move after move, at one prompt.

    The prompt says who is to act; Tab completes moves, players and cards; ↑ recalls earlier
    moves; `?` lists the legal moves; `undo` takes back the last one; `b` shows the board.
    A refused move is explained and nothing is recorded. Every accepted move is on disk
    before the prompt returns. Ctrl-D leaves; `gametape record GAME` resumes. Without a
    terminal, moves are read one per line from standard input, and the board is shown at the
    start and the end: the first refused line stops the recording with exit status 1, naming
    the line (`--keep-going` records the rest).

    Example: `gametape new hanabi -p ann,ben,cat --table` then `gametape record` and type
    `c ben r 13`, `p2 r1`, `d1 y4` ...
    """
    import sys

    from gametape.cli.recorder import PlainReader, Recorder, prompt_reader

    store = STATE.store
    path = store.resolve(game_ref) if game_ref is not None else browse.latest_in_progress(store)
    recording = record.Recording(store, path)
    seat = seat_of(recording.game, as_player)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        reader: Any = prompt_reader(history=browse.past_moves(recording.game))
    else:
        reader = PlainReader(sys.stdin, out)
    recorder = Recorder(
        recording,
        SafeConsole() if interactive else out,  # at a terminal, lines wrap between words
        reader,
        seat,
        stop_at_refusal=not (interactive or keep_going),
        boards=interactive,  # moves from a script: the board at the start and the end
    )
    if interactive:
        _follow_while(recorder, reader)
    else:
        recorder.run()
    if recorder.refused and not interactive:
        lines = many(recorder.refused[:10], ", ")
        gid = recording.game.setup.game or ""
        if keep_going:  # the other lines were recorded: only the refused ones are owed
            refused = say("cli.record-lines-refused", "standard input lines {lines} were "
                          "refused", lines=lines)  # fmt: skip
            if len(recorder.refused) == 1:
                refused = say("cli.record-line-refused", "standard input line {lines} was "
                              "refused", lines=lines)  # fmt: skip
            hint = say("cli.record-refused-kept", "every other line was recorded; enter the "
                       "refused ones again, fixed, with `gametape record {id}` (`gametape log` "
                       "shows where the game stands)", id=gid)  # fmt: skip
        else:
            refused = say("cli.record-line-stopped", "standard input line {line} was refused; "
                          "the lines after it were not read", line=recorder.refused[0])  # fmt: skip
            hint = say("cli.record-stopped-hint", "every move before it is recorded; fix the "
                       "line and run `gametape record {id}` again with the rest",
                       id=gid)  # fmt: skip
        fail(refused, hint=hint)


def taken_back(seq: int | None) -> str:
    """A score sheet's mark on a move an undo took back, as the pages say it."""
    return "  ↶ " + messages.render(script_message("web.js-undone-title", seq=seq or 0))


def _tree(log: Any) -> None:
    """Where a game stands among its branches: the game it was made from, and those made
    from it (each at its fork), as PGN shows variations."""
    from gametape.usecases.branches import branches_of, fork_of

    fork = fork_of(log.events[0]) if log.events else None
    if fork is not None:
        said = say("cli.log-fork", "a branch of {game} from seq {seq} (what if)",
                   game=str(fork.get("of")), seq=int(fork.get("at") or 0))  # fmt: skip
        out.print(Text(messages.render(said), style="cyan"))
    for b in branches_of(STATE.store, log.path):
        moves = b["events"] - 1 - b["at"]
        said = say("cli.log-branch", "  ├ seq {seq}: branch {game} ({moves} of its own)",
                   seq=b["at"], game=b["game"], moves=count_of(moves, "move"))  # fmt: skip
        out.print(Text(messages.render(said), style="cyan"))


def _follow_while(recorder: Any, reader: Any) -> None:
    """Run the interactive recorder while a thread shows the moves recorded elsewhere (another
    terminal, another phone) above the prompt, as they come."""
    import threading

    from prompt_toolkit.patch_stdout import patch_stdout

    stop = threading.Event()

    def told(moves: list[str]) -> None:
        for move in moves:
            elsewhere = messages.render(say("cli.record-elsewhere", "⇣ elsewhere:"))
            out.print(Text.assemble((elsewhere + " ", "cyan"), move))
        reader.refresh()

    def watch() -> None:
        try:
            recorder.recording.follow(stop, told, viewer=recorder.seat)
        except GametapeError as exc:  # the store went away: say so once, keep recording
            said = say("cli.record-not-following", "not following: {why}", why=exc.message)
            err.print(Text.assemble((label("warning"), "yellow"), " " + messages.render(said)))

    follower = threading.Thread(target=watch, name="follow", daemon=True)
    with patch_stdout(raw=True):
        follower.start()
        try:
            recorder.run()
        finally:
            stop.set()
    follower.join(2)


@app.command()
@friendly_errors
def games(
    name: Annotated[
        str | None, typer.Argument(help="One game: its options, each with type and default.")
    ] = None,
    option: Annotated[
        str | None,
        typer.Argument(help="One option of that game that takes names: every name it takes."),
    ] = None,
    match: Annotated[
        str, typer.Option("--match", help="Only the names containing this text (any case).")
    ] = "",
    json: JsonOpt = False,
) -> None:
    """The installed games: players, bots, how moves are written, options (`--json` for what
    each option means, each game's events, whether it can be recorded at a table, and its
    moves as values: a JSON Schema of each kind of move).

    Example: `gametape games` · `gametape games hanabi` · `gametape games hanabi variant
    --match rainbow`
    """
    if name is not None and option is not None:
        _option_values(name, option, match, json)
        return
    if name is not None:
        _game_options(name, json)
        return
    infos, problems = browse.installed_games()
    rows: list[dict[str, Any]] = [
        {
            "game": info.name,
            "players": list(info.players),
            "options": info.options,
            "bots": info.bots,
            "moves": info.moves,
            "events": info.events,
            "table": info.table,
            "move_schema": info.move_schema,
        }
        for info in infos
    ]
    for name, why in problems.items():  # every other game still works
        said = say("cli.games-plugin", "the game plug-in {name}: {why}", name=repr(name), why=why)
        err.print(Text.assemble((label("warning"), "yellow"), " " + messages.render(said)))
    if json:
        print_json_lines(rows)
        return
    table = Table(box=None)
    for col in ("game", "players", "bots", "moves", "options"):
        table.add_column(messages.render(Term("core.column", col)))
    for r in rows:
        lo, hi = r["players"]
        table.add_row(
            Text(r["game"], style="bold"),
            f"{lo}" if lo == hi else f"{lo}-{hi}",
            Text(", ".join(r["bots"])),
            Text("\n".join(r["moves"])),
            Text(", ".join(r["options"]) or "-"),
        )
    render(table)
