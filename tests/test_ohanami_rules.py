"""One test per ruling in shared/rules/ohanami.md, and scoring worked by hand."""

from __future__ import annotations

import random

import pytest

from gametape.engine import simulate as sim
from gametape.engine.game import Game
from gametape.engine.ruleset import RuleViolation
from gametape.games.ohanami import OHANAMI
from gametape.games.ohanami.events import OhanamiDeal, OhanamiPick, OhanamiSetup
from gametape.games.ohanami.rules import (
    colour,
    deal_size,
    fitting_rows,
    pass_direction,
    row_bonus,
    score_rows,
)
from tests.helpers import ohanami, pick


def test_r1_colour_follows_the_number_modulo_3():
    assert [colour(n) for n in (1, 2, 3, 4, 5, 6, 70, 71, 72)] == [
        "green",
        "red",
        "blue",
        "green",
        "red",
        "blue",
        "green",
        "red",
        "blue",
    ]
    assert sum(colour(n) == "green" for n in range(1, 73)) == 24


def test_r2_cards_1_to_3_leave_the_deck_and_rows_start_with_markers():
    g = Game.new(OhanamiSetup(players=("a", "b")))
    assert sorted(g.state.deck) == list(range(4, 73))  # 69 cards
    assert fitting_rows(((), (), ()), 2) == [1]  # 2 > marker 1 only
    assert fitting_rows(((), (), ()), 4) == [1, 2, 3]
    # markers do not count toward a row's length: four cards on a marker earn no bonus
    assert score_rows(((4, 7, 10, 13), (), ()), 1) == 4 and row_bonus(4) == 0


def test_r3_each_round_the_deck_is_every_card_not_in_a_row():
    g = sim.play(OHANAMI, ["a", "b"], "greedy", random.Random(3))
    state = OHANAMI.start(g.setup)
    for event in g.events[1:]:
        if isinstance(event, OhanamiDeal):
            in_rows = {c for rows in state.rows for row in rows for c in row}
            assert sorted(event.deck) == sorted(set(range(4, 73)) - in_rows)
        state = OHANAMI.apply(state, event)
    deals = [e for e in g.events if isinstance(e, OhanamiDeal)]
    assert [d.round for d in deals] == [1, 2, 3]


def test_r3_a_deal_that_is_not_every_card_outside_the_rows_is_refused():
    g = Game.new(OhanamiSetup(players=("a", "b")))
    with pytest.raises(RuleViolation, match="R3"):
        g.push(OhanamiDeal(round=1, deck=tuple(range(4, 72))))
    with pytest.raises(RuleViolation, match="round 2 where round 1"):
        g.push(OhanamiDeal(round=2, deck=tuple(range(4, 73))))


def test_r3_discards_come_back_at_the_next_shuffle():
    g = sim.play(OHANAMI, ["a", "b", "c"], "random", random.Random(1))
    state = OHANAMI.start(g.setup)
    for event in g.events[1:]:
        if isinstance(event, OhanamiDeal) and event.round > 1:
            assert state.discards and set(state.discards) <= set(event.deck)
        state = OHANAMI.apply(state, event)


def test_deal_three_cards_to_each_player_seat_by_seat():
    g = ohanami(("a", "b", "c"))
    assert g.state.hands == ((4, 5, 6), (7, 8, 9), (10, 11, 12))
    assert g.state.deck[0] == 13 and len(g.state.deck) == 69 - 9


def test_a_short_deck_deals_each_player_the_same_number():
    assert deal_size(69, 4) == 3 and deal_size(10, 4) == 2 and deal_size(3, 4) == 0


def test_a_placed_card_goes_at_the_end_of_a_row_whose_last_value_is_lower():
    g = ohanami()
    pick(g, 0, 5, 2)
    pick(g, 1, 8, 1)
    assert g.state.rows[0] == ((), (5,), ()) and g.state.rows[1] == ((8,), (), ())


def test_a_row_whose_last_value_is_not_lower_is_refused():
    g = ohanami()  # alice holds 4 5 6, bob 7 8 9
    pick(g, 0, 6, 1)
    pick(g, 1, 9, 1)
    assert g.state.hands[1] == (4, 5, 11)  # alice's 4 and 5 passed left, then a draw
    with pytest.raises(RuleViolation, match="row 1 ends at 9, which is not lower than 5") as exc:
        pick(g, 1, 5, 1)
    assert "last value is lower" in exc.value.rule
    with pytest.raises(RuleViolation, match="no row 4"):
        pick(g, 1, 5, 4)


def test_r4_a_card_that_fits_a_row_cannot_be_discarded():
    g = ohanami()
    with pytest.raises(RuleViolation, match="fits row 1") as exc:
        pick(g, 0, 5, None)
    assert "R4" in exc.value.rule


def test_r4_a_card_that_fits_no_row_is_discarded():
    from msgspec.structs import replace

    g = ohanami()
    full = replace(
        g.state,
        rows=(((72,), (71,), (70,)), g.state.rows[1]),
        hands=((10, 11, 12), g.state.hands[1]),
    )
    assert OHANAMI.legal_moves(full, 0) == [OhanamiPick(player=0, card=c) for c in (10, 11, 12)]
    with pytest.raises(RuleViolation, match="not lower"):
        OHANAMI.apply(full, OhanamiPick(player=0, card=10, row=1))
    after = OHANAMI.apply(full, OhanamiPick(player=0, card=10))
    after = OHANAMI.apply(after, OhanamiPick(player=1, card=7, row=1))
    assert after.discards == (10,)


def test_the_player_chooses_the_row_when_several_fit():
    g = ohanami()
    assert OHANAMI.legal_moves(g.state, 0)[:3] == [
        OhanamiPick(player=0, card=4, row=r) for r in (1, 2, 3)
    ]


def test_picks_may_arrive_in_any_order_and_resolve_when_all_are_in():
    a, b = ohanami(("a", "b", "c")), ohanami(("a", "b", "c"))
    for seat in (0, 1, 2):
        pick(a, seat, a.state.hands[seat][0], 1)
    for seat in (2, 0, 1):
        pick(b, seat, b.state.hands[seat][0], 1)
    assert a.state == b.state and a.state.turn == 2


def test_a_second_pick_in_a_turn_is_refused():
    g = ohanami()
    pick(g, 0, 4, 1)
    with pytest.raises(RuleViolation, match="already moved this step") as exc:
        pick(g, 0, 5, 1)
    assert "each player moves once" in exc.value.rule


def test_a_card_not_in_the_hand_is_refused():
    g = ohanami()
    with pytest.raises(RuleViolation, match="40 is not in alice's hand"):
        pick(g, 0, 40, 1)


def _one_turn(state):
    """Every seat picks its first legal move; return (hands before, state after)."""
    hands = state.hands
    for seat in range(state.n_players):
        state = OHANAMI.apply(state, OHANAMI.legal_moves(state, seat)[0])
    return hands, state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_passing_left_in_spring_and_summer_right_in_autumn(n):
    from msgspec.structs import replace

    assert [pass_direction(r) for r in (1, 2, 3)] == [1, 1, -1]
    g = ohanami(tuple("abcd"[:n]))
    for round_, giver_of in (
        (1, lambda s: (s - 1) % n),
        (2, lambda s: (s - 1) % n),
        (3, lambda s: (s + 1) % n),
    ):
        hands, after = _one_turn(replace(g.state, round=round_))
        for seat in range(n):
            kept = hands[giver_of(seat)][1:]  # the first card was picked
            assert set(kept) <= set(after.hands[seat]), (round_, seat)


def test_each_player_draws_one_in_seat_order_while_the_deck_lasts():
    g = ohanami(("a", "b", "c"))
    top = g.state.deck[:3]
    for seat in range(3):
        pick(g, seat, g.state.hands[seat][0], 1)
    for seat in range(3):
        assert top[seat] in g.state.hands[seat]
    assert len(g.state.hands[0]) == 3


def test_r5_once_the_deck_cannot_give_everyone_a_card_nobody_draws_and_the_round_ends():
    g = sim.play(OHANAMI, ["a", "b", "c"], "random", random.Random(7))
    state = OHANAMI.start(g.setup)
    short_turns = 0
    for event in g.events[1:]:
        before = state
        state = OHANAMI.apply(state, event)
        resolved = isinstance(event, OhanamiPick) and state.turns > before.turns
        if resolved and before.round == 1 and len(before.deck) < 3:
            short_turns += 1
            assert state.deck == before.deck  # nobody drew
            assert sum(map(len, state.hands)) == sum(map(len, before.hands)) - 3
    assert short_turns == 3  # hands of 3 run down to empty, then spring is scored
    assert len(state.scores) == 3


def test_r5_cards_left_in_the_deck_return_to_the_next_shuffle():
    g = sim.play(OHANAMI, ["a", "b"], "greedy", random.Random(2))
    state = OHANAMI.start(g.setup)
    for event in g.events[1:]:
        if isinstance(event, OhanamiDeal) and event.round == 2:
            assert state.deck and set(state.deck) <= set(event.deck)
        state = OHANAMI.apply(state, event)


# Scoring worked by hand ----------------------------------------------------------------


def test_scoring_season_colour_points():
    rows = ((4, 5, 6), (7, 8), (9,))  # greens: 4, 7; reds: 5, 8; blues: 6, 9
    assert score_rows(rows, 1) == 2  # spring: green 4 and 7
    assert score_rows(rows, 2) == 2  # summer: red 5 and 8
    assert score_rows(rows, 3) == 2  # autumn: blue 6 and 9


def test_scoring_five_card_bonus():
    row = (4, 6, 9, 12, 15)  # greens: 4; blues: 6, 9, 12, 15
    assert score_rows((row, (), ()), 1) == 1 + 2
    assert score_rows((row, (), ()), 3) == 4 + 2


def test_scoring_seven_card_bonus_replaces_the_five_card_bonus():
    row = (4, 5, 7, 8, 10, 11, 13)  # greens: 4, 7, 10, 13
    assert score_rows((row, (), ()), 1) == 4 + 5
    assert row_bonus(6) == 2 and row_bonus(7) == 5 and row_bonus(12) == 5


def test_scoring_a_row_earns_its_bonus_again_in_a_later_round():
    row = (5, 8, 11, 14, 17)  # all red
    assert score_rows((row, (), ()), 2) == 5 + 2
    assert score_rows((row, (), ()), 3) == 0 + 2


def test_scoring_markers_are_not_counted():
    assert score_rows(((4, 5, 6, 7), (8,), ()), 1) == 2  # 4 and 7 green; no bonus at 4 cards


def test_each_rounds_points_are_recorded_and_the_highest_total_wins():
    g = sim.play(OHANAMI, ["a", "b", "c"], "greedy", random.Random(5))
    res = g.result()
    assert len(res.details["rounds"]) == 3
    totals = [sum(r[s] for r in res.details["rounds"]) for s in range(3)]
    assert list(res.scores) == totals
    assert res.winners == tuple(s for s in range(3) if totals[s] == max(totals))


def test_equal_highest_totals_share_the_win():
    from msgspec.structs import replace

    g = sim.play(OHANAMI, ["a", "b"], "greedy", random.Random(5))
    tied = replace(g.state, scores=((3, 3), (4, 4), (5, 5)))
    res = OHANAMI.result(tied)
    assert res.outcome == "shared" and res.winners == (0, 1)


def test_three_rounds_then_the_end():
    g = sim.play(OHANAMI, ["a", "b"], "random", random.Random(9))
    assert g.is_over and g.state.round == 3 and len(g.state.scores) == 3
    with pytest.raises(RuleViolation, match="over"):
        g.push(OhanamiPick(player=0, card=4, row=1))


def test_notation_round_trip_and_errors():
    from gametape.engine.ruleset import NotationError

    g = ohanami(("alice", "bob"))
    assert g.parse("pick bob 8 row=2") == OhanamiPick(player=1, card=8, row=2)
    assert g.parse("pick alice 5 discard") == OhanamiPick(player=0, card=5)
    assert OHANAMI.notation(g.state, OhanamiPick(player=1, card=8, row=2)) == "pick bob 8 row=2"
    with pytest.raises(NotationError, match="row=1"):
        g.parse("pick bob 8 row2")


def test_view_never_shows_another_hand_or_a_pick_before_the_turn_resolves():
    g = ohanami(("alice", "bob", "cara"))
    pick(g, 0, 4, 1)
    v = g.view(1)
    assert v.gardens[0].hand is None and v.gardens[0].picked and v.gardens[0].pick is None
    assert v.gardens[1].hand == g.state.hands[1]
    assert g.view(0).gardens[0].pick == (4, 1)
    pick(g, 1, 7, 1)
    pick(g, 2, 10, 1)
    v = g.view(1)
    assert v.gardens[0].rows[0] == (4,)  # rows are public once the turn resolves
    assert v.deck == len(g.state.deck)


def test_the_deal_line_says_how_many_cards_each_player_got_r6():
    """A short deck deals fewer than 3 (ruling R6); the description says so, not always 3."""
    import random

    from gametape.engine import simulate as sim
    from gametape.engine.game import describe

    seen = set()
    for seed in range(30):
        game = sim.play(OHANAMI, ["a", "b", "c", "d"], "greedy", random.Random(seed))
        states = game.fold.states
        for seq, event in enumerate(game.events):
            if isinstance(event, OhanamiDeal):
                after = states[seq]
                dealt = len(after.hands[0]) if after.in_round else 0
                line = str(describe(OHANAMI, game.players, states[seq - 1], event, after))
                assert f"{dealt} dealt to each player" in line, line
                seen.add(dealt)
    assert 3 in seen and seen - {3}, seen  # short decks happen with 4 players


def test_at_a_table_a_pick_is_never_refused_for_another_players_secret_pick():
    """#34: at a table, ben's pick of 40 was refused because alice's secret pick of this turn
    was 40 ("already picked this round (at seq 2)"), which told ben her pick. Now ben's pick
    is taken, and the clash is refused when the turn's picks are shown, to the one whose
    pick shows them all."""
    from gametape.engine.game import Game
    from gametape.games.ohanami.events import OhanamiDeal, OhanamiSetup

    game = Game.new(OhanamiSetup(game="t", players=("alice", "bob", "cat"), table=True))
    game.push(OhanamiDeal(round=1, deck=None))
    pick(game, 0, 40, 1)
    pick(game, 1, 40, 1)  # bob cannot know: taken
    with pytest.raises(RuleViolation, match="40 was picked by alice and by bob this turn"):
        pick(game, 2, 12, 1)
    assert game.to_act() == (2,)  # nothing resolved: the table takes a pick back
