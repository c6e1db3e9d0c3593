"""Invariants of the published Ohanami over random legal games with 2-4 players, dealt by the
tool or recorded at a table (hypothesis; the size is the suite's profile)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

from hypothesis import given
from hypothesis import strategies as st

from gametape.engine import simulate as sim
from gametape.engine.fold import Fold
from gametape.games.ohanami_classic import RULESET
from gametape.games.ohanami_classic.events import (
    ClassicOhanamiChoose,
    ClassicOhanamiDeal,
    ClassicOhanamiHand,
    ClassicOhanamiPlace,
)
from gametape.testing.secrecy import play_random

NAMES = ("ann", "ben", "cat", "dan")


def _dealt(seed: int, n: int, bot: str) -> list:
    return list(sim.play(RULESET, NAMES[:n], bot, random.Random(seed)).events)


def _table(seed: int, n: int, bot: str) -> list:
    return play_random(RULESET, NAMES[:n], random.Random(seed), table=True)


games = st.builds(
    lambda how, seed, n, bot: how(seed, n, bot),
    st.sampled_from([_dealt, _table]),
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.sampled_from(["greedy", "random"]),
)


def _states(events):
    fold = Fold(RULESET, events[0])
    out = [fold.state]
    for event in events[1:]:
        out.append(fold.push(event))
    return out


def _hands_by_round(events) -> dict[tuple[int, int], tuple[int, ...]]:
    """Each seat's hand at the start of each round, from the events alone."""
    found, round_ = {}, 0
    for event in events[1:]:
        if isinstance(event, ClassicOhanamiDeal):
            round_ = event.round
            for seat, hand in enumerate(event.hands or ()):
                found[(round_, seat)] = tuple(hand)
        elif isinstance(event, ClassicOhanamiHand):
            found[(round_, event.player)] = event.cards
    return found


@given(games)
def test_each_number_at_most_once_and_ten_cards_a_player_a_round(events):
    """Dealt: every hand of every round, each number once. At a table a hand is entered if
    its holder likes (ruling O7b), and two entered hands that share a number are in dispute."""
    hands = _hands_by_round(events)
    assert all(len(h) == 10 for h in hands.values())
    every = Counter(c for h in hands.values() for c in h)
    assert all(1 <= c <= 120 for c in every)
    n = len(events[0].players)
    if not events[0].table:
        rounds = {r for r, _ in hands}
        assert max(every.values()) == 1
        assert all((r, s) in hands for r in rounds for s in range(n))
        return
    states = _states(events)
    for a, b in pairwise(states):
        if a.round != b.round or not b.entered:
            continue
        live = [h for h, void in zip(b.entered, b.void, strict=True) if h and not void]
        clashing = {
            (x, y)
            for x, y in combinations(range(n), 2)
            if b.entered[x] and b.entered[y] and not b.void[x] and not b.void[y]
            and set(b.entered[x]) & set(b.entered[y])
        }  # fmt: skip
        assert clashing == set(b.disputes), live


@given(games)
def test_every_card_is_somewhere_once_at_every_step(events):
    """Every card of the round is in a hand, a row, a discard or shown, once: at a table a
    hand not entered (or void) counts by its size, and no hand is in dispute."""
    for state in _states(events):
        if state.disputes:
            continue
        places = [c for h in state.hands if h for c in h]
        places += [c for rows in state.rows for row in rows for c in row]
        places += list(state.discards)
        if state.phase == "place":  # shown, not yet placed
            places += [
                c for s, pair in enumerate(state.chosen) if not state.placed[s] for c in pair
            ]
        assert len(places) == len(set(places))
        unknown = sum(g.hand_size for g in RULESET.view(state, None).gardens if g.hand is None)
        if state.round:
            n = state.n_players
            assert len(places) + unknown == 10 * n * state.round  # nothing gained or lost


@given(games)
def test_at_most_three_rows_each_ordered_end_to_end(events):
    for state in _states(events):
        for rows in state.rows:
            assert len(rows) <= 3
            for row in rows:
                assert all(a < b for a, b in pairwise(row))


def _recount(rows, round_: int) -> int:
    """The round's score from the rows, by the rules' text (not rules.score)."""

    def kind_of(n: int) -> str:
        return "grey" if n % 7 == 0 else "green" if n % 3 == 0 else "blue" if n % 2 == 0 else "pink"

    tally = Counter(kind_of(c) for row in rows for c in row)
    total = 3 * tally["blue"]
    if round_ >= 2:
        total += 4 * tally["green"]
    if round_ == 3:
        pinks = min(tally["pink"], 15)
        total += 7 * tally["grey"] + pinks * (pinks + 1) // 2
    return total


@given(games)
def test_scores_equal_a_recount_from_the_rows(events):
    states = _states(events)
    scored = [s for a, s in pairwise(states) if len(s.scores) > len(a.scores)]
    for state in scored:
        round_ = len(state.scores)
        assert state.scores[-1] == tuple(_recount(rows, round_) for rows in state.rows)
    final = states[-1]
    if final.outcome == "finished":
        result = RULESET.result(final)
        assert result.scores == tuple(
            sum(r[s] for r in final.scores) for s in range(final.n_players)
        )
        best = max(result.scores)
        assert result.winners == tuple(s for s, t in enumerate(result.scores) if t == best)


@given(games)
def test_a_dealt_game_ends_after_fifteen_steps_of_choosing_and_placing(events):
    final = _states(events)[-1]
    if final.outcome != "finished":
        return
    n = len(events[0].players)
    assert sum(isinstance(e, ClassicOhanamiChoose) for e in events) == 15 * n
    assert sum(isinstance(e, ClassicOhanamiPlace) for e in events) == 15 * n
