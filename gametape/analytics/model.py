"""The read model: one DuckDB file beside the logs, refreshed incrementally from them.

A log whose size and modification time are unchanged since the last refresh is not read
again; a changed or new log is re-read whole; a deleted log's rows are removed. Rows are
loaded in bulk through Arrow. The file can be deleted at any time: the next refresh rebuilds
the same tables from the logs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from gametape.analytics import schema
from gametape.analytics.extract import Rows, extract
from gametape.analytics.schema import PUBLIC, arrow_schema, create_sql
from gametape.errors import GametapeError, UsageError
from gametape.events.store import SUFFIX

DB_NAME = "gametape.duckdb"
LOCK_WAIT = 10.0  # seconds to wait for another process's lock on the model
BATCH = 500  # games per bulk insert

Progress = Callable[[int, int], None]


class QueryError(GametapeError):
    """DuckDB refused a query; the message is DuckDB's."""


class ModelBusy(GametapeError):
    """Another process holds the read model's file lock for longer than we wait."""


class ModelError(GametapeError):
    """The read model file cannot be used (damaged, a full disk); it can be rebuilt."""


@dataclass
class RefreshSummary:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0
    invalid: int = 0
    events: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)


class ReadModel:
    """The DuckDB read model of a store.

    >>> model = ReadModel(store_root)
    >>> model.refresh().added
    >>> model.query("SELECT ruleset, count(*) FROM games GROUP BY ALL")
    """

    def __init__(self, store_root: Path, db_path: Path | None = None) -> None:
        self.root = Path(store_root).resolve()
        self.path = db_path or self.root / DB_NAME

    def __repr__(self) -> str:
        return f"ReadModel({str(self.path)!r})"

    @contextmanager
    def connect(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        if not read_only:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        con = self._open(read_only)
        try:
            if not read_only:
                self._ensure_schema(con)
            yield con
        finally:
            con.close()

    def _open(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """Connect, waiting a little if another process (an index run) holds the file."""
        wait = LOCK_WAIT
        deadline = time.monotonic() + wait
        while True:
            try:
                return duckdb.connect(str(self.path), read_only=read_only)
            except duckdb.IOException as exc:
                if "lock" not in str(exc).lower():
                    raise
                if time.monotonic() > deadline:
                    raise ModelBusy(
                        f"the read model {self.path} is in use by another process "
                        f"(waited {wait:.0f}s); try again when it has finished"
                    ) from None
                time.sleep(0.1)

    def _ensure_schema(self, con: duckdb.DuckDBPyConnection) -> None:
        con.execute("CREATE TABLE IF NOT EXISTS _meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
        row = con.execute("SELECT value FROM _meta WHERE key = 'schema_version'").fetchone()
        version = schema.version()
        if row is not None and row[0] == version:
            return
        # A read model: rebuild rather than migrate. Every game schema goes too, installed
        # or not, and every file is read again.
        for (name,) in con.execute(
            "SELECT schema_name FROM information_schema.schemata WHERE catalog_name = "
            "current_database() AND schema_name NOT IN ('main', 'information_schema', "
            "'pg_catalog')"
        ).fetchall():
            con.execute(f'DROP SCHEMA "{name}" CASCADE')
        for table in schema.SHARED:
            con.execute(f"DROP TABLE IF EXISTS {table}")
        for name in schema.schemas().values():
            con.execute(f"CREATE SCHEMA IF NOT EXISTS {name}")
        for table in schema.tables():
            con.execute(create_sql(table))
        for game in schema.schemas():
            for view, sql in schema.views(game).items():
                con.execute(f"CREATE OR REPLACE VIEW {view} AS {sql}")
        con.execute("INSERT OR REPLACE INTO _meta VALUES ('schema_version', ?)", [version])

    # --- refresh ------------------------------------------------------------------------

    def _scan(self) -> dict[str, tuple[int, int]]:
        files = {}
        if self.root.is_dir():
            for entry in os.scandir(self.root):
                if not entry.name.endswith(SUFFIX):
                    continue
                # Every entry named like a log is a game: a directory, a FIFO or a broken
                # symlink too, which the model lists as invalid with what is wrong with it.
                try:
                    st = entry.stat()
                except OSError:
                    st = entry.stat(follow_symlinks=False)
                files[str(self.root / entry.name)] = (st.st_size, st.st_mtime_ns)
        return files

    def stale(self) -> bool:
        """Whether any log was added, changed or removed since the last refresh."""
        if not self.path.exists():
            return True
        with self.connect(read_only=True) as con:
            try:
                row = con.execute("SELECT value FROM _meta WHERE key = 'schema_version'").fetchone()
                if row is None or row[0] != schema.version():
                    return True
                known = {
                    p: (s, m)
                    for p, s, m in con.execute("SELECT path, size, mtime_ns FROM _files").fetchall()
                }
            except duckdb.CatalogException:
                return True
        return known != self._scan()

    def refresh(self, progress: Progress | None = None, jobs: int = 1) -> RefreshSummary:
        """Bring the model up to date with the logs; return what changed."""
        summary = RefreshSummary()
        files = self._scan()
        with self.connect() as con:
            known = {
                p: (g, s, m)
                for p, g, s, m in con.execute(
                    "SELECT path, game_id, size, mtime_ns FROM _files"
                ).fetchall()
            }
            todo = sorted(p for p, stat in files.items() if p not in known or known[p][1:] != stat)
            gone = [p for p in known if p not in files]
            summary.unchanged = len(files) - len(todo)
            stale_ids = [known[p][0] for p in (*todo, *gone) if p in known]
            con.execute("BEGIN TRANSACTION")
            try:
                if stale_ids:
                    ids = pa.table({"game_id": stale_ids})
                    con.register("stale_ids", ids)
                    for table in (t for t in schema.tables() if t != "games"):
                        con.execute(
                            f"DELETE FROM {table} WHERE game_id IN (SELECT game_id FROM stale_ids)"
                        )
                    con.execute(
                        "DELETE FROM games WHERE game_id IN (SELECT game_id FROM stale_ids)"
                    )
                    con.unregister("stale_ids")
                for batch in _batches(_extract_all(todo, jobs, progress), BATCH):
                    _load(con, batch, files)
                    # Each batch is committed with its files' rows: memory stays flat as the
                    # store grows, and a refresh cut short resumes where it stopped.
                    con.execute("COMMIT")
                    con.execute("BEGIN TRANSACTION")
                    for rows in batch:
                        path = rows.game["log_path"]
                        (summary.updated if path in known else summary.added).append(
                            rows.game["game_id"]
                        )
                        summary.invalid += rows.game["status"] == "invalid"
                        summary.events += len(rows.events)
                summary.removed = [known[p][0] for p in gone]
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        return summary

    # --- queries ------------------------------------------------------------------------

    def query(self, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one SQL statement that can change nothing; return column names and rows.

        The connection is read-only, cannot touch any other file (no COPY TO, EXPORT,
        ATTACH, read_csv of other files, extension installs) and cannot be reconfigured, so
        no query can write or destroy anything. Raises QueryError.
        """
        if not sql.strip():
            raise UsageError("the query is empty: write one SQL statement")
        with self._sealed() as con:
            try:
                statements = con.extract_statements(sql)
                if len(statements) != 1:
                    raise QueryError(f"{len(statements)} statements: a query is one statement")
                result = con.execute(statements[0])
                rows = result.fetchall() if result.description else []
            except duckdb.Error as exc:
                raise QueryError(str(exc).splitlines()[0]) from None
            columns = [d[0] for d in result.description] if result.description else []
        return columns, rows

    @contextmanager
    def _sealed(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection that reaches no file but the model and is locked so."""
        self._open(read_only=True).close()  # waits out another process's write lock
        try:
            con = duckdb.connect(
                str(self.path),
                read_only=True,
                config={"enable_external_access": False, "lock_configuration": True},
            )
        except duckdb.Error as exc:
            raise ModelError(
                f"cannot open the read model {self.path}: {exc}",
                hint="it can be rebuilt: gametape index --rebuild",
            ) from None
        try:
            yield con
        finally:
            con.close()

    def stats(self, rulesets: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The ready-made reports (gametape.analytics.reports) for each ruleset present."""
        from gametape.analytics import reports

        with self.connect(read_only=True) as con:
            names = rulesets or reports.rulesets_present(con)
            return [reports.stats(con, name) for name in names]

    def export_parquet(self, directory: Path) -> list[Path]:
        """Write the shared tables as Parquet under ``directory/<table>/ruleset=<name>/``,
        and each game's views as ``directory/<game schema>/<view>.parquet``."""
        directory.mkdir(parents=True, exist_ok=True)
        written = []
        with self.connect(read_only=True) as con:
            for table in PUBLIC:
                target = str(directory / table).replace("'", "''")
                con.execute(
                    f"COPY (SELECT * FROM {table} ORDER BY ALL) TO '{target}' "
                    "(FORMAT PARQUET, PARTITION_BY (ruleset), OVERWRITE_OR_IGNORE)"
                )
                written.append(directory / table)
            for name in schema.schemas().values():
                (directory / name).mkdir(exist_ok=True)
                for view in PUBLIC:
                    path = directory / name / f"{view}.parquet"
                    target = str(path).replace("'", "''")
                    con.execute(
                        f"COPY (SELECT * FROM {name}.{view} ORDER BY ALL) TO "
                        f"'{target}' (FORMAT PARQUET)"
                    )
                    written.append(path)
        return written


def _extract_all(paths: Sequence[str], jobs: int, progress: Progress | None) -> Iterator[Rows]:
    jobs = jobs or os.cpu_count() or 1
    total = len(paths)
    if jobs <= 1 or total < 64:
        results: Iterator[Rows] = map(extract, map(Path, paths))
        pool = None
    else:
        pool = ProcessPoolExecutor(jobs)
        results = pool.map(extract, map(Path, paths), chunksize=32)
    try:
        for done, rows in enumerate(results, start=1):
            if progress:
                progress(done, total)
            yield rows
    finally:
        if pool is not None:
            pool.shutdown()


def _batches(rows: Iterator[Rows], size: int) -> Iterator[list[Rows]]:
    batch: list[Rows] = []
    for r in rows:
        batch.append(r)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _load(
    con: duckdb.DuckDBPyConnection, batch: list[Rows], files: dict[str, tuple[int, int]]
) -> None:
    """Bulk-insert a batch of games through Arrow (never a row at a time)."""
    tables: dict[str, list[dict[str, Any]]] = {
        "games": [r.game for r in batch],
        "game_players": [p for r in batch for p in r.players],
        "events": [e for r in batch for e in r.events],
        "_files": [
            {
                "path": r.game["log_path"],
                "game_id": r.game["game_id"],
                "size": files[r.game["log_path"]][0],
                "mtime_ns": files[r.game["log_path"]][1],
            }
            for r in batch
        ],
    }
    for r in batch:
        game = r.game["ruleset"]
        if game is not None:
            s = schema.schema_of(game)
            tables.setdefault(f"{s}.event_facts", []).extend(r.event_facts)
            tables.setdefault(f"{s}.player_facts", []).extend(r.player_facts)
    for table, rows in tables.items():
        if not rows:
            continue
        data = pa.Table.from_pylist(rows, schema=arrow_schema(table))
        con.register("batch_rows", data)
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM batch_rows")
        con.unregister("batch_rows")
