"""What each player knew: empathy (two levels), pace, efficiency, knowledge at a play or a
discard, critical discards, per-player facts and stats; hand-worked positions, the real
hanab.live games, and properties over bot games."""

from __future__ import annotations

import json
import random

import pytest
from msgspec.structs import replace
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.engine import simulate as sim
from gametape.games.hanabi import HANABI
from gametape.games.hanabi import knowledge as kn
from gametape.games.hanabi.events import Face
from gametape.games.hanabi.notation import card_name
from gametape.games.hanabi.view import view
from gametape.usecases.importing import import_files
from tests.conftest import shared
from tests.helpers import face, hanabi, moves
from tests.test_hanabi_variant_games import MECHANISMS, _play

R, Y, G, B, W = range(5)
# alice r1 r2 y1 b3 w5 | bob r3 g1 r4 b4 y2 | cara ...; the deck then starts y3 g4 b1
ALICE = "r1 r2 y1 b3 w5"
BOB = "r3 g1 r4 b4 y2"
CARA = "g2 g3 b2 w1 w2"


def names(faces) -> set[str]:
    return {card_name(f, HANABI_SUITS) for f in faces}


HANABI_SUITS = ("r", "y", "g", "b", "w")  # the letters


def game(*texts: str):
    return moves(hanabi(f"{ALICE} {BOB} {CARA} y3 g4 b1 w3 w4"), *texts)


def test_empathy_uses_positive_and_negative_clue_information():
    g = game("clue bob red")  # touches bob's r3 and r4 (slots 5 and 3), misses the others
    state = g.state
    bob = state.hands[1]
    r3, g1 = bob[0], bob[1]
    assert {f.suit for f in kn.possible(state, r3)} == {R}
    assert R not in {f.suit for f in kn.possible(state, g1)}  # the negative information
    assert len(kn.possible(state, g1)) == 4 * 5  # any of four suits, any rank


def test_public_empathy_removes_copies_played_or_discarded():
    g = game("play 5")  # alice plays r1 (slot 5 is her oldest card)
    bob_g1 = g.state.hands[1][1]
    assert "r1" in names(kn.possible(g.state, bob_g1))  # two red 1s are still unseen
    # alice discards her w5, the only one: no card can be a w5 any more
    g = game("clue bob red", "clue cara 2", "clue alice 5", "discard 1")
    assert g.state.faces[g.state.discards[-1]] == face("w5")
    assert all("w5" not in names(kn.possible(g.state, o)) for h in g.state.hands for o in h)


def test_the_seen_level_also_removes_the_other_hands_and_is_shown_to_its_holder_only():
    g = game()
    state = g.state
    alice_w5 = state.hands[0][4]
    assert "w5" in names(kn.possible(state, alice_w5))
    assert "w5" in names(kn.possible(state, alice_w5, "seen"))  # alice cannot see her w5
    bob_card = state.hands[1][0]
    assert "w5" not in names(kn.possible(state, bob_card, "seen"))  # bob sees alice's w5
    as_bob = view(state, 1)
    assert all(c.possible_seen is not None for c in as_bob.hands[1])
    assert all(c.possible_seen is None for c in as_bob.hands[0])  # not alice's private view
    assert all(c.possible for c in as_bob.hands[0])  # the public level is public


def test_pace_is_hanablive_s_and_undefined_once_the_deck_is_empty():
    g = game()
    state = g.state
    assert kn.pace(state) == 0 + 35 + 3 - 25
    for seed in range(5):
        played = sim.play(HANABI, ["a", "b", "c"], "heuristic", random.Random(seed))
        after_empty = [s for s in played.fold.states if s.final_turns is not None]
        assert after_empty and all(kn.pace(s) is None for s in after_empty)
        before = [s for s in played.fold.states if s.final_turns is None]
        assert all(kn.pace(s) == s.fireworks_sum + s.deck_left + 3 - s.max_score for s in before)


def test_efficiency_counts_cards_gotten_per_clue_given():
    g = game()
    assert kn.efficiency(g.state) is None  # no clue yet
    moves(g, "clue bob red")  # touches r3 and r4: two cards gotten for one clue
    assert kn.gotten(g.state) == 2 and kn.efficiency(g.state) == 2.0
    moves(g, "clue alice 1")  # bob: touches r1 and y1
    assert kn.gotten(g.state) == 4 and kn.efficiency(g.state) == 2.0
    moves(g, "discard 1", "play 5")  # cara discards; alice plays r1: still gotten (played)
    assert kn.gotten(g.state) == 4 and kn.efficiency(g.state) == 2.0


def test_efficiency_divides_by_clues_lost_as_hanablive_does():
    """hanab.live: a strike is a clue lost, and so is a 5 played at 8 clue tokens."""
    g = game()
    moves(g, "clue bob red")  # 2 gotten, 1 clue lost
    assert kn.clues_lost(g.state) == 1
    strike = g.state.strikes
    moves(g, "play 1")  # bob plays slot 1 blind
    if g.state.strikes > strike:
        assert kn.clues_lost(g.state) == 2
        assert kn.efficiency(g.state) == round(kn.gotten(g.state) / 2, 4)
    full = replace(g.state, clues=8)
    five = hanabi("r1 r2 r3 r4 r5")  # alice holds r1-r5 (slot 5 is r1)
    state = replace(five.state, fireworks=(4, 0, 0, 0, 0), clues=8)
    after = five.ruleset.apply(state, five.parse("play 1"))  # r5 at 8 tokens: the token is lost
    assert after.clues == 8 and after.clues_wasted == 1 and kn.clues_lost(after) == 1
    assert kn.clues_lost(full) == kn.clues_lost(g.state)


def test_cards_gotten_are_capped_at_the_best_score_still_reachable():
    g = game()
    moves(g, "clue bob red", "clue alice 1")
    capped = replace(g.state, max_score=3)
    assert kn.gotten(g.state) == 4 and kn.gotten(capped) == 3


def test_what_a_player_knew_of_the_card_they_played_or_discarded():
    g = game()
    assert kn.level_of(g.state, g.state.hands[0][4]) == "blind"  # never clued
    moves(g, "clue bob red")
    assert kn.level_of(g.state, g.state.hands[1][0]) == "clued"  # red, rank unknown
    moves(g, "clue alice 1")  # alice's r1 and y1: every 1 is playable now
    assert kn.level_of(g.state, g.state.hands[0][0]) == "playable"
    moves(g, "clue alice red")  # alice's r1 and r2: her r1 is now fully known
    assert kn.level_of(g.state, g.state.hands[0][0]) == "known"
    # a card that can only be a red 1 once red 1 is played is trash
    moves(g, "play 5")  # alice plays r1
    assert g.state.fireworks[R] == 1


def test_known_trash_every_identity_a_card_can_be_is_already_played():
    import msgspec

    g = game("clue bob 1")  # alice tells bob about his g1
    g1 = g.state.hands[1][1]
    assert kn.level_of(g.state, g1) == "playable"  # any 1 is playable on empty fireworks
    all_ones_played = msgspec.structs.replace(g.state, fireworks=(1, 1, 1, 1, 1))
    assert kn.level_of(all_ones_played, g1) == "trash"  # a hand-worked position


def test_a_critical_discard_throws_away_the_last_copy_of_a_needed_card():
    g = game("clue bob 3", "clue alice 5")  # alice, then bob
    before = g.state
    moves(g, "discard 1")  # cara discards her w2: the other w2 is still in the game
    assert not kn.critical(before, g.state) and g.state.max_score == 25
    moves(g, "discard 1")  # alice discards her w5, the only one
    assert kn.critical(g.fold.states[-2], g.state) and g.state.max_score == 24


def test_analytics_columns_and_player_facts(tmp_path):
    runner = CliRunner()
    base = ["--store", str(tmp_path / "s")]
    assert (
        runner.invoke(
            app, [*base, "simulate", "hanabi", "-n", "40", "--bot", "random", "--seed", "3"]
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(app, [*base, "simulate", "hanabi", "-n", "20", "--seed", "9"]).exit_code == 0
    )

    def q(sql: str) -> list[dict]:
        out = runner.invoke(app, [*base, "query", sql, "-f", "json"]).stdout
        return [json.loads(line) for line in out.splitlines()]

    # every play and discard says what was known; plays+misplays by level add up
    assert q(
        "SELECT count(*) AS n FROM hanabi.events WHERE type IN ('hanabi.play', "
        "'hanabi.discard') AND knowledge IS NULL"
    ) == [{"n": 0}]
    rows = q(
        "SELECT sum(plays) AS p, sum(plays_known + plays_playable + plays_trash + "
        "plays_clued + plays_blind) AS by_level, sum(misplays) AS m, sum(misplays_known "
        "+ misplays_playable + misplays_trash + misplays_clued + misplays_blind) AS "
        "m_by_level, sum(colour_clues + rank_clues) AS c, sum(clues_given) AS cg "
        "FROM hanabi.game_players"
    )
    r = rows[0]
    assert r["p"] == r["by_level"] and r["m"] == r["m_by_level"] and r["c"] == r["cg"]
    # critical discards are the discards that lowered the best score still reachable
    crit = q("SELECT count(*) AS n FROM hanabi.events e WHERE critical")[0]["n"]
    drops = q("""SELECT count(*) AS n FROM (SELECT type, max_score, lag(max_score) OVER
                 (PARTITION BY game_id ORDER BY seq) AS before FROM hanabi.events) WHERE
                 type = 'hanabi.discard' AND max_score < before""")[0]["n"]
    assert crit == drops and crit > 0
    assert q("SELECT sum(critical_discards) AS n FROM hanabi.game_players") == [{"n": crit}]
    # pace is undefined in the final turns; efficiency is defined after the first clue
    assert q(
        "SELECT count(*) AS n FROM hanabi.events WHERE deck = 0 AND pace IS NOT NULL AND seq > 1"
    ) == [{"n": 0}]
    stats = json.loads(runner.invoke(app, [*base, "stats", "hanabi", "--json"]).stdout)
    titles = [r["title"] for r in stats["reports"]]
    assert "misplays by what the player knew of the card" in titles
    eff = next(r for r in stats["reports"] if r["title"].startswith("efficiency"))
    assert eff["rows"][0]["efficiency"] > 0


def test_on_real_games_the_best_reachable_score_at_the_end_matches_the_recorded_outcome(tmp_path):
    from gametape.engine.game import Game
    from gametape.events import Store, read_log
    from gametape.games.hanabi import hanablive as hl

    root = shared("data", "hanablive")
    manifest = json.loads((root / "manifest.json").read_text())
    ended = [
        e
        for e in manifest
        if "max achievable" in (e.get("expected") or {}).get("ending", "")
        and "NOT terminal" in (e.get("expected") or {}).get("ending", "")
        and "ended when" in (e.get("expected") or {}).get("ending", "")
    ]
    assert len(ended) == 6
    store = Store(tmp_path / "s")
    results = import_files(store, hl.HANABLIVE, [root / e["file"] for e in ended])
    assert [r.status for r in results] == ["imported"] * 6
    for r, entry in zip(results, ended, strict=True):
        state = Game.from_events(read_log(store.path(r.game)).events).state
        assert state.outcome == "normal"
        assert state.max_score == state.fireworks_sum == entry["expected"]["fireworks_sum"]


def test_the_true_card_is_always_among_its_possible_identities():
    """Thousands of positions: at every 5th step of 300 bot games, every card's true face is
    among what its holder thinks it can be, at both levels."""
    for seed in range(300):
        played = sim.play(
            HANABI,
            sim.default_players(2 + seed % 4),
            "heuristic" if seed % 2 else "random",
            random.Random(seed),
        )
        for state in played.fold.states[::5]:
            for holder, hand in enumerate(state.hands):
                for order in hand:
                    true = state.faces[order]
                    assert true in kn.possible(state, order), (seed, order)
                    assert true in kn.possible(state, order, "seen", holder), (seed, order)


def _level_by_definition(state, order: int) -> str:
    can_be = kn.possible(state, order)
    if len(can_be) == 1:
        return "known"
    if can_be and all(kn.is_playable(state, f) for f in can_be):
        return "playable"
    if can_be and all(kn.is_trash(state, f) for f in can_be):
        return "trash"
    return "clued" if state.known(order).clued else "blind"


def _gotten_by_definition(state) -> int:
    """hanab.live's getCardsGotten: played cards, and clued cards in hands that the clues do
    not show to be trash (some suit and rank they leave open is still playable), at most the
    best score still reachable."""
    touched = [o for hand in state.hands for o in hand if state.known(o).clued]
    open_faces = [
        [Face(s, r) for s in state.known(o).suits for r in state.known(o).ranks] for o in touched
    ]
    count = state.fireworks_sum + sum(
        1 for faces in open_faces if not all(kn.is_trash(state, f) for f in faces)
    )
    return min(count, state.max_score)


def test_level_of_and_gotten_agree_with_their_definitions():
    """The fast counts (they run for every event indexed) against the plain definitions, on
    every card in every position of 100 bot games."""
    levels: set[str] = set()
    for seed in range(100):
        played = sim.play(
            HANABI,
            sim.default_players(2 + seed % 4),
            "heuristic" if seed % 2 else "random",
            random.Random(seed),
        )
        for state in played.fold.states:
            assert kn.gotten(state) == _gotten_by_definition(state), seed
            for order in (o for hand in state.hands for o in hand):
                level = kn.level_of(state, order)
                assert level == _level_by_definition(state, order), (seed, order)
                levels.add(level)
    assert levels == set(kn.KNOWLEDGE_LEVELS)


# --- the cached tables against the definitions face by face -----------------------------


def _gotten_by_face(state) -> int:
    """``gotten``'s definition, face by face: a clued card in a hand that may be a face not
    yet trash counts, as every card played does, at most the best score still reachable."""
    faces = kn._faces(state.deck)
    count = state.fireworks_sum
    for hand in state.hands:
        for order in hand:
            packed = state.knowledge[order]
            may_be = [f for i, f in enumerate(faces) if packed >> i & 1]
            if packed & kn.CLUED and any(
                state.deck.has(f.suit, f.rank) and not kn.is_trash(state, f) for f in may_be
            ):
                count += 1
    return min(count, state.max_score)


@pytest.mark.parametrize("name", list(MECHANISMS.values()), ids=list(MECHANISMS))
def test_knowledge_levels_and_cards_gotten_agree_with_their_definitions(name):
    """The index reads each play's knowledge level and each move's cards gotten from tables
    kept per position of the fireworks (knowledge._table): on every position of a random and a
    heuristic game of every variant mechanism, they give what the definitions face by face
    give, for every card in every hand."""
    for seed in (0, 1):
        for state in _play(name, seed).fold.states[1:]:
            assert kn.gotten(state) == _gotten_by_face(state)
            for hand in state.hands:
                for order in hand:
                    assert kn.level_of(state, order) == _level_by_definition(state, order)
