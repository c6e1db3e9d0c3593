"""`show`, `move` and `list` answered without typer (gametape.cli.quick) print what the typer
commands print, exit as they exit, and hand everything else to typer having written nothing."""

from __future__ import annotations

import random
import shutil
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from gametape.cli import quick
from gametape.cli.app import app
from gametape.engine import simulate as sim
from gametape.engine.registry import all_rulesets
from gametape.events import Store
from tests.test_hostile import snapshot

runner = CliRunner()


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """A store with a game of every ruleset, half played."""
    root = tmp_path_factory.mktemp("quick") / "store"
    store = Store(root)
    ids = {}
    for i, rules in enumerate(all_rulesets()):
        game = sim.play(rules, sim.default_players(rules.min_players), "random", random.Random(i))
        cut = len(game.events) // 2
        ids[rules.name] = store.create(game.setup, game.events[1:cut])
    return root, ids


def _quick(capsys, argv: list[str]) -> tuple[int | None, str, str]:
    code = quick.run(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _typer(argv: list[str]) -> tuple[int, str, str]:
    result = runner.invoke(app, argv)
    return result.exit_code, result.stdout, result.stderr


def _same(capsys, argv: list[str]) -> None:
    code, out, err = _quick(capsys, argv)
    if code is None:  # handed to typer: nothing printed
        assert (out, err) == ("", "")
        return
    assert (code, out, err) == _typer(argv), argv


def test_show_and_list_print_what_typer_prints(capsys, games):
    root, ids = games
    store = ["--store", str(root)]
    _same(capsys, [*store, "list"])
    _same(capsys, [*store, "list", "--json"])
    for gid in ids.values():
        player = sim.default_players(2)[0]
        for args in (
            ["show", gid],
            ["show", gid, "--json"],
            ["show", gid[:4], "--at", "1"],
            ["show", "--at=2", gid, f"--as={player}"],
            ["show", gid, "--as", player, "--json"],
        ):
            _same(capsys, [*store, *args])
    assert _quick(capsys, [*store, "show", ids["hanabi"]])[0] == 0  # not handed over
    assert _quick(capsys, [*store, "list"])[0] == 0


def test_the_legal_moves_print_what_typer_prints(capsys, games):
    """``move GAME ?``, typed to see what may be played, is answered here too (its start-up
    is held to show's: docs/benchmarks.md); ``--json`` goes to typer."""
    root, ids = games
    for gid in ids.values():
        _same(capsys, ["--store", str(root), "move", gid, "?"])
        assert _quick(capsys, ["--store", str(root), "move", gid, "?"])[0] == 0
    argv = ["--store", str(root), "move", ids["hanabi"], "?", "--json"]
    assert _quick(capsys, argv) == (None, "", "")


def test_moves_print_what_typer_prints_and_are_recorded_once(capsys, games, tmp_path):
    root, ids = games
    for name, gid in ids.items():
        for text in ("undo", "abandon"):
            for extra in ([], ["--json"], ["--id", "a1b2c3d4e5"]):
                copy = tmp_path / name
                shutil.copytree(root, copy, dirs_exist_ok=True)
                argv = ["--store", str(copy), "move", gid, text, *extra]
                code, out, err = _quick(capsys, argv)
                quick_log = (copy / f"{gid}.jsonl").read_bytes()
                shutil.rmtree(copy)
                shutil.copytree(root, copy)
                assert (code, out, err) == _typer(argv), argv
                typer_log = (copy / f"{gid}.jsonl").read_bytes()
                assert quick_log.count(b"\n") == typer_log.count(b"\n")
                shutil.rmtree(copy)


def test_a_retried_move_id_is_recorded_once(capsys, games, tmp_path):
    root, ids = games
    copy = tmp_path / "store"
    shutil.copytree(root, copy)
    argv = ["--store", str(copy), "move", ids["hanabi"], "abandon", "--id", "retry-me-1"]
    assert _quick(capsys, argv)[0] == 0
    code, out, err = _quick(capsys, argv)
    assert code == 0 and "recorded already" in err
    assert (code, out, err) == _typer(argv)


@pytest.mark.parametrize(
    "args",
    [
        ["show"],
        ["show", "--help"],
        ["show", "GAME", "--at", "x"],
        ["show", "GAME", "--at", "999"],
        ["show", "GAME", "--as", "nobody"],
        ["show", "nosuchgame"],
        ["show", "GAME", "-h"],
        ["show", "GAME", "--at"],
        ["show", "GAME", "--json", "--json"],
        ["show", "GAME", "--colour"],
        ["show", "GAME", "extra"],
        ["move", "GAME"],
        ["move", "GAME", "no such move"],
        ["move", "GAME", "play 1", "--by", "nobody"],
        ["move", "GAME", "play 1", "--id", "short"],
        ["move", "GAME", "--", "play 1"],
        ["list", "extra"],
        ["--store=", "list"],
        ["--debug", "list"],
    ],
)
def test_anything_else_is_handed_to_typer_with_nothing_written(capsys, games, args):
    root, ids = games
    argv = ["--store", str(root), *(ids["hanabi"] if a == "GAME" else a for a in args)]
    if args[0].startswith("--"):
        argv = [*args, "--store", str(root)] if args[0] == "--debug" else args
    before = snapshot(root)
    assert _quick(capsys, argv) == (None, "", "")
    assert snapshot(root) == before


def test_the_gametape_command_answers_a_show_without_typer_or_rich(games):
    root, ids = games
    probe = (
        "import sys, runpy; sys.argv = ['gametape', '--store', sys.argv[1], 'show', sys.argv[2]];"
        "from gametape.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('typer', 'rich', 'typing_extensions') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(root), ids["hanabi"]], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    assert "╭─ Hanabi" in done.stdout
