from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

# xdist's workers are told COLUMNS=80 and LINES=24, which a run of its own is not: the CLI's
# consoles (made when gametape.cli.app is imported below) must see the same in both.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

import pytest
from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from gametape.cli.app import app
from gametape.events import Store

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")

SHARED = Path(__file__).resolve().parents[2] / "shared"


def shared(*parts: str) -> Path:
    """A file or folder of ../shared (test-only reference data, never shipped): the one way
    a test reads it, skipping with the reason where it is not beside the checkout."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"no ../shared/{'/'.join(parts)} beside this checkout (reference data)")
    return path


# Real hanab.live games that ship with the repository (examples/hanablive/README.md): the
# README's tour imports them, and the tests use them as they are.
HANABLIVE_EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "hanablive"


@pytest.fixture(autouse=True)
def _no_store_from_the_developer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never see the store of whoever runs them ($GAMETAPE_STORE set in their shell)."""
    monkeypatch.delenv("GAMETAPE_STORE", raising=False)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "store")


@pytest.fixture
def run(tmp_path: Path):
    """Invoke the CLI on a temporary store; fail on any traceback."""
    root = tmp_path / "store"
    runner = CliRunner()

    def invoke(*args: str, store: bool = True, input: str | None = None):
        argv = (["--store", str(root)] if store else []) + list(args)
        result = runner.invoke(app, argv, input=input)
        assert "Traceback" not in result.output, result.output
        assert not isinstance(result.exception, Exception) or isinstance(
            result.exception, SystemExit
        ), result.exception
        return result

    invoke.root = root
    return invoke


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL server for the session, from the machine's own binaries
    (gametape.testing.postgres); run as `nobody` when the suite runs as root."""
    from gametape.testing.postgres import Server, binaries

    if binaries() is None:
        pytest.skip("no PostgreSQL here: install Debian's postgresql (.ci/run does)")
    pytest.importorskip("psycopg", reason="`pip install -e '.[test]'` installs psycopg")
    server = Server().init().start()
    try:
        yield server
    finally:
        server.stop()


_databases = iter(range(1, 1_000_000))


@pytest.fixture
def pg_url(pg_server) -> str:
    """A fresh, empty database on the session's server: its URL."""
    return pg_server.create_database(f"t{next(_databases)}")


# --- a real browser: Debian's Chromium, driven by Playwright (never a downloaded one) ------


def _chromium() -> str | None:
    found = os.environ.get("GAMETAPE_CHROMIUM") or shutil.which("chromium")
    return found or shutil.which("chromium-browser")


@pytest.fixture(scope="module")  # per module: Playwright's loop is not left running
def browser():
    exe = _chromium()
    if exe is None:
        pytest.skip("no Chromium here: install Debian's chromium (.ci/run does) to run these")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (`pip install -e '.[test]'` installs it)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        yield chromium
        chromium.close()


AXE = (
    Path(__file__).resolve().parents[1]
    / ".venv"
    / "npm"
    / "node_modules"
    / "axe-core"
    / "axe.min.js"
)


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe-core's script (the npm package, which `make test` fetches), for the pages'
    accessibility check."""
    found = Path(os.environ.get("GAMETAPE_AXE", AXE))
    if not found.is_file():
        pytest.skip("no axe-core here: `make test` fetches it from npm (.ci/run installs npm)")
    return found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives Chromium is marked ``browser``: ``make test`` runs those alone,
    after the rest have run on every CPU (a page's timing is the test's own measure)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


SLOWEST = 20


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Any:
    """Each test's report carries the first line of its docstring: what it buys."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        doc = (getattr(getattr(item, "obj", None), "__doc__", None) or "").strip()
        report.user_properties.append(("buys", " ".join(doc.split("\n\n")[0].split())))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The run's slowest tests, each with what it buys (its docstring's first paragraph)."""
    reports = [
        r
        for stats in terminalreporter.stats.values()
        for r in stats
        if getattr(r, "when", None) == "call" and hasattr(r, "duration")
    ]
    if not reports:
        return
    terminalreporter.section(f"the {SLOWEST} slowest tests, and what each buys")
    for r in sorted(reports, key=lambda r: r.duration, reverse=True)[:SLOWEST]:
        buys = dict(r.user_properties).get("buys") or "(no docstring: its name says it)"
        terminalreporter.write_line(f"{r.duration:6.2f}s {r.nodeid}")
        terminalreporter.write_line(f"        {buys[:200]}")
