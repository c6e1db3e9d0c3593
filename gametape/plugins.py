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
import sys
from functools import cache
from pathlib import Path
from typing import Any

from gametape.errors import PluginError, UnknownGame

GROUP = "gametape.games"
BUILTIN = "gametape.games"  # the games shipped with gametape win a clash of names

_loaded: dict[str, Any] = {}
_broken: dict[str, str] = {}  # game name → why it cannot be used (reported, not fatal)


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
    """Game name → "module:attribute" to load it from, without importing any game. The
    built-in games come first, so a plug-in reusing one of their names cannot shadow it; a
    second plug-in of a name already taken is reported (``problems``) and left out."""
    found: dict[str, str] = {}
    entries = sorted(entry_points(GROUP), key=lambda e: e[1].strip() != BUILTIN)
    for name, value in entries:
        module, _, attr = (part.strip() for part in value.partition(":"))
        if attr:
            _register(found, name, f"{module}:{attr}")
            continue
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError) as exc:
            _broken[name] = f"the package {module!r} cannot be found ({exc})"
            continue
        for sub in _packages(spec.submodule_search_locations if spec else None):
            _register(found, sub.replace("_", "-"), f"{module}.{sub}:RULESET")
    return found


def _packages(locations: list[str] | None) -> list[str]:
    """The packages directly inside a package's folders, by name, as pkgutil.iter_modules
    finds them (which imports inspect: a tenth of a command's start-up)."""
    names = []
    for folder in locations or []:
        try:
            entries = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in entries:
            if name.isidentifier() and os.path.isfile(os.path.join(folder, name, "__init__.py")):
                names.append(name)
    return names


def _register(found: dict[str, str], name: str, where: str) -> None:
    if name in found and found[name] != where:
        _broken.setdefault(
            f"{name} ({where})",
            f"another plug-in already names the game {name!r} ({found[name]}); this one is "
            "left out",
        )
        return
    found[name] = where


def names() -> list[str]:
    """Every installed game's name, sorted (a plug-in that failed to load is left out)."""
    return sorted(n for n in {*_catalogue(), *_loaded} if n not in _broken)


def problems() -> dict[str, str]:
    """The plug-ins that cannot be used, by name, and why (each reported once)."""
    _catalogue()
    return dict(_broken)


def load(name: str) -> Any:
    """The plug-in object of the game ``name`` (imported on first use); UnknownGame if none,
    PluginError (naming it) if it fails to import."""
    try:
        return _loaded[name]
    except KeyError:
        pass
    where = _catalogue().get(name)
    if name in _broken:
        raise PluginError(f"the game plug-in {name!r} cannot be used: {_broken[name]}")
    if where is None:
        raise UnknownGame(f"unknown game {name!r}; installed: {', '.join(names()) or 'none'}")
    module, _, attr = where.partition(":")
    try:
        obj = getattr(importlib.import_module(module), attr)
    except Exception as exc:  # a third party's code: any failure is that plug-in's alone
        _broken[name] = f"importing {where} failed: {type(exc).__name__}: {exc}"
        raise PluginError(f"the game plug-in {name!r} cannot be used: {_broken[name]}") from None
    _loaded[name] = obj
    return obj


def refuse(name: str, why: str) -> None:
    """Record that the game ``name`` cannot be used (it broke the contract when checked)."""
    _broken[name] = why
    _loaded.pop(name, None)


def fault(exc: BaseException) -> str | None:
    """If ``exc`` (not a gametape error) was raised inside a game's own code, one line that
    says so: the game, the function of its code the framework called, where it failed and
    what it raised; else None (a fault of gametape's own keeps its traceback)."""
    roots = {
        _root(obj): name
        for name, obj in _loaded.items()
        if _root(obj) not in ("", "gametape", "gametape.games")
    }
    entry = last = None
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        game = next(
            (g for r, g in roots.items() if module == r or module.startswith(r + ".")), None
        )
        if game is not None:
            entry = entry or (game, tb.tb_frame.f_code.co_name)
            last = tb
        tb = tb.tb_next
    if entry is None or last is None:
        return None
    game, called = entry
    where = f"{last.tb_frame.f_code.co_filename}:{last.tb_lineno}"
    return f"the game {game!r} failed in its {called}() ({where}): {type(exc).__name__}: {exc}"


def _root(obj: Any) -> str:
    """The package (or module) a game's code lives in."""
    module = type(obj).__module__
    imported = sys.modules.get(module)
    return module if getattr(imported, "__path__", None) else module.rpartition(".")[0] or module


def _parents(module: str) -> list[str]:
    """``a.b.c``'s packages: ``a.b``, ``a``."""
    parts = module.split(".")
    return [".".join(parts[:k]) for k in range(len(parts) - 1, 0, -1)]


def module_of(name: str) -> str | None:
    """The file of the module the game ``name`` comes from, imported or not (None for no
    such game): where its own files sit beside it (its words' catalogues)."""
    obj = _loaded.get(name)
    if obj is not None:
        return getattr(sys.modules.get(type(obj).__module__), "__file__", None)
    where = _catalogue().get(name)
    if where is None:
        return None
    try:
        spec = importlib.util.find_spec(where.split(":")[0])
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None
