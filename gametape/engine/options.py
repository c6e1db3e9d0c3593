"""Typed game options (after OpenSpiel's parameter specification).

A game declares its options once, as ``Option``s in ``Ruleset.options``; the framework reads
``key=value`` strings into typed values, refuses an unknown key or a bad value with one line,
and hands the game every declared option (its default where none was given). No game checks
its options by hand, and ``gametape games NAME`` and the server's new-game form list them.

>>> Option("first", int, None, choices=(0, 1), help=say("nim.option-first", "the seat that starts"))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from gametape.errors import GametapeError
from gametape.messages import Message, Param, many, say

_NUMBER = re.compile(r"(0|[1-9][0-9]{0,8})\Z")  # as gametape.engine.moves.number reads
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")


class OptionError(GametapeError):
    """A game option that is unknown or has a bad value (a usage error)."""

    exit_code = 2


class Option(msgspec.Struct, frozen=True):
    """One option: its name, type (``int``, ``str``, ``bool``, or a function reading the text,
    which raises OptionError or ValueError with what is wrong), default (None: the game
    decides, a random draw say), allowed values and a line of help.

    ``bounds``: the lowest and highest a number may be. ``at_table``: a table must say it,
    as it says what the tool would otherwise draw (Nim's pile, counted by hand).

    ``catalogue``: for an option whose values are names from a long list (hanab.live's
    variants), a function listing every name with None, or why the game does not play it;
    `gametape games GAME OPTION` prints it."""

    name: str
    kind: Any = str
    default: Any = None
    choices: tuple[Any, ...] = ()
    help: Message | str = ""  # a message, in the reader's language (a str is shown as is)
    bounds: tuple[int, int] | None = None
    at_table: bool = False
    catalogue: Callable[[], Sequence[tuple[str, str | None]]] | None = None

    @property
    def type_name(self) -> str:
        if self.kind in (int, str, bool):
            return {int: "number", str: "text", bool: "true|false"}[self.kind]
        return "text"

    def describe(self) -> Message:
        """One line for listings: the help, the allowed values and the default."""
        parts: list[Param] = [self.help] if self.help else []
        if self.choices:
            values = many([shown(c) for c in self.choices])
            parts.append(say("core.option-one-of", "one of {values}", values=values))
        elif self.bounds:
            low, high = self.bounds
            parts.append(say("core.option-bounds", "{low} to {high}", low=low, high=high))
        elif self.kind is bool:
            parts.append(say("core.option-bool", "true or false"))
        if self.default is not None:
            default = shown(self.default)
            parts.append(say("core.option-default", "default {value}", value=default))
        return say("core.option-described", "{parts}", parts=many(parts, "; "))

    def read(self, text: str) -> Any:
        """The typed value of ``text``; OptionError says what is wrong with it."""
        value: Any
        text = text.strip()
        if self.kind is bool:
            if text.lower() in TRUE:
                value = True
            elif text.lower() in FALSE:
                value = False
            else:
                raise OptionError(f"option {self.name}: {text!r} is not true or false")
        elif self.kind is int:
            value = int(text) if _NUMBER.match(text) else None
            if value is None:
                raise OptionError(
                    f"option {self.name}: {text!r} is not a whole number (up to 9 digits)"
                )
        elif self.kind is str:
            value = text
        else:
            reader: Callable[[str], Any] = self.kind
            try:
                value = reader(text)
            except ValueError as exc:
                raise OptionError(f"option {self.name}: {exc}") from None
        if self.bounds and not self.bounds[0] <= value <= self.bounds[1]:
            low, high = self.bounds
            raise OptionError(f"option {self.name}: {text!r} is not {low} to {high}")
        if self.choices and value not in self.choices:
            allowed = " or ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {text!r} is not {allowed}")
        return value


def shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def read_options(
    game: str, declared: Sequence[Option], given: Mapping[str, Any], *, table: bool = False
) -> dict[str, Any]:
    """Every declared option, typed: from ``given`` (``key=value`` strings; ``-`` in a key
    reads as ``_``), else its default. A value that is already typed (not a string) is
    kept. OptionError for an unknown key or a bad value, and, for a game dealt at a
    ``table``, for an option it must say (``at_table``) that it left out."""
    by_name = {o.name: o for o in declared}
    values = {o.name: o.default for o in declared}
    for key, text in given.items():
        name = key.strip().replace("-", "_")
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name)
            where = f"{game} options: {known}" if known else f"{game} has no options"
            raise OptionError(f"unknown option {key!r}; {where}")
        values[name] = option.read(text) if isinstance(text, str) else text
    for option in declared:
        if table and option.at_table and values[option.name] is None:
            raise OptionError(f"{game} at a table needs -o {option.name}=...: {option.describe()}")
    return values
