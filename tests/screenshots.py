"""Screenshots of every game's seat, host and spectator pages at a phone's width (390 px),
and of each game's seat page in Persian and in Hungarian (#52), for docs/images:
`python -m tests.screenshots docs/images`.

A real `gametape serve` on a temporary store; each game is a few moves in (bots' moves,
recorded through the seats' and the host's links as phones send them), so the boards show
hands, a played card and the last moves."""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from gametape.engine.game import Game, notation
from gametape.engine.registry import get_ruleset, names
from gametape.events import read_log
from tests.serving import Served, start_game

PHONE = {"width": 390, "height": 844}
MOVES = 6


def _play_some(served: Served, said: dict, moves: int) -> None:
    """A few moves through the links: each by the seat it belongs to."""
    rng = random.Random(1)
    log = Path(served.store) / f"{said['game']}.jsonl"
    for _ in range(moves):
        game = Game.from_events(read_log(log).events)
        if game.is_over:
            return
        rules = game.ruleset
        for seat in game.to_act():
            bot = rules.bots[rules.default_bot]()
            move = bot.choose(game.view(seat), game.legal_moves(seat), rng)
            link = said["links"][game.players[seat]]
            served.client.post(
                served.path(link) + "/move",
                data={"seq": str(len(game.events)), "text": notation(rules, game.state, move)},
            )
            game = Game.from_events(read_log(log).events)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    with (
        tempfile.TemporaryDirectory() as tmp,
        Served(Path(tmp) / "store") as served,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        for ruleset in sorted(names()):
            players = "ann, ben" if get_ruleset(ruleset).max_players == 2 else "ann, ben, cat"
            said = start_game(served, ruleset, players)
            _play_some(served, said, MOVES)
            shots = [(who, "en") for who in ("ann", "host", "spectator")]
            for who, lang in [*shots, ("ann", "fa"), ("ann", "hu")]:
                context = browser.new_context(viewport=PHONE, is_mobile=True)
                page = context.new_page()
                page.goto(said["links"][who] + ("" if lang == "en" else f"?lang={lang}"))
                name = f"serve-{ruleset}-{who}" + ("" if lang == "en" else f"-{lang}")
                page.screenshot(path=str(out / f"{name}.png"), full_page=True)
                context.close()
                print(out / f"{name}.png")
        browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"))
