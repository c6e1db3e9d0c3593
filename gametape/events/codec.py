"""The on-disk line: envelope, typed decoding, the hash chain and format upgrades.

One line is one JSON object, fields in this order::

    {"v":1,"seq":3,"ts":"2026-11-30T02:01:54.123Z","event":{"type":"hanabi.play",...},"hash":"..."}

``hash`` is the first 32 hex digits of SHA-256 over the previous line's hash (ASCII; empty for
seq 0) followed by the bytes of this line before ``,"hash":"``. See docs/format.md.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any, Union

import msgspec

from gametape import plugins
from gametape.errors import UnknownGame
from gametape.events.base import Abandon, Event, Retract, Upgrade
from gametape.events.errors import CorruptLine, FormatTooNew
from gametape.messages import Message, say

FORMAT_VERSION = 1
HASH_MARK = b',"hash":"'
HASH_HEX = 32
MARK_LEN = len(HASH_MARK)
HASH_FIELD = MARK_LEN + HASH_HEX + 2  # ,"hash":"<32 hex>"}, a line's last field
SETUP_SUFFIX = ".setup"
SHARED_EVENTS: tuple[type[Event], ...] = (Abandon, Retract)


class Record(msgspec.Struct, frozen=True, gc=False):
    """One line of a log: format version, position, time, the event, and the chain hash.

    Each game decodes into its own subclass whose ``event`` is that game's tagged union (its
    events plus the shared ones), so a Hanabi log cannot hold a Hanamikoji event.
    """

    v: int
    seq: int
    ts: str
    event: Event
    hash: str = ""


class _Body(msgspec.Struct, frozen=True, gc=False):
    v: int
    seq: int
    ts: str
    event: Event


class _Tag(msgspec.Struct, gc=False):
    type: str


class _Head(msgspec.Struct, gc=False):
    """Just enough of a line to learn its game (from the setup's tag), seq and hash."""

    seq: int = -1
    event: _Tag | None = None
    hash: str = ""


_encoder = msgspec.json.Encoder()
_head = msgspec.json.Decoder(_Head).decode

# Upgrades of old line versions, applied on read, one step each: UPGRADES[n] takes a line of
# version n (as plain JSON data) to version n + 1. Logs on disk are never rewritten.
UPGRADES: dict[int, Upgrade] = {}


class Codec:
    """Typed decoding of one game's lines (a decoder built once and reused)."""

    def __init__(self, game: str, events: tuple[type[Event], ...]) -> None:
        self.game = game
        self.setup_tag = f"{game}{SETUP_SUFFIX}"  # its setup event's (``game_of``)
        union = Union[(*SHARED_EVENTS, *events)]  # type: ignore[valid-type]
        self.record: type[Record] = msgspec.defstruct(  # type: ignore[assignment]
            f"Record[{game}]", [("event", union)], bases=(Record,), frozen=True, gc=False
        )
        # The fast path: a typed decode that assumes the current version (check ``.v``); a
        # line that fails it goes through decode_line for upgrades and a precise error.
        self.decode_current: Callable[[bytes], Record] = msgspec.json.Decoder(self.record).decode
        # Many lines at once, as one JSON array (``events.log.read_log``'s bulk path).
        self.decode_array: Callable[[bytes], list[Record]] = msgspec.json.Decoder(
            list[self.record]  # type: ignore[name-defined]
        ).decode
        # An event of an older shape, by its old tag: the function that upgrades it a step.
        self.event_upgrades: dict[str, Upgrade] = {
            old: step for event in events for old, step in event.upgrades.items()
        }

    def __repr__(self) -> str:
        return f"<Codec {self.game}>"

    def decode_line(self, line: bytes) -> Record:
        """Decode one line (no newline) into a typed Record, upgrading old versions.

        Raises CorruptLine with msgspec's message (which names the bad field's path).
        """
        try:
            rec = self.decode_current(line)
        except msgspec.DecodeError as exc:
            rec = self._decode_old(line, exc)
        if rec.v != FORMAT_VERSION:
            rec = self._decode_old(line, None)
        return rec

    def _decode_old(self, line: bytes, error: msgspec.DecodeError | None) -> Record:
        try:
            data = msgspec.json.decode(line)
        except msgspec.DecodeError as exc:
            raise CorruptLine(
                say("core.line-not-json", "not valid JSON ({why})", why=str(exc))
            ) from None
        version = data.get("v") if isinstance(data, dict) else None
        if not isinstance(version, int):
            no_version = say("core.line-no-version", "no format version `v`")
            raise CorruptLine(str(error) if error else no_version) from None
        if version > FORMAT_VERSION:
            raise FormatTooNew(
                say(
                    "core.line-too-new",
                    "format version {version} is newer than this gametape "
                    "reads ({known}); upgrade gametape",
                    version=version,
                    known=FORMAT_VERSION,
                )
            )
        if version == FORMAT_VERSION:
            if self._old_event(data):
                return self._upgrade_event(data)
            raise CorruptLine(self._explain(data, str(error))) from None
        while version < FORMAT_VERSION:
            step = UPGRADES.get(version)
            if step is None:
                raise CorruptLine(
                    say(
                        "core.line-version-unknown",
                        "format version {version} is not known",
                        version=version,
                    )
                )
            data = step(data)
            version += 1
            data["v"] = version
        try:
            return msgspec.convert(data, self.record)
        except msgspec.ValidationError as exc:
            raise CorruptLine(
                say(
                    "core.line-upgraded",
                    "after upgrading from version {version}: {why}",
                    version=str(data.get("v")),
                    why=str(exc),
                )
            ) from None

    def _old_event(self, data: dict[str, Any]) -> bool:
        event = data.get("event")
        return isinstance(event, dict) and event.get("type") in self.event_upgrades

    def _upgrade_event(self, data: dict[str, Any]) -> Record:
        """A line whose event has an older shape, upgraded step by step to the current one."""
        event = data["event"]
        seen: set[str] = set()
        while isinstance(event, dict) and event.get("type") in self.event_upgrades:
            tag = event["type"]
            if tag in seen:
                raise CorruptLine(
                    say(
                        "core.line-upgrade-loop",
                        "the upgrades of {tag} go round in a loop",
                        tag=repr(tag),
                    )
                )
            seen.add(tag)
            try:
                event = self.event_upgrades[tag](dict(event))
            except Exception as exc:  # a game's upgrade function: its failure names the event
                raise CorruptLine(
                    say(
                        "core.line-upgrade-failed",
                        "upgrading a {tag} event failed: {why}",
                        tag=repr(tag),
                        why=str(exc),
                    )
                ) from None
        try:
            return msgspec.convert({**data, "event": event}, self.record)
        except msgspec.ValidationError as exc:
            raise CorruptLine(
                say(
                    "core.line-event-upgraded",
                    "after upgrading an older event: {why}",
                    why=str(exc),
                )
            ) from None

    def _explain(self, data: Any, error: str) -> Message | str:
        """msgspec's message, plus which game a foreign event tag belongs to."""
        event = data.get("event") if isinstance(data, dict) else None
        tag = event.get("type") if isinstance(event, dict) else None
        if isinstance(tag, str) and "Invalid value" in error and "." in tag:
            other = tag.split(".", 1)[0]
            if other != self.game:
                return say(
                    "core.line-foreign",
                    "a {tag} event in a {game} log ({why})",
                    tag=repr(tag),
                    game=self.game,
                    why=error,
                )
        return error


@cache
def codec_for(game: str) -> Codec:
    """The codec of the installed game called ``game`` (UnknownGame if there is none)."""
    return Codec(game, tuple(plugins.load(game).events))


def game_of(first_line: bytes) -> str:
    """The game a log belongs to, from its first line (the setup event's tag).

    Raises CorruptLine when the line is not a setup, UnknownGame when no such game is installed.
    """
    try:
        head = _head(first_line)
    except msgspec.DecodeError as exc:
        raise CorruptLine(
            say("core.line-not-a-line", "not a log line ({why})", why=str(exc))
        ) from None
    tag = head.event.type if head.event is not None else ""
    if not tag.endswith(SETUP_SUFFIX):
        raise CorruptLine(
            say(
                "core.line-not-setup",
                "the first event is {tag}, not a game's setup (a log "
                "starts with its game's setup event)",
                tag=repr(tag or "missing"),
            )
        )
    return tag[: -len(SETUP_SUFFIX)]


def codec_of(first_line: bytes) -> Codec:
    """The codec for a log whose first line is ``first_line``."""
    game = game_of(first_line)
    try:
        return codec_for(game)
    except UnknownGame as exc:
        raise CorruptLine(
            say(
                "core.line-not-installed",
                "a log of the game {game}, which is not installed ({why})",
                game=repr(game),
                why=exc.message,
            )
        ) from None


def seq_and_hash(line: bytes) -> tuple[int, str]:
    """The ``seq`` and ``hash`` of a line, without decoding its event (for appends)."""
    try:
        head = _head(line)
    except msgspec.DecodeError as exc:
        raise CorruptLine(
            say("core.line-not-a-line", "not a log line ({why})", why=str(exc))
        ) from None
    if head.seq < 0 or not head.hash:
        raise CorruptLine(say("core.line-no-seq", "the line has no seq or hash"))
    return head.seq, head.hash


def now() -> str:
    """The current UTC time as the log writes it (ISO 8601, milliseconds, ``Z``)."""
    t = time.time()
    second = int(t)
    return f"{_second(second)}{int((t - second) * 1000):03d}Z"


@lru_cache(maxsize=1)  # a bulk import stamps a thousand games a second: its text once
def _second(second: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(second))


def chain(prev: bytes, body: bytes) -> bytes:
    """The chain hash of a line whose bytes before ``,"hash":"`` are ``body``, after the
    line whose hash is ``prev`` (empty for seq 0): the one definition, for writing and
    for checking (docs/format.md)."""
    return hashlib.sha256(prev + body).hexdigest()[:HASH_HEX].encode("ascii")


def body(seq: int, event: Event, ts: str) -> bytes:
    """A line's bytes before its hash field: ``{"v":1,"seq":..,"ts":..,"event":{..}``."""
    return _encoder.encode(_Body(FORMAT_VERSION, seq, ts, event))[:-1]


def seal(prev: bytes, body: bytes) -> tuple[bytes, bytes]:
    """``body`` made a log line: its chain hash field after the line whose hash is ``prev``,
    and the newline; the line and its hash."""
    h = chain(prev, body)
    return body + HASH_MARK + h + b'"}\n', h


def encode_line(seq: int, event: Event, prev: str, ts: str | None = None) -> tuple[bytes, str]:
    """Encode one event as a log line (with the trailing newline); return it and its hash."""
    line, h = seal(prev.encode("ascii"), body(seq, event, ts or now()))
    return line, h.decode("ascii")


def decode_line(line: bytes, first_line: bytes | None = None) -> Record:
    """Decode one line of a log whose first line is ``first_line`` (default: this line)."""
    return codec_of(first_line if first_line is not None else line).decode_line(line)
