"""Simulating games into a store: bots play complete games, written with batched fsyncs."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gametape.engine import simulate as sim
from gametape.engine.registry import get_ruleset
from gametape.errors import UsageError
from gametape.events.store import GameStore
from gametape.messages import many, say
from gametape.usecases.record import options_checked, players_wanted


@dataclass
class Simulated:
    ids: list[str] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


def simulate(
    store: GameStore,
    game: str,
    games: int,
    players: int | None = None,
    bot: str | None = None,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
    progress: Callable[[], None] | None = None,
) -> Simulated:
    """Write ``games`` complete games; game ``i`` is shuffled with ``seed + i``."""
    rules = get_ruleset(game)
    count = sim.default_count(rules) if players is None else players
    if not rules.min_players <= count <= rules.max_players:
        lo, hi = rules.min_players, rules.max_players
        raise UsageError(players_wanted(game, lo, hi, count))
    if games < 1:
        raise UsageError(say("core.games-at-least-one", "--games must be at least 1"))
    bot = bot or rules.default_bot
    if bot not in rules.bots:
        raise UsageError(say("core.no-bot", "no bot {bot} for {game}; bots: {bots}", bot=repr(bot),
                             game=game, bots=many(rules.bots)))  # fmt: skip
    names = sim.default_players(count)
    done = Simulated()
    with store.batch():
        for i in range(games):
            with options_checked():
                played = sim.play(
                    rules, names, bot, random.Random(seed + i), dict(options or {}), seed=seed + i
                )
            done.ids.append(store.create(played.setup, played.events[1:]))
            res = played.result()
            assert res is not None
            done.outcomes[res.outcome] += 1
            done.scores.append(max(res.scores))
            if progress:
                progress()
    return done
