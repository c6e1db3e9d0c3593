"""The secrecy kit (gametape.testing.secrecy) on every installed game and on two toys, and
proof that it finds a leak: a game that leaves its refusals to the hidden state (Hanabi
without ``check_known``), and one whose description tells a secret bid."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from gametape.engine.registry import all_rulesets, get_ruleset
from gametape.engine.ruleset import ONLOOKER
from gametape.events.base import Event
from gametape.games.hanabi import Hanabi
from gametape.games.hanamikoji_classic import HanamikojiClassic
from gametape.games.hanamikoji_classic.events import ClassicCompete, ClassicGift
from gametape.games.hanamikoji_classic.rules import _cards_of, _check_count
from gametape.games.ohanami import Ohanami
from gametape.messages import Message, say
from gametape.testing.secrecy import check_secrecy
from tests.plugins.toy_bids import Bid, Bids, BidsState
from tests.plugins.toy_nim import Nim
from tests.plugins.toy_peek import Look, PeekGame

NAMES = [r.name for r in all_rulesets()]


def _report(leaks: list[Any]) -> str:
    return "\n".join(str(leak) for leak in leaks[:5])


@pytest.mark.parametrize("name", NAMES)
def test_every_answer_is_the_same_in_worlds_a_requester_cannot_tell_apart(name):
    leaks = check_secrecy(get_ruleset(name), games=2, seed=1)
    assert not leaks, _report(leaks)


@pytest.mark.parametrize("name", NAMES)
def test_the_same_at_a_table(name):
    """Claims included (ruling C4, O7b): a hidden card named on its player's page is swapped
    for another, or for none, and nothing the other seats are told changes."""
    leaks = check_secrecy(get_ruleset(name), games=2, seed=2, table=True)
    assert not leaks, _report(leaks)


@pytest.mark.parametrize("rules", [Bids(), Nim()], ids=["toy-bids", "toy-nim"])
def test_the_toy_plug_ins_keep_their_secrets_with_the_framework_s_defaults(rules):
    assert check_secrecy(rules, games=2, players=3, seed=3) == []


class _NoCheck(Hanabi):
    """Hanabi as it was: a refusal consulted the deck (``play 1 r1`` told a seat its card)."""

    def check_known(self, view: Any, event: Event) -> None:
        return None


class _Telling(Bids):
    """A bid shown to the others without its card, described per seat from the state, which
    holds the card."""

    declared = msgspec.structs.replace(Bids.declared, describes_per_seat=True)

    def redact(self, state: BidsState, event: Event, seat: int) -> Event | None:
        shown = super().redact(state, event, seat)
        return shown if shown is not None else msgspec.structs.replace(event, card=0)

    def describe(self, before: BidsState, event: Event, after: BidsState, seat=None) -> Message:
        assert isinstance(event, Bid)
        made = after.pending[event.player]
        return say("bids.bid", "bid {card}", card=made.card if made is not None else event.card)


def test_the_kit_finds_a_refusal_that_names_a_hidden_card():
    leaks = check_secrecy(_NoCheck(), games=2, seed=4, texts=_faces)
    assert any("refused" in (leak.real + leak.other) for leak in leaks), _report(leaks)


def test_the_kit_finds_a_description_that_tells_a_secret_move():
    leaks = check_secrecy(_Telling(), games=2, seed=5)
    assert any(leak.what == "description" for leak in leaks), _report(leaks)


def _faces(game, seat) -> list[str]:
    """Adversarial texts: a play of each slot naming each face."""
    return [f"play {slot} {f}{r}" for slot in (1, 2) for f in "rygbw" for r in (1, 2)]


def test_a_seat_naming_its_own_hidden_card_is_refused_in_the_same_words_whatever_it_is():
    import random

    from gametape.engine.fold import Fold
    from gametape.testing.secrecy import answers, play_random

    rules = get_ruleset("hanabi")
    events = play_random(rules, ("ann", "ben", "cat"), random.Random(7))
    fold = Fold(rules, events[0])
    said = answers(rules, fold, 0, 0, texts=_faces)
    refusals = {
        v for k, v in said.items() if k.startswith("the answer to 'play") and k.count(" ") == 5
    }
    assert len(refusals) == 2, refusals  # one per slot, the same for every face
    assert all("ann's slot" in r and "is not shown to ann" in r for r in refusals)


class _Hoping(Ohanami):
    """A seat's hypothesis that keeps the other seats' picks of the turn still open."""

    def hypothesis(self, events, seat):
        from gametape.engine.fold import live_events

        first, *rest = live_events(events)
        return [msgspec.structs.replace(first, table=True), *rest]


def test_the_kit_finds_a_hypothesis_that_starts_from_what_the_seat_did_not_see():
    leaks = check_secrecy(_Hoping(), games=2, seed=6)
    assert any(leak.what == "hypothesis" for leak in leaks), _report(leaks)


def test_a_leak_in_a_page_is_shown_where_the_worlds_differ():
    """#50: a difference in a page was printed as each world's first 300 characters, the
    same `<!doctype html>…` in both; the report shows where they part."""
    from gametape.testing.secrecy import Leak

    head = "<!doctype html><html><head>" + "x" * 400
    leak = Leak("g1", "ben", 3, "the page", head + "<b>r3</b>", head + "<b>y1</b>", "ann's hand")
    said = str(leak)
    assert "from character 430" in said and "r3" in said and "y1" in said
    assert "<!doctype" not in said


class _CountingClaims(HanamikojiClassic):
    """The published Hanamikoji as ruling C4 had it before turn 5: a gift or competition is
    refused when it shows more of a geisha than the facts and every claim leave, the other
    player's claims included."""

    def apply(self, state: Any, event: Event) -> Any:
        if state.at_table and isinstance(event, ClassicGift | ClassicCompete):
            _check_count(state, _cards_of(event), state.claims, "a player")
        return super().apply(state, event)


def test_the_kit_finds_a_check_that_counts_another_seat_s_claim():
    """#50: a planted ruleset that judges a move by a claim its sender cannot see."""
    leaks = check_secrecy(_CountingClaims(), games=1, seed=0, table=True)
    assert any(leak.what.startswith("the answer to") for leak in leaks), _report(leaks)


# --- a public move with a private result (#50): the kit judges by the events as redacted ---


class _OnlookerIndex(PeekGame):
    """A view that indexes hands with the onlooker's seat (-1): the host and spectators see
    the last seat's card."""

    def view(self, state, seat):
        shown = super().view(state, seat)
        if seat == ONLOOKER and state.hands:
            return msgspec.structs.replace(shown, own=state.hands[seat])
        return shown


class _EveryPeek(PeekGame):
    """A view that shows every seat what every peek saw (another seat's private result)."""

    def view(self, state, seat):
        shown = super().view(state, seat)
        return msgspec.structs.replace(
            shown, peeked=tuple((t, c) for (_, t), c in zip(state.peeks, state.seen, strict=False))
        )


class _AsideInDetails(PeekGame):
    """A result whose details name the card set aside, which nobody ever sees."""

    def result(self, state):
        done = super().result(state)
        if done is None:
            return None
        return msgspec.structs.replace(done, details={"aside": state.aside})


class _KindsSaw(PeekGame):
    """Replay jumps that name the card a peek saw, for every requester."""

    def kinds(self, before, event, after):
        return ("look", f"saw {event.card}") if isinstance(event, Look) else ()


def test_a_public_move_with_a_private_result_keeps_its_secret():
    """The peek's card is told to the peeker alone (its event as redacted), and the toy that
    keeps every secret in its events passes the kit judged by those events."""
    leaks = check_secrecy(PeekGame(), games=3, seed=7, worlds=8)
    assert not leaks, _report(leaks)


@pytest.mark.parametrize(
    "planted, what",
    [
        (_OnlookerIndex(), "board"),
        (_EveryPeek(), "board"),
        (_AsideInDetails(), "result"),
        (_KindsSaw(), "kinds"),
    ],
    ids=["view-onlooker-index", "view-another-s-result", "result-details", "kinds"],
)
def test_the_kit_finds_a_leak_in_the_view_the_result_and_the_kinds(planted, what):
    """A view, a result or kinds that show what the requester was never told: each caught,
    since two worlds are compared while their events as redacted for the requester agree,
    whatever the views show."""
    leaks = check_secrecy(planted, games=3, seed=7, worlds=8)
    assert any(leak.what == what for leak in leaks), _report(leaks) or "no leak found"


def test_judged_by_its_views_the_kit_misses_a_leaky_view():
    """Why the kit judges by events: the same leaky view, judged by the views, makes every
    world it leaks in look told, and nothing is compared."""

    class _ByViews(_EveryPeek):
        declared = msgspec.structs.replace(_EveryPeek.declared, secrecy="views")

    leaks = check_secrecy(_ByViews(), games=3, seed=7, worlds=8)
    assert not [leak for leak in leaks if leak.what == "board"], _report(leaks)


# --- a game recorded at a table is judged by its events as told (#50) ---


class _ShowsClaims(HanamikojiClassic):
    """The published Hanamikoji whose view shows every seat the other's claims: a secret
    card or trade-off named on the other player's page (ruling C4)."""

    def view(self, state, seat):
        shown = super().view(state, seat)
        sides = tuple(
            msgspec.structs.replace(side, claims=tuple(c for c in state.claims if c.seat == s))
            for s, side in enumerate(shown.sides)
        )
        return msgspec.structs.replace(shown, sides=sides)


def test_a_view_at_a_table_that_shows_another_seat_s_claim_is_caught():
    """At a table every card enters the log as an event, so the kit judges what a seat may
    know by the events as it was told them (engine.told), not by the game's views: judged by
    the views, this view differed in every world where the claims did, and nothing was
    compared. The claims the view shows count in the sender's own checks (``check_known``
    reads the view), so a refusal tells a seat the other's hidden cards."""
    leaks = check_secrecy(_ShowsClaims(), games=2, seed=2, table=True)
    assert any(leak.what.startswith("the answer to") for leak in leaks), (
        _report(leaks) or "no leak found"
    )


class _OwnNewestCard(Hanabi):
    """Hanabi whose view shows each seat the face of its own newest card."""

    def view(self, state, seat):
        shown = super().view(state, seat)
        if seat in (None, ONLOOKER):
            return shown
        hand = shown.hands[seat]
        newest = msgspec.structs.replace(hand[0], face=state.faces[hand[0].order])
        hands = (*shown.hands[:seat], (newest, *hand[1:]), *shown.hands[seat + 1 :])
        return msgspec.structs.replace(shown, hands=hands)


def test_a_dealt_game_s_leaky_view_is_caught_by_what_each_seat_was_shown():
    """Every built-in game says what of its deck each seat has been shown by now
    (``Ruleset.shown``: a Hanabi seat, every card drawn but its own hand's), so the kit
    judges a dealt game by the events as told too, and a view that shows a seat its own card
    is caught; judged by the views, every world where that card differs looked told."""
    leaks = check_secrecy(_OwnNewestCard(), games=2, seed=1)
    assert any(leak.what == "board" for leak in leaks), _report(leaks) or "no leak found"


@pytest.mark.parametrize("table", [False, True], ids=["dealt", "at a table"])
@pytest.mark.parametrize("variant", ["Cow & Pig (5 Suits)", "Duck (4 Suits)"])
def test_a_clue_s_hidden_value_is_kept_from_all_but_its_giver(variant, table):
    """Cow & Pig and Duck (#54): a clue replaced by another that touches the same cards and is
    told in the same words (moo, oink, quack) changes nothing any other seat is told."""
    leaks = check_secrecy(
        get_ruleset("hanabi"), games=2, seed=3, table=table, options={"variant": variant}
    )
    assert not leaks, _report(leaks)


@pytest.mark.parametrize("table", [False, True], ids=["dealt", "at a table"])
@pytest.mark.parametrize(
    "variant", ["Up or Down (5 Suits)", "Sudoku (5 Suits)", "Throw It in a Hole & Orange (5 Suits)"]
)
def test_fireworks_the_plays_decide_tell_no_seat_more(variant, table):
    """Up or Down and Sudoku (#54): a firework's way is decided by cards everyone saw played;
    a world where a seat's unseen card differs tells that seat nothing new (START cards
    included, written ``rs`` at a table). Orange cards in a hole: one discarded goes into the
    hole unseen, one played lands face up, and nothing else is told. (One game at a table,
    where each world's log is folded whole: the Sudoku run took 38 s of the suite with two.)"""
    leaks = check_secrecy(
        get_ruleset("hanabi"),
        games=1 if table else 2,
        seed=3,
        table=table,
        options={"variant": variant},
    )
    assert not leaks, _report(leaks)
