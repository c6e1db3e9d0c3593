"""How stores and games are named: a game's id (made, or typed as a prefix), the store a
``--store`` value or ``$GAMETAPE_STORE`` names, and the error for one that is not there. Both
stores (``store.Store``, ``postgres.PgStore``) name games so; ``stores.open_store`` chooses
between them."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from gametape.errors import UsageError
from gametape.events.base import Setup

ENV_VAR = "GAMETAPE_STORE"
SCHEMES = ("postgresql://", "postgres://")
# Lower-case letters and digits without look-alikes (0/o, 1/l/i): short, readable, file-safe.
ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
ID_LENGTH = 8
ID_REF = re.compile(r"[A-Za-z0-9_-]{1,100}")  # an id, or a prefix of one, as typed


class StoreMissing(UsageError):
    """The store directory does not exist (or is not a directory)."""


def is_url(spec: object) -> bool:
    """Whether ``spec`` (``--store``'s value) names a PostgreSQL store."""
    return isinstance(spec, str) and spec.startswith(SCHEMES)


def default_store() -> Path | str:
    """``$GAMETAPE_STORE`` (a directory, or a ``postgresql://`` URL), else
    ``$XDG_DATA_HOME/gametape``, else ``~/.local/share/gametape``."""
    if os.environ.get(ENV_VAR):
        if is_url(os.environ[ENV_VAR]):
            return os.environ[ENV_VAR]
        return Path(os.environ[ENV_VAR]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "gametape"


def new_game_id(setup: Setup | None = None, attempt: int = 0) -> str:
    """A fresh id: random, or for a setup shuffled from a seed, derived from the game, its
    players and the seed, so seeded examples give the same ids everywhere (docs that run)."""
    seed = None
    if setup is not None:  # a seed, or an import's fingerprint: the same game, the same id
        seed = setup.meta.get("seed", setup.meta.get("fingerprint"))
    if seed is None:
        import secrets  # only where a game is created

        return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
    assert setup is not None
    key = f"{setup.__struct_config__.tag}:{setup.players}:{seed}:{attempt}".encode()
    n = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
    out = []
    for _ in range(ID_LENGTH):
        n, i = divmod(n, len(ID_ALPHABET))
        out.append(ID_ALPHABET[i])
    return "".join(out)
