"""The compiled build (setup.py: the hash chain's loop in C, Hanabi's validation fold by mypyc)
and the pure-Python one (GAMETAPE_PURE=1) give the same answers; a compiled module is never
older than its source. `make test` runs the differential tests on both builds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from gametape import compiled
from gametape.events import chainloop
from gametape.games.hanabi import quick
from tests.test_log import _rechained

PURE = bool(os.environ.get("GAMETAPE_PURE"))
ROOT = Path(__file__).resolve().parents[1]
SETUP = (ROOT / "setup.py").read_text()
# the modules setup.py builds, and the source each is built from
SOURCES = {
    "gametape.events._chain": ROOT / "gametape" / "events" / "_chain.c",
    "gametape.games.hanabi.quick": ROOT / "gametape" / "games" / "hanabi" / "quick.py",
    "gametape.games.hanabi.cards": ROOT / "gametape" / "games" / "hanabi" / "cards.py",
    "gametape.games.hanabi.tally": ROOT / "gametape" / "games" / "hanabi" / "tally.py",
}


def test_every_built_module_has_its_source_and_none_is_stale():
    """A compiled module built before its source last changed would test old code: `make`
    rebuilds it (the compiled modules depend on their sources there)."""
    assert all(f'"{name}' in SETUP or f'"{name.rsplit(".")[-1]}"' in SETUP for name in SOURCES)
    for name, source in SOURCES.items():
        assert source.is_file()
        stem = name.rsplit(".", 1)[1]
        for binary in source.parent.glob(f"{stem}.*.so"):
            assert binary.stat().st_mtime >= source.stat().st_mtime, (
                f"{binary.name} is older than {source.name}: run `make .venv/.compiled`"
            )


def test_the_build_in_use_is_the_one_asked_for():
    """GAMETAPE_PURE=1 loads every module from its Python source; otherwise what is built is
    used (and where nothing is built, the pure modules are, which work the same)."""
    if PURE:
        assert compiled.in_use() == []
        assert chainloop.NATIVE is None and quick.__file__.endswith(".py")
    else:
        built = [n for n, s in SOURCES.items() if any(s.parent.glob(f"{n.rsplit('.')[-1]}.*.so"))]
        assert compiled.in_use() == sorted(built)


def _validate(store: Path, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GAMETAPE_PURE"}
    if pure:
        env["GAMETAPE_PURE"] = "1"
    probe = (
        "import sys; from gametape import compiled; from gametape.cli.app import main\n"
        "try:\n    main()\nfinally:\n    print(compiled.in_use(), file=sys.stderr)\n"
    )
    return subprocess.run(
        [sys.executable, "-c", probe, "--store", str(store), "validate", "--json", "-j", "1"],
        capture_output=True,
        text=True,
        env=env,
    )


def test_validate_answers_byte_for_byte_the_same_on_both_builds(run, tmp_path):
    """Whole games of 2-5 players, a log with a line edited (the chain breaks), one with a
    move the rules refuse and one with a torn last line: `validate --json` prints the same on
    the compiled and the pure build."""
    store = tmp_path / "store"
    for players in (2, 3, 4, 5):
        run("simulate", "hanabi", "--games", "3", "--players", str(players), "--seed", "7")
    logs = sorted(store.glob("*.jsonl"))
    edited, refused, torn = logs[:3]
    lines = edited.read_bytes().split(b"\n")
    lines[5] = lines[5].replace(b'"player":', b'"player": ', 1)
    edited.write_bytes(b"\n".join(lines))
    records = [msgspec.json.decode(line) for line in refused.read_bytes().splitlines()]
    first = next(r for r in records if "card" in r["event"])
    first["event"]["card"] = 99  # a card not in the hand, the chain forged again over it
    refused.write_bytes(_rechained(records))
    with torn.open("ab") as f:
        f.write(b'{"v":1,"seq":')
    pure, built = _validate(store, True), _validate(store, False)
    assert pure.stdout == built.stdout and pure.returncode == built.returncode == 1
    assert pure.stderr.splitlines()[-1] == "[]"
    kinds = {'"kind":"ChainBroken"', '"kind":"IllegalMove"', '"kind":"TornTail"'}
    assert all(kind in pure.stdout.replace(" ", "") for kind in kinds), pure.stdout
    if compiled.in_use():  # this build is compiled: the subprocess ran it so
        assert built.stderr.splitlines()[-1] == str(compiled.in_use())
    elif not PURE:
        pytest.skip("nothing is compiled here (no C compiler, OpenSSL headers or mypyc)")


class _Compiled:
    """Stands for a compiled function: no ``__code__``, a text signature as mypyc gives."""

    __module__ = "somewhere"

    def __init__(self, text: object) -> None:
        self.__text_signature__ = text

    def __call__(self, *args: object) -> None:
        raise AssertionError("never called: only its signature is read")


def test_a_compiled_hook_is_checked_by_its_text_signature_without_inspect(monkeypatch):
    """A hook bound from a compiled module (Hanabi's apply_many) has no code object; its
    parameters are read from its text signature, so no command imports inspect for it."""
    from gametape.engine.ruleset import Ruleset, _check_hook, _text_signature

    assert _text_signature(_Compiled("(state, events, tally=None)")) == (
        ["state", "events", "tally"],
        2,
    )
    for odd in ("(*args)", "($self, /)", "state", None, 3):
        assert _text_signature(_Compiled(odd)) is None
    monkeypatch.setitem(sys.modules, "inspect", None)  # importing it now fails
    _check_hook(Ruleset, "apply_many", _Compiled("(state, events, tally=None)"))
    with pytest.raises(TypeError, match=r"somewhere.apply_many\(state\) does not take"):
        _check_hook(Ruleset, "apply_many", _Compiled("(state)"))
    with pytest.raises(TypeError, match="does not take"):
        _check_hook(Ruleset, "apply_many", _Compiled("(state, events, tally)"))
    if compiled.in_use():
        assert _text_signature(quick.apply_many) == (["state", "events", "tally"], 2)
        _check_hook(Ruleset, "apply_many", quick.apply_many)
