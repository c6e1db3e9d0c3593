"""Reviewing together in Debian's Chromium (#42): four pages (the host leading, two seats, a
spectator), each its own browser context, follow the leader through a finished game; a
follower steps away and comes back; a what-if of five moves is played and kept as a branch;
notes from two people reach everyone; a page whose connection drops catches up; the lead is
handed on, and taken once the leader has gone."""

from __future__ import annotations

import contextlib
import json
import random
import subprocess
import time

import pytest

from gametape.engine import simulate as sim
from gametape.engine.game import Game, notation
from gametape.engine.registry import get_ruleset
from gametape.events import Store, read_log
from tests.serving import GAMETAPE, Served

PHONE = {"width": 390, "height": 844}
FOLLOW = 30_000  # ms: a generous deadline for a page to reach the leader (how fast: bench/)


def _finished(store, ruleset: str, seed: int) -> str:
    rules = get_ruleset(ruleset)
    game = sim.play(rules, ["ann", "ben"], rules.default_bot or "random", random.Random(seed))
    assert game.is_over
    return Store(store).create(game.events[0], game.events[1:])


def _at(page, seq: int, timeout: float = FOLLOW) -> None:
    page.locator(f'body[data-seq="{seq}"]').wait_for(state="attached", timeout=timeout)


def _room(page, attr: str, value: str, timeout: float = FOLLOW) -> None:
    page.locator(f'body[data-{attr}="{value}"]').wait_for(state="attached", timeout=timeout)


def _open(browser, links: dict[str, str], who: tuple[str, ...], langs: dict[str, str] = {}):  # noqa: B006
    contexts, pages = [], {}
    for w in who:
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
        page = context.new_page()
        page.goto(links[w] + "/review" + (f"?lang={langs[w]}" if w in langs else ""))
        contexts.append(context)
        pages[w] = page
        page.locator("body[data-room-version]").wait_for(state="attached", timeout=FOLLOW)
    return contexts, pages


@pytest.mark.parametrize(("ruleset", "seed"), [("hanabi", 3), ("hanamikoji-classic", 2)])
def test_four_pages_follow_the_leader_through_a_finished_game(browser, tmp_path, ruleset, seed):
    store = tmp_path / "store"
    gid = _finished(store, ruleset, seed)
    with Served(store, "--links", gid, "--lead-timeout", "2") as served:
        links = served.announced()["links"]
        contexts, pages = _open(browser, links, ("host", "ann", "ben", "spectator"))
        try:
            host = pages["host"]
            _room(host, "leads", "1")
            last = len(read_log(Store(store).path(gid)).events) - 1
            # the leader steps; everyone follows
            for seq in (1, 2, 3, last // 2):
                host.locator("#slider").fill(str(seq))
                for who in ("ann", "ben", "spectator"):
                    _at(pages[who], seq)
            # a follower steps on its own, then follows again with one tap
            ann = pages["ann"]
            ann.locator("#prev").click()
            _room(ann, "following", "0")
            host.locator("#next").click()
            _at(pages["ben"], last // 2 + 1)
            _at(ann, last // 2 - 1)  # still where she went
            ann.locator("#room-follow").click()
            _at(ann, last // 2 + 1)
            # each seat's page holds only its own view
            assert "ann's view" in ann.locator("#viewer").inner_text()
            data = json.loads(pages["ben"].locator("#data").inner_text())
            assert data["seat"] == "ben" and len(data["views"]) == 1
            host.screenshot(path=str(tmp_path / f"review-{ruleset}.png"))
        finally:
            for c in contexts:
                c.close()


def test_a_what_if_notes_a_dropped_page_and_the_lead_handed_on(browser, tmp_path):
    store = tmp_path / "store"
    gid = _finished(store, "hanabi", 5)
    with Served(store, "--links", gid, "--lead-timeout", "2") as served:
        links = served.announced()["links"]
        contexts, pages = _open(browser, links, ("host", "ann", "ben", "spectator"))
        host, ann, ben = pages["host"], pages["ann"], pages["ben"]
        try:
            _room(host, "leads", "1")
            host.locator("#slider").fill("4")
            for p in pages.values():
                _at(p, 4)
            # what if: a branch at seq 4, five moves made from the pages
            host.locator("#room-branch").click()
            for p in pages.values():  # every page is on the branch ("a branch of …")
                p.locator("#lineage:not([hidden])").wait_for(timeout=FOLLOW)
            for who in ("host", "ann", "ben"):  # the spectator records nothing
                pages[who].locator("#room-move:not([hidden])").wait_for(timeout=FOLLOW)
            assert pages["spectator"].locator("#room-move").is_hidden()
            branch = json.loads(host.locator("#data").inner_text())["game"]
            assert branch != gid
            for n in range(5):
                game = Game.from_events(read_log(Store(store).path(branch)).events)
                seat = game.ruleset.to_act(game.state)[0]
                who = game.players[seat]
                moves = sorted(game.legal_moves(seat), key=repr)
                if n % 2 == 0:  # the host enters what the table sees; the seat its own
                    page, moves = host, [m for m in moves if type(m).__name__ != "HanabiClue"]
                else:
                    page = pages[who]
                page.locator("#room-move input[name=text]").fill(
                    notation(game.ruleset, game.state, moves[0])
                )
                page.locator("#room-move button").click()
                for p in pages.values():
                    _at(p, 5 + n, timeout=FOLLOW)
            log = subprocess.run(
                [GAMETAPE, "--store", str(store), "log", branch, "--json"],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            assert len([r for r in map(json.loads, log.stdout.splitlines()) if r["seq"] > 4]) == 5
            # notes from two people reach every page
            for who, text in (("ann", "that discard hurt"), ("ben", "I had the 5")):
                pages[who].locator("#room-note input[name=text]").fill(text)
                pages[who].locator("#room-note button").click()
            for p in pages.values():
                p.locator("#room-notes li", has_text="I had the 5").wait_for(timeout=FOLLOW)
                p.locator("#room-notes li", has_text="that discard hurt").wait_for(timeout=FOLLOW)
            # a page whose connection drops catches up when it is back
            ben.context.set_offline(True)
            host.locator("#prev").click()
            _at(ann, 8)
            time.sleep(0.5)
            ben.context.set_offline(False)
            _at(ben, 8, timeout=FOLLOW)
            # the lead is handed on to ann, then taken by ben once ann's page has gone
            host.locator("#room-hand-to").select_option(label="ann")
            host.locator("#room-hand").click()
            _room(ann, "leads", "1")
            ann.context.close()
            ben.locator("#room-take:not([hidden])").wait_for(timeout=FOLLOW)
            ben.locator("#room-take").click()
            _room(ben, "leads", "1")
            ben.locator("#prev").click()
            _at(host, 7)
            host.screenshot(path=str(tmp_path / "review-what-if.png"))
        finally:
            for c in contexts:
                with contextlib.suppress(Exception):  # ann's is closed already
                    c.close()


def test_a_review_room_with_a_page_in_each_language_at_once(browser, tmp_path):
    """#52: the host leads in Persian (right to left, Persian digits), ann follows in
    Hungarian and ben in English, in one room: each page's controls, room lines and boards
    are in its own language, and the room's steps reach all three."""
    store = tmp_path / "store"
    gid = _finished(store, "hanabi", 3)
    with Served(store, "--links", gid, "--lead-timeout", "2") as served:
        links = served.announced()["links"]
        langs = {"host": "fa", "ann": "hu", "ben": "en"}
        contexts, pages = _open(browser, links, tuple(langs), langs)
        try:
            host, ann, ben = pages["host"], pages["ann"], pages["ben"]
            _room(host, "leads", "1")
            host.locator("#slider").fill("3")
            for p in pages.values():
                _at(p, 3)
            for who, lang in langs.items():
                root = pages[who].locator("html")
                assert root.get_attribute("lang") == lang
                assert root.get_attribute("dir") == ("rtl" if lang == "fa" else "ltr")
            # the leader's own lines, in Persian and its digits
            assert "رهبری" in host.locator("#room-status").inner_text()
            assert host.locator("#first").get_attribute("aria-label") == "نخست"
            assert "شمارهٔ ۳/" in host.locator("#position").inner_text()
            # the followers', each in its own
            ann.locator("#room-status", has_text="követése").wait_for(timeout=FOLLOW)
            assert ann.locator("#first").get_attribute("aria-label") == "első"
            assert "3/" in ann.locator("#position").inner_text()
            ben.locator("#room-status", has_text="Following").wait_for(timeout=FOLLOW)
            assert ben.locator("#first").get_attribute("aria-label") == "first"
            # the kinds a replay jumps between, in each page's words
            kinds = {w: p.locator("#kind option").all_inner_texts() for w, p in pages.items()}
            assert "سرنخ" in kinds["host"] and "információ" in kinds["ann"]
            assert "clue" in kinds["ben"]
            host.screenshot(path=str(tmp_path / "review-fa.png"))
        finally:
            for c in contexts:
                c.close()
