"""The published Ohanami (../shared/rules/ohanami-classic.md): each ruling O1-O7, scoring
worked by hand, and the notation."""

from __future__ import annotations

import random

import pytest

from gametape.engine.fold import Fold
from gametape.engine.game import Game, describe, notation
from gametape.engine.ruleset import ONLOOKER, NotationError, NotKnown, RuleViolation
from gametape.games.ohanami_classic import RULESET
from gametape.games.ohanami_classic.events import (
    ClassicOhanamiChoose,
    ClassicOhanamiDeal,
    ClassicOhanamiHand,
    ClassicOhanamiPlace,
    ClassicOhanamiSetup,
)
from gametape.games.ohanami_classic.notation import short
from gametape.games.ohanami_classic.rules import kind, pink_points, score, score_parts

NAMES = ("ann", "ben")
TRIANGLE = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120)  # by hand, not PINK


def game(hands, names=NAMES, triangle=False) -> Game:
    """A dealt game whose round 1 deals ``hands``."""
    fold = Fold(RULESET, ClassicOhanamiSetup(players=names, triangle=triangle))
    fold.push(ClassicOhanamiDeal(round=1, hands=tuple(tuple(h) for h in hands)))
    return Game(fold)


def table_game(names=NAMES) -> Game:
    fold = Fold(RULESET, ClassicOhanamiSetup(players=names, table=True))
    fold.push(ClassicOhanamiDeal(round=1, hands=None))
    return Game(fold)


ANN = (40, 45, 50, 60, 1, 2, 3, 4, 5, 6)
BEN = (11, 12, 13, 14, 15, 16, 17, 18, 19, 20)


def choose(g: Game, seat: int, a: int, b: int) -> None:
    g.push(ClassicOhanamiChoose(player=seat, cards=(a, b)))


def place(g: Game, seat: int, cards, rows) -> None:
    g.push(ClassicOhanamiPlace(player=seat, cards=tuple(cards), rows=tuple(rows)))


# --- O1: the colours -------------------------------------------------------------------


def test_o1_the_kind_of_each_number_and_the_counts():
    assert [kind(n) for n in (1, 2, 3, 4, 5, 6, 7)] == [
        "pink", "blue", "green", "blue", "pink", "green", "grey",
    ]  # fmt: skip
    assert kind(119) == "grey" and kind(120) == "green"
    assert kind(35) == "grey"  # the third source's "green 35" contradicts the rule and counts
    counts = {
        k: sum(kind(n) == k for n in range(1, 121)) for k in ("blue", "green", "grey", "pink")
    }
    assert counts == {"blue": 34, "green": 35, "grey": 17, "pink": 34}


# --- dealing and the steps ----------------------------------------------------------------


def test_a_round_deals_ten_cards_each_from_the_box_and_never_one_twice():
    g = game([ANN, BEN])
    assert g.state.hands == (tuple(sorted(ANN)), tuple(sorted(BEN)))
    with pytest.raises(RuleViolation, match="all different"):
        Fold(RULESET, ClassicOhanamiSetup(players=NAMES)).push(
            ClassicOhanamiDeal(round=1, hands=(ANN, ANN))
        )
    with pytest.raises(RuleViolation, match="cards"):
        Fold(RULESET, ClassicOhanamiSetup(players=NAMES)).push(
            ClassicOhanamiDeal(round=1, hands=(ANN[:9], BEN))
        )


def test_every_player_chooses_at_once_and_the_choices_show_together():
    g = game([ANN, BEN])
    assert g.to_act() == (0, 1) and RULESET.together(g.state)
    choose(g, 1, 11, 12)
    assert g.state.phase == "choose"
    assert RULESET.view(g.state, 0).gardens[1].chosen is None  # face down
    assert RULESET.view(g.state, 1).gardens[1].chosen == (11, 12)
    choose(g, 0, 40, 45)
    assert g.state.phase == "place"
    assert RULESET.view(g.state, 0).gardens[1].chosen == (11, 12)  # shown


def test_a_player_chooses_two_different_cards_of_their_own_hand():
    g = game([ANN, BEN])
    with pytest.raises(RuleViolation, match="not in ann's hand"):
        choose(g, 0, 40, 11)
    with pytest.raises(RuleViolation, match="twice"):
        choose(g, 0, 40, 40)


# --- O2: placing two cards ------------------------------------------------------------------


def _to_place(g: Game, ann_cards, ben_cards=(11, 12)) -> None:
    choose(g, 0, *ann_cards)
    choose(g, 1, *ben_cards)


def _with_row_40_45() -> Game:
    """ann's row A is 40 45, and at step 3 she holds her own hand again: 50 60 3 4 5 6."""
    g = game([ANN, BEN])
    _to_place(g, (40, 45))
    place(g, 0, (40, 45), (1, 1))
    place(g, 1, (11, 12), (None, None))
    _to_place(g, (13, 14), (1, 2))  # two players: the hands swap each step
    place(g, 0, (13, 14), (None, None))
    place(g, 1, (1, 2), (None, None))
    return g


def test_o2_each_placement_is_checked_against_the_rows_as_they_stand():
    g = _with_row_40_45()
    assert g.state.rows[0] == ((40, 45),)
    _to_place(g, (50, 60), (15, 16))
    good = Game(Fold(RULESET, g.setup))
    for e in g.events[1:]:
        good.push(e)
    place(good, 0, (50, 60), (1, 1))  # 50 then 60: both above
    assert good.state.rows[0] == ((40, 45, 50, 60),)
    with pytest.raises(RuleViolation, match="between the ends of row A"):
        place(g, 0, (60, 50), (1, 1))  # 60 then 50: 50 is inside 40…60


def test_o2_a_card_goes_above_the_highest_or_below_the_lowest_never_between():
    g = _with_row_40_45()
    _to_place(g, (3, 50), (15, 16))
    place(g, 0, (3, 50), (1, 1))
    assert g.state.rows[0] == ((3, 40, 45, 50),)


def test_o2_placing_is_public_and_the_order_between_players_does_not_matter():
    a, b = game([ANN, BEN]), game([ANN, BEN])
    for g in (a, b):
        _to_place(g, (40, 45))
    place(a, 0, (40, 45), (1, 2))
    place(a, 1, (11, 12), (1, None))
    place(b, 1, (11, 12), (1, None))
    place(b, 0, (40, 45), (1, 2))
    assert a.state == b.state
    before, event = a.fold.states[-2], a.events[-1]
    seen = str(describe(RULESET, NAMES, before, event, a.state, ONLOOKER))
    assert "ben started row A with 11 and discarded 12" in seen


def test_o2_the_pass_comes_before_the_reveal_and_a_discard_is_part_of_the_placing():
    g = game([ANN, BEN])
    _to_place(g, (40, 45))
    # ann already holds ben's other 8 cards while she places (the pass came first)
    assert g.state.hands[0] == (13, 14, 15, 16, 17, 18, 19, 20)
    place(g, 0, (40, 45), (None, 1))
    assert g.state.discards == (40,)
    assert len(g.events) == 5  # setup, deal, two choices, one placing: no discard move


def test_o2_a_player_places_exactly_the_two_cards_they_chose():
    g = game([ANN, BEN])
    _to_place(g, (40, 45))
    with pytest.raises(RuleViolation, match="chose 40 and 45"):
        place(g, 0, (40, 50), (1, 1))


def test_o2b_seats_pass_left_in_rounds_1_and_3_and_right_in_round_2_and_not_at_step_5():
    names = ("ann", "ben", "cat")
    hands = [tuple(range(1 + 10 * s, 11 + 10 * s)) for s in range(3)]
    g = game(hands, names)
    _step(g)
    # round 1 passes left: to the next seat, so ann gets cat's hand
    assert set(g.state.hands[0]) < set(hands[2]) and set(g.state.hands[1]) < set(hands[0])
    for _ in range(4):
        _step(g)
    assert g.state.phase == "deal" and all(h == () for h in g.state.hands)
    second = [tuple(range(31 + 10 * s, 41 + 10 * s)) for s in range(3)]
    g.push(ClassicOhanamiDeal(round=2, hands=tuple(second)))
    _step(g)
    assert set(g.state.hands[0]) < set(second[1])  # round 2: to the right, from ben


def _step(g: Game) -> None:
    """Every seat chooses its two lowest cards and discards them."""
    for s in range(g.state.n_players):
        hand = g.state.hands[s]
        choose(g, s, hand[0], hand[1])
    for s in range(g.state.n_players):
        place(g, s, g.state.chosen[s], (None, None))


def test_o2b_with_two_players_the_hands_swap_every_step():
    g = game([ANN, BEN])
    _step(g)
    assert set(g.state.hands[0]) < set(BEN) and set(g.state.hands[1]) < set(ANN)
    _step(g)
    assert set(g.state.hands[0]) < set(ANN)


# --- O5: rows ---------------------------------------------------------------------------------


def test_o5_at_most_three_rows_and_any_card_may_start_one():
    g = game([ANN, BEN])
    _to_place(g, (1, 60))
    place(g, 0, (60, 1), (1, 2))  # any number starts a row
    place(g, 1, (11, 12), (None, None))
    _to_place(g, (13, 14), (2, 3))
    place(g, 0, (13, 14), (3, 3))
    place(g, 1, (2, 3), (None, None))
    assert len(g.state.rows[0]) == 3
    _to_place(g, (4, 5), (15, 16))  # ann holds her own hand again
    with pytest.raises(RuleViolation, match="three rows already"):
        place(g, 0, (4, 5), (4, None))


def test_o5_a_player_may_discard_both_cards_even_when_one_fits():
    g = _with_row_40_45()
    _to_place(g, (50, 60), (15, 16))
    place(g, 0, (50, 60), (None, None))
    assert g.state.rows[0] == ((40, 45),) and g.state.discards[-2:] == (50, 60)


def test_o5_a_placed_card_never_moves():
    g = _with_row_40_45()
    before = g.state.rows[0][0]
    _to_place(g, (3, 50), (15, 16))
    place(g, 0, (50, 3), (1, 1))
    assert g.state.rows[0][0] == (3, *before, 50)


# --- scoring, worked by hand ------------------------------------------------------------------


def test_round_scores_blue_then_green_then_grey_and_pink():
    rows = ((2, 3, 7, 1),)  # blue 2, green 3, grey 7, pink 1
    assert score(rows, 1) == 3
    assert score(rows, 2) == 3 + 4
    assert score(rows, 3) == 3 + 4 + 7 + 1


@pytest.mark.parametrize(
    ("pinks", "points"), [(0, 0), (1, 1), (2, 3), (15, 120), (16, 120), (20, 120)]
)
def test_round_3_pink_cards_by_the_table_and_o3_beyond_fifteen(pinks, points):
    pink = [n for n in range(1, 121) if kind(n) == "pink"][:pinks]
    rows = (tuple(pink),)
    assert score_parts(rows, 3)["pink"] == points
    assert score_parts(rows, 2)["pink"] == 0


def test_o3_the_option_extends_the_triangle():
    assert pink_points(16, triangle=True) == 136 and pink_points(15, triangle=True) == 120
    assert pink_points(17) == 120


def _whole_game(names, seed: int) -> Game:
    from gametape.engine import simulate as sim

    return sim.play(RULESET, names, "greedy", random.Random(seed), seed=seed)


def test_the_game_score_is_the_sum_of_the_rounds_and_an_independent_recount_agrees():
    g = _whole_game(("ann", "ben", "cat", "dan"), 4)
    result = g.result()
    assert result is not None and result.outcome in ("win", "shared")
    for seat in range(4):
        rows = g.state.rows[seat]
        counts = {
            k: sum(kind(c) == k for r in rows for c in r) for k in ("blue", "green", "grey", "pink")
        }
        assert g.state.scores[-1][seat] == (
            3 * counts["blue"] + 4 * counts["green"] + 7 * counts["grey"]
            + TRIANGLE[min(counts["pink"], 15)]
        )  # fmt: skip
        assert result.scores[seat] == sum(r[seat] for r in g.state.scores)


def test_o4_equal_highest_totals_share_the_win():
    from msgspec.structs import replace

    from gametape.games.ohanami_classic.rules import result

    g = _whole_game(("ann", "ben"), 1)
    tied = replace(g.state, scores=((10, 10), (20, 20), (30, 30)))
    shared = result(tied)
    assert shared is not None and shared.outcome == "shared" and shared.winners == (0, 1)


# --- O6: what each player sees -------------------------------------------------------------


def test_o6_a_player_sees_their_hand_and_the_hands_they_held_never_another_s():
    g = game([ANN, BEN])
    _step(g)
    ann = RULESET.view(g.state, 0)
    assert ann.gardens[0].hand == g.state.hands[0]
    assert ann.gardens[0].held == (tuple(sorted(ANN)),)  # held at step 1, passed on
    assert ann.gardens[1].hand is None and ann.gardens[1].held == ()
    spectator = RULESET.view(g.state, ONLOOKER)
    assert all(p.hand is None and p.held == () for p in spectator.gardens)
    assert spectator.discards == g.state.discards  # every shown card is seen


def test_o6_a_deal_shows_each_seat_its_own_hand_alone():
    g = game([ANN, BEN])
    deal = g.events[1]
    seen = RULESET.redact(g.fold.states[0], deal, 0)
    assert seen.hands == (ANN, ())


def test_o6_another_page_cannot_enter_a_seat_s_choice():
    g = game([ANN, BEN])
    from gametape.engine.game import check_known

    for viewer in (1, ONLOOKER):
        with pytest.raises(NotKnown, match="ann's hand is not shown"):
            check_known(RULESET, g.state, ClassicOhanamiChoose(player=0, cards=(40, 45)), viewer)


# --- O7: at a real table ------------------------------------------------------------------


def test_o7_each_holder_enters_the_hand_they_were_dealt_if_they_like():
    """Ruling O7b: entering a hand is optional, at any time of its round; a choice need not
    wait for it."""
    g = table_game()
    assert g.state.phase == "choose" and g.to_act() == (0, 1)
    g.push(ClassicOhanamiHand(player=0, cards=ANN))
    assert g.to_act() == (0, 1) and g.state.hands == (tuple(sorted(ANN)), None)
    choose(g, 1, 11, 12)  # ben's hand was never entered
    choose(g, 0, 40, 45)
    assert g.state.phase == "place"


def test_o7b_a_table_may_record_only_what_it_shows():
    """No hand entered all game: every step's two cards and where they go, and the game
    ends as a dealt one does."""
    g = table_game()
    shown = iter(range(1, 121))
    for round_ in (1, 2, 3):
        if round_ > 1:
            g.push(ClassicOhanamiDeal(round=round_, hands=None))
        for _ in range(5):
            pairs = [(next(shown), next(shown)) for _ in range(2)]
            for s, pair in enumerate(pairs):
                choose(g, s, *pair)
            for s, pair in enumerate(pairs):
                place(g, s, pair, (None, None))
    assert g.is_over and not g.state.notices


def test_o7b_a_clash_between_two_hands_is_a_dispute_never_a_refusal_to_the_last():
    """ann's hand and ben's share 40: ben's page cannot see ann's hand, so his entry is
    accepted and the two are in dispute; no seat is told, validate is."""
    from gametape.engine.game import check_known

    g = table_game()
    g.push(ClassicOhanamiHand(player=0, cards=ANN))
    clash = ClassicOhanamiHand(player=1, cards=(40, *BEN[1:]))
    check_known(RULESET, g.state, clash, 1)  # ben's own page: nothing to refuse
    g.push(clash)
    (notice,) = g.state.notices
    assert g.state.disputes == ((0, 1),) and notice.seats == ()
    assert notice.text(g.fold.live) == (
        "ann's hand (entered at seq 2) and ben's (at seq 3) both name 40: they are in dispute"
    )
    for seat in (0, 1, ONLOOKER):
        assert not RULESET.view(g.state, seat).notices


def test_o7b_a_scribe_who_entered_both_hands_is_refused_the_clash():
    """The CLI's record (a scribe who sees every hand entered) is refused, as before."""
    from gametape.engine.game import check_known

    g = table_game(("ann", "ben", "cat"))
    g.push(ClassicOhanamiHand(player=0, cards=(7, *range(1, 7), 8, 9, 10)))
    g.push(ClassicOhanamiHand(player=1, cards=tuple(range(11, 21))))
    with pytest.raises(RuleViolation, match="7 is in ann's hand and in cat's"):
        check_known(RULESET, g.state, ClassicOhanamiHand(player=2, cards=(7, *range(22, 31))), None)


def test_o7b_a_fact_makes_a_hand_void_and_only_those_who_hold_it_are_told():
    g = table_game(("ann", "ben", "cat"))
    g.push(ClassicOhanamiHand(player=0, cards=ANN))  # names 40
    choose(g, 0, 45, 50)
    choose(g, 1, 40, 41)  # ben shows 40 from his own hand: ann's entry was wrong
    choose(g, 2, 70, 71)
    state = g.state
    (notice,) = state.notices
    assert state.void == (True, False, False) and notice.seats == (0, 1)  # ben holds it now
    assert notice.text(g.fold.live).startswith("ann's hand as entered at seq 2 is void from seq 5")
    assert RULESET.view(state, 0).notices == (str(notice.told),)
    assert str(notice.told) in RULESET.board(RULESET.view(state, 0), "t").notes
    assert not RULESET.view(state, 2).notices and not RULESET.view(state, ONLOOKER).notices
    assert state.hands == (None, None, None)  # the void hand is not known any more


def test_o7b_a_hand_entered_late_names_the_cards_shown_from_it():
    g = table_game()
    choose(g, 0, 40, 45)
    choose(g, 1, 11, 12)
    with pytest.raises(RuleViolation, match="40 was shown from ann's hand"):
        g.push(ClassicOhanamiHand(player=0, cards=(1, 45, 50, 60, 2, 3, 4, 5, 6, 7)))
    with pytest.raises(RuleViolation, match="11 was shown already"):
        g.push(ClassicOhanamiHand(player=0, cards=(11, *ANN[1:])))
    g.push(ClassicOhanamiHand(player=0, cards=ANN))  # the round's step 1 was its own
    assert g.state.hands[0] is None  # ann holds ben's hand now, which nobody entered
    place(g, 0, (40, 45), (1, 1))
    place(g, 1, (11, 12), (1, 1))
    assert g.state.hands[1] == (1, 2, 3, 4, 5, 6, 50, 60)  # ben holds ann's hand, as entered


def test_o7b_a_choice_is_checked_against_the_hand_its_sender_sees():
    from gametape.engine.game import check_known

    g = table_game()
    g.push(ClassicOhanamiHand(player=0, cards=ANN))
    wrong = ClassicOhanamiChoose(player=0, cards=(40, 99))
    with pytest.raises(RuleViolation, match="99 is not in ann's hand as it was entered"):
        check_known(RULESET, g.state, wrong, 0)
    check_known(RULESET, g.state, ClassicOhanamiChoose(player=1, cards=(40, 99)), 1)


def test_o7b_two_choices_of_one_card_are_refused_at_the_reveal():
    g = table_game()
    choose(g, 0, 40, 45)
    with pytest.raises(RuleViolation, match="40 is chosen by ann and by ben"):
        choose(g, 1, 40, 12)


def test_o7_a_hand_is_ten_different_numbers_1_to_120_not_shown_yet():
    g = table_game()
    for cards, words in [
        ((1, 2, 3), "a hand of 3 cards"),
        ((*ANN[:9], 121), "no card 121"),
        ((*ANN[:9], 40), "40 is in the hand twice"),
    ]:
        with pytest.raises(RuleViolation, match=words):
            g.push(ClassicOhanamiHand(player=0, cards=cards))


def test_o7_a_card_shown_in_an_earlier_round_cannot_be_entered_again():
    g = table_game()
    g.push(ClassicOhanamiHand(player=0, cards=ANN))
    g.push(ClassicOhanamiHand(player=1, cards=BEN))
    for _ in range(5):
        _step(g)
    g.push(ClassicOhanamiDeal(round=2, hands=None))
    with pytest.raises(RuleViolation, match="40 was shown already"):
        g.push(ClassicOhanamiHand(player=0, cards=(40, *range(61, 70))))


def test_o7_a_scribe_may_enter_any_hand_but_a_seat_only_its_own():
    from gametape.engine.game import check_known

    g = table_game()
    entry = ClassicOhanamiHand(player=0, cards=ANN)
    check_known(RULESET, g.state, entry, ONLOOKER)  # the host's page: a scribe
    check_known(RULESET, g.state, entry, 0)
    with pytest.raises(NotKnown):
        check_known(RULESET, g.state, entry, 1)


# --- notation ---------------------------------------------------------------------------------


def test_notation_round_trips_and_the_short_forms_read_the_same():
    g = game([ANN, BEN])
    for text, event in [
        ("choose ann 40 45", ClassicOhanamiChoose(player=0, cards=(40, 45))),
        ("a 40 45", ClassicOhanamiChoose(player=0, cards=(40, 45))),
        ("b 11 12", ClassicOhanamiChoose(player=1, cards=(11, 12))),
    ]:
        assert g.parse(text) == event
    assert g.parse("40 45", 0) == ClassicOhanamiChoose(player=0, cards=(40, 45))
    choose(g, 0, 40, 45)
    choose(g, 1, 11, 12)
    for text in ("place ann 40n 45a", "a40n45a", "a 40n 45a", "ANN 40N 45A", "40n 45a"):
        assert g.parse(text, 0 if text == "40n 45a" else None) == ClassicOhanamiPlace(
            player=0, cards=(40, 45), rows=(1, 1)
        )
    assert g.parse("a 40n 45n") == ClassicOhanamiPlace(player=0, cards=(40, 45), rows=(1, 2))
    assert g.parse("a 40x 45n").rows == (None, 1)
    event = ClassicOhanamiPlace(player=0, cards=(40, 45), rows=(1, 2))
    assert notation(RULESET, g.state, event) == "place ann 40n 45n"
    assert short(g.state, event) == "a40n45n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a 40", "expected `choose"),
        ("40 45", "say whose move"),
        ("a 40 45 50", "expected `choose"),
        ("zed 40 45", "no player 'zed'"),
        ("place a 40a 45a", "time to choose"),
        ("a -1 45", "expected `choose"),
    ],
)
def test_a_move_that_cannot_be_read_says_what_is_expected(text, words):
    g = game([ANN, BEN])
    with pytest.raises(NotationError, match=words):
        g.parse(text)


def test_a_place_that_cannot_be_read_names_the_places():
    g = game([ANN, BEN])
    _to_place(g, (40, 45))
    for text, words in [("a 40q 45a", "'q' is not a place"), ("a 40 45", "expected `place")]:
        with pytest.raises(NotationError, match=words):
            g.parse(text)


def test_a_discard_and_a_new_row_have_the_words_the_docs_name():
    """#53: `d` and `discard` were read as `x`, and `new` as `n`, but no doc or message
    said so; docs/notation.md and the refusal name them now."""
    g = game([ANN, BEN])
    _to_place(g, (40, 45))
    same = g.parse("a 40x 45n")
    for text in ("a 40d 45new", "place ann 40discard 45n"):
        assert g.parse(text) == same, text
    with pytest.raises(NotationError, match="x, d or discard"):
        g.parse("a 40q 45a")


def test_eight_keystrokes_a_move_or_fewer_on_average():
    g = _whole_game(("ann", "ben", "cat", "dan"), 9)
    fold = Fold(RULESET, g.setup)
    typed = []
    for event in g.events[1:]:
        if isinstance(event, ClassicOhanamiDeal):
            fold.push(event)
            continue
        text = short(fold.state, event)
        assert Game(fold).parse(text) == event, text
        typed.append(len(text) + 1)  # Enter counted
        fold.push(event)
    assert sum(typed) / len(typed) <= 8, sum(typed) / len(typed)


@pytest.mark.parametrize("name", ["ohanami", "ohanami-classic"])
def test_the_end_of_the_game_names_its_winner(name):
    """#36: the end page said "game over (finished)" and named no winner."""
    from gametape.engine import simulate as sim
    from gametape.engine.registry import get_ruleset

    rules = get_ruleset(name)
    game = sim.play(rules, ("ann", "ben", "cat"), "greedy", random.Random(1))
    result = game.result()
    winner = game.players[result.winners[0]]
    status = rules.board(game.view(None), "t").status
    assert status.startswith(f"game over: {winner} wins with {max(result.scores)}; ")
    from msgspec.structs import replace

    tied = replace(
        game.view(None), gardens=tuple(replace(g, total=7) for g in game.view(None).gardens)
    )
    assert rules.board(tied, "t").status == "game over: ann, ben and cat share the win with 7"


def test_a_move_out_of_its_phase_names_its_own_rule_not_a_second_move():
    """#53: `validate` on an edited log said "ann has already moved this step" for a
    placement before the reveal by a seat that had chosen (the rule is that cards are placed
    once everyone's two are shown). A second move of the step's own kind still says it."""
    g = game([ANN, BEN])
    choose(g, 0, 40, 45)
    with pytest.raises(RuleViolation, match="placed once everyone's two are shown") as exc:
        place(g, 0, (40, 45), (1, 1))
    assert exc.value.rule == "a player places the two cards they chose, each once (ruling O2)"
    with pytest.raises(RuleViolation, match="ann has already moved this step"):
        choose(g, 0, 50, 60)


def test_a_placements_button_says_it_in_words():
    """#49: the published Ohanami's buttons read "place 78x 114b"; a phone's button says
    the placement in words and still sends its notation."""
    from gametape.usecases.position import position

    g = game([ANN, BEN])
    _to_place(g, (40, 45))
    shown = position(g, 0, offer=0, role="seat", label="ann")
    said = {c.text: c.label for c in shown.buttons}
    assert said["place ann 40n 45a"] == "place 40 in a new row, then place 45 in row A"
    assert said["place ann 40x 45x"] == "discard 40 and 45"
    assert said["place ann 40x 45n"] == "discard 40, then place 45 in a new row"


def test_o7b_validate_lists_a_void_hand(tmp_path):
    from gametape.events import Store
    from gametape.usecases.check import validate_path
    from gametape.usecases.record import Recording, new_game

    store = Store(tmp_path)
    gid, _ = new_game(store, "ohanami-classic", ["ann", "ben"], table=True)
    rec = Recording(store, store.path(gid))
    rec.move("hand ann " + " ".join(map(str, ANN)), viewer=0)
    rec.move("a 45 50", viewer=0)
    rec.move("b 40 41", viewer=1)  # 40, named in ann's hand, shown from ben's
    report = validate_path(store.path(gid))
    assert report.status == "in_progress"
    assert report.notices == (
        "ann's hand as entered at seq 2 is void from seq 4: it names 40, shown from another hand",
    )


def test_a_placement_picker_says_each_place_in_words():
    """#49: past 12 placements the page showed a picker of raw words ("78a"); each choice
    now reads "78 in row A", "78 in a new row", "discard 78", and sends its word."""
    from gametape.usecases.position import position
    from gametape.web.pages import gloss

    g = game([ANN, BEN])
    for s, pair in ((0, (40, 45)), (1, (11, 12))):
        choose(g, s, *pair)
    place(g, 0, (40, 45), (1, 2))
    place(g, 1, (11, 12), (1, 2))
    choose(g, 0, 13, 14)  # from ben's hand, passed to ann
    choose(g, 1, 50, 60)
    shown = position(g, 0, offer=0, role="seat", label="ann")
    (picker,) = shown.pickers  # more than 12 ways to place 13 and 14
    assert gloss(picker, 2, "13a") == "13 in row A"
    assert gloss(picker, 2, "13n") == "13 in a new row"
    assert gloss(picker, 2, "13x") == "discard 13"
    assert gloss(picker, 1, "ann") == "ann"


def test_o7b_a_hand_entered_on_a_phone_that_missed_other_moves_still_counts(tmp_path):
    """A hand is entered whenever its holder likes: sent from a page a step behind (other
    seats moved meanwhile), it is judged as if sent now, never "the table moved on"; a move
    of the step's own, sent so, still is."""
    from gametape.events import Store
    from gametape.usecases.record import Recording, new_game
    from gametape.usecases.tables import StaleWrite

    store = Store(tmp_path)
    gid, _ = new_game(store, "ohanami-classic", ["ann", "ben"], table=True)
    rec = Recording(store, store.path(gid))
    rec.move("a 40 45", by="ann", viewer=0)  # seq 2: ann chose; her page stands at seq 3
    rec.move("b 11 12", by="ben", viewer=1)  # seq 3: ben's choice shows both
    rec.move("b 11n 12n", by="ben", viewer=1)  # seq 4
    done = rec.move("hand ann " + " ".join(map(str, ANN)), by="ann", expected=3, viewer=0)
    assert done.first == 5 and rec.game.state.entered[0] == tuple(sorted(ANN))
    with pytest.raises(StaleWrite):
        rec.move("a 40n 45n", by="ann", expected=3, viewer=0)


def test_a_seat_s_hypothesis_is_the_game_as_it_saw_it_at_a_table():
    """`branch --as` for the published Ohanami (possible since ruling O7b: hands need not be
    entered): the seat's own hand entered, no other hand, the other seats' choices of the
    step still open left out, and it folds as a table game."""
    g = game([ANN, BEN])
    choose(g, 1, 11, 12)  # ben's choice, not shown yet
    seen = RULESET.hypothesis(g.events, 0)
    assert seen[0].table and seen[1].hands is None
    assert seen[2] == ClassicOhanamiHand(player=0, cards=tuple(ANN))
    assert len(seen) == 3  # ben's open choice is not there
    again = Game.from_events(seen)
    assert again.state.hands == (tuple(sorted(ANN)), None) and again.to_act() == (0, 1)
    choose(g, 0, 40, 45)  # the step's choices shown: every one of them is in it
    assert len(RULESET.hypothesis(g.events, 0)) == 5
