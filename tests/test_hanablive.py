"""hanab.live import and export, checked against real games and their recorded results."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from gametape.engine.validate import validate
from gametape.events import Store, read_log
from gametape.events.base import Abandon
from gametape.games.hanabi import hanablive as hl
from gametape.games.hanabi.variants import catalogue
from gametape.usecases.importing import import_files as _import_files
from tests.conftest import HANABLIVE_EXAMPLES, shared

FIXTURES = HANABLIVE_EXAMPLES


def _manifest(root: Path) -> list[dict]:
    return json.loads((root / "manifest.json").read_text())


def expected_outcome(entry: dict) -> str | None:
    """The ending the manifest records, in gametape's terms (None: the file has no end)."""
    exp = entry["expected"]
    if exp["hle_replay"] == "COMPLETED_FIREWORKS":
        return "perfect"
    if exp["hle_replay"] == "OUT_OF_CARDS" or exp.get("ending", "").startswith(
        "ended when score reached max achievable"
    ):
        return "normal"
    if exp.get("ending", "").startswith("ended 1-2 turns before the deck-out end"):
        # the manifest's guess ("probably terminated"): hanab.live's own end, once no card
        # that could still be played is left in a hand with a turn to come (#54)
        return "normal"
    return None


# Files a tool that plays on wrote one move past hanab.live's end (no playable card left in
# a hand with a turn to come): imported as hanab.live ended them, that move left out and
# counted; `play_on` keeps it (#54).
PLAYED_ON = {"ah2ac2-3p/ah2ac2_3p_val_106660.json", "ah2ac2-3p/ah2ac2_3p_val_107461.json"}


def _check_corpus(root: Path, store: Store) -> None:
    entries = _manifest(root)
    results = {Path(r.file).relative_to(root).as_posix(): r for r in import_files(store, [root])}
    for entry in entries:
        r = results[entry["file"]]
        if entry["variant"] != "No Variant":
            _check_variant_game(root, entry, r, store)
            continue
        assert r.status == "imported", (entry["file"], r.reason)
        left = 1 if entry["file"] in PLAYED_ON else None
        assert r.facts.get("moves_past_the_end_left_out") == left, entry["file"]
        assert r.facts["fireworks_sum"] == entry["expected"]["fireworks_sum"], entry["file"]
        assert r.outcome == expected_outcome(entry), entry["file"]
        report, _ = validate(read_log(store.path(r.game)))
        assert report.status == ("finished" if r.outcome else "in_progress")
    assert results["manifest.json"].status == "ignored"


def _check_variant_game(root: Path, entry: dict, r, store: Store) -> None:
    """A variant game replays to its recorded end: every action is a move of the log, and a
    game-over action ends it as it did (gametape plays every variant hanab.live lists)."""
    assert entry["variant"] in catalogue()
    assert r.status == "imported", (entry["file"], r.reason)
    log = read_log(store.path(r.game))
    report, _ = validate(log)
    assert report.status in ("finished", "in_progress"), entry["file"]
    assert log.events[0].options.variant == entry["variant"]
    actions = json.loads((root / entry["file"]).read_text())["actions"]
    moves = [a for a in actions if a["type"] in (0, 1, 2, 3)]
    assert len(log.events) - 1 == len(moves) + (entry["game_over_action"] is not None)
    if entry["game_over_action"] is not None:
        assert r.outcome == "terminated", entry["file"]


def test_fixture_games_import_and_reach_their_recorded_results(tmp_path):
    _check_corpus(FIXTURES, Store(tmp_path))


def test_every_shared_game_imports(tmp_path):
    _check_corpus(shared("data", "hanablive"), Store(tmp_path))


def test_the_import_keeps_the_source_and_calls_the_fifth_suit_white(tmp_path):
    store = Store(tmp_path)
    (r,) = import_files(store, [FIXTURES / "example_game.json"])
    setup = read_log(store.path(r.game)).events[0]
    assert setup.meta["source"] == "hanab.live" and setup.meta["hanablive_id"] == 2906
    assert setup.meta["file"] == "example_game.json"
    assert setup.options.suits[-1] == "white" and setup.options.end_at_max_score
    assert setup.players == ("Alice", "Bob", "Cathy")


def test_reimporting_is_skipped_by_id_or_by_deck_and_actions(tmp_path):
    store = Store(tmp_path)
    first = import_files(store, [FIXTURES])
    again = import_files(store, [FIXTURES])
    imported = sum(r.status == "imported" for r in first)
    assert sum(r.status == "duplicate" for r in again) == imported
    assert len(store.game_ids()) == imported
    # the same game without its id is still recognised
    data = json.loads((FIXTURES / "example_game.json").read_text())
    data.pop("id")
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(data))
    (r,) = import_files(store, [copy])
    assert r.status == "duplicate" and "same players, deck and actions" in r.reason


def test_an_illegal_action_is_reported_with_its_index_and_rule_and_not_written(tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["actions"][7] = {"type": 3, "target": 3, "value": 9}  # seat 2 clues seat 3 "9"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    store = Store(tmp_path / "store")
    (r,) = import_files(store, [bad])
    assert r.status == "refused" and r.kind == "illegal"
    assert r.reason.startswith("action 7 (rank clue") and "no rank 9" in r.reason
    assert "rule:" in r.reason and store.game_ids() == []


def test_a_malformed_file_names_the_bad_field(tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["deck"][3]["rank"] = "five"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    (r,) = import_files(Store(tmp_path / "s"), [bad])
    assert r.kind == "format" and "$.deck[3].rank" in r.reason
    (tmp_path / "nojson.json").write_text("{")
    (r,) = import_files(Store(tmp_path / "s"), [tmp_path / "nojson.json"])
    assert r.status == "refused" and r.kind == "format"


def test_a_terminated_game_over_action_becomes_abandonment(tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["actions"] = data["actions"][:10] + [{"type": 4, "target": 1, "value": 4}]
    path = tmp_path / "stopped.json"
    path.write_text(json.dumps(data))
    store = Store(tmp_path / "s")
    (r,) = import_files(store, [path])
    assert r.outcome == "terminated" and r.score == 0
    last = read_log(store.path(r.game)).events[-1]
    assert last == Abandon(player=1, reason="terminated by a player")


def test_a_recorded_end_that_the_rules_do_not_reach_is_an_error(tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["actions"] = data["actions"][:10] + [{"type": 4, "target": 0, "value": 1}]
    path = tmp_path / "early.json"
    path.write_text(json.dumps(data))
    (r,) = import_files(Store(tmp_path / "s"), [path])
    assert r.kind == "illegal" and "action 10" in r.reason and "goes on" in r.reason


def test_options_gametape_does_not_play_are_refused(tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["options"] = {"allOrNothing": True}
    path = tmp_path / "all.json"
    path.write_text(json.dumps(data))
    (r,) = import_files(Store(tmp_path / "s"), [path])
    assert r.kind == "variant" and "allOrNothing" in r.reason


def test_empty_clues_import_as_an_option_and_export_back(tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["options"] = {"emptyClues": True}
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(data))
    store = Store(tmp_path / "s")
    (r,) = import_files(store, [path])
    assert r.status == "imported"
    events = read_log(store.path(r.game)).events
    assert events[0].options.empty_clues
    assert hl.from_events(events)["options"] == {"emptyClues": True}


@pytest.mark.parametrize(
    "name",
    ["example_game.json", "no_variant.json", "game-194321.json", "ah2ac2_3p_val_101785.json"],
)
def test_export_round_trips_players_deck_and_actions(tmp_path, name):
    store = Store(tmp_path)
    (r,) = import_files(store, [FIXTURES / name])
    exported = hl.from_events(read_log(store.path(r.game)).events)
    again = hl.parse(msgspec.json.encode(exported))
    source = hl.read(FIXTURES / name)
    assert hl.same_game(source, again)
    assert again.id == source.id


def test_native_games_export_and_import_back(tmp_path):
    import random

    from gametape.engine import simulate as sim
    from gametape.games.hanabi import HANABI

    for seed in range(20):
        game = sim.play(
            HANABI,
            ["a", "b", "c"],
            "heuristic",
            random.Random(seed),
            {"end_at_max_score": "true", "end_when_nothing_playable": "true"},
        )
        assert hl.hanablive_end(game.events) is None
        data = hl.from_events(game.events)
        back = hl.to_game(hl.parse(msgspec.json.encode(data)))
        assert back.result() == game.result()
        assert back.events[1:] == game.events[1:]


def test_export_warns_where_hanablive_would_have_ended_the_game_earlier():
    import random

    from gametape.engine import simulate as sim
    from gametape.games.hanabi import HANABI

    ends = []
    for seed in range(40):
        game = sim.play(HANABI, ["a", "b", "c"], "heuristic", random.Random(seed))
        end = hl.hanablive_end(game.events)
        if end is not None:
            ends.append(end)
            source = hl.parse(msgspec.json.encode(hl.from_events(game.events)))
            # imported as hanab.live ends it: the moves from seq `end` on are left out, counted
            ended = hl.to_game(source)
            assert ended.events[1:] == game.events[1 : end + 1] and ended.is_over
            left = hl.HANABLIVE.facts(ended)["moves_past_the_end_left_out"]
            assert left == len(game.events) - 1 - end
            played_on = hl.to_game(source, play_on=True)
            assert played_on.events[1:] == game.events[1:] and played_on.is_over
    assert ends  # native games without end_at_max_score do go on past that point


def test_import_option_play_on_from_the_cli(run, tmp_path):
    import random

    from gametape.engine import simulate as sim
    from gametape.games.hanabi import HANABI

    for seed in range(40):
        game = sim.play(HANABI, ["a", "b", "c"], "heuristic", random.Random(seed))
        if hl.hanablive_end(game.events) is not None:
            break
    path = tmp_path / "hle.json"
    path.write_bytes(msgspec.json.encode(hl.from_events(game.events)))
    ended = run("import", "hanablive", str(path))
    assert ended.exit_code == 0 and "moves past the end left out" in ended.stdout
    other = str(tmp_path / "other")  # the same file again would be a duplicate
    imported = run("--store", other, "import", "hanablive", str(path), "-o", "play_on=true",
                   "--json", store=False)  # fmt: skip
    assert imported.exit_code == 0 and '"status":"imported"' in imported.stdout
    assert "moves_past_the_end_left_out" not in imported.stdout
    bad = run("import", "hanablive", str(path), "-o", "playon=1")
    assert bad.exit_code == 2 and "unknown import option 'playon'" in bad.stderr


def test_cli_import_summary_and_export(run, tmp_path):
    result = run("import", "hanablive", str(FIXTURES))
    assert result.exit_code == 0, result.output
    assert "9 imported, 0 skipped as duplicates, 0 refused" in result.stdout
    assert "up_or_down.json → b2r4mn62: normal, score 24" in result.stdout
    again = run("import", "hanablive", str(FIXTURES / "no_variant.json"), "--json")
    assert json.loads(again.stdout)["status"] == "duplicate"
    listed = [json.loads(x) for x in run("list", "--json").stdout.splitlines()]
    example = next(g for g in listed if g["result"] and g["result"]["outcome"] == "perfect")
    out = tmp_path / "out.json"
    result = run("export", example["game"], "--format", "hanablive", "-o", str(out))
    assert result.exit_code == 0 and hl.read(out).players
    assert run("export", example["game"]).exit_code == 2


def test_cli_import_exits_1_on_an_illegal_file(run, tmp_path):
    data = json.loads((FIXTURES / "no_variant.json").read_text())
    data["actions"][0] = {"type": 0, "target": 49}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = run("import", "hanablive", str(bad))
    assert result.exit_code == 1 and "action 0 (play 49/0)" in result.stdout


def import_files(store, paths, progress=None):
    """Import hanab.live files (the format the Hanabi game offers)."""
    return _import_files(store, hl.HANABLIVE, paths, progress)


def test_the_fifth_suit_has_one_name_in_the_read_model(tmp_path):
    """An import says white, and an older import's purple reads as white in the read model:
    per-suit stats do not split."""
    from gametape.analytics import ReadModel
    from gametape.games.hanabi.events import HANABLIVE_SUITS

    store = Store(tmp_path)
    (r,) = import_files(store, [FIXTURES / "example_game.json"])  # a perfect game: all suits
    events = read_log(store.path(r.game)).events
    setup = events[0]
    old = msgspec.structs.replace(
        setup, options=msgspec.structs.replace(setup.options, suits=HANABLIVE_SUITS), meta={}
    )
    store.create(old, events[1:])  # as an import made before imports said white
    model = ReadModel(store.root)
    model.refresh()
    rows = model.query(
        "SELECT DISTINCT card_suit, left(card, 1) FROM hanabi.events WHERE card IS NOT NULL"
    )[1]
    assert {suit for suit, _ in rows} == {"red", "yellow", "green", "blue", "white"}
    assert {letter for _, letter in rows} == set("rygbw")


@pytest.mark.parametrize(
    ("file", "score"),
    [("cpp-bot/1876746.json", 14), ("ah2ac2-3p/ah2ac2_3p_val_101466.json", 24)],
)
def test_hanablive_ends_a_game_once_nothing_playable_is_left_in_a_hand_to_come(file, score):
    """#54, hanab.live's own games: after the deck is out, hanab.live ends a game as soon as
    no card that could still go on a firework is in the hand of a player with a turn to come
    ("No remaining cards can be played"). Its files end there: imported, every action is a
    move and the game is over, normal; played on (a tool that does, `play_on`), the same
    actions leave it in progress, final turns still to come."""
    source = hl.read(shared("data", "hanablive", *file.split("/")))
    moves = [a for a in source.actions if a.type in (0, 1, 2, 3)]
    game = hl.to_game(source)
    assert game.is_over and game.result().outcome == "normal"
    assert game.state.fireworks_sum == score and game.state.deck_left == 0
    assert len(game.events) - 1 == len(moves)  # every action, and none past the end
    assert game.state.final_turns > 0  # before the last of the final turns
    played_on = hl.to_game(source, play_on=True)
    assert not played_on.is_over and played_on.events[1:] == game.events[1:]


def test_the_end_rule_is_off_unless_chosen_and_on_for_hanablive_s_games():
    from gametape.games.hanabi.events import HanabiOptions

    assert HanabiOptions().end_when_nothing_playable is False
    source = hl.read(FIXTURES / "ah2ac2_3p_val_113088.json")
    assert hl.to_game(source).setup.options.end_when_nothing_playable
    assert not hl.to_game(source, play_on=True).setup.options.end_when_nothing_playable
