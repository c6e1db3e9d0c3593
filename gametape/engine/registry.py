"""Which rulesets exist, found by name or by their setup event."""

from __future__ import annotations

from typing import Any

from gametape.engine.hanabi import HANABI
from gametape.engine.hanamikoji import HANAMIKOJI
from gametape.engine.ohanami import OHANAMI
from gametape.engine.ruleset import Ruleset
from gametape.events.base import Setup

RULESETS: dict[str, Ruleset[Any]] = {r.name: r for r in (HANABI, HANAMIKOJI, OHANAMI)}
_BY_SETUP: dict[type[Setup], Ruleset[Any]] = {r.setup_type: r for r in RULESETS.values()}


def get_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset called ``name``; KeyError names the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(RULESETS))}") from None


def ruleset_for(setup: Setup) -> Ruleset[Any]:
    return _BY_SETUP[type(setup)]
