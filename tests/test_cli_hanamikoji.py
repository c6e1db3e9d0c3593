"""End-to-end CLI tests for Hanamikoji: new, move, show, log, validate, simulate."""

from __future__ import annotations

import json

from gametape.games.hanamikoji.rules import card_name

MOVE = "assign {p} perform={a} hidden={b} sacrifice={c} vote={d}"


def _new(run):
    result = run(
        "new", "hanamikoji", "--players", "alice,bob", "--seed", "2", "-o", "first=0", "--json"
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def _hand(run, gid, who):
    view = json.loads(run("show", gid, "--as", who, "--json").stdout)["view"]
    seat = view["players"].index(who)
    return view["seats"][seat]["hand"]


def test_a_whole_game_through_the_cli(run):
    gid = _new(run)
    for _ in range(3):
        for who in ("alice", "bob"):
            a, b, c, d, *_ = _hand(run, gid, who)
            result = run("move", gid, MOVE.format(p=who, a=a, b=b, c=c, d=d))
            assert result.exit_code == 0, result.output
    report = json.loads(run("validate", gid, "--json").stdout)
    assert report["status"] == "finished" and report["result"]["outcome"] in ("win", "draw")
    log = [json.loads(x) for x in run("log", gid, "--json").stdout.splitlines()]
    assert len(log) == 6 and log[0]["move"].startswith("assign alice perform=")
    assert "round 1:" in log[1]["description"]
    assert "game over" in run("show", gid).stdout


def test_the_first_assignment_stays_secret_from_the_opponent(run):
    gid = _new(run)
    a, b, c, d, *_ = _hand(run, gid, "alice")
    result = run("move", gid, MOVE.format(p="alice", a=a, b=b, c=c, d=d))
    assert "in secret" in result.stdout and "bob to act" in result.stdout
    bob = json.loads(run("show", gid, "--as", "bob", "--json").stdout)["view"]
    assert bob["seats"][0]["hand"] is None and bob["seats"][0]["pending"] is None
    assert bob["seats"][0]["assigned"] is True
    assert "secret until both" in run("show", gid, "--as", "bob").stdout


def test_record_shows_the_table_what_a_secret_move_left_until_the_step_is_done(run):
    """#49: in a dealt game, `record` (one keyboard passed round the table) showed alice's
    assignment, and her cards on the board, before bob chose his."""
    gid = _new(run)
    a, b, c, d, *_ = _hand(run, gid, "alice")
    typed = MOVE.format(p="alice", a=a, b=b, c=c, d=d) + "\n"
    said = run("record", gid, input=typed).stdout
    done = next(line for line in said.splitlines() if line.startswith("✓"))
    assert done.startswith("✓ alice assigned four cards in secret"), done
    board = said.split(done)[1]  # the board the record ends with: the table's, cards hidden
    alice = next(line for line in board.splitlines() if line.startswith("│ alice"))
    assert card_name(a) not in board and "▒▒" in alice, board
    a, b, c, d, *_ = _hand(run, gid, "bob")
    said = run("record", gid, input=MOVE.format(p="bob", a=a, b=b, c=c, d=d) + "\n").stdout
    assert "✓ round 1:" in said  # the step done: what it showed, whole


def test_illegal_assignments_are_refused_and_nothing_is_written(run):
    gid = _new(run)
    path = run.root / f"{gid}.jsonl"
    hand = _hand(run, gid, "alice")
    missing = next(c for c in range(1, 15) if c not in hand)
    before = path.read_bytes()
    cases = [
        (MOVE.format(p="alice", a=missing, b=hand[1], c=hand[2], d=hand[3]), "not in alice's"),
        (MOVE.format(p="alice", a=hand[0], b=hand[0], c=hand[2], d=hand[3]), "in two zones"),
        (f"assign alice perform={hand[0]} hidden={hand[1]}", "missing zone"),
        (MOVE.format(p="zed", a=1, b=2, c=3, d=4), "no player 'zed'"),
    ]
    for text, message in cases:
        result = run("move", gid, text)
        assert result.exit_code == 1 and message in result.stderr, (text, result.stderr)
    assert path.read_bytes() == before
    run("move", gid, MOVE.format(p="alice", a=hand[0], b=hand[1], c=hand[2], d=hand[3]))
    result = run("move", gid, MOVE.format(p="alice", a=hand[4], b=hand[5], c=hand[2], d=hand[3]))
    assert result.exit_code == 1 and "already moved this step" in result.stderr


def test_simulate_and_list(run):
    result = run("simulate", "hanamikoji", "--games", "5", "--json")
    assert result.exit_code == 0, result.output
    assert sum(json.loads(result.stdout)["outcomes"].values()) == 5
    assert run("simulate", "hanamikoji", "--players", "3").exit_code == 2
    assert run("simulate", "hanamikoji", "--bot", "random", "-n", "3").exit_code == 0
    lines = run("list", "--json").stdout.splitlines()
    assert len(lines) == 8 and all(json.loads(x)["status"] == "finished" for x in lines)


def test_tab_completes_the_short_form_from_the_seats_own_hand():
    """#49: short forms got no completion: `a r` offered nothing. It offers the cards of
    ann's hand (a dealt game: the short form `a r8 b5 g4 v7` from the hand she holds)."""
    import random

    from gametape.engine.game import Game
    from gametape.engine.registry import get_ruleset
    from gametape.usecases.record import complete

    rules = get_ruleset("hanamikoji")
    game = Game.new(rules.new_setup(["ann", "ben"], random.Random(2), {}))
    hand = [card_name(c) for c in game.state.hands[0]]
    offered = complete(game, "a ")
    assert set(hand) <= set(offered)
    first = hand[0]
    assert complete(game, f"a {first[:2]}") == [c for c in hand if c.startswith(first[:2])]
    assert set(complete(game, f"a {first} ")) == set(hand)
