"""`gametape serve` under load (#26): N tables recording at once through HTTP on loopback.

A real server (the console script, in its own process) on a file store; N two-player Hanabi
games, each recorded at one move a second by its seats' links (the moves a bot chose,
sent by the seat to act with the expected seq, as a phone's page sends them). Bounded: at
most TABLES tables for at most SECONDS seconds. Printed:

- moves/s over the run, and each move's latency from request to answer, which the server
  sends only once the move is on disk (fsync): p50 and p99. Aim: 100 tables at 1 move/s on
  2 cores with p99 <= 50 ms. Meanwhile both seats' pages of every table follow the game as
  a phone does (the event stream, and the live part fetched again after each move).
- the baseline, measured in the same run: the same kind of move recorded in-process
  (``Recording.move``: fold and fsync, no HTTP), p50 and p99; the ratio says what the web
  costs on top.
- lost moves after kill -9: the server is killed in the middle of the run, and every move a
  phone was told was recorded is looked for in the logs. Aim: 0.

Run: `python -m bench.serve_bench [--tables N] [--seconds S]`.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from bench.common import Figure, percentile
from gametape.engine import simulate as sim
from gametape.engine.game import notation
from gametape.engine.registry import get_ruleset
from gametape.events import Store, read_log
from gametape.usecases.links import issue
from gametape.usecases.record import Recording
from tests.serving import Served

TABLES = 100
SECONDS = 20.0
RATE = 1.0  # moves a second at each table
PAGES = 2  # pages following each table live (both seats' phones)


def _tables(store: Store, count: int) -> list[tuple[str, dict[str, str], list[tuple[str, str]]]]:
    """``count`` games in ``store`` with their links, and each game's moves as (seat, text)."""
    rules = get_ruleset("hanabi")
    made = []
    for i in range(count):
        played = sim.play(rules, ["ann", "ben"], rules.default_bot, random.Random(i), seed=i)
        gid = store.create(played.setup)
        links = {x.label: x.token for x in issue(store, store.path(gid), played.players)}
        states = played.fold.states
        moves = [
            (played.players[e.player], notation(rules, states[s - 1], e))  # type: ignore[attr-defined]
            for s, e in enumerate(played.events[1:], start=1)
        ]
        made.append((gid, links, moves))
    return made


def _baseline(root: Path, moves: int = 300) -> list[float]:
    """The same moves recorded in-process: Recording.move, fold and fsync, no HTTP (ms)."""
    store = Store(root)
    (gid, _links, plan) = _tables(store, 1)[0]
    recording = Recording(store, store.path(gid))
    times = []
    for _who, text in plan[:moves]:
        t = time.perf_counter()
        recording.move(text)
        times.append((time.perf_counter() - t) * 1000)
    return times


async def _table(
    client: httpx.AsyncClient,
    gid: str,
    links: dict[str, str],
    plan: list[tuple[str, str]],
    first: int,
    until: float,
    latencies: list[float],
    acked: dict[str, int],
    errors: list[str],
) -> None:
    """One table: its moves from seq ``first`` on, one a second, until ``until``."""
    await asyncio.sleep(random.random() / RATE)  # tables out of step, as at a club
    for seq, (who, text) in enumerate(plan[first - 1 :], start=first):
        started = time.perf_counter()
        if started >= until:
            return
        try:
            answer = await client.post(
                f"/g/{gid}/{links[who]}/move",
                data={"seq": str(seq), "text": text},
                headers={"accept": "application/json"},
            )
        except httpx.HTTPError:
            return  # the server was killed
        if answer.status_code != 200:
            errors.append(f"{gid} seq {seq}: {answer.status_code} {answer.text[:200]}")
            return
        latencies.append((time.perf_counter() - started) * 1000)
        acked[gid] = seq
        await asyncio.sleep(max(0.0, 1 / RATE - (time.perf_counter() - started)))


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str) -> bytes:
    """One GET on a kept-alive connection (a minimal client: httpx costs the load generator
    more CPU than the server spends answering)."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = re.search(rb"content-length: *(\d+)", head, re.I)
    return await reader.readexactly(int(length.group(1))) if length else b""


async def _follow(where: tuple[str, int], path: str, until: float, fetched: list[int]) -> None:
    """A page following its game, as seat.js does: the event stream, and the live part
    fetched again on each "moved"."""
    try:
        stream_r, stream_w = await asyncio.open_connection(*where)
        live_r, live_w = await asyncio.open_connection(*where)
        stream_w.write(f"GET {path}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        await stream_r.readuntil(b"\r\n\r\n")
        while (left := until - time.perf_counter()) > 0:
            line = await asyncio.wait_for(stream_r.readline(), timeout=left)
            if not line:
                return
            if line.startswith(b"data:"):
                await _get(live_r, live_w, path + "/live")
                fetched[0] += 1
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return  # the run is over, or the server was killed


def _followers(url: str, paths: list[str], seconds: float, told: Any) -> None:
    """Every page following its game, in a process of its own (so the pages' load does not
    slow the phones' requests in the measuring process); ``told`` gets the updates fetched."""
    where = urlsplit(url)
    fetched = [0]

    async def all_of_them() -> None:
        until = time.perf_counter() + seconds
        address = (str(where.hostname), int(where.port or 80))
        await asyncio.gather(*(_follow(address, p, until, fetched) for p in paths))

    asyncio.run(all_of_them())
    told.put(fetched[0])


async def _load(
    server: Served,
    tables: list,
    start: dict[str, int],
    seconds: float,
    kill_at: float | None = None,
) -> tuple[list[float], dict[str, int], list[str], float]:
    """Every table recording at once for ``seconds`` (each from the seq after ``start``'s);
    with ``kill_at``, the server is killed (-9) that many seconds in."""
    latencies: list[float] = []
    acked: dict[str, int] = {}
    errors: list[str] = []
    paths = [f"/g/{g}/{token}" for g, ln, _ in tables for token in list(ln.values())[:PAGES]]
    told: Any = mp.get_context("spawn").Queue()
    pages = mp.get_context("spawn").Process(
        target=_followers, args=(server.url, paths, seconds, told), daemon=True
    )
    pages.start()
    await asyncio.sleep(1.0)  # the pages are open before the first move
    limits = httpx.Limits(max_connections=len(tables) + 10, max_keepalive_connections=len(tables))
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=10) as client:
        started = time.perf_counter()
        until = started + seconds
        tasks = [
            asyncio.create_task(
                _table(client, g, ln, p, start.get(g, 0) + 1, until, latencies, acked, errors)
            )
            for g, ln, p in tables
        ]

        if kill_at is not None:
            await asyncio.sleep(kill_at)
            server.process.kill()  # kill -9, with moves in flight
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - started
    pages.join(timeout=seconds + 10)
    if kill_at is None:
        print(f"  {len(paths)} pages following live fetched {told.get(timeout=10):,} updates")
    return latencies, acked, errors, elapsed


def _lost(root: Path, acked: dict[str, int]) -> int:
    """Moves a phone was told were recorded that are not in the log."""
    lost = 0
    for gid, seq in acked.items():
        have = len(read_log(root / f"{gid}.jsonl").events) - 1
        lost += max(0, seq - have)
    return lost


def run(tables: int = TABLES, seconds: float = SECONDS) -> list[Figure]:
    tables, seconds = min(tables, 500), min(seconds, 120.0)  # bounded in count and time
    with tempfile.TemporaryDirectory() as tmp:
        base = _baseline(Path(tmp) / "baseline")
        root = Path(tmp) / "store"
        made = _tables(Store(root), tables)
        served = Served(root)
        try:
            lat, acked, errors, _ = asyncio.run(_load(served, made, {}, seconds))
        finally:
            served.stop()
        # the same tables go on under a new server, killed -9 half way through
        again = Served(root)
        try:
            _, acked2, _, _ = asyncio.run(_load(again, made, acked, seconds / 2, seconds / 4))
        finally:
            again.kill()
        lost = _lost(root, acked2)
    moves = len(lat)
    rate = moves / seconds  # moves are sent only within the window
    p50, p99 = statistics.median(lat), percentile(lat, 0.99)
    b50, b99 = statistics.median(base), percentile(base, 0.99)
    print(
        f"serve: {tables} tables at {RATE:g} move/s for {seconds:g} s through HTTP on loopback "
        f"({moves:,} moves, {len(errors)} refused)"
    )
    print(f"  {rate:8,.1f} moves/s   p50 {p50:6.2f} ms   p99 {p99:6.2f} ms  (request to on disk)")
    print(f"  in-process baseline (fold + fsync): p50 {b50:6.2f} ms   p99 {b99:6.2f} ms")
    print(f"  ratio p50 {p50 / b50:5.1f}x   p99 {p99 / b99:5.1f}x")
    told = sum(seq - acked.get(gid, 0) for gid, seq in acked2.items())
    print(f"  kill -9 mid-run: {told:,} moves acknowledged before it, {lost} of them lost")
    for line in errors[:3]:
        print(f"  refused: {line}")
    return [
        Figure("serve", f"{tables} tables: moves/s", rate, tables * RATE * 0.95, "at_least"),
        Figure("serve", f"{tables} tables: p50 ms (request to on disk)", p50),
        Figure("serve", f"{tables} tables: p99 ms (request to on disk)", p99, 50, "at_most"),
        Figure("serve", "p99 vs in-process record (x)", p99 / b99),
        Figure("serve", "moves lost after kill -9", lost, 0, "at_most"),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.serve_bench", description=__doc__)
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    args = parser.parse_args()
    for figure in run(args.tables, args.seconds):
        print(figure.line())
