"""Board renderers, one per ruleset, each drawing that ruleset's view with rich."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType

from gametape.cli.boards.hanabi import render as _hanabi
from gametape.cli.boards.hanamikoji import render as _hanamikoji
from gametape.cli.boards.ohanami import render as _ohanami

BOARDS: dict[str, Callable[[Any, str], RenderableType]] = {
    "hanabi": _hanabi,
    "hanamikoji": _hanamikoji,
    "ohanami": _ohanami,
}


def render_board(view: Any, title: str) -> RenderableType:
    """Draw a ruleset's view; ``title`` heads it (game id, position)."""
    return BOARDS[view.ruleset](view, title)
