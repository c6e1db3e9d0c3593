"""Builders for tests: stacked Hanabi decks and games written to a temporary store."""

from __future__ import annotations

from collections import Counter

from gametape.engine.game import Game
from gametape.games.hanabi.events import (
    DEFAULT_COPIES,
    DEFAULT_SUITS,
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiOptions,
    HanabiPlay,
    HanabiSetup,
)
from gametape.games.hanabi.notation import card_name, slot_of
from gametape.games.hanabi.rules import touched_by
from gametape.games.hanamikoji.events import HanamikojiAssign
from gametape.games.hanamikoji.rules import card_name as koji_card
from gametape.games.ohanami.events import OhanamiPick

LETTERS = "rygbw"


def face(text: str) -> Face:
    """``"r3"`` → Face(0, 3)."""
    return Face(LETTERS.index(text[0]), int(text[1:]))


def stacked_deck(
    top: str, copies: tuple[int, ...] = DEFAULT_COPIES, n_suits: int = 5
) -> tuple[Face, ...]:
    """A full deck whose first cards are ``top`` (space-separated, e.g. ``"r1 r2 y5"``); the
    remaining cards follow in suit/rank order."""
    first = [face(t) for t in top.split()]
    left = Counter({Face(s, r): n for s in range(n_suits) for r, n in enumerate(copies, start=1)})
    for f in first:
        left[f] -= 1
        assert left[f] >= 0, f"too many {f}"
    rest = [f for f in sorted(left, key=lambda f: (f.suit, f.rank)) for _ in range(left[f])]
    return tuple(first + rest)


def hanabi(
    top: str = "", players: tuple[str, ...] = ("alice", "bob", "cara"), **options: object
) -> Game:
    """A new Hanabi game on a stacked deck. Hands are dealt in blocks from ``top``."""
    opts = HanabiOptions(**options)  # type: ignore[arg-type]
    deck = stacked_deck(top, opts.copies, len(opts.suits))
    return Game.new(HanabiSetup(game="test", players=players, options=opts, deck=deck))


def variant_game(name: str, top: list[tuple[int, int]], players: int = 2) -> Game:
    """A game of the hanab.live variant ``name`` whose deck starts with ``top`` (suit, rank):
    the first hand's cards first (ann's), the rest of a dealt deck after them."""
    import random

    import msgspec

    from gametape.games.hanabi import RULESET

    names = ["ann", "ben", "cat", "dan", "eve", "fay"][:players]
    setup = RULESET.new_setup(names, random.Random(0), {"variant": name})
    rest = list(setup.deck)
    for suit, rank in top:
        rest.remove(Face(suit, rank))
    deck = tuple(Face(s, r) for s, r in top) + tuple(rest)
    return Game.new(msgspec.structs.replace(setup, deck=deck))


def moves(game: Game, *texts: str) -> Game:
    """Play moves in notation, each by whoever is to act."""
    for text in texts:
        game.push(game.parse(text))
    return game


__all__ = ["DEFAULT_SUITS", "face", "hanabi", "moves", "stacked_deck"]


def hanamikoji(
    decks: tuple[tuple[int, ...], ...] | None = None,
    first: int = 0,
    players: tuple[str, ...] = ("alice", "bob"),
) -> Game:
    """A Hanamikoji game; by default both decks are 1..14 in order, so round 1's hands are
    1-6, round 2 adds 7-10 and round 3 adds 11-14."""
    from gametape.games.hanamikoji.events import HanamikojiSetup

    decks = decks or (tuple(range(1, 15)),) * 2
    return Game.new(HanamikojiSetup(game="test", players=players, decks=decks, first=first))


def assign(game: Game, seat: int, perform: int, hidden: int, sacrifice: int, vote: int) -> Game:
    from gametape.games.hanamikoji.events import HanamikojiAssign

    game.push(
        HanamikojiAssign(
            player=seat, perform=perform, hidden=hidden, sacrifice=sacrifice, vote=vote
        )
    )
    return game


def ohanami(
    players: tuple[str, ...] = ("alice", "bob"), deck: tuple[int, ...] | None = None
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


# What a person at a real table types, in the short notation, for a game a bot played on a
# known deal (used by tests/test_table.py and bench/record_bench.py).


def hanabi_lines(game: Game) -> list[str]:
    """Short notation: `p2 r3`, `d1 y4`, `c ben r 13`; names shortened to a prefix."""
    lines = []
    states = game.fold.states
    suits = game.state.deck.letters  # type: ignore[attr-defined]
    for seq in range(1, len(game.events)):
        before, event = states[seq - 1], game.events[seq]
        if isinstance(event, HanabiPlay | HanabiDiscard):
            verb = "p" if isinstance(event, HanabiPlay) else "d"
            face = card_name(before.faces[event.card], suits)
            lines.append(f"{verb}{slot_of(before, event.player, event.card)} {face}")
        elif isinstance(event, HanabiClue):
            deck = before.deck
            value = deck.colour_letters[event.suit] if event.suit is not None else str(event.rank)
            touched = touched_by(before, event.target, event.suit, event.rank)  # a variant's too
            slots = "".join(sorted(str(slot_of(before, event.target, o)) for o in touched))
            lines.append(f"c {game.players[event.target][:2]} {value} {slots}")
    return lines


def ohanami_lines(game: Game) -> list[str]:
    """`b 37 2` (bob picks 37 for row 2), `a 5 x` (a discard)."""
    lines = []
    for event in game.events[1:]:
        if isinstance(event, OhanamiPick):
            where = "x" if event.row is None else str(event.row)
            lines.append(f"{game.players[event.player][0]} {event.card} {where}")
    return lines


def hanamikoji_lines(game: Game) -> list[str]:
    """`a r8 ? ? v7`: the table sees the performed and voted cards, and here the hidden one
    of every other round."""
    lines = []
    for i, event in enumerate(game.events[1:]):
        if isinstance(event, HanamikojiAssign):
            hidden = koji_card(event.hidden) if i % 2 else "?"  # type: ignore[arg-type]
            lines.append(
                f"{game.players[event.player][0]} {koji_card(event.perform)} "
                f"{hidden} ? {koji_card(event.vote)}"
            )
    return lines


def ohanami_classic_lines(game: Game) -> list[str]:
    """The published Ohanami as a table records it: each round's hands entered by their
    holders (`hand ann 3 8 …`), then the choices and placements in the short forms."""
    from gametape.games.ohanami_classic.events import ClassicOhanamiDeal
    from gametape.games.ohanami_classic.notation import short

    lines = []
    for seq, event in enumerate(game.events[1:], 1):
        if isinstance(event, ClassicOhanamiDeal):
            assert event.hands is not None
            lines += [
                f"hand {game.players[s]} " + " ".join(map(str, hand))
                for s, hand in enumerate(event.hands)
            ]
        else:
            lines.append(short(game.fold.states[seq - 1], event))
    return lines


TABLE_LINES = {
    "hanabi": hanabi_lines,
    "ohanami": ohanami_lines,
    "hanamikoji": hanamikoji_lines,
    "ohanami-classic": ohanami_classic_lines,
}
