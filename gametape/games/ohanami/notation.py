"""Ohanami notation: ``pick bob 37 row=2`` and ``pick bob 5 discard``. See docs/notation.md."""

from __future__ import annotations

from gametape.engine.moves import number, seat_named, split_words
from gametape.engine.ruleset import NotationError
from gametape.events.base import Event
from gametape.games.ohanami.events import OhanamiDeal, OhanamiPick
from gametape.games.ohanami.rules import SEASONS, OhanamiState, pass_direction

USAGE = "expected `pick PLAYER CARD row=N` or `pick PLAYER CARD discard` (short: `b 37 2`, `b 5 x`)"


def parse_move(state: OhanamiState, text: str, seat: int | None) -> Event:
    words = split_words(text.lower())
    if words and words[0] == "pick":
        words = words[1:]
    if len(words) != 3:
        raise NotationError(f"cannot read {text!r}; {USAGE}")
    player = seat_named(state.setup.players, words[0], seat)
    card = number(words[1])
    if card is None:
        raise NotationError(f"{words[1]!r} is not a card number; {USAGE}")
    where = words[2]
    if where in ("discard", "x", "d"):
        return OhanamiPick(player=player, card=card)
    key, sep, value = where.partition("=")
    if not sep:
        key, value = "row", where[1:] if where.startswith("r") else where
    row = number(value)
    if key != "row" or row is None:
        raise NotationError(f"{where!r} is not row=1, row=2, row=3 (or 1, r1) or discard (x)")
    return OhanamiPick(player=player, card=card, row=row)


def notation(state: OhanamiState, event: Event) -> str:
    if isinstance(event, OhanamiDeal):
        return f"deal {SEASONS[event.round - 1]}"
    if not isinstance(event, OhanamiPick):
        raise NotationError(f"not an Ohanami move: {event!r}")
    name = state.setup.players[event.player].lower()
    where = "discard" if event.row is None else f"row={event.row}"
    return f"pick {name} {event.card} {where}"


def describe(
    before: OhanamiState, event: Event, after: OhanamiState, seat: int | None = None
) -> str:
    """What changed, as everyone sees it (a pick is secret until its turn resolves)."""
    names = before.setup.players
    if isinstance(event, OhanamiDeal):
        dealt = len(after.hands[0]) if after.in_round else 0
        cards = sum(len(h) for h in after.hands) + len(after.deck)
        how = "shuffled at the table" if event.deck is None else "shuffled"
        return (
            f"{SEASONS[event.round - 1]} begins: {cards} cards {how}, {dealt} dealt to each player"
        )
    assert isinstance(event, OhanamiPick)
    if after.turns == before.turns and after.outcome is None:
        return f"{names[event.player]} picked a card in secret (turn {before.turns + 1})"
    picks = [p for p in before.pending if p is not None] + [event]
    parts = []
    for pick in sorted(picks, key=lambda p: p.player):
        who = names[pick.player]
        if pick.row is None:
            parts.append(f"{who} discarded {pick.card}")
        else:
            length = len(after.rows[pick.player][pick.row - 1])
            plural = "card" if length == 1 else "cards"
            parts.append(f"{who} placed {pick.card} in row {pick.row} ({length} {plural})")
    text = f"turn {before.turns + 1}: " + "; ".join(parts)
    if any(after.hands):
        direction = "left" if pass_direction(before.round) > 0 else "right"
        drew = len(after.deck) < len(before.deck)
        text += f"; passed {direction}" + ("; drew" if drew else "; no draw (deck short)")
    else:
        season = SEASONS[before.round - 1]
        points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(after.scores[-1]))
        text += f"; {season} scored: {points}"
        if after.outcome:
            totals = after.totals()
            text += " — game over: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(totals))
    return text
