"""The HTML replay (`export --format html`): what the file holds, secrecy, size, and the page
itself in a real headless Chromium (skipped, saying why, when no browser is installed)."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.cli.frames import header
from gametape.engine import simulate as sim
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset, names
from gametape.events import Store, read_log
from gametape.games.hanamikoji.events import HanamikojiSetup
from gametape.games.hanamikoji_classic.events import ClassicDeal
from gametape.games.ohanami.events import OhanamiDeal
from gametape.replay import Cursor
from gametape.replay.html import page, result_text
from gametape.usecases.record import Recording, new_game
from tests.helpers import TABLE_LINES

NAMES = names()
runner = CliRunner()


def _game(name: str, seed: int, players: list[str] | None = None) -> Game:
    rules = get_ruleset(name)
    n = max(rules.min_players, min(3, rules.max_players))
    return sim.play(
        rules, players or sim.default_players(n), rules.default_bot, random.Random(seed)
    )


def _data(html: str) -> dict:
    raw = re.search(r'<script id="data" type="application/json">(.*?)</script>', html, re.S)
    assert raw is not None
    return json.loads(raw.group(1))


# The published Hanamikoji at a table: one round, with the secret cards shown at scoring.
CLASSIC_TABLE = ["s", "s", "t", "t", "g vvr", "x r", "g yyr", "x y", "c bb oo", "x bb"]
CLASSIC_TABLE += ["c gg pp", "x gg", "show ben p", "show ann p"]


def _table_game(name: str, store: Store) -> Path:
    """A game recorded as at a real table (a bot's game typed in the table's notation)."""
    players = ["ann", "ben"] if get_ruleset(name).max_players == 2 else ["ann", "ben", "cat"]
    gid, _ = new_game(store, name, players, table=True)
    rec = Recording(store, store.path(gid))
    lines = TABLE_LINES[name](_game(name, 11, players)) if name in TABLE_LINES else CLASSIC_TABLE
    for line in lines:
        rec.move(line)
    return store.path(gid)


# --- what the file holds ----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_the_page_is_self_contained_and_holds_every_frame(name):
    cursor = Cursor(_game(name, 3).events)
    html = page(cursor)
    # nothing is fetched: no scripts, styles, fonts or images from anywhere
    assert not re.search(r"https?:|\bsrc=|<link|@import|url\(", html, re.I)
    data = _data(html)
    frames = data["views"][0]["frames"]
    assert len(frames) == cursor.last + 1
    for seq in (0, cursor.last // 2, cursor.last):
        frame, shown = cursor.frame(seq), frames[seq]
        assert (shown["s"], shown["t"], shown.get("m"), shown.get("c")) == (
            seq,
            frame.turn,
            frame.move,
            frame.change,
        )
    assert data["result"] is not None and data["seat"] is None


def test_player_names_and_moves_are_data_never_markup():
    evil = ["</script><b>x", "<!--a&b"]
    cursor = Cursor(_game("hanabi", 1, evil).events)
    html = page(cursor, 0)
    assert "</script><b>" not in html and "<!--a" not in html
    assert _data(html)["players"] == evil
    assert "&lt;/script&gt;&lt;b&gt;x" in html.split("</title>")[0]  # the title is escaped


def test_a_70_move_hanabi_game_is_within_the_size_budget():
    two = next(g for s in range(50) if len((g := _game("hanabi", s, ["a", "b"])).events) > 70)
    five = _game("hanabi", 1, ["a", "b", "c", "d", "e"])  # the biggest board
    for events in (two.events[:71], five.events[:71]):
        for seat in (None, 0):
            size = len(page(Cursor(events), seat).encode())
            assert size < 300_000, size


# --- secrecy: what a seat could not see is not in its file -----------------------------


def _swapped_hanabi(game: Game, seat: int) -> list | None:
    """The events with two of the seat's never-clued cards swapped (still all legal)."""
    state = game.state
    hand = [o for o in state.hands[seat] if not state.known(o).clued]
    held = [
        Cursor(game.events).state_at(s - 1).hands[seat]
        for s in range(1, len(game.events))
        if getattr(game.events[s], "target", None) == seat
    ]
    for a in hand:
        for b in hand:
            if (
                a < b
                and state.faces[a] != state.faces[b]
                and all((a in h) == (b in h) for h in held)
            ):
                deck = list(game.setup.deck)
                deck[a], deck[b] = deck[b], deck[a]
                setup = msgspec.structs.replace(game.setup, deck=tuple(deck))
                return [setup, *game.events[1:]]
    return None


@pytest.mark.parametrize("seed", range(3))
def test_hanabi_a_seats_file_does_not_change_when_its_own_unseen_cards_swap(seed):
    full = _game("hanabi", seed)
    game = Game.from_events(full.events[: len(full.events) * 2 // 3])  # hands still full
    tested = 0
    for seat in range(len(game.players)):
        swapped = _swapped_hanabi(game, seat)
        if swapped is None:
            continue
        a, b = Cursor(game.events), Cursor(swapped)
        assert b.last == a.last
        assert page(a, seat) == page(b, seat)
        assert page(a) != page(b)  # the spectator's file does show it: the swap is real
        tested += 1
    assert tested


@pytest.mark.parametrize("seed", range(3))
def test_hanamikoji_a_seats_file_does_not_change_when_the_opponents_deck_swaps(seed):
    game = _game("hanamikoji", seed)
    for seat in (0, 1):
        opp = 1 - seat
        decks = [list(d) for d in game.setup.decks]
        decks[opp][-1], decks[opp][-2] = decks[opp][-2], decks[opp][-1]
        setup: HanamikojiSetup = msgspec.structs.replace(game.setup, decks=tuple(map(tuple, decks)))
        # up to the end of the first round, before the swapped cards are drawn or scored
        k = next(s for s in range(1, len(game.events)) if Cursor(game.events).state_at(s).rounds)
        a, b = Cursor(game.events[:k]), Cursor([setup, *game.events[1:k]])
        assert page(a, seat) == page(b, seat)
        assert a.states[0].decks != b.states[0].decks  # the swap is real


@pytest.mark.parametrize("seed", range(2))
def test_ohanami_a_seats_file_does_not_change_when_the_undrawn_deck_swaps(seed):
    game = _game("ohanami", seed)
    deal_at = next(i for i, e in enumerate(game.events) if isinstance(e, OhanamiDeal))
    deal = game.events[deal_at]
    deck = list(deal.deck)
    deck[-1], deck[-2] = deck[-2], deck[-1]
    events = list(game.events)
    events[deal_at] = OhanamiDeal(round=deal.round, deck=tuple(deck))
    states = Cursor(game.events).states
    nxt = next(i for i in range(deal_at + 1, len(events)) if isinstance(events[i], OhanamiDeal))
    k = max(s for s in range(deal_at, nxt) if len(states[s].deck) >= 2)  # both undrawn
    a, b = Cursor(game.events[: k + 1]), Cursor(events[: k + 1])
    assert b.last == k and a.states[k].deck != b.states[k].deck
    for seat in range(len(game.players)):
        assert page(a, seat) == page(b, seat)


@pytest.mark.parametrize("seed", range(3))
def test_hanamikoji_classic_a_seats_file_does_not_change_when_the_removed_card_swaps(seed):
    game = _game("hanamikoji-classic", seed)
    deal_at = next(i for i, e in enumerate(game.events) if isinstance(e, ClassicDeal))
    for seat in (0, 1):
        deck = list(game.events[deal_at].deck)
        other = 7 if seat == 0 else 1  # the opponent's first dealt card
        if deck[0] == deck[other]:
            continue
        deck[0], deck[other] = deck[other], deck[0]
        # the opponent's moves stay legal until that card is played or shown
        events = [*game.events[:deal_at], ClassicDeal(round=1, deck=tuple(deck))]
        legal = Cursor(events + game.events[deal_at + 1 :]).last
        assert legal > deal_at
        a, b = (
            Cursor(game.events[: legal + 1]),
            Cursor(events + game.events[deal_at + 1 : legal + 1]),
        )
        assert page(a, seat) == page(b, seat)


# --- the command -------------------------------------------------------------------------


def _cli(store: Path, *args: str):
    result = runner.invoke(app, ["--store", str(store), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def test_export_html_one_game_several_games_and_mistakes(tmp_path):
    store = tmp_path / "store"
    assert _cli(store, "simulate", "hanabi", "--games", "2", "--seed", "4").exit_code == 0
    ids = sorted(p.stem for p in store.glob("*.jsonl"))
    one = _cli(
        store, "export", ids[0], "--format", "html", "--as", "bob", "-o", str(tmp_path / "g.html")
    )
    assert one.exit_code == 0, one.output
    assert _data((tmp_path / "g.html").read_text())["seat"] == "bob"
    assert _cli(store, "export", ids[0], "-f", "html").stdout.startswith("<!doctype html>")
    many = _cli(store, "export", *ids, "--format", "html", "-o", str(tmp_path / "site"))
    assert many.exit_code == 0 and sorted(p.name for p in (tmp_path / "site").iterdir()) == [
        f"{i}.html" for i in ids
    ]
    into = _cli(store, "export", ids[1], "-f", "html", "-o", str(tmp_path / "site"))
    assert into.exit_code == 0 and (tmp_path / "site" / f"{ids[1]}.html").exists()
    for args, message in [
        ([*ids, "-f", "html"], "several games go into a directory"),
        ([ids[0], "-f", "html", "--as", "nobody"], "no player 'nobody'; the players are"),
        ([ids[0], "-f", "hanablive", "--as", "bob"], "--as is for --format html"),
        ([ids[0], "-f", "pdf"], "formats: html, hanablive"),
        ([ids[0]], "say the format"),
        (["--as", "bob"], "say which games to export"),
    ]:
        result = _cli(store, "export", *args)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.output


def test_export_html_of_a_game_invalid_part_way_writes_the_valid_part_and_says_so(tmp_path):
    store = Store(tmp_path / "store")
    path = _table_game("hanabi", store)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:10]) + b"{not json\n")
    before = path.read_bytes()
    result = _cli(store.root, "export", str(path), "-f", "html", "-o", str(tmp_path / "g.html"))
    assert result.exit_code == 1 and "replays only up to seq 9" in result.stderr
    assert _data((tmp_path / "g.html").read_text())["problem"]
    assert path.read_bytes() == before


# --- in a real browser ----------------------------------------------------------------------


Drawn = list[list]  # each zone: [title, [[face, marks], ...]]


def _drawn(tab) -> Drawn:
    """The board the page shows: each zone's title and its cards' (face, classes)."""
    return tab.evaluate(
        """[...document.querySelectorAll('#board .zone')].map(z => [
            z.querySelector('.ztitle').textContent,
            [...z.querySelectorAll('.card')].map(c => [c.querySelector('b').textContent,
              [...c.classList].filter(k => ['new', 'touched', 'back'].includes(k)).sort()
                .join(' ')])])"""
    )


def _expected(
    cursor: Cursor, seq: int, seat: int | None
) -> list[tuple[str, list[tuple[str, str]]]]:
    """The same from the board data (gametape.engine.board), as ``Cursor.board`` gives it."""
    board = cursor.board(seq, seat)
    return [
        [
            zone.title,
            [
                [
                    c.text,  # a back shows the rank its clues told
                    " ".join(
                        sorted(
                            {m for m in c.marks if m in ("new", "touched")}
                            | ({"back"} if c.back else set())
                        )
                    ),
                ]
                for c in zone.cards
            ],
        ]
        for zone in board.zones
    ]


def _check_shows(tab, cursor: Cursor, seq: int, seat: int | None) -> None:
    frame = cursor.frame(seq, seat)
    wanted = header(cursor, frame).plain
    # a click sets the address's #N; the page follows on the hashchange event, which comes
    # after the click returns: wait for it (a slow machine showed the race), then compare
    tab.wait_for_function(
        "t => document.querySelector('#position').innerText === t", arg=wanted, timeout=5000
    )
    assert tab.inner_text("#position") == wanted
    assert tab.text_content("#change") == (f"→ {frame.change}" if frame.change else "")
    assert _drawn(tab) == _expected(cursor, seq, seat)
    assert tab.evaluate("location.hash") == f"#{seq}"
    assert tab.get_attribute(f"#moves li:nth-child({seq + 1}) a", "aria-current") == "step"


def _games(tmp: Path) -> list[tuple[str, Path]]:
    """A simulated game and a game recorded at a table, of every game."""
    out = []
    for name in NAMES:
        sims = tmp / f"sim-{name}"
        assert _cli(sims, "simulate", name, "--games", "1", "--seed", "5").exit_code == 0
        out.append((f"{name}-simulated", next(sims.glob("*.jsonl"))))
        out.append((f"{name}-table", _table_game(name, Store(tmp / "table"))))
    return out


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("html")
    return [(label, path, tmp) for label, path in _games(tmp)]


def test_each_games_page_steps_jumps_and_links_in_chromium(browser, exported):
    shots = Path(os.environ.get("GAMETAPE_SCREENSHOTS", exported[0][2] / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    for label, path, tmp in exported:
        cursor = Cursor.open(path)
        # the whole table's page of each simulated game, a seat's of each game at a table
        for seat in (None,) if label.endswith("simulated") else (1,):
            html = tmp / f"{label}-{seat}.html"
            html.write_text(page(cursor, seat))
            errors: list[str] = []
            tab = browser.new_page(viewport={"width": 1200, "height": 900})
            tab.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            tab.goto(html.as_uri())
            _check_shows(tab, cursor, 0, seat)
            tab.keyboard.press("ArrowRight")
            _check_shows(tab, cursor, 1, seat)
            tab.keyboard.press("ArrowLeft")
            _check_shows(tab, cursor, 0, seat)
            tab.keyboard.press("End")
            _check_shows(tab, cursor, cursor.last, seat)
            if cursor.ruleset.result(cursor.states[-1]) is None:  # a game still going on
                assert not tab.is_visible("#result")
            else:
                assert tab.is_visible("#result")
                # how it ended, as `gametape show` says it (a team's score; each seat's)
                assert result_text(cursor) in tab.inner_text("#result")
            tab.keyboard.press("Home")
            _check_shows(tab, cursor, 0, seat)
            landmark = cursor.ruleset.landmark
            if landmark in cursor.kinds():
                tab.keyboard.press("]")
                _check_shows(tab, cursor, cursor.find(landmark) or 0, seat)
            middle = cursor.last // 2
            tab.click(f"#moves li:nth-child({middle + 1}) a")
            _check_shows(tab, cursor, middle, seat)
            if seat is None and "GAMETAPE_SCREENSHOTS" in os.environ:
                tab.screenshot(path=str(shots / f"{label}.png"))
            # a link to a move opens there
            tab.goto(html.as_uri() + f"#{cursor.last - 1}")
            _check_shows(tab, cursor, cursor.last - 1, seat)
            assert not errors, (label, errors)
            tab.close()


def test_a_hostile_name_is_shown_as_text_in_chromium(browser, tmp_path):
    evil = ["<img src=x onerror=document.title=1>", "</script><i>b"]
    cursor = Cursor(_game("hanabi", 2, evil).events)
    html = tmp_path / "evil.html"
    html.write_text(page(cursor))
    tab = browser.new_page()
    dialogs: list[str] = []
    tab.on("dialog", lambda d: dialogs.append(d.message))
    tab.goto(html.as_uri())
    assert evil[0] in tab.inner_text("h1") and evil[1] in tab.inner_text("h1")
    assert tab.evaluate("document.images.length") == 0 and tab.title() != "1"
    assert not dialogs
    tab.close()


def test_the_page_fits_a_phone(browser, exported):
    _, path, tmp = exported[0]
    html = tmp / "phone.html"
    html.write_text(page(Cursor.open(path)))
    tab = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    tab.goto(html.as_uri() + "#10")
    # no sideways scrolling of the page itself; the board is in view at the top
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    assert tab.evaluate("document.getElementById('board').getBoundingClientRect().top") < 400
    tab.close()


def test_the_store_log_is_unchanged_by_exports(tmp_path):
    store = Store(tmp_path / "store")
    path = _table_game("ohanami", store)
    before = path.read_bytes()
    assert (
        _cli(
            store.root, "export", str(path), "-f", "html", "-o", str(tmp_path / "x.html")
        ).exit_code
        == 0
    )
    assert path.read_bytes() == before and read_log(path).error is None


def test_several_games_are_drawn_in_parallel_exactly_as_one_by_one(tmp_path):
    store = tmp_path / "store"
    assert _cli(store, "simulate", "ohanami", "--games", "3", "--seed", "1").exit_code == 0
    paths = sorted(store.glob("*.jsonl"))
    site = tmp_path / "site"
    result = _cli(store, "export", *map(str, paths), "-f", "html", "--as", "bob", "-o", str(site))
    assert result.exit_code == 0, result.output
    for path in paths:
        alone = page(Cursor.open(path), Cursor.open(path).seat("bob")).encode()
        assert (site / f"{path.stem}.html").read_bytes() == alone
    # an error in a worker process reaches the user whole: message and exit code
    assert _cli(store, "simulate", "hanamikoji", "--games", "1", "--seed", "1").exit_code == 0
    koji = next(p for p in store.glob("*.jsonl") if p not in paths)
    result = _cli(
        store, "export", str(paths[0]), str(koji), "-f", "html", "--as", "cara", "-o", str(site)
    )
    assert result.exit_code == 2 and "no player 'cara'; the players are alice, bob" in result.stderr


def test_a_move_taken_back_is_struck_out_in_the_move_list_in_chromium(browser, tmp_path):
    from gametape.engine.game import Game
    from gametape.events.base import Retract

    played = _game("hanabi", 3)
    events = [*played.events[:4], Retract(seq=3, player=None)]
    cursor = Cursor(Game.from_events(events).events)
    html = tmp_path / "undo.html"
    html.write_text(page(cursor))
    tab = browser.new_page(viewport={"width": 390, "height": 800})
    tab.goto(html.as_uri())
    undone = tab.locator("#moves li.undone a")
    assert undone.count() == 1 and undone.get_attribute("title") == "taken back at seq 4"
    assert tab.locator("#moves li").nth(3).get_attribute("class") == "undone"
    tab.close()


# --- boards drawn as cards (#24) --------------------------------------------------------------


def _resolved(data: dict, view: int) -> list:
    """A view's frames with each board's pieces resolved (ids are the file's own)."""
    parts = data["parts"]

    def piece(i: int):
        p = parts[i]
        if isinstance(p, list) and len(p) > 1 and isinstance(p[1], list):
            return (
                [p[0], [parts[c] for c in p[1]], *p[2:]] if p[1] and isinstance(p[1][0], int) else p
            )
        return p

    return [{**f, "b": [piece(i) for i in f["b"]]} for f in data["views"][view]["frames"]]


@pytest.mark.parametrize("name", NAMES)
def test_the_seat_picker_shows_exactly_what_each_seats_own_page_holds(name):
    cursor = Cursor(_game(name, 5).events)
    spectator = _data(page(cursor))
    assert [v["seat"] for v in spectator["views"]] == [None, *cursor.players]
    for seat in range(len(cursor.players)):
        own = _data(page(cursor, seat))
        assert len(own["views"]) == 1 and own["views"][0]["seat"] == cursor.players[seat]
        assert _resolved(spectator, seat + 1) == _resolved(own, 0)


def test_the_cards_a_clue_touched_are_marked_and_a_move_names_its_card():
    game = _game("hanabi", 2)
    cursor = Cursor(game.events)
    clue = next(s for s in range(1, cursor.last + 1) if "clue" in cursor.frame(s).kinds)
    board = cursor.board(clue)
    touched = [c for z in board.zones for c in z.cards if "touched" in c.marks]
    assert touched and len(touched) == len(game.events[clue].touched or touched)
    frames = _data(page(cursor))["views"][0]["frames"]
    play = next(s for s in range(1, cursor.last + 1) if "play" in cursor.frame(s).kinds)
    assert frames[play]["n"] and frames[play]["n"] in (cursor.frame(play).change or "")


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=["phone", "desktop"])
def test_every_games_page_fits_and_draws_cards_readably_in_chromium(browser, exported, size):
    """No sideways scrolling on the page or the board, card text at least 14 px, the cards a
    clue touched marked, and the seat picker showing each seat's frames; a screenshot of each
    game at each size goes to docs/images when GAMETAPE_SCREENSHOTS names that folder."""
    shots = os.environ.get("GAMETAPE_SCREENSHOTS")
    for label, path, tmp in exported:
        cursor = Cursor.open(path)
        html = tmp / f"fit-{label}.html"
        html.write_text(page(cursor))
        tab = browser.new_page(viewport={"width": size[0], "height": size[1]})
        errors: list[str] = []
        tab.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        for seq in range(0, cursor.last + 1, max(1, cursor.last // 3)):  # start, thirds, end
            tab.goto(html.as_uri() + f"#{seq}")
            _check_shows(tab, cursor, seq, None)
            widths = tab.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                " document.querySelector('#board').scrollWidth,"
                " document.querySelector('#board').clientWidth]"
            )
            assert widths[0] <= widths[1] and widths[2] <= widths[3], (label, seq, widths)
            sizes = tab.evaluate(
                "[...document.querySelectorAll('#board .card b, #board .card small')]"
                ".map(e => parseFloat(getComputedStyle(e).fontSize))"
            )
            assert min(sizes, default=14) >= 14, (label, seq, sizes)  # a board may hold none yet
        if label.startswith("hanabi"):
            clue = next(s for s in range(1, cursor.last + 1) if "clue" in cursor.frame(s).kinds)
            tab.goto(html.as_uri() + f"#{clue}")
            assert tab.locator("#board .card.touched").count() >= 1
        seat = len(cursor.players)  # the last seat, from the picker
        tab.select_option("#seatpick", str(seat))
        middle = cursor.last // 2
        tab.goto(html.as_uri() + f"#{middle}")
        tab.select_option("#seatpick", str(seat))
        assert _drawn(tab) == _expected(cursor, middle, seat - 1)
        assert tab.inner_text("#viewer").startswith(f"as {cursor.players[seat - 1]}")
        if shots and label.endswith("simulated"):
            tab.select_option("#seatpick", "0")
            tab.goto(html.as_uri() + f"#{middle}")
            name = label.rsplit("-", 1)[0]
            tab.screenshot(
                path=str(Path(shots) / f"replay-{name}-{('phone', 'desktop')[size[0] > 500]}.png")
            )
        assert not errors, (label, errors)
        tab.close()


def test_a_players_page_draws_its_charts_and_fits_a_phone_in_chromium(browser, tmp_path):
    """One person's page (`players NAME -f html`): a hostile name is text, the SVG charts
    are drawn at a readable size, and the page itself never scrolls sideways at 390 px."""
    from gametape.analytics import ReadModel
    from gametape.analytics.player_page import page as player_page

    store = Store(tmp_path / "store")
    evil = "<img src=x onerror=document.title=1>"
    for i in range(6):
        g = _game("hanamikoji-classic", i, [evil, "bob"])
        store.create(g.setup, g.events[1:])
    model = ReadModel(store.root)
    model.refresh()
    html = tmp_path / "player.html"
    html.write_text(player_page(model.players(evil), "finished games only"))
    tab = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    tab.goto(html.as_uri())
    assert tab.inner_text("h1") == evil and tab.title() != "1"
    assert tab.evaluate("document.images.length") == 0
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    sizes = tab.evaluate(
        "[...document.querySelectorAll('svg.chart')].map(s => s.getBoundingClientRect().width)"
    )
    assert len(sizes) == 2 and all(300 <= w <= 390 for w in sizes)
    assert tab.evaluate("document.querySelectorAll('svg.chart .dots circle').length") == 6
    tab.close()


def test_notes_and_branches_in_the_replay_page_in_chromium(browser, tmp_path):
    """A review in the page: a mark and a note beside the move, a card note on the card,
    a branch listed at its fork and linked both ways; notes are text; a phone fits it."""
    store_root = tmp_path / "store"
    store = Store(store_root)
    g = _game("hanabi", 1)
    gid = store.create(g.setup, g.events[1:])
    evil = "<img src=x onerror=document.title=1>"
    for args in (
        ["note", gid, "3", evil, "--mark", "?"],
        ["note", gid, "4", "ben thought it a 2", "--card", "7"],
        ["branch", gid, "--at", "10"],
    ):
        assert _cli(store_root, *args).exit_code == 0
    (bid,) = [b for b in store.game_ids() if b != gid]
    out = tmp_path / "pages"
    assert _cli(store_root, "export", gid, bid, "-f", "html", "-o", f"{out}/").exit_code == 0
    tab = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    dialogs: list[str] = []
    tab.on("dialog", lambda d: dialogs.append(d.message))
    tab.goto((out / f"{gid}.html").as_uri() + "#3")
    assert evil in tab.inner_text("#review") and tab.evaluate("document.images.length") == 0
    row = tab.inner_text('#moves li[data-s="3"]')
    assert "?" in row and "✎" in row
    tab.goto((out / f"{gid}.html").as_uri() + "#4")
    noted = tab.evaluate("[...document.querySelectorAll('.card.noted')].map(c => c.textContent)")
    assert len(noted) == 1 and "ben thought it a 2" in noted[0]
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    tab.click("#moves li.fork a")
    tab.wait_for_url(f"**/{bid}.html#*")  # its first own move, or its fork if it has none
    assert f"a branch of {gid} from seq 10" in tab.inner_text("#lineage")
    tab.click("#lineage a")
    tab.wait_for_url(f"**/{gid}.html#10")
    assert tab.inner_text("#position").startswith("seq 10/")
    assert not dialogs and tab.title() != "1"
    tab.close()
