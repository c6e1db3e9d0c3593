"""A log's hash chain in bulk: how many of its leading lines carry their hash (reading),
and lines sealed with theirs (writing).

``held`` and ``sealed`` are the compiled loops (``_chain.c``, built by ``make``/``pip
install``) where they were built, and ``held_py`` and ``sealed_py`` otherwise: the same
functions in Python, which the tests hold equal to them (``GAMETAPE_PURE=1`` takes the
Python ones: gametape.compiled).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from gametape.events.codec import HASH_FIELD, HASH_MARK, MARK_LEN, chain, seal


def held_py(data: bytes) -> int:
    """How many leading lines of a log's bytes carry their chain hash (``codec.chain``) in
    a well-placed hash field: every line when the whole chain holds (a line ends in a
    newline; a torn tail after the last one is none)."""
    lines = data.split(b"\n")[:-1]
    prev = b""
    for number, line in enumerate(lines):
        cut = len(line) - HASH_FIELD
        if cut < 0 or line[cut : cut + MARK_LEN] != HASH_MARK:
            return number
        carried = line[cut + MARK_LEN : -2]
        if chain(prev, line[:cut]) != carried:
            return number
        prev = carried
    return len(lines)


def sealed_py(prev: bytes, bodies: list[bytes]) -> tuple[bytes, str]:
    """Each of ``bodies`` (a line's bytes before its hash field) made a log line with its
    chain hash and a newline, after the line whose hash is ``prev`` (empty for seq 0); the
    lines, and the last hash."""
    out = bytearray()
    for body in bodies:
        line, prev = seal(prev, body)
        out += line
    return bytes(out), prev.decode("ascii")


def _native() -> ModuleType | None:
    try:
        import gametape.events._chain as _chain
    except ImportError:  # not built here, or GAMETAPE_PURE=1
        return None
    return _chain


NATIVE = _native()
held: Callable[[bytes], int] = NATIVE.held if NATIVE else held_py
sealed: Callable[[bytes, list[bytes]], tuple[bytes, str]] = NATIVE.sealed if NATIVE else sealed_py
