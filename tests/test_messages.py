"""Moves described and refused as messages (#51): an id, typed parameters and an English text,
rendered into words. The catalogue is read from the code the way gettext's extraction reads
it (every ``say(ID, TEXT, ...)``), and every message the games give at run time is in it."""

from __future__ import annotations

import ast
import random
import re
import string
from pathlib import Path

import msgspec
import pytest

from gametape.engine import simulate as sim
from gametape.engine.game import describe
from gametape.engine.registry import get_ruleset, names
from gametape.engine.ruleset import RuleViolation
from gametape.errors import GametapeError, NotationError
from gametape.messages import (
    ID,
    At,
    Count,
    Many,
    Message,
    Seat,
    Term,
    count_of,
    locate,
    render,
    say,
    seat_of,
)

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "gametape").rglob("*.py")) + sorted((ROOT / "tests/plugins").glob("*.py"))
REFUSALS = {"RuleViolation", "NotationError", "NotKnown"}


class Said(msgspec.Struct, frozen=True):
    """One ``say`` call in the code: where, its id and text, the names it passes."""

    where: str
    id: str
    text: str
    names: frozenset[str]
    spread: bool  # passes **params: the names are checked when it runs


def _calls() -> list[ast.Call | tuple[str, ast.Call]]:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        where = path.relative_to(ROOT).as_posix()
        found += [(where, n) for n in ast.walk(tree) if isinstance(n, ast.Call)]
    return found


def catalogue() -> list[Said]:
    """Every message the code can say, as gettext's extraction finds them."""
    said = []
    for where, call in _calls():
        if getattr(call.func, "id", None) != "say":
            continue
        at = f"{where}:{call.lineno}"
        id_, text = call.args[:2] if len(call.args) >= 2 else (None, None)
        assert isinstance(id_, ast.Constant) and isinstance(id_.value, str), (
            f"{at}: a message's id is a literal"
        )
        assert isinstance(text, ast.Constant) and isinstance(text.value, str), (
            f"{at}: a message's text is a literal (no f-string: its parts are parameters)"
        )
        said.append(
            Said(
                where=at,
                id=id_.value,
                text=text.value,
                names=frozenset(k.arg for k in call.keywords if k.arg),
                spread=any(k.arg is None for k in call.keywords),
            )
        )
    return said


CATALOGUE = catalogue()
IDS = {s.id: s for s in CATALOGUE}


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_message_in_the_code_is_a_literal_id_and_text_with_its_parameters():
    assert len(IDS) > 300, len(IDS)  # the five games, the framework and the pages
    by_id: dict[str, str] = {}
    for said in CATALOGUE:
        assert ID.fullmatch(said.id), f"{said.where}: {said.id!r} is not game.word"
        assert by_id.setdefault(said.id, said.text) == said.text, (
            f"{said.where}: {said.id} says two things"
        )
        if not said.spread:
            assert _fields(said.text) == said.names, (said.where, said.text, sorted(said.names))
        else:
            assert said.names <= _fields(said.text), said.where


def test_a_game_s_messages_are_its_own():
    """A game module says only its own game's messages (and the framework's shared words)."""
    games = {p.name: p for p in (ROOT / "gametape/games").iterdir() if p.is_dir()}
    for said in CATALOGUE:
        folder = re.match(r"gametape/games/([a-z_]+)/", said.where)
        if folder is None:
            continue
        game = folder.group(1).replace("_", "-")
        assert game.replace("-", "_") in games
        assert said.id.split(".")[0] in (game, "core"), said.where


def test_no_refusal_is_made_of_words():
    """Every refusal (RuleViolation, NotationError, NotKnown) is raised with a message, never
    with a sentence built in place."""
    for where, call in _calls():
        if getattr(call.func, "id", None) in REFUSALS and call.args:
            first = call.args[0]
            assert not isinstance(first, ast.Constant | ast.JoinedStr | ast.BinOp), (
                f"{where}:{call.lineno}: {ast.unparse(first)[:60]}"
            )


def _sample(text: str) -> dict[str, object]:
    """A typed value for each parameter of ``text``: a number where its format wants one."""
    values: dict[str, object] = {}
    for _, field, spec, _ in string.Formatter().parse(text):
        if field:
            values[field] = 3 if spec else Seat(0, "ann")
    return values


@pytest.mark.parametrize("said", CATALOGUE, ids=lambda s: s.where)
def test_every_message_renders(said):
    """Each message of each game renders (with values of its parameters' types), every
    parameter in its place and nothing left of the template."""
    values = _sample(said.text)
    message = say(said.id, said.text, **values)  # type: ignore[arg-type]
    words = render(message)
    left = said.text.replace("{{", "").replace("}}", "")
    assert "{" not in re.sub(r"\{[^{}]*\}", "", left)
    for name, value in values.items():
        assert (str(value) if isinstance(value, int) else "ann") in words, (said.where, name)
    assert msgspec.json.decode(msgspec.json.encode(message), type=Message) == message


def test_parameters_are_typed_and_render_in_one_place():
    players = ("ann", "ben", "cat")
    message = say(
        "t.all",
        "{who} and {others}: {cards}, {clue}, {at}, {n:g}",
        who=seat_of(players, 0),
        others=Many((seat_of(players, 1), seat_of(players, 2)), "and"),
        cards=count_of(3, "card"),
        clue=Term("hanabi.colour", "red"),
        at=At(2),
        n=1.5,
    )
    assert render(message) == "ann and ben and cat: 3 cards, red, 2, 1.5"
    assert render(locate(message, [4, 9])).endswith("red, 9, 1.5")
    assert render(count_of(1, "card")) == "1 card" and Count(2, "fish", "fish")
    with pytest.raises(ValueError, match="named"):
        say("t.bad", "{a}", b=1)


def _messages(param: object) -> list[Message]:
    """A message and every message inside it."""
    if isinstance(param, Message):
        return [param, *(m for p in param.params.values() for m in _messages(p))]
    if isinstance(param, Many):
        return [m for item in param.items for m in _messages(item)]
    return []


@pytest.mark.parametrize("name", names())
def test_what_a_game_says_at_run_time_is_in_the_catalogue(name):
    """Descriptions (as each seat and the onlooker are told them) and refusals of bot games
    in every game: each is a message, and each message in it is one the code declares."""
    rules = get_ruleset(name)
    seen: set[str] = set()
    for seed in range(3):
        n = max(rules.min_players, min(3, rules.max_players))
        game = sim.play(rules, sim.default_players(n), "random", random.Random(seed), seed=seed)
        states = game.fold.states
        for k in range(1, len(game.events)):
            for seat in (None, -1, *range(n)):
                said = describe(rules, game.players, states[k - 1], game.events[k], states[k], seat)
                assert isinstance(said, Message)
                seen |= {m.id for m in _messages(said)}
        for k in range(1, len(game.events), 5):
            for text in ("", "x y z", "play 99", "1 2 3 4 5 6", "clue nobody red"):
                try:
                    game.ruleset.parse_move(states[k - 1], text, None)
                except (NotationError, RuleViolation) as exc:
                    seen |= {m.id for m in _messages(exc.said)}
                except GametapeError:
                    pass
    assert seen and seen <= IDS.keys(), sorted(seen - IDS.keys())


@pytest.mark.parametrize("name", names())
def test_every_word_of_a_description_comes_from_a_message(name):
    """#52's groundwork: rendered in a pseudo-language (every message's text and a game's own
    words accented, text a person typed marked), no description of a bot game holds a plain
    word: each word a reader reads is one a translation can give (move notation and names
    are typed text, and stay as they are)."""
    from gametape.messages import Pseudo

    rules = get_ruleset(name)
    pseudo = Pseudo()
    n = max(rules.min_players, min(3, rules.max_players))
    game = sim.play(rules, sim.default_players(n), "random", random.Random(2), seed=2)
    states = game.fold.states
    for k in range(1, len(game.events)):
        for seat in (None, -1, 0):
            said = describe(rules, game.players, states[k - 1], game.events[k], states[k], seat)
            words = render(said, pseudo)
            left = re.sub(r"⟦[^⟧]*⟧", "", words)
            assert not re.search(r"[A-Za-z]{2,}", left), (words, said.id)
