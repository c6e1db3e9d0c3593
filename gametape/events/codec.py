"""The on-disk line: envelope, typed decoding, the hash chain and format upgrades.

One line is one JSON object, fields in this order::

    {"v":1,"seq":3,"ts":"2026-11-30T02:01:54.123Z","event":{"type":"hanabi.play",...},"hash":"..."}

``hash`` is the first 32 hex digits of SHA-256 over the previous line's hash (ASCII; empty for
seq 0) followed by the bytes of this line before ``,"hash":"``. See docs/format.md.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections.abc import Callable
from typing import Any, Union

import msgspec

from gametape.events.base import Abandon, Event, Retract
from gametape.events.errors import CorruptLine, FormatTooNew
from gametape.events.hanabi import HANABI_EVENTS
from gametape.events.hanamikoji import HANAMIKOJI_EVENTS
from gametape.events.ohanami import OHANAMI_EVENTS

FORMAT_VERSION = 1
HASH_MARK = b',"hash":"'
HASH_HEX = 32

EVENT_TYPES: tuple[type[Event], ...] = (
    Abandon, Retract, *HANABI_EVENTS, *HANAMIKOJI_EVENTS, *OHANAMI_EVENTS)
AnyEvent = Union[EVENT_TYPES]  # type: ignore[valid-type]  # noqa: UP007


class Record(msgspec.Struct, frozen=True, gc=False):
    """One line of a log: format version, position, time, the event, and the chain hash."""

    v: int
    seq: int
    ts: str
    event: AnyEvent  # type: ignore[valid-type]
    hash: str = ""


class _Body(msgspec.Struct, frozen=True, gc=False):
    v: int
    seq: int
    ts: str
    event: AnyEvent  # type: ignore[valid-type]


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Record)
# The fast path: a typed decode that assumes the current version (check ``.v``); a line that
# fails it goes through decode_line for upgrades and a precise error.
decode_current = _decoder.decode

# Upgrades of old line versions, applied on read, one step each: UPGRADES[n] takes a line of
# version n (as plain JSON data) to version n + 1. Logs on disk are never rewritten.
Upgrade = Callable[[dict[str, Any]], dict[str, Any]]
UPGRADES: dict[int, Upgrade] = {}


def now() -> str:
    """The current UTC time as the log writes it (ISO 8601, milliseconds, ``Z``)."""
    t = _dt.datetime.now(_dt.UTC)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def chain_hash(prev: str, body: bytes) -> str:
    """The hash of a line whose bytes before ``,"hash":"`` are ``body``."""
    return hashlib.sha256(prev.encode("ascii") + body).hexdigest()[:HASH_HEX]


def encode_line(seq: int, event: Event, prev: str, ts: str | None = None) -> tuple[bytes, str]:
    """Encode one event as a log line (with the trailing newline); return it and its hash."""
    body = _encoder.encode(_Body(FORMAT_VERSION, seq, ts or now(), event))[:-1]
    h = chain_hash(prev, body)
    return body + HASH_MARK + h.encode("ascii") + b'"}\n', h


def decode_line(line: bytes) -> Record:
    """Decode one line (no newline) into a typed Record, upgrading old versions.

    Raises CorruptLine with msgspec's message (which names the bad field's path).
    """
    try:
        rec = decode_current(line)
    except msgspec.DecodeError as exc:
        rec = _decode_old(line, exc)
    if rec.v != FORMAT_VERSION:
        rec = _decode_old(line, None)
    return rec


def _decode_old(line: bytes, error: msgspec.DecodeError | None) -> Record:
    try:
        data = msgspec.json.decode(line)
    except msgspec.DecodeError as exc:
        raise CorruptLine(f"not valid JSON ({exc})") from None
    version = data.get("v") if isinstance(data, dict) else None
    if not isinstance(version, int):
        raise CorruptLine(str(error) if error else "no format version `v`") from None
    if version > FORMAT_VERSION:
        raise FormatTooNew(
            f"format version {version} is newer than this gametape reads ({FORMAT_VERSION});"
            " upgrade gametape"
        )
    if version == FORMAT_VERSION:
        raise CorruptLine(str(error)) from None
    while version < FORMAT_VERSION:
        step = UPGRADES.get(version)
        if step is None:
            raise CorruptLine(f"format version {version} is not known")
        data = step(data)
        version += 1
        data["v"] = version
    try:
        return msgspec.convert(data, Record)
    except msgspec.ValidationError as exc:
        raise CorruptLine(f"after upgrading from version {data.get('v')}: {exc}") from None
