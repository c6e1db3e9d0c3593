"""Players as people (#28, first part): one documented reading of a name, and each person's
record per game, checked against the engine's own results counted here in Python."""

from __future__ import annotations

import json
import math
import os
import random
import re
import threading
from collections import Counter

import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from gametape.analytics import ReadModel
from gametape.analytics.players import streaks
from gametape.analytics.ratings import ranks
from gametape.charts import bins
from gametape.cli.app import app
from gametape.cli.tables import sparkline
from gametape.engine import simulate as sim
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset
from gametape.events import Store
from gametape.events.base import Abandon
from gametape.text import person

runner = CliRunner()


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("Ann", "ann"),
        ("  ANN  ", "ann"),
        ("Ａｎｎ", "ann"),  # full-width letters: NFKC
        ("Ann  B", "ann b"),  # runs of white space are one space
        ("Ann\tB", "ann b"),
        ("Zoé", "zoé"),
        ("Zoe\u0301", "zoé"),  # a combining accent is the same letter
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),  # case folding, not just lower case
    ],
)
def test_a_name_is_read_one_documented_way(written, read):
    assert person(written) == read


def test_look_alike_letters_are_different_people():
    assert person("\u0410nn") != person("Ann")  # a Cyrillic А is not a Latin A


@pytest.mark.parametrize("pair", [("Ann", "ＡＮＮ"), ("Zoé", "Zoe\u0301"), ("Ann B", "ann  b")])
def test_one_person_cannot_sit_twice_in_a_game(tmp_path, pair):
    result = runner.invoke(
        app, ["new", "hanabi", "-p", ",".join(pair)], env={"GAMETAPE_STORE": str(tmp_path)}
    )
    assert result.exit_code != 0 and "two players are called" in result.stderr
    assert not list(tmp_path.glob("*.jsonl"))


SERIES = [("Ann", "bob"), ("BOB", "Ａｎｎ"), ("ann", "Bob")]  # one pair, typed three ways


def _store(tmp_path) -> tuple[Store, list[Game]]:
    store = Store(tmp_path / "store")
    games = []
    for i, pair in enumerate(SERIES):
        g = sim.play(get_ruleset("hanamikoji-classic"), pair, "random", random.Random(i))
        store.create(g.setup, g.events[1:])
        games.append(g)
    for i in range(2):
        g = sim.play(get_ruleset("hanabi"), ("ann", "Cat", "bob"), "random", random.Random(i))
        store.create(g.setup, g.events[1:])
        games.append(g)
    unfinished = Game.create(get_ruleset("ohanami"), ("ANN", "dee"), random.Random(9))
    store.create(unfinished.setup)
    return store, games


def _expected(games: list[Game]) -> dict[tuple[str, str], dict]:
    """Each person's record, counted from the engine's results (not from the read model)."""
    out: dict[tuple[str, str], dict] = {}
    for g in games:
        result = g.result()
        assert result is not None
        coop = g.ruleset.cooperative
        for seat, name in enumerate(g.players):
            r = out.setdefault(
                (person(name), g.ruleset.name), {"games": 0, "scores": [], "tally": Counter()}
            )
            r["games"] += 1
            r["scores"].append(result.scores[seat])
            if not coop:
                winners = result.winners
                outcome = (
                    "wins"
                    if winners == (seat,) or list(winners) == [seat]
                    else "draws"
                    if not winners or (seat in winners and len(winners) > 1)
                    else "losses"
                )
                r["tally"][outcome] += 1
    return out


def test_records_match_the_engines_results_and_names_are_people(tmp_path):
    store, games = _store(tmp_path)
    model = ReadModel(store.root)
    model.refresh()
    found = model.players()
    rows = found["players"]
    assert found["left_out"] == {"in progress": 1}  # the Ohanami game
    expected = _expected(games)
    assert {(r["player"], r["ruleset"]) for r in rows} == set(expected)
    for row in rows:
        want = expected[(row["player"], row["ruleset"])]
        assert row["games"] == want["games"]
        assert row["mean_score"] == round(sum(want["scores"]) / len(want["scores"]), 2)
        if row["ruleset"] == "hanabi":  # cooperative: no wins or losses, the team's score
            assert row["wins"] is row["draws"] is row["losses"] is None
        else:
            assert [row["wins"], row["draws"], row["losses"]] == [
                want["tally"][k] for k in ("wins", "draws", "losses")
            ]
            assert row["wins"] + row["draws"] + row["losses"] == 3
    ann = [r for r in rows if r["player"] == "ann" and r["ruleset"] == "hanamikoji-classic"]
    assert ann[0]["written"] == ["Ann", "ann", "Ａｎｎ"] and ann[0]["name"] == "ann"
    wins = {r["player"]: r["wins"] for r in rows if r["ruleset"] == "hanamikoji-classic"}
    draws = {r["player"]: r["draws"] for r in rows if r["ruleset"] == "hanamikoji-classic"}
    assert wins["ann"] + wins["bob"] + draws["ann"] == 3  # each game: one winner, or a draw


@pytest.mark.parametrize(
    ("results", "current", "best"),
    [("WWLDW", "W1", 2), ("LLL", "L3", 0), ("DWWWLW", "W1", 3), ("D", "D1", 0), (None, None, None)],
)
def test_streaks_by_hand(results, current, best):
    assert streaks(results) == (current, best)


def test_a_sparkline_by_hand():
    assert sparkline([0, 7, 3.5]) == "▁█▅" and sparkline([5, 5]) == "▁▁" and sparkline([]) == ""
    assert sparkline(range(100), width=40) == sparkline(range(60, 100))


def test_one_person_in_detail_sums_their_own_play(tmp_path):
    store, games = _store(tmp_path)
    model = ReadModel(store.root)
    model.refresh()
    detail = model.players("ann")["detail"]
    seat = {id(g): [person(p) for p in g.players].index("ann") for g in games}
    mean = {
        name: round(sum(g.result().scores[seat[id(g)]] for g in of) / len(of), 2)
        for name, of in (("hanamikoji-classic", games[:3]), ("hanabi", games[3:]))
    }
    assert detail["by_player_count"] == [
        {"ruleset": "hanabi", "players": 3, "games": 2, "mean_score": mean["hanabi"]},
        {
            "ruleset": "hanamikoji-classic",
            "players": 2,
            "games": 3,
            "mean_score": mean["hanamikoji-classic"],
        },
    ]
    _, direct = model.query(
        "SELECT sum(plays), sum(clues_given), sum(critical_discards) FROM hanabi.game_players "
        "WHERE player = 'ann'"
    )
    hanabi = next(f for f in detail["facts"] if f["ruleset"] == "hanabi")
    assert (hanabi["plays"], hanabi["clues_given"], hanabi["critical_discards"]) == direct[0]
    assert direct[0][1] > 0  # ann gave clues: the sums are not all empty
    _, rated = model.query(
        "SELECT round(rating, 2) FROM ratings WHERE player = 'ann' ORDER BY game_number"
    )
    assert detail["history"] == [
        {"ruleset": "hanamikoji-classic", "of": "rating", "values": [r for (r,) in rated]},
        {"ruleset": "hanabi", "of": "score", "values": [g.result().scores[0] for g in games[3:]]},
    ]
    shown = runner.invoke(app, ["players", "ann"], env={"GAMETAPE_STORE": str(store.root)})
    assert "hanamikoji-classic rating, game by game" in shown.stdout
    assert "hanabi score, game by game" in shown.stdout


def test_the_players_command(tmp_path):
    store, _ = _store(tmp_path)
    env = {"GAMETAPE_STORE": str(store.root), "COLUMNS": "120"}
    table = runner.invoke(app, ["players"], env=env)
    assert table.exit_code == 0 and "hanamikoji-classic" in table.stdout
    assert "finished games only (1 game in progress left out)" in table.stderr
    one = runner.invoke(app, ["players", "ANN", "--json"], env=env)
    data = json.loads(one.stdout)
    assert {r["player"] for r in data["players"]} == {"ann"} and data["left_out"] == {
        "in progress": 1
    }
    csv = runner.invoke(app, ["players", "-f", "csv"], env=env).stdout.splitlines()
    assert csv[0].split(",") == [
        *("player", "name", "ruleset", "games", "wins", "draws", "losses", "abandoned"),
        *("rating",),
        *("mean_score", "last_played", "written", "streak", "best_streak"),
    ]
    assert len(csv) == 1 + 5  # ann, bob: two games each; cat: Hanabi


@pytest.mark.parametrize("name", ["[bold]zed[/]", "\x1b[31mred", "", "ann\x00"])
def test_a_name_nobody_has_is_refused_as_text(tmp_path, name):
    store, _ = _store(tmp_path)
    before = sorted((p.name, p.read_bytes()) for p in store.root.glob("*.jsonl"))
    result = runner.invoke(app, ["players", name], env={"GAMETAPE_STORE": str(store.root)})
    assert result.exit_code == 1
    assert "no finished game has a player named" in result.stderr
    assert "\x1b[31m" not in result.stderr and "Traceback" not in result.stderr
    if name.startswith("[bold]"):
        assert "[bold]zed[/]" in result.stderr  # shown as typed, not as markup
    assert sorted((p.name, p.read_bytes()) for p in store.root.glob("*.jsonl")) == before


def test_an_unknown_format_is_a_usage_error(tmp_path):
    store, _ = _store(tmp_path)
    result = runner.invoke(app, ["players", "-f", "xml"], env={"GAMETAPE_STORE": str(store.root)})
    assert result.exit_code == 2 and "unknown format 'xml'" in result.stderr


# --- ratings --------------------------------------------------------------------------------

RATED_GAMES = 1000  # as the issue asks; every rank shape (ties, shared wins) occurs; ~6 s


@pytest.mark.parametrize(
    ("scores", "won", "places"),
    [
        ((10, 7), (True, False), [1, 2]),
        ((7, 10), (True, False), [1, 2]),  # the winner by the rules, not by score
        ((30, 45, 45, 10), (False, True, False, False), [3, 1, 2, 4]),  # a tie broken by rules
        ((40, 40, 20, 20), (True, True, False, False), [1, 1, 3, 3]),  # a shared win
        ((5, 5, 5), (False, False, False), [1, 1, 1]),  # a draw with no winner
    ],
)
def test_places_by_hand(scores, won, places):
    assert ranks(scores, won) == places


def test_the_first_rated_game_by_hand(tmp_path):
    """Weng-Lin's Plackett-Luce update for two new players, worked by hand: beta = 25/6,
    sigma² = (25/3)² + tau² (openskill adds tau = 25/300 before each game), c = sqrt(2 sigma²
    + 2 beta²), p = 1/2; the winner gains sigma²/c * (1 - p), the loser loses as much, and
    each sigma shrinks by sqrt(1 - sigma/c * sigma²/c² * p(1 - p))."""
    store = Store(tmp_path / "store")
    g = sim.play(get_ruleset("hanamikoji-classic"), ("ann", "bob"), "random", random.Random(0))
    store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    sigma, beta = math.hypot(25 / 3, 25 / 300), 25 / 6
    c = math.sqrt(2 * sigma**2 + 2 * beta**2)
    gain = sigma**2 / c * 0.5
    shrunk = sigma * math.sqrt(1 - sigma / c * sigma**2 / c**2 * 0.25)
    winner = g.players[g.result().winners[0]]
    _, rows = model.query("SELECT player, mu, sigma, rating FROM ratings ORDER BY player")
    for player, mu, s, rating in rows:
        assert mu == pytest.approx(25 + gain if player == winner else 25 - gain)
        assert s == pytest.approx(shrunk) and rating == pytest.approx(mu - 3 * s)


def test_ratings_match_openskill_called_directly(tmp_path):
    store = Store(tmp_path / "store")
    games: dict[str, Game] = {}
    for i in range(RATED_GAMES):
        name = ("hanamikoji-classic", "ohanami")[i % 2]
        seats = ("ann", "bob", "cat", "dee")[: 2 if i % 2 == 0 else 2 + (i // 2) % 3]
        g = sim.play(get_ruleset(name), seats, "random", random.Random(i))
        games[store.create(g.setup, g.events[1:])] = g
    hanabi = sim.play(get_ruleset("hanabi"), ("ann", "bob"), "random", random.Random(1))
    store.create(hanabi.setup, hanabi.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    _, order = model.query(
        "SELECT game_id FROM games WHERE ruleset <> 'hanabi' ORDER BY recorded, game_id"
    )
    direct = PlackettLuce()
    rating: dict[tuple[str, str], object] = {}
    shapes = set()
    for (gid,) in order:
        g = games[gid]
        result = g.result()
        key = [(s in result.winners, result.scores[s]) for s in range(len(g.players))]
        places = [sorted(key, reverse=True).index(k) + 1 for k in key]
        shapes.add(tuple(sorted(places)))
        teams = [[rating.get((g.ruleset.name, p)) or direct.rating()] for p in g.players]
        for p, (r,) in zip(g.players, direct.rate(teams, ranks=places), strict=True):
            rating[(g.ruleset.name, p)] = r
    assert any(len(set(s)) < len(s) for s in shapes)  # some game had a tie
    _, rows = model.query(
        "SELECT ruleset, player, arg_max(mu, game_number), arg_max(sigma, game_number) "
        "FROM ratings GROUP BY ALL"
    )
    assert {(r, p) for r, p, _, _ in rows} == set(rating)
    for ruleset, player, mu, sigma in rows:
        assert (mu, sigma) == pytest.approx(
            (rating[(ruleset, player)].mu, rating[(ruleset, player)].sigma)
        )
    records = model.players("ann")["players"]
    assert {r["ruleset"]: r["rating"] for r in records} == {
        "hanabi": None,
        "hanamikoji-classic": round(rating[("hanamikoji-classic", "ann")].ordinal(), 2),
        "ohanami": round(rating[("ohanami", "ann")].ordinal(), 2),
    }


def test_ratings_after_an_incremental_refresh_equal_a_rebuild(tmp_path):
    store = Store(tmp_path / "store")
    rules = get_ruleset("hanamikoji-classic")
    for i in range(4):
        g = sim.play(rules, ("ann", "bob"), "random", random.Random(i))
        store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    g = sim.play(rules, ("bob", "cat"), "random", random.Random(9))
    store.create(g.setup, g.events[1:])
    assert model.refresh().added
    table = "SELECT * FROM ratings ORDER BY ALL"
    incremental = model.query(table)[1]
    model.path.unlink()
    model.refresh()
    assert model.query(table)[1] == incremental and len(incremental) == 10


# --- merged names ---------------------------------------------------------------------------


def _merge_store(tmp_path) -> tuple[Store, dict[str, str]]:
    """alice and bob play twice; "Ann B" plays bob once and cat once; dee plays bob."""
    store = Store(tmp_path / "store")
    rules = get_ruleset("hanamikoji-classic")
    pairs = [("alice", "bob"), ("bob", "alice"), ("Ann B", "bob"), ("cat", "Ann B"), ("dee", "bob")]
    for i, pair in enumerate(pairs):
        g = sim.play(rules, pair, "random", random.Random(i))
        store.create(g.setup, g.events[1:])
    return store, {"GAMETAPE_STORE": str(store.root), "COLUMNS": "120"}


def _records(env) -> dict[str, dict]:
    data = json.loads(runner.invoke(app, ["players", "--json"], env=env).stdout)
    return {r["player"]: r for r in data["players"]}


def test_a_merge_counts_one_name_as_another_and_can_be_taken_back(tmp_path):
    store, env = _merge_store(tmp_path)
    logs = sorted((p.name, p.read_bytes()) for p in store.root.glob("*.jsonl"))
    before = _records(env)
    merged = runner.invoke(app, ["players", "merge", "ANN b", "Alice"], env=env)
    assert merged.exit_code == 0 and "ANN b's 2 games now count as alice's" in merged.stdout
    after = _records(env)
    assert "ann b" not in after and after["alice"]["games"] == 4
    for key in ("wins", "draws", "losses"):
        assert after["alice"][key] == before["alice"][key] + before["ann b"][key]
    assert after["alice"]["name"] == "alice" and after["alice"]["written"] == ["Ann B", "alice"]
    model = ReadModel(store.root)
    _, rated = model.query("SELECT DISTINCT player FROM ratings ORDER BY 1")
    assert rated == [("alice",), ("bob",), ("cat",), ("dee",)]  # ratings follow the merge
    table = runner.invoke(app, ["players"], env=env)
    assert "alice also played as Ann B" in table.stderr
    one = json.loads(runner.invoke(app, ["players", "Ann B", "--json"], env=env).stdout)
    assert [r["player"] for r in one["players"]] == ["alice"]  # the old name finds the person
    undone = runner.invoke(app, ["players", "unmerge", "ann b"], env=env)
    assert undone.exit_code == 0 and "was merged into alice" in undone.stdout
    assert _records(env) == before
    assert sorted((p.name, p.read_bytes()) for p in store.root.glob("*.jsonl")) == logs
    lines = (store.root / "players.log").read_text().splitlines()
    assert [sorted(json.loads(line)) for line in lines] == [
        ["into", "merge", "ts"],
        ["ts", "unmerge"],
    ]


def test_a_chain_of_merges_ends_at_one_person(tmp_path):
    _, env = _merge_store(tmp_path)
    assert runner.invoke(app, ["players", "merge", "Ann B", "alice"], env=env).exit_code == 0
    assert runner.invoke(app, ["players", "merge", "alice", "dee"], env=env).exit_code == 0
    records = _records(env)
    assert records["dee"]["games"] == 5 and not {"alice", "ann b"} & set(records)
    # cat sat with "Ann B", who is dee now: cat cannot be merged into dee either
    refused = runner.invoke(app, ["players", "merge", "cat", "dee"], env=env)
    assert refused.exit_code == 2 and "one game cannot have the same person twice" in refused.stderr


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["merge", "alice", "ALICE"], "'alice' and 'ALICE' are one name already"),
        (["merge", "alice", "zed"], "no game has a player named 'zed'"),
        (["merge", "alice", "bob"], "both played in game"),
        (["merge", "alice"], "say two names"),
        (["merge", "a", "b", "c"], "say two names"),
        (["unmerge", "alice"], "'alice' is not merged into anyone"),
        (["alice", "bob"], "one name at a time"),
        (["merge", "[red]x[/]", "alice"], "no game has a player named '[red]x[/]'"),
    ],
)
def test_a_merge_that_cannot_be_is_refused_and_writes_nothing(tmp_path, words, message):
    store, env = _merge_store(tmp_path)
    result = runner.invoke(app, ["players", *words], env=env)
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert "Traceback" not in result.output
    assert not (store.root / "players.log").exists()


def test_a_merge_into_oneself_through_earlier_merges_is_refused(tmp_path):
    store, env = _merge_store(tmp_path)
    assert runner.invoke(app, ["players", "merge", "ann b", "alice"], env=env).exit_code == 0
    size = (store.root / "players.log").stat().st_size
    result = runner.invoke(app, ["players", "merge", "alice", "Ann B"], env=env)
    assert result.exit_code == 2 and "into themselves" in result.stderr
    assert "gametape players unmerge 'Ann B'" in result.stderr
    assert (store.root / "players.log").stat().st_size == size


def test_a_damaged_players_log_costs_its_bad_lines_only(tmp_path):
    store, env = _merge_store(tmp_path)
    assert runner.invoke(app, ["players", "merge", "ann b", "alice"], env=env).exit_code == 0
    with (store.root / "players.log").open("ab") as f:
        f.write(b'{"ts": 1, "merge": \n{"ts":"x","unmerge"')  # garbage, then a torn line
    result = runner.invoke(app, ["players", "--json"], env=env)
    assert result.exit_code == 0 and "players.log:2: not a merge of names" in result.stderr
    assert "players.log:3" in result.stderr
    players = {r["player"] for r in json.loads(result.stdout)["players"]}
    assert players == {"alice", "bob", "cat", "dee"}


@pytest.mark.parametrize("kind", ["directory", "symlink", "fifo"])
def test_a_players_log_that_is_no_file_merges_nothing(tmp_path, kind):
    store, env = _merge_store(tmp_path)
    path = store.root / "players.log"
    if kind == "directory":
        path.mkdir()
    elif kind == "symlink":
        path.symlink_to(tmp_path / "elsewhere")
    else:
        os.mkfifo(path)
    result = runner.invoke(app, ["players", "--json"], env=env)
    assert result.exit_code == 0 and "players.log is not a file" in result.stderr
    merged = runner.invoke(app, ["players", "merge", "ann b", "alice"], env=env)
    assert merged.exit_code != 0 and "cannot write" in merged.stderr
    assert "Traceback" not in merged.output


def test_two_writers_merging_at_once_keep_every_line(tmp_path):
    from gametape.analytics import aliases

    def merge_many(who: str) -> None:
        for i in range(200):
            aliases.append(tmp_path, merge=f"{who}{i}", into=who)

    threads = [threading.Thread(target=merge_many, args=(w,)) for w in ("ann", "bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    merged, problems = aliases.read(tmp_path)
    assert not problems and len(merged) == 400


# --- by hand: a three-game series, a four-player game with a tie ----------------------------


def _weng_lin(mus, sigmas, places, beta=25 / 6, tau=25 / 300, kappa=1e-4):
    """Weng and Lin's Plackett-Luce update (their Algorithm 4; one player per team, ties as
    openskill takes them: a tie shares the mean of its changes), written out here from the
    paper, so the read model's ratings are checked against the formulas, not the library."""
    n = len(mus)
    s2 = [s * s + tau * tau for s in sigmas]
    c = math.sqrt(sum(v + beta * beta for v in s2))
    e = [math.exp(m / c) for m in mus]
    sum_q = [sum(e[i] for i in range(n) if places[i] >= places[q]) for q in range(n)]
    a = [places.count(places[q]) for q in range(n)]
    moved, sigma = [], []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if places[q] <= places[i]:
                p = e[i] / sum_q[q]
                omega += ((q == i) - p) / a[q]
                delta += p * (1 - p) / a[q]
        moved.append(s2[i] / c * omega)
        shrink = math.sqrt(s2[i]) / c * s2[i] / c**2 * delta
        sigma.append(math.sqrt(s2[i]) * math.sqrt(max(1 - shrink, kappa)))
    shared = [sum(moved[j] for j in range(n) if places[j] == places[i]) / a[i] for i in range(n)]
    return [(m + d, s) for m, d, s in zip(mus, shared, sigma, strict=True)]


def _ratings(model, ruleset):
    _, rows = model.query(
        "SELECT player, game_number, mu, sigma, round(rating, 2) FROM ratings "
        f"WHERE ruleset = '{ruleset}' ORDER BY game_number, player"
    )
    return rows


def test_a_three_game_series_by_hand(tmp_path):
    """The series ann and bob played, typed three ways each: bob won all three (7-10, 12-9,
    10-11 in the engine's seats), so bob is 3-0-0 on a streak of W3, ann 0-0-3 on L3."""
    store, games = _store(tmp_path)
    assert [g.players[g.result().winners[0]] for g in games[:3]] == ["bob", "BOB", "Bob"]
    model = ReadModel(store.root)
    model.refresh()
    rows = {
        r["player"]: r for r in model.players()["players"] if r["ruleset"] == "hanamikoji-classic"
    }
    assert [rows["bob"][k] for k in ("wins", "draws", "losses", "streak", "best_streak")] == [
        *(3, 0, 0, "W3", 3)
    ]
    assert [rows["ann"][k] for k in ("wins", "draws", "losses", "streak", "best_streak")] == [
        *(0, 0, 3, "L3", 0)
    ]
    assert rows["ann"]["mean_score"] == round((7 + 9 + 10) / 3, 2)
    assert rows["bob"]["mean_score"] == round((10 + 12 + 11) / 3, 2)
    ann, bob = (25.0, 25 / 3), (25.0, 25 / 3)
    expected = []
    for number in (1, 2, 3):
        (ann, bob) = _weng_lin([ann[0], bob[0]], [ann[1], bob[1]], [2, 1])
        expected += [("ann", number, *ann), ("bob", number, *bob)]
    got = _ratings(model, "hanamikoji-classic")
    assert len(got) == 6
    for (player, number, mu, sigma, rating), want in zip(got, expected, strict=True):
        assert (player, number) == want[:2]
        assert (mu, sigma) == pytest.approx(want[2:])
        assert rating == round(want[2] - 3 * want[3], 2)
    assert rows["bob"]["rating"] == round(expected[-1][2] - 3 * expected[-1][3], 2)


def test_a_four_player_ohanami_game_with_a_tie_by_hand(tmp_path):
    """Seed 0: ann 6, bob 8, cat 8, dee 17 and the win, so places 4, 2, 2, 1. For four new
    players every exp(mu/c) is equal, so the chance a player is best of those at or below
    place q is 1/4, 1/3 and 1 for q at places 1, 2 and 4; Weng-Lin's omega is then 3/4 for
    dee, 1/3 - 1/4 - 1/6 = -1/12 for bob and for cat (a shared place: the sum is over both),
    and -1/4 - 2/6 = -7/12 for ann, each times sigma²/c."""
    store = Store(tmp_path / "store")
    g = sim.play(get_ruleset("ohanami"), ("ann", "bob", "cat", "dee"), "random", random.Random(0))
    assert g.result().scores == (6, 8, 8, 17) and g.result().winners == (3,)
    store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    rows = {r["player"]: r for r in model.players()["players"]}
    assert [
        (rows[p]["wins"], rows[p]["draws"], rows[p]["losses"]) for p in ["ann", "bob", "cat", "dee"]
    ] == [(0, 0, 1), (0, 0, 1), (0, 0, 1), (1, 0, 0)]
    s2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(4 * (s2 + (25 / 6) ** 2))
    omega = {"ann": -7 / 12, "bob": -1 / 12, "cat": -1 / 12, "dee": 3 / 4}
    got = {player: (mu, sigma) for player, _, mu, sigma, _ in _ratings(model, "ohanami")}
    for player, (mu, _) in got.items():
        assert mu == pytest.approx(25 + s2 / c * omega[player])
    paper = _weng_lin([25.0] * 4, [25 / 3] * 4, [4, 2, 2, 1])
    flat = [v for p in ("ann", "bob", "cat", "dee") for v in got[p]]
    assert flat == pytest.approx([v for pair in paper for v in pair])
    assert got["bob"] == got["cat"]


# --- abandoned games, look-alike names, charts ----------------------------------------------


def _with_an_abandoned_game(tmp_path) -> Store:
    store = Store(tmp_path / "store")
    rules = get_ruleset("hanamikoji-classic")
    for i in range(2):
        g = sim.play(rules, ("ann", "bob"), "random", random.Random(i))
        store.create(g.setup, g.events[1:])
    whole = sim.play(rules, ("ann", "bob"), "random", random.Random(7))
    part = Game.from_events(whole.events[:9])
    part.push(Abandon(player=None, reason="dinner"))
    store.create(part.setup, part.events[1:])
    return store


def test_an_abandoned_game_is_left_out_unless_asked_and_never_rated(tmp_path):
    store = _with_an_abandoned_game(tmp_path)
    env = {"GAMETAPE_STORE": str(store.root), "COLUMNS": "120"}
    plain = runner.invoke(app, ["players"], env=env)
    assert plain.exit_code == 0
    assert "finished games only (1 game abandoned left out)" in plain.stderr
    rows = {r["player"]: r for r in _records(env).values()}
    assert rows["ann"]["games"] == 2 and rows["ann"]["abandoned"] == 0
    rated = ReadModel(store.root).query("SELECT count(*) FROM ratings")[1]
    asked = json.loads(runner.invoke(app, ["players", "--abandoned", "--json"], env=env).stdout)
    assert asked["left_out"] == {}
    for row in asked["players"]:
        before = rows[row["player"]]
        assert row["games"] == 3 and row["abandoned"] == 1
        assert [row[k] for k in ("wins", "draws", "losses", "rating", "streak")] == [
            before[k] for k in ("wins", "draws", "losses", "rating", "streak")
        ]
    assert rated == [(4,)]  # two players, two finished games: the abandoned one has no result
    table = runner.invoke(app, ["players", "--abandoned"], env=env)
    assert "3 (1 abandoned)" in table.stdout
    assert "finished and abandoned games" in table.stderr
    ann = json.loads(
        runner.invoke(app, ["players", "ann", "--abandoned", "--json"], env=env).stdout
    )
    assert sum(n for _, n in ann["detail"]["histograms"][0]["bins"]) == 3


def test_names_that_only_look_alike_are_warned_about_never_merged(tmp_path):
    store = Store(tmp_path / "store")
    rules = get_ruleset("hanamikoji-classic")
    for i, pair in enumerate([("Ann", "bob"), ("\u0410nn", "cat"), ("dee", "\u0392ob")]):
        g = sim.play(rules, pair, "random", random.Random(i))
        store.create(g.setup, g.events[1:])
    env = {"GAMETAPE_STORE": str(store.root), "COLUMNS": "120"}
    shown = runner.invoke(app, ["players"], env=env)
    assert shown.exit_code == 0
    assert "'Ann' and 'Аnn' only look alike: different letters" in shown.stderr
    assert "'bob' and 'Βob' only look alike" in shown.stderr
    data = json.loads(runner.invoke(app, ["players", "--json"], env=env).stdout)
    assert data["look_alike"] == [["Ann", "Аnn"], ["bob", "Βob"]]
    assert len({r["player"] for r in data["players"]}) == 6  # still six people
    one = json.loads(runner.invoke(app, ["players", "cat", "--json"], env=env).stdout)
    assert one["look_alike"] == []


@pytest.mark.parametrize(
    ("counts", "bars"),
    [
        ({}, []),
        ({7: 2, 9: 1}, [("7", 2), ("8", 0), ("9", 1)]),  # a score nobody had is a bar of 0
        (
            {0: 1, 25: 3},
            [("0-2", 1)] + [(f"{s}-{s + 2}", 0) for s in range(3, 24, 3)] + [("24-26", 3)],
        ),
    ],
)
def test_score_bins_by_hand(counts, bars):
    assert bins(counts) == bars


def test_one_persons_page_has_their_charts_and_shows_names_as_text(tmp_path):
    store = Store(tmp_path / "store")
    rules = get_ruleset("hanamikoji-classic")
    for i in range(5):
        g = sim.play(rules, ("<b>ann</b>", "bob"), "random", random.Random(i))
        store.create(g.setup, g.events[1:])
    for i in range(3):
        g = sim.play(get_ruleset("hanabi"), ("<b>ann</b>", "bob"), "random", random.Random(i))
        store.create(g.setup, g.events[1:])
    env = {"GAMETAPE_STORE": str(store.root)}
    page_path = tmp_path / "ann.html"
    result = runner.invoke(
        app, ["players", "<B>ANN</b>", "-f", "html", "-o", str(page_path)], env=env
    )
    assert result.exit_code == 0, result.stderr
    html = page_path.read_text()
    assert "<b>ann</b>" not in html and "&lt;b&gt;ann&lt;/b&gt;" in html
    assert "<script" not in html and "Content-Security-Policy" in html
    charts = re.findall(r"<svg class=\"chart (\w+)\".*?</svg>", html)
    assert charts == ["line", "line", "bars", "bars"]
    lines = re.findall(r"<polyline points=\"([^\"]*)\"", html)
    assert [len(p.split()) for p in lines] == [5, 3]  # a point per rated game, per Hanabi game
    heights = re.findall(r"<rect [^>]*height=\"([\d.]+)\"><title>([^<]*)</title>", html)
    counts = [int(t.rsplit(": ", 1)[1]) for _, t in heights]
    assert sum(counts) == 5 + 3
    standard = runner.invoke(app, ["players", "<b>ann</b>", "-f", "html"], env=env)
    assert standard.stdout == html  # the same page on standard output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-f", "html"], "a page is one person's: say a NAME"),
        (["ann", "-o", "x.html"], "--output writes a page: use it with -f html"),
    ],
)
def test_a_page_asked_for_wrongly_is_a_usage_error(tmp_path, args, message):
    store, _ = _store(tmp_path)
    result = runner.invoke(app, ["players", *args], env={"GAMETAPE_STORE": str(store.root)})
    assert result.exit_code == 2 and message in result.stderr
    assert not (tmp_path / "x.html").exists()


def test_a_page_written_over_a_directory_is_refused_and_a_new_one_is_readable(tmp_path):
    store, _ = _store(tmp_path)
    env = {"GAMETAPE_STORE": str(store.root)}
    folder = tmp_path / "folder"
    folder.mkdir()
    refused = runner.invoke(app, ["players", "ann", "-f", "html", "-o", str(folder)], env=env)
    assert refused.exit_code == 2 and "is a directory" in refused.stderr
    assert list(folder.iterdir()) == [] and "Traceback" not in refused.stderr
    page_path = tmp_path / "ann.html"
    written = runner.invoke(app, ["players", "ann", "-f", "html", "-o", str(page_path)], env=env)
    assert written.exit_code == 0
    umask = os.umask(0o022)
    os.umask(umask)
    assert page_path.stat().st_mode & 0o777 == 0o666 & ~umask  # not private, like any new file


def test_the_players_view_has_one_row_per_person_that_every_seat_points_into(tmp_path):
    store, env = _merge_store(tmp_path)
    assert runner.invoke(app, ["players", "merge", "Ann B", "alice"], env=env).exit_code == 0
    model = ReadModel(store.root)
    model.refresh()
    _, rows = model.query("SELECT player, name, names, games FROM players ORDER BY player")
    assert rows == [
        ("alice", "alice", ["Ann B", "alice"], 4),
        ("bob", "bob", ["bob"], 4),
        ("cat", "cat", ["cat"], 1),
        ("dee", "dee", ["dee"], 1),
    ]
    _, orphans = model.query(
        "SELECT count(*) FROM people LEFT JOIN players ON people.person = players.player "
        "WHERE players.player IS NULL"
    )
    assert orphans == [(0,)]


def test_the_table_says_what_a_loss_is_with_more_than_two_players(tmp_path):
    """#36: second of three showed "0-0-1 L1" while the rating rose, with no word why."""
    env = {"GAMETAPE_STORE": str(tmp_path / "s"), "COLUMNS": "200"}
    made = runner.invoke(app, ["simulate", "ohanami", "--players", "3", "-n", "2"], env=env)
    assert made.exit_code == 0, made.output
    table = runner.invoke(app, ["players"], env=env)
    assert table.exit_code == 0
    assert "lost (any other place, second of three too; the rating counts places)" in (
        " ".join(table.stderr.split())
    )
