"""The read model: incremental refresh, rebuild equality, every column against the engine,
statuses of invalid and unfinished games, and the CLI (index, query, stats, export)."""

from __future__ import annotations

import gc
import json
import random
import sys
import threading
from pathlib import Path

import duckdb
import pytest

from gametape.analytics import QueryError, ReadModel
from gametape.analytics import model as model_module
from gametape.analytics.schema import schema_of
from gametape.engine import simulate as sim
from gametape.engine.game import Game, notation
from gametape.engine.registry import all_rulesets, get_ruleset, names
from gametape.events import Store
from gametape.events.base import actor
from gametape.games.hanamikoji.events import ARTISTS
from gametape.messages import text_of

PUBLIC = ("games", "game_players", "events")


def _fill(store: Store, per_ruleset: int = 4, seed: int = 0) -> dict[str, Game]:
    games = {}
    for _name, rules in [(r.name, r) for r in all_rulesets()]:
        for i in range(per_ruleset):
            n = rules.min_players + (i % (rules.max_players - rules.min_players + 1))
            bot = "random" if i % 2 else rules.default_bot
            g = sim.play(rules, sim.default_players(n), bot, random.Random(seed + i), seed=i)
            gid = store.create(g.setup, g.events[1:])
            games[gid] = g
    return games


@pytest.fixture
def filled(tmp_path):
    store = Store(tmp_path / "store")
    games = _fill(store)
    return store, games, ReadModel(store.root)


def _count_extracts(monkeypatch) -> list:
    calls: list = []
    real = model_module.extract

    def counting(path, **kwargs):
        calls.append(path)
        return real(path, **kwargs)

    monkeypatch.setattr(model_module, "extract", counting)
    return calls


def _dump(model: ReadModel) -> dict[str, list]:
    return {t: model.query(f"SELECT * FROM {t} ORDER BY ALL")[1] for t in PUBLIC}


def test_refresh_is_idempotent_and_touching_nothing_reads_nothing(filled, monkeypatch):
    _store, games, model = filled
    first = model.refresh()
    assert len(first.added) == len(games) and not first.updated and not first.removed
    calls = _count_extracts(monkeypatch)
    before = _dump(model)
    again = model.refresh()
    assert calls == [] and again.unchanged == len(games) and not again.changed
    assert _dump(model) == before
    assert not model.stale()


def test_batches_are_written_with_the_lock_handed_on_quickly_then_as_before(tmp_path, monkeypatch):
    """While a refresh writes its batches, Python's lock changes hands every 0.2 ms (the
    writer's DuckDB statements take it often); after it, failed or not, and after two
    refreshes on threads at once, the interval is what it was."""
    store = Store(tmp_path / "store")
    _fill(store, per_ruleset=1)
    seen: list[float] = []
    insert = model_module._Writer._insert

    def watched(self, tables):
        seen.append(sys.getswitchinterval())
        insert(self, tables)

    monkeypatch.setattr(model_module._Writer, "_insert", watched)
    before = sys.getswitchinterval()
    ReadModel(store.root).refresh()
    assert seen and all(x == pytest.approx(model_module.HANDOFF) for x in seen)
    assert sys.getswitchinterval() == before
    _fill(store, per_ruleset=1, seed=5)
    with monkeypatch.context() as m:
        m.setattr(model_module, "extract", lambda path, **kwargs: 1 / 0)  # a game's code fails
        with pytest.raises(ZeroDivisionError):
            ReadModel(store.root).refresh()
    assert sys.getswitchinterval() == before
    other = Store(tmp_path / "other")
    _fill(other, per_ruleset=1)
    models = [ReadModel(store.root, tmp_path / "a.duckdb"), ReadModel(other.root)]
    threads = [threading.Thread(target=m.refresh) for m in models]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert all(m.query("SELECT count(*) FROM games")[1] for m in models)
    assert sys.getswitchinterval() == before


def test_a_refresh_leaves_the_cycle_collector_as_it_found_it(tmp_path, monkeypatch):
    """A refresh runs Python's cycle collector once a batch (its rows make no cycles); after
    it, failed or not, the collector is on or off as it was."""
    store = Store(tmp_path / "store")
    _fill(store, per_ruleset=1)
    model = ReadModel(store.root)
    assert gc.isenabled()
    model.refresh()
    assert gc.isenabled()
    _fill(store, per_ruleset=1, seed=5)

    def broken(path, **kwargs):
        raise KeyboardInterrupt  # a refresh cut short

    monkeypatch.setattr(model_module, "extract", broken)
    with pytest.raises(KeyboardInterrupt):
        model.refresh()
    assert gc.isenabled()
    monkeypatch.undo()
    gc.disable()
    try:
        assert model.refresh().added
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_appending_one_event_rereads_one_game(tmp_path, monkeypatch):
    store = Store(tmp_path)
    g = sim.play(get_ruleset("hanabi"), ["a", "b"], "heuristic", random.Random(1))
    gid = store.create(g.setup, g.events[1:10])
    other = store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    status = dict(model.query("SELECT game_id, status FROM games")[1])
    assert status == {gid: "in_progress", other: "finished"}
    store.append(gid, [g.events[10]], expected_seq=10)
    assert model.stale()
    calls = _count_extracts(monkeypatch)
    summary = model.refresh()
    assert [p.stem for p in calls] == [gid] and summary.updated == [gid]
    assert model.query(f"SELECT events FROM games WHERE game_id = '{gid}'")[1] == [(11,)]
    assert model.query(f"SELECT max(seq) FROM events WHERE game_id = '{gid}'")[1] == [(10,)]


def test_a_deleted_log_disappears(filled):
    store, games, model = filled
    model.refresh()
    gone = next(iter(games))
    store.path(gone).unlink()
    summary = model.refresh()
    assert summary.removed == [gone]
    for table in PUBLIC:
        assert model.query(f"SELECT count(*) FROM {table} WHERE game_id = '{gone}'")[1] == [(0,)]


def test_deleting_the_database_and_rebuilding_gives_the_same_tables(filled):
    _store, _games, model = filled
    model.refresh()
    before = _dump(model)
    model.path.unlink()
    model.refresh(jobs=1)
    assert _dump(model) == before


def test_parallel_and_serial_refresh_agree(tmp_path):
    store = Store(tmp_path)
    _fill(store, per_ruleset=30)
    serial = ReadModel(store.root, tmp_path / "serial.duckdb")
    parallel = ReadModel(store.root, tmp_path / "parallel.duckdb")
    serial.refresh(jobs=1)
    parallel.refresh(jobs=2)
    assert _dump(serial) == _dump(parallel)


def test_every_column_matches_the_engine(filled):
    store, games, model = filled
    model.refresh()
    cols, rows = model.query("SELECT * FROM games")
    by_id = {r[0]: dict(zip(cols, r, strict=True)) for r in rows}
    players: list[dict] = []
    events: list[dict] = []
    for rules in all_rulesets():  # each game's view: the shared columns and its own
        s = schema_of(rules.name)
        pcols, prows = model.query(f"SELECT * FROM {s}.game_players ORDER BY game_id, seat")
        ecols, erows = model.query(f"SELECT * FROM {s}.events ORDER BY game_id, seq")
        players += [dict(zip(pcols, r, strict=True)) for r in prows]
        events += [dict(zip(ecols, r, strict=True)) for r in erows]
    for gid, game in games.items():
        rules, res, row = game.ruleset, game.result(), by_id[gid]
        assert row["ruleset"] == rules.name and row["ruleset_version"] == rules.version
        assert row["players"] == list(game.players) and row["player_count"] == len(game.players)
        assert row["status"] == "finished" and row["outcome"] == res.outcome
        assert row["scores"] == list(res.scores) and row["score"] == max(res.scores)
        assert row["winners"] == [game.players[s] for s in res.winners]
        assert row["events"] == len(game.events) and row["error"] is None
        assert row["log_path"] == str(store.path(gid))
        assert row["started"] <= row["recorded"]
        mine = [e for e in events if e["game_id"] == gid]
        assert [e["seq"] for e in mine] == list(range(1, len(game.events)))
        state = rules.start(game.setup)
        for seq, (e, event) in enumerate(zip(mine, game.events[1:], strict=True), 1):
            after = rules.apply(state, event)
            assert e["type"] == event.__struct_config__.tag
            assert e["actor"] == actor(event) and e["turn"] == game.fold.turn_of(seq)
            assert e["notation"] == notation(rules, state, event)
            for key, value in rules.event_facts(state, event, after).items():
                assert e[key] == value, (key, e[key], value)
            state = after
        assert row["turns"] == mine[-1]["turn"]
        seats = [p for p in players if p["game_id"] == gid]
        facts = rules.player_facts(game.state, {k: [e[k] for e in mine] for k in mine[0]})
        for seat, p in enumerate(seats):
            assert p["seat"] == seat and p["name"] == game.players[seat]
            assert p["score"] == res.scores[seat] and p["won"] == (seat in res.winners)
            for key, value in facts[seat].items():
                assert p[key] == value


def test_facts_agree_with_independent_counts(filled):
    _store, games, model = filled
    model.refresh()
    # Hanabi: each player's plays + misplays = their play events; the last score = fireworks
    rows = model.query("""
        SELECT p.game_id, p.seat, p.plays + p.misplays,
               (SELECT count(*) FROM events e WHERE e.game_id = p.game_id AND e.actor = p.seat
                AND e.type = 'hanabi.play')
        FROM hanabi.game_players p""")[1]
    assert rows and all(a == b for _, _, a, b in rows)
    for gid, game in games.items():
        if game.ruleset.name == "hanabi":
            last = model.query(
                f"SELECT score FROM hanabi.events WHERE game_id = '{gid}' ORDER BY seq DESC LIMIT 1"
            )[1]
            assert last == [(game.state.fireworks_sum,)]
    # Ohanami: cards placed = picks with a row
    rows = model.query("""
        SELECT p.cards_placed, (SELECT count(*) FROM ohanami.events e
               WHERE e.game_id = p.game_id AND e.actor = p.seat AND e.type = 'ohanami.pick'
               AND e."row" IS NOT NULL)
        FROM ohanami.game_players p""")[1]
    assert rows and all(a == b for a, b in rows)


def test_invalid_and_in_progress_games_are_listed_with_their_status(tmp_path):
    store = Store(tmp_path)
    g = sim.play(get_ruleset("hanamikoji"), ["a", "b"], "greedy", random.Random(3))
    partial = store.create(g.setup, g.events[1:3])
    broken = store.create(g.setup, g.events[1:])
    path = store.path(broken)
    path.write_bytes(path.read_bytes().replace(b'"seq":4', b'"seq":5'))
    (tmp_path / "garbage.jsonl").write_text("not json\n")
    model = ReadModel(store.root)
    summary = model.refresh()
    assert summary.invalid == 2
    rows = {
        r[0]: r[1:]
        for r in model.query("SELECT game_id, status, events, error, outcome FROM games")[1]
    }
    assert rows[partial][0] == "in_progress" and rows[partial][3] is None
    status, count, error, _ = rows[broken]
    assert status == "invalid" and count == 4 and "seq 5 where 4 was expected" in error
    assert rows["garbage"][0] == "invalid" and "JSON" in rows["garbage"][2]
    assert model.query(f"SELECT count(*) FROM events WHERE game_id = '{broken}'")[1] == [(3,)]


def test_a_bad_query_raises_duckdbs_message(filled):
    _, _, model = filled
    model.refresh()
    with pytest.raises(QueryError, match="nope"):
        model.query("SELECT nope FROM games")
    with pytest.raises(QueryError, match="DELETE statements are not run: a query only reads"):
        model.query("DELETE FROM games")


# --- CLI ----------------------------------------------------------------------------------


@pytest.fixture
def cli_store(run):
    for name in names():  # every installed game, at its default player count
        assert run("simulate", name, "-n", "6", "--seed", "1").exit_code == 0
    return run


def test_cli_index_reports_what_changed(cli_store):
    run = cli_store
    total = 6 * len(names())
    first = json.loads(run("index", "--json").stdout)
    assert first["added"] == total and first["unchanged"] == 0
    again = json.loads(run("index", "--json").stdout)
    assert again["added"] == 0 and again["unchanged"] == total
    rebuilt = json.loads(run("index", "--rebuild", "--json").stdout)
    assert rebuilt["added"] == total
    assert f"{total} unchanged" in run("index").stdout


def test_cli_query_formats_and_errors(cli_store):
    run = cli_store
    sql = "SELECT ruleset, count(*) AS n FROM games GROUP BY ALL ORDER BY ruleset"
    rows = [json.loads(x) for x in run("query", sql, "--format", "json").stdout.splitlines()]
    assert rows == [{"ruleset": r, "n": 6} for r in sorted(names())]
    assert run("query", sql, "-f", "csv").stdout.splitlines()[:2] == ["ruleset,n", "hanabi,6"]
    assert "| hanabi | 6 |" in run("query", sql, "-f", "markdown").stdout
    assert "hanamikoji" in run("query", sql).stdout
    bad = run("query", "SELECT nope FROM games")
    assert bad.exit_code == 1 and "Binder Error" in bad.stderr and "nope" in bad.stderr
    assert run("query", sql, "-f", "xml").exit_code == 2


def test_cli_query_refreshes_when_a_log_changed(cli_store):
    run = cli_store
    run("index")
    assert run("new", "hanabi", "--players", "x,y").exit_code == 0
    out = run(
        "query", "SELECT count(*) AS n FROM games WHERE status = 'in_progress'", "-f", "json"
    ).stdout
    assert json.loads(out) == {"n": 1}


def test_cli_stats_answers_for_every_ruleset(cli_store):
    run = cli_store
    reports = json.loads(run("stats", "--json").stdout)
    assert [r["ruleset"] for r in reports] == sorted(names())
    for rep in reports:
        assert sum(r["games"] for r in rep["outcomes"]) == 6
        assert rep["scores"] and rep["lengths"] and rep["players"]
    titles = {r["ruleset"]: r.get("mistakes", {}).get("title") for r in reports}
    assert titles == {
        r.name: text_of(r.reports[0][0]) if r.reports else None for r in all_rulesets()
    }
    assert titles["hanabi"] == "misplays by rank"
    assert titles["hanamikoji"] == "captures lost to ties"
    assert titles["ohanami"] == "discards by season"
    text = run("stats", "hanabi").stdout
    assert "score by player count" in text and "█" in text and "misplays" in text
    assert run("stats", "chess").exit_code == 2


def test_cli_export_parquet_reads_back_in_duckdb(cli_store, tmp_path):
    run = cli_store
    target = tmp_path / "parquet"
    result = run("export", "--parquet", str(target))
    assert result.exit_code == 0, result.output
    model = ReadModel(run.root)
    months = model.query("SELECT DISTINCT strftime(started, '%Y-%m') FROM games")[1]
    month = months[0][0]  # the games were all made now
    for table in PUBLIC:
        assert sorted(p.name for p in (target / table).iterdir()) == [
            f"ruleset={name}" for name in sorted(names())
        ]
        for ruleset in (target / table).iterdir():  # then by the month each game started
            assert [p.name for p in ruleset.iterdir()] == [f"month={m}" for (m,) in months]
    con = duckdb.connect()
    n = con.execute(
        f"SELECT count(*), count(DISTINCT ruleset), any_value(month) FROM read_parquet("
        f"'{target}/games/*/*/*.parquet', hive_partitioning = true)"
    ).fetchone()
    assert n == (6 * len(names()), len(names()), month)
    events = model.query("SELECT count(*) FROM events")[1][0][0]
    assert con.execute(f"SELECT count(*) FROM '{target}/events/*/*/*.parquet'").fetchone() == (
        events,
    )
    assert run("export").exit_code == 2


def _hold_lock(path: str, ready, release) -> None:
    con = duckdb.connect(path)
    ready.set()
    release.wait(20)
    con.close()


def test_a_model_locked_by_another_process_gives_a_clear_error(filled, monkeypatch, run):
    import multiprocessing as mp

    from gametape.analytics import ModelBusy

    _, _, model = filled
    model.refresh()
    ctx = mp.get_context("fork")
    ready, release = ctx.Event(), ctx.Event()
    holder = ctx.Process(target=_hold_lock, args=(str(model.path), ready, release))
    holder.start()
    try:
        assert ready.wait(10)
        monkeypatch.setattr(model_module, "LOCK_WAIT", 0.3)
        with pytest.raises(ModelBusy, match="in use by another process"):
            model.query("SELECT 1")
        result = run("--store", str(model.root), "query", "SELECT 1", store=False)
        assert result.exit_code == 1 and "in use by another process" in result.stderr
    finally:
        release.set()
        holder.join(10)
    assert model.query("SELECT 1")[1] == [(1,)]  # free again


def test_the_documented_first_round_capture_query_credits_who_captured(tmp_path):
    """docs/analytics.md's Hanamikoji example: each capture is credited to its captor."""
    import re

    store = Store(tmp_path)
    rules = get_ruleset("hanamikoji")
    games = [sim.play(rules, ["ann", "ben"], "greedy", random.Random(s)) for s in range(30)]
    for g in games:
        store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    doc = (Path(__file__).parents[1] / "docs" / "analytics.md").read_text()
    sql = re.search(r"-- Which first-round captures win Hanamikoji.*?\n(.*?);", doc, re.S)
    assert sql is not None
    rows = model.query(sql.group(1))[1]
    expected = {}
    for g in games:
        record = g.state.rounds[0]
        winners = set(g.result().winners)
        for seat, artist in enumerate(record.captured):
            if artist is not None:
                name = ARTISTS[artist]
                wins, times = expected.get(name, (0, 0))
                expected[name] = (wins + (seat in winners), times + 1)
    assert {artist: (wins, times) for artist, wins, times in rows} == expected
