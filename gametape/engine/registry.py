"""Which games are installed: found by name or by their setup event, through the plug-ins."""

from __future__ import annotations

from typing import Any

from gametape import plugins
from gametape.engine import contract
from gametape.engine.ruleset import Ruleset
from gametape.errors import PluginError
from gametape.events.base import Event
from gametape.events.codec import SETUP_SUFFIX

_checked: set[str] = set()
_by_setup: dict[type, Ruleset[Any]] = {}  # the games that passed, by setup class


def get_ruleset(name: str) -> Ruleset[Any]:
    """The installed game called ``name``, its contract checked when first loaded;
    UnknownGame (a usage error) names the others, PluginError says what is wrong with it."""
    rules: Ruleset[Any] = plugins.load(name)
    if name not in _checked:
        found = contract.problems(rules, name)
        if found:
            why = "; ".join(found)
            plugins.refuse(name, why)
            raise PluginError(f"the game plug-in {name!r} cannot be used: {why}")
        _checked.add(name)
    return rules


def ruleset_for(setup: Event) -> Ruleset[Any]:
    """The game a setup event belongs to (by its tag, ``<game>.setup``)."""
    try:
        return _by_setup[type(setup)]  # asked for every game validated or indexed
    except KeyError:
        pass
    tag = str(setup.__struct_config__.tag)
    rules = _by_setup[type(setup)] = get_ruleset(tag[: -len(SETUP_SUFFIX)])
    return rules


def names() -> list[str]:
    """Every installed game's name, without importing any game."""
    return plugins.names()


def all_rulesets() -> list[Ruleset[Any]]:
    """Every installed game that can be used (imports them all). A plug-in that fails to
    import or breaks the contract is left out; ``problems()`` says which and why."""
    usable = []
    for name in names():
        try:
            usable.append(get_ruleset(name))
        except PluginError:
            continue
    return usable


def problems() -> dict[str, str]:
    """The game plug-ins that cannot be used, by name, and why."""
    return plugins.problems()
