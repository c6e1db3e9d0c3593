"""Reviewing a game: notes on moves and cards (docs/review.md)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from gametape import messages
from gametape.cli.common import STATE, GameArg, JsonOpt
from gametape.cli.output import err, friendly_errors, label, out, print_json, render
from gametape.errors import UsageError
from gametape.messages import Term, say, text_of
from gametape.usecases import position

app = typer.Typer()


@app.command()
@friendly_errors
def note(
    game_ref: GameArg,
    seq: Annotated[
        int | None, typer.Argument(metavar="SEQ", help="The event the note is about.")
    ] = None,
    text: Annotated[str, typer.Argument(metavar="[TEXT]", help="What to say (quote it).")] = "",
    mark: Annotated[
        str | None,
        typer.Option("--mark", "-m", help="A move mark, as PGN's: !! ! !? ?! ? ??"),
    ] = None,
    card: Annotated[
        str | None,
        typer.Option(
            "--card",
            help='The card the note is about: where it lies ("alice 3": her third card from '
            "the left, as `show --at SEQ` draws it), or its number in the deck.",
        ),
    ] = None,
    by: Annotated[
        str | None,
        typer.Option("--by", help="Who says it (default: $GAMETAPE_AUTHOR, else your login)."),
    ] = None,
    retract: Annotated[
        int | None, typer.Option("--retract", help="Take back the note with this number.")
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Write a note on a move (and a mark: `!` good, `?` a mistake, as in PGN), or on a card
    (`--card "ben 3"`: what a player believed it was). Notes go in the game's notes, beside its
    log (which never changes); `--retract N` takes note N back, keeping it in the history.
    `gametape notes GAME` lists them; `log`, `replay` and the HTML replay show them.

    Example: `gametape note k3x9 17 "here we lost the last red 5" --mark ?` ·
    `gametape note k3x9 12 "ben thought this was a 2" --card "ben 3"` ·
    `gametape note k3x9 --retract 2`
    """
    from gametape.usecases import review

    if retract is not None:
        if seq is not None or text or mark or card:
            raise UsageError(say("cli.note-retract-alone", "--retract N takes back a note: say "
                                 "nothing else"))  # fmt: skip
        done = review.retract_note(STATE.store, game_ref, retract, by)
        if json:
            print_json({"retracted": done.n, "seq": done.note.seq})
        else:
            said = say("cli.note-took-back", "took back note {n} (on seq {seq})", n=done.n,
                       seq=done.note.seq or 0)  # fmt: skip
            out.print(Text(text_of(said)))
        return
    if seq is None:
        raise UsageError(say("cli.note-which", 'say which event: gametape note GAME SEQ "text"'))
    made = review.add_note(STATE.store, game_ref, seq, text, mark, card, by)
    if json:
        import msgspec

        print_json({"n": made.n, **msgspec.to_builtins(made.note)})
        return
    said = say("cli.note-made", "note {n} on seq {seq} by {author}", n=made.n, seq=seq,
               author=made.note.author)  # fmt: skip
    out.print(Text(text_of(said)))


@app.command()
@friendly_errors
def branch(
    game_ref: GameArg,
    at: Annotated[int, typer.Option("--at", help="Branch from the state after this seq.")],
    as_player: Annotated[
        str | None,
        typer.Option(
            "--as", help="This player's hypothesis: shown only as they saw it, hidden cards hidden."
        ),
    ] = None,
    json: JsonOpt = False,
) -> None:
    """Make a "what if" game: a new game that starts from this one's state after seq AT
    and goes on with any legal moves (`move`, `record`). Cards still in the deck come in
    the same order as in the real game; a game dealt at a table keeps its unknown cards
    unknown. `log` lists a game's branches; `validate` checks each against its parent;
    the read model has `parent_game` and `fork_seq` (docs/review.md). `--as NAME` makes it
    NAME's hypothesis: every command shows it only as NAME saw it, so the cards NAME could
    not see stay hidden (as hanab.live's hidden-hand hypotheticals).

    Example: `gametape branch k3x9 --at 17` then `gametape move NEW "play 3"` ·
    `gametape branch k3x9 --at 17 --as ben`
    """
    from gametape.usecases.branches import branch as make

    gid, game = make(STATE.store, game_ref, at, as_player)
    of = str(game.setup.meta["branch_of"])
    if json:
        print_json({"game": gid, "of": of, "at": at})
        return
    out.print(gid)
    path = str(STATE.store.path(gid))
    made = (
        say("cli.branch-over", "a branch of {game} from seq {seq} (over) → {path}", game=of,
            seq=at, path=path)
        if game.is_over
        else say("cli.branch-made", "a branch of {game} from seq {seq} ({turn}) → {path}",
                 game=of, seq=at, turn=position.turn_now(game), path=path)
    )  # fmt: skip
    err.print(Text(text_of(made), style="dim"))
    if not game.is_over:
        then = say("cli.branch-next", 'next: {move} "…"', move=f"gametape move {gid}")
        err.print(Text(text_of(then), style="dim"))


@app.command()
@friendly_errors
def notes(game_ref: GameArg, json: JsonOpt = False) -> None:
    """List a game's notes: number, seq, author, mark, card and text; a note taken back is
    struck out (`--json`: one object per note, `retracted_by` set).

    Example: `gametape notes k3x9`
    """
    from gametape.usecases import review

    log = STATE.store.resolve(game_ref)
    found, problems = review.read_notes(STATE.store, log)
    for problem in problems:
        err.print(Text.assemble((label("warning"), "yellow"), f" {problem}"))
    if json:
        import msgspec

        for a in found:
            print_json({"n": a.n, **msgspec.to_builtins(a.note), "retracted_by": a.retracted_by})
        return
    if not found:
        none = say("cli.notes-none", 'no notes on {game} yet (gametape note {game} SEQ "text")',
                   game=log.stem)  # fmt: skip
        out.print(Text(text_of(none)))
        return
    table = Table(box=None, header_style="bold")
    for column in ("note", "seq", "by", "mark", "card", "text"):
        heading = messages.render(Term("core.column", column))
        table.add_column(heading, justify="right" if column in ("note", "seq") else "left")
    for a in found:
        style = "dim strike" if a.retracted_by is not None else ""
        n = a.note
        table.add_row(
            str(a.n),
            str(n.seq),
            Text(n.author, style=style),
            Text(n.mark or "", style=style),
            Text(n.named or (n.card or "").removeprefix("card "), style=style),
            Text(n.text, style=style),
        )
    render(table)
