"""Other tools' file formats, as a game offers them (``Ruleset.formats()``).

A format turns a file into a game of its own tool's kind, validated move by move, and a game
back into a file. The importer (``gametape.usecases.importing``) and the CLI use only this
protocol; each game's package holds its formats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from gametape.errors import GametapeError, UsageError
from gametape.events.base import Event, Setup
from gametape.messages import Message

if TYPE_CHECKING:
    from gametape.engine.game import Game


class ImportRefused(GametapeError):
    """A file that cannot be imported; ``kind`` is ``variant``, ``format`` or ``illegal``."""

    def __init__(self, kind: str, message: str | Message) -> None:
        super().__init__(message)
        self.kind = kind


class ExportError(UsageError):
    """A game that this format cannot hold (another deck, an unknown card, ...)."""


class Format(Protocol):
    """One file format of another tool."""

    name: str  # as typed in `gametape import NAME` and `export --format NAME`
    description: str
    suffix: str  # of an exported file's name: "json"

    def parse(self, data: bytes) -> Any:
        """The file's content, typed; ImportRefused("format") names what is wrong."""
        ...

    def looks_like(self, data: bytes) -> bool:
        """For files found in a directory: whether this is meant to be such a file."""
        ...

    def keys(self, source: Any) -> set[str]:
        """Identities of a parsed file (an id, a fingerprint), to skip re-imports."""
        ...

    def setup_keys(self, setup: Setup) -> set[str]:
        """The same identities, read back from a setup this format imported."""
        ...

    @property
    def options_help(self) -> Mapping[str, str]:
        """Import options (`-o key=value`) and what they mean."""
        ...

    def to_game(self, source: Any, file: str, options: Mapping[str, str]) -> Game:
        """The game, validated move by move; ImportRefused names the move and rule; a bad
        option is a UsageError."""
        ...

    def facts(self, game: Game) -> dict[str, Any]:
        """A few facts the import summary prints (e.g. the fireworks sum)."""
        ...

    def export(self, events: Sequence[Event]) -> tuple[bytes, list[str]]:
        """The file for a game's events, and warnings for the user; ExportError if the
        game cannot be written in this format."""
        ...
