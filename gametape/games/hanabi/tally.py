"""Hanabi's index facts in one pass (``Hanabi.index_many``): as the fast path applies a
game's moves (gametape.games.hanabi.quick), a Tally reads its arrays and writes down what
``Hanabi.notation``, ``event_facts`` and ``learned_facts`` say of each move, as columns.

Those per-event definitions are the oracle: tests/test_index_bulk.py holds the two equal on
every event of games of every variant mechanism. Compiled by mypyc with the fast path.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from gametape.games.hanabi.deck import Deck, rank_mark
from gametape.games.hanabi.events import HanabiClue
from gametape.games.hanabi.knowledge import KNOWLEDGE_LEVELS
from gametape.games.hanabi.notation import canonical
from gametape.games.hanabi.state import CLUED, RANKS, HanabiState

# constants of this module's own (mypyc reads a Final one without a lookup)
KNOWN: Final = KNOWLEDGE_LEVELS[0]
PLAYABLE: Final = KNOWLEDGE_LEVELS[1]
TRASH: Final = KNOWLEDGE_LEVELS[2]
TOUCHED: Final = KNOWLEDGE_LEVELS[3]
BLIND: Final = KNOWLEDGE_LEVELS[4]


@cache
def _words(deck: Deck) -> tuple[list[str], list[str], list[str], list[str], list[str]]:
    """By face index (suit * 5 + rank - 1): its name in the read model and in notation, and
    its suit's name; and each colour and rank as a clue names it."""
    suits, letters = canonical(deck)
    names, written, suit_of = [], [], []
    for s in range(len(deck.suits)):
        for r in range(1, RANKS + 1):
            names.append(f"{letters[s]}{rank_mark(r)}")
            written.append(f"{deck.letters[s]}{rank_mark(r)}")
            suit_of.append(suits[s])
    colours = [deck.clue_word(c, None) for c in range(len(deck.colours))]
    ranks = [deck.clue_word(None, r) if r in deck.ranks else "" for r in range(1, RANKS + 1)]
    return names, written, suit_of, colours, ranks


_RATIOS: dict[int, float] = {}


def _ratio(gotten: int, lost: int) -> float:
    """``knowledge.efficiency``'s rounding, remembered (``round`` to 4 places is slow, and a
    game has few different ratios)."""
    key = gotten << 20 | lost
    ratio = _RATIOS.get(key)
    if ratio is None:
        ratio = _RATIOS[key] = round(gotten / lost, 4)
    return ratio


class Tally:
    """The notation and the facts of each move the fast path takes, as it takes it: ``clue``
    or ``card`` before the move changes anything, ``after`` once it has."""

    def __init__(self, state: HanabiState) -> None:
        deck = state.deck
        self.players: tuple[str, ...] = state.setup.players
        self.deck_size = len(state.faces)
        self.unit = deck.unit
        self.all_faces = deck.all_faces
        self.copies: tuple[int, ...] = deck.copies
        self.reversed: tuple[bool, ...] = deck.reversed
        self.names, self.written, self.suit_of, self.colours, self.ranks = _words(deck)
        self.was_strikes = state.strikes
        self.was_max = state.max_score
        self.kind = 0  # the move under way: 0 a clue, 1 a play, 2 a discard
        # the fast path's own arrays, read as it changes them (``watch``)
        self.hands: list[list[int]] = []
        self.knowledge: list[int] = []
        self.fireworks: list[int] = []
        self.lost: list[int] = []
        self.caps: list[int] = []
        self.codes: list[int] = []
        self.played = self.playable = self.trash = 0
        self.gone = 0  # the faces with no copy left unseen (lost, or the one played)
        self.every = (1 << len(deck.copies)) - 1  # every face bit
        self.heights = self.caps_total = 0  # to tell when a firework or a cap changed
        self.moved = 0  # the face of the card played or discarded
        # what is written down: each move's notation, and a list per column (``columns``)
        self.notation: list[str] = []
        self.clues: list[object] = []
        self.strikes: list[object] = []
        self.score: list[object] = []
        self.deck: list[object] = []
        self.card: list[object] = []
        self.card_suit: list[object] = []
        self.card_rank: list[object] = []
        self.success: list[object] = []
        self.target: list[object] = []
        self.clue_kind: list[object] = []
        self.clue_word: list[object] = []
        self.pace: list[object] = []
        self.efficiency: list[object] = []
        self.max_score: list[object] = []
        self.level: list[object] = []
        self.critical: list[object] = []
        self.touched: list[object] = []

    def columns(self) -> dict[str, list[object]]:
        """What was written down, by ``Hanabi.event_columns``."""
        return {
            "clues": self.clues,
            "strikes": self.strikes,
            "score": self.score,
            "deck": self.deck,
            "card": self.card,
            "card_suit": self.card_suit,
            "card_rank": self.card_rank,
            "success": self.success,
            "target": self.target,
            "clue_kind": self.clue_kind,
            "clue": self.clue_word,
            "pace": self.pace,
            "efficiency": self.efficiency,
            "max_score": self.max_score,
            "knowledge": self.level,
            "critical": self.critical,
            "touched": self.touched,
        }

    def watch(
        self,
        hands: list[list[int]],
        knowledge: list[int],
        fireworks: list[int],
        lost: list[int],
        caps: list[int],
        codes: list[int],
    ) -> None:
        """Read these arrays of the fast path's from now on (``codes``: each card's face)."""
        self.hands, self.knowledge, self.fireworks = hands, knowledge, fireworks
        self.lost, self.caps, self.codes = lost, caps, codes
        self._fireworks_changed()
        for i in range(len(self.copies)):
            self._recount(i)

    def _recount(self, i: int) -> None:
        """Whether a copy of face ``i`` is still unseen (``knowledge.seen_by``)."""
        if self.copies[i] - self.lost[i] - (self.played >> i & 1) > 0:
            self.gone &= ~(1 << i)
        else:
            self.gone |= 1 << i

    def _fireworks_changed(self) -> None:
        """The faces played, those that would play now and those that never will, one bit
        each: ``knowledge._table`` over the fast path's arrays (calling it, interpreted and
        keyed by tuples, doubled the tally's cost)."""
        played = playable = trash = heights = caps_total = 0
        for suit, height in enumerate(self.fireworks):
            heights += height
            caps_total += self.caps[suit]
            down = bool(self.reversed) and self.reversed[suit]
            for rank in range(1, RANKS + 1):
                bit, pos = 1 << (suit * RANKS + rank - 1), RANKS + 1 - rank if down else rank
                if pos <= height:
                    played |= bit
                if pos == height + 1:
                    playable |= bit
                if pos <= height or pos > self.caps[suit]:
                    trash |= bit
        self.played, self.playable, self.trash = played, playable, trash
        self.heights, self.caps_total = heights, caps_total

    def clue(self, event: HanabiClue, held: list[int], hit: list[int]) -> None:
        """A clue to ``held``, the receiver's hand (oldest first), touching ``hit``."""
        self.kind = 0
        colour, rank = event.suit, event.rank
        value = self.colours[colour] if colour is not None else self.ranks[(rank or 1) - 1]
        target = self.players[event.target]
        written = f'"{target}"' if " " in target else target
        text = f"clue {written} {value.replace(' ', '')}"
        if event.touched is not None:
            size = len(held)
            slots = sorted(size - held.index(o) for o in event.touched)
            text += " " + ",".join(map(str, slots))
        self.notation.append(text)
        self.card.append(None)
        self.card_suit.append(None)
        self.card_rank.append(None)
        self.level.append(None)
        self.target.append(target)
        self.clue_kind.append("colour" if colour is not None else "rank")
        self.clue_word.append(value)
        names, codes = self.names, self.codes
        self.touched.append(" ".join([names[codes[o]] for o in reversed(held) if o in hit]))

    def card_moved(self, playing: bool, card: int, slot: int, face_written: bool) -> None:
        """A play (``playing``) or a discard of ``card`` from ``slot`` (1: the newest);
        ``face_written``: the event names the card's face."""
        self.kind = 1 if playing else 2
        code = self.moved = self.codes[card]
        text = f"{'play' if playing else 'discard'} {slot}"
        self.notation.append(f"{text} {self.written[code]}" if face_written else text)
        self.card.append(self.names[code])
        self.card_suit.append(self.suit_of[code])
        self.card_rank.append(code % RANKS + 1)
        self.level.append(self._level(self.knowledge[card]))
        self.target.append(None)
        self.clue_kind.append(None)
        self.clue_word.append(None)
        self.touched.append(None)

    def _level(self, packed: int) -> str:
        """``knowledge.level_of``: what the holder knows now of a card of clue knowledge
        ``packed``."""
        can_be = packed & self.every & ~self.gone
        if can_be and not can_be & (can_be - 1):
            return KNOWN
        if can_be and not can_be & ~self.playable:
            return PLAYABLE
        if can_be and not can_be & ~self.trash:
            return TRASH
        return TOUCHED if packed & CLUED else BLIND

    def after(
        self,
        clues: int,
        strikes: int,
        next_card: int,
        final: int | None,
        max_score: int,
        given: int,
        wasted: int,
    ) -> None:
        """The state the move left (``Hanabi.event_facts``' after)."""
        kind = self.kind
        score = caps_total = 0
        for suit, height in enumerate(self.fireworks):
            score += height
            caps_total += self.caps[suit]
        if score != self.heights or caps_total != self.caps_total:
            self._fireworks_changed()
        if kind:
            self._recount(self.moved)
        left = self.deck_size - next_card
        self.clues.append(clues // self.unit)
        self.strikes.append(strikes)
        self.score.append(score)
        self.deck.append(left)
        self.pace.append(None if final is not None else score + left + len(self.hands) - max_score)
        lost = given + strikes + wasted
        self.efficiency.append(_ratio(self._gotten(score, max_score), lost) if lost else None)
        self.max_score.append(max_score)
        self.success.append(strikes == self.was_strikes if kind == 1 else None)
        self.critical.append(max_score < self.was_max if kind == 2 else None)
        self.was_strikes, self.was_max = strikes, max_score

    def _gotten(self, score: int, max_score: int) -> int:
        """``knowledge.gotten``: cards played, and cards touched that may still be needed."""
        wanted, knowledge, count = self.all_faces & ~self.trash, self.knowledge, score
        for hand in self.hands:
            for order in hand:
                packed = knowledge[order]
                if packed & CLUED and packed & wanted:
                    count += 1
        return min(count, max_score)
