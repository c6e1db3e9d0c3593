"""One test (or more) per ruling in shared/rules/hanabi.md, named after it."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from gametape.engine.game import Game
from gametape.engine.options import read_options
from gametape.engine.ruleset import RuleViolation
from gametape.events.base import Abandon
from gametape.games.hanabi import HANABI
from gametape.games.hanabi.events import (
    DEFAULT_SUITS,
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiOptions,
    HanabiPlay,
    HanabiSetup,
)
from gametape.games.hanabi.state import hand_size
from tests.helpers import face, fold, hanabi, moves

# 3 players, 5 cards each: alice holds orders 0-4, bob 5-9, cara 10-14; slot 1 = newest.
ALICE = "r1 r2 r3 r4 r5"
BOB = "y1 y2 y3 y4 y5"
CARA = "g1 g2 g3 g4 g5"


def test_components_default_suits_in_order():
    assert DEFAULT_SUITS == ("red", "yellow", "green", "blue", "white")
    setup = HANABI.new_setup(["a", "b"], random.Random(1), {})
    assert setup.options.suits == DEFAULT_SUITS


def test_components_suit_names_are_part_of_the_setup():
    options = read_options("hanabi", HANABI.options, {"suits": "red,yellow,green,blue,purple"})
    setup = HANABI.new_setup(["a", "b"], random.Random(1), options)
    assert setup.options.suits[-1] == "purple"
    assert HANABI.view(HANABI.start(setup), None).suits[-1] == "purple"


def test_components_default_deck_is_the_published_50_cards():
    setup = HANABI.new_setup(["a", "b"], random.Random(1), {})
    assert len(setup.deck) == 50
    for s in range(5):
        counts = [sum(1 for f in setup.deck if f == Face(s, r)) for r in range(1, 6)]
        assert counts == [3, 2, 2, 2, 1]


def test_components_tutorial_deck_is_an_option_never_the_default():
    options = read_options("hanabi", HANABI.options, {"copies": "tutorial"})
    setup = HANABI.new_setup(["a", "b"], random.Random(1), options)
    assert len(setup.deck) == 40
    assert setup.options.copies == (1, 2, 2, 2, 1)
    assert HanabiOptions().copies == (3, 2, 2, 2, 1)


def test_components_eight_clue_tokens_not_three():
    assert hanabi().state.clues == 8


def test_components_three_strikes_end_the_game():
    g = hanabi("r2 r3 r4 r5 y2 " + BOB + " " + CARA)
    # alice misplays y2 (slot 1), then r5 (slot 2), then r4 (slot 3); she draws r1s.
    moves(
        g,
        "play 1",
        "clue alice red",
        "clue alice red",
        "play 2",
        "clue alice red",
        "clue alice red",
    )
    assert g.state.strikes == 2 and not g.is_over
    moves(g, "play 3")
    assert g.state.strikes == 3 and g.result().outcome == "strikeout"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_2_to_5_players(n):
    g = Game.new(HANABI.new_setup([f"p{i}" for i in range(n)], random.Random(n), {}))
    assert len(g.state.hands) == n


def test_setup_six_players_as_hanablive_plays_them_with_hands_of_3():
    """#54: the published game is for 2-5; hanab.live plays 2-6, six with hands of 3 (its
    RULES.md), in every variant (each is listed only if it deals six)."""
    g = Game.new(HANABI.new_setup([f"p{i}" for i in range(6)], random.Random(6), {}))
    assert [len(h) for h in g.state.hands] == [3] * 6 and g.state.deck_left == 50 - 18


@pytest.mark.parametrize("n", [1, 7])
def test_setup_refuses_other_player_counts(n):
    setup = HanabiSetup(
        players=tuple(f"p{i}" for i in range(n)),
        deck=HANABI.new_setup(["a", "b"], random.Random(0), {}).deck,
    )
    with pytest.raises(RuleViolation, match="players"):
        HANABI.start(setup)


@pytest.mark.parametrize(("n", "size"), [(2, 5), (3, 5), (4, 4), (5, 4), (6, 3)])
def test_setup_hand_size(n, size):
    assert hand_size(n) == size
    g = Game.new(HANABI.new_setup([f"p{i}" for i in range(n)], random.Random(n), {}))
    assert all(len(h) == size for h in g.state.hands)


def test_setup_deals_in_blocks_not_round_robin():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    assert g.state.hands == ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9), (10, 11, 12, 13, 14))
    view = g.view(None)
    assert [c.face for c in view.hands[1]] == [face(t) for t in reversed(BOB.split())]


def test_setup_seat_zero_starts_unless_a_starting_seat_is_named():
    assert hanabi().state.current == 0
    g = hanabi(starting_seat=2)
    assert g.state.current == 2
    with pytest.raises(RuleViolation, match="turn, not"):
        g.push(HanabiDiscard(player=0, card=0))


def test_setup_cards_are_known_by_order_and_slots_count_newest_first():
    g = hanabi(ALICE + " " + BOB)
    # alice's slot 1 is her newest card: order 4, r5.
    assert g.parse("play 1") == HanabiPlay(player=0, card=4)
    assert g.parse("play 5") == HanabiPlay(player=0, card=0)


def test_clue_needs_a_token_and_spends_one():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    moves(g, "clue bob yellow")
    assert g.state.clues == 7
    for _ in range(7):
        seat = g.state.current
        target = (seat + 1) % 3
        g.push(HanabiClue(player=seat, target=target, rank=1))
    assert g.state.clues == 0
    with pytest.raises(RuleViolation, match="no clue tokens") as exc:
        g.push(HanabiClue(player=g.state.current, target=0, rank=1))
    assert "at least one clue token" in exc.value.rule


def test_clue_names_another_player():
    g = hanabi()
    with pytest.raises(RuleViolation, match="themselves"):
        g.push(HanabiClue(player=0, target=0, rank=1))


def test_clue_names_one_suit_or_one_rank():
    g = hanabi()
    with pytest.raises(RuleViolation, match="both or neither"):
        g.push(HanabiClue(player=0, target=1, suit=0, rank=1))
    with pytest.raises(RuleViolation, match="both or neither"):
        g.push(HanabiClue(player=0, target=1))


def test_clue_touches_every_matching_card_and_tells_the_rest_by_omission():
    g = hanabi(ALICE + " y1 r1 y2 b1 y3 " + CARA)
    moves(g, "clue bob yellow")
    k = g.state.known
    touched = [o for o in range(5, 10) if k(o).clued]
    assert touched == [5, 7, 9]
    assert all(k(o).suits == (1,) for o in touched)
    # negative information: the untouched cards are known not to be yellow
    assert all(k(o).suits == (0, 2, 3, 4) for o in (6, 8))
    view = g.view(1)
    slots = {c.order: c for c in view.hands[1]}
    assert slots[6].suits == (0, 2, 3, 4) and not slots[6].clued


def test_clue_rank_knowledge():
    g = hanabi(ALICE + " y1 r1 y2 b1 y3 " + CARA)
    moves(g, "clue bob 1")
    k = g.state.known
    assert [o for o in range(5, 10) if k(o).clued] == [5, 6, 8]
    assert k(5).ranks == (1,) and k(7).ranks == (2, 3, 4, 5)


def test_a_clued_card_s_back_shows_what_its_holder_was_told():
    """#36: a card clued yellow looks yellow on its holder's board (and a 1 shows its rank),
    not a plain grey back; a card the clues say nothing certain about stays plain."""
    game = hanabi(ALICE + " y1 r1 y2 b1 y3 " + CARA)
    g = moves(game, "clue bob yellow", "clue cara 1", "clue bob 1")
    board = g.ruleset.board(g.view(1), "t")
    bob = next(zone for zone in board.zones if zone.seat == 1)
    cards = {card.key: card for card in bob.cards}
    assert all(card.back for card in cards.values())
    assert [cards[f"card {o}"].colour for o in (5, 7, 9)] == ["yellow"] * 3
    assert cards["card 6"].colour == cards["card 8"].colour == ""
    assert (cards["card 5"].text, cards["card 6"].text, cards["card 7"].text) == ("1", "1", "")
    assert "clued" in cards["card 5"].marks and cards["card 8"].text == "1"


def test_clue_must_touch_at_least_one_card():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    with pytest.raises(RuleViolation, match="touches no card") as exc:
        moves(g, "clue bob red")
    assert "at least one card" in exc.value.rule


def test_discard_only_below_eight_tokens():
    g = hanabi()
    with pytest.raises(RuleViolation, match="8 clue tokens") as exc:
        moves(g, "discard 1")
    assert "fewer than 8" in exc.value.rule


def test_discard_returns_one_token_and_draws():
    g = hanabi(ALICE + " " + BOB + " " + CARA + " w1")
    moves(g, "clue bob 1", "discard 1")
    assert g.state.clues == 8
    assert g.state.discards == (9,)
    assert g.state.hands[1] == (5, 6, 7, 8, 15)


def test_play_grows_the_firework_and_draws():
    g = hanabi(ALICE + " " + BOB + " " + CARA + " w1")
    moves(g, "play 5")  # alice plays her oldest card, r1
    assert g.state.fireworks == (1, 0, 0, 0, 0)
    assert g.state.hands[0] == (1, 2, 3, 4, 15)


def test_play_a_five_returns_a_token_below_eight():
    g = hanabi("r1 r2 r3 r4 r5 " + BOB + " " + CARA)
    moves(
        g,
        "play 5",
        "clue alice red",
        "clue alice red",
        "play 5",
        "clue alice red",
        "clue alice red",
        "play 5",
        "clue alice red",
        "clue alice red",
        "play 5",
    )
    clues = g.state.clues
    moves(g, "clue alice red", "clue alice red", "play 5")
    assert g.state.fireworks[0] == 5
    assert g.state.clues == clues - 2 + 1


def test_play_a_five_at_eight_tokens_returns_nothing():
    # Two players; alice holds r1..r5 and plays them while bob discards back to 8 tokens.
    g = hanabi("r1 r2 r3 r4 r5 y1 y2 y3 y4 y5", players=("alice", "bob"))
    moves(
        g,
        "play 5",
        "clue alice red",
        "play 5",
        "discard 5",
        "play 5",
        "clue alice red",
        "play 5",
        "discard 5",
    )
    assert g.state.clues == 8
    moves(g, "play 5")
    assert g.state.fireworks[0] == 5 and g.state.clues == 8


def test_misplay_is_a_strike_and_the_card_is_discarded():
    g = hanabi("r2 r3 r4 r5 y2 " + BOB + " " + CARA)
    moves(g, "play 1")  # y2 on an empty yellow
    assert g.state.strikes == 1
    assert g.state.discards == (4,)
    assert g.state.fireworks == (0,) * 5
    assert len(g.state.hands[0]) == 5  # drew


def test_empty_deck_draws_nothing_and_the_hand_shrinks():
    g = hanabi(players=("alice", "bob"))
    while g.state.deck_left:
        seat = g.state.current
        g.push(
            HanabiClue(
                player=seat,
                target=1 - seat,
                suit=None,
                rank=g.view(None).hands[1 - seat][0].face.rank,
            )
            if g.state.clues == 8
            else HanabiDiscard(player=seat, card=g.state.hands[seat][0])
        )
    seat = g.state.current
    g.push(
        HanabiDiscard(player=seat, card=g.state.hands[seat][0])
        if g.state.clues < 8
        else HanabiPlay(player=seat, card=g.state.hands[seat][0])
    )
    assert len(g.state.hands[seat]) == 4


def test_third_strike_scores_zero_but_reports_the_fireworks_sum():
    g = hanabi("r1 y2 y3 y4 y5 b1 b2 b3 b4 b5 " + CARA)
    # r1 scores; then two r1 duplicates (drawn into slot 1) and y5 strike out.
    moves(g, "play 5", "clue alice yellow", "clue alice yellow")
    moves(
        g,
        "play 1",
        "clue alice yellow",
        "clue alice yellow",
        "play 1",
        "clue alice yellow",
        "clue alice yellow",
        "play 2",
    )
    res = g.result()
    assert res.outcome == "strikeout"
    assert res.scores == (0, 0, 0)
    assert res.details["fireworks_sum"] == 1


def test_deck_exhausted_everyone_including_the_drawer_takes_one_more_turn():
    g = hanabi(players=("alice", "bob", "cara"))
    # discard/clue until the deck is empty, counting the moves after the last draw
    while g.state.deck_left:
        seat = g.state.current
        if g.state.clues < 8:
            g.push(HanabiDiscard(player=seat, card=g.state.hands[seat][0]))
        else:
            g.push(g.legal_moves(seat)[-1])
    drawer = (g.state.current - 1) % 3
    assert g.state.final_turns == 3
    extra = []
    while not g.is_over:
        seat = g.state.current
        extra.append(seat)
        g.push(next(m for m in g.legal_moves(seat) if not isinstance(m, HanabiPlay)))
    assert len(extra) == 3
    assert extra[-1] == drawer
    assert g.result().outcome == "normal"


def test_all_fireworks_complete_ends_at_once_perfect():
    # The 25 needed cards come first, so both players just play their oldest card.
    needed = " ".join(f"{s}{r}" for s in "rygbw" for r in range(1, 6))
    g = hanabi(needed, players=("alice", "bob"))
    while not g.is_over:
        moves(g, "play 5")
    assert g.result().outcome == "perfect"
    assert g.result().scores == (25, 25)
    assert g.state.moves == 25 and g.state.deck_left == 15  # at once, not at deck-out


def test_abandoned_game_is_terminated_with_score_zero():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    moves(g, "play 5")
    g.push(Abandon(player=1))
    res = g.result()
    assert res.outcome == "terminated" and res.scores == (0, 0, 0)
    assert res.details["fireworks_sum"] == 1
    with pytest.raises(RuleViolation, match="abandoned at seq 2"):
        moves(g, "clue alice 2")


def test_score_is_the_sum_of_fireworks():
    g = hanabi("r1 y1 g1 r2 w2 " + BOB + " " + CARA)
    moves(
        g,
        "play 5",
        "clue alice 1",
        "clue alice 1",
        "play 4",
        "clue alice 1",
        "clue alice 1",
        "play 5",
    )
    assert g.state.fireworks == (1, 1, 1, 0, 0) and g.state.score == 3


def test_max_score_falls_when_every_copy_of_a_needed_card_is_lost():
    g = hanabi("r1 r1 r1 y1 y1 b5 b4 b3 b2 b1 g5 g4 g3 g2 g1")
    moves(g, "clue bob 1", "clue alice 1", "clue alice 1", "discard 5")
    assert g.state.max_score == 25
    moves(
        g,
        "clue alice red",
        "clue alice red",
        "discard 5",
        "clue alice red",
        "clue alice red",
        "discard 5",
    )
    assert g.state.lost[0] == 3 and g.state.max_score == 20


# Three suits with one copy of ranks 2-5: discarding r2, y2 and g2 caps the score at 3.
SMALL = {"suits": ("red", "yellow", "green"), "copies": (2, 1, 1, 1, 1)}
SMALL_TOP = "r1 y1 g1 r3 y3 r2 y2 g2 r4 y4"
SMALL_MOVES = (
    "clue bob 2",
    "discard 3",
    "clue bob 2",
    "discard 5",
    "clue bob 4",
    "discard 5",
    "play 5",
    "clue alice 1",
    "play 5",
    "clue alice 1",
    "play 5",
)


def test_end_at_max_score_ends_when_the_best_reachable_score_is_reached():
    g = hanabi(SMALL_TOP, players=("alice", "bob"), end_at_max_score=True, **SMALL)
    moves(g, *SMALL_MOVES)
    assert g.state.max_score == 3 and g.state.fireworks_sum == 3 and g.state.deck_left > 0
    assert g.result().outcome == "normal" and g.result().scores == (3, 3)


def test_end_at_max_score_is_off_by_default():
    assert HanabiOptions().end_at_max_score is False
    g = hanabi(SMALL_TOP, players=("alice", "bob"), **SMALL)
    moves(g, *SMALL_MOVES)
    assert g.state.max_score == 3 and g.state.fireworks_sum == 3
    assert not g.is_over


def test_a_game_in_progress_is_a_valid_log():
    from gametape.engine.validate import validate
    from gametape.events.log import LogRead

    g = hanabi(ALICE + " " + BOB + " " + CARA)
    moves(g, "play 5")
    from gametape.events.codec import Record

    read = LogRead(
        path=Path("test.jsonl"),  # the file of the game called "test"
        records=[Record(1, i, "t", e) for i, e in enumerate(g.events)],
    )
    report, _ = validate(read)
    assert report.status == "in_progress" and report.problem is None


def test_information_a_player_never_sees_their_own_hand():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    view = g.view(0)
    assert all(c.face is None for c in view.hands[0])
    assert all(c.face is not None for c in view.hands[1] + view.hands[2])
    assert all(c.face is not None for h in g.view(None).hands for c in h)


def test_information_view_shows_tokens_deck_fireworks_discards_and_turn():
    g = hanabi("r1 r1 r3 r4 r5 " + BOB + " " + CARA)
    moves(g, "play 5", "clue alice 1", "clue alice 1", "play 5")  # the second r1 misplays
    view = g.view(2)
    assert view.fireworks[0] == 1 and view.strikes == 1
    assert view.discards == (Face(0, 1),)
    assert view.clues == 6 and view.deck == 50 - 15 - 2 and view.current == 1


def test_log_derives_outcomes_and_a_contradicting_observation_is_an_error():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    with pytest.raises(RuleViolation, match="log records") as exc:
        g.push(HanabiPlay(player=0, card=0, face=Face(1, 1)))
    assert "must agree with what it showed" in exc.value.rule
    g.push(HanabiPlay(player=0, card=0, face=Face(0, 1)))  # agrees: fine
    with pytest.raises(RuleViolation, match="touches"):
        g.push(HanabiClue(player=1, target=2, suit=2, touched=(10,)))


def test_unknown_faces_are_revealed_by_the_event_that_shows_them():
    setup = HanabiSetup(players=("alice", "bob"), deck=(None,) * 50, table=True)
    g = Game.new(setup)
    with pytest.raises(
        RuleViolation, match=r"say which card it was: the face of alice.s slot 5 is not known yet"
    ):
        g.push(HanabiPlay(player=0, card=0))
    g.push(HanabiPlay(player=0, card=0, face=Face(3, 1)))
    assert g.state.fireworks[3] == 1 and g.state.faces[0] == Face(3, 1)
    with pytest.raises(RuleViolation, match="must record the cards"):
        g.push(HanabiClue(player=1, target=0, rank=2))
    g.push(HanabiClue(player=1, target=0, rank=2, touched=(1, 3)))
    assert g.state.known(1).clued and not g.state.known(2).clued


def test_out_of_turn_and_unknown_seat_and_card_not_in_hand():
    g = hanabi()
    with pytest.raises(RuleViolation, match=r"it is alice.s turn, not bob.s"):
        g.push(HanabiClue(player=1, target=0, rank=1))
    with pytest.raises(RuleViolation, match="no player at seat 7"):
        g.push(HanabiPlay(player=7, card=0))
    with pytest.raises(RuleViolation, match="not in alice's hand"):
        g.push(HanabiPlay(player=0, card=12))


def test_apply_never_mutates_the_state_it_is_given():
    g = hanabi(ALICE + " " + BOB + " " + CARA)
    before = g.state
    snapshot = msgspec.json.encode(before)  # bytes: a copy, not the same objects again
    moves(g, "clue bob 1", "play 5")
    assert g.state != before and msgspec.json.encode(before) == snapshot
    assert fold(g.events) == g.state


def test_a_seats_moves_are_offered_slot_1_first():
    """#49: a phone's buttons read "play 5 … play 1" (the hand, oldest card first); a dealt
    game's moves are offered play 1 to play 5, then the discards, then the clues."""
    g = Game.new(HANABI.new_setup(["ann", "ben"], random.Random(1), {}))
    shown = [f.shown for f in HANABI.move_forms(g.state, 0)]
    assert shown[:5] == ["play 1", "play 2", "play 3", "play 4", "play 5"]
    assert all(s.startswith("clue") for s in shown[5:])
    moves(g, "clue ben 2")
    assert [f.shown for f in HANABI.move_forms(g.state, 1)][5:10] == [
        f"discard {n}" for n in range(1, 6)
    ]


def test_a_seats_own_hand_says_how_its_slots_are_counted():
    """#49: a phone's buttons said "play 1" while the hand showed no slot numbers."""
    g = Game.new(HANABI.new_setup(["ann", "ben"], random.Random(1), {}))
    zones = {z.title: z for z in HANABI.board(g.view(0), "").zones}
    assert zones["ann (you)"].text == "slots 1-5 from the left"
    assert zones["ben"].text == ""
    assert all(z.text == "" for z in HANABI.board(g.view(None), "").zones if z.seat is not None)


def _first_wrong(deck: tuple[Face | None, ...], copies: tuple[int, ...]) -> Face | None:
    """The definition ``cards.deal_problem`` is held to: the first card, in the deck's order,
    that is no card of 5 suits of ranks 1-5 or one more of its face than its copies."""
    counts: Counter[Face] = Counter()
    for f in deck:
        if f is None:
            continue
        if not (0 <= f.suit < 5 and 1 <= f.rank <= 5) or counts[f] == copies[f.rank - 1]:
            return f
        counts[f] += 1
    return None


def test_a_deal_is_refused_at_the_first_face_that_is_wrong():
    """A deck holds only the game's cards, each face at most as often as the game has copies
    of it (R_SETUP): the face named is the first card's that is wrong, in the deck's order (a
    card the deck has none of is named so, a face too often by its count)."""
    full = HANABI.new_setup(["ann", "ben"], random.Random(1), {})
    rng = random.Random(2)
    for _ in range(300):
        deck = list(full.deck)
        for _ in range(rng.randrange(1, 4)):  # one to three cards changed
            deck[rng.randrange(len(deck))] = rng.choice(
                [Face(rng.randrange(5), rng.randrange(1, 6)), Face(rng.choice([-1, 5, 9]), 1),
                 Face(0, rng.choice([0, 6, 99])), None]
            )  # fmt: skip
        setup = msgspec.structs.replace(full, deck=tuple(deck), table=None in deck)
        wrong = _first_wrong(setup.deck, setup.options.copies)
        if wrong is None:
            HANABI.start(setup)
            continue
        with pytest.raises(RuleViolation) as refused:
            HANABI.start(setup)
        said = str(refused.value)
        if 0 <= wrong.suit < 5 and 1 <= wrong.rank <= 5:
            c = setup.deck.count(wrong)
            assert f"the deck holds {c} copies of {full.options.suits[wrong.suit]} " in said
        else:
            assert f"no card [{wrong.suit}, {wrong.rank}] in this deck" in said, said
