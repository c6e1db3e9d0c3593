"""Front-ends render a move's data and never read its words (#51): the code that turns a
seat's moves into buttons and pickers (usecases/position.py) builds no sentence and neither
splits, matches nor rewrites move text, and nor does the pages' move handling (web/pages.py);
they read forms, values and messages the game gives."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gametape"
TEXT_WORK = {
    "split", "rsplit", "splitlines", "partition", "rpartition", "startswith", "endswith",
    "replace", "casefold", "lower", "upper", "title", "capitalize", "swapcase", "isupper",
    "islower", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix", "find", "index",
    "format",
}  # fmt: skip
# the functions that handle a seat's moves: every one of position.py's, and the pages'
MOVES = {
    "usecases/position.py": None,  # the whole module
    "web/pages.py": {
        "examples", "gloss", "live_part", "groups", "tappable", "button_rows", "kept", "move",
        "state_json",
    },
}  # fmt: skip


def _functions(path: str, names: set[str] | None) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse((ROOT / path).read_text())
    found = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        and (names is None or n.name in names)
    ]
    if names is not None:
        assert {f.name for f in found} == names, "a function named here is gone: update MOVES"
    return found


def _text_work(function: ast.AST, sentences: bool = True) -> list[str]:
    """Where ``function`` reads or rewrites text: a str method that splits, matches or
    changes it, a regular expression, or (``sentences``) a sentence built with an
    f-string."""
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in TEXT_WORK and not _is_collection(node.func.value):
                found.append(f"line {node.lineno}: .{node.func.attr}()")
            if isinstance(node.func.value, ast.Name) and node.func.value.id == "re":
                found.append(f"line {node.lineno}: re.{node.func.attr}()")
        if sentences and isinstance(node, ast.JoinedStr):
            found.append(f"line {node.lineno}: an f-string")
    return found


def _is_collection(node: ast.AST) -> bool:
    """A call on something that is not text: ``fields.get`` is a dict's, ``words.index`` a
    tuple's (names the code gives its lists and dicts)."""
    if isinstance(node, ast.Attribute):  # msgspec.structs.replace: a value's, not text's
        return ast.unparse(node) == "msgspec.structs"
    return isinstance(node, ast.Name) and node.id in {"fields", "words", "choices", "glossed"}


@pytest.mark.parametrize("path", sorted(MOVES))
def test_front_ends_never_read_a_move_s_words(path):
    found = [
        f"{path} {f.name}(), {where}"
        for f in _functions(path, MOVES[path])
        for where in _text_work(f, sentences=path.startswith("usecases"))
    ]
    assert not found, found


def test_the_check_finds_what_the_code_used_to_do():
    """The old position.py stripped a seat's own name from a move's words and took labels
    from the upper-case words of a form: the check would have refused both."""
    old = ast.parse(
        "def _own(text, name):\n"
        "    words = text.split()\n"
        "    if words[1].casefold() == name.casefold():\n"
        "        return ' '.join([words[0], *words[2:]])\n"
        "def labels(f):\n"
        "    return tuple(w.lower() if w.isupper() else '' for w in f.shown.split())\n"
        "def said(name):\n"
        "    return f'pick {name}'\n"
    )
    found = [w for f in old.body for w in _text_work(f)]
    assert len(found) == 7, found
