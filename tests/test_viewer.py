"""The Textual replay viewer, driven headless (Textual's pilot)."""

from __future__ import annotations

import asyncio
import random

from textual.containers import VerticalScroll
from textual.widgets import Input

from gametape.cli.viewer import ReplayApp
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.replay import Cursor


def _app() -> ReplayApp:
    game = sim.play(get_ruleset("hanabi"), ["ann", "bob"], "heuristic", random.Random(1))
    return ReplayApp(Cursor(game.events), follow=False)


def test_esc_in_the_jump_prompt_cancels_it_and_esc_again_quits():
    async def drive() -> None:
        app = _app()
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.press("colon")
            box = app.query_one("#jump", Input)
            assert box.has_class("open")
            await pilot.press("escape")
            assert not box.has_class("open") and app.is_running  # cancelled, still open
            await pilot.press("colon", "1", "2", "enter")
            assert app.cursor.seq == 12
            await pilot.press("escape")
            assert not app.is_running

    asyncio.run(drive())


def test_status_lines_do_not_go_stale():
    async def drive() -> None:
        app = _app()
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.press("end", "right_square_bracket")
            assert "no later" in app.message
            await pilot.press("k")  # another kind: the old "no later ..." is gone
            assert app.message == ""
            await pilot.press("right_square_bracket", "colon")
            assert app.message == ""

    asyncio.run(drive())


def test_the_footer_fits_80_columns_even_after_a_jump():
    async def drive() -> None:
        app = _app()
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.press("colon", "3", "0", "enter")
            await pilot.pause()
            keys = [w for w in app.screen.walk_children() if type(w).__name__ == "FooterKey"]
            assert keys, "no footer keys rendered"
            assert all(k.region.width > 0 and k.region.right <= 80 for k in keys), [
                (k.region, k.description) for k in keys
            ]
            assert any(k.description == "quit" for k in keys)

    asyncio.run(drive())


def test_at_80x24_a_tall_board_scrolls_and_a_key_switches_seats():
    """Every game's board fits an 80x24 terminal by scrolling (nothing is cut off for good);
    `s` goes through the seats' views; the footer always shows how to quit."""

    async def drive(name: str) -> None:
        rules = get_ruleset(name)
        players = ["ann", "bob", "cat"][: max(rules.min_players, min(3, rules.max_players))]
        game = sim.play(rules, players, rules.default_bot, random.Random(2))
        app = ReplayApp(Cursor(game.events), follow=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("end")
            scroll = app.query_one(VerticalScroll)
            await pilot.pause()
            if scroll.max_scroll_y:  # taller than the window: it scrolls to its last line
                await pilot.press("pagedown", "pagedown", "pagedown", "pagedown")
                await pilot.pause()
                assert scroll.scroll_y == scroll.max_scroll_y
                await pilot.press("up")
                await pilot.pause()
                assert scroll.scroll_y == scroll.max_scroll_y - 1
            for seat in (*range(len(players)), None):
                await pilot.press("s")
                assert app.seat == seat and app.frame is not None and app.frame.seat == seat
            await pilot.press("colon", "1", "enter")
            await pilot.pause()
            keys = [w for w in app.screen.walk_children() if type(w).__name__ == "FooterKey"]
            assert any(k.description == "quit" and k.region.right <= 80 for k in keys)

    for name in ("hanabi", "hanamikoji", "hanamikoji-classic", "ohanami"):
        asyncio.run(drive(name))
