"""Games are plug-ins, found through the ``gametape.games`` entry-point group.

An entry names either one game or a package of games::

    [project.entry-points."gametape.games"]
    mygame = "mygame:RULESET"        # one game; the entry's name is the game's name
    builtin = "gametape.games"       # every sub-package is a game with a RULESET

A sub-package's game name is its module name with ``_`` read as ``-``
(``hanamikoji_classic`` is the game ``hanamikoji-classic``). Nothing is imported until a game
is used, so a command reading one log imports that log's game alone. This module knows no game.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from gametape.errors import UnknownGame

GROUP = "gametape.games"

_loaded: dict[str, Any] = {}


@cache
def _catalogue() -> dict[str, str]:
    """Game name → "module:attribute" to load it from, without importing any game."""
    found: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        if ep.attr:
            found.setdefault(ep.name, ep.value)
            continue
        spec = importlib.util.find_spec(ep.module)
        locations = spec.submodule_search_locations if spec else None
        for module in pkgutil.iter_modules(locations or []):
            if module.ispkg:
                found.setdefault(
                    module.name.replace("_", "-"), f"{ep.module}.{module.name}:RULESET"
                )
    return found


def names() -> list[str]:
    """Every installed game's name, sorted."""
    return sorted({*_catalogue(), *_loaded})


def load(name: str) -> Any:
    """The plug-in object of the game ``name`` (imported on first use); UnknownGame if none."""
    try:
        return _loaded[name]
    except KeyError:
        pass
    where = _catalogue().get(name)
    if where is None:
        raise UnknownGame(f"unknown game {name!r}; installed: {', '.join(names()) or 'none'}")
    module, _, attr = where.partition(":")
    obj = getattr(importlib.import_module(module), attr)
    _loaded[name] = obj
    return obj
