"""One test per ruling and per perform-zone case in shared/rules/hanamikoji.md."""

from __future__ import annotations

import random

import pytest

from gametape.engine.ruleset import RuleViolation
from gametape.games.hanamikoji import HANAMIKOJI
from gametape.games.hanamikoji.events import ARTISTS, HanamikojiAssign, HanamikojiSetup
from gametape.games.hanamikoji.rules import artist_of, decide
from tests.helpers import assign, hanamikoji

BLUE, GREEN, ORANGE, RED, INDIGO = 4, 3, 1, 0, 5  # artist indices (value = index + 1)


def test_components_seven_artists_valued_1_to_7_in_colour_order():
    assert ARTISTS == ("red", "orange", "yellow", "green", "blue", "indigo", "violet")


def test_components_artist_k_has_performers_k_and_k_plus_7():
    for k in range(1, 8):
        assert artist_of(k) == artist_of(k + 7) == k - 1


def test_r1_each_players_deck_is_the_full_set_of_14():
    setup = HANAMIKOJI.new_setup(["a", "b"], random.Random(1), {})
    assert [sorted(d) for d in setup.decks] == [list(range(1, 15))] * 2
    with pytest.raises(RuleViolation, match="R1"):
        HANAMIKOJI.start(
            HanamikojiSetup(players=("a", "b"), decks=((1, 2, 3, 4, 5, 6, 7),) * 2, first=0)
        )


def test_r2_start_with_two_in_hand_three_on_display_then_six_at_the_first_action():
    deck = (9, 2, 14, 3, 7, 1, 5, 11, 12, 4, 6, 8, 10, 13)
    g = hanamikoji((deck, deck))
    s = g.state
    # hand: 9, 2 (the start) + 1 (drawn) + 14, 3, 7 (the display); display refilled: 5, 11, 12
    assert s.hands[0] == (1, 2, 3, 7, 9, 14)
    assert s.displays[0] == (5, 11, 12) and s.decks[0] == (4, 6, 8, 10, 13)


def test_r2_every_card_of_both_decks_is_used_exactly():
    g = _play_three_rounds()
    s = g.state
    assert s.decks == ((), ()) and s.displays == ((), ())
    for seat in (0, 1):
        used = (
            s.votes[seat]
            + s.hidden[seat]
            + s.sacrificed[seat]
            + s.captures[seat]
            + s.set_aside[seat]
        )
        assert sorted(used) == list(range(1, 15))


def test_r3_two_leftover_cards_carry_over_to_the_next_round():
    g = hanamikoji()
    assign(g, 0, 6, 1, 2, 3)
    assign(g, 1, 6, 1, 2, 3)
    assert g.state.hands[0] == (4, 5, 7, 8, 9, 10)  # 4 and 5 kept, 7-10 new
    assert len(g.state.hands[1]) == 6


def test_r3_leftovers_after_round_three_are_set_aside_unscored():
    g = _play_three_rounds()
    assert all(len(a) == 2 for a in g.state.set_aside)
    assert g.state.hands == ((), ())
    s = g.state
    for seat in (0, 1):
        owned = sum(a + 1 for a, o in enumerate(s.owners) if o == seat)
        assert s.score(seat) == owned + len(s.votes[seat]) - len(s.hidden[seat])


def _play_three_rounds():
    g = hanamikoji()
    assign(g, 0, 5, 1, 2, 3)
    assign(g, 1, 4, 1, 2, 3)
    assign(g, 0, 4, 6, 7, 8)
    assign(g, 1, 9, 5, 7, 8)
    assign(g, 0, 12, 13, 14, 9)
    assign(g, 1, 11, 13, 14, 12)
    assert g.is_over
    return g


def test_hands_hold_exactly_six_cards_at_each_action_phase():
    g = hanamikoji()
    for r, moves in enumerate(
        [
            ((6, 1, 2, 3), (6, 1, 2, 3)),
            ((7, 8, 9, 10), (7, 8, 9, 10)),
            ((11, 12, 13, 14), (11, 12, 13, 14)),
        ],
        start=1,
    ):
        assert g.state.round == r and [len(h) for h in g.state.hands] == [6, 6]
        assign(g, 0, *moves[0])
        assert [len(h) for h in g.state.hands] == [6, 6]  # secret: still in hand
        assign(g, 1, *moves[1])


def test_perform_unowned_artist_is_captured():
    g = hanamikoji()
    assign(g, 0, 5, 1, 2, 3)
    assign(g, 1, 6, 1, 2, 3)
    assert g.state.owners[BLUE] == 0 and g.state.owners[INDIGO] == 1
    assert g.state.captures == ((5,), (6,))
    assert g.state.rounds[0].captured == (BLUE, INDIGO)


def test_perform_owned_artist_becomes_a_vote():
    g = hanamikoji()
    assign(g, 0, 5, 1, 2, 3)  # alice captures blue in round 1
    assign(g, 1, 4, 1, 2, 3)
    assign(g, 0, 7, 4, 8, 9)  # alice captures violet
    assign(g, 1, 5, 6, 7, 8)  # bob's blue5: blue is alice's → a vote
    assert g.state.owners[BLUE] == 0
    assert 5 in g.state.votes[1] and g.state.rounds[1].captured[1] is None


def test_perform_same_artist_different_numbers_higher_captures_lower_votes():
    g = hanamikoji(((12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14), tuple(range(1, 15))))
    assert 12 in g.state.hands[0] and 5 in g.state.hands[1]
    assign(g, 0, 12, 1, 2, 3)  # blue12
    assign(g, 1, 5, 1, 2, 3)  # blue5
    assert g.state.owners[BLUE] == 0
    assert g.state.captures == ((12,), ())
    assert 5 in g.state.votes[1]


def test_perform_the_very_same_card_on_both_sides_two_votes_nobody_captures():
    g = hanamikoji()
    assign(g, 0, 5, 1, 2, 3)
    assign(g, 1, 5, 1, 2, 3)
    assert g.state.owners[BLUE] is None
    assert g.state.votes == ((5, 3), (5, 3))
    assert g.state.rounds[0].captured == (None, None)


def test_perform_higher_number_resolves_first_whoever_assigned_first():
    for order in ((0, 1), (1, 0)):
        g = hanamikoji((tuple(range(1, 15)), (8, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14)))
        moves = {0: (1, 2, 3, 4), 1: (8, 1, 2, 3)}  # alice red1, bob red8
        for seat in order:
            assign(g, seat, *moves[seat])
        assert g.state.owners[RED] == 1, order
        assert 1 in g.state.votes[0]


def test_perform_owned_by_the_performer_resolved_just_before():
    # alice red8 resolves first and captures red; bob's red1 finds red owned by alice
    g = hanamikoji(((8, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14), tuple(range(1, 15))))
    assign(g, 1, 1, 2, 3, 4)
    assign(g, 0, 8, 1, 2, 3)
    assert g.state.owners[RED] == 0 and g.state.votes[1] == (1, 4)


def test_vote_hidden_and_sacrifice_zones():
    g = hanamikoji()
    assign(g, 0, 6, 1, 2, 3)
    assign(g, 1, 6, 4, 5, 1)
    s = g.state
    assert s.votes[0] == (6, 3) and s.hidden[0] == (1,) and s.sacrificed[0] == (2,)
    assert s.votes[1] == (6, 1) and s.hidden[1] == (4,) and s.sacrificed[1] == (5,)


def test_the_two_assignments_may_arrive_in_either_order():
    a = hanamikoji()
    assign(a, 0, 6, 1, 2, 3)
    assign(a, 1, 4, 1, 2, 3)
    b = hanamikoji()
    assign(b, 1, 4, 1, 2, 3)
    assign(b, 0, 6, 1, 2, 3)
    assert a.state.owners == b.state.owners and a.state.votes == b.state.votes


def test_the_starting_player_alternates():
    g = hanamikoji(first=1)
    seen = []
    for moves in ((6, 1, 2, 3), (7, 8, 9, 10), (11, 12, 13, 14)):
        seen.append(g.state.starting)
        assign(g, 0, *moves)
        assign(g, 1, *moves)
    assert seen == [1, 0, 1]
    assert [r.starting for r in g.state.rounds] == [1, 0, 1]


def test_scoring_artist_values_plus_votes_minus_hidden():
    g = hanamikoji()
    assign(g, 0, 6, 1, 2, 3)  # alice: indigo (6), vote 3, hidden 1
    assign(g, 1, 5, 1, 2, 3)  # bob: blue (5)
    assign(g, 0, 7, 4, 8, 9)  # alice: violet (7)
    assign(g, 1, 10, 4, 7, 8)  # bob: yellow (3)
    assign(g, 0, 11, 12, 13, 14)  # alice: green (4)
    assign(g, 1, 12, 11, 13, 14)  # bob: blue12 → blue is his → vote
    res = g.result()
    assert res.scores == (6 + 7 + 4 + 3 - 3, 5 + 3 + 4 - 3)
    assert res.outcome == "win" and res.winners == (0,)
    assert res.details["decided_by"] == "score"


def test_tie_break_more_artists_owned():
    res = _play_three_rounds().result()
    # alice: blue (5) + 5 votes - 3 = 7; bob: green (4) + orange (2) + 4 votes - 3 = 7
    assert res.scores == (7, 7)
    assert res.details["artists"] == [1, 2]
    assert res.winners == (1,) and res.details["decided_by"] == "artists"


def test_tie_break_fewer_hidden_cards():
    assert decide((7, 7), (2, 2), (1, 2)) == (0, "hidden")
    assert decide((7, 7), (2, 2), (3, 2)) == (1, "hidden")


def test_tie_break_then_a_draw():
    g = hanamikoji()
    for moves in ((6, 1, 2, 3), (7, 8, 9, 10), (11, 12, 13, 14)):
        assign(g, 0, *moves)
        assign(g, 1, *moves)  # the same card every time: nobody captures
    res = g.result()
    assert res.outcome == "draw" and res.winners == () and res.details["decided_by"] == "draw"
    assert decide((5, 5), (1, 1), (3, 3)) == (None, "draw")


def test_the_game_ends_after_three_rounds():
    g = _play_three_rounds()
    assert g.state.rounds[-1].round == 3 and g.is_over
    with pytest.raises(RuleViolation, match="over"):
        assign(g, 0, 9, 10, 11, 12)


@pytest.mark.parametrize(
    ("cards", "message", "rule"),
    [
        ((7, 1, 2, 3), "violet7 is not in alice's hand", "own hand"),
        ((1, 1, 2, 3), "red1 is in two zones", "four different cards"),
    ],
)
def test_illegal_assignments_are_refused_with_the_rule(cards, message, rule):
    g = hanamikoji()
    with pytest.raises(RuleViolation, match=message) as exc:
        assign(g, 0, *cards)
    assert rule in exc.value.rule


def test_a_second_assignment_in_the_same_round_is_refused():
    g = hanamikoji()
    assign(g, 0, 6, 1, 2, 3)
    with pytest.raises(RuleViolation, match="already moved this step") as exc:
        assign(g, 0, 5, 1, 2, 3)
    assert "each player moves once" in exc.value.rule


def test_a_missing_zone_is_refused():
    from gametape.engine.ruleset import NotationError

    g = hanamikoji()
    with pytest.raises(NotationError, match="missing zone vote"):
        g.parse("assign alice perform=red1 hidden=orange2 sacrifice=yellow3")
    import msgspec

    with pytest.raises(msgspec.ValidationError, match="vote"):
        msgspec.convert({"player": 0, "perform": 1, "hidden": 2, "sacrifice": 3}, HanamikojiAssign)


def test_notation_names_cards_by_colour_and_number():
    g = hanamikoji()
    move = g.parse("assign alice perform=indigo6 hidden=r1 sacrifice=2 vote=yellow3")
    assert move == HanamikojiAssign(player=0, perform=6, hidden=1, sacrifice=2, vote=3)
    assert g.ruleset.notation(g.state, move) == (
        "assign alice perform=indigo6 hidden=red1 sacrifice=orange2 vote=yellow3"
    )
    from gametape.engine.ruleset import NotationError

    with pytest.raises(NotationError, match="8 is a red performer"):
        g.parse("assign alice perform=blue8 hidden=r1 sacrifice=2 vote=3")


def test_view_hides_the_opponents_hand_pending_assignment_and_hidden_cards():
    g = hanamikoji()
    assign(g, 0, 6, 1, 2, 3)
    v = g.view(1)
    alice, bob = v.seats
    assert alice.hand is None and alice.hand_size == 6 and alice.assigned
    assert alice.pending is None
    assert bob.hand == (1, 2, 3, 4, 5, 6)
    assert g.view(0).seats[0].pending is not None  # alice sees her own
    assign(g, 1, 5, 1, 2, 3)
    v = g.view(1)
    assert v.seats[0].hidden is None and v.seats[0].hidden_count == 1
    assert v.rounds[0].zones[0].hidden is None and v.rounds[0].zones[1].hidden == 1
    assert v.seats[0].display == g.state.displays[0]  # displays are face up
    assert v.seats[0].votes == (3,)
    for moves in ((7, 8, 9, 10), (11, 12, 13, 14)):
        assign(g, 0, *moves)
        assign(g, 1, *moves)
    assert g.view(1).seats[0].hidden == (1, 8, 12)  # revealed at the end


def test_the_end_of_the_game_names_its_winner_as_the_rules_decide_it():
    """#36: the board's last status named no winner ("game over (finished): ann 8, ben 3")."""

    def status(game):
        return game.ruleset.board(game.view(None), "t").status

    g = hanamikoji()
    for seat, cards in ((0, (6, 1, 2, 3)), (1, (5, 1, 2, 3)), (0, (7, 4, 8, 9))):
        assign(g, seat, *cards)
    for seat, cards in ((1, (10, 4, 7, 8)), (0, (11, 12, 13, 14)), (1, (12, 11, 13, 14))):
        assign(g, seat, *cards)
    assert status(g) == "game over: alice wins with 17; bob 9"
    assert status(_play_three_rounds()) == ("game over: bob wins on more artists (2 to 1); both 7")
    drawn = hanamikoji()
    for moves in ((6, 1, 2, 3), (7, 8, 9, 10), (11, 12, 13, 14)):
        assign(drawn, 0, *moves)
        assign(drawn, 1, *moves)
    assert status(drawn).startswith("game over: a draw, ")
