"""The secrecy kit: checks that every answer a requester gets depends only on what it may know.

A plug-in author runs it on their own game (docs/writing-a-game.md)::

    from gametape.testing.secrecy import check_secrecy
    assert check_secrecy(MY_GAME, games=3) == []

It plays random games (dealt by the tool, or recorded at a table), and for each requester (every
seat and the onlooker: the host's and spectators' pages) makes other worlds that the requester
cannot tell from the real one: two chance outcomes swapped (cards of a deck, of a deal), or a
move the requester sees only redacted replaced by another that it would have been told of in the
same words (a recorder's note at a table, by another note). Where the requester was told the
same thing in both worlds (the same events as the framework accounts for them,
``engine.told``; and the same views too for a game that does not say what of its deal each seat
was shown, when a view that shows more would hide its own leak), it compares, byte for
byte, every answer the requester gets (the kinds a replay jumps by and the result too):
the view (``show --as SEAT --json``) and the board, each move's description and notation, its
legal moves and move forms, completions, the answer to move texts (legal, illegal and
adversarial ones: faces named, clues that may or may not touch), where a seat's hypothesis
(``branch --as``) starts, the server's page data and live page, and the HTML replay; and the
view after a move told the same in both worlds. Each difference is a ``Leak``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from gametape.engine.fold import Fold
from gametape.engine.forms import MoveForm
from gametape.engine.game import Game, describe, kinds, redact
from gametape.engine.ruleset import ONLOOKER, RandomBot, Ruleset
from gametape.engine.told import accounts_for_chance, told
from gametape.errors import GametapeError
from gametape.events.base import Event, Move, Setup, actor
from gametape.messages import render, text_of

Texts = Callable[[Game, int], Sequence[str]]
_encode = msgspec.json.encode


@dataclass(frozen=True)
class Leak:
    """One answer that differs between two worlds its requester cannot tell apart."""

    game: str
    requester: str
    seq: int
    what: str
    real: str
    other: str
    how: str  # what differs between the worlds

    def __str__(self) -> str:
        at = first_difference(self.real, self.other)
        start = max(0, at - 80)
        return (
            f"{self.game}: {self.requester} at seq {self.seq}, {self.what} differs across "
            f"{self.how}, from character {at}:\n  real:  …{self.real[start : at + 220]}"
            f"\n  other: …{self.other[start : at + 220]}"
        )


def first_difference(a: str, b: str) -> int:
    """Where two answers first differ (a page's first 300 characters are its head, the same
    in every world: the difference is shown from here)."""
    pairs = enumerate(zip(a, b, strict=False))
    return next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))


def check_secrecy(
    rules: Ruleset[Any],
    *,
    games: int = 2,
    table: bool = False,
    players: int | None = None,
    seed: int = 0,
    worlds: int = 6,
    positions: int = 6,
    texts: Texts | None = None,
    options: Mapping[str, str] | None = None,
) -> list[Leak]:
    """Every leak found in ``games`` random games of ``rules`` (dealt, or ``table``): for each
    requester, ``worlds`` other worlds and up to ``positions`` positions in each. ``texts``
    gives extra move texts to try as a seat (``texts(game, seat)``); ``options``, the game's
    options where not its defaults (``{"variant": "Duck (4 Suits)"}``)."""
    rng = random.Random(seed)
    found: list[Leak] = []
    for n in range(games):
        count = players or rng.randint(rules.min_players, rules.max_players)
        names = tuple(("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")[:count])
        real = play_random(rules, names, random.Random(rng.random()), table=table, options=options)
        label = f"{rules.name} #{n}{' at a table' if table else ''}"
        for requester in (*range(count), ONLOOKER):
            for other, how, replaced in _worlds(rules, real, requester, rng, worlds):
                found += _compare(
                    rules, real, other, requester, how, label, rng, positions, texts, replaced
                )
                if len(found) > 50:
                    return found
    return found


# --- playing ----------------------------------------------------------------------------


def play_random(
    rules: Ruleset[Any],
    names: Sequence[str],
    rng: random.Random,
    *,
    table: bool = False,
    options: Mapping[str, str] | None = None,
) -> list[Event]:
    """The events of a random game: legal moves at random (a table game's from its move
    forms, filled at random), chance drawn from ``rng``; it may stop before the end if no
    filling is found."""
    if table:
        setup = rules.table_setup(names, {**_defaults(rules), **(options or {})})
    else:
        setup = rules.new_setup(names, rng, {**_defaults(rules), **(options or {})})
    game = Game(Fold(rules, setup))
    game.deal(rng)
    for _ in range(400):
        if game.is_over:
            break
        move = _note(game, rng) if table and rng.random() < 0.2 else None
        move = move or _random_move(game, rng)
        if move is None:
            break
        game.push(move)
        game.deal(rng)
    return list(game.events)


def _defaults(rules: Ruleset[Any]) -> dict[str, Any]:
    return {o.name: o.default for o in rules.options}


def _random_move(game: Game, rng: random.Random) -> Event | None:
    seats = list(game.to_act())
    rng.shuffle(seats)
    for seat in seats:
        legal = game.legal_moves(seat)
        if legal:
            bot = game.ruleset.bots.get(game.ruleset.default_bot, RandomBot)()
            chosen = bot.choose(game.view(seat), legal, rng)
            try:
                game.fold.step(game.state, chosen, game.fold.frame)
                return chosen
            except GametapeError:
                pass  # a table game's move that needs what the table saw: fill its form
        filled = _filled(game, seat, rng)
        if filled is not None:
            return filled
    return None


def _filled(game: Game, seat: int, rng: random.Random, tries: int = 200) -> Event | None:
    """A legal move of ``seat`` from a random filling of its move forms (a table game)."""
    forms = [f for f in game.ruleset.move_forms(game.state, seat) if f.shown]
    named = _named(game)
    for attempt in range(tries if forms else 0):
        text = _fill(rng.choice(forms), rng, named if attempt % 2 == 0 else frozenset())
        try:
            event = game.parse(text, seat)
            game.fold.step(game.state, event, game.fold.frame)
        except GametapeError:
            continue
        if actor(event) == seat:
            return event
    return None


def _note(game: Game, rng: random.Random, tries: int = 40) -> Event | None:
    """A recorder's note at a table (a form that makes no seat's move: the faces seen in a
    hand), filled at random where the game offers one and the filling is legal."""
    forms = [
        f for s in range(len(game.fold.players)) for f in game.ruleset.move_forms(game.state, s)
    ]
    forms = [f for f in forms if not f.own]
    for _ in range(tries if forms else 0):
        try:
            event = game.parse(_fill(rng.choice(forms), rng), None)
            game.fold.step(game.state, event, game.fold.frame)
        except GametapeError:
            continue
        if actor(event) is None:
            return event
    return None


def _fill(form: MoveForm, rng: random.Random, avoid: frozenset[str] = frozenset()) -> str:
    """A random filling of ``form``; where a place takes many words (card numbers), every
    other try avoids the words earlier moves named, and repeats within the move: a table's
    cards are entered as they show, each once, and a game of unique cards recorded at random
    would otherwise contradict itself at once."""
    chosen: list[str] = []
    for words in form.words:
        pool: Sequence[str] = words
        if len(words) >= 20:
            fresh = [w for w in words if w not in avoid and w not in chosen]
            pool = fresh or words
        chosen.append(rng.choice(pool))
    return " ".join(chosen)


def _named(game: Game) -> frozenset[str]:
    """Every word of the notation of the moves so far (what a table has named), from the
    states the game's fold keeps."""
    from gametape.engine.moves import split_words

    words: set[str] = set()
    for before, event in zip(game.fold.states, game.events[1:], strict=False):
        if isinstance(event, Move):
            words.update(split_words(game.ruleset.notation(before, event)))
    return frozenset(words)


# --- other worlds -----------------------------------------------------------------------


def _worlds(
    rules: Ruleset[Any], events: list[Event], requester: int, rng: random.Random, count: int
) -> Iterator[tuple[list[Event], str, int | None]]:
    """Other worlds: chance swapped, or a move the requester sees redacted replaced."""
    fold = Fold(rules, events[0])
    hidden: list[int] = []
    for seq, event in enumerate(events[1:], 1):
        if redact(rules, fold.state, event, requester) != event:
            hidden.append(seq)
        fold.push(event)
    chances = [0] + [s for s, e in enumerate(events) if s and not isinstance(e, Move)]
    made = 0
    for _ in range(count * 4):
        if made >= count:
            return
        replaced: int | None = None
        if hidden and rng.random() < 0.5:
            replaced = rng.choice(hidden)
            other = _replaced(rules, events, replaced, requester, rng)
            how = f"another secret move at seq {replaced}"
        else:
            seq = rng.choice(chances)
            swapped = _swapped(events[seq], rng)
            other = None if swapped is None else [*events[:seq], swapped, *events[seq + 1 :]]
            how = f"a chance outcome swapped at seq {seq}"
        if other is not None and other != events:
            made += 1
            yield other, how, replaced


def _swapped(event: Event, rng: random.Random) -> Event | None:
    """``event`` with two entries of one of its tuple fields (a deck, a deal) swapped."""
    fields = [
        (name, value)
        for name in event.__struct_fields__
        if isinstance(value := getattr(event, name), tuple) and len(value) > 1
    ]
    nested = [(n, v) for n, v in fields if all(isinstance(x, tuple) for x in v)]
    if not fields:
        return None
    name, value = rng.choice(fields)
    if (name, value) in nested and rng.random() < 0.5:  # a deck per player: swap within one
        k = rng.randrange(len(value))
        inner = _swap(value[k], rng)
        return msgspec.structs.replace(event, **{name: (*value[:k], inner, *value[k + 1 :])})
    return msgspec.structs.replace(event, **{name: _swap(value, rng)})


def _swap(value: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    if len(value) < 2:
        return value
    i, j = rng.sample(range(len(value)), 2)
    items = list(value)
    items[i], items[j] = items[j], items[i]
    return tuple(items)


def _replaced(
    rules: Ruleset[Any], events: list[Event], seq: int, requester: int, rng: random.Random
) -> list[Event] | None:
    """The events with the move at ``seq`` replaced by another of its mover's that the
    requester is told of in the same words (``redact``)."""
    fold = Fold(rules, events[0])
    for event in events[1:seq]:
        fold.push(event)
    event, game = events[seq], Game(fold)
    seat = actor(event)
    told = redact(rules, fold.state, event, requester)
    if seat is None:  # a recorder's note: another note of the same kind
        notes = [_note(game, rng) for _ in range(10)]
        options = [m for m in notes if type(m) is type(event) and m != event]
    else:
        options = [m for m in game.legal_moves(seat) if m != event]
        rng.shuffle(options)
    if not options and seat is not None:
        filled = [_filled(game, seat, rng, 40) for _ in range(5)]
        options = [m for m in filled if m is not None and m != event]
    for other in options[:30]:
        if redact(rules, fold.state, other, requester) == told:
            return [*events[:seq], other, *events[seq + 1 :]]
    return None


# --- comparing --------------------------------------------------------------------------


def _compare(
    rules: Ruleset[Any],
    real: list[Event],
    other: list[Event],
    requester: int,
    how: str,
    label: str,
    rng: random.Random,
    positions: int,
    texts: Texts | None,
    replaced: int | None = None,
) -> list[Leak]:
    a, b = _fold(rules, real), _fold(rules, other)
    same = _indistinguishable(rules, a, b, requester)
    who = a.players[requester] if requester != ONLOOKER else "the onlooker"
    found = []
    if (
        replaced is not None
        and not _by_events(rules, a)
        and same == replaced < min(len(a.states), len(b.states))
    ):  # the two moves were told the same (redact), but the view after them differs
        seen_a, seen_b = (_encode(rules.view(f.states[replaced], requester)) for f in (a, b))
        found.append(
            Leak(
                label,
                who,
                replaced,
                "the view after a redacted move",
                str(seen_a),
                str(seen_b),
                how,
            )
        )
    differ = [k for k in range(same) if a.states[k] != b.states[k]]
    if not differ:
        return found
    for k in sorted(rng.sample(differ, min(positions, len(differ)))):
        answers_a = answers(rules, a, k, requester, rng_seed=k, texts=texts, other=b)
        answers_b = answers(rules, b, k, requester, rng_seed=k, texts=texts, other=a)
        completes = _completes(rules, a, k, requester, replaced)
        for what, value in answers_a.items():
            if completes and what.startswith("the answer to"):
                continue  # the move shows the step's secret moves, the replaced one among them
            if not _same(value, answers_b.get(what)):
                shown = (value.split(SEEN)[0], answers_b.get(what, "—").split(SEEN)[0])
                found.append(Leak(label, who, k, what, *shown, how))
    page_a, page_b = (_replay_page(rules, f.events[:same], requester) for f in (a, b))
    if page_a != page_b:
        found.append(Leak(label, who, same - 1, "the HTML replay", page_a, page_b, how))
    return found


def _completes(
    rules: Ruleset[Any], fold: Fold, k: int, requester: int, replaced: int | None
) -> bool:
    """Whether any move of the requester at ``k`` completes the simultaneous step that the
    replaced secret move belongs to: its answer may then show that move, as the step's end
    shows every move of it (accepted, or refused because two of them clash)."""
    if replaced is None or replaced > k or not rules.together(fold.states[k]):
        return False
    same_step = fold.frames[replaced].turn == fold.frames[k].turn
    return same_step and tuple(rules.to_act(fold.states[k])) == (requester,)


def _replay_page(rules: Ruleset[Any], events: list[Event], requester: int) -> str:
    """The HTML replay of ``events`` as the requester sees it (``export --format html``)."""
    from gametape.replay.cursor import Cursor
    from gametape.replay.html import page

    return page(Cursor(events, ruleset=rules), requester)


def _fold(rules: Ruleset[Any], events: list[Event]) -> Fold:
    """The states of ``events`` as far as they are legal. A chance event that another world
    made impossible (a peek's result, after the cards were swapped) is drawn again for that
    world, as the tool would have drawn it, so the world goes on."""
    fold = Fold(rules, events[0])
    for event in events[1:]:
        try:
            fold.push(event)
            continue
        except GametapeError:
            if isinstance(event, Move):
                break
        again = rules.chance(fold.state, random.Random(len(fold.events)))
        if type(again) is not type(event):
            break
        try:
            fold.push(again)
        except GametapeError:
            break
    return fold


def _by_events(rules: Ruleset[Any], fold: Fold) -> bool:
    """Whether what a requester may know is the events as told alone (``_indistinguishable``)."""
    table = getattr(fold.events[0], "at_table", False)
    return rules.secrecy == "events" or table or accounts_for_chance(rules)


def _indistinguishable(rules: Ruleset[Any], a: Fold, b: Fold, requester: int) -> int:
    """How many leading positions the requester cannot tell apart. A game recorded at a
    table enters every card as an event, a game declared ``secrecy="events"`` keeps every
    secret in its events, and a game that says what of its deal each seat has been shown
    (``Ruleset.shown``) accounts for the rest: what a requester may know is then those
    events as it was told them (``engine.told``), and a view that shows more is itself a
    leak. A game that says none of these is judged by what it was told of each event and
    by its views besides."""
    if _by_events(rules, a):
        told_a, told_b = told(a, requester), told(b, requester)
        n = min(len(told_a), len(told_b))
        return next((k for k in range(n) if told_a[k] != told_b[k]), n)
    n = min(len(a.events), len(b.events))
    for k in range(n):
        if k and redact(rules, a.states[k - 1], a.events[k], requester) != redact(
            rules, b.states[k - 1], b.events[k], requester
        ):
            return k
        if _encode(rules.view(a.states[k], requester)) != _encode(
            rules.view(b.states[k], requester)
        ):
            return k
    return n


def answers(
    rules: Ruleset[Any],
    fold: Fold,
    k: int,
    requester: int,
    *,
    rng_seed: int = 0,
    texts: Texts | None = None,
    other: Fold | None = None,
) -> dict[str, str]:
    """Every answer ``requester`` gets at position ``k`` of ``fold``, by name."""
    from gametape.usecases.browse import seen_notation
    from gametape.usecases.links import HOST, SEAT, Access
    from gametape.usecases.record import complete, play
    from gametape.usecases.tables import _position

    players = fold.players
    state = fold.states[k]
    out: dict[str, str] = {}
    view = rules.view(state, requester)
    out["view"] = _encode(view).decode()  # show --as SEAT --json
    out["board"] = _encode(rules.board(view, "t")).decode()
    if k:
        before, event = fold.states[k - 1], fold.events[k]
        said = describe(rules, players, before, event, state, requester)
        out["description"] = _encode(said).decode()  # the message, and its words
        out["description words"] = render(said)
        out["notation"] = seen_notation(rules, before, event, requester)
        out["kinds"] = " ".join(kinds(rules, before, event, state))  # the replay's jumps
    game = _game_at(rules, fold, k)
    out["result"] = _encode(game.result()).decode()  # show --json, the read model
    if requester != ONLOOKER:
        legal = sorted(_encode(m).decode() for m in rules.legal_moves(state, requester))
        out["legal moves"] = "\n".join(legal)
        forms = rules.move_forms(state, requester) if requester in game.to_act() else []
        out["move forms"] = "\n".join(
            f"{f.words}|{f.shown}|{_encode(f.note).decode()}|{text_of(f.note)}" for f in forms
        )
        for typed in ("", *{f.words[0][0] + " " for f in forms if f.words}):
            out[f"completions of {typed!r}"] = " ".join(complete(game, typed, requester))
        # a seat's hypothesis (branch --as) starts from the game as the seat saw it
        out["hypothesis"] = _encode(rules.hypothesis(fold.events[: k + 1], requester)).decode()
    access = (
        Access(game="g", role=SEAT, seat=requester)
        if requester != ONLOOKER
        else Access(game="g", role=HOST)
    )
    position = _position(game, access)
    out["page data"] = _encode(position).decode()
    out["page"] = _live_page(position)
    for text in _texts(rules, fold, other, k, requester, rng_seed, texts):
        out[f"the answer to {text!r}"] = _answer(rules, fold, k, requester, text, access, play)
    return out


def _live_page(position: Any) -> str:
    """The live part of the server's page for ``position`` (what a phone is sent)."""
    from gametape.web.pages import environment, live_part

    return environment().get_template("live.html").render(**live_part(position, "/g/game/token"))


def _game_at(rules: Ruleset[Any], fold: Fold, k: int) -> Game:
    copy = Fold(rules, fold.events[0])
    for event in fold.events[1 : k + 1]:
        copy.push(event)
    return Game(copy)


def _texts(
    rules: Ruleset[Any],
    fold: Fold,
    other: Fold | None,
    k: int,
    requester: int,
    seed: int,
    texts: Texts | None,
) -> list[str]:
    """Move texts to send as the requester at ``k``: every seat's legal moves in both
    worlds, fillings of the forms of the game recorded at a table (they name faces), and
    the author's own."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    # the same texts whichever world is asked first: the worlds in one order, one draw
    worlds = [f for f in (fold, other) if f is not None and k < len(f.states)]
    worlds.sort(key=lambda f: _encode(f.events[: k + 1]))
    for f in worlds:
        state = f.states[k]
        for seat in rules.to_act(state):
            for move in rules.legal_moves(state, seat)[:40]:
                found[rules.notation(state, move)] = None
            for form in rules.move_forms(state, seat):
                for _ in range(3):
                    found[_fill(form, rng)] = None
    table = _table_forms(rules, fold, k)
    for form in table:
        for _ in range(4):
            found[_fill(form, rng)] = None
    if texts is not None and requester != ONLOOKER:
        game = _game_at(rules, fold, k)
        found.update(dict.fromkeys(texts(game, requester)))
    chosen = sorted(found)
    rng.shuffle(chosen)
    return sorted(chosen[:30])


def _table_forms(rules: Ruleset[Any], fold: Fold, k: int) -> list[MoveForm]:
    """The move forms the same position would offer recorded at a table (its words name
    cards a dealt game hides), where the game can be set up so."""
    setup = fold.events[0]
    if not isinstance(setup, Setup) or setup.at_table:
        return []
    try:
        table = rules.table_setup(setup.players, _defaults(rules))
        state = Fold(rules, table).state
    except GametapeError:
        return []
    seats = rules.to_act(fold.states[k])
    try:
        return [f for s in seats for f in rules.move_forms(state, s) if not f.is_literal]
    except Exception:  # a table state the dealt position has not reached
        return []


def _answer(
    rules: Ruleset[Any],
    fold: Fold,
    k: int,
    requester: int,
    text: str,
    access: Any,
    play: Any,
) -> str:
    """What the requester is told when it sends ``text`` at ``k``: what was recorded, or the
    refusal, in the words the server and the recorder use."""
    from gametape.usecases.tables import _allow

    game = _game_at(rules, fold, k)
    by = fold.players[requester] if requester != ONLOOKER else None
    try:
        done = play(game, text, by, _allow(access), viewer=requester)
    except GametapeError as exc:
        said = getattr(exc, "said", None)  # a refusal's message, and its words
        shown = _encode(said).decode() if said is not None else ""
        return f"refused: {type(exc).__name__}: {exc.message} | {exc.hint or ''} | {shown}"
    # A move may show what was hidden (a discard shows its card): its words are compared
    # only where the requester's view after it is the same in both worlds.
    seen = _encode(rules.view(game.state, requester)).decode()
    return f"recorded: {done.description}{SEEN}{seen}"


SEEN = "\x00seen after it: "


def _same(a: str | None, b: str | None) -> bool:
    """Whether two answers agree: the same words, or two accepted moves whose words differ
    only as what each showed differs."""
    if a == b:
        return True
    if a is None or b is None or SEEN not in a or SEEN not in b:
        return False
    return a.split(SEEN)[1] != b.split(SEEN)[1]
