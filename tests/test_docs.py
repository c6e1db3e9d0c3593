"""Docs that run: every ```console block in the README and docs/*.md is executed as printed.

Each block runs as a reader would run it: in a fresh copy of the repository (the files git
tracks), with a fresh, empty home directory and no gametape settings in the environment, so
the default store is `~/.local/share/gametape` of that home. Nothing else is prepared.

In a block, a line starting with `$ ` is a command and the lines after it, up to the next
command, are what it prints:
- the shown lines are exactly the lines it prints (stdout and stderr as a terminal shows
  them, trailing spaces aside), in order, with the home directory written `~`;
- a line holding only `…` stands for any number of printed lines (none included): the one
  documented way to leave lines out;
- a command shown with no lines after it is run, and only its exit status is checked;
- a command fails (exit status other than 0) exactly when a shown line starts with `error:`
  (or with its words in another language: `hiba:`, `خطا:`).

Commands are `gametape …`, `printf '…' | gametape …` (the printf text is its standard input)
and `export NAME=VALUE` (set for the rest of the block; `~` is the home directory). A command
marked `# interactive` needs a terminal and is not run. A block naming the PostgreSQL store
`postgresql://gametape@localhost:5432/club` runs on a fresh database of a real server.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)
ELIDED = "…"
SETTINGS = ("GAMETAPE_STORE", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")


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
    for _, shown in out:  # blank lines between commands separate them; they show nothing
        while shown and not shown[-1]:
            shown.pop()
    return out


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is exactly ``shown``, where a ``…`` line stands for any lines."""
    if not shown:
        return not printed
    if shown[0] == ELIDED:
        return any(matches(shown[1:], printed[i:]) for i in range(len(printed) + 1))
    return bool(printed) and printed[0] == shown[0] and matches(shown[1:], printed[1:])


def repository_copy(into: Path) -> Path:
    """The files a reader who cloned the repository has (git's tracked files)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=False
    ).stdout
    files = [f for f in listed.decode().split("\0") if f] if listed else []
    if not files:  # not a git checkout: the files the docs can name
        files = [str(p.relative_to(ROOT)) for p in (ROOT / "examples").rglob("*") if p.is_file()]
    for name in files:
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    return into


def _argv(command: str, env: dict[str, str], home: Path) -> tuple[list[str], str | None] | None:
    """The gametape arguments and any standard input; None for a command not to run (or
    one that only set a variable)."""
    if "# interactive" in command:
        return None
    if command.startswith("export "):
        name, _, value = command[len("export ") :].partition("=")
        value = shlex.split(value, comments=True)[0]
        env[name] = str(home) + value[1:] if value.startswith("~") else value
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


# A PostgreSQL store in the docs is this URL; the test gives each block a fresh database on a
# real server (tests/conftest.py) and reads the real URL in output back as this one.
DOC_URL = "postgresql://gametape@localhost:5432/club"


def run_block(
    block: str, tmp: Path, monkeypatch: pytest.MonkeyPatch, pg_url: str | None = None
) -> None:
    home = tmp / "home"
    home.mkdir()
    work = repository_copy(tmp / "gametape")
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(home))
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    env: dict[str, str] = {"COLUMNS": "80"}
    runner = CliRunner()
    for command, shown in steps(block):
        parsed = _argv(command, env, home)
        if parsed is None:
            continue
        argv, stdin = parsed
        if pg_url is not None:
            argv = [word.replace(DOC_URL, pg_url) for word in argv]
            env = {k: v.replace(DOC_URL, pg_url) for k, v in env.items()}
        result = runner.invoke(app, argv, input=stdin, env=env)
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            command,
            result.exception,
        )
        output = result.output.replace(str(home), "~")
        if pg_url is not None:
            output = output.replace(pg_url, DOC_URL)
        fails = any(line.startswith(("error:", "hiba:", "خطا:")) for line in shown)
        assert (result.exit_code != 0) == fails, (command, result.exit_code, output)
        if shown:
            printed = [line.rstrip() for line in output.splitlines()]
            assert matches(shown, printed), (
                f"{command!r} printed:\n"
                + "\n".join(printed)
                + "\n\nthe doc shows:\n"
                + "\n".join(shown)
            )


CASES = [(path, i) for path in DOCS for i in range(len(blocks(path)))]


@pytest.mark.parametrize(
    ("path", "index"), CASES, ids=[f"{p.relative_to(ROOT)}#{i}" for p, i in CASES]
)
def test_console_blocks_run_as_shown(
    path: Path,
    index: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    block = blocks(path)[index]
    pg_url = request.getfixturevalue("pg_url") if DOC_URL in block else None
    run_block(block, tmp_path, monkeypatch, pg_url)


def test_the_readme_tour_is_run():
    """The tour and the recording example are console blocks, so they are checked."""
    assert len(blocks(ROOT / "README.md")) >= 2


def test_a_wrong_or_missing_line_fails(tmp_path, monkeypatch):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    with pytest.raises(AssertionError):
        run_block("$ gametape --version\ngametape 9.9.9\n", tmp_path / "a", monkeypatch)
    with pytest.raises(AssertionError):  # a line printed but not shown, and not elided
        run_block("$ gametape games\n…\nhanabi\n", tmp_path / "b", monkeypatch)


def test_elision_and_exactness():
    assert matches(["a", ELIDED, "d"], ["a", "b", "c", "d"])
    assert matches(["a", ELIDED], ["a"])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["a"], ["a", "b"])


def test_the_tour_leaves_the_readers_own_store_alone(tmp_path, monkeypatch):
    """The README's tour, which simulates 100 bot games, keeps them in a store of its own
    (its first command says so), never in the reader's default store."""
    (tour,) = [b for b in blocks(ROOT / "README.md") if "gametape simulate" in b]
    assert steps(tour)[0][0].startswith("export GAMETAPE_STORE=")
    run_block(tour, tmp_path, monkeypatch)
    assert not (tmp_path / "home" / ".local" / "share" / "gametape").exists()
    assert list((tmp_path / "home").glob("*/*.jsonl"))


if __name__ == "__main__":  # print every block's real transcript (for writing docs)
    import sys
    import tempfile

    for path in DOCS if len(sys.argv) < 2 else [Path(a).resolve() for a in sys.argv[1:]]:
        for i, block in enumerate(blocks(path)):
            print(f"=== {path.relative_to(ROOT)}#{i}")
            with tempfile.TemporaryDirectory() as d:
                home = Path(d) / "home"
                home.mkdir()
                work = repository_copy(Path(d) / "gametape")
                os.chdir(work)
                os.environ["HOME"] = str(home)
                for name in SETTINGS:
                    os.environ.pop(name, None)
                env = {"COLUMNS": "80"}
                for command, _ in steps(block):
                    print(f"$ {command}")
                    parsed = _argv(command, env, home)
                    if parsed is None:
                        continue
                    result = CliRunner().invoke(app, parsed[0], input=parsed[1], env=env)
                    print(
                        "\n".join(
                            line.rstrip()
                            for line in result.output.replace(str(home), "~").splitlines()
                        )
                    )
