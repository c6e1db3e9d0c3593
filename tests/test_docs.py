"""Docs that run: every ```console block in the README and docs/*.md is executed.

In a block, a line starting with `$ ` is a command and the lines after it, up to the next
command, are what it prints. Every printed line shown must appear, in order, in what the
command prints; a command whose shown output starts with `error:` must fail, every other one
must succeed. Commands run in a fresh directory with a fresh store, which is printed as
`~/.local/share/gametape` (the default store's path); games are seeded, so ids reproduce.
`printf '...' | gametape record GAME` feeds the recorder, and a command marked
`# interactive` is not run. A copy of tests/fixtures/hanablive is at `hanablive-games/`.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)
SHOWN_STORE = "~/.local/share/gametape"


def blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text())


def steps(block: str) -> list[tuple[str, list[str]]]:
    """(command, lines it shows) for each `$ ` line of a block."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line.rstrip())
    return out


def _argv(command: str) -> tuple[list[str], str | None] | None:
    """The gametape arguments and any standard input, or None for a command not to run."""
    if "# interactive" in command:
        return None
    stdin = None
    if " | gametape " in command:
        feed, command = command.split(" | ", 1)
        words = shlex.split(feed)
        assert words[0] == "printf", feed
        stdin = words[1].encode().decode("unicode_escape")
    words = shlex.split(command, comments=True)
    assert words and words[0] == "gametape", command
    return words[1:], stdin


def run_block(block: str, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp / "store"
    monkeypatch.chdir(tmp)
    runner = CliRunner()
    for command, shown in steps(block):
        parsed = _argv(command)
        if parsed is None:
            continue
        argv, stdin = parsed
        result = runner.invoke(
            app, argv, input=stdin, env={"GAMETAPE_STORE": str(store), "COLUMNS": "80"}
        )
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            command,
            result.exception,
        )
        printed = [
            line.rstrip() for line in result.output.replace(str(store), SHOWN_STORE).splitlines()
        ]
        fails = any(line.startswith("error:") for line in shown)
        assert (result.exit_code != 0) == fails, (command, result.exit_code, result.output)
        at = 0
        for line in (s for s in shown if s.strip()):
            while at < len(printed) and printed[at] != line:
                at += 1
            assert at < len(printed), f"{command!r} did not print {line!r}:\n{result.output}"
            at += 1


CASES = [(path, i) for path in DOCS for i in range(len(blocks(path)))]


@pytest.mark.parametrize(
    ("path", "index"), CASES, ids=[f"{p.relative_to(ROOT)}#{i}" for p, i in CASES]
)
def test_console_blocks_run_as_shown(
    path: Path, index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(ROOT / "tests" / "fixtures" / "hanablive", tmp_path / "hanablive-games")
    run_block(blocks(path)[index], tmp_path, monkeypatch)


def test_the_readme_tour_is_run():
    """The tour and the recording example are console blocks, so they are checked."""
    assert len(blocks(ROOT / "README.md")) >= 2


def test_a_wrong_output_fails(tmp_path, monkeypatch):
    with pytest.raises(AssertionError):
        run_block("$ gametape --version\ngametape 9.9.9\n", tmp_path, monkeypatch)
