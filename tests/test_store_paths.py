"""Every way of naming one store behaves exactly like its absolute path (issue: `--store .`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gametape.cli.app import app

COMMANDS = (
    ("index", "--json"),
    ("query", "SELECT game_id, events, status FROM games ORDER BY game_id", "-f", "json"),
    ("stats", "--json"),
    ("validate", "--json"),
    ("show", "GAME", "--json"),
    ("move", "GAME", "clue ben 1", "--json"),
    ("query", "SELECT count(*) AS n, max(seq) AS s FROM events", "-f", "json"),
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("template") / "store"
    result = CliRunner().invoke(app, ["--store", str(root), "simulate", "hanabi", "-n", "3"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(
        app, ["--store", str(root), "new", "hanabi", "-p", "ann,ben", "--seed", "4"]
    )
    assert result.exit_code == 0, result.output
    return root


def _outputs(
    root: Path, form: str, cwd: Path, env_form: bool, game: str, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[int, str]]:
    monkeypatch.chdir(cwd)
    runner = CliRunner()
    results = []
    for cmd in COMMANDS:
        args = [game if a == "GAME" else a for a in cmd]
        if env_form:
            result = runner.invoke(app, args, env={"GAMETAPE_STORE": form})
        else:
            result = runner.invoke(app, ["--store", form, *args], env={"GAMETAPE_STORE": ""})
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            cmd,
            result.output,
        )
        # Paths are printed absolute; make them comparable across copies of the store.
        results.append((result.exit_code, result.stdout.replace(str(root), "STORE")))
    return results


@pytest.mark.parametrize("form", [".", "./", "relative", "symlink", "env-dot"])
def test_every_form_of_the_store_path_acts_like_the_absolute_path(
    form: str, template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref = tmp_path / "ref" / "store"
    shutil.copytree(template, ref)
    listed = CliRunner().invoke(app, ["--store", str(ref), "list", "--json"]).stdout
    game = next(
        r["game"] for r in map(json.loads, listed.splitlines()) if r["status"] == "in_progress"
    )
    expected = _outputs(ref, str(ref), tmp_path, False, game, monkeypatch)
    assert all(code == 0 for code, _ in expected), expected

    copy = tmp_path / "copy" / "store"
    shutil.copytree(template, copy)
    if form in (".", "./", "env-dot"):
        cwd, arg = copy, "." if form != "./" else "./"
    elif form == "relative":
        cwd, arg = copy.parent.parent, os.path.join("copy", "store")
    else:
        link = tmp_path / "link"
        link.symlink_to(copy)
        cwd, arg = tmp_path, str(link)
    got = _outputs(copy, arg, cwd, form == "env-dot", game, monkeypatch)
    assert got == expected


def test_an_error_is_never_a_bare_file_name(
    template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "store"
    shutil.copytree(template, copy)
    monkeypatch.chdir(copy)
    for cmd in (("index",), ("stats",), ("query", "SELECT 1")):
        result = CliRunner().invoke(app, ["--store", ".", *cmd])
        assert result.exit_code == 0, result.output
        first = (result.stderr.strip().splitlines() or [""])[0]
        assert not first.startswith("error:"), first


@pytest.mark.parametrize("odd", ["nl\nstore", "tab\tstore", "esc\x1bstore", "ünï cödé"])
def test_a_store_folder_whose_name_holds_odd_characters_reads_its_logs_as_valid(tmp_path, odd):
    """#37: a newline in the store's path made validate and list call every log invalid,
    while show, index and query read them."""
    root = tmp_path / odd
    made = CliRunner().invoke(app, ["--store", str(root), "simulate", "hanabi", "-n", "1"])
    assert made.exit_code == 0, made.output
    for command in (["validate", "--json"], ["list", "--json"]):
        result = CliRunner().invoke(app, ["--store", str(root), *command])
        assert result.exit_code == 0, result.output
        assert '"finished"' in result.stdout and "invalid" not in result.stdout
