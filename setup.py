"""The compiled parts of gametape (pyproject.toml holds everything else).

Each is optional: a machine with no C compiler, no OpenSSL headers or no mypyc installs the
pure-Python package, which works the same (``GAMETAPE_PURE=1`` runs it where the compiled
one is built; docs/architecture.md, "Compiled where it pays").
"""

from setuptools import Extension, setup

extensions = [
    # a log's hash chain in one loop (gametape/events/chainloop.py), SHA-256 from OpenSSL
    Extension(
        "gametape.events._chain",
        ["gametape/events/_chain.c"],
        libraries=["crypto"],
        extra_compile_args=["-O2"],
    ),
]
try:
    from mypyc.build import mypycify

    # Hanabi's fold for validation, the card-by-card loops the rules call too, and the
    # tally of its facts for the read model, compiled from their typed source by mypyc
    hanabi = [f"gametape/games/hanabi/{m}.py" for m in ("quick", "cards", "tally")]
    # one shared library for the three (gametape/games/hanabi/native__mypyc.*.so), by a name
    # of its own rather than a digest of theirs, which would leave the old one behind
    # asserts left out: theirs only narrow a type for mypy (an isinstance of a union, per move)
    extensions += mypycify(
        hanabi, opt_level="3", strip_asserts=True, group_name="gametape.games.hanabi.native"
    )
except (ImportError, SystemExit) as exc:  # no mypyc, or it refused: the pure-Python module
    print(f"gametape: mypyc not used ({exc}); the pure-Python modules are")
for extension in extensions:
    extension.optional = True  # a failed build leaves the pure-Python module in use

setup(ext_modules=extensions)
