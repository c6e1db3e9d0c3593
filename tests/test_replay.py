"""Replay: cursor semantics, views that never leak, the interactive viewer, the CLI."""

from __future__ import annotations

import asyncio
import json
import random

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametape.cli.viewer import ReplayApp
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset, names
from gametape.events import Store
from gametape.games.hanabi.events import HanabiPlay, HanabiSetup
from gametape.games.hanamikoji.events import HanamikojiSetup
from gametape.games.ohanami.events import OhanamiDeal
from gametape.replay import Cursor, OutOfRange
from tests.helpers import fold

NAMES = names()


def _game(name: str, seed: int, n: int | None = None, bot: str | None = None):
    rules = get_ruleset(name)
    n = max(rules.min_players, min(n or 3, rules.max_players))
    return sim.play(rules, sim.default_players(n), bot or rules.default_bot, random.Random(seed))


def _enc(x):
    return msgspec.json.encode(x)


# --- cursor semantics -----------------------------------------------------------------

ops = st.lists(
    st.one_of(
        st.tuples(st.just("step"), st.integers(1, 5)),
        st.tuples(st.just("back"), st.integers(1, 5)),
        st.tuples(st.just("jump"), st.floats(0, 1)),
        st.tuples(st.sampled_from(["start", "end"]), st.none()),
    ),
    min_size=1,
    max_size=25,
)


@pytest.mark.parametrize("name", NAMES)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), moves=ops)
def test_step_back_and_jump_equal_a_fresh_fold(name, seed, n, moves):
    game = _game(name, seed, n)
    cursor = Cursor(game.events)
    for op, arg in moves:
        if op == "jump":
            cursor.jump(round(arg * cursor.last))
        elif op in ("step", "back"):
            getattr(cursor, op)(arg)
        else:
            getattr(cursor, op)()
        assert 0 <= cursor.seq <= cursor.last
        assert _enc(cursor.state) == _enc(fold(game.events[: cursor.seq + 1]))


def test_jumps_outside_the_game_are_refused_with_the_range():
    cursor = Cursor(_game("hanabi", 1).events)
    with pytest.raises(OutOfRange, match=f"seqs 0 to {cursor.last}"):
        cursor.jump(cursor.last + 1)
    with pytest.raises(OutOfRange, match="no seq -1"):
        cursor.jump(-1)
    with pytest.raises(OutOfRange, match="no turn 999"):
        cursor.jump_turn(999)


def test_jump_to_a_turn_and_to_the_next_event_of_a_kind():
    game = _game("hanabi", 3, 3, "random")  # random bots strike out
    cursor = Cursor(game.events)
    assert cursor.jump_turn(4) == 4  # Hanabi: one move per turn
    strike = cursor.find("strike")
    assert strike is not None and "strike" in cursor.frame(strike).kinds
    cursor.jump(strike)
    assert game.events[strike].__class__ is HanabiPlay
    assert cursor.find("strike", forward=False) is None or cursor.find("strike", False) < strike
    names = [k for k in cursor.kinds() if k.startswith("clue to ")]
    assert names and all(n[len("clue to ") :] in game.players for n in names)


def test_kinds_for_hanamikoji_rounds_and_ohanami_round_ends():
    c = Cursor(_game("hanamikoji", 1).events)
    rounds = [s for s in range(c.last + 1) if "round" in c.frame(s).kinds]
    assert rounds == [2, 4, 6]
    c = Cursor(_game("ohanami", 1, 3).events)
    ends = [s for s in range(c.last + 1) if "round end" in c.frame(s).kinds]
    assert len(ends) == 3 and ends[-1] == c.last


def test_a_live_game_is_followed(tmp_path):
    store = Store(tmp_path)
    game = _game("hanabi", 5)
    gid = store.create(game.setup, game.events[1:10])
    cursor = Cursor.open(store.path(gid))
    assert cursor.last == 9
    store.append(gid, game.events[10:20], expected_seq=10)
    assert cursor.refresh() == 10 and cursor.last == 19
    assert cursor.refresh() == 0


def test_an_invalid_game_replays_to_its_last_valid_event_and_says_why(tmp_path):
    store = Store(tmp_path)
    game = _game("hanabi", 5)
    current = fold(game.events[:8]).current
    bad = HanabiPlay(player=(current + 1) % 3, card=0)
    gid = store.create(game.setup, [*game.events[1:8], bad, *game.events[8:12]])
    cursor = Cursor.open(store.path(gid))
    assert cursor.last == 7
    assert "seq 8" in str(cursor.problem) and "turn, not" in cursor.problem.message
    torn = store.create(game.setup, game.events[1:5])
    store.path(torn).write_bytes(store.path(torn).read_bytes() + b'{"v":1')
    cursor = Cursor.open(store.path(torn))
    assert cursor.last == 4 and "incomplete last line" in cursor.problem.message


# --- views never leak ---------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), at=st.floats(0, 1))
def test_a_seats_frame_at_k_does_not_depend_on_later_events(name, seed, n, at):
    game = _game(name, seed, n, "random")
    full = Cursor(game.events)
    k = round(at * full.last)
    prefix = Cursor(game.events[: k + 1])
    for seat in range(len(game.players)):
        assert _enc(full.frame(k, seat)) == _enc(prefix.frame(k, seat))


@given(seed=st.integers(0, 10**6), n=st.integers(2, 5), at=st.floats(0, 1))
def test_hanabi_frames_do_not_depend_on_the_viewers_own_unseen_cards(seed, n, at):
    game = _game("hanabi", seed, n)
    cursor = Cursor(game.events)
    k = round(at * cursor.last)
    state = cursor.state_at(k)
    for seat in range(n):
        # Two cards in the seat's hand, with different faces, never touched by a clue, and
        # held together at every clue the seat received: swapping their faces changes
        # nothing that the seat has been told.
        clues = [s for s in range(1, k + 1) if getattr(game.events[s], "target", None) == seat]

        held = [cursor.state_at(s - 1).hands[seat] for s in clues]

        def together(a, b, held=held):
            return all((a in h) == (b in h) for h in held)

        hand = [o for o in state.hands[seat] if not state.known(o).clued]
        pairs = [
            (a, b)
            for a in hand
            for b in hand
            if a < b and state.faces[a] != state.faces[b] and together(a, b)
        ]
        if not pairs:
            continue
        a, b = pairs[0]
        deck = list(game.setup.deck)
        deck[a], deck[b] = deck[b], deck[a]
        setup = msgspec.structs.replace(game.setup, deck=tuple(deck))
        other = Cursor([setup, *game.events[1 : k + 1]])
        assert other.last == k  # every event up to k is still legal
        for s in range(k + 1):
            assert _enc(cursor.frame(s, seat)) == _enc(other.frame(s, seat))
        assert _enc(cursor.frame(k, None)) != _enc(other.frame(k, None))  # not vacuous


@given(seed=st.integers(0, 10**6), at=st.floats(0, 1))
def test_hanamikoji_frames_do_not_depend_on_the_opponents_undrawn_cards(seed, at):
    game = _game("hanamikoji", seed)
    cursor = Cursor(game.events)
    k = round(at * cursor.last)
    state = cursor.state_at(k)
    for seat in (0, 1):
        opp = 1 - seat
        left = len(state.decks[opp])
        if left < 2:
            continue
        decks = [list(d) for d in game.setup.decks]
        decks[opp][-1], decks[opp][-2] = decks[opp][-2], decks[opp][-1]
        setup: HanamikojiSetup = msgspec.structs.replace(game.setup, decks=tuple(map(tuple, decks)))
        other = Cursor([setup, *game.events[1 : k + 1]])
        for s in range(k + 1):
            assert _enc(cursor.frame(s, seat)) == _enc(other.frame(s, seat))


@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), at=st.floats(0, 1))
def test_ohanami_frames_do_not_depend_on_the_undrawn_deck_order(seed, n, at):
    game = _game("ohanami", seed, n)
    cursor = Cursor(game.events)
    k = round(at * cursor.last)
    state = cursor.state_at(k)
    if len(state.deck) < 2 or not state.in_round:
        return
    i = max(s for s in range(k + 1) if isinstance(game.events[s], OhanamiDeal))
    deal = game.events[i]
    deck = list(deal.deck)
    deck[-1], deck[-2] = deck[-2], deck[-1]
    events = list(game.events[: k + 1])
    events[i] = OhanamiDeal(round=deal.round, deck=tuple(deck))
    other = Cursor(events)
    for seat in range(n):
        for s in range(k + 1):
            assert _enc(cursor.frame(s, seat)) == _enc(other.frame(s, seat))


def test_secret_moves_are_redacted_for_the_other_players():
    c = Cursor(_game("hanamikoji", 2).events)
    first = c.frame(1, seat=None)
    mover = c.events[1].player
    assert c.frame(1, seat=mover).move == first.move is not None
    assert c.frame(1, seat=1 - mover).move is None and c.frame(1, 1 - mover).event is None
    o = Cursor(_game("ohanami", 2, 3).events)
    # a deal shows a seat what was dealt (its own hand, in the view), never the deck's order
    assert o.frame(1, seat=0).event.deck == () and o.frame(1, seat=None).move == "deal spring"


def test_hanabi_the_drawer_does_not_learn_the_card_drawn():
    game = _game("hanabi", 4)
    c = Cursor(game.events)
    seq = next(
        s
        for s in range(1, c.last)
        if not isinstance(c.events[s], HanabiSetup) and "drew" in c.frame(s).change
    )
    mover = c.events[seq].player
    assert "drew a card" in c.frame(seq, seat=mover).change
    assert "drew a card" not in c.frame(seq, seat=(mover + 1) % 3).change


# --- the interactive viewer, driven by its test harness -----------------------------------


def _drive(cursor, keys_and_checks, seat=None):
    async def go():
        app = ReplayApp(cursor, seat, follow=False)
        async with app.run_test(size=(120, 50)) as pilot:
            for keys, check in keys_and_checks:
                await pilot.press(*keys)
                await pilot.pause()
                check(app)
            await pilot.press("q")

    asyncio.run(go())


def test_viewer_keys_move_the_frame():
    game = _game("hanabi", 1, 3, "random")
    cursor = Cursor(game.events)
    last = cursor.last
    strike = cursor.find("strike")
    _drive(
        cursor,
        [
            ((), lambda a: a.frame.seq == 0 or pytest.fail("starts at 0")),
            (("right",), lambda a: _is(a.frame.seq, 1)),
            (("right", "right", "left"), lambda a: _is(a.frame.seq, 2)),
            (("end",), lambda a: _is(a.frame.seq, last)),
            (("home",), lambda a: _is(a.frame.seq, 0)),
            (("colon", "4", "enter"), lambda a: _is(a.frame.seq, 4)),
            (("colon", "t", "6", "enter"), lambda a: _is(a.frame.turn, 6)),
            (("colon", "9", "9", "9", "enter"), lambda a: _is("seqs 0 to" in a.message, True)),
            (
                ("home", *["k"] * cursor.kinds().index("strike"), "right_square_bracket"),
                lambda a: _is((a.kind, a.frame.seq), ("strike", strike)),
            ),
            (("left_square_bracket",), lambda a: _is(a.frame.seq <= strike, True)),
        ],
    )


def test_viewer_as_a_player_shows_their_view():
    game = _game("hanamikoji", 3)
    cursor = Cursor(game.events)
    _drive(
        cursor,
        [
            (
                ("right",),
                lambda a: _is((a.frame.seat, a.frame.view.seats[1 - 1].hand is None), (1, True)),
            )
        ],
        seat=1,
    )


def _is(actual, expected):
    assert actual == expected


# --- the CLI ------------------------------------------------------------------------------


@pytest.fixture
def recorded(run):
    result = run("simulate", "hanabi", "-n", "1", "--seed", "11", "--json")
    return json.loads(result.stdout)["games"][0]


def test_cli_replay_at_one_frame(run, recorded):
    result = run("replay", recorded, "--at", "3")
    assert result.exit_code == 0, result.output
    assert "seq 3/" in result.stdout and "turn 3" in result.stdout and "→" in result.stdout


def test_cli_replay_all_and_json(run, recorded):
    frames = [json.loads(x) for x in run("replay", recorded, "--json").stdout.splitlines()]
    assert [f["seq"] for f in frames] == list(range(len(frames)))
    assert frames[0]["event"] is None and frames[1]["change"]
    one = json.loads(run("replay", recorded, "--at", "2", "--json").stdout)
    assert one == frames[2]
    text = run("replay", recorded, "--all").stdout
    assert text.count("seq ") >= len(frames)


def test_cli_replay_as_a_player(run, recorded):
    frames = [
        json.loads(x) for x in run("replay", recorded, "--json", "--as", "bob").stdout.splitlines()
    ]
    assert all(f["seat"] == 1 for f in frames)
    assert all(c["face"] is None for f in frames for c in f["view"]["hands"][1])
    result = run("replay", recorded, "--as", "zed")
    assert result.exit_code == 2 and "alice, bob, cara" in result.stderr


def test_cli_replay_refuses_a_seq_outside_the_game(run, recorded):
    result = run("replay", recorded, "--at", "999")
    assert result.exit_code == 2 and "seqs 0 to" in result.stderr


def test_cli_replay_needs_a_terminal_for_the_viewer(run, recorded):
    result = run("replay", recorded)
    assert result.exit_code == 2 and "--at SEQ, --all or --json" in result.stderr


def test_cli_replay_of_an_invalid_game_stops_and_says_where(run, recorded):
    path = run.root / f"{recorded}.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"card":', b'"card":1')
    path.write_bytes(b"\n".join(lines))
    result = run("replay", recorded, "--all")
    assert result.exit_code == 1
    assert "the replay stops at seq 4" in result.stderr and "hash chain" in result.stderr
    assert "seq 4/4" in result.stdout
