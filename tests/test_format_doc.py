"""docs/format.md says what the tool writes (#53): a reader written from it alone must read
every log that `new`, `new --table`, `simulate` and a table's recording write, for every game.

Every event type the tool writes has a row in the format's tables, every field it writes is
named in that row (or, for the fields every setup has, in the section that lists them), and
every option a Hanabi setup writes is in the list of options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gametape.engine.registry import get_ruleset
from gametape.events import Store
from tests.test_html_replay import _table_game

FORMAT = (Path(__file__).resolve().parents[1] / "docs" / "format.md").read_text()
GAMES = ["hanabi", "hanamikoji", "hanamikoji-classic", "ohanami", "ohanami-classic"]
EVERY_SETUP = {"type", "game", "players", "table", "meta"}  # "Every setup event also has"
EVERY_EVENT = {"type", "move_id"}  # "Any event may carry `move_id`"


def _rows() -> dict[str, str]:
    """Each event type's row in the format's tables: its fields column."""
    rows = {}
    for line in FORMAT.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 3 and re.fullmatch(r"`[a-z.-]+`", cells[0]):
            rows[cells[0].strip("`")] = cells[1]
    return rows


def _written(name: str, tmp_path: Path) -> list[dict]:
    """Every event the tool writes for ``name``: a new game dealt and at a table, a bot's
    whole game, and a whole game recorded as at a table."""
    store = Store(tmp_path / "store")
    from gametape.usecases.record import new_game
    from gametape.usecases.simulate import simulate

    rules = get_ruleset(name)
    players = ["ann", "ben"] if rules.max_players == 2 else ["ann", "ben", "cat"]
    paths = [store.path(new_game(store, name, players)[0])]
    paths.append(store.path(new_game(store, name, players, table=True)[0]))
    paths += [store.path(gid) for gid in simulate(store, name, 1, seed=5).ids]
    paths.append(_table_game(name, store))
    return [json.loads(line)["event"] for p in paths for line in Path(p).read_text().splitlines()]


@pytest.mark.parametrize("name", GAMES)
def test_every_event_and_field_the_tool_writes_is_in_the_format(name, tmp_path):
    rows = _rows()
    missing: set[str] = set()
    for event in _written(name, tmp_path):
        kind = event["type"]
        if kind not in rows:
            missing.add(f"event {kind}")
            continue
        known = EVERY_EVENT | (EVERY_SETUP if kind.endswith(".setup") else set())
        for field in event:
            if field not in known and f"`{field}`" not in rows[kind]:
                missing.add(f"{kind}.{field}")
        for option in event.get("options", {}):
            if f"`{option}`" not in FORMAT:
                missing.add(f"{kind} option {option}")
    assert not missing, sorted(missing)


def test_a_hanabi_game_with_no_option_chosen_writes_none(tmp_path):
    """#53: `new hanabi` wrote "variant": "No Variant", a default the format says is left
    out, and a reader written from the format refused every new Hanabi game."""
    for event in _written("hanabi", tmp_path):
        if event["type"] == "hanabi.setup":
            assert event["options"] == {}, event["options"]
