"""Start-up: a command imports only what it uses (timings live in bench/startup_bench.py)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("duckdb", "pyarrow", "textual", "prompt_toolkit", "pydantic")


def _imported_after(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.splitlines()[-1])


def test_importing_the_cli_pulls_in_no_query_engine_no_viewer_and_no_game():
    loaded = _imported_after("import gametape.cli.app")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    assert not [m for m in loaded if m.startswith("gametape.games.")]


def test_showing_a_hanabi_game_imports_hanabi_alone(tmp_path):
    store = tmp_path / "store"
    code = (
        "import sys\n"
        "from gametape.cli.app import main\n"
        f"sys.argv = ['gametape', '--store', {str(store)!r}, 'new', 'hanabi', '-p', 'a,b']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
    )
    loaded = _imported_after(code)
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    games = {
        m.split(".")[2] for m in loaded if m.startswith("gametape.games.") and m.count(".") >= 2
    }
    assert games == {"hanabi"}


def _gametape(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys\nfrom gametape.cli.app import main\nsys.argv[0] = 'gametape'\nmain()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env={"COLUMNS": "100"}
    )


def test_only_the_command_run_is_built_and_help_still_lists_every_command(tmp_path):
    """main() registers just the command named (typer then builds one command, not all)."""
    store = str(tmp_path / "s")
    made = _gametape("--store", store, "new", "hanabi", "-p", "a,b", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert _gametape(f"--store={store}", "list").returncode == 0
    assert _gametape("--store", store, "show", made.stdout.split()[0]).returncode == 0
    helped = _gametape("--help").stdout
    assert all(f" {c} " in helped for c in ("new", "move", "replay", "validate", "query"))
    assert "gametape show" in _gametape("show", "--help").stdout
    wrong = _gametape("shw")
    assert wrong.returncode == 2 and "No such command" in wrong.stderr


def test_the_top_level_table_names_every_command_with_its_own_help():
    """`gametape --help` is printed from COMMANDS without importing any command: the table
    holds every command typer has, in the module that defines it, with the start of the first
    paragraph of its help."""
    from gametape.cli import app as cli

    built = cli.build()
    found = {cli._name(c): c for c in built.registered_commands}
    found |= {g.typer_instance.info.name: g for g in built.registered_groups}
    assert set(found) == set(cli.COMMANDS)
    for name, (module, help_) in cli.COMMANDS.items():
        command = found[name]
        if name in cli.GROUPS:
            doc, defined = command.typer_instance.info.help, command.typer_instance
            assert isinstance(doc, str)
        else:
            doc, defined = command.callback.__doc__ or "", command.callback
            assert defined.__module__ == f"gametape.cli.commands.{module}", name
        first = " ".join(doc.strip().split("\n\n")[0].split())
        assert first.startswith(help_.rstrip("…").rstrip()), (name, first)


def test_help_and_version_import_no_command():
    loaded = _imported_after(
        "import sys\nfrom gametape.cli.app import main\nsys.argv = ['gametape', '--help']\nmain()"
    )
    assert not [m for m in loaded if m.startswith(("typer", "rich", "gametape.cli.commands"))]
    helped = _gametape("--help")
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: gametape")
    assert "record" in helped.stdout and "Traceback" not in helped.stderr


def test_a_command_typer_runs_has_the_cycle_collector_on(tmp_path):
    """main() keeps Python's cycle collector off while it starts; a command typer runs may be
    long (serve, index), so it runs with the collector on, and a quick `show` still answers."""
    store = str(tmp_path / "s")
    code = (
        "import gc, sys\n"
        "from gametape.cli import helpwords\n"
        "from gametape.cli.app import main\n"
        "real = helpwords.run\n"
        "def spy(app):\n"
        "    print('collector on' if gc.isenabled() else 'collector off')\n"
        "    return real(app)\n"
        "helpwords.run = spy\n"
        "main()\n"
    )
    made = subprocess.run(
        [sys.executable, "-c", code, "--store", store, "new", "hanabi", "-p", "a,b"],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[0] == "collector on"
    shown = _gametape("--store", store, "show", made.stdout.split()[2])
    assert shown.returncode == 0 and "a" in shown.stdout, shown.stderr
