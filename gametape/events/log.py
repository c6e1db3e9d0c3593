"""Reading and appending one log file.

Guarantees (each has a test in tests/test_log.py):
1. A line is written whole with its newline in one ``write``; an append returns only after fsync.
2. A reader never takes an incomplete last line for an event: it reports the tear and its offset,
   and every complete event before it still reads.
3. Two writers cannot both append at the same seq: appends hold an exclusive lock on the file and
   check the expected seq under it; the loser gets StaleWrite and writes nothing.
4. Nothing ever rewrites or truncates a log, except ``repair``, which moves a torn tail aside
   into a ``.torn`` file (so even the fragment is kept).
5. A write that fails (a full disk) leaves nothing behind: a new log is removed, and an append
   is cut back to the bytes the log had before it; the error says what happened.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import stat
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol

import msgspec

from gametape.events.base import Event
from gametape.events.chainloop import held, sealed
from gametape.events.codec import (
    FORMAT_VERSION,
    Codec,
    Record,
    body,
    codec_of,
    now,
    seq_and_hash,
)
from gametape.events.errors import (
    ChainBroken,
    CorruptLine,
    LockBusy,
    LogError,
    SeqError,
    StaleWrite,
    TornTail,
)
from gametape.messages import Message, say

LOCK_TIMEOUT = 10.0
# UTC, ISO 8601, milliseconds: 2026-11-30T02:01:54.123Z
TS_PATTERN = r"[0-9]{4}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]\.[0-9]{3}Z"
TS = re.compile(TS_PATTERN).fullmatch
TS_LEN = 24


class Source(Protocol):
    """A log that is not a file (a game in a PostgreSQL store): it names the game in a
    message (``str``, ``stem`` its id) and gives the log's bytes as a file would hold them."""

    stem: str
    name: str

    def log_bytes(self) -> bytes: ...


class LogRead(msgspec.Struct, kw_only=True):
    """What a read found: the good events in order, and the first problem, if any.

    Reading stops at the first problem; ``records`` holds every event before it.
    """

    path: Path | Source
    records: list[Record] = msgspec.field(default_factory=list)
    error: LogError | None = None
    size: int = 0

    @property
    def events(self) -> list[Event]:
        return [r.event for r in self.records]

    @property
    def last_hash(self) -> str:
        return self.records[-1].hash if self.records else ""


THE_LOG = say("core.the-log", "the log")


def _cannot_read(what: Message, why: Message | str) -> Message:
    return say("core.cannot-read", "cannot read {what}: {why}", what=what, why=why)


def read_bytes(path: Path, what: Message = THE_LOG) -> bytes:
    """A log's (or another file's) bytes; a file that cannot be read is a LogError naming
    it (never a FIFO wait, never a directory)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise LogError(_cannot_read(what, exc.strerror or str(exc)), path=path) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = (
                say("core.a-directory", "a directory")
                if stat.S_ISDIR(st.st_mode)
                else say("core.not-a-file", "not a regular file")
            )
            raise LogError(_cannot_read(what, kind), path=path)
        first = os.read(fd, st.st_size + 1)
        if len(first) <= st.st_size:  # short of the size asked: the end (a regular file's)
            return first
        chunks = [first]
        while chunks[-1]:  # a log growing while it is read: take what is there
            chunks.append(os.read(fd, 1 << 16))
        return b"".join(chunks)
    except OSError as exc:
        raise LogError(_cannot_read(what, exc.strerror or str(exc)), path=path) from None
    finally:
        os.close(fd)


def read_log(path: Path | Source, *, verify: bool = True, data: bytes | None = None) -> LogRead:
    """Read a log, checking JSON, schema, ``seq`` and (with ``verify``) the hash chain.

    Problems in the file are reported in ``error`` (with every good event before them); a
    file that cannot be read at all raises LogError. ``path`` is a file, or a log kept
    elsewhere (a :class:`Source`: a game in a PostgreSQL store).
    """
    if isinstance(path, str):
        path = Path(path)
    if data is None:
        data = read_bytes(path) if isinstance(path, Path) else path.log_bytes()
    result = LogRead(path=path, size=len(data))
    records = result.records
    append = records.append
    offset = 0
    end = data.rfind(b"\n") + 1  # the lines end here (each with its newline)
    torn = data[end:]  # text after the last newline: empty unless the last line is torn
    if end:
        global _last_codec
        guess = _last_codec
        whole = _at_once(guess, data, end) if verify and guess is not None else None
        if whole is not None and guess is not None and _sets_up(guess, whole[0]):
            codec = guess  # what codec_of finds for the first line: see _sets_up
        else:
            whole = None
            try:
                codec = codec_of(data[: data.index(b"\n")])
            except LogError as exc:
                exc.path, exc.line, exc.offset, exc.seq = path, 1, 0, 0
                result.error = exc
                return result
            _last_codec = codec
            if verify and codec is not guess:
                whole = _at_once(codec, data, end)
        if whole is not None:
            result.records = whole
            if torn:
                result.error = _torn(path, torn, len(whole), end)
            return result
        fast, slow = codec.decode_current, codec.decode_line
    lines = data[:end].split(b"\n")[:-1]
    good = held(data) if verify else len(lines)  # lines whose chain holds, from the first
    for number, line in enumerate(lines, start=1):
        seq_expected = number - 1
        try:
            try:
                rec = fast(line)
                if rec.v != FORMAT_VERSION:
                    raise ValueError
            except (msgspec.DecodeError, ValueError):
                rec = slow(line)  # an older version, or an error worth a good message
        except LogError as exc:
            exc.path, exc.line, exc.offset, exc.seq = path, number, offset, seq_expected
            result.error = exc
            return result
        if len(rec.ts) != TS_LEN or not TS(rec.ts):
            result.error = CorruptLine(
                say(
                    "core.log-ts",
                    "ts {ts} is not UTC ISO 8601 with milliseconds (like 2026-11-30T02:01:54.123Z)",
                    ts=repr(rec.ts[:40]),
                ),
                path=path,
                line=number,
                seq=rec.seq,
                offset=offset,
            )
            return result
        if rec.seq != seq_expected:
            result.error = SeqError(
                say(
                    "core.log-seq-repeat",
                    "seq {seq} where {expected} was expected (a repeat)",
                    seq=rec.seq,
                    expected=seq_expected,
                )
                if rec.seq < seq_expected
                else say(
                    "core.log-seq-gap",
                    "seq {seq} where {expected} was expected (a gap)",
                    seq=rec.seq,
                    expected=seq_expected,
                ),
                path=path,
                line=number,
                seq=rec.seq,
                offset=offset,
            )
            return result
        if number > good:
            result.error = ChainBroken(
                say(
                    "core.log-chain",
                    "hash chain broken: this line or the one before it "
                    "was edited, removed, inserted or moved",
                ),
                path=path,
                line=number,
                seq=rec.seq,
                offset=offset,
            )
            return result
        append(rec)
        offset += len(line) + 1
    if torn:
        result.error = _torn(path, torn, len(lines), offset)
    return result


def _torn(path: Path | Source, torn: bytes, lines: int, offset: int) -> TornTail:
    return TornTail(
        f"incomplete last line ({len(torn)} bytes, no newline): a write was interrupted; "
        f"`gametape repair` moves it aside",
        path=path,
        line=lines + 1,
        offset=offset,
    )


# The codec of the last log read, tried first on the next: a store's logs are mostly of one
# game, and finding a log's game (``codec_of``) parses its first line, the longest, again.
_last_codec: Codec | None = None


def _sets_up(codec: Codec, first: Record) -> bool:
    """Whether a log's first record, decoded by ``codec``, is that game's setup: then
    ``codec_of`` of its line finds ``codec`` too, as it reads the tag of the line's last
    "event" (a key repeated in JSON counts as its last), every "type" of which decoding
    found equal to its event's tag."""
    return type(first.event).__struct_config__.tag == codec.setup_tag


def _at_once(codec: Codec, data: bytes, end: int) -> list[Record] | None:
    """Every line of a log (``data`` up to ``end``, after the last newline) decoded in one
    call (as a JSON array: a JSON text holds no raw newline) and checked as the line by line
    read checks each: the current version, the seqs, the hash chain and the timestamps (each
    distinct one matched once). None at the first doubt, and the line by line read then finds
    the line and words the problem."""
    try:
        array = b"".join((b"[", memoryview(data)[: end - 1], b"]")).replace(b"\n", b",")
        records = codec.decode_array(array)
    except msgspec.DecodeError:
        return None
    # A line decodes to one record or more (an empty one fails), so as many as every line's
    # chain holds are as many as there are lines, one each (none holds two objects, say).
    n = len(records)
    if not n or held(data) != n:  # (none: a blank line)
        return None
    # the current version each, and seqs 0 to n - 1 (a list comprehension reads a field
    # faster than map with an attrgetter, 3.11)
    if [r.seq for r in records if r.v == FORMAT_VERSION] != list(range(n)):
        return None
    stamps = [r.ts for r in records]
    # the lines written together share their stamp: each distinct one is matched once
    distinct = (stamps[0],) if stamps.count(stamps[0]) == n else set(stamps)
    if not all(len(ts) == TS_LEN and TS(ts) for ts in distinct):
        return None
    return records


@contextlib.contextmanager
def locked(fd: int, path: Path, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold an exclusive advisory lock on an open log file."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise LockBusy(
                    f"another writer has held this game's lock for {timeout:.0f}s", path=path
                ) from None
            time.sleep(0.005)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def _tail(fd: int, path: Path) -> tuple[int, str, int]:
    """The last complete line's seq and hash, and the file size. Refuses a torn log."""
    size = os.fstat(fd).st_size
    if size == 0:
        return -1, "", 0
    chunk = 4096
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        if not data.endswith(b"\n"):
            nl = data.rfind(b"\n")
            raise TornTail(
                "the log ends in an incomplete line; nothing was appended "
                "(`gametape repair` moves the fragment aside)",
                path=path,
                offset=start + nl + 1 if nl >= 0 else start,
            )
        nl = data.rfind(b"\n", 0, len(data) - 1)
        if nl >= 0 or start == 0:
            last = data[nl + 1 : -1]
            break
        chunk *= 4
    try:
        seq, hash_ = seq_and_hash(last)
    except LogError as exc:
        exc.path = path
        raise
    return seq, hash_, size


def encode_lines(
    events: Sequence[Event], first_seq: int, prev: str, ts: str | None = None
) -> tuple[bytes, str]:
    """Encode consecutive events written together (one timestamp); return bytes, last hash."""
    ts = ts or now()
    bodies = [body(first_seq + i, event, ts) for i, event in enumerate(events)]
    return sealed(prev.encode("ascii"), bodies)


def append_events(
    path: Path, events: Sequence[Event], expected_seq: int, *, fsync: bool = True
) -> int:
    """Append events to an existing log if its next seq is ``expected_seq``; return the last seq.

    Raises StaleWrite (another writer was first), TornTail, or LockBusy; writes nothing then.
    """
    if not events:
        return expected_seq - 1
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        with locked(fd, path):
            last_seq, last_hash, _ = _tail(fd, path)
            if last_seq + 1 != expected_seq:
                raise StaleWrite(
                    f"expected to write seq {expected_seq} but the log is at seq {last_seq}: "
                    "another writer appended first; nothing was written",
                    path=path,
                    seq=expected_seq,
                )
            data, _ = encode_lines(events, expected_seq, last_hash)
            size = os.fstat(fd).st_size
            try:
                write_all(fd, data)
                if fsync:
                    os.fsync(fd)
            except OSError:
                os.ftruncate(fd, size)  # no torn tail: the log is as it was
                raise
        return expected_seq + len(events) - 1
    finally:
        os.close(fd)


def create_log(path: Path, events: Sequence[Event], *, fsync: bool = True) -> None:
    """Create a new log holding ``events`` (setup first). Fails if the file exists."""
    create_file(path, encode_lines(events, 0, "")[0], fsync=fsync)


def create_file(path: Path, data: bytes, *, fsync: bool = True) -> None:
    """Create the log file ``path`` holding ``data`` (its lines, already encoded: a new
    game's, or a copied one's); FileExistsError if it exists."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        write_all(fd, data)
        if fsync:
            os.fsync(fd)
    except OSError:
        os.unlink(path)  # no empty or half-written log is left for a reader to stumble on
        raise
    finally:
        os.close(fd)
    if fsync:
        fsync_dir(path.parent)


def repair_torn(path: Path) -> tuple[int, Path] | None:
    """Move a torn last line into ``<log>.torn`` and cut it from the log.

    Returns (offset, side file), or None when the log was not torn. Complete lines are kept.
    A log left with no complete line (a crash while creating it) is not a game: the whole
    file moves aside to ``<log>.torn`` and the offset is 0.
    """
    # refuses a directory, a FIFO or a broken link with a clear error; a whole log is left
    # alone without being opened for writing (a read-only log needs no repair)
    if read_bytes(path).endswith(b"\n"):
        return None
    fd = os.open(path, os.O_RDWR)
    try:
        with locked(fd, path):
            size = os.fstat(fd).st_size
            data = os.pread(fd, size, 0)
            if data.endswith(b"\n"):
                return None
            cut = data.rfind(b"\n") + 1
            side = set_aside(path, data[cut:])
            if cut == 0:  # nothing complete: the file is no log at all
                os.unlink(path)
                fsync_dir(path.parent)
                return 0, side
            os.ftruncate(fd, cut)
            os.fsync(fd)
            return cut, side
    finally:
        os.close(fd)


def set_aside(path: Path, torn: bytes) -> Path:
    """Keep a torn last line of ``path`` (its bytes after the last newline) in
    ``<path>.torn``, a line of its own; return that file. If that fails, it is as it was (or
    not there) and the error is raised; ``path`` is not touched here."""
    side = path.with_name(path.name + ".torn")
    existed = side.exists()
    with open(side, "ab", buffering=0) as f:
        kept = f.tell()
        try:
            write_all(f.fileno(), torn + b"\n")
            os.fsync(f.fileno())
        except OSError:
            f.truncate(kept)
            if not existed:
                side.unlink()
            raise
    return side


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` (``os.write`` may write less: a full disk, a signal)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def syncfs(directory: Path) -> bool:
    """Flush every file of the filesystem holding ``directory`` to disk in one call (Linux's
    syncfs(2), through libc); False where there is no such call or it failed."""
    try:
        import ctypes

        call = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(directory, os.O_RDONLY)
    try:
        return bool(call(fd) == 0)
    finally:
        os.close(fd)


__all__ = [
    "CorruptLine",
    "LogRead",
    "append_events",
    "create_log",
    "read_log",
    "repair_torn",
]
