"""What a phone sends is what its player chose (#49), in Debian's Chromium.

A half-made picker choice survives the live redraws that other seats' moves bring (in every
game whose seats pick while others move: each kind of picker that meets another seat's move),
and Send records exactly the chosen move; the front page's form starts a game from a real
browser, and another site's form does not; a seat's page reloaded without a network shows
its board and its queued move.
"""

from __future__ import annotations

import json
import random
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from gametape.engine.game import Game, notation
from gametape.engine.registry import get_ruleset
from gametape.events import read_log
from tests.serving import Served, start_game

PHONE = {"width": 390, "height": 844}
WAIT = 15_000  # ms: generous, a busy 2-core machine included


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Served(tmp_path_factory.mktemp("choices") / "store") as served:
        yield served


def _log(server: Served, game: str) -> Game:
    return Game.from_events(read_log(Path(server.store) / f"{game}.jsonl").events)


def _post(server: Served, link: str, text: str, seq: int) -> None:
    answer = server.client.post(server.path(link) + "/move", data={"seq": str(seq), "text": text})
    assert answer.status_code == 303, (text, answer.status_code, answer.text[:300])


def _follows(page, seq: int) -> None:
    page.locator(f'body[data-seq="{seq}"]').wait_for(state="attached", timeout=WAIT)


def _choose(form, rng: random.Random) -> list[str]:
    """Make a choice in a picker as a finger would: a choice in each list (none twice), the
    first box of each set ticked; the words it then sends."""
    words = []
    for field in form.locator("select, fieldset, input[type=hidden][name=w]").all():
        if field.get_attribute("type") == "hidden":
            words.append(field.get_attribute("value"))
        elif field.get_attribute("name") == "w":  # a list: any choice it offers now
            options = field.locator("option").all()
            values = [_value(o) for o in options if not o.is_disabled()]
            taken = {w.split("=")[-1] for w in words}  # a card is chosen once
            unused = [v for v in values if v and v.split("=")[-1] not in taken]
            value = unused[rng.randrange(len(unused))]
            field.select_option(value)
            words.append(value)
        else:  # a set of slots
            box = field.locator("input[type=checkbox]").first
            box.check()
            words.append(box.get_attribute("value"))
    return words


def _value(option) -> str:
    """What choosing ``option`` sends (its text, where it has no value attribute)."""
    value = option.get_attribute("value")
    return option.inner_text() if value is None else value


def _chosen(form) -> list[str]:
    """What a picker holds now, in the words it would send."""
    words = []
    for field in form.locator("select, fieldset, input[type=hidden][name=w]").all():
        if field.get_attribute("type") == "hidden":
            words.append(field.get_attribute("value"))
        elif field.get_attribute("name") == "w":
            words.append(field.input_value())
        else:
            for box in field.locator("input[type=checkbox]").all():
                if box.is_checked():
                    words.append(box.get_attribute("value"))
    return words


# Each game whose seats pick while another seat moves, dealt by the tool (the kinds of
# picker tests/test_serve_browser.py's whole games meet at a simultaneous step).
CHOOSERS = [("ohanami-classic", 2), ("hanamikoji", 2)]


@pytest.mark.parametrize(("name", "count"), CHOOSERS)
def test_a_half_made_choice_survives_other_seats_moves_and_is_what_is_sent(
    browser, server, name, count
):
    """#49: ben chose 52 and 120 without sending; ann's move arrived and redrew ben's page;
    his lists read 18 and 20, and Send recorded "ben 18 20". Here, at every kind of picker a
    seat meets while another seat moves: the choice is kept through the other seat's move,
    and what is recorded is what was chosen."""
    rules = get_ruleset(name)
    players = ["ann", "ben", "cat"][:count]
    said = start_game(server, name, ", ".join(players))
    links, gid = said["links"], said["game"]
    bots = [rules.bots[rules.default_bot]() for _ in players]
    rng = random.Random(7)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(links["ben"])
    tried: set[str] = set()
    try:
        while not (game := _log(server, gid)).is_over and len(tried) < 2:
            acting = game.to_act()
            seq = len(game.events)
            _follows(page, seq)
            pickers = page.locator("form.picker").all()
            kinds = {p.get_attribute("data-form").split("#")[0]: p for p in pickers}
            fresh = [k for k in kinds if k not in tried]
            if 1 in acting and fresh and len(acting) > 1:
                kind = fresh[0]
                form = page.locator(f'form.picker[data-form^="{kind}#"]').first
                words = _choose(form, rng)
                other = next(s for s in acting if s != 1)
                move = bots[other].choose(game.view(other), game.legal_moves(other), rng)
                _post(server, links[players[other]], notation(rules, game.state, move), seq)
                _follows(page, seq + 1)  # ann's move redrew ben's page
                form = page.locator(f'form.picker[data-form^="{kind}#"]').first
                assert _chosen(form) == words, (kind, words, _chosen(form))
                # lists that keep apart take their cards in either order: the legal move's
                # value is sent, in the order the game lists it (#51)
                either = form.locator("select[data-apart]").count() > 0
                with page.expect_navigation(timeout=WAIT):
                    form.locator("button[type=submit]").click()
                problem = page.locator("#problem")
                text = " ".join(words)
                if problem.count():  # refused: in words, and nothing else recorded
                    assert len(_log(server, gid).events) == seq + 1, problem.inner_text()
                    page.goto(links["ben"])
                else:
                    after = _log(server, gid)
                    sent = [
                        notation(rules, after.fold.states[s - 1], after.events[s])
                        for s in range(seq + 1, len(after.events))
                    ]

                    n = len(words) - 1
                    ends = [s.split()[-n:] for s in sent]
                    chose = text.split()[-n:]
                    if either:
                        ends, chose = [sorted(e) for e in ends], sorted(chose)
                    assert chose in ends, (text, sent)
                    tried.add(kind)
                continue
            seat = acting[0]
            move = bots[seat].choose(game.view(seat), game.legal_moves(seat), rng)
            _post(server, links[players[seat]], notation(rules, game.state, move), seq)
        assert tried, "no picker met another seat's move"
    finally:
        context.close()


def test_a_choice_begun_before_an_undo_is_refused_in_words_never_swapped(browser, server):
    """A choice is sent at the position it was begun in: ann's choice arriving meanwhile
    (the same simultaneous step) does not stop it, but the host's undo does: Send is then
    refused ("the table moved on"), nothing is recorded, the page keeps the choice, and a
    second Send records it as chosen."""
    rules = get_ruleset("ohanami-classic")
    said = start_game(server, "ohanami-classic", "ann, ben")
    links, gid = said["links"], said["game"]
    bots = [rules.bots[rules.default_bot]() for _ in range(2)]
    rng = random.Random(11)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(links["ben"])
    try:
        game = _log(server, gid)
        seq = len(game.events)
        _follows(page, seq)
        words = _choose(page.locator("form.picker").first, rng)
        move = bots[0].choose(game.view(0), game.legal_moves(0), rng)
        _post(server, links["ann"], notation(rules, game.state, move), seq)
        _follows(page, seq + 1)
        assert _chosen(page.locator("form.picker").first) == words
        _post(server, links["host"], "undo", seq + 1)  # the host takes ann's choice back
        _follows(page, seq + 2)
        assert _chosen(page.locator("form.picker").first) == words
        with page.expect_navigation(timeout=WAIT):
            page.locator("form.picker button[type=submit]").first.click()
        assert "moved on" in page.locator("#problem").inner_text()
        assert len(_log(server, gid).events) == seq + 2  # nothing recorded in its place
        assert _chosen(page.locator("form.picker").first) == words  # kept on the page
        with page.expect_navigation(timeout=WAIT):
            page.locator("form.picker button[type=submit]").first.click()
        assert not page.locator("#problem").count()
        recorded = _log(server, gid)
        last = notation(rules, recorded.fold.states[-2], recorded.events[-1])
        assert last.split()[-2:] == words[-2:], (last, words)
    finally:
        context.close()


class _OtherSite(BaseHTTPRequestHandler):
    """Another site's page, on another port of this machine, with a form posting to the
    server's /new."""

    target = ""

    def do_GET(self) -> None:
        body = (
            f'<form method="post" action="{self.target}/new">'
            '<input name="ruleset" value="hanabi"><input name="players" value="eve, mal">'
            '<button type="submit">go</button></form>'
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_the_front_page_form_starts_a_game_in_chromium_and_another_site_s_does_not(browser, server):
    """#49: Chromium sent "Origin: null" (the pages said no-referrer) and /new refused the
    front page's own form. Now a click on it lands on the new game's links; a form on another
    site's page (another port of this machine) is still refused, and starts nothing."""
    context = browser.new_context(viewport=PHONE, is_mobile=True)
    page = context.new_page()
    store = Path(server.store)
    try:
        page.goto(server.url)
        page.select_option("select[name=ruleset]", "hanamikoji")
        page.fill("input[name=players]", "ann, ben")
        with page.expect_navigation(url=re.compile(r"/links$"), timeout=WAIT):
            page.click("form.newgame button[type=submit]")
        announced = server.announced()
        assert announced["ruleset"] == "hanamikoji"
        assert page.locator("a[href$='/links'], .link").count() or "ann" in page.content()
        for who in ("ann", "ben", "host", "spectator"):
            assert announced["links"][who] in page.content()
        before = sorted(store.glob("*.jsonl"))
        _OtherSite.target = server.url.rstrip("/")
        other = ThreadingHTTPServer(("127.0.0.1", 0), _OtherSite)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
            with page.expect_navigation(timeout=WAIT):
                page.click("button[type=submit]")
            assert "own front page" in page.content()
        finally:
            other.shutdown()
        assert sorted(store.glob("*.jsonl")) == before
    finally:
        context.close()


def test_a_seat_page_reloaded_offline_shows_its_board_and_its_queued_move(browser, server):
    """#49: a reload or a home-screen launch without a network showed the browser's "No
    internet" page. The service worker keeps the seat's last page: reloaded offline it shows
    the board, says it is offline and shows the move queued; back online, the move is sent
    once and the page follows."""
    said = start_game(server, "hanabi", "ann, ben")
    log = Path(server.store) / f"{said['game']}.jsonl"
    context = browser.new_context(viewport=PHONE, is_mobile=True, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(said["links"]["ann"])
        _follows(page, 1)
        page.evaluate(
            """async () => {
                await navigator.serviceWorker.ready;
                for (let i = 0; i < 300; i++) {
                  const cache = await caches.open("gametape-pages");
                  if (await cache.match(location.pathname)) return;
                  await new Promise((r) => setTimeout(r, 100));
                }
                throw new Error("the page was never kept");
            }"""
        )
        context.set_offline(True)
        # Chromium's offline emulation does not hold back what the page's service worker
        # fetches (a reloaded page's queued move could reach the server): the server is
        # unreachable too while the page is offline
        with server.unreachable():
            page.locator('form.buttons button[data-text="play 1"]').click()
            page.locator('body[data-queued="1"]').wait_for(timeout=WAIT)
            page.reload()
            page.locator("#board").wait_for(timeout=WAIT)
            page.locator('body[data-queued="1"]').wait_for(state="attached", timeout=WAIT)
            assert "will be sent when the network is back" in page.locator("#queued").inner_text()
            page.locator("#offline:not([hidden])").wait_for(timeout=WAIT)
            assert len(log.read_bytes().splitlines()) == 1  # nothing recorded while offline
        with page.expect_navigation(url=re.compile(r"\?ok=1$"), timeout=WAIT):
            context.set_offline(False)
        assert len(read_log(log).events) == 2
        _follows(page, 2)
    finally:
        context.close()


def test_a_card_chosen_in_one_list_is_not_offered_in_the_other(browser, server):
    """#49: Ohanami's choice was two lists that each listed the whole hand: the same card
    could be picked twice, then was refused. Lists that never take the same choice in a
    legal move (from the moves, not their words) now keep apart."""
    said = start_game(server, "ohanami-classic", "ann, ben")
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(said["links"]["ann"])
        lists = page.locator("form.picker select[data-apart]")
        assert lists.count() == 2
        offered = [[_value(o) for o in lists.nth(n).locator("option").all()] for n in (0, 1)]
        both = [v for v in offered[0] if v and v in offered[1]]
        lists.nth(0).select_option(both[0])
        options = lists.nth(1).locator("option").all()
        disabled = [_value(o) for o in options if o.is_disabled()]
        assert disabled == [both[0]], disabled  # that card alone, in the other list
        lists.nth(1).select_option(both[1])  # any other card can still be chosen there
        assert [_value(o) for o in lists.nth(0).locator("option").all() if o.is_disabled()] == [
            both[1]
        ]
        # #51: chosen in either order, the two cards find the legal move, sent as its value
        lists.nth(1).select_option("")  # chosen again: the higher card first
        lists.nth(0).select_option(both[-1])
        lists.nth(1).select_option(both[0])
        form = page.locator("form.picker:has(select[data-apart])")
        before = len(_log(server, said["game"]).events)
        with page.expect_request(lambda r: r.method == "POST") as posted:
            form.locator("button[type=submit]").click()
        sent = json.loads(parse_qs(posted.value.post_data or "")["move"][0])
        assert sorted(sent["cards"]) == sorted(int(c) for c in (both[0], both[-1])), sent
        _follows(page, before + 1)  # the page shows the move recorded
        recorded = _log(server, said["game"]).events[before]
        assert sorted(recorded.cards) == sorted(sent["cards"])  # type: ignore[attr-defined]
    finally:
        context.close()


def test_a_table_clue_sent_without_a_slot_is_stopped_on_the_page(browser, server):
    """#49: a table clue touching nothing was sent, then refused. A set of slots names one
    at least: the page says so and sends nothing; with a slot ticked, the clue is recorded,
    sent as the value the page built from the choices (#51)."""
    said = start_game(server, "hanabi", "ann, ben", table=True)
    log = Path(server.store) / f"{said['game']}.jsonl"
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(said["links"]["ann"])
        form = page.locator("form.picker", has=page.locator("fieldset[data-least]")).first
        lists = form.locator("select")
        for n in range(lists.count()):
            values = [_value(o) for o in lists.nth(n).locator("option").all()]
            lists.nth(n).select_option(next(v for v in values if v and v != "?"))
        form.locator("button[type=submit]").click()
        form.locator(".least").wait_for(timeout=WAIT)
        assert "tick one at least" in form.locator(".least").inner_text()
        assert len(read_log(log).events) == 1  # nothing sent
        form.locator("fieldset[data-least] input[type=checkbox]").first.check()
        with page.expect_request(lambda r: r.method == "POST") as posted:
            form.locator("button[type=submit]").click()
        page.wait_for_load_state()
        events = read_log(log).events
        assert len(events) == 2
        # #51: the page built the clue as a value from the choices; it is what was recorded
        sent = json.loads(parse_qs(posted.value.post_data or "")["move"][0])
        assert sent["type"] == "hanabi.clue" and sent["target"] == 1, sent
        assert sent["touched"] == list(events[1].touched or ()), (sent, events[1])
    finally:
        context.close()


def test_a_player_taps_the_cards_of_their_hand_they_mean(browser, server, tmp_path):
    """#49: "let the player tap what they mean". The cards of a seat's own hand that its
    picker names are buttons: a tap chooses one in the next open list, a second tap takes it
    back, a pressed card shows it is chosen, and Send records the cards tapped."""
    said = start_game(server, "ohanami-classic", "ann, ben")
    game = said["game"]
    hand = _log(server, game).state.hands[0]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(said["links"]["ann"])
        cards = page.locator("button.card[data-word]")
        assert sorted(int(w) for w in cards.evaluate_all("c => c.map(b => b.dataset.word)")) == [
            *hand
        ]
        first, second, third = (page.locator(f'button.card[data-word="{c}"]') for c in hand[:3])
        first.tap()
        third.tap()
        third.tap()  # taken back
        second.tap()
        lists = page.locator("form.picker select")
        assert [lists.nth(n).input_value() for n in (0, 1)] == [str(hand[0]), str(hand[1])]
        assert first.get_attribute("aria-pressed") == "true"
        assert third.get_attribute("aria-pressed") == "false"
        page.screenshot(path=str(tmp_path / "tapped.png"), full_page=True)
        with page.expect_navigation(timeout=WAIT):
            page.locator("form.picker button[type=submit]").click()
        move = _log(server, game).events[-1]
        assert move.player == 0 and sorted(move.cards) == sorted(hand[:2])
    finally:
        context.close()


def test_a_clue_picker_offers_only_clues_that_touch_a_card(browser, server):
    """#49: Hanabi's clue picker offered clues that touch nothing, refused after sending. A
    picker of known moves now offers, in each list, only what makes a legal move with the
    choices made: once ben is chosen, only the clues that touch one of ben's cards. Send
    records the clue chosen, which the page sends as a value."""
    for _ in range(10):  # a deal with more than 12 clues, which the page offers as a picker
        said = start_game(server, "hanabi", "ann, ben, cat, dan", options="variant=6 Suits")
        state = server.client.get(server.path(said["links"]["ann"]) + "/state.json").json()
        if any(p["moves"] for p in state["pickers"]):
            break
    game = _log(server, said["game"])
    legal = {notation(game.ruleset, game.state, m) for m in game.legal_moves(0)}
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(said["links"]["ann"])
        form = page.locator("form.picker[data-moves]").first
        lists = form.locator("select")
        offered = 0
        for target in ("ben", "cat", "dan"):
            lists.nth(0).select_option(target)
            options = lists.nth(1).locator("option").all()
            enabled = [_value(o) for o in options if _value(o) and not o.is_disabled()]
            disabled = [_value(o) for o in options if _value(o) and o.is_disabled()]
            assert enabled and all(f"clue {target} {w}" in legal for w in enabled)
            assert not any(f"clue {target} {w}" in legal for w in disabled)
            offered += len(enabled)
        assert offered == sum(t.startswith("clue ") for t in legal)
        # Send records the clue chosen, sent as its value (#51): ann's clue to dan
        lists.nth(1).select_option(enabled[0])
        with page.expect_request(lambda r: r.method == "POST") as posted:
            form.locator("button[type=submit]").click()
        sent = json.loads(parse_qs(posted.value.post_data or "")["move"][0])
        assert sent["type"] == "hanabi.clue" and sent["target"] == 3, sent
        page.wait_for_load_state()
        clue = _log(server, said["game"]).events[-1]
        assert clue.player == 0 and clue.target == 3, clue
        assert f"clue dan {enabled[0]}" == notation(game.ruleset, game.state, clue)
    finally:
        context.close()
