"""Looking at games: the installed games, a game's score sheet, the game to resume, a position.

Every front-end lists, shows and resumes games through these, so the CLI and a web server
give the same answers (the same seat lookup, the same "latest game", the same rows).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from gametape.engine.fold import IllegalEvent, iter_states, start
from gametape.engine.game import Game, describe, notation, redact, undone_by
from gametape.engine.registry import all_rulesets, get_ruleset, names, problems
from gametape.engine.ruleset import move_schema
from gametape.errors import UsageError
from gametape.events.base import actor
from gametape.events.log import LogRead, Source, read_log
from gametape.events.notes import Annotation
from gametape.events.store import GameStore
from gametape.messages import many, render, say
from gametape.usecases.check import validate_path
from gametape.usecases.record import open_game


class GameInfo(msgspec.Struct, frozen=True):
    """One installed game, as ``gametape games`` lists it."""

    name: str
    players: tuple[int, int]
    options: dict[str, str]
    bots: list[str]
    moves: list[str]
    # the game declared (engine.ruleset.Declaration): its event types, whether it can be
    # recorded at a table, what it hides, its words for outcomes and turns, and its moves
    # as values (a JSON Schema of each kind of move and its typed fields)
    events: list[str]
    table: bool
    secrecy: str
    cooperative: bool
    outcomes: list[str]
    turn_word: str
    move_schema: dict[str, Any]


def installed_games() -> tuple[list[GameInfo], dict[str, str]]:
    """Every usable game, and the plug-ins that cannot be used (by name, with why)."""
    games = [
        GameInfo(
            name=rules.name,
            players=(rules.min_players, rules.max_players),
            options=dict(rules.options_help),
            bots=list(rules.bots),
            moves=list(rules.move_examples),
            events=[str(e.__struct_config__.tag) for e in rules.events],
            table=rules.table,
            secrecy=rules.secrecy,
            cooperative=rules.cooperative,
            outcomes=list(rules.outcomes),
            turn_word=rules.turn_word,
            move_schema=move_schema(rules),
        )
        for rules in all_rulesets()
    ]
    return games, problems()


class OptionInfo(msgspec.Struct, frozen=True):
    """One option of a game, as `gametape games NAME` and the new-game form list it."""

    name: str
    type: str
    default: str | None
    choices: list[str]
    help: str
    named: int | None = None  # an option of named values: how many names there are
    played: int | None = None  # ... and how many of them the game plays


def game_options(name: str) -> list[OptionInfo]:
    """The options the game ``name`` declares (UnknownGame for another name)."""
    from gametape.engine.options import shown

    infos = []
    for o in get_ruleset(name).options:
        listed = o.catalogue() if o.catalogue else None
        infos.append(
            OptionInfo(
                name=o.name,
                type=o.type_name,
                default=None if o.default is None else shown(o.default),
                choices=[shown(c) for c in o.choices],
                help=render(o.help),
                named=None if listed is None else len(listed),
                played=None if listed is None else sum(why is None for _, why in listed),
            )
        )
    return infos


class NamedValue(msgspec.Struct, frozen=True):
    """One name an option takes, and why the game does not play it (None: it does)."""

    name: str
    refused: str | None = None


def option_values(game: str, option: str, match: str = "") -> list[NamedValue]:
    """The names the option ``option`` of ``game`` takes that contain ``match`` (any case).
    UsageError for an option without a list of names."""
    found = next((o for o in get_ruleset(game).options if o.name == option), None)
    if found is None or found.catalogue is None:
        listed = [o.name for o in get_ruleset(game).options if o.catalogue]
        raise UsageError(
            say("core.option-no-names-try", "{game} has no option {option} with a list of names; "
                "try {options}", game=game, option=repr(option), options=many(listed))
            if listed
            else say("core.option-no-names", "{game} has no option {option} with a list of names",
                     game=game, option=repr(option))
        )  # fmt: skip
    needle = match.casefold()
    return [NamedValue(name, why) for name, why in found.catalogue() if needle in name.casefold()]


def check_game_name(name: str) -> None:
    """UnknownGame (a usage error) unless ``name`` is an installed, usable game."""
    get_ruleset(name)


def turn_word(game: str | None) -> str:
    """What a game's turn count counts ("turn" or "round"); "turn" for an unknown game."""
    return get_ruleset(game).turn_word if game in names() else "turn"


class SheetRow(msgspec.Struct):
    """One line of a score sheet: an event in notation and what it changed (or the problem
    that stops the sheet there)."""

    seq: int
    turn: int | None = None
    player: str | None = None
    move: str | None = None
    description: str | None = None
    error: str | None = None
    undone_by: int | None = None  # the seq of the undo that took this move back
    notes: list[dict[str, Any]] = msgspec.field(default_factory=list)  # those still in effect

    def to_dict(self) -> dict[str, Any]:
        if self.error is not None:
            return {"seq": self.seq, "error": self.error}
        row: dict[str, Any] = {
            "seq": self.seq,
            "turn": self.turn,
            "player": self.player,
            "move": self.move,
            "description": self.description,
        }
        if self.undone_by is not None:
            row["undone_by"] = self.undone_by
        if self.notes:
            row["notes"] = self.notes
        return row


class Sheet(msgspec.Struct):
    """A game's score sheet: its rows, who played, and a read problem after the last row."""

    ruleset: str
    game: str
    players: tuple[str, ...]
    turn_word: str
    rows: list[SheetRow] = msgspec.field(default_factory=list)
    read_problem: str | None = None


def read(store: GameStore, ref: str) -> LogRead:
    """The log of the game named by id, unique prefix or path."""
    return read_log(store.resolve(ref))


def game_of(log: LogRead, upto: int | None = None) -> Game:
    """The game a read log holds (up to seq ``upto``); a damaged log stops at its last good
    line."""
    return open_game(log, upto, whole=False)


def sheet(log: LogRead, notes: list[Annotation] | None = None, seat: int | None = None) -> Sheet:
    """The score sheet of a read log: every event in notation, until the first illegal one,
    as ``seat`` saw it (None: everything); with ``notes`` (gametape.usecases.review), each
    row carries those on it still in effect."""
    game = game_of(log, 0)
    rules = game.ruleset
    out = Sheet(
        ruleset=rules.name,
        game=game.setup.game,
        players=game.players,
        turn_word=rules.turn_word,
        read_problem=str(log.error) if log.error is not None else None,
    )
    fold = start(rules, log.events)
    try:
        for seq, event, before, after in fold.walk(log.events[1:]):
            who = actor(event)
            out.rows.append(
                SheetRow(
                    seq=seq,
                    turn=fold.turn_of(seq),
                    player=game.players[who] if who is not None else None,
                    move=seen_notation(rules, before, event, seat),
                    description=render(
                        describe(rules, game.players, before, event, after, seat=seat, fold=fold)
                    ),
                )
            )
    except IllegalEvent as exc:
        out.rows.append(SheetRow(seq=exc.seq or 0, error=str(exc.violation)))
    for taken, by in undone_by(fold.events).items():
        out.rows[taken - 1].undone_by = by
    for a in notes or ():
        on = a.note.seq
        if a.retracted_by is None and on is not None and 1 <= on <= len(out.rows):
            note = {"n": a.n, "author": a.note.author, "text": a.note.text}
            note |= {k: v for k, v in (("mark", a.note.mark), ("card", a.note.card)) if v}
            if a.note.named:
                note["named"] = a.note.named
            out.rows[on - 1].notes.append(note)
    return out


def seen_notation(rules: Any, before: Any, event: Any, seat: int | None) -> str:
    """An event in notation as ``seat`` saw it: ``(hidden)`` when they only saw that it was
    made."""
    seen = redact(rules, before, event, seat)
    return "(hidden)" if seen is None else notation(rules, before, seen)


def first_moves(game: Game, count: int) -> Iterator[tuple[int, str]]:
    """(seq, what changed) for the first ``count`` events of a game."""
    rules = game.ruleset
    for seq, event, before, after in iter_states(rules, game.events):
        if seq > count:
            return
        yield seq, render(describe(rules, game.players, before, event, after))


def latest_in_progress(store: GameStore) -> Path | Source:
    """The log changed last among the games still in progress (looking at the 50 most
    recently changed); a usage error if there is none."""
    store.require()
    for path in store.recent(50):
        if validate_path(path).status == "in_progress":
            return path
    none = say("core.none-in-progress", "no game in progress in the store; name one, or start "
               "one with `gametape new GAME --players ... --table`")  # fmt: skip
    raise UsageError(none)


def past_moves(game: Game) -> list[str]:
    """The moves still in effect, in notation (a recorder's history)."""
    rules = game.ruleset
    return [notation(rules, game.fold.states[s - 1], game.events[s]) for s in game.fold.live]
