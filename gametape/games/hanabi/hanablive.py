"""hanab.live's JSON game export, in and out.

The format (docs/hanablive.md): ``players``, ``deck`` of ``{suitIndex, rank}`` in dealing
order (card *order* = index in the deck), ``actions`` of ``{type, target, value}`` (0 play,
1 discard, 2 colour clue, 3 rank clue, 4 game over with an end condition, 5 terminated by
vote), optional ``options`` (absent: all defaults; ``variant`` absent: "No Variant"; the
legacy ``startingPlayer``), optional ``id`` and ``seed``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, ClassVar

import msgspec

from gametape.engine.fold import Fold, IllegalEvent, live_seqs
from gametape.engine.game import Game
from gametape.engine.registry import ruleset_for
from gametape.engine.ruleset import RuleViolation
from gametape.errors import UsageError
from gametape.events.base import Abandon, Event, Setup
from gametape.games.hanabi.events import (
    DEFAULT_COPIES,
    Face,
    HanabiClue,
    HanabiDiscard,
    HanabiOptions,
    HanabiPlay,
    HanabiSetup,
)
from gametape.games.hanabi.variants import NO_VARIANT, UnknownVariant, variant
from gametape.interop.formats import ExportError, ImportRefused
from gametape.messages import render, say

MAX_ID = 2**53 - 1
PLAY, DISCARD, COLOUR_CLUE, RANK_CLUE, GAME_OVER, VOTE_END = range(6)
# hanab.live end conditions that mean the players stopped the game (they become `abandon`)
STOPPED = {3: "timeout", 4: "terminated by a player", 6: "idle timeout", 10: "terminated by vote"}
DERIVED = {1: "normal", 2: "strikeout"}
# Options that change the rules of every game, and gametape's name for each it plays.
PLAYED_OPTIONS = {
    "emptyClues": "empty_clues",
    "oneExtraCard": "one_extra_card",
    "oneLessCard": "one_less_card",
}
RULE_OPTIONS = ("allOrNothing", "detrimentalCharacters")
# Options that only add a move: a game that never makes that move is a standard game, and one
# that does is refused naming the option.
EXTRA_MOVE_OPTIONS = ("deckPlays",)


class HLCard(msgspec.Struct):
    suitIndex: int
    rank: int


class HLAction(msgspec.Struct, omit_defaults=False):
    type: int
    target: int
    value: int = 0


class HLOptions(msgspec.Struct, omit_defaults=True):
    variant: str = NO_VARIANT
    startingPlayer: int = 0
    emptyClues: bool = False
    oneExtraCard: bool = False
    oneLessCard: bool = False
    allOrNothing: bool = False
    detrimentalCharacters: bool = False
    deckPlays: bool = False


class HLGame(msgspec.Struct, omit_defaults=True):
    players: list[str]
    deck: list[HLCard]
    actions: list[HLAction]
    options: HLOptions | None = None
    id: Annotated[int, msgspec.Meta(ge=0, le=MAX_ID)] | None = None  # JSON-safe integers
    seed: Annotated[str, msgspec.Meta(max_length=200)] | None = None


_decoder = msgspec.json.Decoder(HLGame)
_encoder = msgspec.json.Encoder()


Refused = ImportRefused


def parse(data: bytes) -> HLGame:
    """Typed decode of a hanab.live export; Refused("format") names the bad field."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError as exc:
        said = say("hanabi.import-not-a-game", "not a hanab.live game: {why}", why=str(exc))
        raise Refused("format", said) from None
    except RecursionError:
        said = say("hanabi.import-too-deep", "not a hanab.live game: JSON nested too deeply")
        raise Refused("format", said) from None


def fingerprint(game: HLGame) -> str:
    """Identifies a game by its players, first seat, deck and actions (to skip re-imports of
    a file without an id; the same deal played by other people is another game)."""
    global _fingerprinted
    # an import asks twice, for the game's keys and for its setup (a parsed game is never
    # changed, so the last one's answer stands)
    last = _fingerprinted
    if last[0] is game:
        return last[1]
    first = game.options.startingPlayer if game.options else 0
    body = _encoder.encode(
        [
            game.players,
            first,
            [(c.suitIndex, c.rank) for c in game.deck],
            [(a.type, a.target, a.value if a.type > DISCARD else 0) for a in game.actions],
        ]
    )
    _fingerprinted = (game, hashlib.sha256(body).hexdigest()[:32])
    return _fingerprinted[1]


_fingerprinted: tuple[HLGame | None, str] = (None, "")  # the last game, and its fingerprint


def to_game(
    source: HLGame, file: str = "", play_on: bool = False, *, reference: bool = False
) -> Game:
    """A gametape Hanabi game from a hanab.live game, validated action by action.

    hanab.live ends a game once the best score still reachable is reached, or once nothing
    that could still be played is left in a hand with a turn to come. Moves a file records
    past that end (a tool that plays on wrote them: DeepMind's Hanabi Learning Environment,
    two AH2AC2 files) are left out, the setup's ``meta.left_out`` counting them; with
    ``play_on`` the end rules are off and every move is kept.
    Raises Refused for another variant, a rule-changing option, or an illegal action
    (naming the action's index and the rule it breaks).

    A game is first folded at once (``_at_once``); one that does not fold so, and every game
    with ``reference``, goes action by action through ``Game.push``, which is the definition
    (and names a refused action). The game returned keeps every state only then.
    """
    opts = source.options or HLOptions()
    if opts.variant != NO_VARIANT:
        try:
            variant(opts.variant)
        except UnknownVariant as exc:
            raise Refused("variant", str(exc)) from None
    changed = [o for o in RULE_OPTIONS if getattr(opts, o)]
    if changed:
        said = say("hanabi.import-option", "option {option} changes the rules; not supported",
                   option=repr(changed[0]))  # fmt: skip
        raise Refused("variant", said)
    meta: dict[str, Any] = {
        "source": "hanab.live",
        "file": file,
        "fingerprint": fingerprint(source),
    }
    if source.id is not None:
        meta["hanablive_id"] = source.id
    if source.seed is not None:
        meta["hanablive_seed"] = source.seed
    setup = HanabiSetup(
        players=tuple(source.players),
        deck=tuple(Face(c.suitIndex, c.rank) for c in source.deck),
        options=HanabiOptions(
            starting_seat=opts.startingPlayer,
            end_at_max_score=not play_on,
            end_when_nothing_playable=not play_on,
            variant=opts.variant,
            empty_clues=opts.emptyClues,
            one_extra_card=opts.oneExtraCard,
            one_less_card=opts.oneLessCard,
        ),
        meta=meta,
    )
    if not reference and not opts.deckPlays:
        quick = _at_once(setup, source.actions)
        if quick is not None:
            return quick
    try:
        game = Game.new(setup)
    except IllegalEvent as v:
        said = say("hanabi.import-setup", "the setup: {why}", why=str(v.violation))
        raise Refused("illegal", said) from None
    for index, action in enumerate(source.actions):
        if game.is_over and not play_on:
            after = [a for a in source.actions[index:] if a.type in MOVES]
            if after:  # moves past hanab.live's own end: it would have refused them
                return _left_out(game, len(after))
        if (
            opts.deckPlays
            and action.type == PLAY
            and not game.is_over
            and action.target == game.state.next_card
            and action.target not in game.state.hands[game.state.current]
        ):
            said = say(
                "hanabi.import-deck-plays",
                "action {index} plays from the deck, which "
                "only the option 'deckPlays' allows; not supported",
                index=index,
            )
            raise Refused("variant", said)
        try:
            event = _event(game, action)
            if event is None:  # a game-over record the rules derive themselves
                _check_end(game, action)
                continue
            game.push(event)
        except RuleViolation as v:
            why = say("hanabi.import-action", "action {index} ({action}): {why}", index=index,
                      action=_describe(action), why=str(v))  # fmt: skip
            raise Refused("illegal", why) from None
    return game


MOVES = (PLAY, DISCARD, COLOUR_CLUE, RANK_CLUE)


def _left_out(game: Game, count: int) -> Game:
    """The game as hanab.live ended it, its setup noting the ``count`` moves of the file
    past that end (a tool that plays on wrote them; ``play_on`` keeps them)."""
    setup = msgspec.structs.replace(game.setup, meta={**game.setup.meta, "left_out": count})
    return Game(Fold(ruleset_for(setup), setup, keep=False).extend(game.events[1:]))


def _at_once(setup: HanabiSetup, actions: Sequence[HLAction]) -> Game | None:
    """The game with its events made from the turn order alone (in Hanabi every move passes
    the turn to the next seat) and folded in one pass without a state kept per action; None
    where that cannot be (a game-over or vote record before the last action, an unknown
    type) or the rules refuse anything, so that the action-by-action fold says why."""
    n, seat = len(setup.players), setup.options.starting_seat
    events: list[Event] = []
    end: HLAction | None = None
    last = len(actions) - 1
    for index, action in enumerate(actions):
        t = action.type
        if t == PLAY:
            events.append(HanabiPlay(player=seat, card=action.target))
        elif t == DISCARD:
            events.append(HanabiDiscard(player=seat, card=action.target))
        elif t == COLOUR_CLUE:
            events.append(HanabiClue(player=seat, target=action.target, suit=action.value))
        elif t == RANK_CLUE:
            events.append(HanabiClue(player=seat, target=action.target, rank=action.value))
        elif index != last or t not in (GAME_OVER, VOTE_END):
            return None
        elif t == VOTE_END:
            events.append(Abandon(player=None, reason=STOPPED[10]))
        elif action.value in STOPPED:
            events.append(Abandon(player=action.target, reason=STOPPED[action.value]))
        else:
            end = action
        seat = (seat + 1) % n
    try:
        game = Game(Fold(ruleset_for(setup), setup, keep=False).extend(events))
        if end is not None:
            _check_end(game, end)
    except (IllegalEvent, RuleViolation):
        return None
    return game


def _event(game: Game, action: HLAction) -> Event | None:
    seat = game.state.current
    t = action.type
    if t == PLAY:
        return HanabiPlay(player=seat, card=action.target)
    if t == DISCARD:
        return HanabiDiscard(player=seat, card=action.target)
    if t == COLOUR_CLUE:
        return HanabiClue(player=seat, target=action.target, suit=action.value)
    if t == RANK_CLUE:
        return HanabiClue(player=seat, target=action.target, rank=action.value)
    if t == VOTE_END:
        return Abandon(player=None, reason=STOPPED[10])
    if t == GAME_OVER:
        if action.value in STOPPED:
            return Abandon(player=action.target, reason=STOPPED[action.value])
        return None
    raise RuleViolation(
        say("hanabi.hanablive-action", "unknown action type {type}", type=t),
        say("hanabi.rule.hanablive-actions", "hanab.live action types are 0-5"),
    )


def _check_end(game: Game, action: HLAction) -> None:
    """A recorded normal or strikeout end must be what the rules reached."""
    expected = DERIVED.get(action.value)
    outcome = game.result().outcome if game.is_over else None  # type: ignore[union-attr]
    if expected is None or outcome != expected:
        raise RuleViolation(
            say(
                "hanabi.hanablive-ended",
                "the file says the game ended (end condition {condition}) but by the rules it "
                "ended {outcome}",
                condition=action.value,
                outcome=outcome,
            )
            if outcome
            else say(
                "hanabi.hanablive-goes-on",
                "the file says the game ended (end condition {condition}) but by the rules it "
                "goes on",
                condition=action.value,
            ),
            say(
                "hanabi.rule.hanablive-end", "what a log observed must match what the rules derive"
            ),
        )


def _describe(action: HLAction) -> str:
    names = {
        PLAY: "play",
        DISCARD: "discard",
        COLOUR_CLUE: "colour clue",
        RANK_CLUE: "rank clue",
        GAME_OVER: "game over",
        VOTE_END: "vote to end",
    }
    return f"{names.get(action.type, f'type {action.type}')} {action.target}/{action.value}"


def from_events(events: Sequence[Event]) -> dict[str, Any]:
    """The hanab.live JSON (as data) for a Hanabi game's events."""
    setup = events[0]
    if not isinstance(setup, HanabiSetup):
        raise ExportError("only Hanabi games export to hanab.live")
    options = setup.options
    if options.variant == NO_VARIANT and (
        options.copies != DEFAULT_COPIES or len(options.suits) != 5
    ):
        raise ExportError(
            "a deck of other suits or copies is no hanab.live variant; only the standard "
            "50-card, 5-suit deck exports as 'No Variant'"
        )
    if any(f is None for f in setup.deck):
        raise ExportError("the deck order is not fully known, and hanab.live needs it")
    actions: list[dict[str, int]] = []
    reverse = {v: k for k, v in STOPPED.items()}
    for event in (events[s] for s in live_seqs(events)):
        if isinstance(event, HanabiPlay | HanabiDiscard):
            kind = PLAY if isinstance(event, HanabiPlay) else DISCARD
            actions.append({"type": kind, "target": event.card, "value": 0})
        elif isinstance(event, HanabiClue):
            if event.suit is not None:
                actions.append({"type": COLOUR_CLUE, "target": event.target, "value": event.suit})
            else:
                actions.append({"type": RANK_CLUE, "target": event.target, "value": event.rank})  # type: ignore[dict-item]
        elif isinstance(event, Abandon):
            actions.append(
                {
                    "type": GAME_OVER,
                    "target": event.player or 0,
                    "value": reverse.get(event.reason, 4),
                }
            )
    out: dict[str, Any] = {}
    if isinstance(setup.meta.get("hanablive_id"), int):
        out["id"] = setup.meta["hanablive_id"]
    out["players"] = list(setup.players)
    out["deck"] = [{"suitIndex": f.suit, "rank": f.rank} for f in setup.deck]  # type: ignore[union-attr]
    out["actions"] = actions
    hl_options: dict[str, Any] = {}
    if options.variant != NO_VARIANT:
        hl_options["variant"] = options.variant
    if options.starting_seat:
        hl_options["startingPlayer"] = options.starting_seat
    for theirs, ours in PLAYED_OPTIONS.items():
        if getattr(options, ours):
            hl_options[theirs] = True
    if hl_options:
        out["options"] = hl_options
    if setup.meta.get("hanablive_seed"):
        out["seed"] = setup.meta["hanablive_seed"]
    return out


def hanablive_end(events: Sequence[Event]) -> int | None:
    """The seq at which hanab.live would have ended this game, if before its last event.

    hanab.live always ends a game once the best score still reachable is reached, and once
    the deck is out with nothing playable left in a hand with a turn to come; a game recorded
    without ``end_at_max_score`` and ``end_when_nothing_playable`` may go on past that point.
    """
    setup = events[0]
    assert isinstance(setup, HanabiSetup)
    opts = msgspec.structs.replace(
        setup.options, end_at_max_score=True, end_when_nothing_playable=True
    )
    game = Game.new(msgspec.structs.replace(setup, options=opts))
    live = live_seqs(events)
    for seq in live:
        game.push(events[seq])
        if game.is_over and seq < live[-1]:
            return seq
    return None


def same_game(a: HLGame, b: HLGame) -> bool:
    """Same players, deck and actions (a play's or discard's unused ``value`` ignored)."""
    return a.players == b.players and fingerprint(a) == fingerprint(b)


def read(path: Path) -> HLGame:
    return parse(path.read_bytes())


def _looks_like_a_game(data: bytes) -> bool:
    """For files found in a directory: a JSON object with ``players`` and ``deck``."""
    try:
        obj = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return True  # let the import report what is wrong with it
    return isinstance(obj, dict) and "players" in obj and "deck" in obj


def _id_key(hanablive_id: object) -> str:
    return f"hanab.live game {hanablive_id}"


def _print_key(fingerprint: object) -> str:
    return f"the same players, deck and actions ({str(fingerprint)[:12]})"


class HanabliveFormat:
    """hanab.live's JSON game export (every variant gametape plays), for `gametape import
    hanablive`."""

    name = "hanablive"
    description = "hanab.live game"
    suffix = "json"

    def __repr__(self) -> str:
        return "<Format hanablive>"

    def parse(self, data: bytes) -> HLGame:
        return parse(data)

    def looks_like(self, data: bytes) -> bool:
        return _looks_like_a_game(data)

    def keys(self, source: HLGame) -> set[str]:
        keys = {_print_key(fingerprint(source))}
        if source.id is not None:
            keys.add(_id_key(source.id))
        return keys

    def setup_keys(self, setup: Setup) -> set[str]:
        if setup.meta.get("source") != "hanab.live":
            return set()
        keys = set()
        if isinstance(setup.meta.get("hanablive_id"), int):
            keys.add(_id_key(setup.meta["hanablive_id"]))
        if isinstance(setup.meta.get("fingerprint"), str):
            keys.add(_print_key(setup.meta["fingerprint"]))
        return keys

    options_help: ClassVar[dict[str, str]] = {
        "play_on": "true: keep the moves a source played past hanab.live's end (DeepMind's "
        "HLE plays on); without it they are left out, and counted"
    }

    def to_game(self, source: HLGame, file: str, options: Mapping[str, str]) -> Game:
        unknown = set(options) - set(self.options_help)
        if unknown:
            raise UsageError(
                f"unknown import option {sorted(unknown)[0]!r}; options: "
                f"{', '.join(self.options_help)}"
            )
        play_on = options.get("play_on", "false").lower()
        if play_on not in ("true", "false"):
            raise UsageError(f"option play_on: {play_on!r} is not true or false")
        return to_game(source, file, play_on=play_on == "true")

    def facts(self, game: Game) -> dict[str, Any]:
        """The fireworks sum, and the moves past hanab.live's end left out (if any)."""
        left = game.setup.meta.get("left_out")
        facts: dict[str, Any] = {"fireworks_sum": game.state.fireworks_sum}
        if isinstance(left, int) and left:
            facts["moves_past_the_end_left_out"] = left
        return facts

    def export(self, events: Sequence[Event]) -> tuple[bytes, list[str]]:
        import json

        data = from_events(events)
        end = hanablive_end(events)
        warnings = []
        if end is not None:
            ends = say("hanabi.export-ends", "hanab.live would have ended this game at seq {seq} "
                       "(the best score still reachable); it will refuse the moves after it",
                       seq=end)  # fmt: skip
            warnings.append(render(ends))
        return (json.dumps(data, indent=1) + "\n").encode(), warnings


HANABLIVE = HanabliveFormat()
