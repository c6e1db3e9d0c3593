"""Which games are installed: found by name or by their setup event, through the plug-ins."""

from __future__ import annotations

from typing import Any

from gametape import plugins
from gametape.engine.ruleset import Ruleset
from gametape.errors import UnknownGame
from gametape.events.base import Event
from gametape.events.codec import SETUP_SUFFIX


def get_ruleset(name: str) -> Ruleset[Any]:
    """The installed game called ``name``; UnknownGame (a usage error) names the others."""
    rules = plugins.load(name)
    if not isinstance(rules, Ruleset) or rules.name != name:
        raise UnknownGame(f"the plug-in {name!r} is not a gametape game named {name!r}")
    return rules


def ruleset_for(setup: Event) -> Ruleset[Any]:
    """The game a setup event belongs to (by its tag, ``<game>.setup``)."""
    tag = str(setup.__struct_config__.tag)
    return get_ruleset(tag[: -len(SETUP_SUFFIX)])


def names() -> list[str]:
    """Every installed game's name, without importing any game."""
    return plugins.names()


def all_rulesets() -> list[Ruleset[Any]]:
    """Every installed game (imports them all)."""
    return [get_ruleset(name) for name in names()]
