"""Review rooms (``gametape serve``): a group looks back at a game together.

A room belongs to one game and is entered with that game's links, each page as its link's
viewer sees the game. One page leads: its position (the game or a branch of it, and a seq)
is the room's, and every page following it goes there. A follower may step on its own and
come back; a page that joins late, or missed what was said, reads the room's snapshot (its
``version`` says whether anything changed) instead of replaying messages, so no page can
drift from it. The leader can start a branch ("what if") at the room's seq and enter moves
in it, each seat its own from its phone; the branch is an ordinary branch, kept in the store.
Notes written in a room are the game's notes, with their author.

Who leads: the first page in the room, then whoever it hands the lead to; a leader whose page
has been gone for ``timeout`` seconds (60 by default) lets anyone take the lead.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from gametape.errors import NOTHING_RECORDED, GametapeError, UsageError
from gametape.events.base import Abandon, Event, actor
from gametape.events.log import Source
from gametape.events.store import GameStore
from gametape.messages import many, render, say
from gametape.usecases.links import HOST, SEAT, SPECTATOR, Access
from gametape.usecases.live import Versioned

LEAD_TIMEOUT = 60.0
AWAY = 10.0  # a page gone this long (its stream closed: a reload, a closed tab) leaves the room
MEMBER = re.compile(r"[A-Za-z0-9_-]{16,64}")
MAX_MEMBERS = 64


class NotTheLeader(GametapeError):
    """A page that does not lead asked to move the room."""


class Member(msgspec.Struct, kw_only=True):
    """A page in the room: its link's label and role, a public number others hand the lead
    to, how many live streams it has open, and when it was last heard from."""

    label: str
    role: str
    seat: int | None
    number: int
    streams: int = 0
    seen: float = 0.0

    def said(self) -> str:
        """The page as the room names it to a reader, in their language: a seat by its
        player's name, the host's and a spectator's page by their role."""
        if self.role == HOST:
            return render(say("web.member-host", "the host"))
        if self.role == SPECTATOR:
            return render(say("web.member-spectator", "a spectator"))
        return self.label


class MemberView(msgspec.Struct, frozen=True):
    number: int
    label: str
    leads: bool
    you: bool
    here: bool


class RoomNote(msgspec.Struct, frozen=True):
    seq: int
    author: str
    mark: str | None
    text: str
    card: str = ""  # the card as its author named it (`ann 3`)


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """The room as one page sees it. ``game``/``seq``: the leader's position (``game`` the
    main game or a branch of it, ``last`` its last seq); ``you_lead``; ``can_take``: no
    page leads, or the leader's page has been gone too long; ``notes`` on that game."""

    version: int
    main: str
    game: str
    seq: int
    last: int
    leader: str | None
    you: str
    you_lead: bool
    can_take: bool
    members: tuple[MemberView, ...]
    notes: tuple[RoomNote, ...]
    lines: tuple[str, ...]  # the main game and the branches made in this room
    can_move: bool  # in a branch: the leader enters any seat's move, a seat its own


class Room(Versioned):
    """One game's review room. Thread-safe: the server's threads share it."""

    def __init__(self, main: str, last: int, timeout: float = LEAD_TIMEOUT) -> None:
        super().__init__()
        self.main = main
        self.game = main
        self.seq = last
        self.lines = [main]
        self.timeout = timeout
        self.leader: str | None = None
        self.members: dict[str, Member] = {}
        self._numbers = 0
        self._lock = threading.RLock()
        self._said_gone = False  # the leader's absence was told (it opens the lead to all)

    # --- members ---------------------------------------------------------------------------

    def member(self, member: str, access: Access, label: str) -> Member:
        """The page ``member`` (a random id the page chose) of the link ``access``; a new one
        joins (the first leads). A page id of another link is refused as unknown."""
        if not MEMBER.fullmatch(member):
            raise UsageError(say("web.room-page-id", "a review page sends its own id (16-64 "
                                 "letters, digits, - or _)"))  # fmt: skip
        with self._lock:
            found = self.members.get(member)
            if found is not None:
                if (found.role, found.seat) != (access.role, access.seat):
                    raise NotTheLeader(say("web.room-id-taken", "that page id belongs to another "
                                           "link"))  # fmt: skip
                found.seen = time.monotonic()
                return found
            if len(self.members) >= MAX_MEMBERS:
                self._forget_gone()
            if len(self.members) >= MAX_MEMBERS:
                raise UsageError(say("web.room-full", "a review room holds at most {most} pages",
                                     most=MAX_MEMBERS))  # fmt: skip
            self._numbers += 1
            lead = self.members.get(self.leader) if self.leader else None
            # the leader's own link coming back as a new page (a reload, another tab) while
            # the old page is gone: the lead comes with it, never stuck with a ghost
            back = (
                lead is not None
                and lead.streams == 0
                and (lead.role, lead.seat)
                == (
                    access.role,
                    access.seat,
                )
            )
            found = Member(
                label=label,
                role=access.role,
                seat=access.seat,
                number=self._numbers,
                seen=time.monotonic(),
            )
            self.members[member] = found
            if self.leader is None or back:
                self.leader = member
                self._said_gone = False
        self.changed()
        return found

    def _forget_gone(self, after: float | None = None) -> bool:
        """Forget the pages (but the leader) with no stream for ``after`` seconds (default:
        the lead timeout); whether any was."""
        now, after = time.monotonic(), self.timeout if after is None else after
        gone = [
            key
            for key, m in self.members.items()
            if key != self.leader and m.streams == 0 and now - m.seen > after
        ]
        for key in gone:
            del self.members[key]
        return bool(gone)

    def stream(self, member: str, opened: bool) -> None:
        """A page's live stream opened or closed (its presence)."""
        with self._lock:
            m = self.members.get(member)
            if m is None:
                return
            m.streams += 1 if opened else -1
            m.seen = time.monotonic()
            if opened and member == self.leader:
                self._said_gone = False
        self.changed()

    def leader_gone(self) -> bool:
        """No page leads, or the leader's page has had no stream for ``timeout`` seconds."""
        with self._lock:
            lead = self.members.get(self.leader) if self.leader else None
            return lead is None or (
                lead.streams == 0 and time.monotonic() - lead.seen >= self.timeout
            )

    def tick(self) -> None:
        """Let pages gone AWAY seconds leave (a reload left a ghost "(away)" behind), and tell
        the pages once the leader has been gone long enough for anyone to lead."""
        with self._lock:
            left = self._forget_gone(min(AWAY, self.timeout))
        if left:
            self.changed()
        if self.leader is not None and not self._said_gone and self.leader_gone():
            self._said_gone = True
            self.changed()

    # --- what a page sees -----------------------------------------------------------------

    def snapshot(self, member: str, last: int, notes: list[RoomNote]) -> Snapshot:
        with self._lock:
            me = self.members[member]
            lead = self.members.get(self.leader) if self.leader else None
            return Snapshot(
                version=self.version,
                main=self.main,
                game=self.game,
                seq=self.seq,
                last=last,
                leader=lead.said() if lead else None,
                you=me.said(),
                you_lead=member == self.leader,
                can_take=member != self.leader and self.leader_gone(),
                members=tuple(
                    MemberView(
                        number=m.number,
                        label=m.said(),
                        leads=key == self.leader,
                        you=key == member,
                        here=m.streams > 0,
                    )
                    for key, m in self.members.items()
                ),
                notes=tuple(notes),
                lines=tuple(self.lines),
                can_move=self.game != self.main and (member == self.leader or me.role == SEAT),
            )

    # --- the lead --------------------------------------------------------------------------

    def must_lead(self, member: str) -> None:
        """NotTheLeader, saying who leads, unless ``member`` does."""
        if member != self.leader:
            lead = self.members.get(self.leader) if self.leader else None
            raise NotTheLeader(
                say("web.room-led-by", "{leader} leads the room; only the leader moves it",
                    leader=lead.said())
                if lead
                else say("web.room-led-by-nobody", "nobody leads the room; only the leader moves "
                         "it"),
                hint=say("web.room-led-hint", "follow, step on your own, or take the lead when "
                         "it is free"),
            )  # fmt: skip

    def step(self, member: str, game: str, seq: int, last: int) -> None:
        """The leader goes to ``seq`` of ``game`` (one of the room's lines, ``last`` its
        last seq)."""
        with self._lock:
            self.must_lead(member)
            if game not in self.lines:
                raise UsageError(
                    say(
                        "web.room-no-line",
                        "{game} is not a line of this room: {lines}",
                        game=repr(game),
                        lines=many(self.lines),
                    )
                )
            if not 0 <= seq <= last:
                raise UsageError(say("web.room-no-seq", "no seq {seq} in {game}: it has seqs "
                                     "0-{last}", seq=seq, game=game, last=last))  # fmt: skip
            if (game, seq) == (self.game, self.seq):
                return
            self.game, self.seq = game, seq
        self.changed()

    def hand(self, member: str, to: int) -> None:
        """The leader hands the lead to the page numbered ``to``."""
        with self._lock:
            self.must_lead(member)
            target = next((k for k, m in self.members.items() if m.number == to), None)
            if target is None:
                raise UsageError(say("web.room-no-page", "no page {page} in the room", page=to))
            self.leader = target
            self._said_gone = False
        self.changed()

    def take(self, member: str) -> None:
        """A page takes the lead nobody holds (or whose holder has been gone too long)."""
        with self._lock:
            if member == self.leader:
                return
            if self.leader is not None and not self.leader_gone():
                lead = self.members[self.leader]
                raise NotTheLeader(
                    say("web.room-leader-here", "{leader} leads the room and is here; ask them "
                        "to hand it on", leader=lead.said()),
                    hint=say("web.room-leader-gone", "a leader whose page is gone for "
                             "{seconds:.0f} s can be replaced", seconds=self.timeout),
                )  # fmt: skip
            self.leader = member
            self._said_gone = False
        self.changed()

    def branched(self, member: str, game: str) -> None:
        """The leader's branch ``game``, made at the room's seq, becomes its position."""
        with self._lock:
            self.must_lead(member)
            self.lines.append(game)
            self.game = game
        self.changed()

    def moved(self, game: str, seq: int) -> None:
        """A move was recorded in the line ``game``: the room goes to it."""
        with self._lock:
            if game != self.game:
                return
            self.seq = seq
        self.changed()


def label_of(access: Access, players: tuple[str, ...]) -> str:
    if access.role == SEAT and access.seat is not None:
        return players[access.seat]
    return {HOST: "the host", SPECTATOR: "a spectator"}.get(access.role, access.role)


def may_enter(access: Access, over: bool, open_: bool) -> None:
    """The host opens a room any time; the seats and spectators join an open room, or any
    room of a finished game."""
    if access.role == HOST or open_ or over:
        return
    raise NotTheLeader(
        say("web.room-host-opens", "the review of a game in progress is opened from the host's "
            "link"),
        hint=say("web.room-host-opens-hint", "ask the host to open the review; once the game is "
                 "over every link can"),
    )  # fmt: skip


def allow_in_branch(access: Access, leads: bool) -> Callable[[Any, Event], None]:
    """Who records what in a room's branch: the leader any seat's move (a hypothesis is
    anyone's to enter), a seat its own moves; nobody abandons a branch from the room."""

    def allow(game: Any, event: Event) -> None:
        if isinstance(event, Abandon):
            raise NotTheLeader(say("web.room-no-abandon", "a branch is not abandoned from the "
                                   "review"))  # fmt: skip
        if leads:
            return
        if access.role != SEAT or actor(event) not in (None, access.seat):
            raise NotTheLeader(
                say("web.room-branch-moves", "in a review's branch the leader enters any seat's "
                    "move, a seat its own"),
                hint=NOTHING_RECORDED,
            )  # fmt: skip

    return allow


def notes_of(store: GameStore, log: Path | Source) -> list[RoomNote]:
    """The notes in effect on a game, for the room (author, mark, text; not the card)."""
    from gametape.usecases.review import read_notes

    found, _ = read_notes(store, log)
    return [
        RoomNote(
            seq=a.note.seq,
            author=a.note.author,
            mark=a.note.mark,
            text=a.note.text,
            card=a.note.named,
        )
        for a in found
        if a.retracted_by is None and a.note.seq is not None
    ]
