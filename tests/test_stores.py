"""One set of store-level tests, run against both stores: the file store and PostgreSQL (#25).

Each test gets a store of each kind through the ``backend`` fixture: a fresh directory, or a
fresh database on a real PostgreSQL server started from the machine's own binaries. What a
test forges (an edited line, a line from another game), it forges the way a person with
every right would: by editing the file, or by writing the row as the database's superuser.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.engine.validate import validate
from gametape.events import StaleWrite, read_log
from gametape.events.postgres import EVENTS, PgStore
from gametape.events.store import GameStore
from gametape.events.stores import open_store
from gametape.games.hanabi.events import HanabiPlay
from gametape.usecases.check import validate_store
from tests.conftest import HANABLIVE_EXAMPLES
from tests.helpers import hanabi, moves

runner = CliRunner()


@dataclass
class Backend:
    """A store of one kind, and what a test needs to reach under it."""

    kind: str
    spec: str  # what --store takes

    def open(self) -> GameStore:
        return open_store(self.spec if self.kind == "postgresql" else Path(self.spec))

    def lines(self, gid: str) -> list[bytes]:
        return self.open().raw(self.open().path(gid)).split(b"\n")[:-1]

    def forge(self, gid: str, lines: list[bytes]) -> None:
        """Replace the game's log with ``lines``, as a person with every right would."""
        if self.kind == "file":
            Path(self.spec, f"{gid}.jsonl").write_bytes(b"".join(line + b"\n" for line in lines))
            return
        import psycopg

        with psycopg.connect(self.spec) as con:
            con.execute(f"DELETE FROM {EVENTS} WHERE game_id = %s", [gid])
            for seq, line in enumerate(lines):
                con.execute(
                    f"INSERT INTO {EVENTS} (game_id, seq, line) VALUES (%s, %s, %s)",
                    [gid, seq, line.decode()],
                )


@pytest.fixture(params=["file", "postgresql"])
def backend(request, tmp_path) -> Backend:
    if request.param == "file":
        return Backend("file", str(tmp_path / "store"))
    return Backend("postgresql", request.getfixturevalue("pg_url"))


def _game_in(store: GameStore, *texts: str) -> str:
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, *texts)
    return store.create(g.setup, g.events[1:])


def _problem(store: GameStore, gid: str):
    report, _ = validate(read_log(store.path(gid)))
    assert report.status == "invalid"
    return report.problem


def _cli(backend: Backend, *args: str, stdin: str | None = None):
    result = runner.invoke(app, ["--store", backend.spec, *args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# --- append, expected seq, chain --------------------------------------------------------


def test_create_read_and_resolve_by_prefix(backend):
    store = backend.open()
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, "play 5", "clue alice 1")
    gid = store.create(g.setup, g.events[1:])
    assert store.game_ids() == [gid]
    assert store.resolve(gid[:4]) == store.path(gid)
    read = store.read(gid)
    assert read.error is None and read.events[1:] == g.events[1:]
    assert read.events[0].game == gid


def test_heads_are_each_games_last_seq_in_one_look(backend):
    """What a server asks of the store for every game it has open, each time it looks."""
    store = backend.open()
    one, two = _game_in(store), _game_in(store, "play 5", "clue alice 1")
    assert store.heads([store.path(one), store.path(two)]) == {one: 0, two: 2}
    store.append(one, [HanabiPlay(player=0, card=0)], expected_seq=1)
    assert store.heads([store.path(one)]) == {one: 1}


def test_append_at_the_expected_seq_and_a_stale_writer_is_refused(backend):
    store = backend.open()
    gid = _game_in(store)
    assert store.append(gid, [HanabiPlay(player=0, card=0)], expected_seq=1) == 1
    before = backend.lines(gid)
    with pytest.raises(StaleWrite, match="expected to write seq 1 but the log is at seq 1"):
        store.append(gid, [HanabiPlay(player=0, card=1)], expected_seq=1)
    with pytest.raises(StaleWrite):
        store.append(gid, [HanabiPlay(player=1, card=1)], expected_seq=5)  # a gap
    assert backend.lines(gid) == before


def test_the_same_bytes_in_either_store(backend, tmp_path):
    """A game written to either store is the same log, byte for byte, but for its time."""
    store = backend.open()
    gid = _game_in(store, "play 5", "clue alice 1")
    data = store.raw(store.path(gid))
    assert data.endswith(b"\n") and data.count(b"\n") == 3
    assert read_log(store.path(gid)).error is None


def test_an_edited_line_and_another_games_line_break_the_chain(backend):
    store = backend.open()
    gid = _game_in(store, "play 5", "clue alice 1")
    other = _game_in(store, "play 4", "clue alice 1")
    lines = backend.lines(gid)
    backend.forge(gid, [lines[0], lines[1].replace(b'"card":0', b'"card":1'), lines[2]])
    p = _problem(store, gid)
    assert p.kind == "ChainBroken" and p.line == 2 and p.seq == 1
    assert p.file == str(store.path(gid))
    backend.forge(gid, [lines[0], backend.lines(other)[1], lines[2]])
    p = _problem(store, gid)
    assert p.kind == "ChainBroken" and p.line == 2
    backend.forge(gid, [lines[0], lines[2]])  # seq 2 as the second line
    p = _problem(store, gid)
    assert p.kind == "SeqError" and "gap" in p.message and p.line == 2


def _race(spec: str, kind: str, gid: str, card: int, barrier, results) -> None:
    store = Backend(kind, spec).open()  # its own connection: never one shared over a fork
    barrier.wait()
    try:
        store.append(gid, [HanabiPlay(player=0, card=card)], expected_seq=1)
        results.put("ok")
    except StaleWrite:
        results.put("stale")


def test_two_processes_appending_at_once_one_wins_one_is_refused(backend):
    ctx = mp.get_context("fork")
    for _ in range(4):
        gid = _game_in(backend.open())
        barrier, results = ctx.Barrier(2), ctx.Queue()
        procs = [
            ctx.Process(target=_race, args=(backend.spec, backend.kind, gid, c, barrier, results))
            for c in (0, 1)
        ]
        for p in procs:
            p.start()
        for p in procs:
            p.join(20)
        assert sorted(results.get(timeout=5) for _ in procs) == ["ok", "stale"]
        read = backend.open().read(gid)
        assert read.error is None and len(read.records) == 2


def _played(count: int) -> list:
    """Whole Hanabi games played by bots: legal moves to append, one by one."""
    rules = get_ruleset("hanabi")
    bot = rules.default_bot  # plays on to the end: 60 moves and more
    return [sim.play(rules, ("ann", "bob"), bot, random.Random(i)) for i in range(count)]


def _writer(spec: str, kind: str, gid: str, events: list, acked) -> None:
    """Append ``events`` to one game one at a time, saying each seq once it is
    acknowledged; a refused or cut-off append is retried from what the store holds (as a
    phone would)."""
    store = Backend(kind, spec).open()
    while True:
        try:
            seq = len(store.read(gid).records)
            if seq >= len(events):
                return
            store.append(gid, [events[seq]], expected_seq=seq)
        except Exception:  # a refused write, or a server away: try again
            time.sleep(0.05)
            continue
        acked.put((gid, seq, time.monotonic()))


def _writers(
    backend: Backend, games: int, each: int, fault=None
) -> tuple[dict[str, set[int]], list[float], float]:
    """Twenty (or ``games``) writer processes, one a game, each appending ``each`` moves;
    ``fault`` is called while they write. What each was told was written, when the
    acknowledgements came, and when the fault struck."""
    store = backend.open()
    played = _played(games)
    ids = [store.create(g.setup) for g in played]
    ctx = mp.get_context("fork")
    acked = ctx.Queue()
    procs = [
        ctx.Process(
            target=_writer,
            args=(backend.spec, backend.kind, gid, g.events[: each + 1], acked),
        )
        for gid, g in zip(ids, played, strict=True)
    ]
    for p in procs:
        p.start()
    struck = 0.0
    if fault is not None:  # once every writer is under way (counted, never timed)
        deadline = time.monotonic() + 120
        while acked.qsize() < games and time.monotonic() < deadline:
            time.sleep(0.02)
        struck = time.monotonic()
        fault()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    got: dict[str, set[int]] = {gid: set() for gid in ids}
    times = []
    while not acked.empty():
        gid, seq, at = acked.get()
        got[gid].add(seq)
        times.append(at)
    return got, times, struck


def _check_kept(backend: Backend, acked: dict[str, set[int]]) -> None:
    store = backend.open()
    reports = {r.game: r for r in validate_store(store)}
    for gid, seqs in acked.items():
        assert reports[gid].status != "invalid", reports[gid].problem
        held = len(store.read(gid).records)
        assert seqs and max(seqs) < held  # every acknowledged move is there


def test_twenty_writers_on_twenty_games_lose_nothing(backend):
    acked, _, _ = _writers(backend, games=20, each=5)
    assert all(len(s) == 5 for s in acked.values())
    _check_kept(backend, acked)


def _killed_writer(spec: str, kind: str, played: list, acked) -> None:
    store = Backend(kind, spec).open()
    for g in played:
        gid = store.create(g.setup)
        for seq in range(1, len(g.events)):
            store.append(gid, [g.events[seq]], expected_seq=seq)
            acked.put((gid, seq, 0.0))


def test_a_writer_killed_mid_append_loses_no_acknowledged_move(backend):
    ctx = mp.get_context("fork")
    acked = ctx.Queue()
    args = (backend.spec, backend.kind, _played(40), acked)
    proc = ctx.Process(target=_killed_writer, args=args)
    proc.start()
    got: dict[str, set[int]] = {}
    for _ in range(5):  # killed while it writes, after a few acknowledgements however slow
        gid, seq, _ = acked.get(timeout=120)
        got.setdefault(gid, set()).add(seq)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    while not acked.empty():
        gid, seq, _ = acked.get()
        got.setdefault(gid, set()).add(seq)
    assert got
    _check_kept(backend, got)


# --- following a game -------------------------------------------------------------------


def test_waiting_for_the_next_event_wakes_when_it_is_written(backend):
    store = backend.open()
    gid = _game_in(store)
    log = store.path(gid)
    assert not store.wait(log, 0, timeout=0.2)  # nothing new: it gives up on time
    assert store.wait(log, -1, timeout=0.2)  # seq 0 is there already

    def later() -> None:
        time.sleep(0.3)
        backend.open().append(gid, [HanabiPlay(player=0, card=0)], expected_seq=1)

    writer = threading.Thread(target=later)
    writer.start()
    assert store.wait(log, 0, timeout=60)  # woken by the write, well before the timeout
    writer.join()


# --- every command, on either store -----------------------------------------------------


def test_every_command_works_on_either_store(backend, tmp_path):
    new = json.loads(
        _cli(backend, "new", "hanabi", "-p", "ann,bob", "--seed", "3", "--json").stdout
    )
    gid = new["game"]
    assert _cli(backend, "move", gid, "p1").exit_code == 0
    assert _cli(backend, "move", gid, "clue ann 1").exit_code == 0
    assert _cli(backend, "move", gid, "undo").exit_code == 0
    assert _cli(backend, "record", gid, stdin="c ann y\np3\n").exit_code == 0
    assert _cli(backend, "show", gid).exit_code == 0
    log = _cli(backend, "log", gid)
    assert log.exit_code == 0 and "undo" in log.stdout.lower()
    assert _cli(backend, "replay", gid, "--at", "2").exit_code == 0
    page = tmp_path / "page.html"
    assert _cli(backend, "export", gid, "-f", "html", "-o", str(page)).exit_code == 0
    assert page.read_text().startswith("<!doctype html>")
    assert _cli(backend, "simulate", "hanamikoji-classic", "--games", "3").exit_code == 0
    imported = _cli(backend, "import", "hanablive", str(HANABLIVE_EXAMPLES))
    assert imported.exit_code == 0 and "imported" in imported.stdout
    assert _cli(backend, "validate").exit_code == 0
    listed = [json.loads(line) for line in _cli(backend, "list", "--json").stdout.splitlines()]
    assert gid in {r["game"] for r in listed} and len(listed) >= 5
    assert _cli(backend, "index").exit_code == 0
    count = _cli(backend, "query", "SELECT count(*) AS n FROM games", "-f", "csv")
    assert count.stdout.splitlines()[1] == str(len(listed))
    assert _cli(backend, "stats").exit_code == 0
    assert _cli(backend, "players", "merge", "ann", "alice").exit_code == 0
    people = _cli(backend, "query", "SELECT DISTINCT person FROM people WHERE name = 'ann'")
    assert "alice" in people.stdout  # the merge is kept in the store, whichever it is
    assert _cli(backend, "players", "alice").exit_code == 0
    assert _cli(backend, "repair", gid).exit_code == 0
    # the same moves, read back through the engine, in the store itself
    assert backend.open().read(gid).error is None


# --- moving a store ---------------------------------------------------------------------


def test_copying_files_to_postgresql_and_back_gives_the_same_bytes(pg_url, tmp_path):
    files = tmp_path / "files"
    result = runner.invoke(app, ["--store", str(files), "simulate", "ohanami", "--games", "6"])
    assert result.exit_code == 0
    runner.invoke(app, ["--store", str(files), "import", "hanablive", str(HANABLIVE_EXAMPLES)])
    there = runner.invoke(app, ["store", "copy", str(files), pg_url])
    assert there.exit_code == 0, there.output
    again = runner.invoke(app, ["store", "copy", str(files), pg_url])
    assert "already there" in again.stdout
    back = tmp_path / "back"
    assert runner.invoke(app, ["store", "copy", pg_url, str(back)]).exit_code == 0
    originals = sorted(files.glob("*.jsonl"))
    assert len(originals) > 6
    for path in originals:
        assert (back / path.name).read_bytes() == path.read_bytes()


def test_a_game_that_does_not_validate_is_copied_only_when_asked(tmp_path, pg_url):
    files = Backend("file", str(tmp_path / "files"))
    good, bad = _game_in(files.open(), "play 5"), _game_in(files.open(), "play 4")
    lines = files.lines(bad)
    files.forge(bad, [lines[0], lines[1].replace(b'"ts":"2', b'"ts":"1')])  # an edited time
    refused = runner.invoke(app, ["store", "copy", files.spec, pg_url])
    assert refused.exit_code == 1 and f"skipped {bad}" in refused.stdout
    assert "--with-invalid" in refused.stdout
    assert PgStore(pg_url).game_ids() == [good]
    taken = runner.invoke(app, ["store", "copy", files.spec, pg_url, "--with-invalid"])
    assert taken.exit_code == 0 and f"copied invalid {bad}" in taken.stdout
    p = _problem(PgStore(pg_url), bad)
    assert p.kind == "ChainBroken" and p.line == 2


# --- PostgreSQL's own faults ------------------------------------------------------------


def test_the_database_refuses_a_gap_and_a_second_row_at_one_seq(pg_url):
    import psycopg

    store = PgStore(pg_url)
    gid = _game_in(store, "play 5")
    line = Backend("postgresql", pg_url).lines(gid)[1].decode()
    with psycopg.connect(pg_url) as con:
        for seq, error in (
            (3, psycopg.errors.ForeignKeyViolation),
            (1, psycopg.errors.UniqueViolation),
        ):
            with pytest.raises(error), con.transaction():
                con.execute(
                    f"INSERT INTO {EVENTS} (game_id, seq, line) VALUES (%s, %s, %s)",
                    [gid, seq, line],
                )
    assert store.read(gid).error is None


@pytest.mark.parametrize(
    ("make_url", "code", "said"),
    [
        (lambda url: url.rsplit(":", 1)[0] + ":1/x", 2, "cannot connect to the store"),
        (lambda url: url, 2, "no gametape tables in postgresql://"),
        (lambda url: "postgresql://[::1", 2, "not a PostgreSQL URL"),
        (
            lambda url: url.replace("gametape@", "gametape:s3cret@").rsplit(":", 1)[0] + ":1/x",
            2,
            "cannot connect",
        ),
        # #37: a URL psycopg cannot read printed its password in psycopg's own words
        (lambda url: "postgresql://club:s3cret%zz@127.0.0.1:5432/x", 2, "not a PostgreSQL URL"),
        (lambda url: "postgresql://club:s3cret@[::1:5432/x", 2, "not a PostgreSQL URL"),
        (
            lambda url: url.replace("gametape@", "gametape:s3cret@") + "?sslmode=s3cret",
            2,
            "sslmode",
        ),
    ],
)
def test_a_store_that_cannot_be_used_is_one_line_naming_it(pg_url, make_url, code, said):
    url = make_url(pg_url)
    result = runner.invoke(app, ["--store", url, "list"])
    assert result.exit_code == code and said in result.stderr
    assert "Traceback" not in result.output and "s3cret" not in result.output
    assert len([line for line in result.stderr.splitlines() if line.startswith("error:")]) == 1


def test_a_role_with_insert_and_select_only_records_and_one_without_insert_cannot(
    pg_server, pg_url
):
    database = pg_url.rsplit("/", 1)[1]
    assert runner.invoke(app, ["--store", pg_url, "store", "init"]).exit_code == 0
    for role, rights in (("scribe", "SELECT, INSERT"), ("reader", "SELECT")):
        pg_server.sql(f"CREATE ROLE {role} LOGIN")
        pg_server.sql(
            f"GRANT {rights} ON gametape_events, gametape_players, gametape_notes TO {role}",
            database,
        )
    scribe, reader = (pg_server.url(database, user=r) for r in ("scribe", "reader"))
    made = runner.invoke(app, ["--store", scribe, "new", "hanabi", "-p", "a,b", "--json"])
    assert made.exit_code == 0, made.output
    gid = json.loads(made.stdout)["game"]
    assert runner.invoke(app, ["--store", scribe, "move", gid, "p1"]).exit_code == 0
    assert runner.invoke(app, ["--store", scribe, "players", "merge", "a", "b"]).exit_code != 0
    before = PgStore(pg_url).raw(PgStore(pg_url).path(gid))
    refused = runner.invoke(app, ["--store", reader, "move", gid, "p2"])
    assert refused.exit_code == 2 and "the role may not" in refused.stderr
    assert "Traceback" not in refused.output
    assert PgStore(pg_url).raw(PgStore(pg_url).path(gid)) == before
    assert runner.invoke(app, ["--store", reader, "validate"]).exit_code == 0


@pytest.mark.parametrize("fault", ["restart", "kill"])
def test_twenty_writers_lose_nothing_when_postgresql_restarts_or_is_killed(
    pg_server, pg_url, fault
):
    backend = Backend("postgresql", pg_url)
    PgStore(pg_url).ensure()
    acked, times, struck = _writers(backend, games=20, each=60, fault=getattr(pg_server, fault))
    assert min(times) < struck < max(times)  # the fault struck while they wrote
    _check_kept(backend, acked)
    store = backend.open()
    # each writer went on after the fault until its game had all its moves: a move whose
    # commit the fault cut off was either in the log or written again, never lost
    assert all(len(store.read(gid).records) == 61 for gid in acked)


def test_a_recording_shows_moves_made_elsewhere_as_they_come(backend):
    """What `record` runs beside its prompt: a move recorded by another writer reaches the
    recording (read again, described) without anyone asking, and its own moves never do."""
    from gametape.usecases.record import Recording

    store = backend.open()
    gid = _game_in(store)
    recording = Recording(store, store.path(gid))
    stop, told = threading.Event(), []
    follower = threading.Thread(target=recording.follow, args=(stop, told.extend, 0.2))
    follower.start()
    try:
        recording.move("play 5")  # its own move: not news
        bobs = recording.game.parse("play 1")  # bob's move, typed at another terminal
        backend.open().append(gid, [bobs], expected_seq=2)
        deadline = time.monotonic() + 10
        while not told and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop.set()
        follower.join(5)
    assert len(told) == 1 and told[0].startswith("bob misplayed y5 from slot 1")
    assert len(recording.game.events) == 3 and recording.game.to_act() == (2,)


def test_a_database_that_goes_away_mid_command_is_one_line_and_loses_nothing():
    """`record` reading moves from a pipe: the first is recorded, then the server stops; the
    second is one line naming the store (exit 2), and the first is still there after."""
    import subprocess
    import sys

    from gametape.testing.postgres import Server

    server = Server().init().start()  # its own server: this test stops it
    try:
        url = server.create_database("club")
        made = runner.invoke(app, ["--store", url, "new", "hanabi", "-p", "ann,bob", "--json"])
        gid = json.loads(made.stdout)["game"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "gametape.cli.app", "--store", url, "record", gid],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdin and proc.stdout
        proc.stdin.write("p1\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if "✓" in line:  # the first move is recorded
                break
        server.halt()
        stdout, stderr = proc.communicate("p1\n", timeout=60)
        assert proc.returncode == 2, stderr
        assert "Traceback" not in stderr + stdout
        errors = [line for line in stderr.splitlines() if line.startswith("error:")]
        assert len(errors) == 1 and "the store postgresql://" in errors[0], stderr
        server.start()
        read = PgStore(url).read(gid)
        assert read.error is None and len(read.records) == 2  # the first move, and only it
    finally:
        server.stop()


@pytest.mark.parametrize("ref", ["x' OR '1'='1", "../../etc/passwd", "a;DROP TABLE x", "%", "_"])
def test_a_game_id_that_is_no_id_is_refused_before_the_store_is_asked(backend, ref):
    store = backend.open()
    gid = _game_in(store)
    before = store.raw(store.path(gid))
    result = _cli(backend, "show", ref)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert store.raw(store.path(gid)) == before and store.game_ids() == [gid]


def test_an_index_after_one_move_reads_that_game_only(backend):
    store = backend.open()
    ids = [_game_in(store, "play 5") for _ in range(3)]
    first = json.loads(_cli(backend, "index", "--json").stdout)
    assert first["added"] == 3
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5 g1 g2 g3 g4 g5")
    moves(g, "play 5", "clue alice 1")
    store.append(ids[1], [g.events[2]], expected_seq=2)
    again = json.loads(_cli(backend, "index", "--json").stdout)
    # the changed game is read again whole (its state is a fold of all of it); no other is
    assert again["updated"] == 1 and again["unchanged"] == 2 and again["events"] == 2


@pytest.mark.parametrize(
    "name", ["[bold]x[/bold]", "<script>x</script>", "a\u202eb", "Robert'); DROP TABLE x;--"]
)
def test_hostile_names_are_kept_and_shown_as_text_in_either_store(backend, name):
    made = _cli(backend, "new", "hanabi", "-p", f"{name},bob", "--json")
    if made.exit_code != 0:  # refused by the one rule for names: nothing written
        assert made.exit_code == 2 and "player names" in made.stderr
        assert "Traceback" not in made.output
        return
    gid = json.loads(made.stdout)["game"]
    listed = json.loads(_cli(backend, "list", "--json").stdout)
    assert listed["players"][0] == name
    shown = _cli(backend, "show", gid)
    assert name.split()[0] in shown.stdout  # as typed, never read as markup
    assert backend.open().read(gid).events[0].players[0] == name


def test_a_refused_import_writes_nothing_to_either_store(backend, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": ["a", "b"], "deck": "not a deck", "actions": 7}')
    store = backend.open().ensure()
    before = store.game_ids()
    result = _cli(backend, "import", "hanablive", str(bad))
    assert result.exit_code == 1 and "refused" in result.stdout
    assert backend.open().game_ids() == before


def test_notes_and_branches_work_the_same_on_either_store(backend):
    store = backend.open()
    gid = _game_in(store, "play 5", "clue alice 1", "play 4")
    assert (
        _cli(backend, "note", gid, "2", "a fine clue", "--mark", "!", "--by", "ann").exit_code == 0
    )
    listed = [
        json.loads(line) for line in _cli(backend, "notes", gid, "--json").stdout.splitlines()
    ]
    assert [(n["n"], n["seq"], n["mark"]) for n in listed] == [(1, 2, "!")]
    made = json.loads(_cli(backend, "branch", gid, "--at", "1", "--json").stdout)
    assert _cli(backend, "move", made["game"], "clue cara 3").exit_code == 0
    assert _cli(backend, "validate").exit_code == 0
    shown = _cli(backend, "log", gid)
    assert f"branch {made['game']}" in shown.stdout
    rows = _cli(backend, "query", "SELECT count(*) FROM annotations", "-f", "csv")
    assert rows.stdout.splitlines()[1] == "1"
    forks = _cli(
        backend,
        "query",
        "SELECT parent_game, fork_seq FROM games WHERE fork_seq IS NOT NULL",
        "-f",
        "csv",
    )
    assert forks.stdout.splitlines()[1] == f"{gid},1"


def test_a_copy_takes_the_review_with_it_notes_and_merged_names(backend, tmp_path):
    """#37: store copy left each game's notes and the store's merged names behind, so
    `notes` and `players` answered differently after a copy (files to files, and to and from
    PostgreSQL: every pair the backend fixture makes)."""
    source = backend.spec
    assert runner.invoke(app, ["--store", source, "simulate", "hanabi", "-n", "2"]).exit_code == 0
    gid = sorted(backend.open().game_ids())[0]
    for text in ("a first note", "a second"):
        assert runner.invoke(app, ["--store", source, "note", gid, "1", text]).exit_code == 0
    other = ["--store", source, "new", "hanabi", "-p", "Alicia,zed", "--seed", "1"]
    assert runner.invoke(app, other).exit_code == 0
    merged = runner.invoke(app, ["--store", source, "players", "merge", "Alicia", "alice"])
    assert merged.exit_code == 0, merged.output
    target = tmp_path / "copy"
    copied = runner.invoke(app, ["store", "copy", source, str(target)])
    assert copied.exit_code == 0, copied.output
    assert "2 notes copied" in copied.stdout and "merged names" in copied.stdout
    for args in (["notes", gid, "--json"], ["players", "--json"]):
        here = runner.invoke(app, ["--store", source, *args])
        there = runner.invoke(app, ["--store", str(target), *args])
        assert here.exit_code == there.exit_code == 0, there.output
        assert here.stdout.replace(source, "S") == there.stdout.replace(str(target), "S")
    again = runner.invoke(app, ["store", "copy", source, str(target)])
    assert again.exit_code == 0 and "notes copied" not in again.stdout  # nothing twice


def test_the_hints_for_a_store_without_tables_work_as_written(pg_server, pg_url):
    """#37: the hint said `gametape store init URL`, a command that takes no URL; and a role
    that may not create tables was told it needs SELECT and INSERT."""
    import shlex

    database = pg_url.rsplit("/", 1)[1]
    pg_server.sql("CREATE ROLE plain LOGIN")
    pg_server.sql("REVOKE CREATE ON SCHEMA public FROM PUBLIC", database)
    plain = pg_server.url(database, user="plain")
    made = runner.invoke(app, ["--store", plain, "new", "hanabi", "-p", "a,b"])
    assert made.exit_code == 2 and "may not create tables" in made.stderr, made.output
    assert "store init" in made.stderr and "SELECT and INSERT" in made.stderr
    missing = runner.invoke(app, ["--store", pg_url, "list"])
    assert missing.exit_code == 2 and "no gametape tables" in missing.stderr
    hinted = missing.stderr.split("`")[1]  # the command the hint gives, as written
    assert hinted.startswith("gametape --store ")
    done = runner.invoke(app, shlex.split(hinted)[1:])
    assert done.exit_code == 0, done.output
    assert runner.invoke(app, ["--store", pg_url, "list"]).exit_code == 0


def test_a_commit_whose_answer_was_lost_is_found_or_said_to_be_unknown(pg_server, pg_url):
    """#37: a move whose commit reached the server but whose answer did not was reported as
    failed (a retry would record it twice). After such a failure the store looks for the
    lines it sent: found, the move counts; the store gone, the message says it may have been
    recorded. The race itself (a server stopped between commit and answer) is not
    reproducible on demand; the two ways out of it are checked here on a real server."""
    from gametape.events.postgres import PgStore

    store = PgStore(pg_url).ensure()
    assert runner.invoke(app, ["--store", pg_url, "new", "hanabi", "-p", "a,b"]).exit_code == 0
    gid = store.game_ids()[0]
    move = runner.invoke(app, ["--store", pg_url, "move", gid, "play 1"])
    assert move.exit_code == 0, move.output
    sent = store.raw(store.path(gid)).split(b"\n")[1] + b"\n"
    assert store._committed(gid, 1, sent) is True
    assert store._committed(gid, 1, b'{"v":1,"seq":1}\n') is False
    away = PgStore(pg_url.rsplit(":", 1)[0] + ":1/x")  # a store that cannot be asked
    assert away._committed(gid, 1, sent) is None


def test_two_stores_in_one_database_keep_two_read_models(pg_server, pg_url):
    """#37: two stores at one URL differing only in their search_path shared one read-model
    cache, so each index threw the other's model away."""
    database = pg_url.rsplit("/", 1)[1]
    urls = []
    for schema, games in (("east", "2"), ("west", "3")):
        pg_server.sql(f"CREATE SCHEMA {schema}", database)
        url = f"{pg_url}?options=-csearch_path%3D{schema}"
        assert runner.invoke(app, ["--store", url, "store", "init"]).exit_code == 0
        made = runner.invoke(app, ["--store", url, "simulate", "hanabi", "-n", games])
        assert made.exit_code == 0, made.output
        urls.append(url)
    from gametape.analytics import ReadModel

    east, west = (ReadModel(open_store(url)) for url in urls)
    assert east.path != west.path  # a model each
    for url, count in ((urls[0], 2), (urls[1], 3)):
        asked = runner.invoke(app, ["--store", url, "query", "SELECT count(*) AS n FROM games"])
        assert asked.exit_code == 0 and f"│ {count} " in asked.stdout, asked.output
    assert not ReadModel(open_store(urls[0])).stale()  # west's index left east's model alone


@pytest.mark.parametrize("bad", [b"\xff\xfe", b"\x00"], ids=["not UTF-8", "NUL"])
def test_a_log_that_cannot_be_rows_is_refused_by_name_and_the_copy_goes_on(tmp_path, pg_url, bad):
    """#37: a byte that is not UTF-8 ended `store copy --with-invalid` in a traceback, and a
    NUL stopped the whole copy with a configuration error."""
    files = Backend("file", str(tmp_path / "files"))
    good, broken = _game_in(files.open(), "play 5"), _game_in(files.open(), "play 4")
    lines = files.lines(broken)
    files.forge(broken, [lines[0], lines[1].replace(b'"ts":"', b'"ts":"' + bad)])
    copied = runner.invoke(app, ["store", "copy", files.spec, pg_url, "--with-invalid"])
    assert copied.exit_code == 1 and "Traceback" not in copied.output
    assert f"refused {broken}: line 2 holds" in copied.stdout
    assert PgStore(pg_url).game_ids() == [good]


def test_two_copies_into_one_database_at_once_both_end_in_words(tmp_path, pg_url):
    """#37: the loser of two `store copy` runs racing for one game printed only its id. Here
    the race is won on purpose: the game is put in the destination between the copy's look
    at what is there and its write."""
    from gametape.usecases import copying

    files = Backend("file", str(tmp_path / "files"))
    gid = _game_in(files.open(), "play 5")
    src, dst = files.open(), PgStore(pg_url).ensure()
    put = dst.put

    def first_another(game_id, data):
        put(game_id, data)  # the other copy wins
        put(game_id, data)  # this one: FileExistsError

    dst.put = first_another  # type: ignore[method-assign]
    results = list(copying.copy_store(src, dst))
    assert (results[0].game, results[0].outcome) == (gid, "already there")


# --- forged logs: one report on both stores (#37) ---------------------------------------


def _forged(backend: Backend, gid: str, how: str) -> None:
    """Forge the game's log as a person with every right would: on PostgreSQL with the
    foreign key got round (session_replication_role) and rows edited in place."""
    lines = backend.lines(gid)
    if how == "first line gone":
        new = lines[1:]
    elif how == "an old line edited":
        new = [lines[0], lines[1].replace(b'"ts":"2', b'"ts":"1'), *lines[2:]]
    elif how == "the last hash forged":
        new = [*lines[:-1], lines[-1][:-34] + b'"' + b"0" * 32 + b'"}']
    else:  # a line that is not JSON
        new = [*lines[:-1], b"this is not JSON"]
    if backend.kind == "file":
        Path(backend.spec, f"{gid}.jsonl").write_bytes(b"".join(line + b"\n" for line in new))
        return
    import psycopg

    with psycopg.connect(backend.spec, autocommit=True) as con:
        con.execute("SET session_replication_role = replica")
        if how == "first line gone":
            con.execute(f"DELETE FROM {EVENTS} WHERE game_id = %s AND seq = 0", [gid])
            return
        seq = 1 if how == "an old line edited" else len(lines) - 1
        con.execute(
            f"UPDATE {EVENTS} SET line = %s WHERE game_id = %s AND seq = %s",
            [new[seq].decode(), gid, seq],
        )


def _reports(backend: Backend, gid: str) -> dict[str, object]:
    checked = json.loads(_cli(backend, "validate", "--json").stdout.splitlines()[0])
    listed = _cli(backend, "list", "--json")
    shown = _cli(backend, "show", gid)
    status = _cli(
        backend, "query", f"SELECT status FROM games WHERE game_id = '{gid}'", "-f", "json"
    )
    return {
        "validate": (checked["status"], checked["problem"]["kind"], checked["problem"]["line"]),
        "list": (listed.exit_code, gid in listed.stdout, "invalid" in listed.stdout),
        "show": shown.exit_code,
        "read model": json.loads(status.stdout or "{}"),
    }


@pytest.mark.parametrize(
    "how", ["first line gone", "an old line edited", "the last hash forged", "not JSON"]
)
def test_a_forged_log_is_reported_the_same_on_both_stores(tmp_path, pg_url, how):
    """Each forgery after the read model was built: validate, list, show and the read model
    say the same on both stores (the incremental index noticing the edit, the game with no
    setup row still listed)."""
    said = {}
    for backend in (Backend("file", str(tmp_path / "files")), Backend("postgresql", pg_url)):
        gid = _game_in(backend.open(), "play 1", "play 1", "play 1")
        assert _cli(backend, "index").exit_code == 0
        _forged(backend, gid, how)
        said[backend.kind] = _reports(backend, gid)
        assert said[backend.kind]["validate"][0] == "invalid", said
        assert said[backend.kind]["read model"] == {"status": "invalid"}, said
    assert said["file"] == said["postgresql"], said


def test_one_row_that_is_not_json_does_not_stop_record_for_the_store(backend):
    """#37: `record` with no GAME picks the latest game; one row that was not JSON failed
    that query for the whole store."""
    good, bad = _game_in(backend.open(), "play 1"), _game_in(backend.open(), "play 1")
    _forged(backend, bad, "not JSON")
    done = _cli(backend, "record", stdin="q\n")
    assert done.exit_code == 0, done.output
    assert good in done.output or bad in done.output
