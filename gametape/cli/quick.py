"""The commands typed most, answered without typer or rich (docs/benchmarks.md: start-up).

``run`` takes ``show GAME [--as NAME] [--at SEQ]``, ``move GAME MOVE [--by NAME] [--id ID]``
and ``list``, each with ``--json``, after an optional ``--store``: the forms a person or a
script types most. It returns None for any other argv (``--help``, an option it does not know,
a value typer would refuse) and wherever the command has something to refuse or explain (no
such game, an illegal move, a board too wide to lay out here): typer then runs the command as
always and says it. A move is handed over only when nothing was written. What it prints is
what the typer command prints, character for character (tests/test_quick.py runs both).

The text it prints is built by the functions here, which the typer commands use too.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from gametape.cli.drawing import Line, Table, lay_out, text_of

__all__ = ["Table", "print_json", "print_json_lines", "run"]

FORMS: dict[str, tuple[int, dict[str, type]]] = {
    "show": (1, {"--as": str, "--at": int, "--json": bool}),
    "move": (2, {"--by": str, "--id": str, "--json": bool}),
    "list": (0, {"--json": bool}),
}
STATUS_COLOURS = {"finished": "green", "in_progress": "yellow", "invalid": "red"}


def parse(argv: Sequence[str]) -> tuple[str | None, str, list[str], dict[str, Any]] | None:
    """(store, command, arguments, options) of one of FORMS as typer reads it, or None."""
    words = list(argv)
    store = None
    while words and words[0].startswith("--store"):
        first = words.pop(0)
        if first == "--store" and words:
            store = words.pop(0)
        elif first.startswith("--store="):
            store = first.removeprefix("--store=")
        else:
            return None
    if not words or words[0] not in FORMS or (store is not None and not store.strip()):
        return None
    command, rest = words[0], words[1:]
    count, known = FORMS[command]
    args: list[str] = []
    options: dict[str, Any] = {}
    while rest:
        word = rest.pop(0)
        if not word.startswith("-") or word == "-":
            args.append(word)
            continue
        name, eq, value = word.partition("=")
        kind = known.get(name)
        if kind is None or name in options:
            return None  # --help, --, a short option, an unknown or a repeated one
        if kind is bool:
            if eq:
                return None
            options[name] = True
            continue
        if not eq:
            if not rest:
                return None
            value = rest.pop(0)
        if kind is int:
            # typer says why a number is no number, or too long for one (int() refuses
            # more than 4,300 digits with a ValueError)
            if not value.isascii() or not value.lstrip("-").isdigit() or len(value) > 19:
                return None
            options[name] = int(value)
        else:
            options[name] = value
    if len(args) != count:
        return None
    return store, command, args, options


def width() -> int:
    """The terminal's width as rich finds it: $COLUMNS, else the first of standard input,
    output and error that is a terminal, else 80."""
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for fd in (0, 1, 2):
        try:
            return os.get_terminal_size(fd).columns or 80
        except (AttributeError, ValueError, OSError):
            continue
    return 80


def colour(stream: TextIO) -> bool | None:
    """Whether rich would colour ``stream``: a terminal gets colours; None where rich reads a
    setting this module does not (NO_COLOR, FORCE_COLOR, a dumb terminal)."""
    if any(k in os.environ for k in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE")):
        return None
    if not stream.isatty():
        return False
    return None if os.environ.get("TERM", "") in ("dumb", "unknown", "") else True


def label(kind: str) -> str:
    """``error:`` or ``warning:``, heading a line, in the reader's language."""
    from gametape.messages import render, say

    labels = {"error": say("cli.error", "error:"), "warning": say("cli.warning", "warning:")}
    return render(labels[kind])


def status_word(status: str) -> str:
    """A game's status (``in_progress``) in the reader's language."""
    from gametape.messages import Term, render

    return render(Term("core.status", status.replace("_", " ")))


def no_games(store: str) -> str:
    """``no games in STORE``, in the reader's language."""
    from gametape.messages import render, say

    return render(say("cli.no-games-in", "no games in {store}", store=store))


def legal_lines(game: Any) -> list[Line]:
    """``move GAME ?``: what each seat to act may do now, at most 40 moves a seat, as the
    recorder's ``?`` lists them."""
    from gametape.messages import count_of, render, say
    from gametape.usecases import record

    if game.is_over:
        over = say(
            "cli.no-legal-move", "the game is over: no move is legal (undo takes the last one back)"
        )
        return [[(render(over), "")]]
    lines: list[Line] = []
    for seat, forms in record.move_forms(game).items():
        listed = [f.shown for f in forms if f.shown]
        moves = count_of(len(listed), "move")
        said = say("cli.legal-moves", "{player}: {moves}", player=game.players[seat], moves=moves)
        lines.append([(render(said), "bold")])
        lines += [[(f"  {shown}", "")] for shown in listed[:40]]
        if len(listed) > 40:
            more = say("cli.legal-more", "… and {n} more", n=len(listed) - 40)
            lines.append([(f"  {render(more)}", "dim")])
    return lines


def status(game: Any) -> Line:
    """The line under a move: the end of the game, or whose turn it is."""
    from gametape import results
    from gametape.messages import render, say

    if game.is_over:
        over = render(say("core.game-over-status", "game over"))
        return [
            (over, "bold"),
            (f": {results.result_line(game.players, game.result(), game.ruleset.name)}", ""),
        ]
    from gametape.usecases.position import to_act_said

    return [(render(to_act_said(game)), "")]


def reports_table(reports: Sequence[Any], listing: bool = False) -> Table:
    """Validation reports as the table ``validate`` and ``list`` print; ``listing`` adds when
    each game was last played and who played it. In the reader's language: its columns, a
    status, an outcome, the turn."""
    from gametape.messages import Term, many, render, say
    from gametape.usecases.browse import turn_word

    game, ruleset = say("cli.col-game", "game"), say("cli.col-ruleset", "ruleset")
    columns = (
        [
            game,
            ruleset,
            say("cli.col-last-played", "last played"),
            say("cli.col-players", "players"),
        ]
        if listing
        else [game, ruleset]
    )
    rows = []
    for r in reports:
        if r.result:
            scores = r.result.scores
            shown = str(scores[0]) if len(set(scores)) == 1 else "/".join(map(str, scores))
            outcome = Term(f"{r.ruleset}.outcome", r.result.outcome)
            said = say("cli.outcome-scores", "{outcome} {scores}", outcome=outcome, scores=shown)
            if r.winners:
                said = say(
                    "cli.outcome-won",
                    "{outcome} · {winners} won",
                    outcome=said,
                    winners=many(r.winners, ", "),
                )
            result = render(said)
        elif r.problem:
            result = str(r.problem)
        else:
            unit = Term("core.turn-word", turn_word(r.ruleset))
            result = render(say("core.turn-now", "{unit} {turn}", unit=unit, turn=r.turn))
        cells = [r.game or Path(r.file).stem, r.ruleset or "?"]
        if listing:
            cells += [f"{r.last[:10]} {r.last[11:16]}" if r.last else "", ", ".join(r.players)]
        row: list[Line] = [[(c, "")] for c in cells]
        row += [
            [(status_word(r.status), STATUS_COLOURS[r.status])],
            [(str(r.events), "")],
            [(result, "")],
        ]
        rows.append(row)
    status = say("cli.col-status", "status")
    heads = [*columns, status, say("cli.col-events", "events"), say("cli.col-result", "result")]
    return Table([render(h) for h in heads], rows)


def counts_line(reports: Sequence[Any]) -> str:
    from gametape.messages import render, say

    counts = Counter(r.status for r in reports)
    return render(
        say(
            "cli.counts",
            "{games} games: {finished} finished, {going} in progress, {invalid} invalid",
            games=len(reports),
            finished=counts["finished"],
            going=counts["in_progress"],
            invalid=counts["invalid"],
        )
    )


def lines_of_table(table: Table, terminal: bool) -> list[Line] | None:
    """The table's lines: at the terminal's width on a terminal (None: too wide, rich wraps
    it), else at its own width (a pipe has no width: a game is one line)."""
    return lay_out(table, width() if terminal else 1 << 30)


def print_json(obj: Any) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")


def print_json_lines(items: Iterable[Any]) -> None:
    import msgspec

    enc = msgspec.json.Encoder()
    for item in items:
        sys.stdout.write(enc.encode(item).decode() + "\n")


def _say(stream: TextIO, line: Line, paint: bool) -> None:
    stream.write(text_of([line], paint))


def run(argv: Sequence[str]) -> int | None:
    """Run one of FORMS; its exit status, or None for typer to run it."""
    form = parse(argv)
    if form is None:
        return None
    out, err = colour(sys.stdout), colour(sys.stderr)
    if out is None or err is None:
        return None
    store_spec, command, args, options = form
    try:
        from gametape.usecases.store import default_store, open_store

        spec = store_spec or os.environ.get("GAMETAPE_STORE") or default_store()
        store = open_store(spec)
        if command == "show":
            return _show(store, args[0], options, out, err)
        if command == "list":
            return _list(store, options, out)
    except Exception:  # anything to refuse or explain: typer runs it and says it
        return None
    return _move(store, args, options, out, err)


def _show(
    store: Any, ref: str, options: dict[str, Any], paint: bool, paint_err: bool
) -> int | None:
    from gametape.usecases import browse, position, record

    log = browse.read(store, ref)
    last = len(log.events) - 1
    at = options.get("--at")
    if at is not None and not 0 <= at <= last:
        return None
    game = browse.game_of(log, at)
    seat = record.viewing_seat(game, options.get("--as"))
    if options.get("--json"):
        print_json(position.shown(game, seat))
        return 0
    from gametape.cli.board import drawing

    lines = lay_out(drawing(position.board(game, seat, last=last)), width())
    if lines is None:
        return None
    sys.stdout.write(text_of(lines, paint))
    if log.error is not None:
        _say(sys.stderr, [(label("warning"), "yellow"), (f" {log.error}", "")], paint_err)
    return 0


def _list(store: Any, options: dict[str, Any], paint: bool) -> int | None:
    from gametape.usecases.check import validate_store

    if len(store.require().game_ids()) > 20 and sys.stderr.isatty():
        return None  # validated with a progress bar
    reports = list(validate_store(store, 0))
    if options.get("--json"):
        print_json_lines(reports)
        return 0
    if not reports:
        _say(sys.stdout, [(no_games(store.name), "")], paint)
        return 0
    lines = lines_of_table(reports_table(reports, listing=True), paint)
    if lines is None:
        return None
    sys.stdout.write(text_of(lines, paint))
    _say(sys.stdout, [(counts_line(reports), "")], paint)
    return 0


def _move(
    store: Any, args: list[str], options: dict[str, Any], paint: bool, paint_err: bool
) -> int | None:
    ref, text = args
    by, move_id, json = options.get("--by"), options.get("--id"), options.get("--json")
    try:
        from gametape.usecases import browse, record

        log = browse.read(store, ref)
        if text.strip() == "?":
            if json:
                return None
            lines = legal_lines(record.open_game(log))
            if max(map(len, (t for line in lines for t, _ in line))) > width():
                return None  # rich wraps a line longer than the terminal
            sys.stdout.write(text_of(lines, paint))
            return 0
        if move_id is not None:
            record.check_move_id(move_id)
        done = record.record_move(store, log, text, by, move_id=move_id or "")
    except Exception:  # refused, so nothing was written: typer runs it and says why
        return None
    game = done.game
    if done.again and not json:
        _say(
            sys.stderr,
            [(done.again_said, "dim")],
            paint_err,
        )
    if json:
        print_json(move_json(done))
        return 0
    _say(sys.stdout, [(done.description, "")], paint)
    _say(sys.stdout, status(game), paint)
    _say(sys.stderr, [(recorded_where(done, log.path), "dim")], paint_err)
    return 0


def move_json(done: Any) -> dict[str, Any]:
    """``move --json``'s answer for a move recorded (``record.Recorded``)."""
    game = done.game
    if done.retracted:
        return {"retracted": done.retracted, "over": game.is_over}
    said = {
        "seq": done.last,
        "move": done.move,
        "description": done.description,
        "over": game.is_over,
        "result": game.result(),
    }
    if done.taken_back is not None:  # a retry of a move taken back since
        said["taken_back"] = done.taken_back
    return said


def recorded_where(done: Any, path: object) -> str:
    """The line ``move`` ends with: where the move was recorded."""
    from gametape.messages import render, say

    if done.retracted:
        return render(
            say(
                "cli.recorded-retracted",
                "recorded in {path} (the log keeps the retracted moves)",
                path=str(path),
            )
        )
    return render(
        say("cli.recorded", "recorded as seq {seq} in {path}", seq=done.first, path=str(path))
    )
