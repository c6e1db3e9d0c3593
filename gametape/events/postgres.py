"""The PostgreSQL store: every game's log as rows of one table, one line of the log a row.

A row holds the line exactly as the file store would write it (the same JSON, the same chain
hash), so a game reads, validates and copies the same from either store, and a copy back to
files is byte for byte the file it would have been. The database keeps the promises of the
file store itself: the primary key (game, seq) lets one of two writers at one seq win, and a
foreign key from each row to the row before it (``before`` = seq - 1) makes a gap impossible.
The tool only ever INSERTs and SELECTs (docs/stores.md lists the role's rights).
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import unquote

import msgspec

from gametape.errors import MachineError, UsageError
from gametape.events.base import Event, Setup
from gametape.events.codec import seq_and_hash
from gametape.events.errors import GameNotFound, LogError, StaleWrite, ambiguous, no_game
from gametape.events.log import LogRead, Source, encode_lines, read_log
from gametape.events.naming import ID_REF, StoreMissing, new_game_id
from gametape.messages import Message, say

if TYPE_CHECKING:
    import psycopg

EVENTS = "gametape_events"
PLAYERS = "gametape_players"
NOTES = "gametape_notes"
LINKS = "gametape_links"
CHANNEL = "gametape"
CHUNK = 500  # games' logs read in one query, in bulk reads (validate, index, copy)

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {EVENTS} (
    game_id text NOT NULL CHECK (game_id ~ '^[A-Za-z0-9_-]{{1,100}}$'),
    seq integer NOT NULL CHECK (seq >= 0),
    line text NOT NULL,
    before integer GENERATED ALWAYS AS (CASE WHEN seq > 0 THEN seq - 1 END) STORED,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, before) REFERENCES {EVENTS} (game_id, seq)
);
CREATE TABLE IF NOT EXISTS {PLAYERS} (
    n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    line text NOT NULL
);
CREATE TABLE IF NOT EXISTS {NOTES} (
    n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id text NOT NULL,
    line text NOT NULL
);
CREATE INDEX IF NOT EXISTS gametape_notes_game ON {NOTES} (game_id, n);
CREATE TABLE IF NOT EXISTS {LINKS} (
    n bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id text NOT NULL,
    line text NOT NULL
);
CREATE INDEX IF NOT EXISTS gametape_links_game ON {LINKS} (game_id, n);
CREATE OR REPLACE FUNCTION gametape_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.game_id || ' ' || NEW.seq);
    RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER gametape_events_notify AFTER INSERT ON {EVENTS}
    FOR EACH ROW EXECUTE FUNCTION gametape_notify();
"""


Doing = Literal["read", "write", "make", "connect", "follow"]
DOING: dict[str, Message] = {  # what the store could not do, as an error about it begins
    "read": say("core.pg-read", "cannot read the store"),
    "write": say("core.pg-write", "cannot write to the store"),
    "make": say("core.pg-make", "cannot make the store's tables in"),
    "connect": say("core.pg-connect", "cannot connect to the store"),
    "follow": say("core.pg-follow", "cannot follow the store"),
}


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise UsageError(
            say("core.pg-no-psycopg", "a PostgreSQL store needs psycopg, which is not installed"),
            hint="pip install 'gametape[postgresql]'",
        ) from None
    return psycopg


def shown_url(url: str) -> str:
    """The URL without its password (and without any other secret in the query string)."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(url)
    except Exception:  # not a URL psycopg can read: show the scheme only
        return url.split("://", 1)[0] + "://…"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = parts.get("host") or "localhost"
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def identity(url: str) -> str:
    """What tells one PostgreSQL store from another, without its password: every connection
    parameter (a search_path in ``options`` makes another store in the same database), for
    keys such as where its read model is cached."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(url)
    except Exception:
        return shown_url(url)
    parts.pop("password", None)
    return "postgresql:" + repr(sorted((str(k), str(v)) for k, v in parts.items()))


def scrubbed(text: str, url: str) -> str:
    """psycopg's text about ``url`` with no secret in it: a quoted token holding the password
    (psycopg quotes the piece it could not read: the password, or the whole URL), the URL
    itself and its password, each replaced by ``…``."""
    secrets = [url]
    userinfo = url.split("://", 1)[-1].rsplit("@", 1)[0] if "@" in url else ""
    if ":" in userinfo:
        secret = userinfo.split(":", 1)[1]
        secrets += [secret, unquote(secret)]
    secrets += re.findall(r"password=([^&\s]+)", url)
    secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def quoted(match: re.Match[str]) -> str:
        return '"…"' if any(s in match.group(0) for s in secrets) else match.group(0)

    text = re.sub(r'"[^"]*"', quoted, text)
    for secret in secrets:
        text = text.replace(secret, "…")
    return text


class PgGame:
    """One game's log in a PostgreSQL store: what a file's path is in the file store (it
    names the game in every message, and reads its log)."""

    def __init__(self, store: PgStore, game_id: str) -> None:
        self.store = store
        self.stem = self.name = game_id

    def __str__(self) -> str:
        return f"{self.store.name}#{self.stem}"

    def __repr__(self) -> str:
        return f"PgGame({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PgGame) and str(other) == str(self)

    def __hash__(self) -> int:
        return hash(str(self))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_game, (self.store.url, self.stem))

    def log_bytes(self) -> bytes:
        return self.store.raw(self)


def _game(url: str, game_id: str) -> PgGame:
    return PgGame(PgStore(url), game_id)


def _exists(con: psycopg.Connection[Any], table: str) -> bool:
    row = con.execute("SELECT to_regclass(%s)", [table]).fetchone()
    return row is not None and row[0] is not None


def _insert(con: psycopg.Connection[Any], game_id: str, first: int, data: bytes) -> None:
    """Insert a log's lines (``data``, as a file holds them) as rows from seq ``first``."""
    lines = data.decode().split("\n")[:-1]
    with con.cursor() as cur:
        cur.executemany(
            f"INSERT INTO {EVENTS} (game_id, seq, line) VALUES (%s, %s, %s)",
            [(game_id, first + i, line) for i, line in enumerate(lines)],
        )


def _this_threads(name: str) -> Any:
    """A connection attribute of the store that is each thread's own (``_con``, the
    connection of a thread's requests; ``_listener``, its LISTEN connection)."""

    def get(store: PgStore) -> Any:
        return getattr(store._mine, name, None)

    def put(store: PgStore, con: Any) -> None:
        setattr(store._mine, name, con)
        store._opened(con)

    return property(get, put)


class PgStore:
    """Game logs in PostgreSQL (``--store postgresql://…``), with the file store's interface.

    A connection per thread, opened on its first use and kept for the command's life: a
    server's concurrent requests never share one (a transaction of one request would nest
    in another's), and a command has one.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = shown_url(url)
        self.identity = identity(url)  # the name, but for every parameter: a cache's key
        self._mine = threading.local()  # this thread's connection, and its listener
        self._every: list[psycopg.Connection[Any]] = []  # every one opened, for close()
        self._every_lock = threading.Lock()
        self._made = False  # its tables are known to exist (ensure() asks once)

    def _opened(self, con: psycopg.Connection[Any] | None) -> None:
        if con is not None:
            with self._every_lock:
                self._every = [c for c in self._every if not c.closed] + [con]

    _con: psycopg.Connection[Any] | None = _this_threads("con")
    _listener: psycopg.Connection[Any] | None = _this_threads("listener")

    def __repr__(self) -> str:
        return f"PgStore({self.name!r})"

    # --- the connection -----------------------------------------------------------------

    def _fault(self, exc: Exception, doing: Doing) -> UsageError:
        """A database error as one line naming the store and what to do (exit 2)."""
        psycopg = _psycopg()
        if self._con is not None:  # a connection that failed is not used again
            with contextlib.suppress(Exception):
                self._con.close()
            self._con = None
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        text = scrubbed(text.removeprefix("connection failed: "), self.url)
        what, store = DOING[doing], self.name
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            if doing == "make":  # making the tables needs more than using them
                return MachineError(
                    say("core.pg-may-not-create", "{doing} {store}: the role may not create "
                        "tables ({why})", doing=what, store=store, why=text),
                    hint=say("core.pg-may-not-create-hint", "a role that may create tables "
                             "(CREATE on the schema) runs {command} once; then this role "
                             "needs only SELECT and INSERT (docs/stores.md)",
                             command=f"`gametape --store {store} store init`"),
                )  # fmt: skip
            return MachineError(
                say("core.pg-may-not", "{doing} {store}: the role may not ({why})", doing=what,
                    store=store, why=text),
                hint=say("core.pg-may-not-hint", "the role needs SELECT and INSERT on "
                         "gametape_events, gametape_players, gametape_notes and gametape_links "
                         "(docs/stores.md)"),
            )  # fmt: skip
        failed = say("core.pg-failed", "{doing} {store}: {why}", doing=what, store=store, why=text)
        if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
            return MachineError(
                failed,
                hint=say("core.pg-failed-hint", "check the URL, and that the server is running "
                         "and reachable; nothing was half-written"),
            )  # fmt: skip
        return MachineError(failed)

    @property
    def con(self) -> psycopg.Connection[Any]:
        if self._con is None or self._con.closed:
            psycopg = _psycopg()
            try:
                self._con = psycopg.connect(self.url, connect_timeout=5, autocommit=True)
            except psycopg.ProgrammingError as exc:  # a URL psycopg cannot read
                raise UsageError(
                    say("core.pg-bad-url", "{store} is not a PostgreSQL URL psycopg can read: "
                        "{why}", store=self.name, why=scrubbed(str(exc), self.url)),
                    hint=say("core.pg-url-like", "like {url}",
                             url="postgresql://user@host:5432/database"),
                ) from None  # fmt: skip
            except psycopg.Error as exc:
                raise self._fault(exc, "connect") from None
        return self._con

    @contextlib.contextmanager
    def _tx(self, doing: Doing) -> Iterator[psycopg.Connection[Any]]:
        """A transaction (or, inside ``batch()``, a savepoint of the batch's one)."""
        psycopg = _psycopg()
        con = self.con
        try:
            with con.transaction():
                yield con
        except psycopg.errors.UniqueViolation:
            raise
        except psycopg.errors.UndefinedTable:
            raise self._missing() from None
        except psycopg.Error as exc:
            raise self._fault(exc, doing) from None

    def close(self) -> None:
        """Close every connection of every thread."""
        with self._every_lock:
            every, self._every = self._every, []
        for con in every:
            with contextlib.suppress(Exception):
                con.close()
        self._mine = threading.local()

    def _missing(self) -> UsageError:
        return StoreMissing(
            say("core.pg-no-tables", "no gametape tables in {store}", store=self.name),
            hint=say("core.pg-no-tables-hint", "{command} makes them, as a role that may create "
                     "tables (docs/stores.md)",
                     command=f"`gametape --store {self.name} store init`"),
        )  # fmt: skip

    # --- the store interface ------------------------------------------------------------

    def require(self) -> PgStore:
        """This store, if its tables exist; StoreMissing (a usage error) if not."""
        with self._tx("read") as con:
            if not _exists(con, EVENTS):
                raise self._missing()
        return self

    def ensure(self) -> PgStore:
        """This store, its tables made if they do not exist yet."""
        if self._made:
            return self
        with self._tx("make") as con:
            if not all(_exists(con, table) for table in (EVENTS, PLAYERS, NOTES, LINKS)):
                con.execute(SCHEMA)
        self._made = True
        return self

    def game_ids(self) -> list[str]:
        with self._tx("read") as con:
            # every game with a row, its setup row there or not (a log missing its first
            # line is reported invalid, as a file missing its first line is)
            rows = con.execute(f"SELECT DISTINCT game_id FROM {EVENTS} ORDER BY game_id").fetchall()
        return [g for (g,) in rows]

    def path(self, game_id: str) -> PgGame:
        return PgGame(self, game_id)

    def resolve(self, ref: str) -> PgGame:
        """A game from its id or a unique prefix of it."""
        if not ID_REF.fullmatch(ref):
            shown = ref if len(ref) <= 60 else ref[:60] + "…"
            raise GameNotFound(say("core.not-a-game-id", "{ref} is not a game id (up to 100 "
                                   "letters and digits)", ref=repr(shown)))  # fmt: skip
        with self._tx("read") as con:  # no table: StoreMissing
            exact = con.execute(  # the whole id, as most are given: one look in the index
                f"SELECT game_id FROM {EVENTS} WHERE game_id = %s LIMIT 1", [ref]
            ).fetchone()
            if exact is not None:
                return PgGame(self, exact[0])
            rows = con.execute(  # a game whose setup row is gone is a game too (invalid)
                f"SELECT game_id FROM {EVENTS} WHERE left(game_id, %s) = %s "
                "GROUP BY game_id ORDER BY game_id = %s DESC, game_id LIMIT 6",
                [len(ref), ref, ref],
            ).fetchall()
        found = [g for (g,) in rows]
        if (found and found[0] == ref) or len(found) == 1:
            return PgGame(self, found[0])
        if found:
            raise GameNotFound(ambiguous(ref, found[:5]))
        raise GameNotFound(no_game(ref, self.name))

    def create(self, setup: Setup, events: Sequence[Event] = ()) -> str:
        """Write a new game (setup plus any first events); return its new id."""
        psycopg = _psycopg()
        self.ensure()
        for attempt in range(1000):
            gid = new_game_id(setup, attempt)
            stamped = msgspec.structs.replace(setup, game=gid)
            data, _ = encode_lines([stamped, *events], 0, "")
            try:
                with self._tx("write") as con:
                    _insert(con, gid, 0, data)
            except psycopg.errors.UniqueViolation:
                continue  # that id is taken: the next one
            return gid
        raise MachineError(say("core.pg-no-free-id", "no free game id in {store} after 1000 tries",
                               store=self.name))  # fmt: skip

    def append(self, game_id: str, events: Sequence[Event], *, expected_seq: int) -> int:
        return self.append_to(self.resolve(game_id), events, expected_seq=expected_seq)

    def append_to(self, game: Path | Source, events: Sequence[Event], *, expected_seq: int) -> int:
        """Append events at ``expected_seq``; the database refuses a second writer at the
        same seq (StaleWrite, nothing written). Committed when this returns."""
        psycopg = _psycopg()
        if not isinstance(game, PgGame):
            raise UsageError(say("core.pg-not-ours", "{game} is not a game of the store {store}",
                                 game=str(game), store=self.name))  # fmt: skip
        if not events:
            return expected_seq - 1
        stale = StaleWrite(
            f"expected to write seq {expected_seq} but another writer appended first; "
            "nothing was written",
            path=str(game),
            seq=expected_seq,
        )
        written: list[bytes] = []  # the lines sent, once they are
        try:
            with self._tx("write") as con:
                row = con.execute(
                    f"SELECT line FROM {EVENTS} WHERE game_id = %s ORDER BY seq DESC LIMIT 1",
                    [game.stem],
                ).fetchone()
                if row is None:
                    raise GameNotFound(no_game(game.stem, self.name))
                try:
                    last_seq, last_hash = seq_and_hash(row[0].encode())
                except LogError as exc:
                    exc.path = str(game)
                    raise
                if last_seq + 1 != expected_seq:
                    stale.message = (
                        f"expected to write seq {expected_seq} but the log is at seq "
                        f"{last_seq}: another writer appended first; nothing was written"
                    )
                    raise stale
                data = encode_lines(events, expected_seq, last_hash)[0]
                _insert(con, game.stem, expected_seq, data)
                written.append(data)
        except psycopg.errors.UniqueViolation:
            raise stale from None
        except MachineError:
            if not written:
                raise  # it failed before the lines were sent: nothing was written
            # The connection broke with the commit on its way: the rows may be in.
            committed = self._committed(game.stem, expected_seq, written[0])
            if committed is None:
                raise MachineError(
                    say("core.pg-went-away", "the store {store} went away as the move was being "
                        "written: it may have been recorded", store=self.name),
                    hint=say("core.pg-went-away-hint", "{command} shows whether it was; sending "
                             "it again with the same move id (`move --id`) records it at most "
                             "once", command=f"`gametape log {game.stem}`"),
                ) from None  # fmt: skip
            if not committed:
                raise
        return expected_seq + len(events) - 1

    def _committed(self, game_id: str, first: int, data: bytes) -> bool | None:
        """Whether the lines ``data`` from seq ``first`` are in the store (a commit whose
        answer was lost), on a new connection; None if the store cannot be asked."""
        lines = data.decode().split("\n")[:-1]
        try:
            with self._tx("read") as con:
                rows = con.execute(
                    f"SELECT line FROM {EVENTS} WHERE game_id = %s AND seq >= %s ORDER BY seq",
                    [game_id, first],
                ).fetchall()
        except MachineError:
            return None
        return [line for (line,) in rows[: len(lines)]] == lines

    def read(self, game_id: str, *, verify: bool = True) -> LogRead:
        return read_log(self.resolve(game_id), verify=verify)

    def raw(self, game: Path | Source) -> bytes:
        """The game's log as the file store would hold it: each row's line and a newline."""
        return self.raw_many([game.stem]).get(game.stem, b"")

    def setup_lines(self) -> dict[str, bytes]:
        """Each game's first line (its setup), in one query."""
        with self._tx("read") as con:
            rows = con.execute(
                f"SELECT game_id, convert_to(line, 'UTF8') FROM {EVENTS} WHERE seq = 0"
            ).fetchall()
        return {g: bytes(line) for g, line in rows}

    def raw_many(self, game_ids: Sequence[str]) -> dict[str, bytes]:
        """Several games' logs in one query (the read model and validate read in bulk)."""
        return self._lines(EVENTS, "seq", game_ids)

    def chunks(
        self, game_ids: Sequence[str], notes: bool = False
    ) -> Iterator[tuple[list[PgGame], list[bytes], list[bytes]]]:
        """The games' logs read CHUNK games a query, each chunk as columns: the games, their
        logs, and (with ``notes``) their notes."""
        for start in range(0, len(game_ids), CHUNK):
            ids = game_ids[start : start + CHUNK]
            logs = self.raw_many(ids)
            said = self.notes_many(ids) if notes else {}
            yield (
                [self.path(g) for g in ids],
                [logs.get(g, b"") for g in ids],
                [said.get(g, b"") for g in ids],
            )

    def _lines(self, table: str, order: str, game_ids: Sequence[str]) -> dict[str, bytes]:
        """Each game's rows of ``table`` as the lines of a file, in ``order``: one query."""
        with self._tx("read") as con:
            if table != EVENTS and not _exists(con, table):
                return {}  # a store made before the table was (gametape_notes)
            rows = con.execute(
                # bytes straight from the server: no decoding and encoding again here
                f"SELECT game_id, convert_to(string_agg(line || E'\\n', '' ORDER BY {order}), "
                f"'UTF8') FROM {table} WHERE game_id = ANY(%s) GROUP BY game_id",
                [list(game_ids)],
            ).fetchall()
        return {g: bytes(data) for g, data in rows}

    def versions(self) -> dict[str, int]:
        """Each game's version, for the read model's incremental refresh: its number of rows
        and the newest transaction that wrote one (``xmin``), so an appended row, a deleted
        one and one edited in place (an UPDATE by hand: gametape never does one) all change
        it, as a file's size and time do. Read in the one scan that counts the rows."""
        with self._tx("read") as con:
            rows = con.execute(
                f"SELECT game_id, count(*)::bigint * 4294967296 "
                f"+ max(xmin::text::bigint) % 4294967296 FROM {EVENTS} GROUP BY game_id"
            ).fetchall()
        return {g: int(v) for g, v in rows}

    def put(self, game_id: str, data: bytes) -> None:
        """Store a log's bytes as they are (``store copy``); FileExistsError if the game is
        here already."""
        psycopg = _psycopg()
        self.ensure()
        try:
            with self._tx("write") as con:
                _insert(con, game_id, 0, data)
        except psycopg.errors.UniqueViolation:
            raise FileExistsError(game_id) from None

    @contextlib.contextmanager
    def batch(self) -> Iterator[PgStore]:
        """One transaction for the block (a bulk writer's games commit together)."""
        with self._tx("write"):
            yield self

    def wait(self, game: Path | Source, after_seq: int, timeout: float) -> bool:
        """Wait until the game has an event after ``after_seq`` (LISTEN/NOTIFY: no polling);
        whether one came within ``timeout`` seconds."""
        psycopg = _psycopg()
        try:
            if self._listener is None or self._listener.closed:
                self._listener = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
                self._listener.execute(f"LISTEN {CHANNEL}")
            # what came before this call (or before we listened) is in the table already
            if self._events_of(self._listener, game.stem) > after_seq + 1:
                return True
            for note in self._listener.notifies(timeout=timeout):
                gid, _, seq = note.payload.partition(" ")
                if gid == game.stem and int(seq) > after_seq:
                    return True
        except psycopg.Error as exc:
            if self._listener is not None:
                self._listener.close()
            self._listener = None
            raise self._fault(exc, "follow") from None
        return False

    def heads(self, games: Sequence[Path | Source]) -> dict[str, int]:
        """Each game's last seq, in one query (a server looks at every open game's)."""
        with self._tx("read") as con:
            rows = con.execute(
                f"SELECT game_id, max(seq) FROM {EVENTS} WHERE game_id = ANY(%s) GROUP BY game_id",
                [[g.stem for g in games]],
            ).fetchall()
        return {g: int(seq) for g, seq in rows}

    @staticmethod
    def _events_of(con: psycopg.Connection[Any], game_id: str) -> int:
        row = con.execute(
            f"SELECT coalesce(max(seq) + 1, 0) FROM {EVENTS} WHERE game_id = %s", [game_id]
        ).fetchone()
        return int(row[0]) if row else 0

    def recent(self, count: int) -> list[Path | Source]:
        """The ``count`` games written to last (by their last event's time), latest first."""
        with self._tx("read") as con:
            rows = con.execute(
                # the time read as text: one row that is not JSON must not stop the query
                f"SELECT game_id FROM {EVENTS} GROUP BY game_id ORDER BY "
                'max(substring(line from \'"ts":"([^"]*)"\')) DESC NULLS LAST, '
                "game_id LIMIT %s",
                [count],
            ).fetchall()
        return [PgGame(self, g) for (g,) in rows]

    # --- notes (gametape.events.notes) --------------------------------------------------

    def notes(self, game: Path | Source) -> bytes:
        """The game's notes, as the file store's GAME.notes holds them."""
        return self.notes_many([game.stem]).get(game.stem, b"")

    def notes_many(self, game_ids: Sequence[str]) -> dict[str, bytes]:
        """Several games' notes in one query."""
        return self._lines(NOTES, "n", game_ids)

    def add_note(self, game: Path | Source, line: bytes) -> None:
        self._add_line(NOTES, game, line)

    def _add_line(self, table: str, game: Path | Source, line: bytes) -> None:
        """One line of a game's side log (notes, links) as a row of ``table``."""
        self.ensure()
        with self._tx("write") as con:
            con.execute(
                f"INSERT INTO {table} (game_id, line) VALUES (%s, %s)",
                [game.stem, line.decode().rstrip("\n")],
            )

    def note_versions(self) -> dict[str, int]:
        """Each game's number of note lines (the read model's scan adds it to the log's)."""
        with self._tx("read") as con:
            if not _exists(con, NOTES):
                return {}
            rows = con.execute(f"SELECT game_id, count(*) FROM {NOTES} GROUP BY game_id").fetchall()
        return dict(rows)

    # --- links (gametape.usecases.links) -----------------------------------------------

    def links(self, game: Path | Source) -> bytes:
        """The game's links, as the file store's GAME.links holds them."""
        return self._lines(LINKS, "n", [game.stem]).get(game.stem, b"")

    def add_link(self, game: Path | Source, line: bytes) -> None:
        self._add_line(LINKS, game, line)

    # --- names merged (gametape.analytics.aliases) --------------------------------------

    def players_log(self) -> bytes:
        """The merges of names, as the file store's players.log holds them."""
        with self._tx("read") as con:
            if not _exists(con, PLAYERS):
                return b""
            rows = con.execute(f"SELECT line FROM {PLAYERS} ORDER BY n").fetchall()
        return "".join(line + "\n" for (line,) in rows).encode()

    def add_players_line(self, line: bytes) -> None:
        with self._tx("write") as con:
            con.execute(f"INSERT INTO {PLAYERS} (line) VALUES (%s)", [line.decode().rstrip("\n")])
