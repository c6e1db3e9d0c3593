"""The protocol every game implements: a small required core and optional capabilities.

A game is a small declarative object (after boardgame.io and OpenSpiel). It must say how a game
is set up and starts, how one event changes a state, who acts, what is legal, how it ended and
what one player can see. Everything else has a default here and is overridden only where the
game has something to say: notation, descriptions, secrecy of events, replay jump kinds, bots,
analytics facts, a board, a report and file formats of other tools.

The shared events (abandon, retract) and the shared checks (setup first, nothing after the end,
the seat exists) are done once by the fold (``gametape.engine.fold``), never by a game.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar, Union

import msgspec

from gametape.engine.options import Option as Option  # a game declares its options so
from gametape.engine.options import OptionError as OptionError  # a game's refusal of an option
from gametape.errors import GametapeError
from gametape.errors import NotationError as NotationError  # a game's refusal of a move's text
from gametape.events.base import Abandon, Event, Setup
from gametape.messages import Message, Param, Seat, locate, render, say, seat_of, seats_of

if TYPE_CHECKING:
    from gametape.engine.board import Board
    from gametape.engine.forms import MoveForm

S = TypeVar("S")


R_TURN = say("core.rule.turn", "a player moves only when it is their turn to act")
R_STEP = say("core.rule.step", "in a simultaneous step each player moves once")
R_UNSEEN = say(
    "core.rule.unseen", "a move is checked against what its sender can see, before anything hidden"
)
R_SENDER = say(
    "core.rule.sender",
    "a player enters their own moves; a scribe (no --by, the host's page) enters any",
)
# The outcome of a game the players stopped (the shared abandon): every game's result says it
# in the same word, and ``Result.abandoned`` reads it.
TERMINATED = "terminated"

# The seat of an onlooker: one who holds no cards and sees only what the whole table sees (a
# spectator's or a host's page in ``gametape serve``). ``view``, ``describe`` and ``redact``
# take it as a seat that is nobody's: every hand is hidden, Hanabi's too.
ONLOOKER = -1


class RuleViolation(GametapeError):
    """An event the rules do not allow: ``said``, the refusal as a message, and ``rules``,
    the rule it breaks (a message too); ``message`` and ``rule`` are their English words.

    A refusal that contradicts an earlier fact names it by its place among the events the
    game applied (``messages.At``); the fold names it by its seq (``locate``).
    """

    def __init__(self, said: Message, rule: Message) -> None:
        self.said = said
        self.broken = rule
        super().__init__(render(said), hint=f"rule: {render(rule)}")

    @property
    def rule(self) -> str:
        return render(self.broken)

    def locate(self, seqs: Sequence[int]) -> None:
        """Name the earlier events by their seqs (``seqs[k - 1]`` is the k-th applied)."""
        self.said = locate(self.said, seqs)
        self.message = render(self.said)


class NotYourMove(RuleViolation):
    """A move that names another seat than the one that sent it (whatever the notation: a
    JSON move names its player): the framework's check, before the rules see it."""

    def __init__(self, mover: Seat, sender: Seat) -> None:
        super().__init__(
            say(
                "core.not-your-move",
                "the move is {mover}'s, and {sender} sent it: {sender} enters {sender}'s moves",
                mover=mover,
                sender=sender,
            ),
            R_SENDER,
        )


class NotKnown(RuleViolation):
    """A move whose legality depends on what its sender cannot see (the host's clue in a
    dealt Hanabi game): refused in the same words in every world. ``who`` says who can enter
    it."""

    def __init__(self, what: Message, who: Message) -> None:
        super().__init__(say("core.not-known", "{what}; {who}", what=what, who=who), R_UNSEEN)


def viewer_name(players: Sequence[str], viewer: int | None) -> Param:
    """Who a view is, in a refusal: a player, or ``the table`` for the onlooker."""
    if viewer is not None and 0 <= viewer < len(players):
        return seat_of(players, viewer)
    return say("core.the-table", "the table")


def hand_not_shown(
    players: Sequence[str], seat: int, what: Message, viewer: int | None
) -> NotKnown:
    """The refusal of a move naming cards of ``seat``'s hand, sent by ``viewer`` (a seat, or
    the onlooker: the host's page), who does not see that hand: the same words whatever the
    cards. ``what`` names the move."""
    holder = seat_of(players, seat)
    return NotKnown(
        say(
            "core.hand-not-shown",
            "{holder}'s hand is not shown to {viewer}",
            holder=holder,
            viewer=viewer_name(players, viewer),
        ),
        say(
            "core.only-holder-enters",
            "only {holder} can enter {holder}'s {what} ({holder}'s own page, or "
            "`record --as {holder}`)",
            holder=holder,
            what=what,
        ),
    )


class Notice(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What validation lists about a valid log recorded at a table: a claim made void, claims
    in dispute (DESIGN: claims and facts). ``at`` is the event it arose at, counted as the
    events a message names are (``messages.At``). ``seats`` may be told (the namers of the
    claims); ``told`` is what their pages say."""

    at: int
    message: Message
    seats: tuple[int, ...] = ()
    told: Message | None = None

    def text(self, seqs: Sequence[int]) -> str:
        """The message with its events named by their seqs (``seqs[k - 1]``: the k-th)."""
        return render(locate(self.message, seqs))


def told_to(notices: Sequence[Notice], seat: int | None, players: Sequence[str]) -> tuple[str, ...]:
    """What a view for ``seat`` says of ``notices``: those about its own claims; for None (a
    scribe who sees everything) each notice a seat is told, addressed to it."""
    if seat is None:
        return tuple(
            render(
                say(
                    "core.told-to",
                    "to {seats}: {told}",
                    seats=seats_of(players, n.seats),
                    told=n.told,
                )
            )
            for n in notices
            if n.told and n.seats
        )
    return tuple(render(n.told) for n in notices if n.told and seat in n.seats)


def _moves(ruleset: Ruleset[Any]) -> tuple[tuple[type[Event], ...], Any]:
    """The game's kinds of move (its Move events) and their union, as msgspec reads them."""
    from gametape.events.base import Move

    kinds = tuple(e for e in ruleset.events if issubclass(e, Move))
    return kinds, kinds[0] if len(kinds) == 1 else Union[kinds]  # noqa: UP007


def move_schema(ruleset: Ruleset[Any]) -> dict[str, Any]:
    """The game's moves as values, declared: a JSON Schema of each kind of move (its
    ``type`` and typed fields), which ``move_value`` reads and ``gametape games --json``
    gives a script."""
    return msgspec.json.schema(_moves(ruleset)[1])


def move_value(ruleset: Ruleset[Any], text: str) -> Event:
    """A move of ``ruleset`` from its JSON value: one of the game's own moves, by its
    ``type``, with typed fields (the log's form of it). Every game reads it beside its
    notation (``engine.game.parse_move``). Raises NotationError saying why not."""
    kinds, union = _moves(ruleset)
    try:
        event: Event = msgspec.json.decode(text, type=union)
        return event
    except msgspec.DecodeError as exc:
        tags = ", ".join(str(e.__struct_config__.tag) for e in kinds)
        raise NotationError(
            say(
                "core.not-a-move-value",
                "not a {game} move as a value: {why} (a move is an object whose type is one "
                "of {tags})",
                game=ruleset.name,
                why=str(exc)[:200],
                tags=tags,
            )
        ) from None


class Indexed(msgspec.Struct, frozen=True):
    """A run of moves indexed in one pass (``Ruleset.index_many``): each move's notation,
    and its facts as columns, one per ``event_columns`` key (a column left out is NULL)."""

    notation: list[str]
    facts: dict[str, list[Any]]


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """How a finished game ended.

    ``scores`` has one entry per seat (a cooperative game gives every seat the team score);
    ``winners`` lists seats (empty for a cooperative loss or a draw with no winner).
    ``details`` carries game-specific facts (fireworks sum, tie-break used, ...).
    """

    outcome: str
    scores: tuple[int, ...]
    winners: tuple[int, ...] = ()
    details: dict[str, Any] = {}

    @property
    def abandoned(self) -> bool:
        """Whether the players stopped the game (the shared abandon) before its end."""
        return self.outcome == TERMINATED

    @classmethod
    def highest_total(
        cls, totals: tuple[int, ...], outcome: str, details: dict[str, Any] | None = None
    ) -> Result:
        """A game's result by its totals: the highest wins (``win``), equal highest totals
        share the win (``shared``); an abandoned game (``outcome`` TERMINATED) has none."""
        if outcome == TERMINATED:
            return cls(outcome=TERMINATED, scores=totals, details=details or {})
        best = max(totals)
        winners = tuple(s for s, t in enumerate(totals) if t == best)
        return cls(
            outcome="win" if len(winners) == 1 else "shared",
            scores=totals,
            winners=winners,
            details=details or {},
        )


H = TypeVar("H", bound=Callable[..., Any])


def on(*classes: type[Event]) -> Callable[[H], H]:
    """Mark a facet function as the handler of these event classes: the default ``apply``
    routes each event to its class's handler, so no game writes a ``type(event)`` switch.

    >>> @on(NimTake)
    ... def take(state: NimState, event: NimTake) -> NimState: ...
    """

    def mark(function: H) -> H:
        function.__gametape_handles__ = classes  # type: ignore[attr-defined]
        return function

    return mark


class Bot(Protocol):
    """Chooses a move for one seat from that seat's view and legal moves only."""

    def choose(self, view: Any, legal: Sequence[Event], rng: random.Random) -> Event: ...


class RandomBot:
    """A uniformly random legal move: the bot every game has."""

    def choose(self, view: Any, legal: Sequence[Event], rng: random.Random) -> Event:
        return rng.choice(list(legal))


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    """A game's facts, declared once in its class (``declared = Declaration(...)``, after
    OpenSpiel's ``GameType``): what it is called, its events, how many play, its options
    and its shape. ``gametape games --json`` gives it to a script; the contract checks it
    as the game loads. Only ``name``, ``events`` and ``players`` are required.
    """

    name: str  # lower-case words joined by -, as its entry point
    events: tuple[type[Event], ...]  # its event classes, its one Setup among them
    players: tuple[int, int]  # the fewest and the most seats
    options: tuple[Option, ...] = ()  # typed, read and refused by the framework
    # Whether it can be recorded from a table's own deal (it gives ``table_setup``).
    table: bool = False
    # What is hidden, and where the secrecy kit finds what a requester may know:
    # "open" nothing (no ``view`` needed: every seat sees the state); "views" (the default)
    # the game's ``view``; "events" its events as ``redact`` gives them (a deal tells each
    # seat its own cards, a public move's private result is its own event, the setup holds
    # no secret), so a view, a result or kinds that show more are caught.
    secrecy: Literal["open", "views", "events"] = "views"
    # ``describe`` words a move differently for each seat (Hanabi tells a player "drew a
    # card" where the others see its face); else a seat is told the event as it sees it.
    describes_per_seat: bool = False
    cooperative: bool = False  # the players win or lose together: reports give team scores
    outcomes: tuple[str, ...] = ()  # the words of ``result``, besides TERMINATED
    # What the turn number counts wherever it is shown: "turn", or "round" for a game whose
    # unit of play is a round (the prompt, the replay header, the log, the stats).
    turn_word: str = "turn"
    landmark: str | None = None  # the kind of event (``kinds``) a replay jumps between
    move_examples: tuple[str, ...] = ()  # notation, for help and ``gametape games``
    version: int = 1
    # Analytics: the game's own columns (DuckDB types) in its own schema, and its reports
    # for ``gametape stats`` as (title, SQL), the most telling first (docs/analytics.md); a
    # title is a message, read in the reader's language (plain text is shown as it is).
    event_columns: dict[str, str] = {}
    player_columns: dict[str, str] = {}
    reports: tuple[tuple[Message | str, str], ...] = ()


# What a class reads from its declaration, each as a class attribute of the same name
# (``rules.name`` is ``rules.declared.name``), but the players: ``min_players`` and
# ``max_players``. A class body never sets one: it declares it.
DECLARED = frozenset(Declaration.__struct_fields__) - {"players"} | {"min_players", "max_players"}


class Ruleset(Generic[S]):
    """Base class of every game. ``S`` is the game's immutable state type.

    Required: its facts, ``declared = Declaration(...)`` (read back as class attributes:
    ``rules.name``, ``rules.min_players``), and the methods that raise NotImplementedError
    below (``view`` but for a game declared ``secrecy="open"``).
    A state should be a frozen msgspec Struct; if it has an ``outcome`` field, the default
    ``abandon`` sets it to ``"terminated"``.

    **Parts.** A game keeps its rules, notation and view in modules of its own and binds
    each hook it gives from them in its class body, ``to_act = staticmethod(rules.to_act)``:
    mypy checks every part against this contract, and a hook's parameters are checked again
    as the class is made (for a plug-in never type-checked). Its ``@on`` handlers are found in
    the modules listed in ``facets``. A hook no part gives keeps its default.
    """

    facets: ClassVar[tuple[Any, ...]] = ()
    # The event handlers (``@on``) of the class's facets, by event class; a handler that is
    # a method of the class is kept by its name.
    handlers: ClassVar[Mapping[type[Event], Callable[[Any, Any], Any] | str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        undeclared = sorted(DECLARED.intersection(cls.__dict__))
        if undeclared:
            raise TypeError(
                f"{cls.__name__} sets {', '.join(undeclared)} in its class body: a game "
                "declares its facts once, declared = Declaration(...)"
            )
        declared = cls.__dict__.get("declared")
        if isinstance(declared, Declaration):
            for fact in DECLARED.intersection(declared.__struct_fields__):
                setattr(cls, fact, getattr(declared, fact))
            cls.min_players, cls.max_players = declared.players
        handlers = dict(cls.handlers)
        for facet in cls.__dict__.get("facets", ()):
            for function in vars(facet).values():
                for event in getattr(function, "__gametape_handles__", ()):
                    handlers[event] = function
        for hook in set(cls.__dict__).intersection(HOOKS):  # each hook's parameters
            given = cls.__dict__[hook]
            if isinstance(given, staticmethod):
                _check_hook(cls, hook, given.__func__)
            elif callable(given) and not isinstance(given, classmethod):
                _check_hook(cls, hook, given, method=True)
        for name, function in cls.__dict__.items():
            for event in getattr(function, "__gametape_handles__", ()):
                handlers[event] = name
        cls.handlers = handlers

    # --- its facts: declared (``declared``), read as class attributes --------------------
    declared: ClassVar[Declaration]
    name: ClassVar[str]
    events: ClassVar[tuple[type[Event], ...]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]]
    table: ClassVar[bool]
    secrecy: ClassVar[Literal["open", "views", "events"]]
    describes_per_seat: ClassVar[bool]
    cooperative: ClassVar[bool]
    outcomes: ClassVar[tuple[str, ...]]
    turn_word: ClassVar[str]
    landmark: ClassVar[str | None]
    move_examples: ClassVar[tuple[str, ...]]
    version: ClassVar[int]
    event_columns: ClassVar[Mapping[str, str]]
    player_columns: ClassVar[Mapping[str, str]]
    reports: ClassVar[tuple[tuple[Message | str, str], ...]]

    # --- its bots: a part (``gametape.engine.ruleset.Bot``) ------------------------------
    bots: ClassVar[Mapping[str, Callable[[], Bot]]] = {"random": RandomBot}
    default_bot: ClassVar[str] = "random"

    def __repr__(self) -> str:
        return f"<Ruleset {self.name}>"

    @property
    def options_help(self) -> dict[str, str]:
        """Each option's name and one line saying what it takes."""
        return {o.name: render(o.describe()) for o in self.options}

    @functools.cached_property
    def setup_type(self) -> type[Setup]:
        """The game's setup event class (the one Setup among ``events``; asked for every
        game folded, so worked out once)."""
        return next(e for e in self.events if issubclass(e, Setup))

    # --- the required core ----------------------------------------------------------------
    def new_setup(
        self, players: Sequence[str], rng: random.Random, options: Mapping[str, Any]
    ) -> Setup:
        """A setup event with its chance outcomes drawn from ``rng``. ``options`` holds every
        option of ``options``, typed (the framework read and checked them)."""
        raise NotImplementedError

    def start(self, setup: Any) -> S:
        """The state before any move, from this game's setup event."""
        raise NotImplementedError

    def apply(self, state: S, event: Event) -> S:
        """The state after ``event``; never mutates ``state``. Raises RuleViolation.

        Default: the handler of the event's class (``@on``); a game with handlers writes no
        ``apply``. The fold never hands a game another game's event."""
        handler = self.handlers.get(type(event))
        if handler is None:
            raise RuleViolation(
                say(
                    "core.other-game-event",
                    "a {tag} event in a {game} game",
                    tag=str(event.__struct_config__.tag),
                    game=self.name,
                ),
                say(
                    "core.rule.own-events", "a {game} log holds only {game} events", game=self.name
                ),
            )
        after: S = (
            getattr(self, handler)(state, event)
            if isinstance(handler, str)
            else handler(state, event)
        )
        return after

    def apply_many(self, state: S, events: Sequence[Event]) -> tuple[S, int]:
        """A fast path for checking a log (optional): apply the first ``n`` of ``events``
        exactly as ``apply`` would one by one, and return the state after them and ``n``.

        It takes only moves by a seat to act in a game not over, and stops, raising
        nothing, before the first event it does not take or that breaks a rule: the fold
        applies that one itself (and words any refusal), then asks again from the next. A
        game whose ``together`` says no may give it (every move it takes is a turn); the
        fold uses it when it keeps no states (``validate``, ``import``). Default: none."""
        return state, 0

    def index_many(self, state: S, events: Sequence[Event]) -> tuple[S, int, Indexed]:
        """A fast path for the read model (optional): ``apply_many``, writing down the
        notation, ``event_facts`` and ``learned_facts`` of each move of the run it takes, in
        the one pass. The read model uses it where the run is the whole log, and asks the
        per-event hooks move by move anywhere else (tests hold the two equal), for a game
        whose ``together`` and ``turn`` say no. Default: none (a run of no moves)."""
        return state, 0, Indexed([], {})

    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that may act now (several in a simultaneous step); empty when over."""
        raise NotImplementedError

    def together(self, state: S) -> bool:
        """Whether the seats to act now are in a simultaneous step: each moves once, in any
        order, and no move of the step depends on another (Ohanami's picks). The fold then
        counts the step as one turn, refuses a second move by one seat in its own words, and
        a server accepts moves sent at once from several phones. Default: no."""
        return False

    def not_to_act(self, state: S, seat: int, players: Sequence[str]) -> RuleViolation:
        """The refusal of a move by ``seat``, which is not to act now (the fold refuses such
        a move before ``apply`` sees it, and words a second move in one simultaneous step
        itself). Default: whose turn it is; a game with phases may say more, with its own
        rule."""
        acting, mover = self.to_act(state), seat_of(players, seat)
        if len(acting) == 1:
            said = say(
                "core.not-your-turn",
                "it is {acting}'s turn, not {mover}'s",
                acting=seat_of(players, acting[0]),
                mover=mover,
            )
        elif not acting:
            said = say("core.nobody-to-act", "nobody is to act now, {mover} neither", mover=mover)
        else:
            said = say(
                "core.others-to-act",
                "{mover} is not to act now; {acting} are",
                mover=mover,
                acting=seats_of(players, acting),
            )
        return RuleViolation(said, R_TURN)

    def legal_moves(self, state: S, seat: int) -> list[Event]:
        """Every legal move for ``seat`` now (empty if it may not act)."""
        raise NotImplementedError

    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> Any:
        """What ``seat`` can see (None: everything; ``ONLOOKER``: only what every seat sees),
        as a JSON-encodable value: best a Struct, whose fields the default board draws (a
        ``ruleset`` field, if it has one, names the game in ``show --json`` and is not drawn);
        a mapping works as well. Nothing reads a field of it but the game's own board.
        Default, for a game declared ``secrecy="open"`` alone: the state, whole."""
        if self.secrecy == "open":
            return state
        raise NotImplementedError

    # --- optional, with defaults ----------------------------------------------------------
    def hindsight(self, state: S, final: S) -> S:
        """``state`` with what later events of the same log showed filled in (``final`` is
        the log's last state): for a spectator's review of a game recorded at a table, where
        a card's face is learned after it entered play. Only the spectator's view uses it; a
        seat's view stays what that seat knew then. Default: nothing is filled in. Return
        ``state`` itself when there is nothing to fill."""
        return state

    def chance(self, state: S, rng: random.Random) -> Event | None:
        """A chance event the table must record before anyone acts (a deal), else None."""
        return None

    def is_over(self, state: S) -> bool:
        return self.result(state) is not None

    def abandon(self, state: S, event: Abandon) -> S:
        """The state after the players stopped the game. The fold marks the game ended in
        any case (no move follows an abandon); default: a state with an ``outcome`` field
        gets TERMINATED there, any other state is kept as it was."""
        if "outcome" in getattr(state, "__struct_fields__", ()):
            return msgspec.structs.replace(state, outcome=TERMINATED)  # type: ignore[type-var]
        return state

    def turn(self, state: S) -> int | None:
        """The number of the round being played now, from 1, for a game whose rounds are its
        own (``turn_word = "round"``, several steps a round). Default None: the framework
        counts turns, one per step (a simultaneous step is one turn)."""
        return None

    def check_known(self, view: Any, event: Event) -> None:
        """Refuse ``event`` on what its sender can see alone, before the rules consult the
        hidden state: ``view`` is the sender's (``view.seat`` None: a scribe, who sees what
        the table entered: the CLI's ``record`` and ``move``). Raise RuleViolation if the move
        names what the sender cannot see (the face of a card in their own hand, in a dealt
        game), in the same words whatever it is; raise NotKnown if whether the move is legal
        depends on what the sender cannot see. Default: every move can be checked by what its
        sender sees (no move names a hidden thing). The secrecy kit checks this."""

    def anytime(self, state: S, event: Event) -> bool:
        """Whether ``event``, a move, may be made now though its player is not to act: a note
        of what they hold, entered when they like (a hand at a table, ruling O7b). The
        rules then judge it as any move. Default: no move is made out of turn."""
        return False

    def notices(self, state: S) -> tuple[Notice, ...]:
        """What ``validate`` lists about the game so far, besides its rules: claims entered
        at a table that facts made void or that are in dispute (a valid log all the same).
        Default: none."""
        return ()

    def parse_move(self, state: S, text: str, seat: int | None) -> Event:
        """Parse notation (default: the move as its JSON value, ``move_value``). Raises
        NotationError."""
        return move_value(self, text)

    def notation(self, state: S, event: Event) -> str:
        """The notation of ``event`` played in ``state`` (``parse_move`` gives it back)."""
        return msgspec.json.encode(event).decode()

    def describe(self, before: S, event: Event, after: S, seat: int | None = None) -> Message:
        """One line saying what changed. The framework hands it the event as the requester
        sees it (``redact``) and ``seat`` None, unless ``describes_per_seat``; an event a seat
        sees nothing of is worded by the framework (``Event.secret``), never here. A message
        (``gametape.messages``); default: the move as written."""
        return say("core.move-written", "{move}", move=self.notation(before, event))

    def redact(self, state: S, event: Event, seat: int) -> Event | None:
        """The event as ``seat`` sees it when it happens in ``state`` (the state before it),
        with what the seat cannot see removed; None if the seat sees only that it happened.
        The one hook that decides what an event shows to whom: descriptions, notation and
        the replay's events are derived from its answer. Default: every move is open."""
        return event

    def sees(self, state: S, event: Event, seat: int) -> bool:
        """Whether ``seat`` may now (in ``state``) see the whole of ``event``, an earlier
        private entry that ``redact`` hid from it when it was made: a hand entered at a table,
        seen by the players who hold it later (ruling O7b). The framework tells a seat such an
        entry from then on (``engine.told``). Default: never; a simultaneous step's moves
        need no hook (the move that ends the step shows them, as ``redact`` says)."""
        return False

    def shown(self, state: S, event: Event, seat: int) -> Event | None:
        """What ``seat`` has been shown of ``event`` by ``state``, beyond ``redact``: of a
        chance event (a deal, the deck a setup holds), asked at every later position, the
        event with every card the seat has not seen taken out (a Hanabi seat has seen every
        card drawn but those in its own hand); of a move, asked in the state after it, what
        it showed that the event does not hold (the cards a Hanabi clue touched). The
        framework tells a seat each as it is shown (``engine.told``), so the secrecy kit
        judges a game dealt by the tool by its events alone. Default None: the game does not
        say (the kit then judges by its views besides)."""
        return None

    def kinds(self, before: S, event: Event, after: S) -> tuple[str, ...]:
        """Names for what kind of event this was, for replay's jumps (default: its tag's
        last part, e.g. ``play``)."""
        return (event.__struct_config__.tag.rsplit(".", 1)[-1],)  # type: ignore[union-attr]

    def event_facts(self, before: S, event: Event, after: S) -> dict[str, Any]:
        """Facts about one event and the state after it, keyed by ``event_columns``."""
        return {}

    def learned_facts(self, before: S, event: Event, final: S) -> dict[str, Any]:
        """Facts about ``event`` that later events of the log made known (``final`` is the
        last state), keyed by ``event_columns``: what a clue touched, in a game recorded at a
        table, once the faces were shown. Default: none."""
        return {}

    def player_facts(self, state: S, events: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
        """Per seat, facts keyed by ``player_columns``, from the final state and the rows of
        the events still in effect, as columns (``actor``, ``type`` and every one of
        ``event_columns``, None where an event has no such fact). Seats left out get NULL
        facts."""
        return []

    def table_setup(self, players: Sequence[str], options: Mapping[str, str]) -> Setup:
        """A setup for a game dealt by hand at a real table: nothing of the deal is known,
        and cards enter the log as the table sees them (docs/recording.md)."""
        raise OptionError(f"{self.name} cannot be recorded from a table deal")

    def hypothesis(self, events: Sequence[Event], seat: int) -> list[Event] | None:
        """The game ``events`` hold (its setup first) as ``seat`` saw it, as a game recorded
        at a table: what the seat never saw is unknown (the deal's order, a card it never
        saw, another seat's move it was not shown), so a seat's hypothesis (``branch --as``)
        made from it never consults the game's hidden information; the seat names an unknown
        card when the branch needs it. A function of what the seat saw alone: the secrecy kit
        checks it. Default None: the game has no such record (a hypothesis is refused)."""
        return None

    def move_forms(self, state: S, seat: int) -> list[MoveForm]:
        """The shapes of move ``seat`` can make now, for the recorder's ``?`` and Tab. Default:
        each legal move, whole. A game recorded at a table overrides this to give forms with
        what the table must say (a play needs its card's face)."""
        from gametape.engine.forms import MoveForm  # forms reads words as moves.py does

        return [MoveForm.literal(self.notation(state, m), m) for m in self.legal_moves(state, seat)]

    def board(self, view: Any, title: str) -> Board:
        """``view`` as a board: data (zones, cards, counters, text; gametape.engine.board)
        that the terminal and the HTML replay each draw their own way. The default shows each
        field of the view as a line of text."""
        from gametape.engine.board import generic

        return generic(view, f"{self.name} · {title}")

    def formats(self) -> Mapping[str, Any]:
        """Other tools' file formats this game imports and exports, by name: each is a
        ``gametape.interop.formats.Format`` (which sits above the engine)."""
        return {}


# The hooks (see Ruleset): every method above a game can give; their parameters are checked
# as a game's class is made.
HOOKS = (
    "new_setup",
    "start",
    "apply",
    "apply_many",
    "to_act",
    "legal_moves",
    "result",
    "view",
    "chance",
    "is_over",
    "abandon",
    "not_to_act",
    "together",
    "turn",
    "check_known",
    "anytime",
    "notices",
    "hindsight",
    "parse_move",
    "notation",
    "describe",
    "redact",
    "sees",
    "shown",
    "kinds",
    "event_facts",
    "learned_facts",
    "player_facts",
    "table_setup",
    "hypothesis",
    "move_forms",
    "board",
    "formats",
)


def _text_signature(function: Any) -> tuple[list[str], int] | None:
    """The parameters' names and how many are required, read from a compiled function's
    text signature (``(state, events, tally=None)``), where it has only plain ones."""
    text = getattr(function, "__text_signature__", None)
    if not isinstance(text, str) or not text.startswith("(") or not text.endswith(")"):
        return None
    parts = [p.strip() for p in text[1:-1].split(",") if p.strip()]
    if any(not p.partition("=")[0].strip().isidentifier() for p in parts):
        return None  # *args, a / or $ marker: inspect reads those
    return [p.partition("=")[0].strip() for p in parts], sum("=" not in p for p in parts)


def _check_hook(cls: type, hook: str, function: Any, method: bool = False) -> None:
    """A part's function (or, ``method``, the class's own method, ``self`` and all) must
    take the hook's parameters. Read from the function's code (every game checks every hook
    as its class is made, so this runs in every command: inspect's signatures cost more than
    the rest of a game's import)."""
    wanted = getattr(Ruleset, hook).__code__
    count = wanted.co_argcount - (0 if method else 1)
    code = getattr(function, "__code__", None)
    compiled = _text_signature(function)
    if code is None and compiled is not None:  # a compiled function (mypyc): its text
        params, required = compiled
        if required <= count <= len(params):
            return
        takes = ", ".join(params)
    elif code is None:  # not a plain function (a partial, a builtin): ask inspect
        import inspect

        try:
            inspect.signature(function).bind(*range(count))
            return
        except TypeError:
            takes = ", ".join(inspect.signature(function).parameters)
    else:
        positional = code.co_argcount
        required = positional - len(function.__defaults__ or ())
        keywords = code.co_kwonlyargcount - len(function.__kwdefaults__ or {})
        takes_all = positional >= count or code.co_flags & 0x04  # CO_VARARGS: *args
        if takes_all and required <= count and not keywords:
            return
        takes = ", ".join(code.co_varnames[: positional + code.co_kwonlyargcount])
    names = ", ".join(wanted.co_varnames[1 : wanted.co_argcount])
    what = "method" if method else "function"
    raise TypeError(
        f"{cls.__name__}: the {what} {function.__module__}.{hook}({takes}) does not "
        f"take the hook's parameters ({names})"
    )
