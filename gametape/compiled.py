"""The compiled build: which modules run compiled, and the pure-Python build on demand.

``make`` (``pip install``) compiles a few modules where speed pays (setup.py lists them;
docs/architecture.md, "Compiled where it pays"). Each has its Python source beside it, which
works the same. ``GAMETAPE_PURE=1`` in the environment makes every gametape module load from
its source (``gametape/__init__.py`` calls :func:`use_source`), which is how CI runs the
differential tests on both builds.
"""

from __future__ import annotations

import importlib.machinery as machinery
import sys
from collections.abc import Sequence
from types import ModuleType


class _SourceOnly:
    """A finder that loads gametape's modules from their .py files only."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> machinery.ModuleSpec | None:
        if not name.startswith("gametape.") or path is None:
            return None
        for entry in path:
            finder = machinery.FileFinder(
                entry, (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES)
            )
            spec = finder.find_spec(name, target)
            if spec is not None:
                return spec
        raise ModuleNotFoundError(f"{name} is compiled only; GAMETAPE_PURE=1", name=name)


def use_source() -> None:
    """Load every gametape module imported from now on from its Python source."""
    if not any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())


def in_use() -> list[str]:
    """The gametape modules loaded compiled in this process (those imported so far; not
    mypyc's shared library, which a compiled module loads)."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("gametape.")
        and not name.endswith("__mypyc")
        and isinstance(getattr(module, "__loader__", None), machinery.ExtensionFileLoader)
    )
