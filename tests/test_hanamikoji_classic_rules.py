"""Hanamikoji, the published game: each ruling of ../shared/rules/hanamikoji-classic.md by name,
hand-worked scoring, the table, the views, and properties over thousands of bot games."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from itertools import pairwise

import msgspec
import pytest
from msgspec.structs import replace
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.cli.recorder import Recorder, prompt_reader
from gametape.engine import simulate as sim
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset
from gametape.engine.ruleset import ONLOOKER, NotationError, RuleViolation
from gametape.events import Store, read_log
from gametape.events.base import Abandon
from gametape.games.hanamikoji_classic.events import (
    GEISHAS,
    VALUES,
    ClassicChoose,
    ClassicCompete,
    ClassicDeal,
    ClassicGift,
    ClassicReveal,
    ClassicSecret,
    ClassicSetup,
    ClassicTrade,
)
from gametape.games.hanamikoji_classic.rules import (
    DECK,
    ClassicState,
    _score,
    cards_in_play,
)
from gametape.replay import Cursor
from gametape.usecases.record import Recording, new_game

RULES = get_ruleset("hanamikoji-classic")
VIOLET, RED, YELLOW, BLUE, ORANGE, GREEN, PINK = range(7)


def bot_game(seed: int, bot: str = "greedy") -> Game:
    return sim.play(RULES, ["ann", "ben"], bot, random.Random(seed))


def fresh(first: int = 0, deck: tuple[int, ...] | None = None) -> Game:
    game = Game.new(ClassicSetup(game="test", players=("ann", "ben"), first=first))
    game.push(ClassicDeal(round=1, deck=deck or DECK))
    return game


def test_components_seven_geishas_and_21_item_cards():
    assert len(GEISHAS) == 7 and sorted(VALUES) == [2, 2, 2, 3, 3, 4, 5] and sum(VALUES) == 21
    assert Counter(DECK) == {g: v for g, v in enumerate(VALUES)}


def test_the_deal_removes_one_card_deals_six_each_and_leaves_eight():
    game = fresh()
    s = game.state
    assert s.removed == DECK[0] and len(s.pile) == 7  # the first player already drew one
    assert len(s.hands[0]) == 7 and len(s.hands[1]) == 6
    assert sum(cards_in_play(s).values()) == 21


def test_c1_the_starting_player_alternates_round_by_round():
    for seed in range(200):
        game = bot_game(seed)
        if len(game.state.history) >= 3:
            break
    else:
        pytest.fail("no game of three rounds in 200 seeds")
    starters = [h.first for h in game.state.history]
    assert starters[0] == game.setup.first  # type: ignore[attr-defined]
    assert all(a != b for a, b in pairwise(starters))


def test_c2_a_turn_draws_first_and_the_pile_is_empty_at_scoring():
    game = fresh()
    states = []
    for move in ("secret blue", "trade orange orange"):
        game.push(game.parse(move))
        states.append(game.state)
    assert len(states[0].hands[1]) == 7  # ben drew before acting
    for seed in range(20):
        played = bot_game(seed)
        for state in played.fold.states:
            if state.turn == 8 or state.phase in ("reveal",):
                assert state.pile == ()
        assert all(h.round for h in played.state.history)


def test_c3_several_rounds_and_an_abandoned_game_has_no_winner():
    rounds = [len(bot_game(s).state.history) for s in range(60)]
    assert max(rounds) >= 2
    game = fresh()
    game.push(Abandon(player=None))
    result = game.result()
    assert result is not None and result.outcome == "terminated" and result.winners == ()
    # abandoned after a round was scored: the points and geishas held then are reported
    played = next(g for g in map(bot_game, range(60)) if len(g.state.history) >= 2)
    game = Game.from_events(played.events[:1])
    for event in played.events[1:]:
        game.push(event)
        if len(game.state.history) == 1:
            break
    game.push(Abandon(player=None))
    result = game.result()
    assert result is not None and result.winners == ()
    assert result.scores == (game.state.points(0), game.state.points(1)) and sum(result.scores)
    assert result.details["geishas"] == [game.state.geishas(0), game.state.geishas(1)]


def test_each_action_once_per_round_and_the_turn_order():
    game = fresh()  # ann: violet red red yellow yellow blue + green; ben: blue blue orange...
    with pytest.raises(RuleViolation, match="it is ann's turn, not ben's"):
        game.push(ClassicTrade(player=1, cards=(ORANGE, ORANGE)))
    game.push(game.parse("secret blue"))  # ann
    game.push(game.parse("secret orange"))  # ben
    with pytest.raises(RuleViolation, match="already used secret"):
        game.push(game.parse("secret red"))


def test_gift_and_competition_the_choice_is_the_opponents_own_move():
    game = fresh(
        deck=(
            PINK,
            VIOLET,
            VIOLET,
            RED,
            RED,
            YELLOW,
            YELLOW,
            BLUE,
            BLUE,
            BLUE,
            ORANGE,
            ORANGE,
            ORANGE,
            GREEN,
            GREEN,
            GREEN,
            GREEN,
            PINK,
            PINK,
            PINK,
            PINK,
        )
    )
    game.push(game.parse("gift violet red yellow"))
    assert game.to_act() == (1,)
    with pytest.raises(RuleViolation, match="has to choose first"):
        game.push(ClassicSecret(player=1, card=BLUE))
    with pytest.raises(RuleViolation, match="not one of the options"):
        game.push(ClassicChoose(player=1, take=(GREEN,)))
    with pytest.raises(RuleViolation, match="ben chooses first, not ann"):
        game.push(ClassicChoose(player=0, take=(RED,)))
    game.push(game.parse("choose red"))
    sides = game.state.sides
    assert sides[1][RED] == 1 and sides[0][VIOLET] == 1 and sides[0][YELLOW] == 1
    game.push(game.parse("compete blue blue / orange orange"))  # ben, after drawing
    assert game.to_act() == (0,)
    game.push(game.parse("x o o"))  # ann takes the orange pair
    assert game.state.sides[0][ORANGE] == 2 and game.state.sides[1][BLUE] == 2


def test_a_move_naming_more_copies_than_the_hand_holds_says_how_many_it_holds():
    """#36: a gift of three yellows from a hand of two said "ann has no yellow card in hand"."""
    game = fresh()  # ann: violet, red, red, yellow, yellow, blue, green
    with pytest.raises(RuleViolation, match="ann holds 2 yellow cards, and the move names 3"):
        game.push(game.parse("gift yellow yellow yellow"))
    with pytest.raises(RuleViolation, match="ann has no pink card in hand"):
        game.push(game.parse("gift pink red red"))
    assert len(game.events) == 2  # nothing was recorded


def _scored(sides, markers, secret=(None, None)) -> ClassicState:
    state = ClassicState(
        setup=ClassicSetup(game="t", players=("ann", "ben"), first=0),
        round=2,
        sides=sides,
        markers=markers,
        secret=secret,
        phase="act",
    )
    return _score(state)


def test_scoring_the_side_with_more_cards_wins_a_tie_keeps_the_earlier_marker():
    """A tie (0-0 included) leaves the marker where it was: pink won in an earlier round
    stays with ann; blue, never won, stays in the middle."""
    zero = (0,) * 7
    ann = list(zero)
    ben = list(zero)
    ann[PINK], ben[PINK] = 1, 1  # pink: a tie
    ann[RED], ben[RED] = 2, 0  # red: ann
    ben[GREEN] = 1  # green: ben
    markers = (None,) * 5 + (None, 0)  # ann won pink earlier
    after = _scored((tuple(ann), tuple(ben)), markers)
    assert after.markers[PINK] == 0 and after.markers[RED] == 0 and after.markers[GREEN] == 1
    assert after.markers[BLUE] is None


def test_scoring_counts_the_secret_cards():
    zero = (0,) * 7
    after = _scored((zero, zero), (None,) * 7, secret=(PINK, GREEN))
    assert after.markers[PINK] == 0 and after.markers[GREEN] == 1


def test_eleven_points_beat_four_geishas():
    """ben owns four small geishas (2+2+2+3 = 9 points); ann owns green and pink (9) and
    wins blue now: 12 points. Points come first."""
    markers = (1, 1, 1, 1, None, 0, 0)
    zero = [0] * 7
    ann = zero[:]
    ann[ORANGE] = 1  # ann takes orange: 4 + 5 + 3 = 12 points
    after = _scored((tuple(ann), tuple(zero)), markers)
    assert after.points(0) == 12 and after.geishas(1) == 4
    assert after.outcome == "win" and after.winner == 0 and after.decided_by == "points"


def test_four_geishas_win_when_no_one_has_eleven_points():
    markers = (0, 0, 0, None, None, None, 1)
    zero = [0] * 7
    ann = zero[:]
    ann[BLUE] = 1  # 2 + 2 + 2 + 3 = 9 points but four geishas
    after = _scored((tuple(ann), tuple(zero)), markers)
    assert after.winner == 0 and after.decided_by == "geishas"


def test_no_goal_means_another_round():
    after = _scored(((0,) * 7, (0,) * 7), (0, 1, None, None, None, None, None))
    assert after.outcome is None and after.phase == "deal"


# --- views (C5) ---------------------------------------------------------------------------


def test_c5_a_seat_never_sees_the_removed_card_or_the_opponents_hidden_cards():
    game = bot_game(3)
    for state in game.fold.states:
        for seat in (0, 1):
            v = RULES.view(state, seat)
            other = v.sides[1 - seat]
            assert v.removed is None and other.hand is None and other.traded is None
            if state.phase not in ("deal", "over"):
                assert other.secret is None


@pytest.mark.parametrize("seed", range(8))
def test_frames_do_not_depend_on_what_the_seat_cannot_see(seed):
    """Non-interference: swap the removed card with a card in the opponent's hand (or in the
    pile) in one deal, and a seat's frames before that card is shown are the same."""
    game = bot_game(seed)
    for seat in (0, 1):
        events = list(game.events)
        deal_at = next(i for i, e in enumerate(events) if isinstance(e, ClassicDeal))
        deck = list(events[deal_at].deck)
        other = 7 if seat == 0 else 1  # the opponent's first dealt card
        if deck[0] == deck[other]:
            continue
        deck[0], deck[other] = deck[other], deck[0]
        swapped = [*events[:deal_at], ClassicDeal(round=1, deck=tuple(deck))]
        a, b = Cursor(events), Cursor(swapped)
        for s in range(deal_at + 1):
            fa, fb = a.frame(s, seat), b.frame(s, seat)
            assert msgspec.json.encode(fa) == msgspec.json.encode(fb)


# --- properties over thousands of bot games ---------------------------------------------


def test_properties_over_a_thousand_bot_games():
    """21 cards always accounted for; every action once per player per round; every game
    ends with a winner by one of the goals."""
    for seed in range(1000):  # each game is 6 ms: a thousand, half greedy, half random
        game = bot_game(seed, "greedy" if seed % 2 else "random")
        for state in game.fold.states[1:]:
            if state.phase in ("act", "choose"):
                assert sum(cards_in_play(state).values()) == 21, seed
                assert Counter(cards_in_play(state)) == Counter(DECK), seed
        for record in game.state.history:
            assert sum(map(sum, record.sides)) == 2 * 3 + 2 * 4 + 2, seed  # gifts, pairs, secrets
        rounds = Counter()
        for event in game.events:
            if isinstance(event, ClassicSecret | ClassicTrade | ClassicGift | ClassicCompete):
                rounds[(event.player, type(event))] += 1
        n = len(game.state.history)
        assert all(count == n for count in rounds.values()) and len(rounds) == 8, seed
        result = game.result()
        assert result is not None and result.outcome == "win" and len(result.winners) == 1
        state = game.state
        winner = result.winners[0]
        assert state.points(winner) >= 11 or state.geishas(winner) >= 4
        if state.decided_by == "geishas":
            assert state.points(0) < 11 and state.points(1) < 11


def test_the_greedy_bot_beats_the_random_one():
    wins = 0
    for seed in range(200):
        rng = random.Random(seed)
        game = Game.create(RULES, ["g", "r"], rng)
        bots = [RULES.bots["greedy"](), RULES.bots["random"]()]
        while not game.is_over:
            seat = game.to_act()[0]
            game.push(bots[seat].choose(game.view(seat), game.legal_moves(seat), rng))
            game.deal(rng)
        wins += game.result().winners == (0,)
    assert wins > 120, wins


# --- at a real table (C4) -----------------------------------------------------------------


def _with_reveals(game: Game) -> list[str]:
    """What a person types for a bot game: secrets and trade-offs unseen, gift and
    competition cards named, and both secret cards shown when a round is scored."""

    def letters(cards: tuple[int, ...]) -> str:
        return "".join(GEISHAS[c][0] for c in cards)

    lines: list[str] = []
    states = game.fold.states
    for seq, event in enumerate(game.events[1:], start=1):
        if isinstance(event, ClassicSecret):
            lines.append("s")
        elif isinstance(event, ClassicTrade):
            lines.append("t")
        elif isinstance(event, ClassicGift):
            lines.append("g " + letters(event.cards))
        elif isinstance(event, ClassicCompete):
            lines.append("c " + " ".join(letters(p) for p in event.pairs))
        elif isinstance(event, ClassicChoose):
            lines.append("x " + letters(event.take))
        if len(states[seq].history) > len(states[seq - 1].history):  # scored: show secrets
            lines += [
                f"show {game.players[s]} {GEISHAS[states[seq - 1].secret[s]]}" for s in (0, 1)
            ]
    return lines


def test_c4_a_whole_table_game_recorded_through_the_prompt(tmp_path):
    played = bot_game(7)
    store = Store(tmp_path / "store")
    gid, _ = new_game(
        store,
        "hanamikoji-classic",
        played.players,
        table=True,
        options={"first": str(played.setup.first)},
    )  # type: ignore[attr-defined]
    lines = _with_reveals(played)
    shown = io.StringIO()
    with create_pipe_input() as pipe:
        for line in lines:
            pipe.send_text(line + "\r")
        pipe.send_text("\x04")
        read = prompt_reader(input=pipe, output=DummyOutput())
        Recorder(Recording(store, store.path(gid)), Console(file=shown, width=100), read).run()
    printed = shown.getvalue()
    assert "refused" not in printed, printed[-1500:]
    game = Game.from_events(read_log(store.path(gid)).events)
    assert game.is_over and game.result().winners == played.result().winners
    assert game.state.markers == played.state.markers
    runner = CliRunner()
    base = ["--store", str(store.root)]
    assert runner.invoke(app, [*base, "validate", gid]).exit_code == 0
    for seat in ("ann", "ben"):
        frames = runner.invoke(app, [*base, "replay", gid, "--all", "--json", "--as", seat])
        assert frames.exit_code == 0 and "removed" in frames.stdout
    index = json.loads(runner.invoke(app, [*base, "index", "--json"]).stdout)
    assert index["invalid"] == 0


def test_c4_a_geisha_seen_more_often_than_she_has_cards_names_the_seqs(tmp_path):
    store = Store(tmp_path)
    gid, _ = new_game(store, "hanamikoji-classic", ["ann", "ben"], table=True)
    rec = Recording(store, store.path(gid))
    rec.move("g vvr")  # seq 2: two violets shown (violet has 2)
    rec.move("x r")  # seq 3
    with pytest.raises(RuleViolation) as exc:
        rec.move("c v b o o")  # a third violet
    assert (
        exc.value.seq == 4 and "one violet card too many this round: she has 2" in exc.value.message
    )
    assert "(at seq 2)" in exc.value.message  # both shown by one event: one seq


def _table(tmp_path) -> Recording:
    store = Store(tmp_path)
    gid, _ = new_game(store, "hanamikoji-classic", ["ann", "ben"], None, {"first": "0"}, table=True)
    return Recording(store, store.path(gid))


@pytest.mark.parametrize(
    ("first", "second"), [("t vv", "g vyy"), ("s v", "g vvy"), ("t vr", "c v v y y")]
)
@pytest.mark.parametrize("viewer", [None, 1, ONLOOKER])
def test_c4_a_public_move_is_never_refused_for_a_claim_its_enterer_cannot_see(
    tmp_path, first, second, viewer
):
    """Revised ruling C4: ann's private naming is her claim. Ben's gift that shows more violet
    than her claim leaves is accepted (from ben's page, the host's, a scribe's), and her
    claim is void from the gift on: her page says so, ben's pages never do."""
    rec = _table(tmp_path)
    rec.move(first)  # seq 2: ann names her secret or traded cards
    rec.move(second, viewer=viewer)  # seq 3: accepted
    state = rec.game.state
    assert not state.claims  # void
    (notice,) = state.notices
    assert notice.text(rec.game.fold.live).endswith(
        "at seq 3 showed violet: she has 2, so the naming is void"
    )
    assert notice.seats == (0,) and str(notice.told).endswith("your naming no longer counts")
    assert str(notice.told) in RULES.board(RULES.view(state, 0), "t").notes
    for seat in (1, ONLOOKER):
        assert not RULES.view(state, seat).notices
    assert RULES.view(state, 1) == RULES.view(_worlds_apart(rec, first), 1)


def _round(rec: Recording, *lines: str) -> Recording:
    """``rec`` with ``lines`` recorded, in order."""
    for line in lines:
        rec.move(line)
    return rec


def _worlds_apart(rec: Recording, first: str) -> ClassicState:
    """The same game with ann's naming left out: what ben was told is the same."""
    unnamed = Game.from_events(rec.game.events[:2])
    unnamed.push(replace(rec.game.events[2], **{"card" if first[0] == "s" else "cards": None}))
    for event in rec.game.events[3:]:
        unnamed.push(event)
    return unnamed.state


def test_c4_a_player_s_own_claims_count_in_her_own_checks(tmp_path):
    """'Had ann traded vv and then offered v herself in a gift, her gift would be refused to
    her': her page and a scribe see her claim; the host's page does not, and is not refused."""
    rec = _table(tmp_path)
    rec.move("t vv")  # seq 2
    rec.move("s")  # ben's secret, unnamed: seq 3
    for viewer in (0, None):
        with pytest.raises(RuleViolation) as exc:
            rec.move("g v y y", viewer=viewer)
        assert exc.value.message == (
            "one violet card too many this round: she has 2, 2 named by ann (at seq 2) and 1 in "
            "this move"
        )
    with pytest.raises(RuleViolation, match="2 named by ann"):
        rec.move("s v", viewer=0)  # a naming is checked against her own claims too
    rec.move("g v y y", viewer=ONLOOKER)  # the host saw no naming: accepted, the claim void
    assert not rec.game.state.claims and len(rec.game.state.notices) == 1


def test_c4_claims_of_two_players_are_in_dispute_and_only_the_log_reader_is_told(tmp_path):
    rec = _table(tmp_path)
    rec.move("t vv")  # seq 2: ann's claim
    rec.move("t v r")  # seq 3: ben's claim: three violets named, each fits alone
    state = rec.game.state
    assert len(state.claims) == 2 and state.disputes == ((2, 3),)
    (notice,) = state.notices
    assert notice.seats == () and notice.told is None  # neither player saw both claims
    assert notice.text(rec.game.fold.live) == (
        "ann's trade-off at seq 2 and ben's trade-off at seq 3 together name more violet cards "
        "than she has left: they are in dispute"
    )
    assert not RULES.view(state, 0).notices and not RULES.view(state, 1).notices


def test_c4_one_player_s_claims_in_dispute_with_each_other_are_told_to_her(tmp_path):
    """ann `t vr`, `s v`, then ben shows a violet: no single claim exceeds, both together do."""
    rec = _table(tmp_path)
    rec.move("t v r")  # seq 2
    rec.move("s")  # seq 3
    rec.move("s v")  # seq 4
    rec.move("g v y y")  # seq 5: ben shows a violet
    state = rec.game.state
    assert state.disputes == ((2, 4),) and len(state.claims) == 2
    (notice,) = state.notices
    assert notice.seats == (0,) and "your trade-off and secret card" in str(notice.told)
    assert RULES.view(state, 0).notices == (str(notice.told),) and not RULES.view(state, 1).notices


def test_c4_every_secret_is_revealed_and_a_reveal_confirms_or_voids_its_naming(tmp_path):
    rec = _round(_table(tmp_path), "s v", "s", "t", "t", "g rry", "x r", "g bbo", "x b")
    rec.move("c gg pp")
    rec.move("x gg")
    rec.move("c oo pp")
    rec.move("x oo")
    state = rec.game.state
    assert state.phase == "reveal" and rec.game.to_act() == (0, 1)  # ann's named one too
    rec.move("show ann p")  # differs from her naming: void, told to her
    assert len(rec.game.state.notices) == 1
    assert "named violet and shown as pink" in str(rec.game.state.notices[0].told)
    rec.move("show ben v")
    assert rec.game.state.history[0].secrets == (PINK, VIOLET)  # revealed faces score


def test_c4_a_reveal_is_refused_by_facts_only(tmp_path):
    rec = _round(_table(tmp_path), "s", "s y", "g vvy", "x v", "t", "t", "c bb oo", "x bb")
    rec.move("c gg pp")
    rec.move("x gg")
    rec.move("g r r o")
    rec.move("x r")
    assert rec.game.state.phase == "reveal"
    with pytest.raises(RuleViolation, match=r"one violet card too many.*all seen already"):
        rec.move("show ann v")  # two violets shown by the gift: a fact
    rec.move("show ben b")  # ben named yellow: his naming is void, his reveal not refused
    assert "shown as blue" in str(rec.game.state.notices[-1].told)


def test_c4_validate_lists_void_and_disputed_claims_as_notices_of_a_valid_log(tmp_path):
    rec = _table(tmp_path)
    rec.move("t vv")
    rec.move("g v y y")
    runner = CliRunner()
    base = ["--store", str(rec.path.parent)]
    done = runner.invoke(app, [*base, "validate", rec.path.stem])
    assert done.exit_code == 0, done.output
    assert "ann's trade-off at seq 2 named violet violet" in done.output
    report = json.loads(runner.invoke(app, [*base, "validate", rec.path.stem, "--json"]).stdout)
    # the read model has them too: a club finds its mis-entered games
    sql = "SELECT game_id, notices FROM games WHERE notices IS NOT NULL"
    found = runner.invoke(app, [*base, "query", sql, "-f", "json"])
    assert found.exit_code == 0, found.output
    listed = json.loads(found.stdout)
    assert listed["game_id"] == rec.path.stem and "the naming is void" in listed["notices"][0]
    row = report
    assert row["status"] == "in_progress" and len(row["notices"]) == 1


def test_messages_say_what_the_table_owes(tmp_path):
    from gametape.games.hanamikoji_classic.events import ClassicChoose

    store = Store(tmp_path)
    gid, game = new_game(store, "hanamikoji-classic", ["alice", "ben"], 1, {"first": "0"})
    rules = game.ruleset
    state = game.state
    dealt = replace(state, phase="deal")
    with pytest.raises(RuleViolation, match="must be dealt before anyone acts"):
        rules.apply(dealt, game.parse("s " + _any_card(game)))
    shown = replace(state, phase="reveal")
    with pytest.raises(RuleViolation, match="secret cards are shown now"):
        rules.apply(shown, game.parse("s " + _any_card(game)))
    rec = Recording(store, store.path(gid))
    gift = next(m for m in rec.game.legal_moves(0) if type(m).__name__ == "ClassicGift")
    rec.game.push(gift)
    with pytest.raises(RuleViolation, match="choosing nothing is not one of the options"):
        rec.game.push(ClassicChoose(player=1, take=()))


def _any_card(game) -> str:
    from gametape.games.hanamikoji_classic.rules import card_name

    return card_name(game.state.hands[0][0])


def test_c4_table_secrets_are_shown_at_scoring(tmp_path):
    store = Store(tmp_path)
    gid, _ = new_game(store, "hanamikoji-classic", ["ann", "ben"], table=True)
    rec = Recording(store, store.path(gid))
    for line in (
        "s",
        "s",
        "t",
        "t",
        "g vvr",
        "x r",
        "g yyr",
        "x y",
        "c bb oo",
        "x bb",
        "c gg pp",
        "x gg",
    ):
        rec.move(line)
    assert rec.game.to_act() == (0, 1) and rec.game.state.phase == "reveal"
    with pytest.raises(NotationError, match="a geisha is one of"):
        rec.move("show ann 9")  # not a geisha
    rec.move("show ben p")
    rec.move("show ann p")
    state = rec.game.state
    assert len(state.history) == 1 and state.history[0].sides[0][PINK] == 1
    reveal = [e for e in rec.game.events if isinstance(e, ClassicReveal)]
    assert [e.player for e in reveal] == [1, 0]
    # the review: each secret is shown from the event that set it aside (faces learned
    # later), to the spectator only; hands stay unknown (every turn draws unseen)
    cursor = Cursor.open(store.path(gid))
    assert cursor.learned_later
    assert cursor.frame(2).view.sides[0].secret == PINK  # ann's "s", seq 2
    assert cursor.frame(3).view.sides[1].secret == PINK  # ben's "s", seq 3
    assert cursor.frame(3, 0).view.sides[1].secret is None  # ann never saw ben's
    assert cursor.frame(3, 1).view.sides[1].secret == -1  # nor did the log, then
    assert all(-1 in side.hand for side in cursor.frame(3).view.sides)


def test_cli_simulate_validate_stats_and_query(tmp_path):
    runner = CliRunner()
    base = ["--store", str(tmp_path / "s")]
    result = runner.invoke(
        app, [*base, "simulate", "hanamikoji-classic", "--games", "300", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, [*base, "validate"]).exit_code == 0
    stats = json.loads(runner.invoke(app, [*base, "stats", "hanamikoji-classic", "--json"]).stdout)
    assert sum(r["games"] for r in stats["outcomes"]) == 300
    assert stats["mistakes"]["rows"]
    q = runner.invoke(
        app,
        [
            *base,
            "query",
            "SELECT count(*) AS n, min(rounds) AS r FROM hanamikoji_classic.game_players",
            "-f",
            "json",
        ],
    )
    assert json.loads(q.stdout) == {"n": 600, "r": 1}


def _log_of(setup, *events) -> str:
    from gametape.events.log import encode_lines

    data, _ = encode_lines([setup, *events], 0, "")
    return data.decode()


def test_whether_a_log_was_recorded_at_a_table_is_the_documented_table_field(tmp_path):
    """Ruling C4: the setup's documented ``table`` field says so; a deal that disagrees with
    it is refused at the deal, saying what is wrong."""
    from gametape.games.hanamikoji_classic.events import ClassicDeal, ClassicSetup
    from gametape.usecases.check import validate_path

    def check(setup, deal):
        path = tmp_path / "g.jsonl"
        path.write_text(_log_of(setup, deal))
        return validate_path(path)

    deck = tuple(range(7)) * 3  # not the real deck: only what the check reads matters here
    real = tuple(g for g, v in enumerate((2, 2, 2, 3, 3, 4, 5)) for _ in range(v))
    table = ClassicSetup(game="g", players=("ann", "ben"), first=0, table=True)
    dealt = ClassicSetup(game="g", players=("ann", "ben"), first=0)
    assert check(table, ClassicDeal(round=1, deck=None)).status == "in_progress"
    legacy = ClassicSetup(game="g", players=("ann", "ben"), first=0, meta={"table": True})
    assert check(legacy, ClassicDeal(round=1, deck=None)).status == "in_progress"
    report = check(dealt, ClassicDeal(round=1, deck=None))
    assert report.status == "invalid" and 'does not say "table": true' in report.problem.message
    report = check(table, ClassicDeal(round=1, deck=real))
    assert "a deal of known order in a game recorded at a table" in report.problem.message
    report = check(dealt, ClassicDeal(round=1, deck=deck[:20]))
    assert "not the 21 item cards once each (20 cards)" in report.problem.message
    assert '"table":true' in _log_of(table) and '"table"' not in _log_of(dealt)


def test_c4_a_refusal_names_only_earlier_seqs_never_its_own(tmp_path):
    """#36: the refusal of the move at seq 4 said 'all seen already (at seq 2, seq 4)'."""
    store = Store(tmp_path)
    gid, _ = new_game(store, "hanamikoji-classic", ["ann", "ben"], None, {"first": "0"}, table=True)
    rec = Recording(store, store.path(gid))
    rec.move("g v r r")  # seq 2: a violet shown (violet has 2)
    rec.move("x r")  # seq 3
    with pytest.raises(RuleViolation) as exc:
        rec.move("c v v b b")  # seq 4 would show two more violets
    message = exc.value.message
    assert "one violet card too many this round: she has 2" in message
    assert "1 seen already (at seq 2) and 2 in this move" in message and "seq 4" not in message


def test_c4_ben_is_told_the_same_whatever_ann_named_on_her_own_page(tmp_path):
    """The issue's table (#50): ann `s p` (or `s g`, or `s`), ben `s`, ann `t`, ben `g ppp`,
    ann `x p`, ann `g rrv`, ben `x r`, then ben's `c pp vv`: refused for the violets everyone
    saw, in the same words in every world; ben's view and board are the same throughout."""
    told = set()
    for k, secret in enumerate(("s p", "s g", "s")):
        rec = _table(tmp_path / str(k))
        rec.move(secret, viewer=0)
        for line, seat in (("s", 1), ("t", 0), ("g ppp", 1), ("x p", 0), ("g rrv", 0), ("x r", 1)):
            rec.move(line, viewer=seat)
        with pytest.raises(RuleViolation) as exc:
            rec.move("c pp vv", viewer=1)
        state = rec.game.state
        board = RULES.board(RULES.view(state, 1), "t")
        told.add((exc.value.message, msgspec.json.encode(RULES.view(state, 1)), str(board)))
    ((message, _, _),) = told  # one answer in all three worlds
    assert message == (
        "one violet card too many this round: she has 2, 1 seen already (at seq 7) and 2 in "
        "this move"
    )


def test_c4_a_log_from_before_the_revision_still_replays(tmp_path):
    """Before turn 5 a named secret card stood for its reveal: such a log (the round's next
    deal right after its eighth turn) still validates, and the named cards score."""
    from gametape.usecases.check import validate_path

    rec = _table(tmp_path)
    for line in ("s v", "s p", "t", "t", "g rry", "x r", "g bbo", "x b", "c gg pp", "x gg"):
        rec.move(line)
    rec.move("c oo pp")
    rec.move("x oo")
    events = [e for e in rec.game.events]
    old = tmp_path / "old"
    old.mkdir()
    path = old / f"{rec.path.stem}.jsonl"
    path.write_text(_log_of(*events, ClassicDeal(round=2, deck=None)))
    report = validate_path(path)
    assert report.status == "in_progress", report.problem
    game = Game.from_events(read_log(path).events)
    assert game.state.round == 2 and game.state.history[0].secrets == (VIOLET, PINK)


def test_c4_the_two_reveals_commute():
    """Both players show their secret cards at once: the round scores the same state in
    either order (the facts' event refs are done with at scoring)."""
    ends = []
    for order in ((0, PINK), (1, VIOLET)), ((1, VIOLET), (0, PINK)):
        g = Game.new(ClassicSetup(game="t", players=("ann", "ben"), first=0, table=True))
        g.push(ClassicDeal(round=1, deck=None))
        for line in ("s v", "s", "t", "t", "g rry", "x r", "g bbo", "x b", "c gg pp", "x gg"):
            g.push(g.parse(line))
        g.push(g.parse("c oo pp"))
        g.push(g.parse("x oo"))
        for seat, card in order:
            g.push(ClassicReveal(player=seat, card=card))
        ends.append(replace(g.state, notices=(), applied=0))
    assert ends[0] == ends[1]


def test_c4_a_scribe_s_board_says_whom_a_notice_is_for():
    """The whole view (a scribe's `show`) addresses each seat's notice to it; a dispute told
    to no seat is validate's alone."""
    from gametape.engine.ruleset import Notice, told_to
    from gametape.messages import say

    notices = (
        Notice(
            at=3,
            message=say("t.m", "m"),
            seats=(0,),
            told=say("t.told", "your trade-off no longer counts"),
        ),
        Notice(at=4, message=say("t.d", "d"), seats=()),
    )
    assert told_to(notices, None, ("ann", "ben")) == ("to ann: your trade-off no longer counts",)
    assert told_to(notices, 0, ("ann", "ben")) == ("your trade-off no longer counts",)
    assert told_to(notices, 1, ("ann", "ben")) == ()
