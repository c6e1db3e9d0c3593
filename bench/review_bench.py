"""Review rooms under load (#42): ROOMS rooms of PAGES pages, each room's leader stepping
through a finished Hanabi game every STEP seconds, through a real `gametape serve` on loopback.

Each follower does what review.js does: it holds the room's event stream open and, on each
event, reads the room's snapshot (``state.json``). A follow's latency is the time from the
leader's step leaving until a follower holds the snapshot with that step's seq. Aim: p99 <=
200 ms. The baseline, measured in the same run on the same server: one room, one follower,
nothing else going on; the ratio says what the load costs.

Run: `python -m bench.review_bench [--rooms N] [--seconds S]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.common import Figure, percentile
from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.events import Store
from gametape.usecases.links import issue
from tests.serving import Served

ROOMS = 20
PAGES = 5  # following pages a room, besides its leader's
STEP = 0.5  # seconds between a leader's steps
SECONDS = 15.0
AIM_P99_MS = 200.0


def _games(store: Store, count: int) -> list[tuple[str, dict[str, str]]]:
    rules = get_ruleset("hanabi")
    made = []
    for i in range(count):
        game = sim.play(rules, ["ann", "ben"], rules.default_bot, random.Random(i), seed=i)
        gid = store.create(game.events[0], game.events[1:])
        made.append((gid, {x.label: x.token for x in issue(store, store.path(gid), game.players)}))
    return made


async def _request(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, method: str, path: str, body=b""
) -> bytes:
    """One request on a kept-alive connection (a minimal client, cheap for the generator)."""
    head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nAccept: application/json\r\n"
    if body:
        head += "Content-Type: application/x-www-form-urlencoded\r\n"
    head += f"Content-Length: {len(body)}\r\n\r\n"
    writer.write(head.encode() + body)
    await writer.drain()
    answer = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"content-length: *(\d+)", answer, re.I)
    return await reader.readexactly(int(length.group(1))) if length else b""


async def _follower(
    where: tuple[str, int],
    base: str,
    member: str,
    sent: dict[int, float],
    until: float,
    latencies: list[float],
) -> None:
    stream_r, stream_w = await asyncio.open_connection(*where)
    state_r, state_w = await asyncio.open_connection(*where)
    stream_w.write(f"GET {base}/events?member={member} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await stream_r.readuntil(b"\r\n\r\n")
    seen: set[int] = set()
    try:
        while (left := until - time.perf_counter()) > 0:
            line = await asyncio.wait_for(stream_r.readline(), timeout=left)
            if not line:
                return
            if not line.startswith(b"data:"):
                continue
            snap = json.loads(
                await _request(state_r, state_w, "GET", f"{base}/state.json?member={member}")
            )
            seq = snap["seq"]
            if seq in sent and seq not in seen:
                seen.add(seq)
                latencies.append((time.perf_counter() - sent[seq]) * 1000)
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return
    finally:
        stream_w.close()
        state_w.close()


async def _room(
    where: tuple[str, int], gid: str, links: dict[str, str], pages: int, seconds: float
) -> list[float]:
    """One room: its leader (the host's link) steps forward every STEP s while ``pages``
    pages follow; the follow latencies (ms)."""
    host = f"/g/{gid}/{links['host']}/review"
    others = [links["ann"], links["ben"], links["spectator"], links["host"]]
    lead_r, lead_w = await asyncio.open_connection(*where)
    leader = "L" * 8 + gid[:8].ljust(8, "x")
    await _request(lead_r, lead_w, "GET", f"{host}/state.json?member={leader}")  # leads: first
    # the leader's page holds the room's stream open as review.js does: its presence, without
    # which a page of the same link joining takes the lead (a reload's new tab)
    here_r, here_w = await asyncio.open_connection(*where)
    here_w.write(f"GET {host}/events?member={leader} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await here_r.readuntil(b"\r\n\r\n")
    sent: dict[int, float] = {}
    latencies: list[float] = []
    until = time.perf_counter() + seconds
    followers = []
    for i in range(pages):
        base = f"/g/{gid}/{others[i % len(others)]}/review"
        member = f"F{i:07d}{gid[:8]}".ljust(16, "x")
        follow = _follower(where, base, member, sent, until + 1.0, latencies)
        followers.append(asyncio.create_task(follow))
    await asyncio.sleep(0.5 + random.random() * STEP)  # the pages are in; rooms out of step
    seq = 0
    while time.perf_counter() + STEP < until:
        seq += 1
        sent[seq] = time.perf_counter()
        body = f"member={leader}&seq={seq}".encode()
        await _request(lead_r, lead_w, "POST", f"{host}/step", body)
        await asyncio.sleep(STEP)
    await asyncio.gather(*followers)
    lead_w.close()
    here_w.close()
    return latencies


async def _all(url: str, games: list[tuple[str, dict[str, str]]], pages: int, seconds: float):
    where = urlsplit(url)
    address = (str(where.hostname), int(where.port or 80))
    got = await asyncio.gather(*(_room(address, g, ln, pages, seconds) for g, ln in games))
    return [x for room in got for x in room]


def run(rooms: int = ROOMS, seconds: float = SECONDS) -> list[Figure]:
    rooms, seconds = min(rooms, 200), min(seconds, 120.0)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "store"
        games = _games(Store(root), rooms + 2)
        served = Served(root)
        try:
            asyncio.run(_all(served.url, games[:1], 1, 2.0))  # warm up: not measured
            base = asyncio.run(_all(served.url, games[1:2], 1, min(seconds, 8.0)))
            loaded = asyncio.run(_all(served.url, games[2:], PAGES, seconds))
        finally:
            served.stop()
    p50, p99 = statistics.median(loaded), percentile(loaded, 0.99)
    b50, b99 = statistics.median(base), percentile(base, 0.99)
    print(
        f"review: {rooms} rooms of {PAGES} following pages, leaders stepping every {STEP:g} s "
        f"for {seconds:g} s ({len(loaded):,} follows)"
    )
    print(f"  follow latency p50 {p50:6.1f} ms   p99 {p99:6.1f} ms  (step sent to snapshot read)")
    print(f"  baseline, one room of one page: p50 {b50:6.1f} ms   p99 {b99:6.1f} ms")
    print(f"  ratio p50 {p50 / b50:5.1f}x   p99 {p99 / b99:5.1f}x")
    return [
        Figure("review", f"{rooms} rooms x {PAGES} pages: follow p50 ms", p50),
        Figure(
            "review", f"{rooms} rooms x {PAGES} pages: follow p99 ms", p99, AIM_P99_MS, "at_most"
        ),
        Figure("review", "follow p99 vs one unloaded page (x)", p99 / b99),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.review_bench", description=__doc__)
    parser.add_argument("--rooms", type=int, default=ROOMS)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    run(args.rooms, args.seconds)
