"""Games are plug-ins: a toy game installed through the entry point runs everywhere, and no
shared module names a game."""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from pathlib import Path

import msgspec
import pytest

from gametape.engine.registry import names
from tests.test_plugin_author import TOY, gt, site

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "gametape"


@pytest.fixture(scope="module")
def toy_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment where a separate distribution registers the game `toy-nim`."""
    return site(tmp_path_factory.mktemp("site"), {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": TOY})


def test_a_toy_game_from_another_distribution_runs_through_every_command(toy_env):
    listed = gt(toy_env, "games", "--json").stdout.splitlines()
    games = [json.loads(line)["game"] for line in listed]
    assert "toy-nim" in games
    sim = gt(toy_env, "simulate", "toy-nim", "-n", "20", "--json")
    assert sim.returncode == 0, sim.stderr
    ids = json.loads(sim.stdout)["games"]
    assert len(ids) == 20
    valid = gt(toy_env, "validate", "--json")
    assert valid.returncode == 0, valid.stdout
    assert {json.loads(r)["status"] for r in valid.stdout.splitlines()} == {"finished"}
    frames = gt(toy_env, "replay", ids[0], "--all", "--json")
    assert frames.returncode == 0 and len(frames.stdout.splitlines()) > 3
    assert gt(toy_env, "replay", ids[0], "--all").returncode == 0  # the generic board
    assert gt(toy_env, "show", ids[0]).returncode == 0
    assert gt(toy_env, "log", ids[0]).returncode == 0
    index = gt(toy_env, "index", "--json")
    assert index.returncode == 0 and json.loads(index.stdout)["added"] == 20
    query = gt(
        toy_env, "query", "SELECT min(pile) AS p, count(*) AS n FROM toy_nim.events", "-f", "json"
    )
    assert query.returncode == 0, query.stderr
    row = json.loads(query.stdout)
    assert row["p"] == 0 and row["n"] > 20
    stats = gt(toy_env, "stats", "toy-nim", "--json")
    assert stats.returncode == 0, stats.stderr
    report = json.loads(stats.stdout)
    assert sum(r["games"] for r in report["outcomes"]) == 20
    assert report["mistakes"]["rows"][0]["takes"] == row["n"]


def test_a_new_game_makes_an_old_read_model_rebuild_itself(toy_env, tmp_path):
    env = dict(toy_env, GAMETAPE_STORE=str(tmp_path / "store"))
    plain = dict(os.environ, GAMETAPE_STORE=str(tmp_path / "store"))
    assert gt(plain, "simulate", "hanabi", "-n", "2").returncode == 0
    assert gt(plain, "index").returncode == 0  # a model without the toy game's schema
    assert gt(env, "simulate", "toy-nim", "-n", "2").returncode == 0
    result = gt(
        env, "query", "SELECT count(DISTINCT game_id) AS n FROM toy_nim.events", "-f", "json"
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"n": 2}


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def test_no_shared_module_names_a_game():
    """Outside gametape/games/<game>/, no import, name or string in code names a game (help
    texts and comments may show one in an example)."""
    games = names()
    assert games, "no game is installed"
    words = {g for g in games} | {g.replace("-", "_") for g in games}
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "games" and len(rel.parts) > 2:
            continue  # a game's own package
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            texts: list[str] = []
            if isinstance(node, ast.Import):
                texts = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                texts = [node.module or "", *(a.name for a in node.names)]
            elif isinstance(node, ast.Name):
                texts = [node.id]
            elif isinstance(node, ast.Attribute):
                texts = [node.attr]
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
            ):
                texts = [node.value]
            for text in texts:
                lowered = text.lower()
                hit = [
                    w
                    for w in words
                    if w in lowered.replace(".", " ").replace("/", " ").split()
                    or lowered == w
                    or f"games.{w}" in lowered
                ]
                if hit:
                    offenders.append(f"{rel}:{getattr(node, 'lineno', '?')}: {text!r}")
    assert offenders == []


def test_the_check_finds_a_game_name(tmp_path, monkeypatch):
    """The check above can fail: a shared module that imports a game is caught."""
    fake = tmp_path / "gametape"
    (fake / "engine").mkdir(parents=True)
    (fake / "engine" / "bad.py").write_text("from gametape.games.hanabi import HANABI\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    with pytest.raises(AssertionError):
        test_no_shared_module_names_a_game()


@pytest.mark.parametrize("group", ["gametape.games", "console_scripts", "pytest11"])
def test_entry_points_are_read_as_importlib_metadata_reads_them(group):
    from importlib.metadata import entry_points as reference

    from gametape.plugins import entry_points

    assert sorted(entry_points(group)) == sorted((e.name, e.value) for e in reference(group=group))


BELOW_THE_USE_CASES = (
    "gametape.engine",
    "gametape.events",
    "gametape.replay",
    "gametape.analytics",
    "gametape.interop",
    "gametape.games",
)


@pytest.mark.parametrize("front_end", ["cli", "web"])
def test_each_front_end_reaches_the_library_through_the_use_cases(front_end):
    """The web server calls what the CLI calls: no module under gametape/cli/ or
    gametape/web/ imports a module of the layers below the use cases itself (types
    included: gametape.usecases.store, replaying and analysis have them)."""
    offenders = []
    for path in sorted((PACKAGE / front_end).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            for module in modules:
                if module.startswith(BELOW_THE_USE_CASES):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {module}")
    assert offenders == []


# A front-end reads a ruleset's name and nothing else: the position as a requester sees it
# (the board, the view, the status line, the move forms and examples) is
# gametape.usecases.position's to build
ASKS_THE_RULES = re.compile(r"\b(?:ruleset|rules)\.(?!name\b)\w+")


@pytest.mark.parametrize("front_end", ["cli", "web"])
def test_each_front_end_draws_the_position_the_use_case_builds(front_end):
    """The terminal board, the recorder, the replay viewer and the server's pages take the
    board, the status line and the move examples from gametape.usecases.position: no
    front-end module asks a ruleset for anything but its name."""
    offenders = [
        f"{path.relative_to(PACKAGE)}:{n}: {line.strip()}"
        for path in sorted((PACKAGE / front_end).rglob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if ASKS_THE_RULES.search(line)
    ]
    assert offenders == []


def test_the_web_asks_the_tables_and_never_holds_a_game():
    """The server's handlers ask gametape.usecases.tables for what they show (a position, a
    link's name, the host's links); none reaches through a table to its recording or game."""
    reaches = re.compile(r"\.(recording|game)\.\w|\btable\.game\b")
    offenders = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted((PACKAGE / "web").glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if reaches.search(line)
    ]
    assert offenders == []
    assert reaches.search("issued = derived(token, table.game.players)")


def test_the_front_end_check_finds_a_ruleset_asked_for_its_board():
    assert ASKS_THE_RULES.search("draw(game.ruleset.board(view, title))")
    assert ASKS_THE_RULES.search("examples = game.ruleset.move_examples")
    assert not ASKS_THE_RULES.search("title=f'{game.ruleset.name} {gid}'")


def test_a_part_function_must_take_its_hooks_parameters():
    """A game's parts (a module's function bound as a hook) are checked as its class is made,
    from their code (inspect only for what is not a plain function): the wrong parameters
    name the function. mypy checks them too (test_a_wrong_part_fails_the_type_check)."""
    import functools

    from gametape.engine.ruleset import Ruleset

    def good(state, event):
        return state

    def varargs(*args):
        return args[0]

    def defaults(state, event, extra=None):
        return state

    for function in (good, varargs, defaults, functools.partial(defaults, extra=1)):
        type("Fine", (Ruleset,), {"apply": staticmethod(function)})

    def too_few(state):
        return state

    def keyword(state, event, *, must):
        return state

    def too_many(state, event, extra):
        return state

    for function in (too_few, keyword, too_many, functools.partial(too_many, 1, 2, 3)):
        with pytest.raises(TypeError) as raised:
            type("Bad", (Ruleset,), {"apply": staticmethod(function)})
        assert "the function" in str(raised.value)
        assert "take the hook's parameters (state, event)" in str(raised.value)


def test_a_wrong_part_fails_the_type_check():
    """#51: a game's parts are bound in its class body, so mypy checks each against the
    contract: the fixture plug-in's `to_act` gives a name where the contract wants seats, and
    the type check `make test` runs refuses it, naming the hook's types (about 2 s)."""
    import subprocess

    fixture = ROOT / "tests" / "typecheck" / "wrong_part.py"
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--no-incremental", str(fixture)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert checked.returncode == 1, checked.stdout
    assert 'base class "Ruleset" defined the type as "Callable[[State], tuple[int, ...]]"' in (
        checked.stdout
    ), checked.stdout
    assert "wrong_part.py:22" in checked.stdout and "1 error" in checked.stdout


def test_a_hook_method_with_the_wrong_parameters_and_a_hook_given_twice_are_refused_by_name(
    tmp_path,
):
    """#50: a plug-in whose `redact` had last turn's signature (as a method) loaded and was
    listed, then `log --as` ended in a traceback; #51: the first of two facets giving a hook
    silently won. The first is refused as the class is made, naming the hook, and through
    the console script the game is named and left out, never a traceback; a hook is now
    bound once, in the class body, and one bound twice there fails ruff (PIE794)."""
    import subprocess

    from gametape.engine.ruleset import Ruleset
    from tests.serving import GAMETAPE
    from tests.test_plugin_author import TOY, site

    def redact(self, state, event):  # last turn's: no seat
        return event

    with pytest.raises(TypeError, match=r"the method .*redact\(self, state, event\) does not"):
        type("Old", (Ruleset,), {"redact": redact})

    twice = tmp_path / "twice.py"
    twice.write_text(
        "from gametape.engine.ruleset import Ruleset\n\n\n"
        "def one(state):\n    return ()\n\n\n"
        "def two(state):\n    return (0,)\n\n\n"
        "class Twice(Ruleset):\n    to_act = staticmethod(one)\n    to_act = staticmethod(two)\n"
    )
    ruff = subprocess.run(
        [Path(sys.executable).parent / "ruff", "check", "--no-cache", "--config",
         str(ROOT / "pyproject.toml"), str(twice)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert ruff.returncode == 1 and "PIE794" in ruff.stdout, ruff.stdout

    old = TOY.replace("class Nim(Ruleset[NimState]):", "class Nim(Ruleset[NimState]):\n"
        "    def redact(self, state, event):\n        return event\n")  # fmt: skip
    env = site(tmp_path / "site", {"toy-nim": "toy_nim:RULESET"}, {"toy_nim": old})
    listed = subprocess.run([GAMETAPE, "games"], env=env, capture_output=True, text=True)
    assert "Traceback" not in listed.stderr and "toy-nim" in listed.stderr, listed.stderr
    assert "redact" in listed.stderr


def _import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports anywhere in its code
    (a function's import too: an import put off is still a dependence)."""
    modules = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:  # a module imported from its package counts as it
                    sub = f"{node.module}.{alias.name}"
                    deps.add(sub if sub in modules else node.module)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each set of modules that reach one another (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for dep in sorted(graph[module]):
            if dep not in index:
                visit(dep)
                low[module] = min(low[module], low[dep])
            elif dep in stack:
                low[module] = min(low[module], index[dep])
        if low[module] == index[module]:
            found = []
            while (top := stack.pop()) != module:
                found.append(top)
            if found:
                circles.append(sorted([module, *found]))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def test_no_module_of_gametape_imports_another_that_imports_it_back():
    """No import circle among gametape's modules, counting imports inside functions."""
    assert _circles(_import_graph(PACKAGE)) == []


def test_the_circle_check_finds_a_circle(tmp_path):
    fake = tmp_path / "gametape"
    (fake / "events").mkdir(parents=True)
    (fake / "events" / "__init__.py").write_text("")
    (fake / "events" / "store.py").write_text("from gametape.events.postgres import PgStore\n")
    (fake / "events" / "postgres.py").write_text(
        "def f():\n    from gametape.events.store import StoreMissing\n"
    )
    assert _circles(_import_graph(fake)) == [["gametape.events.postgres", "gametape.events.store"]]


def test_a_game_declares_its_facts_once_and_the_contract_checks_the_declaration(tmp_path):
    """#51: a game's facts are one typed declaration (``Declaration``), which the class reads
    back; a fact set in a class body besides it, a game with no declaration, a table it
    cannot deal and players the wrong way round are each refused by name."""
    from gametape.engine import contract
    from gametape.engine.ruleset import Declaration, Ruleset
    from tests.plugins.toy_nim import Nim, NimSetup, NimTake

    assert (Nim.name, Nim.min_players, Nim.max_players, Nim.table) == ("toy-nim", 2, 3, True)
    assert Nim.secrecy == "open" and Nim.declared.events == (NimSetup, NimTake)
    assert Nim().view(Nim().start(NimSetup(players=("a", "b"), pile=5)), 0).pile == 5
    with pytest.raises(TypeError, match="Twice sets max_players, name in its class body"):
        type("Twice", (Ruleset,), {"declared": Nim.declared, "name": "x", "max_players": 9})

    class Bare(Nim):  # inherits Nim's declaration; the framework reads it
        pass

    assert contract.problems(Bare(), "toy-nim") == []
    undeclared = type("Undeclared", (Ruleset,), {})()
    assert contract.problems(undeclared, "toy-nim")[0].startswith("it declares no facts")
    backwards = msgspec.structs.replace(Nim.declared, players=(3, 2))
    assert any("players are 3 to 2" in p for p in contract.problems(
        type("Backwards", (Nim,), {"declared": backwards})(), "toy-nim"))  # fmt: skip
    no_table = type("NoTable", (Nim,), {"declared": msgspec.structs.replace(
        Nim.declared, table=False)})()  # fmt: skip
    assert "it gives table_setup() but does not declare table=True" in contract.problems(
        no_table, "toy-nim"
    )
    hidden = msgspec.structs.replace(Nim.declared, secrecy="views")  # then a view is owed
    owed = contract.problems(type("Hidden", (Nim,), {"declared": hidden})(), "toy-nim")
    assert "it does not define view(), which every game needs" in owed
    assert isinstance(Nim.declared, Declaration)
