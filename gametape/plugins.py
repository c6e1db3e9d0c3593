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
import os
import pkgutil
import sys
from functools import cache
from pathlib import Path
from typing import Any

from gametape.errors import UnknownGame

GROUP = "gametape.games"

_loaded: dict[str, Any] = {}


def entry_points(group: str) -> list[tuple[str, str]]:
    """(name, value) of each entry point in ``group``, from the installed distributions'
    ``entry_points.txt``: each distribution once, the first found along ``sys.path``, as
    importlib.metadata does. Read directly because importing importlib.metadata costs every
    command about 40 ms of start-up."""
    seen: set[str] = set()
    found: list[tuple[str, str]] = []
    for entry in sys.path:
        try:
            listing = sorted(os.listdir(entry or "."))
        except OSError:  # not a directory (a zip, a missing path)
            continue
        for folder in listing:
            stem, _, kind = folder.rpartition(".")
            if kind not in ("dist-info", "egg-info"):
                continue
            dist = stem.split("-")[0].lower().replace("_", "-").replace(".", "-")
            if dist in seen:
                continue
            seen.add(dist)
            try:
                text = Path(entry or ".", folder, "entry_points.txt").read_text("utf-8")
            except OSError:
                continue
            found += _section(text, group)
    return found


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """The ``name = value`` lines of the ``[group]`` section of an entry_points.txt."""
    entries, inside = [], False
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
        elif inside and "=" in line and not line.startswith(("#", ";")):
            name, _, value = line.partition("=")
            entries.append((name.strip(), value.strip()))
    return entries


@cache
def _catalogue() -> dict[str, str]:
    """Game name → "module:attribute" to load it from, without importing any game."""
    found: dict[str, str] = {}
    for name, value in entry_points(GROUP):
        module, _, attr = (part.strip() for part in value.partition(":"))
        if attr:
            found.setdefault(name, f"{module}:{attr}")
            continue
        spec = importlib.util.find_spec(module)
        locations = spec.submodule_search_locations if spec else None
        for sub in pkgutil.iter_modules(locations or []):
            if sub.ispkg:
                found.setdefault(sub.name.replace("_", "-"), f"{module}.{sub.name}:RULESET")
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
