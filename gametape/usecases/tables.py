"""Games at a table of phones (``gametape serve``): what each link sees and may record.

A ``Tables`` keeps each game a link opened folded in memory (a ``Recording``), so a page or a
move costs no fold; a watcher notices moves recorded elsewhere (the CLI, another server on a
PostgreSQL store) and reads the game again. What a link sees is its seat's view, or the
onlooker's for the host and spectators (``Access.viewer``): hidden cards are removed here,
before anything is sent. What a link may record is checked after the move is parsed and
before it is applied, so a refusal says nothing of what the rules would have said.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from gametape.engine.game import Game, check_known, is_public
from gametape.engine.ruleset import ONLOOKER, NotKnown
from gametape.errors import NOTHING_RECORDED, GametapeError, MachineError, NotationError, UsageError
from gametape.events.base import Abandon, Event, Retract, actor
from gametape.events.errors import StaleWrite
from gametape.events.log import Source, read_log
from gametape.events.store import GameStore, Store
from gametape.messages import Message, Param, say, seat_of
from gametape.usecases import rooms
from gametape.usecases.links import (
    HOST,
    SEAT,
    Access,
    Issued,
    LinkNotFound,
    derived,
    issue,
    open_link,
)
from gametape.usecases.live import Versioned
from gametape.usecases.position import Position, position
from gametape.usecases.record import IdTaken, Recorded, Recording, new_game
from gametape.usecases.rooms import Room

__all__ = ["MovedOn", "NotYours", "NotationError", "StaleWrite", "Tables", "replay_page"]

IDLE = 600.0  # seconds: a game no page follows and no link opens is let go of (read again
# from the store when a link opens it)


class MovedOn(GametapeError):
    """The move was made for a position the table has left (another phone was first)."""

    def __init__(self, seq: int) -> None:
        super().__init__(
            say("web.moved-on", "the table moved on: the last move is seq {seq} now", seq=seq),
            hint=say("web.moved-on-hint", "nothing was recorded; look at the new position and "
                     "send your move again"),
        )  # fmt: skip
        self.now = seq


class NotYours(GametapeError):
    """A link asked to record a move that is not its to record; ``said`` says why, as a
    message."""

    def __init__(self, said: Message, hint: Message | None = None) -> None:
        self.said = said
        super().__init__(said, hint=hint or NOTHING_RECORDED)


class Table(Versioned):
    """One game held open for its links: its recording, and its version, which grows each
    time the game changes (a page's live stream wakes up)."""

    def __init__(self, store: GameStore, log: Path | Source) -> None:
        super().__init__()
        self.recording = Recording(store, log)
        self.log = log
        self.size = _size(log)
        self.used = time.monotonic()  # when a link last opened it

    @property
    def game(self) -> Game:
        return self.recording.game

    @property
    def seq(self) -> int:
        """The next event's seq: how far the game has gone (a page's stream says it)."""
        return len(self.recording.game.events)


def _size(log: Path | Source) -> int:
    """A file log's size (an append only makes it longer); -1 for a log in a database."""
    if isinstance(log, Path):
        try:
            return os.stat(log).st_size
        except OSError:
            return -1
    return -1


class _Serialized:
    """A store one thread at a time (a database connection is shared by the server's
    threads; a file store needs no such care and is not wrapped)."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._lock = threading.RLock()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._store, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            with self._lock:
                return attr(*args, **kwargs)

        return call


class Tables:
    """The games a server has open, by id; ``watch`` keeps them in step with the store."""

    def __init__(self, store: GameStore, idle: float = IDLE, lead_timeout: float = 60.0) -> None:
        self.store: GameStore = store if isinstance(store, Store) else _Serialized(store)
        self._open: dict[str, Table] = {}
        self._lock = threading.Lock()
        self.closing = False  # the server is stopping: live streams end
        self.idle = idle
        self.rooms: dict[str, Room] = {}  # review rooms, by their main game
        self.lead_timeout = lead_timeout

    def close(self) -> None:
        """Tell every live stream the server is stopping, so each ends at once (a phone
        reconnects to the next server) instead of being cut off."""
        self.closing = True
        for followed in [*self._open.values(), *self.rooms.values()]:
            followed.tell()

    # --- links ------------------------------------------------------------------------

    def start(
        self,
        ruleset: str,
        players: Sequence[str],
        *,
        table: bool = False,
        options: dict[str, str] | None = None,
    ) -> tuple[str, list[Issued]]:
        """A new game and its links (shown once: the store keeps only their hashes)."""
        gid, game = new_game(self.store, ruleset, players, options=options, table=table)
        return gid, issue(self.store, self.store.path(gid), game.players)

    def links(self, ref: str) -> tuple[str, str, list[Issued]]:
        """New links to a game already in the store (``gametape serve --links GAME``): its
        id, its ruleset's name and the links."""
        log = self.store.resolve(ref)
        home = self.store.path(log.stem)
        if isinstance(log, Path) and isinstance(home, Path) and log.resolve() != home.resolve():
            # a link opens a game of this store by its id: a file elsewhere gets none
            raise UsageError(say("web.not-of-this-store", "{ref} is not a game of this store: "
                                 "name a game by its id", ref=ref))  # fmt: skip
        game = Game.from_events(read_log(log).events)
        return log.stem, game.ruleset.name, issue(self.store, log, game.players)

    def open(self, game: str, token: str) -> tuple[Table, Access]:
        """The table and role ``token`` opens (LinkNotFound for anything else)."""
        log, access = open_link(self.store, game, token)
        with self._lock:
            table = self._open.get(game)
            if table is None:
                try:
                    table = Table(self.store, log)
                except MachineError:
                    raise  # the store is away: a 503 that says so
                except GametapeError:
                    raise LinkNotFound() from None
                self._open[game] = table
            table.used = time.monotonic()
        if access.seat is not None and not 0 <= access.seat < len(table.game.players):
            raise LinkNotFound()
        return table, access

    # --- what a link sees ---------------------------------------------------------------

    def position(self, table: Table, access: Access) -> Position:
        """The game now, as ``access`` sees it: nothing its viewer cannot see is in it."""
        with table.recording.lock:
            game = table.game
            return _position(game, access)

    def named(self, table: Table, access: Access) -> tuple[str, str]:
        """The game's ruleset, and who ``access`` is in words (``ann``, ``the host``, ``a
        spectator``): a link's home-screen name."""
        game = table.game
        return game.ruleset.name, rooms.label_of(access, tuple(game.players))

    def host_links(self, table: Table, access: Access, token: str) -> tuple[str, list[Issued]]:
        """The game's ruleset and its links, derived again from the host's ``token``; for
        the host's own link alone (LinkNotFound for any other, as for a link not there)."""
        if access.role != HOST or not access.derives:
            raise LinkNotFound()
        game = table.game
        return game.ruleset.name, derived(token, game.players)

    # --- recording ----------------------------------------------------------------------

    def move(
        self,
        table: Table,
        access: Access,
        text: str,
        expected: int,
        by: str | None = None,
        move_id: str = "",
    ) -> Recorded:
        """Record ``text`` from ``access``'s page, made at seq ``expected`` (a move that
        commutes with everything since is made all the same: another seat's move in the
        same simultaneous step). ``move_id``: the page's id for the move; a retry with it
        gets the first answer. Raises MovedOn (the game is past it), NotYours,
        NotationError, RuleViolation or StaleWrite."""
        if not access.records:
            raise NotYours(
                say("web.spectator-records-nothing", "a spectator's link records nothing")
            )
        rec = table.recording
        if access.role == SEAT:
            assert access.seat is not None
            by = rec.game.players[access.seat]
        try:
            done = rec.move(
                text, by, _allow(access), expected=expected, viewer=access.viewer,
                move_id=move_id,
            )  # fmt: skip
        except IdTaken:
            raise
        except StaleWrite:
            table.changed()
            raise MovedOn(len(rec.game.events) - 1) from None
        except NotationError:
            _whose(rec.game, access, text)  # another seat's move says so, not "bad notation"
            raise
        table.size = _size(table.log)
        table.changed()
        return done

    # --- following the store ------------------------------------------------------------

    def refresh(self) -> int:
        """Read again each open game that grew in the store behind the server's back (the
        CLI, another server); return how many did."""
        looked: list[tuple[Table, int]] = []
        for table in list(self._open.values()):
            if isinstance(table.log, Path):  # a file that kept its size did not grow
                size = _size(table.log)
                if size == table.size:
                    continue
                table.size = size
            looked.append((table, len(table.game.events) - 1))
        if not looked:
            return 0
        try:
            heads = self.store.heads([table.log for table, _ in looked])  # one query
        except GametapeError:
            return 0  # the store is away for now: the next look tries again
        grown = 0
        for table, seen in looked:
            if heads.get(table.log.stem, -1) <= seen:
                continue
            rec = table.recording
            try:
                with rec.lock:
                    if len(rec.game.events) - 1 != seen:
                        continue  # moved meanwhile, by this server: it knows
                    rec.reload()
            except GametapeError:
                continue  # a log that does not read now: looked at again next time
            table.changed()
            grown += 1
        return grown

    def forget_idle(self) -> int:
        """Let go of the games no page follows and no link opened for ``idle`` seconds (a
        link opens one again from the store); return how many."""
        now = time.monotonic()
        with self._lock:
            idle = [g for g, t in self._open.items() if not t.followed and now - t.used > self.idle]
            for game in idle:
                del self._open[game]
        return len(idle)

    def watch(self, stop: threading.Event, every: float = 0.2) -> None:
        """Until ``stop`` is set, ``refresh`` every ``every`` seconds, let go of idle
        games, and tell each review room whose leader has been gone long enough."""
        while not stop.wait(every):
            self.refresh()
            self.forget_idle()
            for room in list(self.rooms.values()):
                room.tick()

    # --- review rooms (gametape.usecases.rooms) ---------------------------------------------

    def open_room(self, table: Table, access: Access) -> Room:
        """The review room of ``access``'s game: the host's link opens it, any link joins
        it (or any room of a finished game)."""
        with self._lock:
            room = self.rooms.get(access.game)
            rooms.may_enter(access, table.game.is_over, room is not None)
            if room is None:
                last = len(table.game.events) - 1
                room = self.rooms[access.game] = Room(access.game, last, self.lead_timeout)
        return room

    def enter(self, table: Table, access: Access, member: str) -> Room:
        """The room, entered by the page ``member`` (the first page in it leads)."""
        room = self.open_room(table, access)
        room.member(member, access, rooms.label_of(access, table.game.players))
        return room

    def line(self, room: Room, game: str) -> Table:
        """One of a room's lines (its game, or a branch made in it), held open."""
        if game not in room.lines:
            raise LinkNotFound()
        with self._lock:
            table = self._open.get(game)
            if table is None:
                table = self._open[game] = Table(self.store, self.store.resolve(game))
            table.used = time.monotonic()
        return table

    def snapshot(self, room: Room, member: str) -> rooms.Snapshot:
        line = self.line(room, room.game)
        with line.recording.lock:
            last = len(line.game.events) - 1
        return room.snapshot(member, last, rooms.notes_of(self.store, line.log))

    def review_page(self, room: Room, access: Access, panel: dict[str, str]) -> str:
        """The replay of the room's line now, as ``access`` sees it, with the room's panel."""
        from gametape.replay.cursor import Cursor
        from gametape.replay.html import page

        line = self.line(room, room.game)
        with line.recording.lock:
            events = list(line.game.events)
        return page(
            Cursor(events, line.log), access.viewer, assets="/static",
            room={**panel, "game": room.game},
        )  # fmt: skip

    def review_step(self, room: Room, member: str, game: str, seq: int) -> None:
        """The leader goes to ``seq`` of ``game``; going to another line keeps the seq where
        that line has it (a branch's first moves are its game's)."""
        line = self.line(room, game)
        with line.recording.lock:
            last = len(line.game.events) - 1
        room.step(member, game, min(seq, last) if game != room.game else seq, last)

    def review_branch(self, room: Room, member: str) -> str:
        """The leader's "what if": a branch of the room's line at its seq (an ordinary
        branch, `gametape branch`), which the room then shows."""
        from gametape.usecases.branches import branch

        room.must_lead(member)
        gid, _ = branch(self.store, room.game, room.seq)
        room.branched(member, gid)
        return gid

    def review_move(
        self, room: Room, access: Access, member: str, text: str, move_id: str = ""
    ) -> Recorded:
        """A move in the room's branch: the leader any seat's, a seat its own."""
        if room.game == room.main:
            raise NotYours(
                say(
                    "web.review-branch",
                    "moves in a review go into a branch: start one (what if) at this seq",
                ),
                hint=say(
                    "web.review-branch-hint", "the game itself is recorded from its own pages"
                ),
            )
        line = self.line(room, room.game)
        rec = line.recording
        by = (
            rec.game.players[access.seat]
            if access.role == SEAT and access.seat is not None
            else None
        )
        allow = rooms.allow_in_branch(access, room.leader == member)
        with rec.lock:
            expected = len(rec.game.events)  # the seq the move will have
        try:
            done = rec.move(
                text, by, allow, expected=expected, viewer=access.viewer, move_id=move_id
            )
        except StaleWrite:
            line.changed()
            raise MovedOn(len(rec.game.events) - 1) from None
        line.size = _size(line.log)
        line.changed()
        room.moved(room.game, done.last)
        return done

    def review_note(
        self,
        room: Room,
        access: Access,
        member: str,
        seq: int,
        text: str,
        mark: str | None,
        card: str | None = None,
    ) -> None:
        """A note by a page of the room on a move of the room's line (and on a card, named
        by its holder and place, ``ann 3``), kept with its author."""
        from gametape.usecases.review import add_note

        if card is not None and card.strip().isdigit():
            raise UsageError(say("web.review-card", "in a review a card is named by its holder and "
                                 "place: ann 3"))  # fmt: skip
        who = room.members[member].label
        add_note(self.store, room.game, seq, text, mark, card, by=who)
        room.changed()


def replay_page(table: Table, access: Access, assets: str) -> str:
    """The game's HTML replay as ``access`` sees it (its seat's, or the table's), its style
    and script linked from ``assets``."""
    from gametape.replay.cursor import Cursor
    from gametape.replay.html import page

    with table.recording.lock:
        events = list(table.game.events)
    return page(Cursor(events, table.log), access.viewer, assets=assets)


def _allow(access: Access) -> Callable[[Game, Event], None]:
    """What ``access`` may record: a seat its own moves; the host any public move (one every
    seat and the onlooker see whole), an undo and an abandon. A seat's secret (a Hanamikoji
    assignment, an Ohanami pick) is entered on that seat's page only."""

    def allow(game: Game, event: Event) -> None:
        players = game.players
        if access.role == HOST:
            if isinstance(event, Retract | Abandon):
                return
            who = actor(event)
            if not is_public(game.ruleset, game.state, event):
                raise NotYours(
                    say(
                        "web.secret-on-own-page",
                        "a secret move is entered on {player}'s own page, not the host's",
                        player=seat_of(players, who),
                    )
                    if who is not None
                    else say(
                        "web.secret-on-a-seat-page",
                        "a secret move is entered on a seat's page, not the host's",
                    )
                )
            try:  # a move whose legality the host's page cannot see is entered by a seat
                check_known(game.ruleset, game.state, event, ONLOOKER)
            except NotKnown as exc:
                raise NotYours(exc.said) from None
            return
        if isinstance(event, Retract | Abandon):
            raise NotYours(
                say(
                    "web.undo-on-host-page",
                    "{player}'s page records {player}'s moves; undo and abandon are on the "
                    "host's page",
                    player=_seat(players, access.seat),
                )
            )
        if actor(event) != access.seat:
            raise _only_own(players, access.seat)

    return allow


def _only_own(players: Sequence[str], seat: int | None) -> NotYours:
    return NotYours(
        say(
            "web.own-moves-only",
            "{player}'s page records {player}'s moves only",
            player=_seat(players, seat),
        )
    )


def _seat(players: Sequence[str], seat: int | None) -> Param:
    """A link's seat (``?`` for a link of none, which records no seat's move)."""
    return seat_of(players, seat) if seat is not None else "?"


def _whose(game: Game, access: Access, text: str) -> None:
    """Raise NotYours if ``text``, refused as ``access``'s seat's, is another seat's move."""
    if access.role != SEAT:
        return
    try:
        event = game.parse(text, None)
    except GametapeError:
        return
    if actor(event) not in (None, access.seat):
        raise _only_own(game.players, access.seat)


def _position(game: Game, access: Access) -> Position:
    offer = access.seat if access.role == SEAT else None
    label = game.players[offer] if offer is not None else access.role
    return position(game, access.viewer, offer=offer, role=access.role, label=label)


@contextlib.contextmanager
def watching(tables: Tables, every: float = 0.2) -> Iterator[None]:
    """``tables.watch`` in a thread for the block."""
    stop = threading.Event()
    thread = threading.Thread(target=tables.watch, args=(stop, every), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
