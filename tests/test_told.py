"""What a seat was told (gametape.engine.told): the events as redacted for it, the moves of a
simultaneous step once the step ends, and a passed hand's entry once the seat holds it."""

from __future__ import annotations

import msgspec

from gametape.engine.fold import Fold
from gametape.engine.game import Game
from gametape.engine.registry import get_ruleset
from gametape.engine.told import told

ANN, BEN, CAT = 0, 1, 2


def _table(name: str, players: tuple[str, ...]) -> Game:
    rules = get_ruleset(name)
    return Game(Fold(rules, rules.table_setup(players, {})))


def _shown(items: list[bytes], k: int) -> list:
    return msgspec.json.decode(items[k])


def test_a_simultaneous_step_s_moves_are_told_when_the_step_ends():
    game = _table("ohanami-classic", ("ann", "ben", "cat"))
    game.deal(None)
    first = len(game.events)
    game.push(game.parse("choose 1 2", ANN))
    game.push(game.parse("choose 11 12", BEN))
    game.push(game.parse("choose 21 22", CAT))
    items = told(game.fold, BEN)
    # each item: the event as told, what it showed beyond that (a Hanabi clue's touch), then
    # the earlier events it shows
    assert _shown(items, first) == [None, None]  # ann's choice: only that she chose
    assert _shown(items, first + 1)[0]["cards"] == [11, 12]  # his own
    ends = _shown(items, first + 2)  # cat's choice ends the step: every choice shows
    assert ends[0]["cards"] == [21, 22]
    assert [(i, e["cards"]) for i, e in ends[2:]] == [(first, [1, 2])]


def test_a_hand_entry_is_told_to_each_holder_as_the_hand_reaches_them():
    """Ruling O7b: ann's entered hand passes to ben at the first step's reveal and to cat at
    the second's; each is told the entry then, never before."""
    game = _table("ohanami-classic", ("ann", "ben", "cat"))
    game.deal(None)
    entry = len(game.events)
    game.push(game.parse("hand " + " ".join(map(str, range(1, 11))), ANN))
    reveals = []
    for choices in (("1 2", "11 12", "21 22"), ("23 24", "3 4", "13 14")):
        for seat, cards in enumerate(choices):
            game.push(game.parse(f"choose {cards}", seat))
        reveals.append(len(game.events) - 1)
        for seat in (ANN, BEN, CAT):  # each places or discards its two shown cards
            game.push(game.legal_moves(seat)[0])

    def told_entry(seat: int) -> list[int]:
        items = told(game.fold, seat)
        return [k for k in range(1, len(items)) for i, _ in _shown(items, k)[2:] if i == entry]

    assert _shown(told(game.fold, BEN), entry)[0]["cards"] == []  # that ann entered a hand
    assert told_entry(ANN) == []  # hers: told whole when she entered it
    assert told_entry(BEN) == [reveals[0]]
    assert told_entry(CAT) == [reveals[1]]
