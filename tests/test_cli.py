"""End-to-end CLI tests through typer's runner on a temporary store."""

from __future__ import annotations

import json

import pytest

from gametape.events import read_log


def _new(run, players="alice,bob,cara", seed="7", *extra):
    result = run("new", "hanabi", "--players", players, "--seed", seed, *extra, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def test_new_prints_the_id_and_says_where(run):
    result = run("new", "hanabi", "--players", "alice,bob", "--seed", "3")
    assert result.exit_code == 0
    gid = result.stdout.strip()
    assert (run.root / f"{gid}.jsonl").is_file()
    assert str(run.root) in result.stderr


def test_new_with_options(run):
    gid = _new(
        run,
        "alice,bob",
        "1",
        "--option",
        "suits=red,yellow,green,blue,purple",
        "-o",
        "end_at_max_score=true",
    )
    setup = read_log(run.root / f"{gid}.jsonl").events[0]
    assert setup.options.suits[-1] == "purple" and setup.options.end_at_max_score
    assert setup.meta["seed"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["new", "chess", "--players", "a,b"], "unknown game 'chess'"),
        (["new", "hanabi", "--players", "a"], "needs 2-6 players"),
        (["new", "hanabi", "--players", "a,b", "-o", "colour=red"], "unknown option"),
        (["new", "hanabi", "--players", "a,A"], "two players are called"),
    ],
)
def test_new_usage_errors_exit_2(run, args, message):
    result = run(*args)
    assert result.exit_code == 2 and message in result.stderr


def test_move_records_and_describes(run):
    gid = _new(run)
    result = run("move", gid, "clue bob 4")
    assert result.exit_code == 0, result.output
    assert "alice told bob 4" in result.stdout and "bob to act" in result.stdout
    assert len(read_log(run.root / f"{gid}.jsonl").records) == 2


@pytest.mark.parametrize(
    ("move", "by", "message"),
    [
        ("play 1", "bob", "it is alice's turn, not bob's"),
        ("play 1", "zed", "no player 'zed'"),
        ("play 9", None, "no slot 9"),
        ("clue bob purple", None, "no colour 'purple'"),
        ("clue alice 1", None, "cannot clue themselves"),
        ("discard 1", None, "8 clue tokens"),
        ("dance", None, "cannot read"),
    ],
)
def test_illegal_moves_are_refused_with_the_rule_and_nothing_is_written(run, move, by, message):
    gid = _new(run)
    path = run.root / f"{gid}.jsonl"
    before = path.read_bytes()
    args = ["move", gid, move] + (["--by", by] if by else [])
    result = run(*args)
    code = 2 if by == "zed" else 1  # an unknown --by is a usage error; the others refused moves
    assert result.exit_code == code and message in result.stderr, result.stderr
    assert path.read_bytes() == before


def test_clue_touching_nothing_and_no_tokens(run):
    gid = _new(run, "alice,bob", "5")
    view = json.loads(run("show", gid, "--json").stdout)["view"]
    bob_ranks = {c["face"][1] for c in view["hands"][1]}
    missing = next(r for r in range(1, 6) if r not in bob_ranks)
    result = run("move", gid, f"clue bob {missing}")
    assert result.exit_code == 1 and "touches no card" in result.stderr
    assert "rule: a clue must touch at least one card" in result.stderr
    alice_rank = view["hands"][0][0]["face"][1]
    bob_rank = view["hands"][1][0]["face"][1]
    for i in range(8):
        text = f"clue bob {bob_rank}" if i % 2 == 0 else f"clue alice {alice_rank}"
        assert run("move", gid, text).exit_code == 0
    result = run("move", gid, f"clue bob {bob_rank}")
    assert result.exit_code == 1 and "no clue tokens" in result.stderr


def test_move_on_a_finished_game_is_refused(run):
    gid = _new(run)
    assert run("move", gid, "abandon").exit_code == 0
    result = run("move", gid, "clue bob 1")
    assert result.exit_code == 1 and "abandoned at seq 1" in result.stderr


def test_move_on_a_torn_log_is_refused_and_repair_fixes_it(run):
    gid = _new(run)
    path = run.root / f"{gid}.jsonl"
    path.write_bytes(path.read_bytes() + b'{"v":1,"seq":1')
    result = run("move", gid, "clue bob 1")
    assert result.exit_code == 1 and "incomplete last line" in result.stderr
    assert "byte" in result.stderr
    result = run("repair", gid)
    assert result.exit_code == 0 and ".torn" in result.stdout
    assert run("move", gid, "clue bob 1").exit_code == 0  # the repaired log takes moves
    assert run("validate", gid).exit_code == 0
    assert (run.root / f"{gid}.jsonl.torn").read_bytes() == b'{"v":1,"seq":1\n'  # kept


def test_show_renders_for_people_and_hides_own_cards(run):
    gid = _new(run)
    result = run("show", gid, "--as", "alice")
    assert result.exit_code == 0
    assert "Hanabi" in result.stdout and "as alice" in result.stdout and "??" in result.stdout
    data = json.loads(run("show", gid, "--as", "alice", "--json").stdout)
    assert all(c["face"] is None for c in data["view"]["hands"][0])
    assert all(c["face"] is not None for c in data["view"]["hands"][1])


def test_show_at_a_seq(run):
    gid = _new(run)
    run("move", gid, "clue bob 4")
    at0 = json.loads(run("show", gid, "--at", "0", "--json").stdout)
    at1 = json.loads(run("show", gid, "--at", "1", "--json").stdout)
    assert at0["view"]["clues"] == 8 and at1["view"]["clues"] == 7
    result = run("show", gid, "--at", "9")
    assert result.exit_code == 2 and "seqs 0 to 1" in result.stderr
    result = run("show", gid, "--as", "nobody")
    assert result.exit_code == 2 and "alice, bob, cara" in result.stderr


def test_log_is_a_score_sheet(run):
    gid = _new(run)
    run("move", gid, "clue bob 4")
    run("move", gid, "discard 1")
    lines = [json.loads(x) for x in run("log", gid, "--json").stdout.splitlines()]
    assert [r["move"] for r in lines] == ["clue bob 4", "discard 1"]
    assert [r["player"] for r in lines] == ["alice", "bob"]
    assert [r["seq"] for r in lines] == [1, 2] and lines[1]["turn"] == 2
    table = run("log", gid).stdout
    assert "clue bob 4" in table and "discarded" in table


def test_validate_reports_each_game_and_exits_1_if_any_is_invalid(run):
    finished = _new(run)
    run("move", finished, "abandon")
    progress = _new(run, "alice,bob", "3")
    broken = _new(run, "alice,bob", "4")
    path = run.root / f"{broken}.jsonl"
    path.write_bytes(
        path.read_bytes().replace(b'"players":["alice","bob"]', b'"players":["alice","eve"]')
    )
    result = run("validate", "--json")
    assert result.exit_code == 1
    reports = {r["game"]: r for r in map(json.loads, result.stdout.splitlines())}
    assert reports[finished]["status"] == "finished"
    assert reports[finished]["result"]["outcome"] == "terminated"
    assert reports[progress]["status"] == "in_progress"
    bad = reports[broken]
    assert bad["status"] == "invalid" and bad["problem"]["kind"] == "ChainBroken"
    assert bad["problem"]["line"] == 1 and bad["problem"]["seq"] == 0
    human = run("validate")
    assert human.exit_code == 1 and "invalid" in human.stdout and "1 invalid" in human.stdout
    assert run("validate", finished, progress).exit_code == 0


def test_validate_paths_and_directories(run, tmp_path):
    gid = _new(run)
    assert run("validate", str(run.root / f"{gid}.jsonl")).exit_code == 0
    assert run("validate", str(run.root)).exit_code == 0
    assert run("validate", "nope").exit_code == 2  # an unknown game is a usage error


def test_simulate_writes_complete_valid_games(run):
    result = run("simulate", "hanabi", "--games", "6", "--players", "4", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert len(summary["games"]) == 6 and sum(summary["outcomes"].values()) == 6
    reports = [json.loads(x) for x in run("validate", "--json").stdout.splitlines()]
    assert len(reports) == 6 and all(r["status"] == "finished" for r in reports)
    assert run("simulate", "hanabi", "--bot", "genius").exit_code == 2
    assert run("simulate", "hanabi", "--players", "9").exit_code == 2


def test_list(run):
    missing = run("list")  # a store that does not exist is an error, not "0 games"
    assert missing.exit_code == 2 and "no store at" in missing.stderr
    run.root.mkdir(parents=True)
    assert "no games" in run("list").stdout
    gid = _new(run)
    assert gid in run("list").stdout


def test_store_from_environment(run, monkeypatch, tmp_path):
    monkeypatch.setenv("GAMETAPE_STORE", str(tmp_path / "env-store"))
    result = run("new", "hanabi", "--players", "a,b", store=False)
    assert result.exit_code == 0
    assert (tmp_path / "env-store" / f"{result.stdout.strip()}.jsonl").exists()


def test_demo_runs_in_its_own_store(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("demo", "--games", "2", store=False)
    assert result.exit_code == 0, result.output
    assert "Try next" in result.stdout and "finished" in result.stdout
    assert (tmp_path / "demo-store" / ".gametape-demo").exists()
    assert run("demo", "--games", "1", store=False).exit_code == 0  # reruns over itself
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    result = run("--store", str(tmp_path / "mine"), "demo", store=False)
    assert result.exit_code == 2 and "not a demo store" in result.stderr


def test_every_command_has_help_with_an_example(run):
    from gametape.cli.app import app

    commands = [c.name or c.callback.__name__ for c in app.registered_commands]  # type: ignore[union-attr]
    assert {"new", "move", "record", "games", "import", "show", "replay"} <= set(commands)
    for command in commands:
        result = run(command, "--help")
        assert result.exit_code == 0 and "Example" in result.stdout, command


def test_a_log_invalid_part_way_names_file_line_and_seq(run):
    from gametape.events import Store
    from gametape.games.hanabi.events import HanabiPlay

    gid = _new(run)
    store = Store(run.root)
    store.append(gid, [HanabiPlay(player=2, card=10)], expected_seq=1)  # out of turn
    result = run("move", gid, "clue bob 1")
    assert result.exit_code == 1
    assert f"{gid}.jsonl:2, seq 1: it is alice's turn, not cara's" in result.stderr


def test_gametapes_own_options_may_come_after_the_command(tmp_path):
    """#49: `gametape serve --store DIR` was "No such option", though docs/serve.md said the
    store is chosen "as for every command"."""
    import subprocess

    from gametape.cli.app import hoisted
    from tests.serving import GAMETAPE

    assert hoisted(["show", "g1", "--store", "s", "--debug"]) == [
        "--store",
        "s",
        "--debug",
        "show",
        "g1",
    ]
    assert hoisted(["--store=s", "list"]) == ["--store=s", "list"]
    assert hoisted(["move", "g1", "--", "--store"]) == ["move", "g1", "--", "--store"]
    store = tmp_path / "s"
    for argv in (
        ["new", "hanabi", "-p", "a,b", "--store", str(store)],
        ["list", f"--store={store}"],
    ):
        done = subprocess.run([GAMETAPE, *argv], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
    assert len(list(store.glob("*.jsonl"))) == 1
    done = subprocess.run(
        [GAMETAPE, "serve", "--store", str(store), "--port", "-1"], capture_output=True, text=True
    )
    assert "No such option" not in done.stderr and "--port" in done.stderr
