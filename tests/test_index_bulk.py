"""The read model's one pass (``Ruleset.index_many``: Hanabi's Tally beside its fast path)
against its oracle, the per-event hooks (``notation``, ``event_facts``, ``learned_facts``)
the walk asks move by move: every row of every table the same, on every event of generated
games of every variant mechanism, real games, and logs the one pass leaves to the walk
(at a table, abandoned, taken back, damaged). Runs on the compiled and the pure build."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gametape.analytics import extract as extraction
from gametape.analytics.extract import Rows, _extract
from gametape.engine.game import Game
from gametape.engine.ruleset import Indexed
from gametape.events import Store
from gametape.events.base import Abandon, Event, Retract
from gametape.games.hanabi import RULESET
from gametape.games.hanabi import hanablive as hl
from tests.test_hanabi_quick import REAL, _played, generated
from tests.test_hanabi_variant_games import MECHANISMS


def _tables(rows: Rows) -> dict[str, object]:
    return {
        "game": rows.game,
        "players": rows.players,
        "events": rows.events,
        "event_facts": rows.event_facts,
        "player_facts": rows.player_facts,
    }


def _log(tmp: Path, events: list[Event]) -> Path:
    store = Store(tmp)
    return store.path(store.create(events[0], events[1:]))  # type: ignore[arg-type]


def _same(path: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Index ``path`` both ways; return whether the one pass took it (else the walk did)."""
    passes: list[int] = []
    indexed = extraction._indexed

    def counted(*args: object) -> object:
        passes.append(1)
        return indexed(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(extraction, "_indexed", counted)
    one_pass = _tables(_extract(path, None, bulk=True))
    walked = _tables(_extract(path, None, bulk=False))
    assert passes in ([], [1])
    for table, rows in walked.items():
        assert one_pass[table] == rows, table
    return bool(passes)


@pytest.mark.parametrize("variant", ["No Variant", *MECHANISMS.values()])
def test_games_of_every_mechanism_index_the_same_in_one_pass(variant, tmp_path, monkeypatch):
    took = [
        _same(_log(tmp_path / str(n), game.events), monkeypatch)
        for n, game in enumerate(generated(variant))
    ]
    if variant in ("No Variant", MECHANISMS["every colour"], MECHANISMS["reversed"]):
        assert all(took)  # the one pass was tried, and took the whole game


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_games_index_the_same_in_one_pass(path, tmp_path, monkeypatch):
    source = hl.parse(path.read_bytes())
    events = hl.to_game(source, play_on=True, reference=True).events
    _same(_log(tmp_path, events), monkeypatch)


def test_logs_the_one_pass_leaves_to_the_walk_index_the_same(tmp_path, monkeypatch):
    game = _played(7, 3, "No Variant", "heuristic")
    logs = {
        "at a table": RULESET.hypothesis(game.events, 1),
        "abandoned": [*game.events[:12], Abandon(player=1, reason="stopped")],
        "taken back": [*game.events[:12], Retract(player=0, seq=11), game.events[11]],
    }
    for name, events in logs.items():
        assert not _same(_log(tmp_path / name.replace(" ", "-"), events), monkeypatch), name


def test_a_log_broken_part_way_indexes_its_valid_moves_the_same(tmp_path, monkeypatch):
    """A move the rules refuse ends the one pass's run there, as it ends the walk."""
    game = _played(3, 4, "No Variant", "heuristic")
    rng = random.Random(5)
    for n in range(6):
        events = list(game.events)
        at = rng.randrange(2, len(events))
        events[at] = events[at - 1]  # a move repeated: out of turn, or a card gone
        path = _log(tmp_path / str(n), events)
        assert _same(path, monkeypatch)
        assert _extract(path, None).game["status"] == "invalid"


def test_a_game_whose_one_pass_miscounts_is_that_games_problem(tmp_path, monkeypatch):
    """A plug-in's one pass must give a value of each column for each move it took."""
    game: Game = _played(1, 2, "No Variant", "heuristic")
    path = _log(tmp_path, game.events)
    index_many = type(RULESET).index_many

    def short(self, state, events):  # type: ignore[no-untyped-def]
        after, taken, done = index_many(self, state, events)
        return after, taken, Indexed(done.notation, {"score": done.facts["score"][1:]})

    monkeypatch.setattr(type(RULESET), "index_many", short)
    row = extraction.extract(path).game
    assert row["status"] == "invalid"
    assert "gave" in row["error"] and "values of score" in row["error"]
