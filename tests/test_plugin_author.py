"""The plug-in author's suite (#23): the toy game of docs/writing-a-game.md, installed as
its own distribution, through abandon, undo, the HTML export, a seat's view and the read
model; and each trap a plug-in author can step in, refused by name while every other game
keeps working."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "writing-a-game.md"
# The guide's whole game (its section 7), installed as it is printed there
TOY = re.findall(r"```python\n(.*?)```", GUIDE.read_text().split("## 7. The whole game")[1], re.S)[
    0
]


def site(tmp: Path, entries: dict[str, str], modules: dict[str, str]) -> dict[str, str]:
    """An environment where a separate distribution registers ``entries`` (name → value)
    from ``modules`` (module name → source)."""
    tmp.mkdir(parents=True, exist_ok=True)
    for name, source in modules.items():
        (tmp / f"{name}.py").write_text(source)
    dist = tmp / "toy_plugins-0.1.dist-info"
    dist.mkdir(exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-plugins\nVersion: 0.1\n")
    lines = "".join(f"{name} = {value}\n" for name, value in entries.items())
    (dist / "entry_points.txt").write_text(f"[gametape.games]\n{lines}")
    return dict(os.environ, PYTHONPATH=str(tmp), GAMETAPE_STORE=str(tmp / "store"), COLUMNS="120")


def gt(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "gametape.cli.app", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return site(tmp_path_factory.mktemp("toy"), {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": TOY})


def new_toy(env: dict[str, str]) -> str:
    result = gt(env, "new", "toy-nim", "-p", "ann,ben", "--seed", "3")
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_toy_game_is_abandoned_and_the_fold_refuses_moves_after(toy):
    gid = new_toy(toy)
    assert gt(toy, "move", gid, '{"type":"toy-nim.take","player":0,"count":2}').returncode == 0
    assert gt(toy, "move", gid, "abandon").returncode == 0
    after = gt(toy, "move", gid, '{"type":"toy-nim.take","player":1,"count":1}')
    assert after.returncode == 1 and "the game was abandoned at seq 2" in after.stderr
    report = json.loads(gt(toy, "validate", gid, "--json").stdout)
    assert report["status"] == "finished" and report["result"]["outcome"] == "terminated"


def test_the_fold_owns_the_toy_games_turn_and_undo_finds_its_moves(toy):
    gid = new_toy(toy)
    out_of_turn = gt(toy, "move", gid, '{"type":"toy-nim.take","player":1,"count":1}')
    assert out_of_turn.returncode == 1 and "it is ann's turn, not ben's" in out_of_turn.stderr
    assert gt(toy, "move", gid, '{"type":"toy-nim.take","player":0,"count":1}').returncode == 0
    undo = gt(toy, "move", gid, "undo")
    assert undo.returncode == 0 and "took back seq 1" in undo.stdout
    rows = [json.loads(r) for r in gt(toy, "log", gid, "--json").stdout.splitlines()]
    assert [r["move"] for r in rows][-1] == "undo"


def test_the_toy_game_exports_a_replay_page_and_a_seats_page(toy, tmp_path):
    ids = json.loads(gt(toy, "simulate", "toy-nim", "-n", "1", "--json").stdout)["games"]
    page = tmp_path / "p.html"
    assert gt(toy, "export", ids[0], "-f", "html", "-o", str(page)).returncode == 0
    seat = tmp_path / "s.html"
    assert gt(toy, "export", ids[0], "-f", "html", "--as", "2", "-o", str(seat)).returncode == 0
    assert "toy-nim" in page.read_text() and "(as bob)" in seat.read_text()


def test_a_game_that_draws_nothing_gets_a_readable_generic_board(toy, tmp_path):
    gid = new_toy(toy)
    log = Path(toy["GAMETAPE_STORE"]) / f"{gid}.jsonl"
    pile = json.loads(log.read_text().splitlines()[0])["event"]["pile"]
    shown = " ".join(gt(toy, "show", gid).stdout.split())
    assert "toy-nim · " in shown and f"pile {pile}" in shown and "current 0" in shown
    page = tmp_path / "g.html"
    assert gt(toy, "export", gid, "-f", "html", "-o", str(page)).returncode == 0
    assert '"pile"' in page.read_text() and f'"{pile}"' in page.read_text()


def test_the_toy_games_read_model(toy):
    gt(toy, "simulate", "toy-nim", "-n", "3")
    assert gt(toy, "index").returncode == 0
    query = gt(
        toy, "query", "SELECT count(*) AS n FROM toy_nim.events WHERE pile = 0", "-f", "json"
    )
    assert query.returncode == 0 and json.loads(query.stdout)["n"] >= 3


# --- the traps ------------------------------------------------------------------------------

SEAT_FIELD = TOY.replace(
    'class NimTake(Move, frozen=True, kw_only=True, tag="toy-nim.take"):',
    'class NimTake(Event, frozen=True, kw_only=True, tag="toy-nim.take"):\n    seat: int',
).replace("player=seat, count", "seat=seat, count")


def _edit(text: str, *changes: tuple[str, str]) -> str:
    """``text`` with each (old, new) replaced: each old must be there, so a trap built from
    the guide's game fails here, not silently, once the guide's words change."""
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    return text


NO_OUTCOME = _edit(
    TOY,
    ("    outcome: str | None = None\n", ""),
    ('"winner": event.player, "outcome": "win"}', '"winner": event.player}'),
    ("return () if state.outcome else", "return () if state.winner is not None else"),
    ("if state.outcome or seat", "if state.winner is not None or seat"),
    ("(scores, state.outcome) if state.outcome", '(scores, "win") if state.winner is not None'),
)
TYPO_FACT = TOY.replace('return {"pile": after.pile}', 'return {"piles": after.pile}')


def test_a_move_that_names_its_seat_otherwise_is_refused_at_load(tmp_path):
    env = site(tmp_path, {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": SEAT_FIELD})
    games = gt(env, "games")
    assert games.returncode == 0 and "hanabi" in games.stdout
    assert "toy-nim" in games.stderr and "not a Move" in games.stderr
    refused = gt(env, "simulate", "toy-nim", "-n", "1")
    assert refused.returncode == 2 and "derives from gametape.events.base.Move" in refused.stderr
    assert gt(env, "simulate", "hanabi", "-n", "1").returncode == 0


def test_a_state_without_an_outcome_field_can_be_abandoned(tmp_path):
    env = site(tmp_path, {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": NO_OUTCOME})
    gid = new_toy(env)
    assert gt(env, "move", gid, "abandon").returncode == 0
    after = gt(env, "move", gid, '{"type":"toy-nim.take","player":0,"count":1}')
    assert after.returncode == 1 and "abandoned at seq 1" in after.stderr
    report = json.loads(gt(env, "validate", gid, "--json").stdout)
    assert report["result"] == {
        "outcome": "terminated",
        "scores": [0, 0],
        "winners": [],
        "details": {},
    }


def test_a_plugin_named_like_a_builtin_game_does_not_shadow_it(tmp_path):
    env = site(tmp_path, {"hanabi": "toy_nim:RULESET"}, {"toy_nim": TOY})
    made = gt(env, "new", "hanabi", "-p", "a,b", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert gt(env, "validate").returncode == 0  # the real Hanabi reads the log
    games = gt(env, "games", "--json")
    assert games.returncode == 0 and "another plug-in already names the game 'hanabi'" in (
        games.stderr
    )
    assert games.stderr.count("warning:") == 1


def test_a_plugin_that_fails_to_import_is_reported_once_and_the_rest_works(tmp_path):
    env = site(
        tmp_path,
        {"broken": "no_such_module:RULESET", "toy-nim": "toy_nim:RULESET"},
        {"toy_nim": TOY},
    )
    games = gt(env, "games")
    assert games.returncode == 0 and "toy-nim" in games.stdout and "hanabi" in games.stdout
    assert games.stderr.count("'broken'") == 1 and "No module named" in games.stderr
    assert gt(env, "simulate", "hanabi", "-n", "1").returncode == 0
    query = gt(env, "query", "SELECT count(*) AS n FROM games", "-f", "json")
    assert query.returncode == 0, query.stderr
    used = gt(env, "new", "broken", "-p", "a,b")
    assert used.returncode == 2 and "'broken' cannot be used" in used.stderr


def _query(env: dict[str, str], sql: str) -> list[dict]:
    done = gt(env, "query", sql, "-f", "json")
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_fact_key_that_is_not_a_declared_column_costs_that_game_alone(tmp_path):
    """#40: one plug-in's typo stopped `index` and `query` for every game of the store."""
    env = site(tmp_path, {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": TYPO_FACT})
    assert gt(env, "simulate", "toy-nim", "-n", "1").returncode == 0
    assert gt(env, "simulate", "hanabi", "-n", "1", "--seed", "2").returncode == 0
    assert gt(env, "index").returncode == 0
    rows = _query(env, "SELECT ruleset, status, error FROM games ORDER BY ruleset NULLS FIRST")
    toy, hanabi = rows
    assert toy["status"] == "invalid" and "['piles']" in toy["error"] and "pile" in toy["error"]
    assert hanabi["ruleset"] == "hanabi" and hanabi["status"] == "finished"
    events = _query(env, "SELECT count(*) AS n FROM hanabi.events")
    assert events[0]["n"] > 0


# A hook that fails with an exception that is not a rules error (a bug of the plug-in's).
FAULTY = _edit(
    TOY,
    (
        "        won = ",
        '        if pile < 5:\n            raise ValueError("the pile fell over")\n        won = ',
    ),
)


def test_a_fault_in_a_hook_is_the_plug_in_s_named_in_one_line(tmp_path):
    """#40: a ValueError in a game's apply reached the user as a raw traceback."""
    assert FAULTY != TOY
    good = site(tmp_path, {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": TOY})
    assert gt(good, "simulate", "toy-nim", "-n", "1", "--seed", "1").returncode == 0
    assert gt(good, "simulate", "hanabi", "-n", "1", "--seed", "2").returncode == 0
    faulty = site(tmp_path, {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": FAULTY})
    gid = next(p.stem for p in (tmp_path / "store").glob("*.jsonl") if "toy-nim" in p.read_text())
    shown = gt(faulty, "show", gid)
    assert shown.returncode == 1, shown.stderr
    said = shown.stderr.strip().splitlines()
    assert said[0].startswith("error: the game 'toy-nim' failed in its take() (")
    assert "toy_nim.py:" in said[0] and "ValueError: the pile fell over" in said[0]
    assert "--debug" in said[1]
    whole = subprocess.run(
        [sys.executable, "-m", "gametape.cli.app", "--debug", "show", gid],
        env=faulty,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert whole.returncode == 1 and "Traceback" in whole.stderr
    assert gt(faulty, "index").returncode == 0  # the game is marked invalid, the rest indexed
    rows = _query(faulty, "SELECT ruleset, status, error FROM games ORDER BY ruleset NULLS FIRST")
    assert rows[0]["status"] == "invalid" and "the pile fell over" in rows[0]["error"]
    assert rows[1]["ruleset"] == "hanabi" and rows[1]["status"] == "finished"


TOY_V2 = (
    TOY.replace(
        '''class NimTake(Move, frozen=True, kw_only=True, tag="toy-nim.take"):
    """Take ``count`` from the pile (``player``, from Move, is who takes)."""

    count: int''',
        '''def _taken(old):
    """toy-nim.take (version 1) said `count`; version 2 says `taken`."""
    return {"type": "toy-nim.take2", "player": old["player"], "taken": old["count"]}


class NimTake(Move, frozen=True, kw_only=True, tag="toy-nim.take2"):
    """Take ``taken`` from the pile."""

    upgrades = {"toy-nim.take": _taken}
    taken: int''',
    )
    .replace("event.count", "event.taken")
    .replace("count=n", "taken=n")
)


def test_an_event_whose_shape_changed_reads_old_logs_through_its_upgrade(tmp_path):
    """An event class's new version lists the old tag it replaces and an upgrade; old lines
    are upgraded on read, the log's bytes and hash chain stay as they were, and new moves are
    written in the new shape."""
    assert "taken" in TOY_V2 and "upgrades" in TOY_V2
    v1 = site(tmp_path / "v1", {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": TOY})
    ids = json.loads(gt(v1, "simulate", "toy-nim", "-n", "3", "--json").stdout)["games"]
    gid = new_toy(v1)
    assert gt(v1, "move", gid, '{"type":"toy-nim.take","player":0,"count":1}').returncode == 0
    store = Path(v1["GAMETAPE_STORE"])
    before = {p.name: p.read_bytes() for p in store.glob("*.jsonl")}
    v2 = site(tmp_path / "v2", {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": TOY_V2})
    v2["GAMETAPE_STORE"] = str(store)
    valid = gt(v2, "validate", "--json")
    assert valid.returncode == 0, valid.stdout
    assert {json.loads(r)["status"] for r in valid.stdout.splitlines()} == {
        "finished",
        "in_progress",
    }
    frames = gt(v2, "replay", ids[0], "--all", "--json").stdout.splitlines()
    assert json.loads(frames[1])["event"]["type"] == "toy-nim.take2"
    assert json.loads(frames[1])["event"]["taken"] >= 1
    assert {p.name: p.read_bytes() for p in store.glob("*.jsonl")} == before
    moved = gt(v2, "move", gid, '{"type":"toy-nim.take2","player":1,"taken":1}')
    assert moved.returncode == 0, moved.stderr
    lines = (store / f"{gid}.jsonl").read_bytes().splitlines()
    assert b'"toy-nim.take"' in lines[1] and b'"toy-nim.take2"' in lines[2]
    assert gt(v2, "validate", gid).returncode == 0


def test_the_toy_game_recorded_at_a_table(toy):
    made = gt(toy, "new", "toy-nim", "-p", "ann,ben", "--table", "-o", "pile=5")
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    assert "next: gametape record" in made.stderr
    take = '{{"type":"toy-nim.take","player":{},"count":{}}}\n'
    moves = take.format(0, 3) + take.format(1, 2)
    recorded = subprocess.run(
        [sys.executable, "-m", "gametape.cli.app", "record", gid],
        env=toy,
        input=moves,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    report = json.loads(gt(toy, "validate", gid, "--json").stdout)
    assert report["status"] == "finished" and report["winners"] == ["ben"]
    bad = gt(toy, "new", "toy-nim", "-p", "ann,ben", "--table")  # the option it must say
    assert bad.returncode == 2 and "at a table needs -o pile=" in bad.stderr, bad.stderr
    big = gt(toy, "new", "toy-nim", "-p", "ann,ben", "--table", "-o", "pile=120")
    assert big.returncode == 2 and "option pile: '120' is not 1 to 99" in big.stderr, big.stderr
    assert "Traceback" not in bad.stderr + big.stderr


def test_a_seats_page_of_the_toy_game_holds_only_that_seats_frames(toy, tmp_path):
    """Nim hides nothing, so a seat's page shows every move; it is still written from that
    seat's frames (the replay's --as), which the page says."""
    ids = json.loads(gt(toy, "simulate", "toy-nim", "-n", "1", "--json").stdout)["games"]
    for seat in ("alice", "bob"):
        out = tmp_path / f"{seat}.html"
        assert gt(toy, "export", ids[0], "-f", "html", "--as", seat, "-o", str(out)).returncode == 0
        page = out.read_text()
        assert f'"seat":"{seat}"' in page and f"(as {seat})" in page
    frames = gt(toy, "replay", ids[0], "--as", "bob", "--json").stdout.splitlines()
    assert all(json.loads(f)["seat"] == 1 for f in frames)


def test_the_package_says_it_is_typed_for_a_plug_in_author_s_checker():
    """#40: PEP 561's marker, shipped as package data, so mypy reads gametape's hints."""
    import tomllib

    import gametape

    assert (Path(gametape.__file__).parent / "py.typed").is_file()
    project = tomllib.loads((Path(gametape.__file__).parents[1] / "pyproject.toml").read_text())
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["gametape"]


def test_the_guide_s_game_is_the_suite_s_toy():
    """The guide's whole game and tests/plugins/toy_nim.py (which other suites import) are
    one text."""
    assert (ROOT / "tests" / "plugins" / "toy_nim.py").read_text() == TOY


def test_the_generic_board_draws_nested_fields_as_zones():
    """Two hands in a view are two zones of cards, not one run of numbers (#40)."""
    from gametape.cli.board import drawing
    from gametape.cli.drawing import lay_out, text_of
    from gametape.engine.board import generic

    view = {"ruleset": "x", "hands": [[1, 2], [3, 4]], "scores": {"ann": [5], "ben": []}, "pile": 7}
    board = generic(view, "x · seq 3")
    zones = {zone.title: zone for zone in board.zones}
    assert list(zones) == ["hands 1", "hands 2", "scores ann", "scores ben", "pile"]
    assert [c.text for c in zones["hands 2"].cards] == ["3", "4"]
    assert zones["hands 1"].group == "hands" and zones["scores ben"].text == "-"
    lines = lay_out(drawing(board), 80)
    assert lines is not None
    drawn = text_of(lines, colour=False)
    assert "1, 2, 3, 4" not in drawn and re.search(r"hands 2\D*3\D+4", drawn)


def test_a_json_move_naming_another_seat_is_refused_whoever_the_notation_names(toy):
    """#50: `move GAME '{"type": …, "player": 0, …}' --by ben` recorded ann's move: the
    default JSON notation ignores who sends it. The framework checks the mover."""
    gid = new_toy(toy)
    take = '{"type":"toy-nim.take","player":0,"count":1}'
    refused = gt(toy, "move", gid, take, "--by", "ben")
    assert refused.returncode == 1 and "the move is ann's, and ben sent it" in refused.stderr
    assert gt(toy, "log", gid, "--json").stdout.count("\n") == 0  # nothing but the setup
    assert gt(toy, "move", gid, take, "--by", "ann").returncode == 0
    assert gt(toy, "move", gid, take.replace('"player":0', '"player":1')).returncode == 0
