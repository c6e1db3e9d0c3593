"""Recording games in a store: start one, open one, record a move or take one back.

Every front-end records through ``record_move``, so every move gets the same checks: the log
must be whole and valid up to its end, the move must parse and be legal, any deal the table
then owes is drawn, and the append happens only if nobody else wrote first (expected seq).
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    import threading

from gametape.engine.fold import Fold, IllegalEvent
from gametape.engine.forms import MoveForm, next_words, starting
from gametape.engine.game import (
    Game,
    check_known,
    describe,
    is_undo,
    move_as_value,
    move_summary,
    notation,
    parse_move,
    undone_by,
)
from gametape.engine.moves import R_NAMES, names_problem
from gametape.engine.options import OptionError, read_options
from gametape.engine.registry import get_ruleset
from gametape.engine.ruleset import ONLOOKER, NotYourMove, RuleViolation
from gametape.errors import GametapeError, NotationError, UsageError
from gametape.events.base import Abandon, Event, Move, Retract, actor
from gametape.events.errors import StaleWrite
from gametape.events.log import LogRead, Source, read_log
from gametape.events.store import GameStore
from gametape.messages import Message, Seat, many, render, say, text_of
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
            say("core.options-invalid", "the options make no valid game: {why}",
                why=exc.violation.said)
        ) from None  # fmt: skip


def players_wanted(game: str, lo: int, hi: int, got: int) -> Message:
    """``game`` is played by ``lo`` to ``hi`` players, not ``got``."""
    if lo == hi:
        return say("core.players-exactly", "{game} needs exactly {n} players, got {got}",
                   game=game, n=lo, got=got)  # fmt: skip
    return say("core.players-between", "{game} needs {lo}-{hi} players, got {got}", game=game,
               lo=lo, hi=hi, got=got)  # fmt: skip


def check_names(names: Sequence[str], rules: Any) -> None:
    """Player names for a new game: the right count, and the names rule every log keeps."""
    lo, hi = rules.min_players, rules.max_players
    if not lo <= len(names) <= hi:
        raise UsageError(players_wanted(rules.name, lo, hi, len(names)))
    problem = names_problem(names)
    if problem is not None:
        raise UsageError(say("core.names", "{problem}: {rule}", problem=problem, rule=R_NAMES))


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """Game options written ``key=value`` (``first=0``); anything else, or one holding a
    control character (an ESC, say), is a usage error."""
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(say("core.option-not-key-value", "option {option} is not key=value",
                                 option=repr(item)))  # fmt: skip
        if has_control(item):
            raise UsageError(say("core.option-control", "option {option} holds a control "
                                 "character", option=repr(item)))  # fmt: skip
        options[key.strip()] = value.strip()
    return options


def split_options(text: str) -> list[str]:
    """``key=value`` items typed on one line: a new item starts where a word followed by
    ``=`` does, so a value may hold spaces and commas (``variant=Black & Rainbow (6 Suits),
    suits=red,blue`` is two items)."""
    return [item for item in re.split(r"[\s,]+(?=[A-Za-z_]\w*=)", text.strip()) if item]


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
            raise UsageError(say("core.table-no-seed", "a game dealt at the table has no seed: "
                                 "leave out --seed"))  # fmt: skip
        typed = read_options(rules.name, rules.options, options or {}, table=True)
        with options_checked():
            created = Game(Fold(rules, rules.table_setup(players, typed)))
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
        raise GametapeError(say("core.no-events", "the log holds no events"), path=read.path)
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


def scribes_view(game: Game, seat: int | None) -> int | None:
    """The seat a scribe's terminal shows ``game`` as (``record``): ``seat`` if one was asked
    for; else everything, but the table's view while a simultaneous step is under way (some
    seats have moved in it, the others not yet): a keyboard passed round the table shows the
    next player nobody's secret move."""
    if seat is None and game.fold.frame.moved and not game.is_over:
        return ONLOOKER
    return seat


def told_to(done: Recorded, seat: int | None) -> str:
    """What ``seat`` is told of the move ``done`` recorded (None: everything)."""
    game = done.game
    after = game.fold.states[done.first]
    return render(describe(game.ruleset, game.players, done.before, done.events[0], after, seat))


def viewing_seat(game: Game, name: str | None) -> int | None:
    """The seat to show ``game`` as: the one ``--as`` names (None: everyone), except that a
    seat's hypothesis is shown as that seat only (another is a usage error)."""
    forced = shown_as(game)
    asked = None if name is None else seat_of(game, name)
    if forced is not None and asked not in (None, forced):
        player = game.players[forced]
        raise UsageError(say("core.hypothesis-of", "this branch is {player}'s hypothesis: it is "
                             "shown only as {player} saw it", player=player))  # fmt: skip
    return forced if forced is not None else asked


RECORDER_WORDS = ("undo", "abandon", "?", "board", "quit")


def moves_offered(game: Game, seat: int, forms: Sequence[MoveForm]) -> list[dict[str, Any]]:
    """A seat's move forms for a script: each one's words (``text``), what the table must
    say for it (``note``), and its value where the form is a move known whole (``move``: its
    type and typed fields, as ``move`` takes it back; null for a form with blanks)."""
    offered = []
    for form in forms:
        if not form.shown:
            continue
        value = None
        if form.move is not None:  # the form carries its move: no need to read it again
            value = move_as_value(form.move)
        elif form.is_literal:
            with contextlib.suppress(GametapeError):
                value = move_as_value(game.parse(form.shown, seat))
        offered.append({"text": form.shown, "note": text_of(form.note), "move": value})
    return offered


def move_forms(game: Game, viewer: int | None = None) -> dict[int, list[MoveForm]]:
    """The shapes of move each seat to act can make now (a table game's say what the table
    must tell: a play needs its card), for a recorder's ``?`` and a page's buttons. As a
    ``viewer`` (a seat): that seat's own moves only, which depend on what it sees; the
    onlooker is offered none (which clues are legal tells which cards a hand holds)."""
    seats = [s for s in game.to_act() if viewer is None or s == viewer]
    return {seat: game.ruleset.move_forms(game.state, seat) for seat in seats}


def complete(game: Game, typed: str, viewer: int | None = None) -> list[str]:
    """The words that may follow ``typed`` in a move of a seat to act (after ``clue b``,
    the players starting with b), and a recorder's own words at the start of a line; as a
    ``viewer``, in that seat's own moves only."""
    forms = [f for fs in move_forms(game, viewer).values() for f in fs]
    offered = next_words(forms, typed)
    return offered + [w for w in starting(RECORDER_WORDS, typed) if w not in offered]


def chance_rng(game: Game) -> random.Random:
    """The generator for the deals owed now, seeded by the game's seed and the position: the
    moves still in effect, so taking a move back and making it again draws the same deal."""
    seed = game.setup.meta.get("seed")
    if seed is None:
        return random.Random()
    return random.Random(f"{seed}:{len(game.fold.live)}")


class IdTaken(StaleWrite):
    """A move id already recorded, sent with another move (or by another sender)."""


MOVE_ID = re.compile(r"[A-Za-z0-9_-]{8,64}\Z")


def check_move_id(move_id: str) -> str:
    """A move id as a sender writes it: 8-64 letters, digits, ``-`` or ``_``."""
    if not MOVE_ID.match(move_id):
        raise UsageError(say("core.move-id", "the move id {id} is not 8-64 letters, digits, - "
                             "or _", id=repr(move_id[:80])))  # fmt: skip
    return move_id


class Recorded(msgspec.Struct):
    """What ``record_move`` appended: the events (the move, then any deal) from ``first``.
    ``again``: a retry of a move recorded before (by its move id): nothing new was written;
    ``taken_back``: the seq of the undo that has since taken that move back (None: none)."""

    game: Game
    first: int
    events: list[Event]
    before: Any
    description: str
    again: bool = False
    taken_back: int | None = None

    @property
    def next_seq(self) -> int:
        """The game's next seq now (after a retry: past whatever came since the move)."""
        return len(self.game.events)

    @property
    def again_said(self) -> str:
        """What a retry is told: its move was recorded already (and, if so, taken back)."""
        if self.taken_back is not None:
            return render(say("core.again-taken-back", "this move id was recorded already, as "
                              "seq {seq}, and taken back at seq {back}", seq=self.first,
                              back=self.taken_back))  # fmt: skip
        return render(say("core.again", "this move id was recorded already, as seq {seq}",
                          seq=self.first))  # fmt: skip

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
    *,
    viewer: int | None = None,
    move_id: str = "",
) -> Recorded:
    """Apply ``text`` (or ``undo``) to ``game`` in memory, with any deal the table then owes.
    ``allow`` sees each event parsed (or retraction) before it is applied, and may refuse
    it by raising. ``viewer`` is who sent it (a seat, ONLOOKER for a host's page; None: a
    recorder who sees everything): the move is checked against what the viewer can see
    before the rules consult anything hidden, and described as the viewer sees it.
    ``move_id`` is kept with the move. Raises NotationError or RuleViolation (naming the seq
    the move would have had), and then ``game`` is unchanged."""
    seat = None if by is None else seat_of(game, by)
    before = game.state
    expected = len(game.events)
    if is_undo(text):
        if allow is not None:  # may this sender undo at all: asked before the rules are
            allow(game, Retract(seq=0, player=seat))
        events: list[Event] = list(game.undo(seat))
        if move_id:
            events[0] = msgspec.structs.replace(events[0], move_id=move_id)
        if allow is not None:
            for retraction in events:
                allow(game, retraction)
        for retraction in events:
            game.push(retraction)
        description = took_back(game.fold, events)
    else:
        event = game.parse(text, seat)
        if move_id:
            event = msgspec.structs.replace(event, move_id=move_id)
        try:
            if allow is not None:
                allow(game, event)
            mover = actor(event)
            if seat is not None and mover is not None and mover != seat:
                # whatever the notation (a JSON move names its player): the sender's own
                raise NotYourMove(Seat(mover, game.players[mover]), Seat(seat, game.players[seat]))
            try:
                check_known(game.ruleset, before, event, viewer)
            except RuleViolation as exc:
                exc.locate(game.fold.live)  # a refusal naming earlier events: by their seqs
                raise
            game.push(event)
        except RuleViolation as exc:
            exc.seq = expected  # the seq the move would have had
            raise
        told = viewer if viewer is not None else shown_as(game)
        description = render(
            describe(game.ruleset, game.players, before, event, game.state, seat=told)
        )
        events = [event, *game.deal(chance_rng(game))]
    return Recorded(
        game=game, first=expected, events=events, before=before, description=description
    )


def record_move(
    store: GameStore,
    read: LogRead,
    text: str,
    by: str | None = None,
    *,
    viewer: int | None = None,
    move_id: str = "",
) -> Recorded:
    """Parse ``text`` (or ``undo``) for the game in ``read`` and append it to that very file,
    with any deal the table then owes. A ``move_id`` already in the log gives that move's
    answer again (``again``), writing nothing. Raises NotationError, RuleViolation,
    StaleWrite; then nothing is written."""
    game = open_game(read)
    if move_id:
        first = recorded_ids(game.events).get(move_id)
        if first is not None:
            return _again(game, first, text, by, viewer)
    done = play(game, text, by, viewer=viewer, move_id=move_id)
    store.append_to(read.path, done.events, expected_seq=done.first)
    return done


def took_back(fold: Fold, events: Sequence[Event]) -> str:
    """What an undo's retractions took back, as its answer says it."""
    taken = [
        say("core.took-back-one", "seq {seq} ({move})", seq=r.seq, move=move_summary(fold, r.seq))
        for r in events
        if isinstance(r, Retract)
    ]
    return render(say("core.took-back-these", "took back {moves}", moves=many(taken)))


def resumed_at(game: Game) -> int | None:
    """The last seq of a game some player has moved in (a recorder resumes there), else None
    (only the setup and the deal)."""
    moved = any(actor(e) is not None for e in game.events[1:])
    return len(game.events) - 1 if moved else None


def recorded_ids(events: Sequence[Event]) -> dict[str, int]:
    """The seq of each move id in a log (its first event: a move, or an undo's first
    retraction)."""
    return {e.move_id: seq for seq, e in enumerate(events) if e.move_id}


def _again(game: Game, first: int, text: str, by: str | None, viewer: int | None) -> Recorded:
    """The answer to a retry of the move recorded at ``first`` with the same id: the same
    answer, as ``viewer`` sees it, if it is the same move by the same sender; else refused."""
    fold = game.fold
    event, before = fold.events[first], fold.states[first - 1]
    seat = None if by is None else seat_of(game, by)
    undo = is_undo(text)
    same = isinstance(event, Retract) if undo else not isinstance(event, Retract)
    if same and not undo:
        try:  # read as the first time (``abandon`` included), in the position it was made in
            again = parse_move(game.ruleset, before, text, seat)
        except GametapeError:
            again = None
        same = again is not None and again == msgspec.structs.replace(event, move_id="")
    if not same or (seat is not None and actor(event) not in (seat, None)):
        raise IdTaken(
            say("core.id-taken", "this page's move was recorded already, as seq {seq}",
                seq=first),
            hint=say("core.id-taken-hint", "nothing was recorded; look at the game and send "
                     "your move again"),
            seq=first,
        )  # fmt: skip
    events = [event]
    for e in fold.events[first + 1 :]:
        if actor(e) is not None and not isinstance(e, Retract):
            break
        if isinstance(e, Retract) != isinstance(event, Retract):
            break
        events.append(e)
    told = viewer if viewer is not None else shown_as(game)
    after = fold.states[first]
    if isinstance(event, Retract):
        description = took_back(fold, events)
    else:
        description = render(describe(game.ruleset, game.players, before, event, after, seat=told))
    return Recorded(
        game=game, first=first, events=events, before=before, description=description,
        again=True, taken_back=undone_by(game.events).get(first),
    )  # fmt: skip


APPEND_TRIES = 50  # a move judged again this often while other writers keep appending first


class Recording:
    """A game being recorded move after move (the interactive recorder's model).

    The game stays folded in memory; each accepted move is appended (fsync) before ``move``
    returns. If another writer got there first, the game is read again from disk.
    """

    def __init__(self, store: GameStore, path: Path | Source) -> None:
        self.store = store
        self.path = path
        import threading  # here: a command that records one move needs no lock

        self.lock = threading.Lock()  # a move, or a reload by ``follow``, at a time
        self.reload()

    def __repr__(self) -> str:
        return f"<Recording {self.path.name}: {len(self.game.events)} events>"

    def reload(self) -> None:
        self.game = open_game(read_log(self.path))
        self.ids = recorded_ids(self.game.events)  # move ids, kept in the log itself

    def move(
        self,
        text: str,
        by: str | None = None,
        allow: Callable[[Game, Event], None] | None = None,
        expected: int | None = None,
        *,
        viewer: int | None = None,
        move_id: str = "",
    ) -> Recorded:
        """Record one move (or ``undo``); it is on disk when this returns. ``allow`` may
        refuse the parsed move before it is applied (see ``play``). ``expected``: the seq
        the move was made for; if the game has moved on, StaleWrite and nothing is parsed,
        unless everything recorded since is another seat's move in the simultaneous step
        the sender (``by``) is still to move in: such moves commute. A ``move_id`` already
        recorded gets that move's answer again (``again``), and nothing is written."""
        with self.lock:
            if expected is not None and expected > len(self.game.events):
                self.reload()  # the page saw more than this process has read (another server)
            for _ in range(APPEND_TRIES):
                try:
                    return self._move(text, by, allow, expected, viewer, move_id)
                except StaleWrite as exc:
                    if isinstance(exc, IdTaken) or not exc.by_store or expected is None:
                        raise  # a move made without its seq is never judged on another
                    # Another writer (another server on the same store) appended first, and
                    # _move read the game again: judge the move again on what the store
                    # holds now. The store's own expected-seq check makes each judgement and
                    # its append one step.
            raise StaleWrite(
                say("core.stale-moving", "the move was made for seq {seq}, and the game kept "
                    "moving meanwhile", seq=expected or 0),
                path=self.path,
                seq=expected,
            )  # fmt: skip

    def _move(
        self,
        text: str,
        by: str | None,
        allow: Callable[[Game, Event], None] | None,
        expected: int | None,
        viewer: int | None,
        move_id: str,
    ) -> Recorded:
        """One try of ``move``, on the game as this process last read it."""
        if move_id and move_id in self.ids:
            return _again(self.game, self.ids[move_id], text, by, viewer)
        events = len(self.game.events)
        if (
            expected is not None
            and expected != events
            and not self._commutes(expected, by)
            and not self._out_of_turn(expected, by, text)
        ):
            raise StaleWrite(
                say("core.stale-recorded", "the move was made for seq {seq}, which was recorded "
                    "meanwhile", seq=expected),
                path=self.path,
                seq=expected,
            )  # fmt: skip
        try:
            done = play(self.game, text, by, allow, viewer=viewer, move_id=move_id)
        except GametapeError:
            if len(self.game.events) != events:  # a deal or retraction half-applied
                self.reload()
            raise
        try:
            self.store.append_to(self.path, done.events, expected_seq=done.first)
        except StaleWrite as exc:
            self.reload()  # the store is the truth: never show a move it does not hold
            exc.by_store = True
            raise
        except BaseException:
            self.reload()
            raise
        if move_id:
            self.ids[move_id] = done.first
        return done

    def _commutes(self, expected: int, by: str | None) -> bool:
        """Whether a move by ``by`` sent at seq ``expected`` commutes with everything since."""
        if by is None or expected > len(self.game.events):
            return False
        try:
            seat = seat_of(self.game, by)
        except GametapeError:
            return False
        return self.game.fold.independent(expected, seat)

    def _out_of_turn(self, expected: int, by: str | None, text: str) -> bool:
        """Whether ``text`` is a move its sender may make whenever they like (a hand entered
        at a table, ``Ruleset.anytime``), sent at seq ``expected`` while only other seats
        moved: it does not depend on their moves, so it is judged now as if sent now."""
        if by is None or not 0 < expected <= len(self.game.events):
            return False
        try:
            seat = seat_of(self.game, by)
            event = self.game.parse(text, seat)
        except GametapeError:
            return False
        if not self.game.ruleset.anytime(self.game.state, event):
            return False
        return all(
            (isinstance(e, Move) and e.player != seat)  # another seat's move, or a deal
            or (actor(e) is None and not isinstance(e, Retract | Abandon))
            for e in self.game.events[expected:]
        )

    def follow(
        self,
        stop: threading.Event,
        told: Callable[[list[str]], None],
        every: float = 0.5,
        viewer: int | None = None,
    ) -> None:
        """Until ``stop`` is set, watch the store for moves recorded elsewhere (another
        terminal, another phone): when some come, read the game again and ``told`` their
        descriptions, as ``viewer`` sees them. The store says when (PostgreSQL notifies; a
        file is looked at)."""
        while not stop.is_set():
            seen = len(self.game.events) - 1
            if not self.store.wait(self.path, seen, timeout=every):
                continue
            with self.lock:
                if len(self.game.events) - 1 != seen:
                    continue  # our own move, recorded meanwhile
                self.reload()
                game, states = self.game, self.game.fold.states
                seat = viewer if viewer is not None else shown_as(game)
                new = [
                    render(
                        describe(
                            game.ruleset,
                            game.players,
                            states[s - 1],
                            game.events[s],
                            states[s],
                            seat,
                        )
                    )
                    for s in range(seen + 1, len(game.events))
                ]
            if new:
                told(new)
