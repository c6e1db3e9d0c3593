"""`gametape serve`: a real server on loopback, spoken to over HTTP as phones would.

What a link opens and may record, every refusal's status (and that it records nothing), the
security suite (every route with no token, a guessed one, another seat's, a spectator's, an
oversized body, a forged expected seq, markup in every field), hidden cards removed on the
server (byte for byte under a swap), two phones at once, the CLI beside the server, and
kill -9 in the middle of recording.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import msgspec
import pytest

from gametape.engine.game import Game
from gametape.events import Store, read_log
from gametape.events.errors import StaleWrite
from gametape.messages import Message, render
from gametape.usecases.links import Link, issue
from gametape.usecases.record import Recording, new_game
from gametape.usecases.tables import Tables
from tests.serving import GAMETAPE, Served, start_game

MEMBER = "m" * 20  # a review page's id
ROUTES = [
    "",
    "/live",
    "/events",
    "/state.json",
    "/replay",
    "/review",
    f"/review/state.json?member={MEMBER}",
]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    store = tmp_path_factory.mktemp("serve") / "store"
    with Served(store) as served:
        yield served


def _log(server: Served, game: str) -> bytes:
    return (Path(server.store) / f"{game}.jsonl").read_bytes()


def _events(server: Served, game: str) -> list:
    return read_log(Path(server.store) / f"{game}.jsonl").events


def _seq(server: Served, link: str) -> int:
    return server.client.get(server.path(link) + "/state.json").json()["seq"]


def _first_button(server: Served, link: str) -> str:
    return server.client.get(server.path(link) + "/state.json").json()["buttons"][0]["text"]


def _clue(server: Served, links: dict[str, str], via: str | None = None) -> None:
    """Some clue the seat to act can give (its page offers the words), sent by ``via`` (by
    default the seat itself: the host's page cannot tell which clues touch a card)."""
    acting = server.client.get(server.path(links["host"]) + "/state.json").json()["to_act"][0]
    state = server.client.get(server.path(links[acting]) + "/state.json").json()
    link = links[via or acting]
    clues = [b["text"] for b in state["buttons"] if b["text"].startswith("clue")]
    for picker in state["pickers"]:
        if picker["words"][0] == ["clue"]:
            clues += [f"clue {t} {v}" for t in picker["words"][1] for v in picker["words"][2]]
    for text in clues:
        answer = _move(server, link, text, state["seq"])
        if answer.status_code == 303:
            return
        assert answer.status_code == 422, answer.status_code
    raise AssertionError("no clue could be given")


def _move(server: Served, link: str, text: str, seq: int | None = None, **extra) -> httpx.Response:
    seq = _seq(server, link) if seq is None else seq
    return server.client.post(server.path(link) + "/move", data={"seq": str(seq), "text": text})


# --- starting a game ----------------------------------------------------------------------


def test_a_game_from_the_front_page_gets_a_link_per_seat_a_host_and_a_spectator(server):
    front = server.client.get("/")
    assert front.status_code == 200 and "hanamikoji-classic" in front.text
    posted = server.client.post("/new", data={"ruleset": "hanabi", "players": "ann, ben, cat"})
    assert posted.status_code == 303  # posted, then redirected: a reload starts no new game
    answer = server.client.get(posted.headers["location"])
    assert answer.status_code == 200
    said = server.announced()
    links = said["links"]
    assert list(links) == ["ann", "ben", "cat", "host", "spectator"]
    for link in links.values():
        token = link.rsplit("/", 1)[1]
        assert len(token) >= 22  # 16 random bytes, base64url: 128 bits
        assert link in answer.text
    assert answer.text.count("<svg") == 5  # a QR code each
    # the store keeps only hashes: no token is written anywhere in it
    kept = b"".join(p.read_bytes() for p in Path(server.store).iterdir())
    for link in links.values():
        token = link.rsplit("/", 1)[1]
        assert token.encode() not in kept
        assert hashlib.sha256(token.encode()).hexdigest().encode() in kept


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"ruleset": "chess", "players": "ann, ben"}, "unknown game &#39;chess&#39;"),
        ({"ruleset": "hanabi", "players": "ann"}, "needs 2-6 players"),
        ({"ruleset": "hanabi", "players": "ann, ann"}, "two players are called"),
        ({"ruleset": "hanabi", "players": 'ann, b"n'}, "a move could not name them"),
        ({"ruleset": "hanamikoji-classic", "players": "ann, ben", "table": "1"}, ""),
    ],
)
def test_a_new_game_the_rules_refuse_is_a_clear_400_and_nothing_is_made(server, form, said):
    before = sorted(p.name for p in Path(server.store).iterdir())
    answer = server.client.post("/new", data=form)
    if form.get("table") and answer.status_code == 303:
        server.announced()  # this game can be dealt at a table: it was made
        return
    assert answer.status_code == 400, answer.text
    assert said in answer.text and "Traceback" not in answer.text
    assert sorted(p.name for p in Path(server.store).iterdir()) == before


# --- what each link sees and may do --------------------------------------------------------


def _faces(position: dict) -> dict[str, list[str]]:
    return {
        z["title"]: [c.get("text", "") for c in z.get("cards", []) if not c.get("back")]
        for z in position["board"]["zones"]
    }


def test_a_seat_sees_its_view_the_host_and_spectators_the_tables(server):
    links = start_game(server, "hanabi", "ann, ben, cat")["links"]
    get = lambda who: server.client.get(server.path(links[who]) + "/state.json").json()  # noqa: E731
    ann, host, spectator = get("ann"), get("host"), get("spectator")
    assert _faces(ann)["ann (you)"] == [] and len(_faces(ann)["ben"]) == 5
    for onlooker in (host, spectator):
        assert all(_faces(onlooker)[p] == [] for p in ("ann", "ben", "cat"))
        assert "as the table" in onlooker["board"]["title"]
    assert ann["buttons"] and not spectator["buttons"] and not spectator["pickers"]
    assert not host["buttons"] and not host["pickers"]  # legal clues would tell the hands


def test_a_seat_records_its_move_and_the_log_validates(server):
    said = start_game(server, "hanabi", "ann, ben, cat")
    game, links = said["game"], said["links"]
    answer = _move(server, links["ann"], "play 1")
    assert answer.status_code == 303 and answer.headers["location"].endswith("?ok=1")
    page = server.client.get(answer.headers["location"])
    assert "recorded as seq 1" in page.text
    assert "ann played" in page.text or "ann misplayed" in page.text
    _clue(server, links)  # ben's move
    events = _events(server, game)
    assert [type(e).__name__ for e in events[1:]] == ["HanabiPlay", "HanabiClue"]
    checked = subprocess.run(
        [GAMETAPE, "--store", str(server.store), "validate", game], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


REFUSALS = [
    # (who, text, seq offset, status, what the page says)
    ("ann", "fly away", 0, 400, "cannot read"),
    ("ann", "clue ann red", 0, 422, "cannot clue themselves"),
    ("ben", "play 1", 0, 422, "ann's turn"),
    ("ann", "play 1", -1, 409, "the table moved on"),
    ("ann", "play 1", 5, 409, "the table moved on"),
    ("ann", "undo", 0, 403, "undo and abandon are on the host's page"),
    ("ann", "abandon", 0, 403, "host's page"),
    ("spectator", "play 1", 0, 403, "records nothing"),
    ("ann", "x" * 600, 0, 400, "at most"),
]


@pytest.mark.parametrize(("who", "text", "off", "status", "said"), REFUSALS)
def test_each_refusal_has_its_status_keeps_the_text_and_records_nothing(
    server, who, text, off, status, said
):
    links = start_game(server, "hanabi", "ann, ben, cat")["links"]
    game = links["ann"].split("/")[-2]
    for _ in range(3):  # a round of clues by the host: ann's turn again, at seq 4
        _clue(server, links)
    before = _log(server, game)
    answer = _move(server, links[who], text, _seq(server, links[who]) + off)
    assert answer.status_code == status, answer.text[:3000]
    assert said in html.unescape(answer.text) and "Traceback" not in answer.text
    assert _log(server, game) == before
    if status not in (403,) or who != "spectator":
        assert f'value="{text}"' in answer.text or len(text) > 500  # what was typed is kept


def test_a_host_cannot_enter_a_secret_move_nor_probe_a_hand(server):
    links = start_game(server, "hanamikoji-classic", "ann, ben")["links"]
    game = links["ann"].split("/")[-2]
    host = server.client.get(server.path(links["host"]) + "/state.json").json()
    who = host["to_act"][0]
    mine = server.client.get(server.path(links[who]) + "/state.json").json()
    secret = next(b["text"] for b in mine["buttons"] if b["text"].startswith("secret"))
    before = _log(server, game)
    for text in (secret, "secret pink", "trade red blue"):
        answer = _move(server, links["host"], text)
        assert answer.status_code == 403, answer.text[:2000]
        # the same answer whether the card is in the hand or not
        assert f"{who}'s own page" in html.unescape(answer.text)
    host = server.client.get(server.path(links["host"]) + "/state.json").json()
    assert not any(b["text"].startswith(("secret", "trade")) for b in host["buttons"])
    assert _log(server, game) == before
    assert _move(server, links[who], secret).status_code == 303


def test_moves_faster_than_a_table_plays_get_429(server):
    """A burst of moves from one link meets 429 (eight phones' worth at once, until it does:
    a busy machine posts slowly, and the bucket refills meanwhile); once it refills, a move
    is read again. The bucket's arithmetic: test_a_links_bucket_lets_a_burst_then_its_rate."""
    links = start_game(server, "hanabi", "ann, ben")["links"]
    statuses: list[int] = []

    def post() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            path = server.path(links["ann"]) + "/move"
            while 429 not in statuses and len(statuses) < 2000:
                answer = client.post(path, data={"seq": "1", "text": "nonsense"})
                statuses.append(answer.status_code)

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert 429 in statuses and set(statuses) <= {400, 429}
    for _ in range(600):  # the bucket fills again
        time.sleep(0.1)
        answer = _move(server, links["ann"], "nonsense", 1)
        if answer.status_code != 429:
            break
    assert answer.status_code == 400


def test_a_links_bucket_lets_a_burst_then_its_rate():
    from gametape.web.http import Buckets

    now = [100.0]
    buckets = Buckets(rate=5.0, burst=20.0, clock=lambda: now[0])
    assert all(buckets.take("ann") for _ in range(20)) and not buckets.take("ann")
    assert buckets.take("ben")  # a bucket per link
    now[0] += 0.2  # one more move's worth
    assert buckets.take("ann") and not buckets.take("ann")
    now[0] += 60  # never more than the burst
    assert sum(buckets.take("ann") for _ in range(30)) == 20


# --- the security suite -------------------------------------------------------------------


def test_every_route_gives_the_same_404_for_any_wrong_link(server):
    a = start_game(server, "hanabi", "ann, ben")
    b = start_game(server, "hanabi", "cat, dan")
    game = a["game"]
    guessed = secrets.token_urlsafe(16)
    wrong = [
        f"/g/{game}/",
        f"/g/{game}/{guessed}",
        f"/g/{b['game']}/{a['links']['ann'].rsplit('/', 1)[1]}",  # a real token, another game
        f"/g/nosuchgame/{guessed}",
        f"/g/{game}/{'A' * 200}",
        f"/g/{game}/..%2F..%2Fetc%2Fpasswd",
        f"/g/{game}/%00",
        f"/g/{game}/ünïcødé-tøkén-ünïcødé",
        f"/g/..%2F{game}/{guessed}",
    ]
    bodies = set()
    for base in wrong:
        for route in ROUTES:
            answer = server.client.get(base + route)
            assert answer.status_code == 404, (base, route, answer.status_code)
            assert "Traceback" not in answer.text
            bodies.add(answer.text)
        posted = server.client.post(base + "/move", data={"seq": "1", "text": "play 1"})
        assert posted.status_code == 404
        bodies.add(posted.text)
    assert len(bodies) == 1, bodies  # nothing tells a missing game from a wrong token
    assert "no such game or link" in bodies.pop()
    assert len(_events(server, game)) == 1 and len(_events(server, b["game"])) == 1


def test_an_oversized_body_is_413_on_every_post_and_nothing_is_read(server):
    links = start_game(server, "hanabi", "ann, ben")["links"]
    game = links["ann"].split("/")[-2]
    before = sorted(p.name for p in Path(server.store).iterdir())
    big = "text=" + "p" * 100_000 + "&seq=1"
    for path in (server.path(links["ann"]) + "/move", "/new"):
        answer = server.client.post(
            path, content=big, headers={"content-type": "application/x-www-form-urlencoded"}
        )
        assert answer.status_code == 413 and "at most 8,192 bytes" in answer.text

    def chunks():  # no Content-Length: the body is counted as it comes
        for _ in range(100):
            yield b"p" * 1000

    answer = server.client.post(server.path(links["ann"]) + "/move", content=chunks())
    assert answer.status_code == 413
    assert len(_events(server, game)) == 1
    assert sorted(p.name for p in Path(server.store).iterdir()) == before


def test_a_forged_or_missing_expected_seq_records_nothing(server):
    links = start_game(server, "hanabi", "ann, ben")["links"]
    game = links["ann"].split("/")[-2]
    path = server.path(links["ann"]) + "/move"
    for seq in ("", "-1", "1e3", "0x1", "99999999999999999999", "1; DROP TABLE", "１"):
        answer = server.client.post(path, data={"seq": seq, "text": "play 1"})
        assert answer.status_code in (400, 409), (seq, answer.status_code)
    for seq in ("0", "2", "100"):
        answer = server.client.post(path, data={"seq": seq, "text": "play 1"})
        assert answer.status_code == 409 and "the table moved on" in answer.text
    assert len(_events(server, game)) == 1


EVIL = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


def test_markup_in_every_field_is_shown_as_text(server):
    players = "<b>ann</b>, ben'<i>&amp;"
    posted = server.client.post("/new", data={"ruleset": "hanabi", "players": players})
    answer = server.client.get(posted.headers["location"])
    assert answer.status_code == 200 and "<b>ann</b>" not in answer.text
    assert "&lt;b&gt;ann&lt;/b&gt;" in answer.text
    links = server.announced()["links"]
    first = next(iter(links.values()))
    seat = server.client.get(server.path(first))
    assert "<b>ann</b>" not in seat.text and "&lt;b&gt;ann&lt;/b&gt;" in seat.text
    refused = _move(server, first, EVIL)
    assert refused.status_code == 400
    assert "<script>alert" not in refused.text and "<img src=x" not in refused.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in refused.text
    bad = server.client.post("/new", data={"ruleset": EVIL, "players": EVIL})
    assert bad.status_code == 400 and "<script>alert" not in bad.text
    replay = server.client.get(server.path(first) + "/replay")
    assert "<b>ann</b>" not in replay.text.split("</title>")[0]


def test_every_response_has_the_csp_and_no_page_has_inline_script(server):
    links = start_game(server, "hanabi", "ann, ben")["links"]
    paths = ["/", "/static/seat.js", "/static/replay.css", "/nowhere"]
    paths += [server.path(links[w]) + r for w in ("ann", "host") for r in ROUTES if r != "/events"]
    for path in paths:
        answer = server.client.get(path)
        assert "script-src 'self'" in answer.headers["content-security-policy"], path
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert not INLINE_SCRIPT.search(answer.text), path
        assert "http://" not in re.sub(r'href="http://127\.0\.0\.1[^"]*"', "", answer.text) or (
            path.endswith("/state.json")
        )


# --- hidden cards are removed on the server -----------------------------------------------


def _hanabi_pair(root: Path) -> tuple[Store, Store, str, str, int]:
    """The same Hanabi game in two stores but for one card in ann's hand, swapped with the
    deck's last card; the game id, one token for each role, and the swapped deck index."""
    rules_game = new_game(Store(root / "a"), "hanabi", ["ann", "ben", "cat"], seed=5)
    gid, game = rules_game
    setup = game.setup
    held = game.state.hands[0][0]
    deck = list(setup.deck)
    deck[held], deck[-1] = deck[-1], deck[held]
    assert deck[held] != deck[-1], "pick a seed whose swap changes a face"
    swapped = msgspec.structs.replace(setup, deck=tuple(deck), game="")
    a, b = Store(root / "a"), Store(root / "b")
    assert b.create(swapped, game.events[1:]) == gid
    tokens = {}
    for role, seat in (("seat", 0), ("seat", 1), ("host", None), ("spectator", None)):
        token = secrets.token_urlsafe(16)
        line = msgspec.json.encode(
            Link(hash=hashlib.sha256(token.encode()).hexdigest(), role=role, seat=seat)
        )
        for store in (a, b):
            store.add_link(store.path(gid), line + b"\n")
        tokens[role if seat is None else ("ann", "ben")[seat]] = token
    return a, b, gid, json.dumps(tokens), held


def _everything(server: Served, gid: str, token: str) -> list[bytes]:
    base = f"/g/{gid}/{token}"
    got = [server.client.get(base + r).content for r in ROUTES if r != "/events"]
    with server.client.stream("GET", base + "/events") as stream:
        got.append(next(stream.iter_bytes()))
    refused = server.client.post(base + "/move", data={"seq": "1", "text": "play 9"})
    got.append(refused.content)
    return got


def test_a_card_a_seat_never_saw_changes_no_byte_it_is_sent(tmp_path):
    a, b, gid, tokens_json, _ = _hanabi_pair(tmp_path)
    tokens = json.loads(tokens_json)
    state = Game.from_events(read_log(a.path(gid)).events).state
    cat_rank = state.faces[state.hands[2][0]].rank  # a clue ben can give cat in both
    with Served(a.root) as one, Served(b.root) as two:
        # ann (whose own card was swapped) moves in both, then ben, through their links
        for served in (one, two):
            assert _move(served, f"/g/{gid}/{tokens['ann']}", "clue ben 1").status_code == 303
            answer = _move(served, f"/g/{gid}/{tokens['ben']}", f"clue cat {cat_rank}")
            assert answer.status_code == 303
        for who in ("ann", "host", "spectator"):
            assert _everything(one, gid, tokens[who]) == _everything(two, gid, tokens[who]), who
        # the test can fail: ben sees ann's hand, and his pages differ
        assert _everything(one, gid, tokens["ben"]) != _everything(two, gid, tokens["ben"])


# --- two phones, the CLI beside the server, following live -----------------------------------


def test_two_phones_at_once_one_wins_and_the_other_is_told_and_keeps_its_text(server):
    links = start_game(server, "hanabi", "ann, ben, cat")["links"]
    game = links["ann"].split("/")[-2]
    answers: dict[str, httpx.Response] = {}
    go = threading.Barrier(2)

    def send(who: str, text: str) -> None:
        client = httpx.Client(base_url=server.url, timeout=10)
        go.wait()
        answers[who] = client.post(
            server.path(links[who]) + "/move", data={"seq": "1", "text": text}
        )
        client.close()

    threads = [
        threading.Thread(target=send, args=("ann", "play 1")),
        threading.Thread(target=send, args=("host", "play 2")),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(a.status_code for a in answers.values())
    assert codes == [303, 409], codes
    loser = next(a for a in answers.values() if a.status_code == 409)
    assert "the table moved on: the last move is seq 1 now" in loser.text
    assert 'value="play 1"' in loser.text or 'value="play 2"' in loser.text
    assert 'data-seq="2"' in loser.text  # the new position is shown
    assert len(_events(server, game)) == 2


def test_the_cli_records_beside_the_server_and_every_page_follows(server):
    """A move recorded by the CLI reaches a page's stream (how fast is bench/'s to say: a
    test's verdict never depends on the machine's speed)."""
    said = start_game(server, "hanabi", "ann, ben")
    game, links = said["game"], said["links"]
    seen: list[str] = []
    with (
        httpx.Client(base_url=server.url, timeout=60) as client,
        client.stream("GET", server.path(links["spectator"]) + "/events") as stream,
    ):
        lines = stream.iter_lines()
        assert next(lines).startswith("retry:")
        assert next(lines) == "event: moved" and next(lines) == "data: 1"
        moved = subprocess.run(
            [GAMETAPE, "--store", str(server.store), "move", game, "play 1"],
            capture_output=True,
            text=True,
        )
        assert moved.returncode == 0, moved.stderr
        for line in lines:
            if line == "data: 2":
                seen.append(line)
                break
    assert seen == ["data: 2"]
    page = server.client.get(server.path(links["ben"]))
    assert "ann played" in page.text or "ann misplayed" in page.text
    assert _move(server, links["ben"], "play 1", seq=1).status_code == 409  # stale: told


# --- faults ---------------------------------------------------------------------------------


def test_kill_9_while_phones_record_loses_no_acknowledged_move_and_a_restart_resumes(tmp_path):
    store = tmp_path / "store"
    server = Served(store)
    games = [start_game(server, "hanabi", "ann, ben") for _ in range(4)]
    acked: dict[str, list[int]] = {g["game"]: [] for g in games}
    stop = threading.Event()

    def phone(said: dict) -> None:
        client = httpx.Client(base_url=server.url, timeout=5)
        links = {k: server.path(v) for k, v in said["links"].items()}
        rng = random.Random(said["game"])
        while not stop.is_set():
            try:
                acting = client.get(links["host"] + "/state.json").json()["to_act"]
                if not acting:
                    return
                state = client.get(links[acting[0]] + "/state.json").json()
                text = rng.choice(state["buttons"])["text"]
                answer = client.post(
                    links[acting[0]] + "/move",
                    data={"seq": str(state["seq"]), "text": text},
                    headers={"accept": "application/json"},
                )
                if answer.status_code == 200:
                    acked[said["game"]].append(answer.json()["first"])
                time.sleep(0.05)
            except (httpx.HTTPError, ValueError):
                return

    threads = [threading.Thread(target=phone, args=(g,)) for g in games]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120  # generous: a busy machine acknowledges slowly
    while sum(map(len, acked.values())) <= 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()
    stop.set()
    for t in threads:
        t.join()
    assert sum(map(len, acked.values())) > 10
    for game, seqs in acked.items():
        read = read_log(store / f"{game}.jsonl")
        assert read.error is None
        assert max(seqs) < len(read.events), game  # every move a phone was told of is there
    checked = subprocess.run([GAMETAPE, "--store", str(store), "validate"], capture_output=True)
    assert checked.returncode == 0, checked.stdout
    # a restarted server opens the same links and goes on
    with Served(store) as again:
        said = games[0]
        acting = again.client.get(again.path(said["links"]["host"]) + "/state.json").json()
        if acting["to_act"]:
            link = said["links"][acting["to_act"][0]]
            text = _first_button(again, link)
            assert _move(again, link, text, acting["seq"]).status_code == 303


def test_listening_on_every_address_warns_and_a_busy_port_is_a_clear_error(tmp_path):
    wide = Served(tmp_path / "s", "--host", "0.0.0.0")
    err = wide.stop()
    assert "anyone on the network who has a link can join" in err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = subprocess.run(
            [GAMETAPE, "--store", str(tmp_path / "s"), "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert run.returncode == 2 and "cannot listen on 127.0.0.1" in run.stderr
    assert "Traceback" not in run.stderr


def test_links_for_a_game_the_cli_started(tmp_path):
    store = tmp_path / "store"
    gid, _ = new_game(Store(store), "ohanami", ["ann", "ben"], seed=2)
    with Served(store, "--links", gid[:4]) as served:
        said = served.announced()
        assert said["game"] == gid and list(said["links"]) == ["ann", "ben", "host", "spectator"]
        page = served.client.get(served.path(said["links"]["ben"]))
        assert page.status_code == 200 and "You are ben" in page.text
    game = Game.from_events(read_log(Store(store).path(gid)).events)
    assert len(game.events) == 2  # the deal only


def test_a_postgresql_store_serves_the_same_beside_the_cli(pg_url):
    with Served(pg_url) as server:
        said = start_game(server, "hanabi", "ann, ben")
        game, links = said["game"], said["links"]
        assert _move(server, links["ann"], "play 1", 1).status_code == 303
        with (
            httpx.Client(base_url=server.url, timeout=10) as client,
            client.stream("GET", server.path(links["spectator"]) + "/events") as stream,
        ):
            lines = stream.iter_lines()
            assert [next(lines) for _ in range(3)][1:] == ["event: moved", "data: 2"]
            moved = subprocess.run(
                [GAMETAPE, "--store", pg_url, "move", game, "play 1"],
                capture_output=True,
                text=True,
            )
            assert moved.returncode == 0, moved.stderr
            assert "data: 3" in (next(lines) for _ in range(6))
        page = server.client.get(server.path(links["ann"]))
        assert "ben played" in page.text or "ben misplayed" in page.text
    checked = subprocess.run(
        [GAMETAPE, "--store", pg_url, "validate", game], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("kind", ["fifo", "directory", "symlink"])
def test_a_special_file_in_place_of_a_games_links_is_a_404_never_a_hang(tmp_path, kind):
    store = tmp_path / "store"
    gid, _ = new_game(Store(store), "hanabi", ["ann", "ben"], seed=1)
    links = store / f"{gid}.links"
    if kind == "fifo":
        os.mkfifo(links)
    elif kind == "directory":
        links.mkdir()
    else:
        (tmp_path / "elsewhere").write_text("{}\n")
        links.symlink_to(tmp_path / "elsewhere")
    log = (store / f"{gid}.jsonl").read_bytes()
    with Served(store) as server:
        token = secrets.token_urlsafe(16)
        for route in ROUTES:
            answer = server.client.get(f"/g/{gid}/{token}{route}")
            assert answer.status_code == 404 and "no such game or link" in answer.text
    assert (store / f"{gid}.jsonl").read_bytes() == log


def _replay_data(text: str) -> dict:
    data = text.split('<script id="data" type="application/json">', 1)[1].split("</script>")[0]
    return json.loads(data)


def test_the_replay_serves_a_running_game_as_each_link_sees_it(server):
    links = start_game(server, "hanabi", "ann, ben")["links"]
    assert _move(server, links["ann"], "play 1", 1).status_code == 303
    for who, seat in (("ann", "ann"), ("ben", "ben"), ("spectator", "the table")):
        answer = server.client.get(server.path(links[who]) + "/replay")
        assert answer.status_code == 200
        data = _replay_data(answer.text)
        assert data["seat"] == seat and [v["seat"] for v in data["views"]] == [seat]
        assert [f["s"] for f in data["views"][0]["frames"]] == [0, 1]
        assert data["notes"] == [] and data["result"] is None
        assert '<script src="/static/replay.js">' in answer.text


def test_a_new_games_options_are_those_of_gametape_new(server):
    answer = server.client.post(
        "/new", data={"ruleset": "hanamikoji", "players": "ann, ben", "options": "first=1"}
    )
    assert answer.status_code == 303
    game = server.announced()["game"]
    assert _events(server, game)[0].first == 1
    for options, said in (("first", "is not key=value"), ("colour=red", "colour")):
        bad = server.client.post(
            "/new", data={"ruleset": "hanamikoji", "players": "ann, ben", "options": options}
        )
        assert bad.status_code == 400 and said in html.unescape(bad.text)
        assert f'value="{options}"' in bad.text  # kept for mending


def test_a_seat_cannot_make_another_seats_move(server):
    links = start_game(server, "ohanami", "ann, ben")["links"]
    game = links["ann"].split("/")[-2]
    anns = server.client.get(server.path(links["ann"]) + "/state.json").json()
    move = anns["buttons"][0]["text"]  # pick ann CARD row=1 (one of ann's cards, so few)
    before = _log(server, game)
    answer = _move(server, links["ben"], move)
    assert answer.status_code == 403 and "ben's page records ben's moves only" in html.unescape(
        answer.text
    )
    assert _log(server, game) == before
    assert _move(server, links["ann"], move).status_code == 303


def test_a_move_made_for_a_position_already_left_is_refused_under_the_lock(tmp_path):
    """Two phones that saw seq 1 both send a move: the second is checked against the game
    under the same lock the first was recorded under, so it cannot land at seq 2."""
    store = Store(tmp_path / "store")
    gid, _ = new_game(store, "hanabi", ["ann", "ben"], seed=1)
    recording = Recording(store, store.path(gid))
    assert recording.move("play 1", "ann", expected=1).first == 1
    with pytest.raises(StaleWrite, match="made for seq 1, which was recorded meanwhile"):
        recording.move("play 1", "ben", expected=1)
    assert len(read_log(store.path(gid)).events) == 2


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--port", "99999"], "is not a port"),
        (["--port", "-1"], "is not a port"),
        (["--host", "no such host\x1b[31m"], "cannot listen on"),
        (["--host", "256.1.1.1"], "cannot listen on"),
        (["--links", "nosuchgame"], "no game"),
        (["--links", "../../etc/passwd"], "is not a game id"),
        (["--links", "ELSEWHERE"], "is not a game of this store"),
    ],
)
def test_bad_serve_options_are_one_line_and_exit_2(tmp_path, args, said):
    store = tmp_path / "store"
    elsewhere = tmp_path / "elsewhere"
    gid, _ = new_game(Store(elsewhere), "hanabi", ["ann", "ben"], seed=1)
    args = [str(elsewhere / f"{gid}.jsonl") if a == "ELSEWHERE" else a for a in args]
    run = subprocess.run(
        [GAMETAPE, "--store", str(store), "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert said in run.stderr and "Traceback" not in run.stderr
    assert "\x1b[31m" not in run.stderr  # a name is printed as text, never as a terminal code
    assert sorted(p.name for p in elsewhere.iterdir()) == [f"{gid}.jsonl"]  # no links beside


def test_a_phone_that_drops_its_connection_mid_answer_stops_nothing(server):
    """The CLI lets SIGPIPE end a command whose reader went away; the server ignores it, or
    a page that left while its live stream was open would end every game (found by the
    browser games: the server's next writes to that stream)."""
    links = start_game(server, "hanabi", "ann, ben, cat")["links"]
    where = urlsplit(server.url)
    for _ in range(3):  # pages that leave with their streams open
        raw = socket.create_connection((where.hostname, where.port))
        path = server.path(links["cat"]) + "/events"
        raw.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        got = b""
        while b"event: moved" not in got:
            got += raw.recv(4096)
        raw.close()
    for _ in range(4):  # each move is written to those streams: a reset, then a broken pipe
        _clue(server, links)
        time.sleep(0.1)
    assert server.process.poll() is None, server.process.poll()
    assert server.client.get("/").status_code == 200
    # and the disposition itself, as the kernel holds it (a write to a dead socket is then
    # an error uvicorn handles, never the end of the process)
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    ignored = int(re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.M).group(1), 16)
    assert ignored & (1 << (signal.SIGPIPE - 1)), "SIGPIPE is not ignored"


def test_ctrl_c_with_pages_following_ends_their_streams_and_says_nothing_alarming(tmp_path):
    served = Served(tmp_path / "store")
    links = start_game(served, "hanabi", "ann, ben")["links"]
    where = urlsplit(served.url)
    streams = []
    followed = [f"{served.path(links[who])}/events" for who in ("ann", "ben", "spectator")]
    followed.append(f"{served.path(links['host'])}/review/events?member={MEMBER}")  # a review
    for path in followed:
        raw = socket.create_connection((where.hostname, where.port))
        raw.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        streams.append(raw)
    time.sleep(0.3)
    said = served.stop()
    assert served.process.returncode == 0
    # the streams ended when asked, not cut at the graceful timeout (uvicorn then says
    # "ERROR: Cancel 4 running task(s), timeout graceful shutdown exceeded")
    assert "Traceback" not in said and "ERROR" not in said, said
    for raw in streams:
        raw.close()


def test_games_nobody_follows_are_let_go_of_and_opened_again_from_the_store(tmp_path):
    store = Store(tmp_path / "store")
    gid, game = new_game(store, "hanabi", ["ann", "ben"], seed=1)
    tokens = {x.label: x.token for x in issue(store, store.path(gid), game.players)}
    tables = Tables(store, idle=0.05)
    table, ann = tables.open(gid, tokens["ann"])
    tables.move(table, ann, "play 1", 1)
    followed, _ = tables.open(gid, tokens["ben"])

    def page() -> None:  # a page following live keeps it open
        return None

    followed.listen(page)
    time.sleep(0.1)
    assert tables.forget_idle() == 0
    followed.unlisten(page)
    assert tables.forget_idle() == 1
    again, ben = tables.open(gid, tokens["ben"])
    assert again is not table and len(again.game.events) == 2  # read again from the store
    assert tables.move(again, ben, "play 1", 2).first == 2


def test_the_links_page_reloads_without_starting_another_game(server):
    """#36: the links page stayed at /new, so a reload posted the form again and the first
    game's links, shown once, were gone. Now the post redirects to the host's links page,
    which shows the same links as often as it is loaded, to the host's link alone."""
    posted = server.client.post("/new", data={"ruleset": "ohanami", "players": "ann, ben"})
    assert posted.status_code == 303
    page = posted.headers["location"]
    links = server.announced()["links"]
    assert page == server.path(links["host"]) + "/links"
    games = sorted(Path(server.store).glob("*.jsonl"))
    first, again = server.client.get(page), server.client.get(page)
    assert first.status_code == again.status_code == 200 and first.text == again.text
    for link in links.values():
        assert link in first.text and server.client.get(server.path(link)).status_code == 200
    assert sorted(Path(server.store).glob("*.jsonl")) == games  # no second game
    # each QR code scales to its square (a fixed size sat in the square's top-left corner)
    codes = re.findall(r"<svg[^>]*>", first.text)
    assert len(codes) == len(links) and all(
        'viewBox="0 0 ' in c and "width=" not in c for c in codes
    )
    assert "the game's links" in server.client.get(server.path(links["host"])).text
    # to any other link, and a forged one, the page is not there: the same bytes
    gone = [server.client.get(server.path(links[who]) + "/links") for who in ("ann", "spectator")]
    forged = server.client.get(page.replace(page.split("/")[3], "A" * 22))
    missing = server.client.get(f"/g/{page.split('/')[2]}//links")  # no token at all
    assert {r.status_code for r in [*gone, forged, missing]} == {404}
    assert len({r.content for r in [*gone, forged, missing]}) == 1


def test_a_seats_undo_with_nothing_to_undo_is_still_not_its_to_make(server):
    """#36: with nothing to undo, a seat's undo was told the rule (422) before the
    permission (403)."""
    links = start_game(server, "hanabi", "ann, ben")["links"]
    answer = _move(server, links["ann"], "undo", 1)
    assert answer.status_code == 403, answer.text[:2000]
    assert "undo and abandon are on the host's page" in html.unescape(answer.text)
    host = _move(server, links["host"], "undo", 1)
    assert host.status_code == 422 and "no move to take back" in html.unescape(host.text)


def test_players_called_host_or_spectator_keep_their_links(server):
    """#36: links were keyed by label in `serve --json`, so a player called host lost theirs."""
    said = start_game(server, "hanabi", "host, spectator")
    links, seats = said["links"], said["seats"]
    assert [s["name"] for s in seats] == ["host", "spectator"]
    assert (
        links["host (seat 1)"] == seats[0]["link"]
        and links["spectator (seat 2)"] == seats[1]["link"]
    )
    assert len(set(links.values())) == 4  # two seats, the host, the spectators: four links
    page = server.client.get(server.path(seats[0]["link"]) + "/state.json").json()
    assert page["role"] == "seat" and page["seat"] == 0


def test_a_seats_buttons_and_heading_read_as_a_person_would_say_them(server):
    """#36: Ohanami's buttons read 'pick ann 14 row=1' on ann's own page, and the heading
    'ann and ben and cat to act'."""
    links = start_game(server, "ohanami", "ann, ben, cat")["links"]
    state = server.client.get(server.path(links["ann"]) + "/state.json").json()
    labels = [b["label"] for b in state["buttons"]]
    assert labels and all(b.startswith("pick ") and " ann " not in b for b in labels)
    assert all(b["text"].startswith("pick ann ") for b in state["buttons"])  # what is sent
    live = server.client.get(server.path(links["ann"]) + "/live").text
    assert "ann, ben and cat to act" in live


def test_every_example_a_page_shows_is_a_move_that_link_may_make_now(server):
    """#36: the host's input suggested `secret pink` (a seat's move), a Hanabi table seat was
    offered `play 2` (refused: the face is not known), and hints named bob, who was not at the
    table."""
    said = start_game(server, "hanabi", "ann, cat", table=True)
    links = said["links"]
    for who in ("ann", "host"):
        page = server.client.get(server.path(links[who])).text
        placeholder = re.search(r'placeholder="([^"]*)"', page).group(1)
        listed = re.findall(r"<code>([^<]*)</code>", page.split('class="dim examples"')[-1])
        shown = [html.unescape(t) for t in [placeholder, *listed] if t]
        assert "bob" not in " ".join(shown) and "secret" not in " ".join(shown)
        for text in shown[:1]:  # the example, sent as it is, is a move this link may make
            answer = _move(server, links[who], text)
            assert answer.status_code == 303, (who, text, answer.text[:500])


def test_a_store_that_cannot_be_reached_is_a_503_that_says_so_never_a_wrong_link(pg_server):
    """#36: with PostgreSQL down, valid links answered 404 "no such game or link". The
    server here is the session's own, halted and started again (its data kept)."""
    url = pg_server.create_database("reach")
    with Served(url, "--port", "0") as server:
        links = start_game(server, "hanabi", "ann, ben")["links"]
        pg_server.halt()
        try:
            time.sleep(0.5)
            # a link the server has not opened yet: it must ask the store
            fresh = server.client.get(server.path(links["ben"]) + "/replay")
            forged = server.client.get(server.path(links["ben"]).rsplit("/", 1)[0] + "/" + "B" * 22)
        finally:
            pg_server.start()
        assert fresh.status_code == 503, fresh.text[:500]
        assert "no such game or link" not in fresh.text and "cannot" in fresh.text
        assert forged.status_code == fresh.status_code  # a wrong token tells nothing more


def test_links_and_redirects_never_come_from_the_request_s_host_header(server):
    """#36: `Host: evil.example` gave links at http://evil.example, a trailing-slash 307 put
    a token into such a Location, a 3,000-character Host header was a 500 after the game was
    made, and POST /new came from any site's page."""
    posted = server.client.post(
        "/new", data={"ruleset": "hanabi", "players": "ann, ben"}, headers={"host": "x" * 3000}
    )
    assert posted.status_code == 303 and "xxx" not in posted.headers["location"]
    links = server.announced()["links"]
    page = server.client.get(posted.headers["location"], headers={"host": "evil.example"})
    assert page.status_code == 200 and "evil.example" not in page.text
    assert all(link in page.text for link in links.values())  # the server's own address
    slashed = server.client.get(server.path(links["ann"]) + "/", headers={"host": "evil.example"})
    assert slashed.status_code == 404 and "location" not in slashed.headers
    before = sorted(Path(server.store).glob("*.jsonl"))
    other = server.client.post(
        "/new",
        data={"ruleset": "hanabi", "players": "ann, ben"},
        headers={"origin": "http://evil.example"},
    )
    assert other.status_code == 403 and "own front page" in other.text
    assert sorted(Path(server.store).glob("*.jsonl")) == before
    # #49: another site's page that hides where it is (no-referrer: "Origin: null"), or a
    # browser that says the post comes from another site, starts nothing either
    for headers in (
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site", "origin": server.url},
        {"sec-fetch-site": "cross-site", "origin": server.url},
    ):
        refused = server.client.post(
            "/new", data={"ruleset": "hanabi", "players": "ann, ben"}, headers=headers
        )
        assert refused.status_code == 403 and "own front page" in refused.text, headers
        assert sorted(Path(server.store).glob("*.jsonl")) == before, headers
    # a browser on the front page says "same-origin" (Chromium: tests/test_serve_browser.py)
    same = server.client.post(
        "/new",
        data={"ruleset": "hanabi", "players": "ann, ben"},
        headers={"sec-fetch-site": "same-origin", "origin": server.url},
    )
    assert same.status_code == 303
    server.announced()
    ours = server.client.post(
        "/new", data={"ruleset": "hanabi", "players": "ann, ben"}, headers={"origin": server.url}
    )
    assert ours.status_code == 303
    server.announced()


def test_a_public_url_that_is_not_an_address_is_refused(tmp_path):
    done = subprocess.run(
        [GAMETAPE, "--store", str(tmp_path), "serve", "--public-url", "javascript:alert(1)"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2 and "--public-url" in done.stderr and "Traceback" not in done.stderr


def test_a_body_sent_a_byte_at_a_time_is_cut_off(server):
    """#36: 20 connections sending a body a byte a second stayed open."""
    import socket
    from urllib.parse import urlsplit

    links = start_game(server, "hanabi", "ann, ben")["links"]
    where = urlsplit(server.url)
    raw = socket.create_connection((where.hostname, where.port), timeout=30)
    raw.sendall(
        f"POST {server.path(links['ann'])}/move HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n"
        "seq=1".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        try:
            raw.sendall(b"&")  # a byte now and then
        except OSError:
            break
        raw.settimeout(1.0)
        try:
            answer += raw.recv(4096)
        except TimeoutError:
            continue
    raw.close()
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]  # cut off: it never ends itself


def test_a_move_taken_back_is_struck_out_on_live_pages_and_moves_are_numbered_by_seq(server):
    """#36: the spectators' list showed 'the table took back seq 1' with the move itself not
    struck out, and numbered the newest '1.'."""
    links = start_game(server, "hanabi", "ann, ben")["links"]
    assert _move(server, links["ann"], "play 1", 1).status_code == 303
    assert _move(server, links["host"], "undo", 2).status_code == 303
    live = server.client.get(server.path(links["spectator"]) + "/live").text
    assert '<li value="1" class="undone"><s>' in live
    assert "(taken back at seq 2)" in live and '<li value="2">' in live
    data = server.client.get(server.path(links["spectator"]) + "/state.json").json()
    assert data["recent_seqs"] == [2, 1] and data["recent_undone"] == [0, 2]


def test_a_table_seats_picker_offers_each_colour_once(server):
    """#36: Hanabi's colour|rank list held both "red" and "r" (15 entries)."""
    links = start_game(server, "hanabi", "ann, ben", table=True)["links"]
    state = server.client.get(server.path(links["ann"]) + "/state.json").json()
    clue = next(p for p in state["pickers"] if p["words"][0] == ["clue"])
    values = clue["words"][2]
    assert "red" in values and "r" not in values and len(values) == 10  # 5 colours, 5 ranks


def test_a_table_clue_s_slots_are_checkboxes_and_any_set_of_them_is_sent(server):
    """#36: the slots of a table clue were one list of 31 sets (27 on the page: the single
    slots 1-4 were dropped as short forms of "12", "23"...). Now each slot is a checkbox,
    and the slots picked are sent one word each."""
    links = start_game(server, "hanabi", "ann, ben", table=True)["links"]
    state = server.client.get(server.path(links["ann"]) + "/state.json").json()
    clue = next(p for p in state["pickers"] if p["words"][0] == ["clue"])
    assert clue["words"][3] == ["1", "2", "3", "4", "5"] and clue["sets"] == [
        False,
        False,
        False,
        True,
    ]
    page = server.client.get(server.path(links["ann"])).text
    assert page.count('type="checkbox" name="w"') == 5
    words = ["clue", "ben", "red", "1", "3"]
    answer = server.client.post(
        server.path(links["ann"]) + "/move", data={"seq": str(state["seq"]), "w": words}
    )
    assert answer.status_code == 303
    after = server.client.get(server.path(links["ben"]) + "/state.json").json()
    assert "slots 1, 3" in after["recent"][0], after["recent"]
    single = server.client.post(
        server.path(links["ben"]) + "/move",
        data={"seq": str(after["seq"]), "w": ["clue", "ann", "2", "1"]},
    )
    assert single.status_code == 303  # one slot alone, which the list could not say


def test_a_refused_picker_move_comes_back_with_its_choices_kept(server):
    """#36: after a refusal the pickers were back at their defaults."""
    links = start_game(server, "hanabi", "ann, ben", table=True)["links"]
    state = server.client.get(server.path(links["ann"]) + "/state.json").json()
    answer = server.client.post(  # a table clue must say the slots it touched
        server.path(links["ann"]) + "/move",
        data={"seq": str(state["seq"]), "w": ["clue", "ben", "blue"]},
    )
    assert answer.status_code in (400, 422), answer.text
    assert '<option value="blue" selected>blue</option>' in answer.text
    assert answer.text.count(" selected>") == 1 and " checked>" not in answer.text
    again = server.client.post(
        server.path(links["ann"]) + "/move",
        data={"seq": "99", "w": ["clue", "ben", "4", "2", "5"]},
    )
    assert again.status_code == 409
    assert '<option value="4" selected>4</option>' in again.text
    assert again.text.count(" checked>") == 2  # slots 2 and 5


def test_many_moves_of_a_kind_come_in_rows_by_their_first_word():
    """#36: the published Hanamikoji gave a seat sixteen "trade ..." buttons. Moves of a kind
    that differ in two words come in a row per first word ("trade red": yellow, blue, ...),
    each button sending the whole move; a kind of few moves, or of one word, stays as it was."""
    from gametape.usecases.position import position
    from gametape.web.pages import button_rows, environment, groups
    from tests.test_hanamikoji_classic_rules import fresh

    game = fresh()  # ann: violet, red, red, yellow, yellow, blue, green
    seen = position(game, 0, offer=0, role="seat", label="ann")
    rows = dict(button_rows(seen))
    assert [c.text for c in rows["trade red"]][:3] == [
        "trade red red", "trade red yellow", "trade red blue",
    ]  # fmt: skip
    assert all(
        c.label == c.text for c in seen.buttons
    )  # the whole move, as a screen reader says it
    assert [c.label for c in rows[""]] == [
        f"secret {g}" for g in ("violet", "red", "yellow", "blue", "green")
    ]
    page = (
        environment()
        .get_template("live.html")
        .render(p=seen, board=seen.board, groups=groups(seen), base="/g/x/y")
    )
    assert '<span class="bhead">trade red</span>' in page
    # the button sends the move as a value (#51), says the rest of its row's words, and is
    # heard whole
    sent = re.search(
        r"value='([^']*)' data-said=\"trade red yellow\" data-text=\"trade red yellow\" "
        r"aria-label=\"trade red yellow\">yellow</button>",
        page,
    )
    assert sent is not None, page
    assert json.loads(html.unescape(sent.group(1))) == {
        "type": "hanamikoji-classic.trade", "player": 0, "cards": [1, 2]
    }  # fmt: skip


def test_headers_sent_a_byte_at_a_time_are_cut_off(server):
    """#36: slow headers held a connection open for 20 s and more (uvicorn bounds none)."""
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(server.url)
    raw = socket.create_connection((where.hostname, where.port), timeout=30)
    raw.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()
    closed = False
    while time.monotonic() - started < 120:  # generous: the server's bound is 5 s
        try:
            raw.sendall(b"X")  # a byte of a header now and then, never the end
            raw.settimeout(1.0)
            if raw.recv(4096) == b"":
                closed = True
                break
        except TimeoutError:
            continue
        except OSError:
            closed = True
            break
    raw.close()
    assert closed  # the server cut it off: this client never stops
    assert server.client.get("/").status_code == 200  # and the server serves on


def test_a_variant_game_from_the_front_page_offers_its_clue_colours_and_records(server):
    answer = server.client.post(
        "/new",
        data={"ruleset": "hanabi", "players": "ann, ben", "options": "variant=Rainbow (6 Suits)"},
    )
    assert answer.status_code == 303
    said = server.announced()
    assert _events(server, said["game"])[0].options.variant == "Rainbow (6 Suits)"
    ann = server.client.get(server.path(said["links"]["ann"]) + "/state.json").json()
    offered = " ".join(b["text"] for b in ann["buttons"]) + json.dumps(ann["pickers"])
    assert "rainbow" not in offered.replace("m", "")  # no clue names the rainbow suit
    assert "m0" in json.dumps(ann["board"])  # its firework is drawn, by its letter
    _clue(server, said["links"])
    assert type(_events(server, said["game"])[-1]).__name__ == "HanabiClue"


def test_a_move_sent_again_after_the_host_took_it_back_is_told_so(server):
    """#49: the phone was told "✓ recorded as seq 1" though seq 1 had been taken back."""
    said = start_game(server, "hanabi", "ann, ben")
    links = said["links"]
    text = _first_button(server, links["ann"])
    sent = {"seq": "1", "text": text, "id": "phone-ann-retry-01"}
    first = server.client.post(server.path(links["ann"]) + "/move", data=sent)
    assert first.status_code == 303 and first.headers["location"].endswith("?ok=1")
    undo = _move(server, links["host"], "undo", 2)
    assert undo.status_code == 303
    again = server.client.post(server.path(links["ann"]) + "/move", data=sent)
    assert again.status_code == 303 and again.headers["location"].endswith("?ok=1&back=2")
    page = server.client.get(again.headers["location"])
    assert "recorded as seq 1, then taken back at seq 2" in page.text and "✓" not in page.text
    answer = server.client.post(
        server.path(links["ann"]) + "/move", data=sent, headers={"accept": "application/json"}
    ).json()
    assert answer == {"first": 1, "last": 1, "seq": 3, "taken_back": 2}
    assert len(read_log(Path(server.store) / f"{said['game']}.jsonl").events) == 3


@pytest.mark.parametrize("name", ["hanabi", "hanamikoji", "hanamikoji-classic", "ohanami"])
def test_a_picker_never_starts_at_a_face(server, name):
    """#49: at a table, the published Hanamikoji's secret picker started at "violet": one
    tap recorded a face nobody said. A list starts at "?" (not said) where a card may go
    unnamed, and otherwise at "choose…", which the browser will not send."""
    said = start_game(server, name, "ann, ben", table=True)
    for who in ("ann", "ben"):
        page = server.client.get(server.path(said["links"][who])).text
        for select in re.findall(r"<select[^>]*>(?:<option[^>]*>[^<]*</option>)+", page):
            first = re.search(r"<option[^>]*>", select.split(">", 1)[1]).group(0)
            assert first in ('<option value="?">', '<option value="">'), (who, select[:200])
            assert first == '<option value="?">' or " required" in select.split(">")[0]
    if name == "hanamikoji-classic":  # ann's secret, sent as the page starts it
        state = server.client.get(server.path(said["links"]["ann"]) + "/state.json").json()
        secret = next(p for p in state["pickers"] if p["words"][0] == ["secret"])
        assert secret["words"][1][0] == "?"
        answer = server.client.post(
            server.path(said["links"]["ann"]) + "/move",
            data={"seq": str(state["seq"]), "w": ["secret", "?"]},
        )
        assert answer.status_code == 303
        after = server.client.get(server.path(said["links"]["ann"]) + "/state.json").json()
        assert "(" not in after["recent"][0], after["recent"]  # no face said


def test_a_pickers_lists_are_named_for_a_screen_reader(server):
    """#49: a screen reader heard Ohanami's two lists as "word 3" and "word 4"."""
    links = start_game(server, "ohanami-classic", "ann, ben")["links"]
    page = server.client.get(server.path(links["ann"])).text
    assert 'aria-label="choose: choice 1 of 2"' in page
    assert 'aria-label="choose: choice 2 of 2"' in page and 'aria-label="word' not in page


def test_a_script_sends_a_move_as_a_value_that_state_json_offers(server):
    """#51, for scripts: state.json offers each button's move as a value (its type and typed
    fields, beside its words); POST …/move with Content-Type application/json takes
    {"seq", "move", "id"} and answers as it does for a form, in JSON."""
    said = start_game(server, "hanabi", "ann, ben")
    links, game = said["links"], said["game"]
    url = server.path(links["ann"]) + "/move"
    state = server.client.get(server.path(links["ann"]) + "/state.json").json()
    button = next(b for b in state["buttons"] if b["text"].startswith("play"))
    value = button["move"]
    assert value["type"] == "hanabi.play" and value["player"] == 0 and "card" in value
    before = _log(server, game)
    for bad, words in [
        (b'{"seq": 1}', "is not"),  # no move
        (b'{"seq": 1, "move": {"type": "hanabi.nope"}}', "not a hanabi move as a value"),
        (b'{"seq": 1, "move": {"type": "hanabi.play", "player": 0}}', "not a hanabi move"),
        (b"[1, 2]", "is not"),
        (b'{"seq": 1, "move": {"type": "hanabi.play", "player": 1, "card": 5}}', "ann's moves"),
    ]:
        answer = server.client.post(url, content=bad, headers={"content-type": "application/json"})
        assert answer.status_code in (400, 403), (bad, answer.status_code, answer.text)
        assert words in answer.json()["error"], (bad, answer.json())
        # the refusal as data too: its message, whose words are the error's (#51)
        said = msgspec.convert(answer.json()["said"], Message)
        assert render(said) == answer.json()["error"], said
        assert "Traceback" not in answer.text and _log(server, game) == before
    sent = {"seq": 1, "move": value, "id": "script-ann-0001"}
    answer = server.client.post(url, json=sent)
    assert answer.status_code == 200 and answer.json() == {"first": 1, "last": 1, "seq": 2}
    again = server.client.post(url, json=sent)  # a retry records once
    assert again.json() == {"first": 1, "last": 1, "seq": 2}
    events = read_log(Path(server.store) / f"{game}.jsonl").events
    assert len(events) == 2 and events[1].card == value["card"]
    words = server.client.post(
        server.path(links["ben"]) + "/move", json={"seq": 2, "move": "play 1"}
    )
    assert words.status_code == 200  # words are a move too


@pytest.mark.parametrize("table", [False, True], ids=["dealt", "at a table"])
def test_six_phones_play_up_or_down_each_seeing_its_own_view(server, table):
    """#54: six players, as hanab.live deals them (hands of 3), on six phones, in Up or Down
    (START cards, stacks built either way): each seat's page hides its own hand, and every
    seat records its move in turn (at a table each plays a START card, written ``rs``)."""
    names = ["ann", "ben", "cat", "dan", "eve", "fay"]
    said = start_game(
        server, "hanabi", ", ".join(names), table=table, options="variant=Up or Down (6 Suits)"
    )
    links = said["links"]
    assert list(links) == [*names, "host", "spectator"]
    for seat, (name, letter) in enumerate(zip(names, "rygbpt", strict=True)):
        position = server.client.get(server.path(links[name]) + "/state.json").json()
        hands = [z for z in position["board"]["zones"] if z.get("group") == "hands"]
        assert [len(z["cards"]) for z in hands] == [3] * 6
        assert hands[seat]["title"] == f"{name} (you)"
        assert all(c.get("back") for c in hands[seat]["cards"])  # its own hand: hidden
        if table:
            answer = _move(server, links[name], f"play 1 {letter}s", position["seq"])
            assert answer.status_code == 303, html.unescape(answer.text)[-600:]
        elif seat == 0:
            assert _move(server, links[name], "play 1", position["seq"]).status_code == 303
        else:
            _clue(server, links)
    events = _events(server, said["game"])
    assert len(events) == 7 and events[0].options.variant == "Up or Down (6 Suits)"
    if table:
        host = server.client.get(server.path(links["host"]) + "/state.json").json()
        fireworks = next(z for z in host["board"]["zones"] if z.get("group") == "table")
        assert [c["text"] for c in fireworks["cards"]] == [f"{k}s" for k in "rygbpt"]
    checked = subprocess.run(
        [GAMETAPE, "--store", str(server.store), "validate", said["game"]],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
