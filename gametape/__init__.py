"""gametape: record card games as append-only event logs; replay, validate and query them."""

import os

__version__ = "0.1.0"

if os.environ.get("GAMETAPE_PURE"):  # the pure-Python build, where a compiled one is built
    from gametape.compiled import use_source

    use_source()
