"""SQLite files the back office creates and owns: ledgers and desk indexes (docs/back-office.md,
section 4).

Opening one refuses, in one line (exit 2): a path inside a run folder (a folder or parent holding
`manifest.json`: the run's manifest itself included), a symbolic link (dangling or not), anything but
a regular file (a folder, a FIFO: never opened, so never waited on), a missing folder, a file that is
not an SQLite database (random bytes, text), and a database whose schema is not exactly this kind's:
its `application_id` and `user_version` are the kind's stamp, and its `sqlite_master` rows (tables,
indexes, and so no trigger, view, missing primary key or ON CONFLICT clause) are compared with the
ones the kind's own CREATE statements make, text for text; and an empty file (a ledger emptied,
another program's file). A new file is made 0600 whatever the umask and stamped under a temporary
name, then renamed to its own (never over a file), and put in WAL mode. A lock held by another process
is waited on for BUSY_MS at most, then refused in one line. A command that only reads opens the file
read-only (`read_only`: the same checks, nothing written, so read-only media and a full disk serve it),
and a write the disk has no room for is one line saying so (docs/back-office.md, section 4).
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from poolgen.backoffice.errors import BackOfficeError
from poolgen.files.room import sqlite_no_room
from poolgen.files.write import discard, fsync_folder, new_temporary, rename_new
from poolgen.interrupts import deferred, kept, pause_point

BUSY_MS = 3000
# what SQLite may raise on a damaged file: its errors, and a UnicodeDecodeError where the module decodes
# a damaged schema, error message or text value
FAILURES = (sqlite3.Error, UnicodeDecodeError)
_STEP_MS = 25  # SQLite's own wait per attempt; between attempts a sleep of a few milliseconds
APPLICATION_ID = 0x706F6C67  # "polg"


@dataclass(frozen=True)
class Kind:
    """A kind of owned file: its name in messages, its version stamp and its CREATE statements."""

    name: str
    version: int
    schema: tuple[str, ...]
    # earlier versions still read (never written: the caller refuses that), matched by version and schema
    # (one version may come in more than one schema: a converted sales ledger of version 4)
    older: tuple[Kind, ...] = ()

    def master(self) -> list[tuple[str, str, str, str | None]]:
        db = sqlite3.connect(":memory:")
        try:
            for sql in self.schema:
                db.execute(sql)
            return _master(db)
        finally:
            db.close()


def _master(db: sqlite3.Connection) -> list[tuple[str, str, str, str | None]]:
    return [tuple(r) for r in db.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")]


def in_run_folder(path: Path) -> Path | None:
    """The run folder `path` would be in (itself or a parent holds manifest.json), or None."""
    folder = Path(os.path.abspath(path)).parent
    for f in (folder, *folder.parents):
        if os.path.exists(f / "manifest.json"):  # os.path: a name too long to look up holds none
            return f
    return None


def check_place(path: Path, kind: Kind) -> bool:
    """Refuse a place no owned file may be; True if a file is already there."""
    run = in_run_folder(path)
    if run is not None:
        raise BackOfficeError(f"{path}: inside the run folder {run}; keep the {kind.name} outside it")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not Path(os.path.abspath(path)).parent.is_dir():
            raise BackOfficeError(f"{path}: its folder does not exist") from None
        return False
    except OSError as exc:  # a name too long, a folder that is a file
        raise BackOfficeError(f"{path}: cannot use it as a {kind.name}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):
        raise BackOfficeError(f"{path}: is a symbolic link; give the {kind.name} file itself")
    if stat.S_ISDIR(st.st_mode):
        raise BackOfficeError(f"{path}: is a folder, not a {kind.name}")
    if not stat.S_ISREG(st.st_mode):
        raise BackOfficeError(f"{path}: is not a regular file (a pipe, device or socket); not a {kind.name}")
    return True


def failure(path: Path, kind: Kind, exc: Exception) -> BackOfficeError:
    if isinstance(exc, UnicodeDecodeError):  # sqlite3 decoding a damaged schema, message or text value
        return BackOfficeError(f"{path}: a damaged {kind.name} (text that is not UTF-8); refusing it")
    room = sqlite_no_room(path, exc)
    if room is not None:
        return BackOfficeError(f"{path}: cannot write the {kind.name} or the -wal and -shm files SQLite "
                               f"keeps beside it: {room}; nothing more is recorded until there is room")
    text = str(exc)
    text = text if text.isascii() and text.isprintable() else ascii(text)  # SQLite quotes damaged text
    if "locked" in text or "busy" in text:
        return BackOfficeError(f"{path}: locked by another process for more than {BUSY_MS // 1000} s; "
                               "try again")
    if "not a database" in text or "malformed" in text:
        return BackOfficeError(f"{path}: not a poolgen {kind.name} (not an SQLite database: {text})")
    return BackOfficeError(f"{path}: cannot use the {kind.name}: {text}")


def connect(path: Path, kind: Kind, *, create: bool, made: bool = False,
            read_only: bool = False) -> sqlite3.Connection:
    """An open connection (autocommit; transactions begun explicitly) to an owned file of `kind`,
    created if `create` and absent; every refusal a BackOfficeError. `made`: the caller has just made
    the (empty) file itself, to be stamped (a desk index's temporary file). `read_only`: opened for
    reading only (`_uri`), every check made all the same, nothing written (no WAL switch, no write lock)."""
    path = Path(path)
    exists = check_place(path, kind)
    if not exists:
        if not create or read_only:
            raise BackOfficeError(f"{path}: no such {kind.name}")
        make(path, kind)
        check_place(path, kind)
    try:
        db = sqlite3.connect(_uri(path, read_only), uri=True, isolation_level=None,
                             timeout=_STEP_MS / 1000, check_same_thread=False)
    except FAILURES as exc:
        raise failure(path, kind, exc) from None
    try:
        db.execute(f"PRAGMA busy_timeout = {_STEP_MS}")
        _stamp_or_check(db, path, kind, create and not read_only, made, read_only)
        db.execute("PRAGMA foreign_keys = ON")
    except FAILURES as exc:
        db.close()
        raise failure(path, kind, exc) from None
    except BaseException:
        db.close()
        raise
    return db


def file_uri(path: Path | str, query: str) -> str:
    """SQLite's URI filename of `path` with `query`: the absolute path percent-encoded (RFC 3986, as
    SQLite reads it), so a `?`, `#` or `%` in a folder's name is the path's, not the URI's; its bytes, so a
    name that is not UTF-8 (a surrogate escape in Python) is the file's too."""
    return f"file:{urllib.parse.quote(os.fsencode(os.path.abspath(path)))}?{query}"


def _uri(path: Path, read_only: bool) -> str:
    """`mode=ro` to read: SQLite opens the file read-only (a read-only file or folder, as an auditor
    receives a ledger). A file in WAL mode in a folder no one may write, with no -wal file beside it,
    also `immutable=1`: SQLite could make no -shm file there, and nothing writing through this folder can
    write the file (a writer must make its -wal file there); a read-only view of a folder a desk writes
    into elsewhere is not told apart (docs/back-office.md, section 4: reconcile a copy)."""
    name = os.path.abspath(path)
    if not read_only:
        return file_uri(name, "mode=rw")
    try:
        with open(name, "rb") as f:
            wal = f.read(20)[18:20] == b"\x02\x02"  # the header's read and write versions: 2 is WAL
    except OSError:
        wal = False  # the open below names the problem
    fixed = wal and not os.access(os.path.dirname(name), os.W_OK) and not os.path.lexists(f"{name}-wal")
    return file_uri(name, "mode=ro" + ("&immutable=1" if fixed else ""))


def make(path: Path, kind: Kind, fill: Callable[[sqlite3.Connection], None] | None = None, *,
         pause: str = "", keep: bool = False) -> bool:
    """A new owned file at `path`, stamped (and given `fill`'s rows, in the same transaction) before it
    has its name: a temporary file beside it (0600 and locked; what killed makings left is cleared,
    poolgen.files.write.new_temporary) gets the kind's schema, stamp and rows, then takes the name unless
    a file took it first: True if it took the name, False if one was there (a concurrent process's new
    ledger, opened instead; a converted ledger refuses it). So no process ever finds an empty or half-filled
    file of the tool's making at an owned file's name, and an interrupt at any moment leaves the name as
    it was. `pause`: the interrupt tests' pause point before the rename; `keep`: once renamed, `kept`."""
    try:
        tmp, held = new_temporary(path, 0o600)
    except OSError as exc:
        raise BackOfficeError(f"{path}: cannot create the {kind.name}: {exc.strerror or exc}") from None
    renamed = False
    try:
        db = sqlite3.connect(file_uri(tmp, "mode=rw"), uri=True, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = MEMORY")  # no journal file beside it: it is discarded if cut
            db.execute("BEGIN")
            _stamp(db, kind)
            if fill is not None:
                fill(db)
            db.execute("COMMIT")
        finally:
            db.close()
        if pause:
            pause_point(pause)  # the interrupt tests stop the process here, before the rename
        with deferred():
            with contextlib.suppress(FileExistsError):  # a file took the name first
                rename_new(tmp, path)
                renamed = True
            fsync_folder(Path(os.path.abspath(path)).parent)
            if renamed and keep:
                kept(path)
    except FAILURES as exc:
        raise failure(path, kind, exc) from None
    except OSError as exc:
        raise BackOfficeError(f"{path}: cannot create the {kind.name}: {exc.strerror or exc}") from None
    finally:
        os.close(held)
        if not renamed:
            discard(tmp)
    return renamed


def _stamp(db: sqlite3.Connection, kind: Kind) -> None:
    for sql in kind.schema:
        db.execute(sql)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {kind.version}")


def _stamp_or_check(db: sqlite3.Connection, path: Path, kind: Kind, create: bool, made: bool,
                    read_only: bool = False) -> None:
    """An empty database the caller `made` itself gets the kind's schema and stamp in one transaction;
    any other empty file is refused (the tool names a new file only once stamped, `make`: an empty one
    is a ledger truncated, or another program's file; a file emptied is not a ledger with nothing in it);
    any other must be exactly the kind's."""
    if read_only:
        _retried(db, "BEGIN", path, kind)  # a read: no write lock
    else:
        begin(db, path, kind)
    try:
        got = _master(db)
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        same = [(k, k.master()) for k in (kind, *kind.older) if k.version == version]
        match, want = next(((k, m) for k, m in same if m == got), same[0] if same else (None, kind.master()))
        if not got and app == 0 and version == 0:
            if not create:
                raise BackOfficeError(f"{path}: an empty file, not a {kind.name} (only a command that "
                                      "records makes a new one)")
            _private(path, kind)
            if not made:
                raise BackOfficeError(f"{path}: an empty file, not a {kind.name} (one emptied, or another "
                                      "program's file); a new one is made only at a name where no file is")
            _stamp(db, kind)
        elif app != APPLICATION_ID or match is None:
            read = "".join(f" or {v} (read only)" for v in dict.fromkeys(k.version for k in kind.older))
            raise BackOfficeError(f"{path}: not a poolgen {kind.name} of version {kind.version}{read} "
                                  f"(application id {app:#x}, version {version})")
        elif got != want:
            extra = sorted({f"{t} {n}" for t, n, _, _ in got} ^ {f"{t} {n}" for t, n, _, _ in want})
            extra = [x if x.isascii() and x.isprintable() else ascii(x) for x in extra]  # one line
            raise BackOfficeError(f"{path}: its schema is not exactly a poolgen {kind.name}'s "
                                  f"({', '.join(extra) if extra else 'a table defined differently'}); "
                                  "refusing it")
        else:
            _private(path, kind)
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    older = match is not None and match is not kind  # read, never written: its caller refuses to record
    if not read_only and not older and db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        _retried(db, "PRAGMA journal_mode = WAL", path, kind)  # needs every other connection gone


def _private(path: Path, kind: Kind) -> None:
    """Refuse a file its group or others may read or write: the tool makes every owned file 0600, and a
    ledger others may write is a ledger anyone in the group can rewrite (a payment removed is a ticket
    paid again)."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if mode & 0o077:
        raise BackOfficeError(f"{path}: mode {mode:04o}: its group or others may read or write the "
                              f"{kind.name}; refusing it (the tool makes it 0600: chmod 600 it if it is "
                              "yours)")


F = TypeVar("F", bound=Callable[..., Any])


def typed(row: Sequence[Any], columns: str, kinds: str) -> tuple[Any, ...]:
    """`row` as read, each value of its column's kind in `kinds` ("i" an integer, "t" text; upper case,
    or NULL): SQLite keeps whatever a column is given (text or 1.5 in an INTEGER column), and money is
    integer cents. Else an sqlite3.DatabaseError naming the column, which `guarded` makes one line."""
    for name, value, kind in zip(columns.split(", "), row, kinds, strict=True):
        if value is None and kind.isupper():
            continue
        if type(value) is not (int if kind.lower() == "i" else str):
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise sqlite3.DatabaseError(f"a damaged row: {name} is {shown}, not "
                                        f"{'an integer' if kind.lower() == 'i' else 'text'}")
    return tuple(row)


def guarded(kind: Kind) -> Callable[[F], F]:
    """A method of an object with `db` and `path` whose every SQLite failure (a page found damaged
    mid-claim, say) is rolled back and becomes one BackOfficeError line."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return fn(self, *args, **kwargs)
            except FAILURES as exc:
                rollback(self.db)
                raise failure(self.path, kind, exc) from None

        return cast(F, inner)

    return wrap


def begin(db: sqlite3.Connection, path: Path, kind: Kind) -> None:
    """BEGIN IMMEDIATE: the write lock, waited on for BUSY_MS at most. SQLite's own busy handler backs
    off to 100 ms sleeps, so a writer among many busy ones can starve; trying every few milliseconds
    (randomised, so writers do not march in step) keeps every writer's wait short."""
    _retried(db, "BEGIN IMMEDIATE", path, kind)


def _retried(db: sqlite3.Connection, sql: str, path: Path, kind: Kind) -> None:
    """`sql`, tried again while another process holds the lock, for BUSY_MS at most."""
    deadline = time.monotonic() + BUSY_MS / 1000
    while True:
        try:
            db.execute(sql)
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() >= deadline:
                raise failure(path, kind, exc) from None
        except FAILURES as exc:
            raise failure(path, kind, exc) from None
        time.sleep(0.001 + 0.004 * int.from_bytes(os.urandom(1), "big") / 255)


def commit(db: sqlite3.Connection, path: Path, kind: Kind) -> None:
    try:
        db.execute("COMMIT")
    except FAILURES as exc:
        rollback(db)
        raise failure(path, kind, exc) from None


def rollback(db: sqlite3.Connection) -> None:
    """Roll back the open transaction, if there is one."""
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


@contextlib.contextmanager
def transaction(db: sqlite3.Connection, path: Path, kind: Kind) -> Iterator[sqlite3.Connection]:
    """One write transaction (BEGIN IMMEDIATE): committed when the block ends, rolled back on any
    exception or interrupt; a lock held too long a BackOfficeError."""
    begin(db, path, kind)
    try:
        yield db
    except BaseException:
        rollback(db)
        raise
    commit(db, path, kind)


@contextlib.contextmanager
def recorded(db: sqlite3.Connection, path: Path, kind: Kind) -> Iterator[list[str]]:
    """A write transaction whose commit and what an interrupt then says go together: the block appends
    what it records to the list it is given; once committed, each is `kept` (poolgen/interrupts.py),
    with SIGINT and SIGTERM held back until then."""
    what: list[str] = []
    with deferred():
        with transaction(db, path, kind):
            yield what
        for w in what:
            kept(w)
