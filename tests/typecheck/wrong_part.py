"""A fixture plug-in with one part deliberately wrong: its ``to_act`` says who acts as a name,
where the contract says a tuple of seats. ``mypy`` must refuse it (tests/test_plugins.py);
it is never imported."""

from __future__ import annotations

import msgspec

from gametape.engine.ruleset import Ruleset


class State(msgspec.Struct, frozen=True):
    turn: int


def to_act(state: State) -> str:
    return "ann"


class Wrong(Ruleset[State]):
    name = "wrong"
    to_act = staticmethod(to_act)
