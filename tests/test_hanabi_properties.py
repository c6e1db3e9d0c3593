"""Hanabi invariants over random legal games (hypothesis)."""

from __future__ import annotations

import itertools
import random

from hypothesis import given
from hypothesis import strategies as st

from gametape.engine import simulate as sim
from gametape.games.hanabi import HANABI
from gametape.games.hanabi.state import MAX_CLUES, MAX_STRIKES
from tests.helpers import states

games = st.builds(
    lambda seed, n, bot: sim.play(HANABI, sim.default_players(n), bot, random.Random(seed)),
    st.integers(0, 10**6),
    st.integers(2, 5),
    st.sampled_from(["heuristic", "random"]),
)


@given(games)
def test_every_card_is_in_exactly_one_place(game):
    for s in states(game):
        deck = list(range(s.next_card, len(s.setup.deck)))
        hands = [o for h in s.hands for o in h]
        played = s.moves and [
            o for o in range(s.next_card) if o not in hands and o not in s.discards
        ]
        places = deck + hands + list(s.discards) + list(played or [])
        assert sorted(places) == list(range(50))
        assert len(played or []) == sum(s.fireworks)


@given(games)
def test_tokens_stay_in_bounds(game):
    for s in states(game):
        assert 0 <= s.clues <= MAX_CLUES
        assert 0 <= s.strikes <= MAX_STRIKES
        assert all(0 <= f <= 5 for f in s.fireworks)
        assert sum(s.fireworks) <= s.max_score <= 25


@given(games)
def test_score_is_the_fireworks_sum_unless_struck_out_or_terminated(game):
    res = HANABI.result(game.state)
    if res.outcome in ("strikeout", "terminated"):
        assert res.scores[0] == 0
    else:
        assert res.scores[0] == sum(game.state.fireworks)
    if res.outcome == "perfect":
        assert res.scores[0] == 25


@given(games)
def test_views_hide_exactly_the_viewers_own_cards(game):
    for s in states(game):
        for seat in range(s.n_players):
            v = HANABI.view(s, seat)
            for holder, hand in enumerate(v.hands):
                assert all((c.face is None) == (holder == seat) for c in hand)


@given(st.integers(0, 10**6), st.integers(2, 5))
def test_heuristic_bot_ends_by_deck_out_or_25_not_by_strikeout(seed, n):
    game = sim.play(HANABI, sim.default_players(n), "heuristic", random.Random(seed))
    assert game.result().outcome in ("normal", "perfect")


# --- Fireworks whose order the plays decide (#54): Up or Down, Sudoku ---------------------------


def _variant_games(names: tuple[str, ...], most: int) -> st.SearchStrategy:
    """Bot games of the variants ``names``, two to ``most`` players."""
    return st.builds(
        lambda seed, n, bot, name: sim.play(
            HANABI, sim.default_players(n), bot, random.Random(seed), {"variant": name}
        ),
        st.integers(0, 10**6),
        st.integers(2, most),
        st.sampled_from(["heuristic", "random"]),
        st.sampled_from(names),
    )


routed = _variant_games(("Up or Down (5 Suits)", "Up or Down & Rainbow (6 Suits)",
                         "Sudoku (5 Suits)", "Sudoku & Pink (4 Suits)"), 5)  # fmt: skip


def _ways(deck, stack: tuple[int, ...], stacks) -> list[tuple[int, ...]]:
    """Every complete firework a suit may still become, written out in full: the four of Up
    or Down, or Sudoku's round from each start no other suit took."""
    size = deck.stack_size
    if deck.routes == "up-or-down":
        full = [(1, 2, 3, 4, 5), (7, 2, 3, 4, 5), (5, 4, 3, 2, 1), (7, 4, 3, 2, 1)]
    else:
        taken = {s[0] for s in stacks if s and s is not stack}
        full = [
            tuple((k - 1 + i) % size + 1 for i in range(size))
            for k in range(1, size + 1)
            if k not in taken
        ]
    return [w for w in full if w[: len(stack)] == stack]


def _best(state) -> int:
    """The best score still reachable, by trying every way each firework can go (and in
    Sudoku every sharing of the starts): no walks, no caps."""
    deck = state.deck

    def height(suit, way) -> int:
        n = len(state.stacks[suit])
        for rank in way[n:]:
            i = deck.index(suit, rank)
            if state.lost[i] == deck.copies[i]:
                break
            n += 1
        return n

    if deck.routes == "up-or-down":
        return sum(
            max(height(s, w) for w in _ways(deck, stack, state.stacks))
            for s, stack in enumerate(state.stacks)
        )
    free = [k for k in range(1, deck.stack_size + 1) if k not in {s[0] for s in state.stacks if s}]
    waiting = [s for s, stack in enumerate(state.stacks) if not stack]
    started = sum(
        height(s, _ways(deck, stack, state.stacks)[0])
        for s, stack in enumerate(state.stacks)
        if stack
    )
    size = deck.stack_size
    return started + max(
        sum(
            height(s, tuple((k - 1 + i) % size + 1 for i in range(size)))
            for s, k in zip(waiting, starts, strict=True)
        )
        for starts in itertools.permutations(free, len(waiting))
    )


@given(routed)
def test_routed_fireworks_follow_a_way_and_the_best_score_is_every_way_s_best(game):
    best = None
    for s in states(game):
        for suit, stack in enumerate(s.stacks):
            assert s.fireworks[suit] == len(stack) and _ways(s.deck, stack, s.stacks)
        starts = [stack[0] for stack in s.stacks if stack]
        if s.deck.routes == "sudoku":
            assert len(starts) == len(set(starts))
        assert s.max_score == sum(s.caps) == _best(s) >= s.fireworks_sum
        assert best is None or s.max_score <= best  # the best reachable never grows
        best = s.max_score


# --- The mechanisms that hide or change what a move does (#54), two to six players ----------

mechanised = _variant_games(("Up or Down (5 Suits)", "Sudoku (4 Suits)", "Orange (6 Suits)",
                             "Throw It in a Hole & Orange (5 Suits)", "Cow & Pig (5 Suits)",
                             "Duck (4 Suits)", "Throw It in a Hole (6 Suits)"), 6)  # fmt: skip


@given(mechanised)
def test_in_every_mechanism_cards_are_kept_tokens_bounded_and_a_seat_never_sees_its_hand(game):
    """Every card is in the deck, a hand, a firework or the discards (or the hole); tokens
    and strikes stay in bounds; the score never passes the best still reachable, which never
    grows; and every seat's view hides its own hand, whatever the variant does to a move."""
    best = None
    for s in states(game):
        held = sum(len(h) for h in s.hands)
        assert held + s.deck_left + s.fireworks_sum + len(s.discards) == len(s.setup.deck)
        assert {o for o, _ in s.hole} <= set(range(s.next_card))
        assert 0 <= s.clues <= s.max_clues and 0 <= s.strikes <= MAX_STRIKES
        assert s.fireworks_sum <= s.max_score and (best is None or s.max_score <= best)
        best = s.max_score
        for seat in range(s.n_players):
            view = HANABI.view(s, seat)
            assert all(c.face is None for c in view.hands[seat])
            assert all(c.face is not None for h, hand in enumerate(view.hands) if h != seat
                       for c in hand)  # fmt: skip
