def held(lines: list[bytes], /) -> int:
    """How many leading lines of a log carry their chain hash (chainloop.held_py)."""
