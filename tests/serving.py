"""A real `gametape serve` on loopback for the server's tests and benchmark: the console
script a user runs, in its own process, with links read from what it prints (--json)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

GAMETAPE = str(Path(sys.executable).with_name("gametape"))


class Served:
    """``gametape --store STORE serve --port 0 --json ARGS`` until ``stop``/``kill``."""

    def __init__(self, store: Path | str, *args: str, env: dict[str, str] | None = None) -> None:
        self.store = store
        command = [GAMETAPE, "--store", str(store), "serve", "--port", "0", "--json", *args]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "COLUMNS": "100", **(env or {})},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.errors: list[str] = []  # what it says on stderr, read as it comes (a full pipe
        # would block the server)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()
        first = self.next_line(timeout=30)
        self.url: str = json.loads(first)["url"]
        self.client = httpx.Client(base_url=self.url, follow_redirects=False, timeout=10)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")

    def _read_errors(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors.append(line)

    def next_line(self, timeout: float = 10) -> str:
        line = self.lines.get(timeout=timeout)
        if not line:
            self.process.wait()
            raise RuntimeError(f"the server stopped: {''.join(self.errors)}")
        return line

    def announced(self, timeout: float = 10) -> dict[str, Any]:
        """The next game whose links the server printed: {game, ruleset, links}."""
        return json.loads(self.next_line(timeout))  # type: ignore[no-any-return]

    def path(self, link: str) -> str:
        """A link's path (the same on a server restarted on another port)."""
        return urlsplit(link).path

    @contextlib.contextmanager
    def unreachable(self) -> Iterator[None]:
        """The server answers nothing while inside (its process stopped, SIGSTOP): a network
        that delivers nothing, for a page whose own offline emulation a service worker's
        requests pass through. What was sent meanwhile is answered once it goes on."""
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.process.send_signal(signal.SIGCONT)

    def stop(self) -> str:
        """Ctrl-C, as a person stops it; what it printed on stderr."""
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        time.sleep(0.1)  # the reader thread's last lines
        return "".join(self.errors)

    def kill(self) -> None:
        """kill -9: nothing is flushed, nothing is said."""
        self.client.close()
        self.process.kill()
        self.process.wait()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        said = self.stop()
        assert "Traceback" not in said, said[-3000:]  # no request ever failed unseen


def start_game(
    server: Served, ruleset: str, players: str, table: bool = False, options: str = ""
) -> dict[str, Any]:
    """Start a game from the front page's form (``options`` as typed in it:
    ``variant=Rainbow (3 Suits)``); the links the server printed for it."""
    form = {"ruleset": ruleset, "players": players}
    if options:
        form["options"] = options
    if table:
        form["table"] = "1"
    answer = server.client.post("/new", data=form)
    assert answer.status_code == 303, answer.text[:2000]
    shown = server.client.get(answer.headers["location"])  # the host's links page
    assert shown.status_code == 200, shown.text[:2000]
    return server.announced()
