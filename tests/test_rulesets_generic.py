"""The suite every ruleset passes (after OpenSpiel): random playthroughs, the log round-trip,
notation round-trips, immutability and views. Parametrised by ruleset; game-specific
invariants live in each game's own property tests."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gametape.engine import simulate as sim
from gametape.engine.fold import Fold
from gametape.engine.game import Game, describe, notation, parse_move
from gametape.engine.registry import get_ruleset, names
from gametape.engine.ruleset import ONLOOKER, NotYourMove, RuleViolation
from gametape.events import Store, actor, read_log
from gametape.events.base import Move
from tests.helpers import fold

NAMES = names()


def _play(name: str, seed: int, bot: str, players: int | None = None) -> Game:
    rules = get_ruleset(name)
    bot = rules.default_bot if bot == "default" else bot
    n = players or rules.min_players
    n = max(rules.min_players, min(n, rules.max_players))
    return sim.play(rules, sim.default_players(n), bot, random.Random(seed), seed=seed)


seeds = st.integers(0, 10**6)
counts = st.integers(2, 5)
bots = st.sampled_from(["default", "random"])


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, n=counts, bot=bots)
def test_random_games_end_and_the_log_folds_to_the_simulated_state(
    name, seed, n, bot, tmp_path_factory
):
    game = _play(name, seed, bot, n)
    assert game.is_over and game.result() is not None
    assert game.result().outcome in game.ruleset.outcomes  # the game's declared words
    store = Store(tmp_path_factory.mktemp("s"))
    gid = store.create(game.setup, game.events[1:])
    read = read_log(store.path(gid))
    assert read.error is None
    assert len(read.events) == len(game.events)
    # The simulator's state had no id yet; the store stamped one into the setup.
    assert _without_id(fold(read.events), gid) == _without_id(game.state, "")


def _without_id(state, gid):
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if not (k == "game" and v == gid)}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(msgspec.to_builtins(state))


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, n=counts, bot=bots)
def test_notation_round_trips_for_every_move(name, seed, n, bot):
    game = _play(name, seed, bot, n)
    rules = game.ruleset
    state = rules.start(game.setup)
    for event in game.events[1:]:
        if actor(event) is not None:
            text = notation(rules, state, event)
            assert parse_move(rules, state, text, actor(event)) == event, text
        state = rules.apply(state, event)


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, n=counts)
def test_apply_never_mutates_and_every_state_has_views_for_all_seats(name, seed, n):
    game = _play(name, seed, "random", n)
    rules = game.ruleset
    state = rules.start(game.setup)
    for event in game.events[1:]:
        frozen = msgspec.json.encode(rules.view(state, None))
        after = rules.apply(state, event)
        assert msgspec.json.encode(rules.view(state, None)) == frozen
        for seat in range(len(game.players)):
            msgspec.json.encode(rules.view(after, seat))
        state = after


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds, n=counts)
def test_legal_moves_are_exactly_the_moves_apply_accepts(name, seed, n):
    game = _play(name, seed, "random", n)
    rules = game.ruleset
    seats = range(len(game.players))
    states = [rules.start(game.setup)]
    for event in game.events[1:]:
        states.append(rules.apply(states[-1], event))
    # Every move legal somewhere in this game: candidates for "not listed here, so refused".
    vocabulary = list(
        {m: None for s in states for seat in seats for m in rules.legal_moves(s, seat)}
    )
    rng = random.Random(seed)
    frame = Fold(rules, game.setup, keep=False)  # the fold: whose turn, then the rules
    for state, event in zip(states, game.events[1:], strict=False):
        for seat in rules.to_act(state):
            legal = rules.legal_moves(state, seat)
            for move in legal:
                rules.apply(state, move)  # raises if a "legal" move is refused
        if actor(event) is not None:
            assert event in rules.legal_moves(state, actor(event))
        listed = {m for seat in seats for m in rules.legal_moves(state, seat)}
        for move in rng.sample(vocabulary, min(20, len(vocabulary))):
            if move not in listed:
                with pytest.raises(RuleViolation):
                    frame.step(state, move)  # not listed, so the fold or the rules refuse it
    assert all(rules.legal_moves(states[-1], s) == [] for s in seats)


def _faces(board) -> Counter[str]:
    """The card faces a board shows (a back is no face), each as many times as it shows."""
    return Counter(
        f"{c.text}|{c.colour}" for z in board.zones for c in z.cards if not c.back and c.text
    )


@pytest.mark.parametrize("name", NAMES)
@given(seed=seeds)
def test_the_onlooker_sees_only_what_every_seat_sees(name, seed):
    """The onlooker (a spectator's page) is shown no face some seat cannot see, no event some
    seat sees only redacted, and each move as some seat is told it."""
    game = _play(name, seed, "random", 3)
    rules, states, players = game.ruleset, game.fold.states, game.players
    for seq, state in enumerate(states):
        public = _faces(rules.board(rules.view(state, ONLOOKER), "t"))
        for seat in range(len(players)):
            assert not public - _faces(rules.board(rules.view(state, seat), "t")), (seq, seat)
        if seq:
            event, before = game.events[seq], states[seq - 1]
            shown = rules.redact(before, event, ONLOOKER)
            if shown == event:  # what the whole table sees whole, every seat sees whole
                assert all(rules.redact(before, event, s) == event for s in range(len(players)))
            # told as a seat that saw least of it is told (a drawer, a hand's holder)
            told = [describe(rules, players, before, event, state, s) for s in range(len(players))]
            assert describe(rules, players, before, event, state, ONLOOKER) in told, seq
    assert "as the table" in rules.board(rules.view(states[-1], ONLOOKER), "t").title


@pytest.mark.parametrize("name", names())
def test_a_move_sent_by_another_seat_is_refused_in_every_game(name, tmp_path):
    """#50: the mover is the framework's to check: a seat's move, written as the game writes
    it, sent by another seat (`move --by`, `record --as`, a phone), is refused and nothing
    is recorded, in every game."""
    from gametape.errors import GametapeError
    from gametape.usecases.record import new_game, record_move

    store = Store(tmp_path / "store")
    rules = get_ruleset(name)
    players = ["ann", "ben", "cat"][: max(rules.min_players, min(3, rules.max_players))]
    gid, _ = new_game(store, name, players, seed=2)
    game = Game.from_events(store.read(gid).events)
    seat = game.to_act()[0]
    other = next(s for s in range(len(players)) if s != seat)
    move = game.legal_moves(seat)[0]
    for text in (notation(rules, game.state, move), msgspec.json.encode(move).decode()):
        with pytest.raises(GametapeError) as refused:
            record_move(store, store.read(gid), text, players[other])
        if text.startswith("{"):  # a value names its player: every game reads one (#51)
            assert isinstance(refused.value, NotYourMove), refused.value
    assert len(store.read(gid).events) == len(game.events)


@pytest.mark.parametrize("name", names())
def test_move_question_json_offers_values_that_move_takes_back(name, tmp_path):
    """#51: `move GAME ? --json` lists each seat's moves with their values; a value given to
    `move` records the same move its words do, in every game."""
    import json

    from typer.testing import CliRunner

    from gametape.cli.app import app
    from gametape.usecases.record import new_game

    store = Store(tmp_path / "store")
    rules = get_ruleset(name)
    players = ["ann", "ben", "cat"][: max(rules.min_players, min(3, rules.max_players))]
    gid, _ = new_game(store, name, players, seed=3)
    runner = CliRunner()
    base = ["--store", str(tmp_path / "store")]
    listed = runner.invoke(app, [*base, "move", gid, "?", "--json"])
    assert listed.exit_code == 0, listed.output
    first = json.loads(listed.stdout.splitlines()[0])
    offered = next(m for m in first["moves"] if m["move"] is not None)
    value = json.dumps(offered["move"])
    done = runner.invoke(app, [*base, "move", gid, value, "--by", first["player"], "--json"])
    assert done.exit_code == 0, done.output
    game = Game.from_events(store.read(gid).events)
    recorded = next(e for e in reversed(game.events) if isinstance(e, Move))
    assert json.loads(msgspec.json.encode(recorded)) == offered["move"]


def _unordered(words: tuple[str, ...], groups: list[int]) -> tuple[object, ...]:
    """seat.js's ``unordered``: the words a picker's lists chose, each apart group's as a
    set (its lists take their choices in either order)."""
    rest = tuple(w for w, g in zip(words, groups, strict=True) if not g)
    sets = {g: sorted(w for w, h in zip(words, groups, strict=True) if h == g) for g in groups if g}
    return rest, sorted(sets.items())


def _turned(words: tuple[str, ...], groups: list[int]) -> tuple[str, ...]:
    """The words with each apart group's words in reverse order (as a player may pick them)."""
    turned = list(words)
    for g in set(groups) - {0}:
        at = [i for i, h in enumerate(groups) if h == g]
        for i, w in zip(at, reversed([words[i] for i in at]), strict=True):
            turned[i] = w
    return tuple(turned)


@pytest.mark.parametrize("name", names())
def test_a_picker_never_keeps_a_legal_move_from_being_chosen(name):
    """#49: lists that keep apart, and lists narrowed to legal moves, never disable a legal
    move: in every position of bot games (dealt, random deals), every legal move a picker
    stands for has its words apart where the lists keep apart, and is among its moves, and
    its words find its value, which the page sends (#51). (A gift of yellow, yellow and violet
    was once kept from its third list.)"""
    import random

    from gametape.engine import simulate as sim
    from gametape.engine.fold import Fold
    from gametape.usecases.position import position

    rules = get_ruleset(name)
    players = ["ann", "ben", "cat"][: max(rules.min_players, min(3, rules.max_players))]
    checked = unique = 0
    for seed in range(6):
        played = sim.play(rules, players, rules.default_bot, random.Random(seed))
        fold = Fold(rules, played.events[0])
        for event in played.events[1:]:
            fold.push(event)
            game = Game(fold)
            for seat in game.to_act():
                legal = {notation(rules, game.state, m) for m in game.legal_moves(seat)}
                shown = position(game, seat, offer=seat, role="seat", label=players[seat])
                for picker in shown.pickers:
                    for text in legal:
                        words = text.split()
                        if len(words) != len(picker.words) or any(
                            w not in ws for w, ws in zip(words, picker.words, strict=True)
                        ):
                            continue  # not a move of this picker
                        checked += 1
                        for group in set(picker.apart) - {0}:
                            at = [i for i, g in enumerate(picker.apart) if g == group]
                            chosen = [words[i] for i in at]
                            assert len(set(chosen)) == len(chosen), (text, picker.apart)
                        opened = tuple(
                            w for w, ws in zip(words, picker.words, strict=True) if len(ws) > 1
                        )
                        if picker.moves:
                            assert opened in picker.moves, (text, picker.shown)
                        # #51: the page sends the move chosen as its value, found by its words
                        sent = [v for w, v in picker.offers if w == opened]
                        assert len(sent) == 1, (text, picker.shown)
                        value = game.parse(msgspec.json.encode(sent[0]).decode(), seat)
                        assert notation(rules, game.state, value) == text
                        if any(picker.apart):  # its words in another order find it too
                            lists = [
                                g
                                for g, ws in zip(picker.apart, picker.words, strict=True)
                                if len(ws) > 1
                            ]
                            turned = _turned(opened, lists)
                            found = [v for w, v in picker.offers if _unordered(w, lists) ==
                                     _unordered(turned, lists)]  # fmt: skip
                            # found alone, unless other legal moves are its words in
                            # other orders (a compete's pairings of four cards): then the
                            # page sends the words chosen, which the game reads
                            assert sent[0] in found, (text, turned)
                            unique += len(found) == 1
    # the tutorial Ohanami's moves (a card of three, a row of three) are always buttons
    assert checked or name == "ohanami", "no picker met"
    assert unique or name not in ("ohanami-classic", "hanamikoji-classic"), "no order turned"


@pytest.mark.parametrize("name", NAMES)
def test_a_game_declares_its_moves_as_values_for_scripts(name):
    """#51: `gametape games --json` declares each game: its events, whether it can be recorded
    at a table, and its moves as values (a JSON Schema per kind of move): every legal move of
    a bot game, as a value, is one of the kinds declared, with their fields and no other."""
    import random

    from gametape.engine import simulate as sim
    from gametape.engine.game import move_as_value
    from gametape.usecases.browse import installed_games

    info = next(i for i in installed_games()[0] if i.name == name)
    rules = get_ruleset(name)
    assert info.events == [str(e.__struct_config__.tag) for e in rules.events]
    assert info.table  # every game shipped can be recorded at a table
    assert (info.secrecy, info.cooperative, info.turn_word) == (
        rules.declared.secrecy,
        rules.declared.cooperative,
        rules.declared.turn_word,
    )
    assert info.secrecy != "open"  # each hides cards
    declared = {
        d["properties"]["type"]["enum"][0]: d
        for d in info.move_schema["$defs"].values()
        if "type" in d.get("properties", {})
    }
    assert set(declared) == {
        str(e.__struct_config__.tag) for e in rules.events if issubclass(e, Move)
    }
    game = sim.play(rules, sim.default_players(rules.min_players), "random", random.Random(3))
    seen = 0
    for k in range(1, len(game.events), 3):
        state = game.fold.states[k - 1]
        for seat in rules.to_act(state):
            for move in rules.legal_moves(state, seat):
                value = move_as_value(move)
                kind = declared[value["type"]]
                assert set(kind["required"]) <= set(value) <= set(kind["properties"]), value
                seen += 1
    assert seen


@pytest.mark.parametrize("name", NAMES)
def test_a_table_picker_builds_the_move_its_words_say(name):
    """#51: a picker with blanks (a table's `play SLOT CARD`) sends its move as a value that
    the page builds from the choices (MoveForm.value, as seat.js does): for random choices
    in positions of random table games, the value is the move its words say, or both are
    refused."""
    import random

    from gametape.engine.game import parse_move
    from gametape.engine.ruleset import move_value
    from gametape.errors import GametapeError
    from gametape.testing.secrecy import play_random

    rules = get_ruleset(name)
    rng = random.Random(5)
    built = 0
    for _ in range(3):
        players = ("ann", "ben", "cat")[: max(rules.min_players, min(3, rules.max_players))]
        events = play_random(rules, players, random.Random(rng.random()), table=True)
        fold = Fold(rules, events[0])
        for event in events[1:]:
            state = fold.state
            for seat in rules.to_act(state):
                for form in rules.move_forms(state, seat):
                    if not form.kind:
                        continue
                    for _ in range(4):
                        chosen = [
                            (rng.sample(b.listed, rng.randint(1, len(b.listed))))
                            if b.kind == "slots"
                            else [rng.choice(b.listed)]
                            if b.kind
                            else [w[0]]
                            for b, w in zip(form.blanks, form.words, strict=True)
                        ]
                        words = " ".join(w for ws in chosen for w in ws)
                        try:
                            said = parse_move(rules, state, words, seat)
                        except GametapeError:
                            said = None
                        value = msgspec.json.encode(form.value(chosen)).decode()
                        try:
                            sent = move_value(rules, value)
                        except GametapeError:
                            sent = None
                        assert sent == said, (words, value)
                        built += 1
            fold.push(event)
    assert built, "no table picker met"
