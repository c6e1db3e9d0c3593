"""The log's guarantees (numbered in gametape/events/log.py) and every kind of bad input."""

from __future__ import annotations

import multiprocessing as mp
import os
from pathlib import Path
from unittest.mock import patch

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gametape.engine.validate import validate
from gametape.events import (
    StaleWrite,
    Store,
    TornTail,
    chainloop,
    codec,
    read_log,
    repair_torn,
)
from gametape.events import log as log_module
from gametape.events.codec import FORMAT_VERSION, encode_line
from gametape.events.errors import FormatTooNew
from gametape.events.naming import ID_ALPHABET
from gametape.games.hanabi.events import HanabiClue, HanabiPlay
from tests.helpers import hanabi, moves


def _game_in(store: Store, *texts: str) -> str:
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, *texts)
    return store.create(g.setup, g.events[1:])


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().split(b"\n")[:-1]


def _write(path: Path, lines: list[bytes]) -> None:
    path.write_bytes(b"".join(line + b"\n" for line in lines))


def _problem(path: Path):
    report, _ = validate(read_log(path))
    assert report.status == "invalid"
    return report.problem


# --- format ---------------------------------------------------------------------------


def test_line_round_trip_and_field_order():
    event = HanabiClue(player=0, target=1, rank=3)
    line, h = encode_line(4, event, "abc", ts="2026-01-01T00:00:00.000Z")
    assert line.endswith(b"\n")
    assert line.startswith(b'{"v":1,"seq":4,"ts":"2026-01-01T00:00:00.000Z","event":{')
    assert line.rstrip().endswith(f',"hash":"{h}"}}'.encode())
    rec = codec.codec_for("hanabi").decode_line(line.rstrip(b"\n"))
    assert rec.event == event and rec.seq == 4 and rec.hash == h and rec.v == FORMAT_VERSION


def test_hash_is_sha256_of_previous_hash_and_line_body_as_documented():
    import hashlib

    line0, h0 = encode_line(0, HanabiPlay(player=0, card=1), "", ts="t")
    line1, h1 = encode_line(1, HanabiPlay(player=0, card=1), h0, ts="t")
    body1 = line1[: line1.rindex(b',"hash":"')]
    assert h1 == hashlib.sha256(h0.encode() + body1).hexdigest()[:32]
    assert h0 == hashlib.sha256(line0[: line0.rindex(b',"hash":"')]).hexdigest()[:32]
    _, other = encode_line(1, HanabiPlay(player=0, card=1), "x" * 32, ts="t")
    assert other != h1  # the same event after a different line hashes differently


def test_old_versions_are_upgraded_on_read_never_rewritten(monkeypatch, tmp_path):
    # Pretend the current format is 2 and that version 1 spelt the envelope's `ts` `time`.
    def upcast_v1_v2(data):
        data = dict(data)
        data["ts"] = data.pop("time")
        return data

    monkeypatch.setattr(codec, "FORMAT_VERSION", 2)
    monkeypatch.setitem(codec.UPGRADES, 1, upcast_v1_v2)
    old = msgspec.json.encode(
        {"v": 1, "seq": 0, "time": "t", "event": {"type": "hanabi.play", "player": 0, "card": 3}}
    )
    rec = codec.codec_for("hanabi").decode_line(old)
    assert rec.v == 2 and rec.ts == "t" and rec.event == HanabiPlay(player=0, card=3)


def test_a_newer_format_is_refused_with_a_clear_message():
    line = b'{"v":99,"seq":0,"ts":"t","event":{"type":"abandon"},"hash":""}'
    with pytest.raises(FormatTooNew, match="newer than this gametape"):
        codec.codec_for("hanabi").decode_line(line)


# --- bad input, each with file, line and seq --------------------------------------------


def test_malformed_json(store):
    gid = _game_in(store, "play 5")
    path = store.path(gid)
    lines = _lines(path)
    _write(path, [*lines, b'{"v":1,"seq":2,'])  # complete line (newline) but not JSON
    p = _problem(path)
    assert p.kind == "CorruptLine" and p.line == 3 and p.seq == 2
    assert "JSON" in p.message or "truncated" in p.message.lower()
    assert len(read_log(path).records) == 2  # everything before it still reads


def test_unknown_event_type(store):
    gid = _game_in(store)
    path = store.path(gid)
    _write(
        path, [*_lines(path), b'{"v":1,"seq":1,"ts":"t","event":{"type":"chess.move"},"hash":"x"}']
    )
    p = _problem(path)
    assert p.line == 2 and "chess.move" in p.message and "$.event.type" in p.message


def test_wrong_field_type(store):
    gid = _game_in(store)
    path = store.path(gid)
    _write(
        path,
        [
            *_lines(path),
            b'{"v":1,"seq":1,"ts":"t","event":{"type":"hanabi.play",'
            b'"player":"zero","card":1},"hash":"x"}',
        ],
    )
    p = _problem(path)
    assert p.line == 2 and "$.event.player" in p.message and "int" in p.message


def test_seq_gap_and_repeat(store):
    gid = _game_in(store, "play 5", "clue alice 1")
    path = store.path(gid)
    lines = _lines(path)
    _write(path, [lines[0], lines[2]])  # seq 2 after seq 0
    p = _problem(path)
    assert p.kind == "SeqError" and "gap" in p.message and p.line == 2
    _write(path, [lines[0], lines[1], lines[1]])
    p = _problem(path)
    assert p.kind == "SeqError" and "repeat" in p.message and p.line == 3


def test_edited_line_breaks_the_chain(store):
    gid = _game_in(store, "play 5", "clue alice 1")
    path = store.path(gid)
    lines = _lines(path)
    lines[1] = lines[1].replace(b'"card":0', b'"card":1')
    _write(path, lines)
    p = _problem(path)
    assert p.kind == "ChainBroken" and p.line == 2 and p.seq == 1


def test_deleted_inserted_and_swapped_lines_break_the_chain(store):
    gid = _game_in(store, "play 5", "clue alice 1", "clue alice 2")
    path = store.path(gid)
    lines = _lines(path)
    # delete seq 1 and renumber the rest so seq is continuous: only the chain can tell
    doctored = [lines[0]] + [
        ln.replace(b'"seq":%d' % i, b'"seq":%d' % (i - 1))
        for i, ln in enumerate(lines[2:], start=2)
    ]
    _write(path, doctored)
    assert _problem(path).kind == "ChainBroken"
    # swap two lines and their seqs
    a = lines[2].replace(b'"seq":2', b'"seq":3')
    b = lines[3].replace(b'"seq":3', b'"seq":2')
    _write(path, [lines[0], lines[1], b, a])
    assert _problem(path).kind == "ChainBroken"
    # insert a well-formed line carrying a hash that does not chain
    extra, _ = encode_line(2, HanabiPlay(player=2, card=10), "0" * 32)
    _write(path, [lines[0], lines[1], extra.rstrip(b"\n")])
    assert _problem(path).kind == "ChainBroken"


@settings(max_examples=300)  # cheap (about 1 ms an example) and the damage is varied
@given(st.data())
def test_the_bulk_read_accepts_exactly_what_the_line_by_line_read_accepts(data):
    """read_log decodes and checks a whole log at once (one JSON array) and reads line by
    line only at a doubt: on damaged logs (fields changed, lines moved, bytes flipped, and
    the chain forged again over the damage or not) the two give the same records and the
    same error. CI runs it on the compiled build and on the pure-Python one."""
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, "clue bob 1", "play 1", "discard 2", "clue bob red")
    ts = "2026-11-30T02:01:54.123Z"
    lines = [msgspec.json.decode(line) for line in _encoded(g.events, ts).split(b"\n")[:-1]]
    for _ in range(data.draw(st.integers(1, 2))):
        at = data.draw(st.integers(0, len(lines) - 1))
        field, value = data.draw(
            st.sampled_from(
                [
                    ("seq", at + 1),
                    ("seq", at - 1),
                    ("seq", "1"),
                    ("v", 2),
                    ("v", 0),
                    ("ts", ts[:-1]),
                    ("ts", ts + "0"),
                    ("ts", "2026-11-30 02:01:54.123Z"),
                    ("ts", 5),
                    ("event", {"type": "hanabi.play", "player": 0}),
                    ("event", {"type": "hanabi.play", "player": 0, "card": 1}),
                    ("hash", "0" * 32),
                    ("hash", None),
                    ("drop", None),
                    ("repeat", None),
                    ("stamps", None),  # two stamps of 25 and 23 characters, 48 together
                ]
            )
        )
        if field == "drop":
            del lines[at]
        elif field == "repeat":
            lines.insert(at, lines[at])
        elif field == "stamps" and at + 1 < len(lines):
            lines[at] = {**lines[at], "ts": ts + "2"}
            lines[at + 1] = {**lines[at + 1], "ts": ts[1:]}
        elif value is None:
            lines[at] = {k: v for k, v in lines[at].items() if k != field}
        else:
            lines[at] = {**lines[at], field: value}
    raw = bytearray(_rechained(lines) if data.draw(st.booleans()) else _plain(lines))
    for _ in range(data.draw(st.sampled_from([0, 0, 1, 2]))):
        at = data.draw(st.integers(0, max(0, len(raw) - 1)))
        how = data.draw(st.sampled_from(["flip", "drop", "insert", "join"]))
        if how == "join":  # two lines made one, their objects apart by a comma
            raw = raw.replace(b"\n", b",", 1)
        elif how == "flip" and raw:
            raw[at] = data.draw(st.sampled_from(b'0aZ,:"{}[]\\ \n9'))
        elif how == "drop" and raw:
            del raw[at]
        else:
            raw[at:at] = data.draw(st.sampled_from([b"\n", b",", b'{"v":1}', b" "]))
    source = _Bytes(bytes(raw))
    # the chain checked in one compiled loop (where built) agrees with the Python loop
    assert chainloop.held(bytes(raw)) == chainloop.held_py(bytes(raw))
    with patch.object(log_module, "_at_once", lambda *args: None):
        lines_read = read_log(source)
    for guess in _GUESSES:  # the codec of the log read before: none, this game's, another's
        with patch.object(log_module, "_last_codec", guess):
            bulk = read_log(source)
        assert bulk.records == lines_read.records
        assert repr(bulk.error) == repr(lines_read.error)
        assert str(bulk.error) == str(lines_read.error)


_GUESSES = (None, codec.codec_for("hanabi"), codec.codec_for("ohanami"))


def test_a_setup_line_naming_its_event_twice_is_read_as_its_last_whatever_was_read_before():
    """JSON's repeated key counts as its last: a first line whose first "event" is a setup
    and whose last is a move is refused as not a setup, after a log of its game or none."""
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, "play 1")
    bodies = [
        _body(line) for line in _encoded(g.events, "2026-11-30T02:01:54.123Z").split(b"\n")[:-1]
    ]
    bodies[0] += b',"event":{"type":"hanabi.play","player":0,"card":1}'
    forged = _rechained_raw(bodies)
    said = set()
    for guess in _GUESSES:
        with patch.object(log_module, "_last_codec", guess):
            read = read_log(_Bytes(forged))
        said.add((len(read.records), str(read.error)))
    assert len(said) == 1
    ((count, error),) = said
    assert count == 0 and "hanabi.play" in error and "not a game's setup" in error


def test_a_file_longer_than_its_size_says_is_read_whole():
    """A file that holds more than its size said when it was opened (one written to as it
    is read; /proc's say 0) is read to its end."""
    whole = Path("/proc/self/cmdline").read_bytes()
    assert os.stat("/proc/self/cmdline").st_size == 0 and whole
    assert log_module.read_bytes(Path("/proc/self/cmdline")) == whole


def test_the_compiled_chain_loop_refuses_what_is_not_a_logs_bytes():
    """``held`` takes a log's bytes; anything else is a TypeError, never a crash."""
    good = _encoded([hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5").setup], "2026-11-30T02:01:54.123Z")
    for held in {chainloop.held, chainloop.held_py}:
        assert held(good) == 1 and held(b"") == 0 and held(good[:-1]) == 0  # torn: no line
        assert held(b"\n" + good) == 0 and held(good + b"x" * 100 + b"\n") == 1
        assert held(good + good) == 1  # the second line's chain starts over: broken
    if chainloop.NATIVE is None:
        pytest.skip("the compiled loop is not in use: GAMETAPE_PURE, or not built here")
    for bad in ([good], bytearray(good), good.decode(), None, 1):
        with pytest.raises(TypeError, match="a log's bytes"):
            chainloop.NATIVE.held(bad)


@settings(max_examples=200)
@given(
    st.lists(st.binary(max_size=300), max_size=8),
    st.sampled_from([b"", b"0" * 32, codec.chain(b"", b"x")]),
)
def test_lines_sealed_in_one_loop_are_the_lines_sealed_one_by_one(bodies, prev):
    """Writing seals a run of lines at once (chainloop.sealed, compiled where built): the same
    bytes and last hash as codec.chain line by line, and the read finds the chain whole."""
    expected, last = b"", prev
    for body in bodies:
        last = codec.chain(last, body)
        expected += body + codec.HASH_MARK + last + b'"}\n'
    assert chainloop.sealed(prev, bodies) == chainloop.sealed_py(prev, bodies)
    assert chainloop.sealed(prev, bodies) == (expected, last.decode())
    if not prev and b"\n" not in b"".join(bodies):
        assert chainloop.held(expected) == len(bodies)


def test_the_compiled_seal_refuses_what_it_cannot_seal():
    if chainloop.NATIVE is None:
        pytest.skip("the compiled loop is not in use: GAMETAPE_PURE, or not built here")
    sealed = chainloop.NATIVE.sealed
    for args, error in [
        ((b"", (b"a",)), TypeError),
        ((b"", [b"a", "b"]), TypeError),
        (("", [b"a"]), TypeError),
        ((b"", None), TypeError),
        ((b"abc", [b"a"]), ValueError),
        ((b"",), TypeError),
    ]:
        with pytest.raises(error):
            sealed(*args)


def _encoded(events, ts: str) -> bytes:
    out, prev = b"", ""
    for seq, event in enumerate(events):
        line, prev = encode_line(seq, event, prev, ts)
        out += line
    return out


def _plain(lines: list[dict]) -> bytes:
    return b"".join(msgspec.json.encode(line) + b"\n" for line in lines)


def _rechained(lines: list[dict]) -> bytes:
    """The lines with their hashes forged again, as someone who edits a log and knows how."""
    out, prev = b"", b""
    for line in lines:
        body = msgspec.json.encode({k: v for k, v in line.items() if k != "hash"})[:-1]
        prev = codec.chain(prev, body)
        out += body + codec.HASH_MARK + prev + b'"}\n'
    return out


def _body(line: bytes) -> bytes:
    return line[: line.index(b',"hash"')]


def _rechained_raw(bodies: list[bytes]) -> bytes:
    """Line bodies (each a line before its hash field) sealed with a forged chain."""
    out, prev = b"", b""
    for body in bodies:
        prev = codec.chain(prev, body)
        out += body + codec.HASH_MARK + prev + b'"}\n'
    return out


class _Bytes:
    """A log that is not a file (a Source)."""

    stem = name = "g"

    def __init__(self, data: bytes) -> None:
        self.data = data

    def log_bytes(self) -> bytes:
        return self.data

    def __str__(self) -> str:
        return "g"


def test_illegal_move_in_a_log_names_line_seq_and_rule(store):
    gid = _game_in(store, "play 5")
    path = store.path(gid)
    line, _ = encode_line(2, HanabiPlay(player=0, card=1), read_log(path).last_hash)
    path.write_bytes(path.read_bytes() + line)  # written behind the engine's back
    p = _problem(path)
    assert p.kind == "IllegalMove" and p.seq == 2 and p.line == 3
    assert "turn, not" in p.message and p.rule


# --- guarantee 2: torn last line ----------------------------------------------------------


def test_torn_last_line_is_reported_with_its_offset_and_earlier_events_read(store):
    gid = _game_in(store, "play 5", "clue alice 1")
    path = store.path(gid)
    data = path.read_bytes()
    good = len(data)
    path.write_bytes(data + b'{"v":1,"seq":3,"ts":"2026')
    read = read_log(path)
    assert isinstance(read.error, TornTail)
    assert read.error.offset == good and len(read.records) == 3
    p = _problem(path)
    assert p.kind == "TornTail" and p.offset == good and p.line == 4


def test_a_torn_line_that_happens_to_be_whole_json_is_still_torn(store):
    gid = _game_in(store)
    path = store.path(gid)
    line, _ = encode_line(1, HanabiPlay(player=0, card=0), read_log(path).last_hash)
    path.write_bytes(path.read_bytes() + line.rstrip(b"\n"))
    assert isinstance(read_log(path).error, TornTail)


def test_append_refuses_a_torn_log_and_repair_keeps_the_fragment(store):
    gid = _game_in(store, "play 5")
    path = store.path(gid)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"v":1,"se')
    with pytest.raises(TornTail):
        store.append(gid, [HanabiClue(player=1, target=0, rank=1)], expected_seq=2)
    assert path.read_bytes() == whole + b'{"v":1,"se'  # nothing written
    offset, side = repair_torn(path)
    assert offset == len(whole) and path.read_bytes() == whole
    assert side.read_bytes() == b'{"v":1,"se\n'
    assert repair_torn(path) is None
    store.append(gid, [HanabiClue(player=1, target=0, rank=1)], expected_seq=2)
    assert read_log(path).error is None


# --- guarantee 1 and 3: durable, guarded appends -------------------------------------------


def test_append_fsyncs_before_it_returns(store, monkeypatch):
    gid = _game_in(store)
    calls = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd)))
    store.append(gid, [HanabiPlay(player=0, card=0)], expected_seq=1)
    assert calls


def test_stale_writer_gets_a_clear_error_and_nothing_is_written(store):
    gid = _game_in(store)
    path = store.path(gid)
    store.append(gid, [HanabiPlay(player=0, card=0)], expected_seq=1)
    before = path.read_bytes()
    with pytest.raises(StaleWrite, match="expected to write seq 1 but the log is at seq 1"):
        store.append(gid, [HanabiPlay(player=0, card=1)], expected_seq=1)
    assert path.read_bytes() == before


def _race(root: str, gid: str, seat_card: tuple[int, int], barrier, results) -> None:
    barrier.wait()
    try:
        Store(root).append(
            gid, [HanabiPlay(player=seat_card[0], card=seat_card[1])], expected_seq=1
        )
        results.put("ok")
    except StaleWrite:
        results.put("stale")


def test_two_processes_appending_at_once_one_wins_one_is_refused(store):
    gid = _game_in(store)
    ctx = mp.get_context("fork")
    for _ in range(5):
        barrier, results = ctx.Barrier(2), ctx.Queue()
        procs = [
            ctx.Process(target=_race, args=(str(store.root), gid, (0, c), barrier, results))
            for c in (0, 1)
        ]
        for p in procs:
            p.start()
        for p in procs:
            p.join(10)
        assert sorted(results.get(timeout=5) for _ in procs) == ["ok", "stale"]
        read = read_log(store.path(gid))
        assert read.error is None and len(read.records) == 2
        # start the next round from a fresh game
        gid = _game_in(store)


def test_ids_are_short_unique_and_file_safe(store):
    g = hanabi()
    ids = {store.create(g.setup) for _ in range(200)}
    assert len(ids) == 200
    # The id alphabet has digits only, sometimes: "23456789" is a valid, file-safe id too.
    assert all(len(i) == 8 and set(i) <= set(ID_ALPHABET) for i in ids)
    assert read_log(store.path(next(iter(ids)))).events[0].game in ids


def test_resolve_by_prefix_and_path(store):
    gid = _game_in(store)
    assert store.resolve(gid[:5]) == store.path(gid)
    assert store.resolve(str(store.path(gid))) == store.path(gid)


@pytest.mark.parametrize("has_syncfs", [True, False])
def test_a_batch_flushes_every_file_it_wrote_once_at_its_end(tmp_path, monkeypatch, has_syncfs):
    """One syncfs of the store's filesystem where Linux has it, else an fsync per file and
    of the directory; nothing is flushed inside the batch."""
    import gametape.events.store as store_module

    calls: list[str] = []
    monkeypatch.setattr(store_module, "syncfs", lambda d: calls.append("syncfs") or has_syncfs)
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync") or real_fsync(fd))
    store = Store(tmp_path / "s")
    game = hanabi()
    with store.batch():
        ids = [store.create(game.setup, []) for _ in range(3)]
        assert calls == []
    # without syncfs: each file, then the directory
    assert calls == (["syncfs"] if has_syncfs else ["syncfs"] + ["fsync"] * 4)
    assert all(read_log(store.path(i)).error is None for i in ids)


def test_syncfs_flushes_on_linux(tmp_path):
    from gametape.events.log import syncfs

    assert syncfs(tmp_path) is (os.uname().sysname == "Linux")
