"""Reviewing a game (#27): branches ("what if") and notes on moves and cards."""

from __future__ import annotations

import json
import os
import random
import threading

import pytest
from typer.testing import CliRunner

from gametape.analytics import ReadModel
from gametape.cli.app import app
from gametape.engine import simulate as sim
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset, names
from gametape.events import Store, read_log
from gametape.events.log import encode_lines
from gametape.usecases.branches import branch
from gametape.usecases.check import validate_path
from gametape.usecases.record import Recording, new_game

runner = CliRunner()


def _stored(store: Store, ruleset: str, seed: int = 1) -> tuple[str, Game]:
    rules = get_ruleset(ruleset)
    players = sim.default_players(max(rules.min_players, min(3, rules.max_players)))
    g = sim.play(rules, players, rules.default_bot, random.Random(seed))
    return store.create(g.setup, g.events[1:]), g


def _finish(game: Game, rng: random.Random) -> None:
    """Play on with random legal moves to the end (each seat to act, then any deal owed)."""
    while not game.is_over:
        for seat in game.to_act():
            game.push(rng.choice(game.legal_moves(seat)))
        game.deal(rng)


def _cli(store: Store, *args: str):
    result = runner.invoke(app, ["--store", str(store.root), *args], env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# --- branches ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", names())
def test_a_branch_starts_where_its_parent_was_and_plays_on_to_its_end(tmp_path, ruleset):
    store = Store(tmp_path / "store")
    gid, parent = _stored(store, ruleset)
    last = len(parent.events) - 1
    for at in sorted({0, last // 2, max(0, last - 1)}):
        bid, game = branch(store, gid, at)
        parent_then = Game.from_events(parent.events[: at + 1])
        # the fork: exactly the parent's position, for everyone and from every seat
        for seat in (None, *range(len(game.players))):
            assert game.view(seat) == parent_then.view(seat)
        assert game.to_act() == parent_then.to_act()
        assert game.setup.meta["branch_of"] == gid and game.setup.meta["branch_at"] == at
        _finish(game, random.Random(at))
        store.append(bid, game.events[at + 1 :], expected_seq=at + 1)
        report = validate_path(store.path(bid))
        assert report.status == "finished", report.problem
    model = ReadModel(store.root)
    model.refresh()
    _, rows = model.query(
        "SELECT fork_seq FROM games WHERE parent_game IS NOT NULL ORDER BY fork_seq"
    )
    assert [r for (r,) in rows] == sorted({0, last // 2, max(0, last - 1)})


def test_cards_still_in_the_deck_come_in_the_parents_order(tmp_path):
    """hanab.live's rule for hypotheticals: whatever the branch does, the next card drawn
    is the one the real game drew next, face and all."""
    store = Store(tmp_path / "store")
    gid, parent = _stored(store, "hanabi", seed=3)
    states = parent.fold.states
    # a clue in the real game (no card drawn), while a discard was allowed
    at = next(
        s
        for s in range(1, len(parent.events))
        if states[s].next_card == states[s - 1].next_card and states[s - 1].clues < 8
    )
    _, game = branch(store, gid, at - 1)
    seat = game.to_act()[0]
    game.push(next(m for m in game.legal_moves(seat) if type(m).__name__ == "HanabiDiscard"))
    drawn = states[at - 1].next_card  # the next card of the deck, where the branch forked
    assert drawn in game.state.hands[seat]
    later = next(s for s in range(at, len(parent.events)) if states[s].next_card > drawn)
    assert game.state.faces[drawn] == states[later].faces[drawn]  # the same card


def test_a_branch_of_a_branch_validates_against_its_own_parent(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "ohanami")
    first, _ = branch(store, gid, 6)
    second, game = branch(store, first, 4)
    assert game.setup.meta["branch_of"] == first
    assert validate_path(store.path(second)).status != "invalid"
    shown = _cli(store, "log", first)
    assert f"a branch of {gid} from seq 6" in shown.stdout
    assert f"branch {second}" in shown.stdout


def test_validate_reports_a_branch_whose_parent_is_missing_or_changed(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    bid, _ = branch(store, gid, 5)
    path = store.path(gid)
    original = path.read_bytes()
    # the parent written again: the same events, new times, so new hashes at the fork
    data, _ = encode_lines(read_log(path).events, 0, "", ts="2030-01-01T00:00:00.000Z")
    path.write_bytes(data)
    report = validate_path(store.path(bid))
    assert report.status == "invalid" and report.problem.kind == "ParentChanged"
    path.unlink()
    report = validate_path(store.path(bid))
    assert report.problem.kind == "ParentMissing" and gid in report.problem.message
    path.write_bytes(original)
    assert validate_path(store.path(bid)).status != "invalid"
    result = _cli(store, "validate")
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["--at", "999"], 2, "no seq 999 to branch from"),
        (["--at", "-1"], 2, "no seq -1 to branch from"),
    ],
)
def test_a_branch_that_cannot_be_is_refused_and_writes_nothing(tmp_path, args, code, said):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    before = store.game_ids()
    result = _cli(store, "branch", gid, *args)
    assert result.exit_code == code and said in result.stderr
    assert store.game_ids() == before


def test_a_branch_of_a_game_that_does_not_validate_is_refused(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    path = store.path(gid)
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"ts":"2', b'"ts":"1')
    path.write_bytes(b"\n".join(lines))
    result = _cli(store, "branch", gid, "--at", "1")
    assert result.exit_code == 1 and "does not validate" in result.stderr
    assert store.game_ids() == [gid]


def test_stats_and_players_leave_branches_out_unless_asked(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanamikoji-classic")
    bid, game = branch(store, gid, 3)
    _finish(game, random.Random(0))
    store.append(bid, game.events[4:], expected_seq=4)
    plain = json.loads(_cli(store, "stats", "hanamikoji-classic", "--json").stdout)
    asked = json.loads(_cli(store, "stats", "hanamikoji-classic", "--branches", "--json").stdout)
    assert sum(r["games"] for r in plain["outcomes"]) == 1
    assert sum(r["games"] for r in asked["outcomes"]) == 2
    said = _cli(store, "stats")
    assert "1 branch (what if) left out" in said.stderr
    people = json.loads(_cli(store, "players", "--json").stdout)
    assert people["left_out"] == {"branch": 1}
    assert {r["games"] for r in people["players"]} == {1}
    counted = json.loads(_cli(store, "players", "--branches", "--json").stdout)
    assert {r["games"] for r in counted["players"]} == {2}
    _, rated = ReadModel(store.root).query("SELECT DISTINCT game_id FROM ratings")
    assert rated == [(gid,)]  # a "what if" game is never rated


# --- notes ------------------------------------------------------------------------------


def _noted(tmp_path) -> tuple[Store, str]:
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    assert (
        _cli(store, "note", gid, "3", "here we lost the 5", "--mark", "?", "--by", "ann").exit_code
        == 0
    )
    assert (
        _cli(
            store, "note", gid, "4", "[bold]ben[/] thought it a 2", "--card", "7", "--by", "ben"
        ).exit_code
        == 0
    )
    assert _cli(store, "note", gid, "9", "--mark", "!!", "--by", "cat").exit_code == 0
    return store, gid


def test_notes_round_trip_through_log_replay_html_and_the_read_model(tmp_path):
    store, gid = _noted(tmp_path)
    log = _cli(store, "log", gid)
    assert "✎ ann: here we lost the 5" in log.stdout and " ?" in log.stdout
    assert "[bold]ben[/] thought it a 2" in log.stdout  # text, never markup
    rows = [json.loads(line) for line in _cli(store, "log", gid, "--json").stdout.splitlines()]
    assert rows[2]["notes"] == [
        {"n": 1, "author": "ann", "text": "here we lost the 5", "mark": "?"}
    ]
    frame = _cli(store, "replay", gid, "--at", "4")
    assert "✎ ben (card 7): [bold]ben[/] thought it a 2" in frame.stdout
    seat = _cli(store, "replay", gid, "--at", "4", "--as", "alice")
    assert "✎" not in seat.stdout  # a seat's view holds no note (one may name a hidden card)
    page = tmp_path / "page.html"
    assert _cli(store, "export", gid, "-f", "html", "-o", str(page)).exit_code == 0
    html = page.read_text()
    assert "here we lost the 5" in html and "card 7" in html
    own = tmp_path / "alice.html"
    assert _cli(store, "export", gid, "-f", "html", "--as", "alice", "-o", str(own)).exit_code == 0
    assert "here we lost the 5" not in own.read_text()
    model = ReadModel(store.root)
    model.refresh()
    _, joined = model.query(
        "SELECT a.seq, a.author, a.mark, e.notation FROM annotations a "
        "JOIN events e USING (game_id, seq) ORDER BY a.n"
    )
    assert [(s, a, m) for s, a, m, _ in joined] == [
        (3, "ann", "?"),
        (4, "ben", None),
        (9, "cat", "!!"),
    ]
    assert _cli(store, "note", gid, "--retract", "1").exit_code == 0
    model.refresh()
    _, retracted = model.query("SELECT n, retracted_by FROM annotations ORDER BY n")
    assert retracted == [(1, 4), (2, None), (3, None)]
    assert "here we lost the 5" not in _cli(store, "log", gid).stdout
    listed = _cli(store, "notes", gid, "--json").stdout.splitlines()
    assert json.loads(listed[0])["retracted_by"] == 4


def test_a_games_first_note_after_an_index_is_in_the_next_one(tmp_path):
    """The index looks for a game's notes where its scan of the store found them; a game
    that had none then and has one now is stale, and the next refresh reads its note."""
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    other, _ = _stored(store, "hanabi")
    assert _cli(store, "note", other, "2", "an early note", "--by", "ann").exit_code == 0
    model = ReadModel(store.root)
    model.refresh()
    _, rows = model.query("SELECT game_id, text FROM annotations")
    assert rows == [(other, "an early note")]
    assert _cli(store, "note", gid, "3", "the first of its notes", "--by", "ben").exit_code == 0
    assert model.stale()
    assert model.refresh().changed == 1
    _, rows = model.query("SELECT game_id, text FROM annotations ORDER BY text")
    assert rows == [(other, "an early note"), (gid, "the first of its notes")]


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        (["999", "x"], 2, "no seq 999 to note"),
        (["0", "x"], 2, "no seq 0 to note"),
        (["--", "-3", "x"], 2, "no seq -3 to note"),
        (["3"], 2, "say something"),
        (["3", "x", "--mark", "?!?"], 2, "unknown mark"),
        (["3", "x", "--card", "999"], 2, "no card '999' on the board at seq 3"),
        (["3", "x", "--card", "alice 9"], 2, "name one by where it lies (alice 1-5, bob 1-5"),
        (["3", "a\x1b[31mb"], 2, "control characters"),
        (["3", "x" * 1_000_000], 2, "at most 2,000 are kept"),
        (["3", "x", "--by", "\x00"], 2, "control characters"),
        (["--retract", "77"], 2, "no note 77"),
    ],
)
def test_a_note_that_cannot_be_is_refused_and_writes_nothing(tmp_path, args, code, said):
    store, gid = _noted(tmp_path)
    notes = store.root / f"{gid}.notes"
    before = notes.read_bytes()
    result = _cli(store, "note", gid, *args)
    assert result.exit_code == code and said in result.stderr, result.output
    assert notes.read_bytes() == before


def test_a_note_on_a_move_taken_back_is_refused(tmp_path):
    store = Store(tmp_path / "store")
    made = json.loads(_cli(store, "new", "hanabi", "-p", "ann,bob", "--seed", "3", "--json").stdout)
    gid = made["game"]
    for move in ("p1", "clue ann 1", "undo"):
        assert _cli(store, "move", gid, move).exit_code == 0
    result = _cli(store, "note", gid, "2", "a good clue")
    assert result.exit_code == 2 and "was taken back at seq 3" in result.stderr
    assert not (store.root / f"{gid}.notes").exists()
    assert _cli(store, "note", gid, "3", "we took it back").exit_code == 0


def test_two_reviewers_writing_at_once_both_keep_their_notes(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    from gametape.usecases.review import add_note, read_notes

    def write(who: str) -> None:
        for i in range(20):
            add_note(store, gid, 1 + i, f"{who} {i}", by=who)

    threads = [threading.Thread(target=write, args=(w,)) for w in ("ann", "ben")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    found, problems = read_notes(store, store.path(gid))
    assert not problems and len(found) == 40


def test_a_damaged_notes_line_costs_that_note_only_and_a_fifo_costs_no_game(tmp_path):
    store, gid = _noted(tmp_path)
    notes = store.root / f"{gid}.notes"
    notes.write_bytes(notes.read_bytes() + b'{"torn": ')
    log = _cli(store, "log", gid)
    assert log.exit_code == 0 and "not a note" in log.stderr and "here we lost" in log.stdout
    notes.unlink()
    os.mkfifo(notes)
    shown = _cli(store, "log", gid)
    assert shown.exit_code == 0 and "shown without its notes" in shown.stderr
    refused = _cli(store, "note", gid, "3", "x")
    assert refused.exit_code == 2 and "Traceback" not in refused.output


def test_a_seats_branch_never_shows_a_card_that_seat_could_not_see(tmp_path):
    """The swap test (as for `replay --as`): two games that differ only in two cards of
    alice's hand she never saw; her branches of them print the same bytes everywhere."""
    from tests.test_html_replay import _swapped_hanabi

    full = sim.play(get_ruleset("hanabi"), ("alice", "bob", "cara"), "heuristic", random.Random(5))
    game = Game.from_events(full.events[: len(full.events) * 2 // 3])
    swapped = _swapped_hanabi(game, 0)
    assert swapped is not None
    outputs, parents = [], []
    for name, events in (("real", game.events), ("swapped", swapped)):
        store = Store(tmp_path / name)
        gid = store.create(events[0], events[1:])
        at = len(events) - 1
        made = json.loads(
            _cli(store, "branch", gid, "--at", str(at), "--as", "alice", "--json").stdout
        )
        bid = made["game"]
        parents.append(_cli(store, "show", gid).stdout.replace(gid, "PARENT"))
        page = tmp_path / f"{name}.html"
        printed = [
            _cli(store, "show", bid).stdout,
            _cli(store, "show", bid, "--json").stdout,
            _cli(store, "log", bid, "--json").stdout,
            _cli(store, "replay", bid, "--all").stdout,
            _cli(store, "replay", bid, "--json").stdout,
        ]
        assert _cli(store, "export", bid, "-f", "html", "-o", str(page)).exit_code == 0
        printed.append(page.read_text())
        outputs.append([p.replace(bid, "BRANCH").replace(gid, "PARENT") for p in printed])
        for other in (["show", bid, "--as", "bob"], ["export", bid, "-f", "hanablive"]):
            refused = _cli(store, *other)
            assert refused.exit_code == 2 and "hypothesis" in refused.stderr
    real, other = outputs
    for a, b in zip(real, other, strict=True):
        assert a == b
    assert parents[0] != parents[1]  # the swap is real: the parents, shown whole, differ


def test_the_replay_viewer_steps_into_a_branch_at_its_fork_and_back_out(tmp_path):
    """Textual's pilot drives the viewer as a person would: at the fork, `b` goes into the
    branch at its first move of its own; `u` comes back to the fork on the main line."""
    import asyncio

    from gametape.cli.viewer import ReplayApp
    from gametape.replay import Cursor
    from gametape.usecases.branches import branch_tree

    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    bid, game = branch(store, gid, 7)
    _finish(game, random.Random(1))
    store.append(bid, game.events[8:], expected_seq=8)

    def opener(g: str):
        return Cursor.open(store.path(g)), []

    app = ReplayApp(
        Cursor.open(store.path(gid)), follow=False, tree=branch_tree(store), opener=opener
    )

    async def drive() -> None:
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.press("b")
            assert "no branch leaves here (branches at seq 7)" in app.message
            await pilot.press("colon", "7", "enter", "b")
            assert app.cursor.events[0].game == bid and app.cursor.seq == 8
            await pilot.press("right")
            assert app.cursor.seq == 9
            await pilot.press("u")
            assert app.cursor.events[0].game == gid and app.cursor.seq == 7

    asyncio.run(drive())
    shown = _cli(store, "replay", gid, "--at", "7")
    assert f"what if: branch {bid} leaves here" in shown.stdout


@pytest.mark.parametrize("name", ["hanabi", "ohanami"])
def test_a_branch_of_a_table_game_keeps_its_unknown_cards_unknown(tmp_path, name):
    """A game dealt by hand: the branch starts from what the table knew, nothing more, and
    goes on as the table game it is (a move that shows a card says which card it was)."""
    from tests.test_html_replay import _table_game

    store = Store(tmp_path / "store")
    path = _table_game(name, store)
    parent = Game.from_events(read_log(path).events)
    at = len(parent.events) // 2
    bid, game = branch(store, path.stem, at)
    assert game.setup.table and _same_setup(game.setup, parent.setup)
    for seat in (None, *range(len(game.players))):
        assert game.view(seat) == Game.from_events(parent.events[: at + 1]).view(seat)
    assert validate_path(store.path(bid)).status != "invalid"


def _same_setup(a, b) -> bool:
    """Two setups the same but for the game id and the branch's own meta."""
    import msgspec

    plain = [msgspec.to_builtins(s) for s in (a, b)]
    for p in plain:
        p.pop("game", None)
        p["meta"] = {k: v for k, v in p.get("meta", {}).items() if not k.startswith("branch_")}
    return plain[0] == plain[1]


def test_a_branch_of_a_branch_whose_parent_changed_is_refused(tmp_path):
    store = Store(tmp_path / "store")
    gid, _ = _stored(store, "hanabi")
    bid, _ = branch(store, gid, 5)
    path = store.path(gid)
    data, _ = encode_lines(read_log(path).events, 0, "", ts="2030-01-01T00:00:00.000Z")
    path.write_bytes(data)  # the parent written again: its hashes differ
    before = store.game_ids()
    result = _cli(store, "branch", bid, "--at", "3")
    assert result.exit_code == 1 and "ParentChanged" not in result.stderr
    assert "its parent" in result.stderr and store.game_ids() == before


def test_a_seats_hypothesis_never_plays_on_with_what_the_seat_did_not_see(tmp_path):
    """#34: ann's secret assignment, made before ben's branch, is not in ben's hypothesis
    (she makes it again there), and the deck there is unknown: nothing of the real game's
    hidden cards is consulted on ben's behalf. The branch validates against its parent."""
    store = Store(tmp_path)
    gid, game = new_game(store, "hanamikoji", ["ann", "ben"], seed=4)
    ann = game.legal_moves(0)[0]
    rec = Recording(store, store.path(gid))
    rec.move(game.ruleset.notation(game.state, ann), "ann")
    made = json.loads(_cli(store, "branch", gid, "--at", "1", "--as", "ben", "--json").stdout)
    branch = store.read(made["game"]).events
    assert branch[0].table and all(d == (0,) * 14 for d in branch[0].decks)
    assert len(branch) == 1  # ann's assignment, which ben never saw, is not there
    assert "seed" not in branch[0].meta  # the seed would deal the deck again
    # ben assigns in his hypothesis: the round waits for ann's (unknown) choice
    hypo = Recording(store, store.path(made["game"]))
    ben = game.legal_moves(1)[0]
    said = hypo.move(game.ruleset.notation(game.state, ben), "ben")
    assert hypo.game.to_act() == (0,) and "round 1:" not in said.description
    checked = _cli(store, "validate", made["game"])
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_a_card_note_says_the_card_as_its_author_named_it(tmp_path):
    """#36: a note on "alice 3" said "(card 47)", the card's number in the deck."""
    store = Store(tmp_path / "s")
    gid, _ = _stored(store, "hanabi", seed=3)
    noted = _cli(store, "note", gid, "1", "a 2, I thought", "--card", "alice 3")
    assert noted.exit_code == 0, noted.output
    shown = _cli(store, "replay", gid, "--at", "1").stdout
    assert "(alice 3): a 2, I thought" in shown and "(card " not in shown
    assert "(alice 3): a 2, I thought" in _cli(store, "log", gid).stdout
    assert "alice 3" in _cli(store, "notes", gid).stdout


def test_a_card_note_on_a_board_that_tells_no_card_apart_says_so(tmp_path):
    """#40: the published Hanamikoji's hint read "name one by where it lies ()"."""
    store = Store(tmp_path / "s")
    gid, _ = _stored(store, "hanamikoji-classic", seed=2)
    log = store.path(gid)
    before = log.read_bytes()
    said = _cli(store, "note", gid, "5", "x", "--card", "ann 1")
    assert said.exit_code == 2 and "tells no card apart" in said.output
    assert "()" not in said.output and "Traceback" not in said.output
    assert log.read_bytes() == before and not log.with_suffix(".notes").exists()


def test_a_torn_last_note_is_set_aside_and_never_swallows_the_next(tmp_path):
    """#53: a torn last line (a crash, a full disk) swallowed the next note: it was glued to
    the fragment, kept in the file, never shown, and `note` ended in a StopIteration
    traceback. Now the next write moves the fragment into GAME.notes.torn first."""
    store, gid = _noted(tmp_path)
    notes = store.root / f"{gid}.notes"
    fragment = b'{"ts":"2026-01-01T00:00:00Z","author":"x","seq":3,"te'
    whole = notes.read_bytes()
    notes.write_bytes(whole + fragment)
    added = _cli(store, "note", gid, "4", "after")
    assert added.exit_code == 0, added.output
    assert notes.read_bytes().startswith(whole) and notes.read_bytes().endswith(b"\n")
    assert (store.root / f"{gid}.notes.torn").read_bytes() == fragment + b"\n"
    listed = _cli(store, "notes", gid)
    assert listed.exit_code == 0 and "after" in listed.stdout and not listed.stderr
    # players.log is appended the same way
    players = store.root / "players.log"
    players.write_bytes(b'{"ts":"2026-01-01T00:00:00Z","merge":"an')
    assert _cli(store, "new", "hanabi", "-p", "ann b,dan").exit_code == 0
    merged = _cli(store, "players", "merge", "ann b", "alice")
    assert merged.exit_code == 0, merged.output
    assert players.read_bytes().endswith(b"\n") and b'"merge":"an{' not in players.read_bytes()
    assert (store.root / "players.log.torn").read_bytes().startswith(b'{"ts"')


def test_a_note_with_a_malformed_time_costs_that_note_only_in_the_read_model(tmp_path):
    """#53: one note line whose `ts` was no time broke `index`, `index --rebuild`, `query`
    and `stats` for every game of the store. Now it is skipped with a warning naming it."""
    store, gid = _noted(tmp_path)
    notes = store.root / f"{gid}.notes"
    for ts in ("yesterday", "2026-13-01T00:00:00Z", "2026-01-01"):
        line = json.dumps({"ts": ts, "author": "x", "seq": 3, "text": "bad time"})
        notes.write_bytes(notes.read_bytes() + line.encode() + b"\n")
    for args in (["index"], ["index", "--rebuild"], ["stats"]):
        done = _cli(store, *args)
        assert done.exit_code == 0, (args, done.output)
    assert "not a UTC time" in _cli(store, "index", "--rebuild").stderr
    rows = _cli(store, "query", "SELECT count(*) AS n FROM annotations WHERE text = 'bad time'")
    assert rows.exit_code == 0 and "│ 0 │" in rows.stdout, rows.output
    assert "here we lost" in _cli(store, "query", "SELECT text FROM annotations").stdout
