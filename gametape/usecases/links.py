"""Links to a game (``gametape serve``): one secret link per seat, one for the host, one for
spectators.

A link is a capability: 128 random bits, given to its holder once and kept in the store only
as its SHA-256 hash (``GAME.links`` beside the log, or the table ``gametape_links``), so the
store cannot hand out a link and an old copy of it cannot be replayed into a new one. Looking
a link up compares hashes in constant time, and every way of being wrong (no such game, no
such link, a seat's link for another game) is the same ``LinkNotFound``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from gametape.engine.ruleset import ONLOOKER
from gametape.errors import GametapeError, MachineError, NotFound
from gametape.events.log import Source
from gametape.events.store import GameStore
from gametape.messages import render, say

TOKEN_BYTES = 16  # 128 bits
HOST, SPECTATOR, SEAT = "host", "spectator", "seat"
ROLE = {HOST: say("web.role-host", "host"), SPECTATOR: say("web.role-spectator", "spectator")}
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,100}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


class LinkNotFound(NotFound):
    """No game with that id, or no such link to it: the two are never told apart."""

    def __init__(self) -> None:
        super().__init__(
            render(say("web.no-such-link", "no such game or link")),
            hint=render(say("web.ask-the-host", "ask the game's host for your link")),
        )


class Link(msgspec.Struct, frozen=True, kw_only=True):
    """One link as the store keeps it: its token's hash, its role and, for a seat, which."""

    hash: str
    role: str
    seat: int | None = None
    made: str = ""
    # A host link whose game's other links were derived from its token (``derived``): its
    # page can show them again (a reload of the links page starts no second game).
    derives: bool = False


class Access(msgspec.Struct, frozen=True, kw_only=True):
    """What a link opens: a game, as a role (a seat, the host, a spectator)."""

    game: str
    role: str
    seat: int | None = None
    derives: bool = False  # a host link the game's other links derive from

    @property
    def viewer(self) -> int:
        """The seat the link sees as: its own, or the onlooker's (the table's) for the host
        and spectators, so a host who also plays sees no hand on the host's page."""
        return self.seat if self.role == SEAT and self.seat is not None else ONLOOKER

    @property
    def records(self) -> bool:
        return self.role in (HOST, SEAT)


class Issued(msgspec.Struct, frozen=True, kw_only=True):
    """A link just made: who it is for (a player's name, ``host``, ``spectator``), its role
    and seat, and its token (shown once: the store keeps only the hash)."""

    label: str
    role: str
    seat: int | None
    token: str

    def path(self, game: str) -> str:
        """The link's path on the server: ``/g/GAME/TOKEN``."""
        return f"/g/{game}/{self.token}"


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def derived(host: str, players: Sequence[str]) -> list[Issued]:
    """A game's links from its host's token: one per seat, the host's own, the spectators'.
    Each other token is an HMAC of the host's (128 bits, as a random one): whoever holds the
    host's link can be shown them again, and nobody else can work one out."""
    roles: list[tuple[str, str, int | None]] = [(p, SEAT, s) for s, p in enumerate(players)]
    roles += [(HOST, HOST, None), (SPECTATOR, SPECTATOR, None)]
    issued = []
    for label, role, seat in roles:
        if role == HOST:
            token = host
        else:
            mac = hmac.new(host.encode(), f"gametape link {role} {seat}".encode(), "sha256")
            token = base64.urlsafe_b64encode(mac.digest()[:TOKEN_BYTES]).decode().rstrip("=")
        issued.append(Issued(label=label, role=role, seat=seat, token=token))
    return issued


def issue(store: GameStore, log: Path | Source, players: Sequence[str]) -> list[Issued]:
    """New links to the game at ``log``: one per seat, then the host's and the spectators'
    (``derived`` from a new host token). Each is kept (hashed) before this returns; links
    made earlier stay valid."""
    made = datetime.now(UTC).isoformat(timespec="seconds")
    issued = derived(secrets.token_urlsafe(TOKEN_BYTES), players)
    encode = msgspec.json.Encoder().encode
    for link in issued:
        kept = Link(
            hash=_hash(link.token), role=link.role, seat=link.seat, made=made,
            derives=link.role == HOST,
        )  # fmt: skip
        store.add_link(log, encode(kept) + b"\n")
    return issued


def open_link(store: GameStore, game: str, token: str) -> tuple[Path | Source, Access]:
    """The game and role ``token`` opens; ``LinkNotFound`` for anything else (an id or token
    of the wrong shape, a game that is not there, a token that is not one of its links)."""
    if not GAME_ID.fullmatch(game) or not TOKEN.fullmatch(token):
        raise LinkNotFound()
    log = store.path(game)
    try:
        data = store.links(log)
    except MachineError:
        raise  # the store cannot be reached: said so (503), never "your link is wrong"
    except GametapeError:
        raise LinkNotFound() from None
    wanted = _hash(token)
    found: Link | None = None
    decode = msgspec.json.Decoder(Link).decode
    for line in data.splitlines():
        try:
            link = decode(line)
        except msgspec.DecodeError:
            continue  # a damaged line costs that link only
        # every line is compared, in constant time, whether or not one matched already
        if hmac.compare_digest(link.hash.encode(), wanted.encode()) and found is None:
            found = link
    if found is None or found.role not in (HOST, SPECTATOR, SEAT):
        raise LinkNotFound()
    return log, Access(game=game, role=found.role, seat=found.seat, derives=found.derives)
