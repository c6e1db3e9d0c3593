"""Recording games in a store: start one, open one, record a move or take one back.

Every front-end records through ``record_move``, so every move gets the same checks: the log
must be whole and valid up to its end, the move must parse and be legal, any deal the table
then owes is drawn, and the append happens only if nobody else wrote first (expected seq).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gametape.engine.fold import Fold, IllegalEvent
from gametape.engine.forms import MoveForm, next_words
from gametape.engine.game import UNDO_WORDS, Game, describe, move_summary, notation
from gametape.engine.moves import R_NAMES, names_problem
from gametape.engine.registry import get_ruleset
from gametape.engine.ruleset import NotationError, OptionError, RuleViolation
from gametape.errors import GametapeError, UsageError
from gametape.events.base import Event, Retract
from gametape.events.errors import StaleWrite
from gametape.events.log import LogRead, Source, read_log
from gametape.events.store import GameStore
from gametape.text import has_control


@contextmanager
def options_checked() -> Iterator[None]:
    """Options that make a setup the rules refuse are a usage error, not invalid data."""
    try:
        yield
    except IllegalEvent as exc:
        if exc.seq:
            raise
        raise OptionError(
            f"the options make no valid game: {exc.violation.message}",
        ) from None


def check_names(names: Sequence[str], rules: Any) -> None:
    """Player names for a new game: the right count, and the names rule every log keeps."""
    lo, hi = rules.min_players, rules.max_players
    if not lo <= len(names) <= hi:
        wanted = f"exactly {lo}" if lo == hi else f"{lo}-{hi}"
        raise UsageError(f"{rules.name} needs {wanted} players, got {len(names)}")
    problem = names_problem(names)
    if problem is not None:
        raise UsageError(f"{problem}: {R_NAMES}")
    quoted = next((n for n in names if '"' in n), None)
    if quoted is not None:  # a move names a player, and a name with spaces is quoted with "
        raise UsageError(f'the player name {quoted!r} has a ": a move could not name them')


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """Game options written ``key=value`` (``first=0``); anything else, or one holding a
    control character (an ESC, say), is a usage error."""
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"option {item!r} is not key=value")
        if has_control(item):
            raise UsageError(f"option {item!r} holds a control character")
        options[key.strip()] = value.strip()
    return options


def new_game(
    store: GameStore,
    game: str,
    players: Sequence[str],
    seed: int | None = None,
    options: Mapping[str, str] | None = None,
    *,
    table: bool = False,
) -> tuple[str, Game]:
    """Create a game and return its id and game. Chance is drawn from ``seed`` (kept as
    metadata); with ``table`` the deal happened at a real table and nothing of it is known."""
    rules = get_ruleset(game)
    check_names(players, rules)
    if table:
        if seed is not None:
            raise UsageError("a game dealt at the table has no seed: leave out --seed")
        with options_checked():
            created = Game(Fold(rules, rules.table_setup(players, options or {})))
        created.deal(random.Random(0))  # a table game's chance events carry no draw
        gid = store.create(created.setup, created.events[1:])
        return gid, created
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    with options_checked():
        created = Game.create(rules, players, random.Random(seed), options or {}, seed=seed)
    gid = store.create(created.setup, created.events[1:])
    return gid, created


def open_game(read: LogRead, upto: int | None = None, *, whole: bool = True) -> Game:
    """The game a read log holds (up to seq ``upto``). A damaged log raises its read error
    (unless ``whole`` is False: then the game stops at its last good line); an invalid one
    raises IllegalEvent naming the file, line and seq."""
    if read.error is not None and (whole or not read.events):
        raise read.error
    events = read.events if upto is None else read.events[: upto + 1]
    if not events:
        raise GametapeError("the log holds no events", path=read.path)
    try:
        return Game.from_events(events)
    except GametapeError as exc:
        exc.path = exc.path or read.path
        if exc.seq is not None and exc.line is None:
            exc.line = exc.seq + 1
        exc.hint = "the log is invalid from there; `gametape validate` reports every game"
        raise


def seat_of(game: Game, name: str) -> int:
    """The seat of the player ``name`` (a name, a unique prefix or a seat number) named in an
    option such as ``--by`` or ``--as``: an unknown one is a usage error listing the players."""
    try:
        return game.seat(name)
    except NotationError as exc:
        raise UsageError(exc.message) from None


BRANCH_AS = "branch_as"  # a branch that is one seat's hypothesis (gametape.usecases.branches)


def shown_as(game: Game) -> int | None:
    """The seat a game is only ever shown as: a branch made ``--as`` that seat, whose cards
    the seat could not see stay hidden, as in hanab.live's hidden-hand hypotheticals."""
    name = game.setup.meta.get(BRANCH_AS)
    return game.players.index(name) if isinstance(name, str) and name in game.players else None


def viewing_seat(game: Game, name: str | None) -> int | None:
    """The seat to show ``game`` as: the one ``--as`` names (None: everyone), except that a
    seat's hypothesis is shown as that seat only (another is a usage error)."""
    forced = shown_as(game)
    asked = None if name is None else seat_of(game, name)
    if forced is not None and asked not in (None, forced):
        raise UsageError(
            f"this branch is {game.players[forced]}'s hypothesis: it is shown only as "
            f"{game.players[forced]} saw it"
        )
    return forced if forced is not None else asked


RECORDER_WORDS = ("undo", "abandon", "?", "board", "quit")


def move_forms(game: Game) -> dict[int, list[MoveForm]]:
    """The shapes of move each seat to act can make now (a table game's say what the table
    must tell: a play needs its card), for a recorder's ``?`` and a page's buttons."""
    return {seat: game.ruleset.move_forms(game.state, seat) for seat in game.to_act()}


def complete(game: Game, typed: str) -> list[str]:
    """The words that may follow ``typed`` in a move of a seat to act (after ``clue b``,
    the players starting with b), and a recorder's own words at the start of a line."""
    forms = [f for fs in move_forms(game).values() for f in fs]
    offered = next_words(forms, typed)
    if " " not in typed.strip():
        key = typed.strip().casefold()
        offered += [w for w in RECORDER_WORDS if w.startswith(key) and w not in offered]
    return offered


def chance_rng(game: Game) -> random.Random:
    """The generator for the deals owed now, seeded by the game's seed and the position: the
    moves still in effect, so taking a move back and making it again draws the same deal."""
    seed = game.setup.meta.get("seed")
    if seed is None:
        return random.Random()
    return random.Random(f"{seed}:{len(game.fold.live)}")


@dataclass
class Recorded:
    """What ``record_move`` appended: the events (the move, then any deal) from ``first``."""

    game: Game
    first: int
    events: list[Event]
    before: Any
    description: str

    @property
    def last(self) -> int:
        return self.first + len(self.events) - 1

    @property
    def retracted(self) -> list[int]:
        return [e.seq for e in self.events if isinstance(e, Retract)]

    @property
    def move(self) -> str:
        return notation(self.game.ruleset, self.before, self.events[0])


def play(
    game: Game,
    text: str,
    by: str | None = None,
    allow: Callable[[Game, Event], None] | None = None,
) -> Recorded:
    """Apply ``text`` (or ``undo``) to ``game`` in memory, with any deal the table then owes.
    ``allow`` sees each event parsed (or retraction) before it is applied, and may refuse
    it by raising. Raises NotationError or RuleViolation (naming the seq the move would have
    had), and then ``game`` is unchanged."""
    seat = None if by is None else seat_of(game, by)
    before = game.state
    expected = len(game.events)
    if text.strip().lower() in UNDO_WORDS:
        events: list[Event] = list(game.undo(seat))
        if allow is not None:
            for retraction in events:
                allow(game, retraction)
        for retraction in events:
            game.push(retraction)
        description = "took back " + ", ".join(
            f"seq {r.seq} ({move_summary(game.fold, r.seq)})"  # type: ignore[attr-defined]
            for r in events
        )
    else:
        event = game.parse(text, seat)
        if allow is not None:
            allow(game, event)
        try:
            game.push(event)
        except RuleViolation as exc:
            exc.seq = expected  # the seq the move would have had
            raise
        description = describe(
            game.ruleset, game.players, before, event, game.state, seat=shown_as(game)
        )
        events = [event, *game.deal(chance_rng(game))]
    return Recorded(
        game=game, first=expected, events=events, before=before, description=description
    )


def record_move(store: GameStore, read: LogRead, text: str, by: str | None = None) -> Recorded:
    """Parse ``text`` (or ``undo``) for the game in ``read`` and append it to that very file,
    with any deal the table then owes. Raises NotationError, RuleViolation, StaleWrite; then
    nothing is written."""
    done = play(open_game(read), text, by)
    store.append_to(read.path, done.events, expected_seq=done.first)
    return done


class Recording:
    """A game being recorded move after move (the interactive recorder's model).

    The game stays folded in memory; each accepted move is appended (fsync) before ``move``
    returns. If another writer got there first, the game is read again from disk.
    """

    def __init__(self, store: GameStore, path: Path | Source) -> None:
        self.store = store
        self.path = path
        self.game = open_game(read_log(path))
        self.lock = threading.Lock()  # a move, or a reload by ``follow``, at a time

    def __repr__(self) -> str:
        return f"<Recording {self.path.name}: {len(self.game.events)} events>"

    def reload(self) -> None:
        self.game = open_game(read_log(self.path))

    def move(
        self,
        text: str,
        by: str | None = None,
        allow: Callable[[Game, Event], None] | None = None,
        expected: int | None = None,
    ) -> Recorded:
        """Record one move (or ``undo``); it is on disk when this returns. ``allow`` may
        refuse the parsed move before it is applied (see ``play``). ``expected``: the seq
        the move was made for; if the game has moved on, StaleWrite and nothing is parsed."""
        with self.lock:
            events = len(self.game.events)
            if expected is not None and expected != events:
                raise StaleWrite(
                    f"the move was made for seq {expected}, which was recorded meanwhile",
                    path=self.path,
                    seq=expected,
                )
            try:
                done = play(self.game, text, by, allow)
            except GametapeError:
                if len(self.game.events) != events:  # a deal or retraction half-applied
                    self.reload()
                raise
            try:
                self.store.append_to(self.path, done.events, expected_seq=done.first)
            except GametapeError:
                self.reload()  # nothing was written; the store is the truth
                raise
            return done

    def follow(
        self, stop: threading.Event, told: Callable[[list[str]], None], every: float = 0.5
    ) -> None:
        """Until ``stop`` is set, watch the store for moves recorded elsewhere (another
        terminal, another phone): when some come, read the game again and ``told`` their
        descriptions. The store says when (PostgreSQL notifies; a file is looked at)."""
        while not stop.is_set():
            seen = len(self.game.events) - 1
            if not self.store.wait(self.path, seen, timeout=every):
                continue
            with self.lock:
                if len(self.game.events) - 1 != seen:
                    continue  # our own move, recorded meanwhile
                self.reload()
                game, states, seat = self.game, self.game.fold.states, shown_as(self.game)
                new = [
                    describe(
                        game.ruleset, game.players, states[s - 1], game.events[s], states[s], seat
                    )
                    for s in range(seen + 1, len(game.events))
                ]
            if new:
                told(new)
