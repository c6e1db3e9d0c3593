"""Events, the log format and the store. Nothing here knows the rules of any game."""

from gametape.events.base import Abandon, Event, Retract, Setup, actor
from gametape.events.codec import FORMAT_VERSION, Codec, Record, codec_for, decode_line, encode_line
from gametape.events.errors import (
    ChainBroken,
    CorruptLine,
    FormatTooNew,
    GameNotFound,
    LockBusy,
    LogError,
    SeqError,
    StaleWrite,
    TornTail,
)
from gametape.events.log import LogRead, append_events, create_log, read_log, repair_torn
from gametape.events.store import Store
from gametape.events.stores import default_store

__all__ = [
    "FORMAT_VERSION",
    "Abandon",
    "ChainBroken",
    "Codec",
    "CorruptLine",
    "Event",
    "FormatTooNew",
    "GameNotFound",
    "LockBusy",
    "LogError",
    "LogRead",
    "Record",
    "Retract",
    "SeqError",
    "Setup",
    "StaleWrite",
    "Store",
    "TornTail",
    "actor",
    "append_events",
    "codec_for",
    "create_log",
    "decode_line",
    "default_store",
    "encode_line",
    "read_log",
    "repair_torn",
]
