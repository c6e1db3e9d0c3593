"""Ohanami notation: ``pick bob 37 row=2`` and ``pick bob 5 discard``. See docs/notation.md."""

from __future__ import annotations

from collections.abc import Sequence

from gametape.engine.moves import number, seat_named, split_words
from gametape.engine.ruleset import NotationError
from gametape.events.base import Event
from gametape.games.ohanami.events import OhanamiDeal, OhanamiPick
from gametape.games.ohanami.rules import SEASONS, OhanamiState, pass_direction
from gametape.messages import Many, Message, Param, many, say, seat_of, term

USAGE = say(
    "ohanami.usage",
    "expected `pick PLAYER CARD row=N` or `pick PLAYER CARD discard` (short: `b 37 2`, `b 5 x`)",
)


def parse_move(state: OhanamiState, text: str, seat: int | None) -> Event:
    words = split_words(text.lower())
    if words and words[0] == "pick":
        words = words[1:]
    if len(words) != 3:
        raise NotationError(
            say("ohanami.cannot-read", "cannot read {text!r}; {usage}", text=text, usage=USAGE)
        )
    player = seat_named(state.setup.players, words[0], seat)
    card = number(words[1])
    if card is None:
        raise NotationError(
            say(
                "ohanami.not-a-card-number",
                "{word!r} is not a card number; {usage}",
                word=words[1],
                usage=USAGE,
            )
        )
    where = words[2]
    if where in ("discard", "x", "d"):
        return OhanamiPick(player=player, card=card)
    key, sep, value = where.partition("=")
    if not sep:
        key, value = "row", where[1:] if where.startswith("r") else where
    row = number(value)
    if key != "row" or row is None:
        raise NotationError(
            say(
                "ohanami.not-a-row",
                "{where!r} is not row=1, row=2, row=3 (or 1, r1) or discard (x)",
                where=where,
            )
        )
    return OhanamiPick(player=player, card=card, row=row)


def pick_said(event: Event) -> str:
    """A pick as its own picker's page writes it, without the picker's name."""
    assert isinstance(event, OhanamiPick)
    return f"pick {event.card} " + ("discard" if event.row is None else f"row={event.row}")


def notation(state: OhanamiState, event: Event) -> str:
    if isinstance(event, OhanamiDeal):
        return f"deal {SEASONS[event.round - 1]}"
    if not isinstance(event, OhanamiPick):
        raise NotationError(
            say("ohanami.not-a-move", "not an Ohanami move: {event}", event=repr(event))
        )
    name = state.setup.players[event.player].lower()
    where = "discard" if event.row is None else f"row={event.row}"
    return f"pick {name} {event.card} {where}"


def describe(
    before: OhanamiState, event: Event, after: OhanamiState, seat: int | None = None
) -> Message:
    """What changed, as everyone sees it (a pick is secret until its turn resolves)."""
    names = before.setup.players
    if isinstance(event, OhanamiDeal):
        dealt = len(after.hands[0]) if after.in_round else 0
        cards = sum(len(h) for h in after.hands) + len(after.deck)
        season = term("ohanami.season", SEASONS[event.round - 1])
        if event.deck is None:
            return say(
                "ohanami.dealt-at-table",
                "{season} begins: {cards} cards shuffled at the table, {dealt} dealt to each "
                "player",
                season=season,
                cards=cards,
                dealt=dealt,
            )
        return say(
            "ohanami.dealt",
            "{season} begins: {cards} cards shuffled, {dealt} dealt to each player",
            season=season,
            cards=cards,
            dealt=dealt,
        )
    assert isinstance(event, OhanamiPick)
    turn = before.turns + 1
    if after.turns == before.turns and after.outcome is None:
        return say(
            "ohanami.picked-in-secret",
            "{player} picked a card in secret (turn {turn})",
            player=seat_of(names, event.player),
            turn=turn,
        )
    picks = [p for p in before.pending if p is not None] + [event]
    parts: list[Message] = []
    for pick in sorted(picks, key=lambda p: p.player):
        who = seat_of(names, pick.player)
        if pick.row is None:
            parts.append(
                say("ohanami.discarded", "{player} discarded {card}", player=who, card=pick.card)
            )
            continue
        length = len(after.rows[pick.player][pick.row - 1])
        placed: dict[str, Param] = {"player": who, "card": pick.card, "row": pick.row}
        parts.append(
            say("ohanami.placed-one", "{player} placed {card} in row {row} (1 card)", **placed)
            if length == 1
            else say(
                "ohanami.placed",
                "{player} placed {card} in row {row} ({length} cards)",
                length=length,
                **placed,
            )
        )
    if any(after.hands):
        left = pass_direction(before.round) > 0
        drew = len(after.deck) < len(before.deck)
        parts.append(
            say("ohanami.passed-left", "passed left")
            if left
            else say("ohanami.passed-right", "passed right")
        )
        parts.append(
            say("ohanami.drew", "drew") if drew else say("ohanami.no-draw", "no draw (deck short)")
        )
    else:
        parts.append(
            say(
                "ohanami.season-scored",
                "{season} scored: {points}",
                season=term("ohanami.season", SEASONS[before.round - 1]),
                points=_points(names, after.scores[-1]),
            )
        )
    text = say("ohanami.turn", "turn {turn}: {parts}", turn=turn, parts=many(parts, "; "))
    if after.outcome:
        totals = _points(names, after.totals())
        return say("ohanami.game-over", "{what} — game over: {totals}", what=text, totals=totals)
    return text


def _points(names: Sequence[str], points: Sequence[int]) -> Many:
    """Each player's points: ``ann 12, ben 9``."""
    return many(
        say("ohanami.points", "{player} {points}", player=seat_of(names, s), points=p)
        for s, p in enumerate(points)
    )


# The game's own words that its code names only as data, so that its catalogues list them
# (gametape.catalogues reads these calls): the seasons, the outcomes, the kinds of event a
# replay jumps between and the columns of its reports.
GLOSSARY = (
    term("ohanami.season", "spring"),
    term("ohanami.season", "summer"),
    term("ohanami.season", "autumn"),
    term("ohanami.outcome", "win"),
    term("ohanami.outcome", "shared"),
    term("ohanami.outcome", "terminated"),
    term("ohanami.kind", "deal"),
    term("ohanami.kind", "pick"),
    term("ohanami.kind", "turn"),
    term("ohanami.kind", "round end"),
    term("ohanami.column", "discards"),
    term("ohanami.column", "season"),
    term("ohanami.column", "cards placed"),
    term("ohanami.column", "points spring"),
    term("ohanami.column", "points summer"),
    term("ohanami.column", "points autumn"),
)
