"""Moves from several phones at once through a real `gametape serve` (#35): independent moves
all count, however many seats send at once; a retry whose answer was lost records once."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.serving import Served
from tests.test_plugin_author import site

ROOT = Path(__file__).resolve().parents[1]
BIDS = (ROOT / "tests" / "plugins" / "toy_bids.py").read_text()
SEATS = [f"p{n}" for n in range(8)]


def _lines(log: Path) -> list[dict]:
    """The log's lines as JSON (this process has no toy-bids installed to decode them)."""
    return [json.loads(line) for line in log.read_bytes().splitlines()]


@pytest.fixture(scope="module")
def bids_server(tmp_path_factory):
    env = site(
        tmp_path_factory.mktemp("bids"), {"toy-bids": "toy_bids:RULESET"}, {"toy_bids": BIDS}
    )
    with Served(env["GAMETAPE_STORE"], env={"PYTHONPATH": env["PYTHONPATH"]}) as served:
        yield served


def _start(server: Served, cards: int) -> dict:
    answer = server.client.post(
        "/new",
        data={"ruleset": "toy-bids", "players": ", ".join(SEATS), "options": f"cards={cards}"},
    )
    assert answer.status_code == 303, answer.text[:500]
    return server.announced()


def test_eight_seats_moving_at_once_200_times_are_never_refused(bids_server):
    """25 games of 8 rounds: 200 steps, each step's 8 bids sent at once on 8 threads, each
    with the seq the seat's page showed. Buys: a proof under real contention that moves
    which commute are never told the table moved on (about 20 s on 2 cores)."""
    server, refused, steps = bids_server, [], 0
    for _ in range(25):
        said = _start(server, 8)
        links = said["links"]
        log = Path(server.store) / f"{said['game']}.jsonl"
        clients = [httpx.Client(base_url=server.url, timeout=30) for _ in SEATS]
        try:
            for round_ in range(8):
                seq = len(_lines(log))
                go = threading.Barrier(len(SEATS))
                threads = [
                    threading.Thread(
                        target=_bid,
                        args=(clients[n], go, server.path(links[seat]), seq, round_ + 1, refused),
                    )
                    for n, seat in enumerate(SEATS)
                ]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                steps += 1
                assert len(_lines(log)) == seq + len(SEATS)
        finally:
            for client in clients:
                client.close()
    assert steps == 200 and refused == []


def _bid(client, go, link: str, seq: int, card: int, refused: list) -> None:
    go.wait()
    answer = client.post(
        link + "/move",
        data={"seq": str(seq), "text": f"bid {card}"},
        headers={"accept": "application/json"},
    )
    if answer.status_code != 200:
        refused.append((link, seq, answer.status_code, answer.text[:200]))


def test_a_true_race_is_still_told_the_table_moved_on(bids_server):
    said = _start(bids_server, 3)
    link = bids_server.path(said["links"]["p0"]) + "/move"
    first = bids_server.client.post(link, data={"seq": "1", "text": "bid 1"})
    assert first.status_code == 303
    second = bids_server.client.post(link, data={"seq": "1", "text": "bid 2"})
    assert second.status_code == 409 and "the table moved on" in second.text


def test_a_move_whose_answer_was_lost_is_answered_again_and_recorded_once(bids_server):
    said = _start(bids_server, 3)
    link = bids_server.path(said["links"]["p3"]) + "/move"
    log = Path(bids_server.store) / f"{said['game']}.jsonl"
    body = "seq=1&text=bid+2&id=phone-p3-retry-01"
    # the phone sends the move, and the network drops before the answer comes back
    host = urlsplit(bids_server.url)
    raw = socket.create_connection((host.hostname, host.port))
    raw.sendall(
        f"POST {link} HTTP/1.1\r\nHost: {host.netloc}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Accept: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}".encode()
    )
    deadline = time.monotonic() + 120  # generous: a busy machine records slowly
    while len(_lines(log)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    raw.close()
    assert len(_lines(log)) == 2  # the server recorded it
    # the phone, back online, sends it again with the same id: the same answer, one event
    for _ in range(2):
        again = bids_server.client.post(
            link,
            content=body,
            headers={
                "content-type": "application/x-www-form-urlencoded",
                "accept": "application/json",
            },
        )
        assert again.status_code == 200, again.text
        assert again.json() == {"first": 1, "last": 1, "seq": 2}
    lines = _lines(log)
    assert len(lines) == 2 and lines[1]["event"]["move_id"] == "phone-p3-retry-01"
    # the same id with another move is refused, and nothing is recorded
    other = bids_server.client.post(
        link, data={"seq": "2", "text": "bid 3", "id": "phone-p3-retry-01"}
    )
    assert other.status_code == 409 and len(_lines(log)) == 2
    # an id that is not one is a usage error
    bad = bids_server.client.post(link, data={"seq": "2", "text": "bid 3", "id": "<x>"})
    assert bad.status_code == 400 and len(_lines(log)) == 2
