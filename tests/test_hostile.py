"""The hostile-input suite: garbage on every path a user or a file controls.

Each case checks the exit code, the message, that no traceback is shown, and that no byte of
the store changed where nothing should.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app

runner = CliRunner()


def gt(*args: str, env: dict[str, str] | None = None):
    result = runner.invoke(app, list(args), env={"GAMETAPE_STORE": "", **(env or {})})
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
    ["show", "abcd"],
    ["log", "abcd"],
    ["replay", "abcd", "--all"],
    ["move", "abcd", "play 1"],
    ["repair", "abcd"],
    ["export", "--parquet", "out"],
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
    src = Path(__file__).parent / "fixtures" / "hanablive" / "example_game.json"
    data = json.loads(src.read_text())
    data.pop("id", None)
    data.update(changes)
    path = tmp_path / f"in-{len(list(tmp_path.glob('in-*')))}.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("name", ["", "x" * 1_000_000, "esc\x1b]0;title\x07", "ann"])
def test_import_refuses_bad_player_names(tmp_path, name):
    src = Path(__file__).parent / "fixtures" / "hanablive" / "example_game.json"
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


@pytest.mark.parametrize(
    "option", ["emptyClues", "oneExtraCard", "oneLessCard", "allOrNothing", "detrimentalCharacters"]
)
def test_a_rule_changing_hanablive_option_is_refused_by_name(tmp_path, option):
    path = _hanablive(tmp_path, options={option: True})
    result = gt("--store", str(tmp_path / "s"), "import", "hanablive", str(path), "--json")
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["status"] == "refused" and option in row["reason"]


def test_a_deck_play_is_refused_naming_deckplays(tmp_path):
    """deckPlays only adds a move (play the last deck card blind). The real example game has
    the option but never uses it, so it imports; a game that uses it is refused by name."""
    src = Path(__file__).parent / "fixtures" / "hanablive" / "example_game.json"
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
