"""A throwaway PostgreSQL server from the machine's own binaries, for tests and benchmarks.

Debian's postgresql package puts ``initdb`` and ``pg_ctl`` under
``/usr/lib/postgresql/<version>/bin``. The server refuses to run as root, so when we are root
(as CI is) the data directory is given to ``nobody`` and the server runs as that user. It
listens on loopback only, on a free port, with ``trust`` authentication for a superuser named
``gametape``; nothing outside the temporary directory is touched.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SUPERUSER = "gametape"


def binaries() -> Path | None:
    """The newest ``.../bin`` holding initdb and pg_ctl (``$GAMETAPE_PG_BIN`` first)."""
    wanted = os.environ.get("GAMETAPE_PG_BIN")
    found = [wanted] if wanted else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for candidate in found:
        if candidate and (Path(candidate) / "initdb").exists():
            return Path(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One PostgreSQL server in ``directory``: ``start()``, ``url(db)``, ``stop()``, and the
    faults a test needs (``restart()``, ``kill()`` the postmaster with SIGKILL)."""

    def __init__(self, bin_dir: Path | None = None) -> None:
        found = bin_dir or binaries()
        if found is None:
            raise RuntimeError("no PostgreSQL here: install Debian's postgresql (.ci/run does)")
        self.bin = found
        # Its own directory in the system's temporary one: a test's tmp_path is private to
        # root, and the server's user must be able to reach its data.
        self.dir = Path(tempfile.mkdtemp(prefix="gametape-pg-"))
        self.dir.chmod(0o711)
        self.data = self.dir / "data"
        self.sockets = self.dir / "sockets"
        self.port = _free_port()
        self.user = "nobody" if os.geteuid() == 0 else None

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            user=self.user,
            check=check,
            capture_output=True,
            text=True,
            cwd=self.dir,
        )

    def init(self) -> Server:
        self.sockets.mkdir(exist_ok=True)
        if self.user:
            for path in (self.dir, self.sockets):
                shutil.chown(path, self.user)
        self._run(
            "initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8",
            "--no-locale", "--no-sync",
        )  # fmt: skip
        return self

    def start(self) -> Server:
        options = (
            f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.sockets} "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        log = str(self.dir / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")
        return self

    def halt(self) -> None:
        """Stop the server at once (its data stays: ``start()`` brings it back)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)

    def stop(self) -> None:
        """Stop the server and remove its directory."""
        self.halt()
        shutil.rmtree(self.dir, ignore_errors=True)

    def restart(self) -> None:
        """A clean restart: connections are cut, nothing committed is lost."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.start()

    def kill(self) -> None:
        """SIGKILL the postmaster (its children follow), then start it again: crash
        recovery replays the write-ahead log."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        os.kill(pid, 9)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        # the children notice the postmaster is gone and exit; wait for the port to free up
        while time.monotonic() < deadline:
            if self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode:
                try:
                    self.start()
                    return
                except subprocess.CalledProcessError:
                    time.sleep(0.2)
            else:
                time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not come back after kill -9")

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        """Run one statement as the superuser (autocommit: CREATE DATABASE works)."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as con:
            con.execute(statement)  # type: ignore[arg-type]

    def create_database(self, name: str) -> str:
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)
