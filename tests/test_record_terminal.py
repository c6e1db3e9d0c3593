"""`gametape record` as a person uses it, in a real terminal of 80×24 (tmux) (#49).

For each game: `?` lists the legal moves on one screen (many moves of a kind by their first
words, as a phone groups its buttons), Tab completes a word and puts a space after it, and no
line of the recorder's own text is broken in the middle of a word.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from gametape.cli.recorder import HELP
from tests.serving import GAMETAPE

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="no tmux here: install Debian's tmux (.ci/run does)"
)

GAMES = ["hanabi", "hanamikoji", "hanamikoji-classic", "ohanami", "ohanami-classic"]
PLAYERS = {"hanamikoji": "ann,ben", "hanamikoji-classic": "ann,ben"}
WAIT = 60  # s: generous, a busy machine included


class Terminal:
    """A tmux session of 80×24 running one command."""

    def __init__(self, command: list[str]) -> None:
        self.name = f"gt-{uuid.uuid4().hex[:8]}"
        shell = " ".join(f"'{w}'" for w in command)
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", self.name, "-x", "80", "-y", "24", shell],
            check=True,
        )

    def screen(self) -> str:
        done = subprocess.run(
            ["tmux", "capture-pane", "-p", "-N", "-t", self.name], capture_output=True, text=True
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, test) -> str:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            shown = self.screen()
            if test(shown):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"the terminal never showed it:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def _prompts(screen: str) -> list[int]:
    return [i for i, line in enumerate(screen.splitlines()) if "› " in line or line.endswith("›")]


@pytest.mark.parametrize("name", GAMES)
def test_record_at_80_by_24_lists_completes_and_wraps_between_words(tmp_path: Path, name):
    store = tmp_path / "store"
    made = subprocess.run(
        [GAMETAPE, "--store", str(store), "new", name, "-p", PLAYERS.get(name, "ann,ben,cat"),
         "--seed", "4"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    gid = made.stdout.split()[0]
    term = Terminal([GAMETAPE, "--store", str(store), "record", gid])
    try:
        term.wait_for(lambda s: len(_prompts(s)) >= 1)
        term.keys("?", "Enter")
        shown = term.wait_for(lambda s: len(_prompts(s)) >= 2 and "legal move" in s)
        lines = shown.splitlines()
        asked = next(i for i, line in enumerate(lines) if line.rstrip().endswith("› ?"))
        # the whole answer, from the `?` to the next prompt, is on the screen
        assert asked >= 0 and any("› " in line or line.endswith("›") for line in lines[asked + 1 :])
        # the recorder's own words are never cut in two at the screen's edge
        words = " ".join(line.strip() for line in lines[asked:]).split()
        for word in HELP.text.split():
            assert word in words, (word, shown)
        # Tab completes the first word of a move and puts a space after it
        first = next(line for line in lines[asked + 1 :] if line.startswith("  ")).split()[0]
        term.keys(first[:2], "Tab")
        term.wait_for(lambda s: s.rstrip().endswith(f"› {first}"))
        term.keys("X")  # typed after the completion: a space stands between
        term.wait_for(lambda s: s.rstrip().endswith(f"› {first} X"))
    finally:
        term.close()
