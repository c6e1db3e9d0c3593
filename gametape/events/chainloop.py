"""A log's hash chain checked in bulk: how many of its leading lines carry their hash.

``held`` is the compiled loop (``_chain.c``, built by ``make``/``pip install``) where it was
built, and ``held_py`` otherwise: the same function in Python, which the tests hold equal to
it (``GAMETAPE_PURE=1`` takes the Python one: gametape.compiled).
"""

from __future__ import annotations

from collections.abc import Callable

from gametape.events.codec import HASH_FIELD, HASH_MARK, MARK_LEN, chain


def held_py(lines: list[bytes]) -> int:
    """How many leading ``lines`` carry their chain hash (``codec.chain``) in a well-placed
    hash field; ``len(lines)`` when the whole chain holds."""
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


def _compiled() -> Callable[[list[bytes]], int] | None:
    try:
        from gametape.events._chain import held as compiled
    except ImportError:
        return None
    return compiled


COMPILED: Callable[[list[bytes]], int] | None = _compiled()
held: Callable[[list[bytes]], int] = COMPILED or held_py
