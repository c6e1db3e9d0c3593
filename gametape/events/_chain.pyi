def held(data: bytes, /) -> int:
    """How many leading lines of a log's bytes carry their chain hash (chainloop.held_py)."""

def sealed(prev: bytes, bodies: list[bytes], /) -> tuple[bytes, str]:
    """Bodies sealed into log lines after the hash ``prev`` (chainloop.sealed_py)."""
