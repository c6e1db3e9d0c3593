"""Rules code: the lines of Hanabi's rules (``rules.py``, the fast path ``quick.py`` and the
loops both call, ``cards.py``), against the count when #55 began (ec1d9fb: ``rules.py`` and
``quick.py``). Aim: no more lines and no more lines of code (without blank lines, comments
and docstrings) than then: speed bought with a second copy of the rules is not bought."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

from bench.common import Figure

HANABI = Path(__file__).resolve().parent.parent / "gametape" / "games" / "hanabi"
FILES = ("rules.py", "quick.py", "cards.py")
LINES_THEN, CODE_THEN = 1208, 1075  # at ec1d9fb


def code_lines(source: str) -> int:
    """Lines holding code: not blank, not only a comment, not in a docstring."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            text = first.value if isinstance(first, ast.Expr) else None
            if isinstance(text, ast.Constant) and isinstance(text.value, str) and first:
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    skipped = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (*skipped, tokenize.ENDMARKER):
            lines.update(range(token.start[0], token.end[0] + 1))
    return len(lines - docstrings)


def run() -> list[Figure]:
    sources = [(HANABI / name).read_text(encoding="utf-8") for name in FILES]
    lines = sum(len(s.splitlines()) for s in sources)
    code = sum(code_lines(s) for s in sources)
    print(f"Hanabi's rules code ({', '.join(FILES)}): {lines:,} lines, {code:,} of code")
    print(f"  when #55 began: {LINES_THEN:,} lines, {CODE_THEN:,} of code")
    return [
        Figure("rules", "Hanabi rules code: lines", lines, LINES_THEN, "at_most"),
        Figure("rules", "Hanabi rules code: lines of code", code, CODE_THEN, "at_most"),
    ]


if __name__ == "__main__":
    run()
