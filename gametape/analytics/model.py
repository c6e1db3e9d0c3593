"""The read model: one DuckDB file beside the logs, refreshed incrementally from them.

A log whose size and modification time are unchanged since the last refresh is not read
again; a changed or new log is re-read whole; a deleted log's rows are removed. Rows are
loaded in bulk through Arrow. The file can be deleted at any time: the next refresh rebuilds
the same tables from the logs.
"""

from __future__ import annotations

import gc
import hashlib
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from gametape.analytics import aliases, ratings, schema
from gametape.analytics.extract import Columns, Rows, columns, extract
from gametape.analytics.schema import PUBLIC, arrow_schema, create_sql
from gametape.engine.registry import all_rulesets
from gametape.errors import GametapeError, NotFound, UsageError
from gametape.events.naming import is_url
from gametape.events.notes import SUFFIX as NOTES_SUFFIX
from gametape.events.postgres import PgStore
from gametape.events.store import SUFFIX, GameStore, Store
from gametape.messages import render, say
from gametape.parallel import pipelined
from gametape.text import person, shown_path

DB_NAME = "gametape.duckdb"
LOCK_WAIT = 10.0  # seconds to wait for another process's lock on the model
BATCH = 500  # games per bulk insert

Progress = Callable[[int, int], None]


class QueryError(GametapeError):
    """DuckDB refused a query; the message is DuckDB's."""


class ModelBusy(GametapeError):
    """Another process holds the read model's file lock for longer than we wait."""


READ_STATEMENTS = (duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN)


@dataclass(frozen=True)
class QueryLimits:
    """How much a query may take: wall time in seconds, memory (DuckDB's size syntax, e.g.
    ``2GB``), and rows fetched at a time while its result streams out."""

    seconds: float = 60.0
    memory: str = "2GB"
    batch: int = 4096


@contextmanager
def _query_errors(limits: QueryLimits) -> Iterator[None]:
    """DuckDB's refusals as QueryError: a timeout and a memory limit say which option to use."""
    try:
        yield
    except duckdb.InterruptException:
        raise QueryError(
            say("core.query-too-long", "the query ran longer than {seconds:g} s and was stopped",
                seconds=limits.seconds),
            hint=say("core.query-too-long-hint", "a longer limit: --timeout SECONDS"),
        ) from None  # fmt: skip
    except duckdb.OutOfMemoryException:
        raise QueryError(
            say("core.query-too-big", "the query needs more than {memory} of memory and was "
                "stopped", memory=limits.memory),
            hint=say("core.query-too-big-hint", "a larger limit: --memory-limit 8GB"),
        ) from None  # fmt: skip
    except duckdb.Error as exc:
        raise QueryError(str(exc).splitlines()[0]) from None


class ModelError(GametapeError):
    """The read model file cannot be used (damaged, a full disk); it can be rebuilt."""


def _model_error(path: Path, exc: Exception) -> GametapeError:
    """A DuckDB failure on the model file as one line: a full disk says so."""
    text = str(exc).splitlines()[0]
    if "No space left" in text:
        from gametape.errors import MachineError

        return MachineError(
            say("core.model-disk-full", "the disk is full: cannot write the read model {path}",
                path=str(path)),
            hint=say("core.model-disk-full-hint", "free some space, then `gametape index`; the "
                     "logs are untouched"),
        )  # fmt: skip
    return ModelError(
        say("core.model-damaged", "the read model {path} is damaged ({why})", path=str(path),
            why=text),
        hint=say("core.model-damaged-hint", "it is only a copy of the logs: `gametape index "
                 "--rebuild` builds it anew"),
    )  # fmt: skip


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

    def count(self, batch: list[Rows], known: Mapping[str, object]) -> None:
        """Count in a batch of games read (``known``: the logs read before, by path)."""
        for rows in batch:
            game = rows.game
            (self.updated if game["log_path"] in known else self.added).append(game["game_id"])
            self.invalid += game["status"] == "invalid"
            self.events += rows.n_events


class ReadModel:
    """The DuckDB read model of a store.

    >>> model = ReadModel(store_root)
    >>> model.refresh().added
    >>> model.query("SELECT ruleset, count(*) FROM games GROUP BY ALL")
    """

    def __init__(self, store: Path | str | GameStore, db_path: Path | None = None) -> None:
        if isinstance(store, Store):
            store = store.root
        # A file store's model lives in the store; a PostgreSQL store's in the user's cache
        # (the database holds the logs, and only the logs).
        self.pg = (
            store if isinstance(store, PgStore) else PgStore(str(store)) if is_url(store) else None
        )
        self.root = Path(_cache() if self.pg else store).resolve()  # type: ignore[arg-type]
        self.name = self.pg.name if self.pg else shown_path(self.root)
        self.source: Path | PgStore = self.pg or self.root
        self.path = db_path or (_in_cache(self.pg.identity) if self.pg else self.root / DB_NAME)
        self.notes: list[str] = []  # what a person should hear: a damaged model rebuilt

    def __repr__(self) -> str:
        return f"ReadModel({str(self.path)!r})"

    @property
    def writable(self) -> bool:
        """Whether the model's directory can be written, or made (a store may be
        read-only)."""
        directory = self.path.parent
        while not directory.exists() and directory != directory.parent:
            directory = directory.parent
        return os.access(directory, os.W_OK)

    def elsewhere(self) -> ReadModel:
        """This store's model kept in the user's cache instead of the store (for a read-only
        store): ``$XDG_CACHE_HOME/gametape/models/<digest of the store's path>.duckdb``."""
        return ReadModel(self.source, _in_cache(str(self.root)))

    @contextmanager
    def connect(self, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
        if read_only:
            con = self._open(read_only)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                con = self._writable()
            except ModelError as exc:  # the model is disposable: set it aside, build anew
                self.discard()
                aside = say("core.model-set-aside", "{why}; it was set aside and is rebuilt",
                            why=exc.message)  # fmt: skip
                self.notes.append(render(aside))
                con = self._writable()
        try:
            yield con
        finally:
            con.close()

    def _writable(self) -> duckdb.DuckDBPyConnection:
        """A connection for writing, its schema checked (which reads the file: a model cut
        short opens but fails here, and is ModelError too)."""
        con = self._open(read_only=False)
        try:
            self._ensure_schema(con)
        except duckdb.Error as exc:
            con.close()
            raise _model_error(self.path, exc) from None
        return con

    def _open(self, read_only: bool) -> duckdb.DuckDBPyConnection:
        """Connect, waiting a little if another process (an index run) holds the file.
        A file that is no DuckDB database (damaged, cut short, a directory) is ModelError."""
        wait = LOCK_WAIT
        deadline = time.monotonic() + wait
        while True:
            try:
                if self.path.is_dir():
                    raise duckdb.IOException("a directory, not a database file")
                return duckdb.connect(str(self.path), read_only=read_only)
            except duckdb.IOException as exc:
                if "lock" not in str(exc).lower():
                    raise _model_error(self.path, exc) from None
                if time.monotonic() > deadline:
                    raise ModelBusy(
                        say("core.model-busy", "the read model {path} is in use by another "
                            "process (waited {wait:.0f}s); try again when it has finished",
                            path=str(self.path), wait=wait)
                    ) from None  # fmt: skip
                time.sleep(0.1)
            except duckdb.Error as exc:
                raise _model_error(self.path, exc) from None

    def discard(self) -> None:
        """Remove the model (and its write-ahead log); anything that is not a plain file in
        its place (a directory, say) is moved aside to ``gametape.duckdb.damaged``, never
        deleted, since the tool did not make it."""
        for path in (self.path, self.path.with_name(self.path.name + ".wal")):
            if path.is_symlink() or path.is_file():
                path.unlink()
            elif path.exists():
                aside = path.with_name(path.name + ".damaged")
                if aside.is_dir() and not aside.is_symlink():
                    import shutil

                    shutil.rmtree(aside)
                os.replace(path, aside)

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
        for view, sql in schema.SHARED_VIEWS.items():
            con.execute(f"CREATE OR REPLACE VIEW {view} AS {sql}")
        con.execute("INSERT OR REPLACE INTO _meta VALUES ('schema_version', ?)", [version])

    # --- refresh ------------------------------------------------------------------------

    def _scan(self, noted: set[str] | None = None) -> dict[str, tuple[int, int]]:
        """Each log's path and version (size and mtime, its notes' added); ``noted``, if
        given, is filled with the paths of the logs that have notes."""
        files = {}
        if self.pg is not None:  # a log only grows: its events and notes are its version
            said = self.pg.note_versions()
            return {
                str(self.pg.path(g)): (n, said.get(g, 0)) for g, n in self.pg.versions().items()
            }
        if self.root.is_dir():
            entries = list(os.scandir(self.root))
            names = {entry.name for entry in entries}  # a notes file is looked for here
            for entry in entries:
                if not entry.name.endswith(SUFFIX) or shown_path(entry.name) != entry.name:
                    continue  # a name that is not UTF-8 is no log (validate reports it)
                # Every entry named like a log is a game: a directory, a FIFO or a broken
                # symlink too, which the model lists as invalid with what is wrong with it.
                try:
                    st = entry.stat()
                except OSError:
                    st = entry.stat(follow_symlinks=False)
                path = str(self.root / entry.name)
                files[path] = (st.st_size, st.st_mtime_ns)
                notes = entry.name.removesuffix(SUFFIX) + NOTES_SUFFIX
                if notes not in names:
                    continue
                try:  # a game's notes change its version too (they are in its rows)
                    nst = (self.root / notes).stat()
                except OSError:
                    continue
                files[path] = (st.st_size + nst.st_size, max(st.st_mtime_ns, nst.st_mtime_ns))
                if noted is not None:
                    noted.add(path)
        return files

    def stale(self) -> bool:
        """Whether any log was added, changed or removed, or names merged, since the last
        refresh (or the model is missing or damaged)."""
        if not self.path.exists():
            return True
        try:
            with self.connect(read_only=True) as con:
                row = con.execute("SELECT value FROM _meta WHERE key = 'schema_version'").fetchone()
                if row is None or row[0] != schema.version():
                    return True
                known = {
                    p: (s, m)
                    for p, s, m in con.execute("SELECT path, size, mtime_ns FROM _files").fetchall()
                }
                names = con.execute("SELECT value FROM _meta WHERE key = 'aliases'").fetchone()
        except (ModelError, duckdb.Error):  # missing tables, or a damaged file: rebuild
            return True
        merged = _digest(aliases.read(self.source)[0])
        return known != self._scan() or names is None or names[0] != merged

    def refresh(self, progress: Progress | None = None, jobs: int = 1) -> RefreshSummary:
        """Bring the model up to date with the logs; return what changed. A model this call
        began and could not finish (a full disk) is removed, never left half-made."""
        new = not self.path.exists()
        try:
            return self._refresh(progress, jobs)
        except (duckdb.Error, GametapeError, OSError) as exc:
            if new:
                self.discard()
            if isinstance(exc, duckdb.Error):
                raise _model_error(self.path, exc) from None
            raise

    def _refresh(self, progress: Progress | None, jobs: int) -> RefreshSummary:
        summary = RefreshSummary()
        noted: set[str] = set()
        files = self._scan(noted)
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
                if todo or gone:  # until the ratings are recomputed at the end
                    con.execute("INSERT OR REPLACE INTO _meta VALUES ('ratings_stale', 'yes')")
                if stale_ids:
                    ids = pa.table({"game_id": stale_ids})
                    con.register("stale_ids", ids)
                    keyed = (t for t, c in schema.tables().items() if "game_id" in c)
                    for table in (t for t in keyed if t != "games"):
                        con.execute(
                            f"DELETE FROM {table} WHERE game_id IN (SELECT game_id FROM stale_ids)"
                        )
                    con.execute(
                        "DELETE FROM games WHERE game_id IN (SELECT game_id FROM stale_ids)"
                    )
                    con.unregister("stale_ids")
                extracted = (
                    _extract_pg(self.pg, todo, jobs, progress)
                    if self.pg is not None
                    else _extract_all(todo, noted, jobs, progress)
                )
                # Each batch is committed with its files' rows: memory stays flat as the
                # store grows, and a refresh cut short resumes where it stopped. DuckDB writes
                # one batch on a thread of its own (it lets go of Python's lock, and takes it
                # back often: _handed_on) while the next is read.
                with _handed_on(), _Writer(con) as writer, _collected_per_batch() as collect:
                    for batch in _batches(extracted, BATCH):
                        writer.write(_tables(batch, files))
                        self.notes.extend(p for r in batch for p in r.problems)
                        summary.count(batch, known)
                        collect()
                summary.removed = [known[p][0] for p in gone]
                renamed = self._load_aliases(con)
                if todo or gone or renamed or self._ratings_stale(con):
                    # play order decides ratings: one game indexed late changes every later one
                    ratings.recompute(con, [r.name for r in all_rulesets() if not r.cooperative])
                    con.execute("DELETE FROM _meta WHERE key = 'ratings_stale'")
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise
        return summary

    def _load_aliases(self, con: duckdb.DuckDBPyConnection) -> bool:
        """Bring the ``aliases`` table in line with the store's players.log; whether it
        changed (then every rating is computed again)."""
        merged, problems = aliases.read(self.source)
        self.notes.extend(problems)
        digest = _digest(merged)
        row = con.execute("SELECT value FROM _meta WHERE key = 'aliases'").fetchone()
        if row is not None and row[0] == digest:
            return False
        con.execute("DELETE FROM aliases")
        if merged:
            table = pa.table(
                {"alias": list(merged), "player": list(merged.values())},
                schema=arrow_schema("aliases"),
            )
            con.register("new_aliases", table)
            con.execute("INSERT INTO aliases SELECT * FROM new_aliases")
            con.unregister("new_aliases")
        con.execute("INSERT OR REPLACE INTO _meta VALUES ('aliases', ?)", [digest])
        return True

    @staticmethod
    def _ratings_stale(con: duckdb.DuckDBPyConnection) -> bool:
        """Whether a refresh cut short (its batches committed) left the ratings behind."""
        return bool(con.execute("SELECT 1 FROM _meta WHERE key = 'ratings_stale'").fetchall())

    # --- queries ------------------------------------------------------------------------

    def query(
        self, sql: str, limits: QueryLimits | None = None
    ) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Run one read-only statement (see ``stream``); return column names and every row."""
        with self.stream(sql, limits) as (columns, batches):
            return columns, [row for batch in batches for row in batch]

    @contextmanager
    def stream(
        self, sql: str, limits: QueryLimits | None = None
    ) -> Iterator[tuple[list[str], Iterator[list[tuple[Any, ...]]]]]:
        """Run one SELECT (or EXPLAIN) statement; yield its column names and its rows in
        batches, fetched as they are read (a result of millions of rows is never held whole).

        Nothing can be written anywhere: the connection is read-only, reaches no file but the
        model (no COPY, EXPORT, ATTACH, read_csv of other files, extension installs), has no
        temporary directory to spill into, cannot be reconfigured, and runs SELECT and EXPLAIN
        statements only. ``limits`` bound its memory and its time. Raises QueryError.
        """
        limits = limits or QueryLimits()
        if not sql.strip():
            raise UsageError(say("core.query-empty", "the query is empty: write one SQL statement"))
        with self._sealed(limits) as con:
            timer = threading.Timer(limits.seconds, con.interrupt)
            timer.daemon = True
            timer.start()
            try:
                with _query_errors(limits):
                    statements = con.extract_statements(sql)
                    if len(statements) != 1:
                        raise QueryError(say("core.query-statements", "{n} statements: a query is "
                                             "one statement", n=len(statements)))  # fmt: skip
                    kind = statements[0].type
                    if kind not in READ_STATEMENTS:
                        raise QueryError(
                            say("core.query-reads-only", "{kind} statements are not run: a "
                                "query only reads (SELECT or EXPLAIN); the read model is rebuilt "
                                "from the logs, and `gametape export --parquet DIR` writes it "
                                "out", kind=kind.name)
                        )  # fmt: skip
                    result = con.execute(statements[0])
                columns = [d[0] for d in result.description] if result.description else []

                def batches() -> Iterator[list[tuple[Any, ...]]]:
                    while columns:
                        with _query_errors(limits):
                            batch = result.fetchmany(limits.batch)
                        if not batch:
                            return
                        yield batch

                yield columns, batches()
            finally:
                timer.cancel()

    @contextmanager
    def _sealed(self, limits: QueryLimits) -> Iterator[duckdb.DuckDBPyConnection]:
        """A read-only connection that reaches no file but the model and is locked so."""
        self._open(read_only=True).close()  # waits out another process's write lock
        try:
            con = duckdb.connect(
                str(self.path),
                read_only=True,
                config={
                    "enable_external_access": False,
                    "temp_directory": "",  # spill nowhere: no file is written, even there
                    "memory_limit": limits.memory,
                    "threads": max(1, min(4, os.cpu_count() or 1)),
                    "lock_configuration": True,
                },
            )
        except (duckdb.InvalidInputException, duckdb.ParserException) as exc:
            raise UsageError(say("core.query-limit", "bad query limit: {why}",
                                 why=str(exc).splitlines()[0])) from None  # fmt: skip
        except duckdb.Error as exc:
            raise ModelError(
                say("core.model-cannot-open", "cannot open the read model {path}: {why}",
                    path=str(self.path), why=str(exc).splitlines()[0]),
                hint=say("core.model-rebuild", "it can be rebuilt: gametape index --rebuild"),
            ) from None  # fmt: skip
        try:
            yield con
        finally:
            con.close()

    def stats(
        self, rulesets: Sequence[str] | None = None, branches: bool = False
    ) -> list[dict[str, Any]]:
        """The ready-made reports (gametape.analytics.reports) for each ruleset present, of
        the games played: branches ("what if" games) only if ``branches``."""
        from gametape.analytics import reports

        with self.connect(read_only=True) if branches else self._played() as con:
            names = rulesets or reports.rulesets_present(con)
            return [reports.stats(con, name) for name in names]

    @contextmanager
    def _played(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """The model as it would be without branches: every table and view of it, in its own
        schema and under its own name, holds only the rows of games played (so any report,
        a game's own included, leaves the "what if" games out without knowing of them)."""
        con = duckdb.connect()
        try:
            con.execute("ATTACH ? AS model (READ_ONLY)", [str(self.path)])
            played = "SELECT game_id FROM model.main.games WHERE parent_game IS NULL"
            found = con.execute(
                "SELECT table_schema, table_name, bool_or(column_name = 'game_id') "
                "FROM information_schema.columns WHERE table_catalog = 'model' GROUP BY ALL"
            ).fetchall()
            for schema_name, name, keyed in found:
                where = f" WHERE game_id IN ({played})" if keyed else ""
                con.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema_name}"')
                con.execute(
                    f'CREATE VIEW "{schema_name}"."{name}" AS '
                    f'SELECT * FROM model."{schema_name}"."{name}"{where}'
                )
            yield con
        except duckdb.Error as exc:
            raise _model_error(self.path, exc) from None
        finally:
            con.close()

    def players(
        self, name: str | None = None, abandoned: bool = False, branches: bool = False
    ) -> dict[str, Any]:
        """Each person's record per game (gametape.analytics.players.records), and with a
        ``name`` that person in detail (players.one) under ``detail``; abandoned games
        counted only if ``abandoned``, branches only if ``branches``."""
        from gametape.analytics.players import one, records

        cooperative = [r.name for r in all_rulesets() if r.cooperative]
        columns = {r.name: dict(r.player_columns) for r in all_rulesets()}
        with self.connect(read_only=True) as con:
            found = records(con, cooperative, name, abandoned, branches)
            if name is not None and found["players"]:
                who = found["players"][0]["player"]
                found["detail"] = one(con, who, columns, abandoned, branches)
            return found

    def merge(self, alias: str, into: str) -> tuple[str, int]:
        """Count ``alias`` as the person ``into`` from now on (gametape.analytics.aliases);
        return that person and how many games ``alias`` played. Refused: one name already, a
        merge into oneself through earlier merges, a name no game has, and two names that
        sat in one game (one game cannot have the same person twice)."""
        a, b = person(alias), person(into)
        with self.connect(read_only=True) as con:
            merged = dict(con.execute("SELECT alias, player FROM aliases").fetchall())
            target = merged.get(b, b)
            if a == b:
                raise UsageError(say("core.merge-one-name", "{alias} and {into} are one name "
                                     "already", alias=repr(alias), into=repr(into)))  # fmt: skip
            if target == a:
                raise UsageError(
                    say(
                        "core.merge-circle",
                        "{into} is merged into {alias}: merging {alias} "
                        "into it would merge a person into themselves",
                        alias=repr(alias),
                        into=repr(into),
                    ),
                    hint=say(
                        "core.merge-circle-hint",
                        "{command} first",
                        command=f"`gametape players unmerge {shlex.quote(into)}`",
                    ),
                )

            def games(who: str) -> set[str]:
                rows = con.execute(  # its own games, and those of names merged into it
                    "SELECT DISTINCT game_id FROM people WHERE ? IN (player, person)", [who]
                ).fetchall()
                return {g for (g,) in rows}

            played, other = games(a), games(target)
            for name, found in ((alias, played), (into, other)):
                if not found:
                    raise NotFound(
                        say("core.merge-no-player", "no game has a player named {name}",
                            name=repr(name)),
                        hint=say("core.merge-no-player-hint", "`gametape players` lists "
                                 "everyone"),
                    )  # fmt: skip
            both = sorted(played & other)
            if both:
                raise UsageError(
                    say(
                        "core.merge-same-game",
                        "{alias} and {into} both played in game {game}: "
                        "one game cannot have the same person twice",
                        alias=repr(alias),
                        into=repr(into),
                        game=both[0],
                    )
                    if len(both) == 1
                    else say(
                        "core.merge-same-games",
                        "{alias} and {into} both played in game "
                        "{game} (and {more} more): one game cannot have the same person "
                        "twice",
                        alias=repr(alias),
                        into=repr(into),
                        game=both[0],
                        more=len(both) - 1,
                    )
                )
        aliases.append(self.source, merge=a, into=target)
        return target, len(played)

    def unmerge(self, alias: str) -> str:
        """Count ``alias`` as its own person again; return who it had been merged into."""
        a = person(alias)
        with self.connect(read_only=True) as con:
            row = con.execute("SELECT player FROM aliases WHERE alias = ?", [a]).fetchone()
        if row is None:
            raise NotFound(
                say("core.merge-not-merged", "{alias} is not merged into anyone", alias=repr(alias))
            )
        aliases.append(self.source, unmerge=a)
        return str(row[0])

    def export_parquet(self, directory: Path) -> list[Path]:
        """Write the shared tables as Parquet in the Hive layout that DuckDB, Spark and Trino
        read as it is, ``directory/<table>/ruleset=<name>/month=<YYYY-MM>/`` (the month a
        game started, for its every row), and each game's views as
        ``directory/<game schema>/<view>.parquet``."""
        directory.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        try:
            with self.connect(read_only=True) as con:
                self._export_parquet(con, directory, written)
        except duckdb.Error as exc:
            raise _model_error(directory, exc) from None
        return written

    def _export_parquet(
        self, con: duckdb.DuckDBPyConnection, directory: Path, written: list[Path]
    ) -> None:
        for table in PUBLIC:
            target = str(directory / table).replace("'", "''")
            con.execute(
                f"COPY (SELECT t.*, coalesce(strftime(g.started, '%Y-%m'), 'unknown') AS month "
                f"FROM {table} t LEFT JOIN games g ON g.game_id = t.game_id ORDER BY ALL) "
                f"TO '{target}' (FORMAT PARQUET, PARTITION_BY (ruleset, month), "
                "OVERWRITE_OR_IGNORE)"
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


@contextmanager
def _collected_per_batch() -> Iterator[Callable[[], int]]:
    """Python's cycle collector run once a batch, not every few hundred objects made: a
    batch's rows are many small containers kept until it is written, and the collector
    walked them again and again (5% of ``index -j1``). What a game's extraction leaves in
    cycles is collected after its batch."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield lambda: gc.collect(0)
    finally:
        if was_on:
            gc.enable()


def _extract_all(
    paths: Sequence[str], noted: set[str], jobs: int, progress: Progress | None
) -> Iterator[Rows]:
    """Extract logs on ``jobs`` processes (0: one per CPU); those not ``noted`` had no notes
    when the store was scanned, and their notes are not looked for again (a notes file
    made since changes the log's version: the next refresh takes it)."""
    jobs = jobs or os.cpu_count() or 1
    total = len(paths)
    has_notes = [p in noted for p in paths]
    if jobs <= 1 or total < 64:
        results: Iterator[Rows] = map(_extract_file, paths, has_notes)
        pool = None
    else:
        pool = ProcessPoolExecutor(jobs)
        results = pool.map(_extract_file, paths, has_notes, chunksize=32)
    try:
        for done, rows in enumerate(results, start=1):
            if progress:
                progress(done, total)
            yield rows
    finally:
        if pool is not None:
            pool.shutdown()


def _extract_file(path: str, has_notes: bool) -> Rows:
    return extract(Path(path), notes_data=None if has_notes else b"")


def _extract_pg(
    pg: PgStore, names: Sequence[str], jobs: int, progress: Progress | None
) -> Iterator[Rows]:
    """Extract games of a PostgreSQL store, their logs read a few hundred at a query and
    folded on ``jobs`` processes (0: one per CPU), as the file store's are."""
    ids = [name.rpartition("#")[2] for name in names]
    jobs = (jobs or os.cpu_count() or 1) if len(ids) >= 64 else 1
    results = pipelined(extract, pg.chunks(ids, notes=True), jobs)
    for done, rows in enumerate(results, start=1):
        if progress:
            progress(done, len(ids))
        yield rows


def _cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "gametape"


def _in_cache(store: str) -> Path:
    """Where the read model of a store is kept when not in the store: the user's cache, by
    a digest of the store's name (``$XDG_CACHE_HOME/gametape/models/<digest>.duckdb``)."""
    digest = hashlib.sha256(store.encode("utf-8", "surrogateescape")).hexdigest()
    return _cache() / "models" / f"{digest[:16]}.duckdb"


def _batches(rows: Iterator[Rows], size: int) -> Iterator[list[Rows]]:
    batch: list[Rows] = []
    for r in rows:
        batch.append(r)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _digest(merged: dict[str, str]) -> str:
    return hashlib.sha256(repr(sorted(merged.items())).encode()).hexdigest()[:16]


def _tables(batch: list[Rows], files: dict[str, tuple[int, int]]) -> dict[str, pa.Table]:
    """A batch of games as Arrow tables, built column by column (never a row at a time)."""
    rows: dict[str, list[dict[str, Any]]] = {
        "games": [r.game for r in batch],
        "game_players": [p for r in batch for p in r.players],
        "annotations": [a for r in batch for a in r.annotations],
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
    many: dict[str, list[Columns]] = {"events": [r.events for r in batch]}
    for r in batch:
        game = r.game["ruleset"]
        if game is not None:
            s = schema.schema_of(game)
            many.setdefault(f"{s}.event_facts", []).append(r.event_facts)
            rows.setdefault(f"{s}.player_facts", []).extend(r.player_facts)
    tables = {t: columns(found, arrow_schema(t).names) for t, found in rows.items() if found}
    for table, parts in many.items():
        tables[table] = _joined(parts, arrow_schema(table).names)
    return {
        table: pa.table(data, schema=arrow_schema(table))
        for table, data in tables.items()
        if data[next(iter(data))]
    }


# How long a thread may hold Python's lock while another waits for it, while batches are
# written: DuckDB's client takes the lock around each statement and now and then within one
# (to see whether it was interrupted), and at Python's 5 ms the writer waited each time
# behind the thread reading the next batch. A batch's statements took 0.3-0.4 s beside it,
# 0.1 s alone, 0.15 s with 0.2 ms (index -j1 of 2,000 games 1.56 -> 1.35 s, in turns).
HANDOFF = 0.0002
_handoff_lock = threading.Lock()
_handoff = {"writers": 0, "interval": 0.0}  # the interval is the process's: set by the first


@contextmanager
def _handed_on() -> Iterator[None]:
    """Python's lock handed on every ``HANDOFF`` seconds while this is open (in any thread),
    then as before."""
    with _handoff_lock:
        if not _handoff["writers"]:
            _handoff["interval"] = sys.getswitchinterval()
            sys.setswitchinterval(HANDOFF)
        _handoff["writers"] += 1
    try:
        yield
    finally:
        with _handoff_lock:
            _handoff["writers"] -= 1
            if not _handoff["writers"]:
                sys.setswitchinterval(_handoff["interval"])


class _Writer:
    """Inserts batches of tables and commits each, on a thread of its own, one batch at a
    time: ``write`` waits for the batch before, so the connection is never used by two
    threads at once, and leaving waits for the last (and raises what failed)."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="gametape-model")
        self.pending: Future[None] | None = None

    def __enter__(self) -> _Writer:
        return self

    def write(self, tables: dict[str, pa.Table]) -> None:
        self._wait()
        self.pending = self.pool.submit(self._insert, tables)

    def _wait(self) -> None:
        if self.pending is not None:
            pending, self.pending = self.pending, None
            pending.result()

    def _insert(self, tables: dict[str, pa.Table]) -> None:
        con = self.con
        for table, data in tables.items():
            con.register("batch_rows", data)
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM batch_rows")
            con.unregister("batch_rows")
        con.execute("COMMIT")
        con.execute("BEGIN TRANSACTION")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            self._wait()
        finally:
            self.pool.shutdown(wait=True)


def _joined(parts: list[Columns], names: list[str]) -> Columns:
    """Games' columns one after another (a column a game left out is NULL in its rows)."""
    joined: Columns = {name: [] for name in names}
    for part in parts:
        nulls = None
        for name in names:
            if name in part:
                joined[name] += part[name]
            else:
                nulls = nulls or [None] * len(part.get("seq", ()))
                joined[name] += nulls
    return joined
