"""End-to-end CLI tests for Ohanami: new, move, show, log, validate, simulate."""

from __future__ import annotations

import json

import pytest


def _new(run, players="alice,bob,cara"):
    result = run("new", "ohanami", "--players", players, "--seed", "5", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["game"]


def _view(run, gid, who=None):
    args = ["show", gid, "--json"] + (["--as", who] if who else [])
    return json.loads(run(*args).stdout)["view"]


def _legal_pick(view, seat):
    """The lowest card of the seat's hand, placed in the first row it fits."""
    garden = view["gardens"][seat]
    card = min(garden["hand"])
    for r, row in enumerate(garden["rows"], start=1):
        if (row[-1] if row else r) < card:
            return f"pick {garden['name']} {card} row={r}"
    return f"pick {garden['name']} {card} discard"


def test_new_deals_the_first_round(run):
    gid = _new(run)
    view = _view(run, gid, "alice")
    assert view["season"] == "spring" and view["deck"] == 69 - 9
    assert len(view["gardens"][0]["hand"]) == 3 and view["gardens"][1]["hand"] is None


def test_a_turn_through_the_cli_stays_secret_until_everyone_picked(run):
    gid = _new(run)
    for seat, who in enumerate(("alice", "bob", "cara")):
        move = _legal_pick(_view(run, gid, who), seat)
        result = run("move", gid, move)
        assert result.exit_code == 0, result.output
        if who != "cara":
            assert "in secret" in result.stdout
            assert _view(run, gid, "cara")["gardens"][0]["pick"] is None
    assert "turn 1:" in result.stdout and "passed left" in result.stdout
    log = [json.loads(x) for x in run("log", gid, "--json").stdout.splitlines()]
    assert log[0]["move"] == "deal spring" and log[1]["move"].startswith("pick alice")
    assert json.loads(run("validate", gid, "--json").stdout)["status"] == "in_progress"


def test_a_whole_round_deals_the_next_one_automatically(run):
    gid = _new(run, "alice,bob")
    while _view(run, gid)["round"] == 1:
        for seat, who in enumerate(("alice", "bob")):
            assert run("move", gid, _legal_pick(_view(run, gid, who), seat)).exit_code == 0
    view = _view(run, gid)
    assert view["season"] == "summer" and len(view["gardens"][0]["round_scores"]) == 1
    assert "summer" in run("show", gid).stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pick alice 99 row=1", "99 is not in alice's hand"),
        ("pick zed 5 row=1", "no player 'zed'"),
        ("pick alice 5", "cannot read"),
    ],
)
def test_illegal_picks_are_refused_and_nothing_is_written(run, text, message):
    gid = _new(run)
    path = run.root / f"{gid}.jsonl"
    before = path.read_bytes()
    result = run("move", gid, text)
    assert result.exit_code == 1 and message in result.stderr, result.stderr
    assert path.read_bytes() == before


def test_discarding_a_card_that_fits_and_picking_twice_are_refused(run):
    gid = _new(run)
    card = min(_view(run, gid, "alice")["gardens"][0]["hand"])
    result = run("move", gid, f"pick alice {card} discard")
    assert result.exit_code == 1 and "cannot be discarded" in result.stderr
    assert "R4" in result.stderr
    assert run("move", gid, f"pick alice {card} row=1").exit_code == 0
    result = run("move", gid, f"pick alice {card} row=1")
    assert result.exit_code == 1 and "already moved this step" in result.stderr


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_validates_for_2_to_4_players(run, players):
    result = run("simulate", "ohanami", "-n", "3", "-k", str(players), "--json")
    assert result.exit_code == 0, result.output
    reports = [json.loads(x) for x in run("validate", "--json").stdout.splitlines()]
    assert len(reports) == 3 and all(r["status"] == "finished" for r in reports)
    assert all(len(r["result"]["scores"]) == players for r in reports)
    assert run("simulate", "ohanami", "-k", "5").exit_code == 2


def test_tab_completes_the_short_form_from_the_cards_to_pick():
    """#49: short forms got no completion: `a ` offered nothing in a dealt game. It offers
    the cards ann may pick, then the rows (`a 37 2`)."""
    import random

    from gametape.engine.game import Game
    from gametape.engine.registry import get_ruleset
    from gametape.usecases.record import complete

    rules = get_ruleset("ohanami")
    game = Game.new(rules.new_setup(["ann", "ben"], random.Random(2), {}))
    while not game.to_act():
        game.deal(random.Random(1))
    cards = sorted({str(m.card) for m in game.legal_moves(0)})
    assert set(cards) <= set(complete(game, "a "))
    assert complete(game, f"a {cards[0]} ") == ["1", "2", "3", "x"]
