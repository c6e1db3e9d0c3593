"""Builders for tests: stacked Hanabi decks and games written to a temporary store."""

from __future__ import annotations

from collections import Counter

from gametape.engine.game import Game
from gametape.games.hanabi.events import (
    DEFAULT_COPIES,
    DEFAULT_SUITS,
    Face,
    HanabiOptions,
    HanabiSetup,
)

LETTERS = "rygbw"


def face(text: str) -> Face:
    """``"r3"`` → Face(0, 3)."""
    return Face(LETTERS.index(text[0]), int(text[1:]))


def stacked_deck(top: str, copies: tuple[int, ...] = DEFAULT_COPIES,
                 n_suits: int = 5) -> tuple[Face, ...]:
    """A full deck whose first cards are ``top`` (space-separated, e.g. ``"r1 r2 y5"``); the
    remaining cards follow in suit/rank order."""
    first = [face(t) for t in top.split()]
    left = Counter({Face(s, r): n for s in range(n_suits)
                    for r, n in enumerate(copies, start=1)})
    for f in first:
        left[f] -= 1
        assert left[f] >= 0, f"too many {f}"
    rest = [f for f in sorted(left, key=lambda f: (f.suit, f.rank)) for _ in range(left[f])]
    return tuple(first + rest)


def hanabi(top: str = "", players: tuple[str, ...] = ("alice", "bob", "cara"),
           **options: object) -> Game:
    """A new Hanabi game on a stacked deck. Hands are dealt in blocks from ``top``."""
    opts = HanabiOptions(**options)  # type: ignore[arg-type]
    deck = stacked_deck(top, opts.copies, len(opts.suits))
    return Game.new(HanabiSetup(game="test", players=players, options=opts, deck=deck))


def moves(game: Game, *texts: str) -> Game:
    """Play moves in notation, each by whoever is to act."""
    for text in texts:
        game.push(game.parse(text))
    return game


__all__ = ["DEFAULT_SUITS", "face", "hanabi", "moves", "stacked_deck"]


def hanamikoji(decks: tuple[tuple[int, ...], ...] | None = None, first: int = 0,
               players: tuple[str, ...] = ("alice", "bob")) -> Game:
    """A Hanamikoji game; by default both decks are 1..14 in order, so round 1's hands are
    1-6, round 2 adds 7-10 and round 3 adds 11-14."""
    from gametape.games.hanamikoji.events import HanamikojiSetup

    decks = decks or (tuple(range(1, 15)),) * 2
    return Game.new(HanamikojiSetup(game="test", players=players, decks=decks, first=first))


def assign(game: Game, seat: int, perform: int, hidden: int, sacrifice: int, vote: int) -> Game:
    from gametape.games.hanamikoji.events import HanamikojiAssign

    game.push(HanamikojiAssign(player=seat, perform=perform, hidden=hidden,
                               sacrifice=sacrifice, vote=vote))
    return game


def ohanami(players: tuple[str, ...] = ("alice", "bob"), deck: tuple[int, ...] | None = None
            ) -> Game:
    """An Ohanami game with round 1 dealt from ``deck`` (default: 4..72 in order)."""
    from gametape.games.ohanami.events import OhanamiDeal, OhanamiSetup

    game = Game.new(OhanamiSetup(game="test", players=players))
    game.push(OhanamiDeal(round=1, deck=deck or tuple(range(4, 73))))
    return game


def pick(game: Game, seat: int, card: int, row: int | None) -> Game:
    from gametape.games.ohanami.events import OhanamiPick

    game.push(OhanamiPick(player=seat, card=card, row=row))
    return game


def states(game: Game):
    """Every state of a game, from the start, folded through its ruleset."""
    rules = game.ruleset
    state = rules.start(game.setup)
    yield state
    for event in game.events[1:]:
        state = rules.apply(state, event)
        yield state


def fold(events):
    """The state after ``events``, folded through the game their setup names."""
    from gametape.engine.fold import fold as engine_fold
    from gametape.engine.registry import ruleset_for

    return engine_fold(ruleset_for(events[0]), events)
