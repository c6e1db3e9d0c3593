"""The hostile-input suite, round 3 (#29): stores and files the machine will not let us use,
DuckDB's routes out, terminal escapes, and input that never ends.

Each case checks the exit code, the one-line message, that no traceback is shown, and that no
byte changed where nothing should. The read-only cases run the real command as an
unprivileged user (``nobody`` when the suite runs as root, as CI does), as a person would;
the full-disk cases mount a small tmpfs (root only; skipped with the reason elsewhere).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.engine.game import notation
from gametape.events import read_log
from gametape.usecases.record import open_game
from tests.conftest import HANABLIVE_EXAMPLES
from tests.test_hostile import gt, snapshot

ROOT = os.geteuid() == 0


def one_line_error(result, *words: str) -> None:
    """The command failed with one error line (and at most a hint) holding ``words``."""
    lines = result.stderr.strip().splitlines()
    assert lines and lines[0].startswith("error: "), result.output
    assert len(lines) <= 2, result.output
    for word in words:
        assert word in lines[0], (word, result.output)


# --- a read-only store, as an unprivileged user ---------------------------------------------


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A temporary directory every user can enter (pytest's own is private to its owner)."""
    path = Path(tempfile.mkdtemp(prefix="gametape-ro-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


class Ran:
    """What a command run as another user printed, and its exit status."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def as_user(home: Path) -> dict[str, object]:
    """Who runs the command: ``nobody`` when we are root (as CI is), else ourselves."""
    if ROOT:
        shutil.chown(home, "nobody", "nogroup")
    return {"home": str(home)}


def run_as(kw: dict[str, object], *args: str, stdin: str = "") -> Ran:
    """Run the CLI as an unprivileged user: a child process that drops root (setgroups,
    setgid, setuid to nobody) and then runs the command. The interpreter is already loaded,
    so the child needs no access to where Python is installed (under /root here), nor to a
    checkout in a private temporary folder: what the commands import lazily is loaded too."""
    import rich.panel
    import rich.progress
    import rich.rule
    import rich.table  # noqa: F401

    import gametape.analytics.model
    import gametape.analytics.reports
    import gametape.usecases.importing
    import gametape.usecases.replaying
    import gametape.usecases.review  # noqa: F401

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 0
        try:
            os.close(read)
            if ROOT:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            os.environ["HOME"] = str(kw["home"])
            os.environ.pop("XDG_CACHE_HOME", None)
            result = CliRunner().invoke(app, list(args), input=stdin, env={"GAMETAPE_STORE": ""})
            crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
            payload = {
                "code": result.exit_code,
                "stdout": result.stdout,
                "stderr": result.stderr + (f"\nTraceback: {result.exception!r}" if crashed else ""),
            }
            with os.fdopen(write, "w") as f:
                json.dump(payload, f)
        except BaseException:
            status = 3
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0 and data, "the child failed before it could report"
    got = json.loads(data)
    assert "Traceback" not in got["stderr"], got["stderr"]
    return Ran(got["code"], got["stdout"], got["stderr"])


@pytest.fixture
def read_only_store(shared_tmp: Path) -> tuple[Path, Path, dict[str, object]]:
    """A store with two finished games and a fresh read model, then made read-only."""
    root = shared_tmp / "store"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "2").exit_code == 0
    assert gt("--store", str(root), "new", "hanabi", "-p", "ann,ben", "--seed", "1").exit_code == 0
    assert gt("--store", str(root), "index").exit_code == 0
    for path in [root, *root.iterdir()]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    home = shared_tmp / "home"
    home.mkdir()
    yield root, home, as_user(home)
    root.chmod(0o755)


def in_progress(root: Path) -> str:
    for path in sorted(root.glob("*.jsonl")):
        if not open_game(read_log(path)).is_over:
            return path.stem
    raise AssertionError("no game in progress")


WRITERS = (
    ["new", "hanabi", "-p", "a,b"],
    ["simulate", "hanabi", "-n", "1"],
    ["index"],
    ["index", "--rebuild"],
    ["export", "--parquet", "STORE/out"],
    ["repair", "GAME"],
    ["move", "GAME", "MOVE"],
    ["record", "GAME"],
    ["import", "hanablive", "FIXTURE"],
)


@pytest.mark.parametrize("cmd", WRITERS, ids=lambda c: " ".join(c[:2]))
def test_a_read_only_store_refuses_writes_in_one_line(read_only_store, cmd):
    root, home, kw = read_only_store
    gid = in_progress(root)
    fixture = str(shutil.copy(HANABLIVE_EXAMPLES / "example_game.json", home.parent))
    move = next_move(root / f"{gid}.jsonl")
    args = [a.replace("STORE", str(root)).replace("GAME", gid) for a in cmd]
    args = [{"FIXTURE": fixture, "MOVE": move}.get(a, a) for a in args]
    before = snapshot(root)
    result = run_as(kw, "--store", str(root), *args, stdin=move + "\n")
    if cmd[0] == "repair":  # nothing to repair writes nothing, and says so
        assert result.returncode == 0 and "not torn" in result.stdout
    else:
        assert result.returncode == 2, (cmd, result.stdout, result.stderr)
        one_line_error(result)
        assert str(root) in result.stderr or "read-only" in result.stderr, result.stderr
    assert snapshot(root) == before


def test_a_read_only_log_in_a_writable_store_refuses_a_move(shared_tmp):
    root = shared_tmp / "store"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "2").stdout.strip()
    path = root / f"{gid}.jsonl"
    path.chmod(0o444)
    kw = as_user(shared_tmp)
    if ROOT:
        root.chmod(0o777)
    before = path.read_bytes()
    move = next_move(path)
    for args, stdin in ((["move", gid, move], ""), (["record", gid], move + "\n")):
        result = run_as(kw, "--store", str(root), *args, stdin=stdin)
        assert result.returncode == 2, result.stderr
        one_line_error(result, "permission denied", gid)
    assert path.read_bytes() == before


READERS = (["validate"], ["list"], ["show", "GAME"], ["log", "GAME"], ["replay", "GAME", "--all"])


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: c[0])
def test_reading_a_read_only_store_works(read_only_store, cmd):
    root, _home, kw = read_only_store
    args = [a.replace("GAME", in_progress(root)) for a in cmd]
    result = run_as(kw, "--store", str(root), *args)
    assert result.returncode == 0, result.stderr


def test_query_and_stats_on_a_read_only_store_use_a_fresh_model_or_one_elsewhere(
    read_only_store,
):
    root, home, kw = read_only_store
    before = snapshot(root)
    result = run_as(kw, "--store", str(root), "query", "SELECT count(*) AS n FROM games")
    assert result.returncode == 0 and "3" in result.stdout, result.stderr
    assert "read-only" not in result.stderr  # the store's own model was fresh
    # a log changes behind the model's back: the model is stale and the store read-only
    root.chmod(0o755)
    gid = in_progress(root)
    (root / f"{gid}.jsonl").chmod(0o644)
    assert gt("--store", str(root), "move", gid, next_move(root / f"{gid}.jsonl")).exit_code == 0
    (root / f"{gid}.jsonl").chmod(0o444)
    root.chmod(0o555)
    before = snapshot(root)
    model = (root / "gametape.duckdb").read_bytes()
    for args in (["query", "SELECT sum(events) AS n FROM games"], ["stats"]):
        result = run_as(kw, "--store", str(root), *args)
        assert result.returncode == 0, result.stderr
        assert "the store is read-only; the read model is kept in" in result.stderr
    assert snapshot(root) == before and (root / "gametape.duckdb").read_bytes() == model
    assert list((home / ".cache" / "gametape" / "models").glob("*.duckdb"))


# --- stores that are not directories, names too long -----------------------------------------


@pytest.mark.parametrize(
    "cmd", (["new", "hanabi", "-p", "a,b"], ["simulate", "hanabi"], ["list"], ["index"])
)
def test_a_store_that_is_a_file_a_device_or_a_loop_is_one_line(tmp_path, cmd):
    (tmp_path / "afile").write_text("x\n")
    os.symlink(tmp_path / "loop1", tmp_path / "loop2")
    os.symlink(tmp_path / "loop2", tmp_path / "loop1")
    for where, why in (
        (tmp_path / "afile", "not a directory"),
        (Path("/dev/null"), "not a directory"),
        (tmp_path / "loop1", "a symlink loop"),
    ):
        result = gt("--store", str(where), *cmd)
        assert result.exit_code == 2, (where, result.output)
        one_line_error(result, "no store at", why)
    assert (tmp_path / "afile").read_text() == "x\n"


def test_ids_and_output_names_too_long_for_the_file_system(tmp_path):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "3").stdout.strip()
    before = snapshot(tmp_path)
    result = gt("--store", str(root), "show", "x" * 5000)
    assert result.exit_code == 2
    one_line_error(result, "is not a game id")
    assert len(result.stderr) < 400
    long_name = tmp_path / ("p" * 300 + ".html")
    result = gt("--store", str(root), "export", gid, "--format", "html", "-o", str(long_name))
    assert result.exit_code == 2, result.output
    one_line_error(result, "the name is too long for the file system")
    assert snapshot(tmp_path) == before


# --- one entry whose name is not UTF-8 ------------------------------------------------------


def test_a_store_entry_whose_name_is_not_utf8_is_reported_and_the_rest_works(tmp_path):
    root = tmp_path / "s"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "2").exit_code == 0
    good = sorted(root.glob("*.jsonl"))[0]
    with open(os.path.join(os.fsencode(root), b"bad\xff.jsonl"), "wb") as f:
        f.write(good.read_bytes())
    result = gt("--store", str(root), "validate")
    assert result.exit_code == 1 and "bad\\xff" in result.stdout and "not UTF-8" in result.stdout
    rows = [
        json.loads(line) for line in gt("--store", str(root), "list", "--json").stdout.splitlines()
    ]
    assert sorted(r["status"] for r in rows) == ["finished", "finished", "invalid"]
    for cmd in (["index"], ["query", "SELECT count(*) FROM games"], ["stats"]):
        assert gt("--store", str(root), *cmd).exit_code == 0, cmd
    out = tmp_path / "pq"
    assert gt("--store", str(root), "export", "--parquet", str(out)).exit_code == 0


# --- a damaged read model -------------------------------------------------------------------


DAMAGES = {
    "empty": lambda p: p.write_bytes(b""),
    "random": lambda p: p.write_bytes(os.urandom(70_000)),
    "cut in half": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "a directory": lambda p: (p.unlink(), p.mkdir(), (p / "x").write_text("mine")),
    "a link to a non-database": lambda p: (
        p.unlink(),
        (p.parent.parent / "target.txt").write_text("not a database\n"),
        p.symlink_to(p.parent.parent / "target.txt"),
    ),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=str)
@pytest.mark.parametrize(
    "cmd", (["index"], ["query", "SELECT count(*) FROM games"], ["stats"], ["export", "--parquet"])
)
def test_a_damaged_read_model_is_rebuilt_saying_so(tmp_path, damage, cmd):
    root = tmp_path / "s"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "2").exit_code == 0
    assert gt("--store", str(root), "index").exit_code == 0
    DAMAGES[damage](root / "gametape.duckdb")
    args = [*cmd, str(tmp_path / "pq")] if cmd[0] == "export" else cmd
    result = gt("--store", str(root), *args)
    assert result.exit_code == 0, result.output
    if damage != "empty":  # DuckDB takes an empty file for a new database: nothing to say
        assert "is damaged" in result.stderr and "rebuilt" in result.stderr, result.stderr
    assert gt("--store", str(root), "query", "SELECT count(*) FROM games").stdout.count("2") >= 1
    if damage == "a directory":
        assert (root / "gametape.duckdb.damaged" / "x").read_text() == "mine"
    if damage == "a link to a non-database":
        assert (tmp_path / "target.txt").read_text() == "not a database\n"


def test_index_rebuild_recovers_a_model_that_is_a_directory(tmp_path):
    root = tmp_path / "s"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "1").exit_code == 0
    (root / "gametape.duckdb").mkdir()
    result = gt("--store", str(root), "index", "--rebuild")
    assert result.exit_code == 0, result.output
    assert (root / "gametape.duckdb").is_file() and (root / "gametape.duckdb.damaged").is_dir()


# --- a full disk ----------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs of our own (root only: mount needs it)."""
    if not ROOT or not shutil.which("mount"):
        pytest.skip("a full-disk test mounts a small tmpfs, which needs root")
    mnt = tmp_path / "small"
    mnt.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mnt)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def fill(disk: Path) -> None:
    """Take every free byte of ``disk``."""
    with open(disk / "filler", "ab", buffering=0) as f:
        for size in (1 << 16, 1 << 12, 1 << 8, 1):
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * size)


def until_full(path: Path, write: Callable[[int], Any], tries: int = 2000) -> tuple[Any, int]:
    """``write(i)`` again and again until the disk refuses one: that answer, and ``path``'s
    size before it."""
    for i in range(tries):
        size = path.stat().st_size if path.exists() else 0
        result = write(i)
        if result.exit_code != 0:
            return result, size
    raise AssertionError("the disk never filled")


def next_move(path: Path) -> str:
    """A legal move for the game in ``path`` that does not end it (a game that ends is no
    place to go on appending), in notation."""
    game = open_game(read_log(path))
    rules, state = game.ruleset, game.state
    moves = game.legal_moves(game.to_act()[0])
    move = next((m for m in moves if not rules.is_over(rules.apply(state, m))), moves[0])
    return notation(rules, state, move)


def test_a_full_disk_writes_nothing_half_and_says_so(small_disk, tmp_path):
    root = small_disk / "store"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b,c", "--seed", "5").stdout.strip()
    log = root / f"{gid}.jsonl"
    torn_gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "6").stdout.strip()
    torn = root / f"{torn_gid}.jsonl"
    with open(torn, "ab") as f:
        f.write(b'{"v":1,"seq":1,"torn')
    html_out = small_disk / "page.html"
    fill(small_disk)
    before = snapshot(root)
    fixture = str(HANABLIVE_EXAMPLES / "example_game.json")
    for cmd in (
        ["new", "hanabi", "-p", "x,y"],
        ["simulate", "hanabi", "-n", "3"],
        ["import", "hanablive", fixture],
        ["repair", torn_gid],
        ["index"],
        ["export", gid, "--format", "html", "-o", str(html_out)],
    ):
        result = gt("--store", str(root), *cmd)
        assert result.exit_code == 2, (cmd, result.output)
        one_line_error(result, "the disk is full")
        assert snapshot(root) == before, cmd
        assert not (root / "gametape.duckdb").exists() and not html_out.exists()
    # A move fits while the log's last page has room; the first one that needs a new page
    # fails whole: the log is as it was, and every move acknowledged before is there.
    fill(small_disk)  # what the refused commands cleaned up is free again: take it
    result, size = until_full(log, lambda _: gt("--store", str(root), "move", gid, next_move(log)))
    assert result.exit_code == 2, result.output
    one_line_error(result, "the disk is full")
    assert log.stat().st_size == size
    result = gt("--store", str(root), "record", gid, input=next_move(log) + "\n")
    assert result.exit_code == 2 and "the disk is full" in result.output, result.output
    assert log.stat().st_size == size
    assert gt("--store", str(root), "validate", gid).exit_code == 0
    (small_disk / "filler").unlink()
    assert gt("--store", str(root), "repair", torn_gid).exit_code == 0
    assert gt("--store", str(root), "validate").exit_code == 0


def test_a_full_disk_leaves_no_half_note_and_the_next_note_is_whole(small_disk):
    """#53: on a full disk `note` wrote half a line and ended in a StopIteration traceback;
    once space was freed, the next note was glued to the fragment and never shown."""
    root = small_disk / "store"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "1").exit_code == 0
    gid = next(root.glob("*.jsonl")).stem
    notes = root / f"{gid}.notes"
    fill(small_disk)
    result, size = until_full(  # a note fits while the file's last page has room
        notes, lambda i: gt("--store", str(root), "note", gid, "1", f"note {i} " + "x" * 200)
    )
    assert result.exit_code == 2, result.output
    one_line_error(result, "the disk is full")
    assert (notes.stat().st_size if notes.exists() else 0) == size
    assert notes.read_bytes()[-1:] in (b"", b"\n")  # nothing, or whole lines
    (small_disk / "filler").unlink()
    assert gt("--store", str(root), "note", gid, "1", "after").exit_code == 0
    listed = gt("--store", str(root), "notes", gid)
    assert listed.exit_code == 0 and "after" in listed.stdout and "skipped" not in listed.output
    assert not (root / f"{gid}.notes.torn").exists()


# --- the query sandbox ----------------------------------------------------------------------


def test_query_cannot_write_through_the_temp_directory_or_a_link_out(tmp_path):
    root = tmp_path / "s"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "1").exit_code == 0
    assert gt("--store", str(root), "index").exit_code == 0
    outside = tmp_path / "outside-target"
    outside.mkdir()
    (root / "gametape.duckdb.tmp").symlink_to(outside)
    before = snapshot(tmp_path)
    for target in ("gametape.duckdb.tmp/x.csv", "gametape.duckdb.tmp/evil.csv"):
        result = gt("--store", str(root), "query", f"COPY (SELECT 1) TO '{root / target}'")
        assert result.exit_code == 1, result.output
        one_line_error(result, "COPY statements are not run")
    assert snapshot(tmp_path) == before and not list(outside.iterdir())
    # a query that would spill to disk has nowhere to spill: it is stopped, not written
    result = gt(
        "--store",
        str(root),
        "query",
        "SELECT string_agg(repeat('x', 1000), ',') FROM range(1000000)",
        "--memory-limit",
        "64MB",
    )
    assert result.exit_code == 1
    one_line_error(result, "more than 64MB of memory")
    assert snapshot(tmp_path) == before and not list(outside.iterdir())


def test_query_has_a_time_limit(tmp_path):
    root = tmp_path / "s"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "1").exit_code == 0
    sql = "SELECT count(*) FROM range(100000000) a, range(100000000) b"
    result = gt("--store", str(root), "query", sql, "--timeout", "1")
    assert result.exit_code == 1
    one_line_error(result, "ran longer than 1 s")
    assert "--timeout" in result.stderr
    bad = gt("--store", str(root), "query", "SELECT 1", "--memory-limit", "lots")
    assert bad.exit_code == 2 and "bad query limit" in bad.stderr


def test_query_streams_a_large_result(tmp_path):
    root = tmp_path / "s"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "1").exit_code == 0
    sql = "SELECT range AS n FROM range(200000)"
    csv = gt("--store", str(root), "query", sql, "-f", "csv")
    assert csv.exit_code == 0 and csv.stdout.count("\n") == 200_001
    table = gt("--store", str(root), "query", sql)
    assert table.exit_code == 0 and "1000 rows shown, 199000 more not shown" in table.stderr


# --- text from data is text: markup and terminal escapes ------------------------------------


def test_a_name_that_is_markup_does_not_crash_stats_or_query(tmp_path):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "[/],bob", "--seed", "1").stdout.strip()
    assert gt("--store", str(root), "move", gid, "abandon").exit_code == 0
    stats = gt("--store", str(root), "stats")
    assert stats.exit_code == 0 and "[/]" in stats.stdout, stats.output
    query = gt("--store", str(root), "query", "SELECT '[/]' AS a, '[bold]x' AS \"[/]\"")
    assert query.exit_code == 0 and "[bold]x" in query.stdout and "[/]" in query.stdout


def forged_abandon(root: Path, reason: str) -> str:
    """A game whose log ends in an abandon with ``reason``, written with a good chain."""
    from gametape.events import Store
    from gametape.events.base import Abandon

    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "9").stdout.strip()
    Store(root).append(gid, [Abandon(player=0, reason=reason)], expected_seq=1)
    return gid


def test_terminal_escapes_from_a_log_are_shown_not_obeyed(tmp_path):
    root = tmp_path / "s"
    gid = forged_abandon(root, "bye\x1b[2J\x1b]0;pwned\x07\x9b31m")
    for cmd in (["log", gid], ["replay", gid, "--at", "1"], ["replay", gid, "--all"], ["list"]):
        result = gt("--store", str(root), *cmd)
        assert result.exit_code == 0, cmd
        assert "\x1b" not in result.output and "\x07" not in result.output, cmd
        assert "\x9b" not in result.output, cmd
    assert "bye␛[2J␛]0;pwned" in gt("--store", str(root), "log", gid).stdout


def test_options_refuse_control_characters_and_bad_suits(tmp_path):
    root = tmp_path / "s"
    for value, message in (
        ("suits=r\x1b[31m,y", "holds a control character"),
        ("suits=red,red", "names a suit twice"),
        ("suits=red,,blue", "is not a suit name"),
        ("suits=red,b1ue", "is not a suit name"),
        ("starting_seat=" + "9" * 5000, "is not a whole number"),
    ):
        result = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "-o", value)
        assert result.exit_code == 2, value
        one_line_error(result, message)
    assert not root.exists()


@pytest.mark.parametrize("players", (" a,b", "a ,b", "a,b ", "a,  b"))
def test_new_refuses_spaces_around_a_name(tmp_path, players):
    result = gt("--store", str(tmp_path / "s"), "new", "hanabi", "-p", players)
    assert result.exit_code == 2
    one_line_error(result, "is not allowed")
    assert gt("--store", str(tmp_path / "s"), "new", "hanabi", "-p", "a, b").exit_code == 0


# --- input that never ends ------------------------------------------------------------------


def test_record_refuses_a_huge_line_quickly_and_takes_the_next(tmp_path):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "4").stdout.strip()
    huge = "c b " + "r" * 10_000_000
    result = gt("--store", str(root), "record", gid, "--keep-going", input=f"{huge}\nclue b 1\n")
    assert result.exit_code == 1
    assert "a move is at most 500 characters" in result.stdout
    assert "✓ a told b" in result.stdout
    assert len(read_log(root / f"{gid}.jsonl").events) == 2


@pytest.mark.parametrize("game", ("hanabi", "ohanami", "hanamikoji", "hanamikoji-classic"))
def test_a_5000_digit_number_is_a_clear_refusal(tmp_path, game):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", game, "-p", "a,b", "--seed", "4").stdout.strip()
    before = snapshot(root)
    for text in ("play " + "9" * 5000, "pick a " + "9" * 400, "9" * 400):
        result = gt("--store", str(root), "move", gid, text)
        assert result.exit_code == 1, (text[:20], result.output)
        one_line_error(result)
    assert snapshot(root) == before


def test_move_by_an_unknown_player_is_a_usage_error(tmp_path):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "4").stdout.strip()
    result = gt("--store", str(root), "move", gid, "clue b 1", "--by", "zed")
    assert result.exit_code == 2
    one_line_error(result, "no player 'zed'")


def test_piped_record_stops_at_the_first_refused_line(tmp_path):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "a,b", "--seed", "4").stdout.strip()
    result = gt("--store", str(root), "record", gid, input="clue b 1\nplay 9\nclue a 1\n")
    assert result.exit_code == 1
    one_line_error(result, "standard input line 2 was refused", "not read")
    assert len(read_log(root / f"{gid}.jsonl").events) == 2  # setup + the first clue only
    result = gt("--store", str(root), "record", gid, "--keep-going", input="play 9\nclue a 1\n")
    assert result.exit_code == 1 and "line 1 was refused" in result.stderr
    assert len(read_log(root / f"{gid}.jsonl").events) == 3
    assert gt("--store", str(root), "record", gid, input="clue b 2\n").exit_code == 0


# --- hostile imports ------------------------------------------------------------------------


def test_import_of_a_directory_of_hostile_entries_imports_the_rest(tmp_path):
    src = HANABLIVE_EXAMPLES / "example_game.json"
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(src, folder / "good.json")
    body = src.read_text()
    for depth in (1_500, 1_000_000):
        (folder / f"deep{depth}.json").write_text("[" * depth + "]" * depth)
    (folder / "nested").mkdir()
    (folder / "nested" / "deep.json").write_text('{"a":' * 5000 + "1" + "}" * 5000)
    with open(os.path.join(os.fsencode(folder), b"bad\xff.json"), "w") as f:
        f.write(body)
    for odd in ("new\nline.json", "-rf.json", "<script>.json"):
        (folder / odd).write_text("{}")
    (folder / "loop.json").symlink_to(folder / "loop.json")
    (folder / "passwd.json").symlink_to("/etc/passwd")
    (folder / "dangling.json").symlink_to(folder / "nothing-here")
    (folder / "dirloop").symlink_to(folder)
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    root = tmp_path / "s"
    result = gt("--store", str(root), "import", "hanablive", str(folder), "--json")
    rows = {
        json.loads(line)["file"].rsplit("/", 1)[-1]: json.loads(line)
        for line in result.stdout.splitlines()
    }
    # the same game twice: the first in name order is imported, the other skipped
    assert rows["bad\\xff.json"]["status"] == "imported"
    assert rows["good.json"]["status"] == "duplicate"
    assert rows["new␊line.json"]["status"] == "ignored"
    for name in ("loop.json", "dangling.json", "fifo.json"):
        assert rows[name]["status"] == "refused" and rows[name]["reason"], name
    assert rows["passwd.json"]["status"] in ("refused", "ignored")
    assert rows["deep1500.json"]["status"] in ("refused", "ignored")
    assert rows["deep1000000.json"]["status"] in ("refused", "ignored")
    assert len(list(root.glob("*.jsonl"))) == 1
    human = gt("--store", str(root), "import", "hanablive", str(folder))
    assert "new␊line.json" in human.stdout and stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_file_the_user_cannot_read_is_refused_by_name(shared_tmp):
    private = shared_tmp / "private.json"
    shutil.copy(HANABLIVE_EXAMPLES / "example_game.json", private)
    private.chmod(0o600 if ROOT else 0o000)
    home = shared_tmp / "home"
    home.mkdir()
    kw = as_user(home)
    store = shared_tmp / "s"
    store.mkdir()
    store.chmod(0o777)
    result = run_as(kw, "--store", str(store), "import", "hanablive", str(private), "--json")
    assert result.returncode == 1, result.stderr
    row = json.loads(result.stdout)
    assert row["status"] == "refused" and "ermission denied" in row["reason"]
    assert not list(store.glob("*.jsonl"))


def test_a_read_only_store_and_a_read_only_cache_say_which_is_needed(read_only_store):
    """#37: with the store and the cache both unwritable, query and stats said to use a
    store you own; what is needed is a writable cache (XDG_CACHE_HOME)."""
    root, home, kw = read_only_store
    root.chmod(0o755)
    gid = in_progress(root)
    (root / f"{gid}.jsonl").chmod(0o644)
    assert gt("--store", str(root), "move", gid, next_move(root / f"{gid}.jsonl")).exit_code == 0
    (root / f"{gid}.jsonl").chmod(0o444)
    root.chmod(0o555)  # the model is stale now, and the store read-only
    home.chmod(0o555)  # and the cache (under the home) cannot be made
    before = snapshot(root)
    try:
        for args in (["query", "SELECT count(*) AS n FROM games"], ["stats"]):
            result = run_as(kw, "--store", str(root), *args)
            assert result.returncode == 2, result.stderr
            assert "XDG_CACHE_HOME" in result.stderr and "cache" in result.stderr
    finally:
        home.chmod(0o755)
    assert snapshot(root) == before


def test_a_server_on_a_full_disk_answers_507_with_its_headers_and_shows_no_phantom_move(
    small_disk,
):
    """#36: a move on a full disk was a bare 500 (text/plain, no security headers), and every
    page then showed the move that was not recorded; POST /new was a bare 500 too."""
    from tests.serving import Served, start_game

    root = small_disk / "store"
    with Served(root) as server:
        links = start_game(server, "hanabi", "ann, ben")["links"]
        log = next(root.glob("*.jsonl"))
        fill(small_disk)
        size = log.stat().st_size
        for _ in range(200):  # moves fit while the log's last page has room
            seq = server.client.get(server.path(links["host"]) + "/state.json").json()["seq"]
            state = server.client.get(server.path(links["ann"]) + "/state.json").json()
            who = "ann" if state["to_act"] == ["ann"] else "ben"
            mine = server.client.get(server.path(links[who]) + "/state.json").json()
            texts = [b["text"] for b in mine["buttons"]]
            texts += [" ".join(w[0] for w in p["words"]) for p in mine["pickers"]]
            text = next(
                (t for t in texts if t.startswith(("discard", "clue"))), texts[0]
            )  # moves that do not end the game
            answer = server.client.post(
                server.path(links[who]) + "/move",
                data={"seq": str(seq), "text": text},
                headers={"accept": "application/json"},
            )
            if answer.status_code != 200:
                break
            size = log.stat().st_size
        else:
            raise AssertionError("the disk never filled")
        assert answer.status_code == 507, answer.text
        assert answer.headers["content-type"].startswith("application/json")
        assert "content-security-policy" in answer.headers
        assert "the disk is full" in answer.json()["error"]
        assert log.stat().st_size == size  # nothing half-written
        # every page shows what is on disk: the refused move is nowhere
        shown = server.client.get(server.path(links["host"]) + "/state.json").json()
        assert shown["seq"] == seq
        made = server.client.post("/new", data={"ruleset": "hanabi", "players": "x, y"})
        assert made.status_code == 507 and "content-security-policy" in made.headers
        assert "the disk is full" in made.text
