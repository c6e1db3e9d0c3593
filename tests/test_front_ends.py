"""Front-ends render a move's data and never read its words (#51): no module of the use
cases or the server splits, matches or rewrites a move's text (the game reads its notation,
the engine the shared ``undo`` and the recorder's completions), and the code that turns a
seat's moves into buttons and pickers (usecases/position.py) builds no sentence; they read
forms, values and messages the game gives."""

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
# Every module of the use cases and the server is checked; these functions read other text
# than a move's, each named with what it reads.
OTHER_TEXT = {
    "usecases/branches.py": {"branch_problem": "a branch's name"},
    "usecases/browse.py": {"option_values": "an option's names, matched as --match asks"},
    "usecases/copying.py": {
        "_lines": "a log's lines", "_carry": "a store's URL", "copy_store": "a store's URL",
        "_unfit_for_rows": "a PostgreSQL error",
    },
    "usecases/files.py": {"_umask": "/proc's status", "write_whole": "a file's name"},
    "usecases/importing.py": {"files_in": "file names"},
    "usecases/links.py": {"derived": "a link's token", "open_link": "a link's token"},
    "usecases/record.py": {
        "parse_options": "NAME=VALUE options", "split_options": "NAME=VALUE options",
        "shown_as": "a tuple's index, not text",
    },
    "usecases/review.py": {
        "author": "a note's author", "card_key": "a note's card", "add_note": "a note's text",
    },
    "usecases/tables.py": {"review_note": "a note's text"},
    "web/http.py": {"sent_as_json": "a Content-Type header"},
    "web/pages.py": {"start": "a new game's form", "links": "a host's form"},
    "web/reviewing.py": {"review_act": "a note's card"},
}  # fmt: skip
MODULES = sorted(
    p.relative_to(ROOT).as_posix()
    for folder in ("usecases", "web")
    for p in (ROOT / folder).glob("*.py")
)


def _functions(path: str) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse((ROOT / path).read_text())
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


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


@pytest.mark.parametrize("path", MODULES)
def test_front_ends_never_read_a_move_s_words(path):
    """No function of the use cases or the server splits, matches or rewrites text but those
    named in OTHER_TEXT, which read options, notes, links and headers; and position.py, which
    turns a seat's moves into buttons and pickers, builds no sentence."""
    other = OTHER_TEXT.get(path, {})
    functions = _functions(path)
    assert set(other) <= {f.name for f in functions}, "a function named here is gone"
    found = [
        f"{path} {f.name}(), {where}"
        for f in functions
        if f.name not in other
        for where in _text_work(f, sentences=path == "usecases/position.py")
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
