"""The hostile-input suite: garbage on every path a user or a file controls.

Each case checks the exit code, the message, that no traceback is shown, and that no byte of
the store changed where nothing should.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.engine.registry import names
from gametape.events import read_log
from tests.conftest import HANABLIVE_EXAMPLES

runner = CliRunner()


def gt(*args: str, env: dict[str, str] | None = None, input: str | None = None):
    result = runner.invoke(app, list(args), env={"GAMETAPE_STORE": "", **(env or {})}, input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` and a digest of its bytes."""
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix != ".duckdb" and not p.name.endswith(".wal")
    }


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    assert gt("--store", str(root), "simulate", "hanabi", "-n", "2").exit_code == 0
    return root


def game_ids(root: Path) -> list[str]:
    return sorted(p.stem for p in root.glob("*.jsonl"))


# --- the store path ------------------------------------------------------------------------


READERS = (
    ["validate"],
    ["list"],
    ["index"],
    ["query", "SELECT 1"],
    ["stats"],
    ["players"],
    ["players", "merge", "a", "b"],
    ["show", "abcd"],
    ["log", "abcd"],
    ["replay", "abcd", "--all"],
    ["move", "abcd", "play 1"],
    ["repair", "abcd"],
    ["export", "--parquet", "out"],
    ["note", "abcd", "1", "x"],
    ["notes", "abcd"],
    ["branch", "abcd", "--at", "1"],
)


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: c[0])
def test_a_missing_store_is_a_usage_error_naming_the_path(cmd, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a directory\n")
    for where in ("no/such/dir", "afile"):
        result = gt("--store", where, *cmd)
        assert result.exit_code == 2, (where, cmd, result.output)
        line = result.stderr.strip().splitlines()[0]
        assert line.startswith("error: no store at ") and str(tmp_path / where) in line
    assert not (tmp_path / "no").exists()  # a read-only command created nothing
    assert (tmp_path / "afile").read_text() == "not a directory\n"


def test_an_empty_store_option_is_refused_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for cmd in (["new", "hanabi", "-p", "a,b"], ["validate"], ["simulate", "hanabi"]):
        result = gt("--store", "", *cmd)
        assert result.exit_code == 2 and "--store is empty" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_only_commands_that_create_games_create_the_store(tmp_path):
    root = tmp_path / "new" / "store"
    assert gt("--store", str(root), "new", "hanabi", "-p", "a,b").exit_code == 0
    assert len(game_ids(root)) == 1


# --- ids that leave the store -------------------------------------------------------------


def test_an_id_cannot_name_a_file_outside_the_store(store, tmp_path):
    outside = tmp_path / "outside-dir"
    outside.mkdir()
    gid = game_ids(store)[0]
    mine = outside / "mine.jsonl"
    mine.write_bytes((store / f"{gid}.jsonl").read_bytes())
    before = snapshot(tmp_path)
    for ref in (
        "../outside-dir/mine",
        "../outside-dir/mine.json",
        "..",
        "/etc/passwd",
        f"{gid}/..",
        "",
        "a b",
        "mine\x1b[31m",
    ):
        for cmd in (
            ["show", ref],
            ["move", ref, "play 1"],
            ["log", ref],
            ["export", ref, "-f", "hanablive"],
        ):
            result = gt("--store", str(store), *cmd)
            assert result.exit_code == 2, (ref, cmd, result.output)
            assert "is not a game id" in result.stderr or "no game" in result.stderr, result.stderr
    assert snapshot(tmp_path) == before
    # an explicit path to the file is how a log outside the store is named
    assert gt("--store", str(store), "show", str(mine)).exit_code == 0


# --- empty logs --------------------------------------------------------------------------


def test_an_empty_log_is_reported_not_a_traceback(store):
    (store / "empty.jsonl").write_bytes(b"")
    before = snapshot(store)
    for cmd in (
        ["export", "empty", "--format", "hanablive"],
        ["show", "empty"],
        ["log", "empty"],
        ["replay", "empty", "--all"],
        ["move", "empty", "play 1"],
    ):
        result = gt("--store", str(store), *cmd)
        assert result.exit_code == 1, (cmd, result.output)
        assert "no events" in result.stderr, (cmd, result.stderr)
    assert snapshot(store) == before


# --- numbers written only the documented way --------------------------------------------


@pytest.mark.parametrize("slot", ["１", "١", "+1", "0001", "1.0", " 1e0", "-1", "0x1"])
def test_numbers_are_ascii_digits_without_sign_or_leading_zeros(tmp_path, slot):
    root = tmp_path / "s"
    gid = gt("--store", str(root), "new", "hanabi", "-p", "ann,ben", "--seed", "1").stdout.strip()
    before = snapshot(root)
    result = gt("--store", str(root), "move", gid, f"clue ben {slot}")
    assert result.exit_code == 1 and "nothing was recorded" in result.stderr
    result = gt("--store", str(root), "move", gid, f"play {slot}")
    assert result.exit_code == 1 and "not a number" in result.stderr, result.stderr
    assert snapshot(root) == before


def test_numbers_in_every_game_notation(tmp_path):
    root = tmp_path / "s"
    koji = gt("--store", str(root), "new", "hanamikoji", "-p", "ann,ben").stdout.strip()
    result = gt(
        "--store",
        str(root),
        "move",
        koji,
        "assign ann perform=red０8 hidden=blue5 sacrifice=green4 vote=violet7",
    )
    assert result.exit_code == 1 and "is not a card" in result.stderr
    hana = gt("--store", str(root), "new", "ohanami", "-p", "ann,ben").stdout.strip()
    for text in ("pick ann ３7 row=2", "pick ann 37 row=+2", "pick ann 037 row=2"):
        result = gt("--store", str(root), "move", hana, text)
        assert result.exit_code == 1 and "not" in result.stderr, text


BAD_VALUES = [
    "{",  # truncated
    "{}",  # no type
    '{"type": "nope"}',
    '{"type": "hanabi.deal", "round": 1, "deck": null}',  # a chance event, no player's move
    '{"type": "MOVE", "player": "0"}',  # a field of the wrong type
    '{"type": "MOVE", "player": 99}',  # no such seat
    '{"type": "MOVE", "player": 0, "extra": ' + "[" * 500 + "]" * 500 + "}",  # deep nesting
]


@pytest.mark.parametrize("value", BAD_VALUES, ids=range(len(BAD_VALUES)))
@pytest.mark.parametrize("name", names())
def test_a_move_written_as_a_bad_value_is_refused_in_one_line(tmp_path, name, value):
    """#51: every game reads a move as its JSON value; garbage there is a one-line refusal,
    exit 1, nothing written, in every game."""
    root = tmp_path / "s"
    players = "ann,ben" if name.startswith("hanamikoji") else "ann,ben,cat"
    gid = gt("--store", str(root), "new", name, "-p", players, "--seed", "1").stdout.split()[0]
    kind = next(iter(json.loads(gt("--store", str(root), "move", gid, "?", "--json").stdout
                                .splitlines()[0])["moves"]), {"move": None})["move"]  # fmt: skip
    text = value.replace("MOVE", (kind or {}).get("type", f"{name}.move"))
    before = snapshot(root)
    result = gt("--store", str(root), "move", gid, text, "--by", "ann")
    assert result.exit_code in (1, 2), (text, result.output)
    assert result.stderr.startswith("error:") and snapshot(root) == before, result.stderr


# --- player names: one rule for new, import and validation ------------------------------


BAD_NAMES = ["", "x" * 41, "a\x1b[31mred", "tab\there", "bell\x07", "\u202eevil"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_new_refuses_bad_player_names(tmp_path, name):
    root = tmp_path / "s"
    result = gt("--store", str(root), "new", "hanabi", "-p", f"bob,{name}")
    assert result.exit_code == 2 and "not allowed" in result.stderr
    assert not root.exists()


def test_new_refuses_the_same_name_twice_in_any_case(tmp_path):
    result = gt("--store", str(tmp_path / "s"), "new", "hanabi", "-p", "Ann,ann")
    assert result.exit_code == 2 and "two players are called" in result.stderr


def _hanablive(tmp_path: Path, **changes) -> Path:
    src = HANABLIVE_EXAMPLES / "example_game.json"
    data = json.loads(src.read_text())
    data.pop("id", None)
    data.update(changes)
    path = tmp_path / f"in-{len(list(tmp_path.glob('in-*')))}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("name", ["", "x" * 1_000_000, "esc\x1b]0;title\x07", "ann"])
def test_import_refuses_bad_player_names(tmp_path, name):
    src = HANABLIVE_EXAMPLES / "example_game.json"
    players = json.loads(src.read_text())["players"]
    players[1] = name if name != "ann" else players[0]  # "ann": a duplicate name
    path = _hanablive(tmp_path, players=players)
    root = tmp_path / "s"
    result = gt("--store", str(root), "import", "hanablive", str(path), "--json")
    assert result.exit_code == 1
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["status"] == "refused" and row["kind"] == "illegal"
    assert "not allowed" in row["reason"] or "two players" in row["reason"]
    assert len(row["reason"]) < 300  # a 1 MB name is not echoed back
    assert game_ids(root) == []


def test_validation_refuses_a_forged_log_with_bad_names(store):
    gid = game_ids(store)[0]
    path = store / f"{gid}.jsonl"
    first, *rest = path.read_bytes().split(b"\n", 1)
    forged = first.replace(b'"players":["alice",', b'"players":["al\\u001bice",')
    assert forged != first
    path.write_bytes(forged + b"\n" + rest[0])
    result = gt("--store", str(store), "validate", gid)
    assert result.exit_code == 1  # the chain breaks, or the names rule: either way invalid


@pytest.mark.parametrize("option", ["allOrNothing", "detrimentalCharacters"])
def test_a_rule_changing_hanablive_option_gametape_does_not_play_is_refused_by_name(
    tmp_path, option
):
    path = _hanablive(tmp_path, options={option: True})
    result = gt("--store", str(tmp_path / "s"), "import", "hanablive", str(path), "--json")
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["status"] == "refused" and option in row["reason"]


@pytest.mark.parametrize("option", ["oneExtraCard", "oneLessCard"])
def test_a_hand_size_option_deals_other_hands_and_the_moves_are_checked_against_them(
    tmp_path, option
):
    """The same actions with another hand size are another game: the first move they break
    is refused with its index and rule, and nothing is written."""
    path = _hanablive(tmp_path, options={option: True})
    result = gt("--store", str(tmp_path / "s"), "import", "hanablive", str(path), "--json")
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["status"] == "refused" and row["reason"].startswith("action ")
    assert "rule:" in row["reason"] and not list((tmp_path / "s").glob("*.jsonl"))


def test_a_deck_play_is_refused_naming_deckplays(tmp_path):
    """deckPlays only adds a move (play the last deck card blind). The real example game has
    the option but never uses it, so it imports; a game that uses it is refused by name."""
    src = HANABLIVE_EXAMPLES / "example_game.json"
    data = json.loads(src.read_text())
    assert data["options"] == {"deckPlays": True}
    root = tmp_path / "s"
    ok = gt("--store", str(root), "import", "hanablive", str(src), "--json")
    assert json.loads(ok.stdout)["status"] == "imported"
    hand_size = 5
    first_draw = len(data["players"]) * hand_size
    data["actions"] = [{"type": 0, "target": first_draw, "value": 0}]  # plays the deck's top
    data.pop("id")
    path = tmp_path / "deckplay.json"
    path.write_text(json.dumps(data))
    result = gt("--store", str(root), "import", "hanablive", str(path), "--json")
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["status"] == "refused" and "deckPlays" in row["reason"]


def test_the_suite_runs_offline_and_quickly():
    """A marker for readers: every case above is local, small and bounded."""
    assert os.environ.get("GAMETAPE_STORE", "") in ("", os.environ.get("GAMETAPE_STORE", ""))


# --- damaged and forged logs --------------------------------------------------------------


def _one_game(root: Path, seed: int = 3) -> Path:
    gid = gt("--store", str(root), "new", "hanabi", "-p", "ann,ben", "--seed", str(seed)).stdout
    path = root / f"{gid.strip()}.jsonl"
    for move in ("clue ben 1", "discard 1", "play 1", "clue ann 2"):
        gt("--store", str(root), "move", path.stem, move)
    return path


READ_ONLY = (
    ["validate"],
    ["list"],
    ["index"],
    ["stats"],
    ["query", "SELECT count(*) FROM games"],
    ["export", "--parquet", "pq"],
)


def _damage_cases(lines: list[bytes]) -> dict[str, bytes]:
    body = b"".join(lines)
    rng = __import__("random").Random(5)
    cases = {
        "dropped line": b"".join(lines[:2] + lines[3:]),
        "duplicated line": b"".join(lines[:3] + lines[2:]),
        "swapped lines": b"".join(lines[:2] + [lines[3], lines[2]] + lines[4:]),
        "torn tail": body[:-7],
        "forged seat": body.replace(b'"player":1', b'"player":99', 1),
        "unknown event": body.replace(b'"hanabi.clue"', b'"hanabi.hack"', 1),
        "another game's event": body.replace(b'"hanabi.clue"', b'"ohanami.pick"', 1),
        "bad ts": body.replace(b'"ts":"20', b'"ts":"19', 1).replace(b"Z", b"+01:00", 1),
    }
    for i in range(6):  # single-byte flips anywhere (each case runs eleven commands)
        flipped = bytearray(body)
        at = rng.randrange(len(flipped))
        flipped[at] ^= 1 << rng.randrange(7)
        cases[f"byte flip {i}"] = bytes(flipped)
    return cases


def test_damaged_logs_are_reported_where_and_change_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "store"
    good = _one_game(root, seed=4)
    victim = _one_game(root, seed=5)
    lines = victim.read_bytes().splitlines(keepends=True)
    for name, data in _damage_cases(lines).items():
        victim.write_bytes(data)
        before = snapshot(root)
        result = gt("--store", str(root), "validate", "--json")
        rows = {json.loads(r)["game"]: json.loads(r) for r in result.stdout.splitlines()}
        bad = [r for r in rows.values() if r["file"] == str(victim)]
        if data == b"".join(lines):
            continue
        assert result.exit_code == 1 and bad and bad[0]["status"] == "invalid", name
        problem = bad[0]["problem"]
        assert problem["file"] == str(victim) and problem["message"], (name, problem)
        assert rows[good.stem]["status"] == "in_progress", name  # the others still validate
        for cmd in READ_ONLY:  # the damaged log is that log's problem; the rest works
            r = gt("--store", str(root), *cmd)
            assert r.exit_code == (1 if cmd[0] == "validate" else 0), (name, cmd, r.output)
        # show and log stop at the damage with a warning (0) when something before it reads,
        # else fail (1); replay says where it stops, and that is a failure (1)
        readable = 0 if read_log(victim).records else 1
        for cmd, code in (
            (["show", str(victim)], readable),
            (["log", str(victim)], readable),
            (["replay", str(victim), "--all"], 1),
        ):
            r = gt("--store", str(root), *cmd)
            assert r.exit_code == code, (name, cmd, r.output)
        refused = gt("--store", str(root), "move", str(victim), "clue ben 2")
        assert refused.exit_code == 1, (name, refused.output)  # a damaged log: never appended
        assert snapshot(root) == before, name
    victim.unlink()  # the culprit removed: everything works without a rebuild
    for cmd in READ_ONLY:
        assert gt("--store", str(root), *cmd).exit_code == 0, cmd


def test_special_files_in_the_store_are_that_entry_s_problem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "store"
    good = _one_game(root)
    (root / "dir.jsonl").mkdir()
    (root / "dangling.jsonl").symlink_to(root / "nowhere")
    (root / "loop.jsonl").symlink_to(root / "loop.jsonl")
    os.mkfifo(root / "fifo.jsonl")
    before = snapshot(root)
    result = gt("--store", str(root), "validate", "--json")
    rows = {json.loads(r)["game"]: json.loads(r) for r in result.stdout.splitlines()}
    assert result.exit_code == 1 and rows[good.stem]["status"] == "in_progress"
    for name in ("dir", "dangling", "loop", "fifo"):
        assert (
            rows[name]["status"] == "invalid"
            and "cannot read the log" in rows[name]["problem"]["message"]
        ), name
        assert gt("--store", str(root), "show", name).exit_code == 1  # unreadable log: data
    assert gt("--store", str(root), "list").exit_code == 0
    index = json.loads(gt("--store", str(root), "index", "--json").stdout)
    assert index["invalid"] == 4 and index["added"] == 5
    ok = gt(
        "--store",
        str(root),
        "query",
        "SELECT count(*) AS n FROM games WHERE status = 'in_progress'",
        "-f",
        "json",
    )
    assert json.loads(ok.stdout) == {"n": 1}
    assert snapshot(root) == before


def test_a_setup_naming_another_file_cannot_make_move_write_elsewhere(tmp_path):
    root = tmp_path / "store"
    victim_dir = tmp_path / "victim"
    victim_dir.mkdir()
    victim = victim_dir / "victim.jsonl"
    victim.write_bytes(b"precious\n")
    path = _one_game(root)
    first, rest = path.read_bytes().split(b"\n", 1)
    forged = json.loads(first)
    forged["event"]["game"] = "../victim/victim"
    path.write_bytes(json.dumps(forged, separators=(",", ":")).encode() + b"\n" + rest)
    gt("--store", str(root), "move", path.stem, "clue ben 2")
    assert victim.read_bytes() == b"precious\n"
    result = gt("--store", str(root), "validate", path.stem, "--json")
    assert result.exit_code == 1


def test_move_on_a_copy_appends_to_the_copy_only(tmp_path):
    root = tmp_path / "store"
    original = _one_game(root)
    copy = tmp_path / "elsewhere" / f"{original.stem}.jsonl"
    copy.parent.mkdir()
    copy.write_bytes(original.read_bytes())
    before = original.read_bytes()
    result = gt("--store", str(root), "move", str(copy), "play 1")
    assert result.exit_code == 0 and str(copy) in result.stderr, result.output
    assert original.read_bytes() == before and copy.read_bytes() != before


# --- SQL that tries to write -------------------------------------------------------------


WRITES = [
    "COPY (SELECT 'pwned') TO 'STORE/GAME.jsonl'",
    "COPY games TO 'out.csv'",
    "EXPORT DATABASE 'dump'",
    "ATTACH 'other.db' (READ_WRITE)",
    "ATTACH 'other.db' AS o; CREATE TABLE o.t (x INT)",
    "SELECT 1; COPY games TO 'x.csv'",
    "SET enable_external_access = true",
    "INSTALL httpfs",
    "DELETE FROM games",
    "CREATE TABLE t (x INT)",
    "DROP TABLE events",
    "SELECT * FROM read_csv('/etc/passwd')",
    "CALL pragma_version(); DROP TABLE games",
    "PRAGMA enable_profiling",
]


@pytest.mark.parametrize("sql", WRITES)
def test_a_query_can_write_or_destroy_nothing(tmp_path, monkeypatch, sql):
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "store"
    path = _one_game(root)
    gt("--store", str(root), "index")
    before = snapshot(tmp_path)
    db = (root / "gametape.duckdb").read_bytes()
    sql = sql.replace("STORE/GAME.jsonl", str(path))
    result = gt("--store", str(root), "query", sql)
    assert result.exit_code == 1, result.output  # refused by DuckDB or as not a SELECT
    assert snapshot(tmp_path) == before
    assert (root / "gametape.duckdb").read_bytes() == db
    assert gt("--store", str(root), "query", "SELECT count(*) FROM games").exit_code == 0


def test_an_empty_query_is_a_usage_error(store):
    for sql in ("", "   ", "\n"):
        result = gt("--store", str(store), "query", sql)
        assert result.exit_code == 2 and "the query is empty" in result.stderr


# --- names and move text are printed as text ---------------------------------------------


@pytest.mark.parametrize("game", names())
def test_markup_in_names_and_moves_is_printed_as_text(tmp_path, game):
    root = tmp_path / "s"
    gid = gt(
        "--store", str(root), "new", game, "-p", "[/],[bold]b[/bold]", "--seed", "1"
    ).stdout.strip()
    for cmd in (
        ["show", gid],
        ["show", gid, "--as", "[/]"],
        ["log", gid],
        ["replay", gid, "--all"],
        ["list"],
    ):
        result = gt("--store", str(root), *cmd)
        assert result.exit_code == 0, (cmd, result.output)
    shown = gt("--store", str(root), "show", gid).stdout
    assert "[/]" in shown and "[bold]b[/bold]" in shown
    before = snapshot(root)
    result = gt("--store", str(root), "move", gid, "play [/]")
    assert result.exit_code == 1 and "[/]" in result.stderr
    assert snapshot(root) == before
    merge = gt("--store", str(root), "players", "merge", "[/]", "[bold]b[/bold]")
    assert merge.exit_code == 2 and "'[/]' and '[bold]b[/bold]' both played" in merge.stderr
    assert snapshot(root) == before and not (root / "players.log").exists()


# --- hostile hanab.live files --------------------------------------------------------------


def test_hostile_hanablive_files_are_refused_by_name(tmp_path):
    src = json.loads((HANABLIVE_EXAMPLES / "example_game.json").read_text())
    actions = src["actions"]
    cases = {
        "id": dict(src, id=2**70),
        "target": dict(src, actions=[*actions[:5], {"type": 4, "target": 2**40, "value": 4}]),
        "seat -1": dict(src, actions=[*actions[:5], {"type": 4, "target": -1, "value": 4}]),
        "seat 99": dict(src, actions=[*actions[:5], {"type": 4, "target": 99, "value": 4}]),
        # a START card (rank 7) where the variant has none, and a rank between
        "start": dict(src, deck=[{"suitIndex": 0, "rank": 7}, *src["deck"][1:]]),
        "rank 6": dict(src, deck=[{"suitIndex": 0, "rank": 6}, *src["deck"][1:]]),
    }
    root = tmp_path / "s"
    for name, data in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        result = gt("--store", str(root), "import", "hanablive", str(path), "--json")
        row = json.loads(result.stdout)
        assert result.exit_code == 1 and row["status"] == "refused", (name, row)
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(src)[:-1] + ', "junk": ' + "[" * 200_000 + "]" * 200_000 + "}")
    result = gt("--store", str(root), "import", "hanablive", str(deep), "--json")
    assert json.loads(result.stdout)["reason"].endswith("nested too deeply")
    assert game_ids(root) == []


def test_the_same_deal_by_other_players_is_another_game(tmp_path):
    src = json.loads((HANABLIVE_EXAMPLES / "example_game.json").read_text())
    src.pop("id")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(src))
    b.write_text(json.dumps(dict(src, players=["Xena", "Yuri", "Zed"])))
    result = gt("--store", str(tmp_path / "s"), "import", "hanablive", str(a), str(b), "--json")
    assert [json.loads(r)["status"] for r in result.stdout.splitlines()] == ["imported"] * 2


# --- exit codes as docs/cli.md says ------------------------------------------------------


def test_an_unknown_game_is_a_usage_error_for_every_command(store):
    for cmd in (
        ["show", "zzzz"],
        ["move", "zzzz", "play 1"],
        ["log", "zzzz"],
        ["replay", "zzzz", "--all"],
        ["export", "zzzz", "-f", "hanablive"],
        ["validate", "zzzz"],
        ["repair", "zzzz"],
        ["record", "zzzz"],
    ):
        result = gt("--store", str(store), *cmd)
        assert result.exit_code == 2 and "no game 'zzzz'" in result.stderr, cmd


@pytest.mark.parametrize(
    "args",
    [
        ["new", "hanabi", "-p", "a,b", "-o", "copies=9,9"],
        ["new", "hanabi", "-p", "a,b", "-o", "starting_seat=99"],
        ["new", "hanamikoji", "-p", "a,b", "-o", "first=7"],
        ["new", "hanabi", "-p", "a,b", "-o", "colour=blue"],
        ["new", "hanabi", "-p", "a,b", "-o", "variant=Plaid (9 Suits)"],
        ["new", "hanabi", "-p", "a,b", "-o", "variant=Orange (7 Suits)"],
        ["new", "hanabi", "-p", "a,b", "-o", "variant=" + "[red]x" * 200],
        ["new", "hanabi", "-p", "a,b", "-o", "variant=Rainbow (6 Suits)", "-o", "suits=a,b"],
        ["new", "hanabi", "-p", "a,b", "-o", "one_extra_card=1", "-o", "one_less_card=1"],
        ["games", "hanabi", "suits"],
        ["games", "hanabi", "nosuch"],
        ["simulate", "hanabi", "--players", "0"],
        ["simulate", "hanabi", "-n", "1", "-o", "starting_seat=7"],
        ["new", "nosuchgame", "-p", "a,b"],
        ["new", "hanabi", "-p", "a,b", "-o", "copies=1000000,1,1,1,1"],  # #53: 74 s, 351 MB
        ["new", "hanabi", "-p", "a,b", "-o", "copies=3,2,2,2,11"],
        ["simulate", "hanabi", "-n", "1", "-o", "copies=10000000,1,1,1,1"],
    ],
)
def test_bad_options_are_usage_errors_and_write_nothing(tmp_path, args):
    root = tmp_path / "s"
    result = gt("--store", str(root), *args)
    assert result.exit_code == 2 and result.stderr.startswith("error:"), result.output
    assert game_ids(root) == []


def test_an_unknown_variant_names_the_command_that_lists_them_and_not_all_of_itself(tmp_path):
    """#53: the error named `gametape variants`, which does not exist, and echoed a
    120,000-character name whole."""
    root = tmp_path / "s"
    result = gt(
        "--store", str(root), "new", "hanabi", "-p", "a,b", "-o", "variant=" + "x" * 120_000
    )
    assert result.exit_code == 2 and "gametape games hanabi variant" in result.stderr
    assert len(result.stderr) < 500 and "120,000 characters" in result.stderr
    assert game_ids(root) == []


HUGE = "9" * 5000  # Python's int() refuses past 4,300 digits


@pytest.mark.parametrize(
    "args",
    [
        ["show", "GAME", "--at", HUGE],
        ["show", "GAME", f"--at=-{HUGE}"],
        ["replay", "GAME", "--at", HUGE],
        ["note", "GAME", HUGE, "x"],
        ["branch", "GAME", "--at", HUGE],
        ["simulate", "hanabi", "-n", HUGE],
        ["validate", "--jobs", "9" * 31],
    ],
)
def test_a_number_of_thousands_of_digits_is_refused_in_one_line(store, args):
    """#53: `show GAME --at <5,000 digits>` ended in a ValueError traceback."""
    from tests.serving import GAMETAPE

    gid = game_ids(store)[0]
    before = snapshot(store)
    argv = [a.replace("GAME", gid) for a in args]
    done = subprocess.run(
        [GAMETAPE, "--store", str(store), *argv], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-500:]
    assert "is no seq, count or seed" in done.stderr and len(done.stderr) < 300, done.stderr
    assert done.stdout == "" and snapshot(store) == before


def test_a_card_named_with_thousands_of_digits_is_no_card(store):
    """#53: `note --card "alice <5,000 digits>"` ended in a ValueError traceback."""
    gid = game_ids(store)[0]
    before = snapshot(store)
    result = gt("--store", str(store), "note", gid, "1", "x", "--card", "alice " + HUGE)
    assert result.exit_code == 2 and "no card" in result.stderr and len(result.stderr) < 400
    assert snapshot(store) == before


def test_version_and_a_closed_pipe(store):
    assert gt("--version").stdout.startswith("gametape ")
    import subprocess
    import sys

    proc = subprocess.run(
        f"{sys.executable} -m gametape.cli.app --store {store} validate --json | head -1",
        shell=True,
        capture_output=True,
        text=True,
        executable="/bin/bash",
    )
    assert proc.returncode == 0 and proc.stderr == "" and proc.stdout.startswith("{")


def test_the_quick_commands_stop_quietly_when_the_reader_goes_away(store):
    """`list` (answered without typer, gametape.cli.quick) into a reader that closes after a
    line: more than a pipe holds is written, and the command ends without a word."""
    import subprocess
    import sys

    assert (
        gt("--store", str(store), "simulate", "hanabi", "-n", "300", "--seed", "3").exit_code == 0
    )
    for args in ("list --json", "list"):
        proc = subprocess.run(
            f"{sys.executable} -m gametape.cli.app --store {store} {args} | head -1",
            shell=True,
            capture_output=True,
            text=True,
            executable="/bin/bash",
        )
        assert proc.returncode == 0 and proc.stderr == "", (args, proc.stderr[-500:])
        assert proc.stdout.strip(), args


def test_repair_moves_an_empty_log_aside(store):
    (store / "crashed.jsonl").write_bytes(b"")
    result = gt("--store", str(store), "repair", "crashed")
    assert result.exit_code == 0 and "moved aside" in result.stdout
    assert not (store / "crashed.jsonl").exists() and (store / "crashed.jsonl.torn").exists()
    assert gt("--store", str(store), "validate").exit_code == 0


# --- forged logs whose hash chain is intact --------------------------------------------


def _forge(root: Path, gid: str, events: list, ts: str = "2026-01-01T00:00:00.000Z") -> Path:
    from gametape.events.codec import encode_line

    root.mkdir(parents=True, exist_ok=True)
    data, prev = b"", ""
    for seq, event in enumerate(events):
        line, prev = encode_line(seq, event, prev, ts=ts)
        data += line
    path = root / f"{gid}.jsonl"
    path.write_bytes(data)
    return path


def _setup(players=("ann", "ben"), game="forged"):
    from gametape.games.hanabi.events import HanabiSetup
    from tests.helpers import stacked_deck

    return HanabiSetup(game=game, players=players, deck=stacked_deck(""))


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("duplicate names", "two players are called"),
        ("names in another case", "two players are called"),
        ("game of another file", "the setup names the game"),
        ("ts not UTC ISO 8601", "is not UTC ISO 8601"),
        ("ts without milliseconds", "is not UTC ISO 8601"),
    ],
)
def test_forged_logs_with_a_good_chain_are_invalid(tmp_path, case, message):
    root = tmp_path / "s"
    setup, ts = _setup(), "2026-01-01T00:00:00.000Z"
    if case == "duplicate names":
        setup = _setup(("ann", "ann"))
    elif case == "names in another case":
        setup = _setup(("Ann", "aNN"))
    elif case == "game of another file":
        setup = _setup(game="someone-else")
    elif case == "ts not UTC ISO 8601":
        ts = "2026-01-01 00:00:00+01:00"
    else:
        ts = "2026-01-01T00:00:00Z"
    path = _forge(root, "forged", [setup], ts=ts)
    before = snapshot(root)
    result = gt("--store", str(root), "validate", "--json")
    row = json.loads(result.stdout)
    assert result.exit_code == 1 and message in row["problem"]["message"], row
    assert row["problem"]["file"] == str(path) and row["problem"]["line"] == 1
    assert snapshot(root) == before


def test_show_wraps_long_lines_in_a_pipe_instead_of_cutting_them(tmp_path):
    root = tmp_path / "s"
    names = "a" * 40 + "," + "b" * 40
    gid = gt("--store", str(root), "new", "hanamikoji", "-p", names, "--seed", "2").stdout
    shown = gt("--store", str(root), "show", gid.strip(), env={"COLUMNS": "80"}).stdout
    assert "b" * 40 in shown  # the status line names both players whole
    assert max(len(line) for line in shown.splitlines()) <= 80


def test_export_to_an_unknown_format_names_the_right_fix(store):
    gid = game_ids(store)[0]
    result = gt("--store", str(store), "export", gid, "--format", "json")
    assert result.exit_code == 2 and "formats: html, hanablive" in result.stderr
    koji = gt("--store", str(store), "new", "hanamikoji", "-p", "a,b").stdout.strip()
    result = gt("--store", str(store), "export", koji, "--format", "hanablive")
    assert result.exit_code == 2 and "hanamikoji game; formats: html\n" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["../../etc/passwd", "-f", "html"], "is not a game id"),
        (["a\nb", "-f", "html"], "is not a game id"),
        (["GAME", "-f", "html", "--as", "</script>"], "no player '</script>'"),
        (["GAME", "-f", "<b>html</b>"], "unknown format '<b>html</b>'"),
        (["GAME", "GAME", "-f", "html", "-o", "FILE"], "is not a directory"),
        (["GAME", "-f", "html", "-o", "/proc/version"], "cannot write /proc/version"),
    ],
)
def test_export_html_refuses_garbage_and_changes_nothing(store, tmp_path, args, message):
    gid = game_ids(store)[0]
    a_file = tmp_path / "a-file"
    a_file.write_text("keep me")
    args = [gid if a == "GAME" else str(a_file) if a == "FILE" else a for a in args]
    before = snapshot(store), a_file.read_text()
    result = gt("--store", str(store), "export", *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr  # usage, machine
    assert (snapshot(store), a_file.read_text()) == before


def test_one_name_rule_in_new_imports_and_validation(tmp_path, run):
    """#37: a name with a quote was refused by `new` but imported from hanab.live."""
    bad = '"><svg onload=alert(1)>'
    refused = run("new", "hanabi", "--players", f"{bad},bob")
    assert refused.exit_code == 2 and "a move could not name them" in refused.stderr
    example = Path(__file__).resolve().parents[1] / "examples" / "hanablive" / "no_variant.json"
    game = json.loads(example.read_text())
    game["players"][0] = bad
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(game))
    imported = run("import", "hanablive", str(source))
    assert imported.exit_code == 1 and "a move could not name them" in imported.output
    assert not list(run.root.glob("*.jsonl"))  # nothing was written
    # and a log written by something else with such a name does not validate
    from gametape.events.store import Store
    from gametape.games.hanabi.events import HanabiSetup

    store = Store(tmp_path / "other")
    gid = store.create(HanabiSetup(players=(bad, "bob"), deck=()))
    checked = run("--store", str(store.root), "validate", gid, "--json", store=False)
    assert checked.exit_code == 1 and "a move could not name them" in checked.stdout


@pytest.mark.parametrize("word", ["rss", "zs", "s", "rstartt", "r6", "r0", "rs1", "ｒs"])
def test_a_start_card_written_wrong_is_no_card(tmp_path, word):
    """#54: Up or Down's START card is written ``rs`` at a table; anything like it that is
    not a card of the deck is refused in one line and nothing is written."""
    root = tmp_path / "s"
    made = gt("--store", str(root), "new", "hanabi", "-p", "ann,ben", "--table", "-o",
              "variant=Up or Down (5 Suits)")  # fmt: skip
    gid = made.stdout.split()[0]
    before = snapshot(root)
    result = gt("--store", str(root), "move", gid, f"p1 {word}")
    assert result.exit_code == 1 and result.stderr.startswith("error:"), result.output
    assert "Traceback" not in result.stderr and snapshot(root) == before
