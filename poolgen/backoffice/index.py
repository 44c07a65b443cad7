"""A desk's index of one validation file (docs/back-office.md, section 2): an SQLite file holding the
file's records and known values keyed by their first 16 bytes, built once per run and tier from a file
the manifest vouches for, so that a claim is a few B-tree lookups, not a read of the whole file.

It lives outside the run folder (default: $XDG_CACHE_HOME/poolgen/desk/, else ~/.cache/poolgen/desk/),
is created 0600 under a temporary name and renamed into place, is named for the run, the tier and the
validation file's SHA-256, and records that SHA-256 and the file's header: one whose recorded hash, key
check or header is not the manifest's is refused, and one recording no header (built by an earlier
poolgen, before the desk held a file's header to docs/validation.md section 3) is built again. The
folder is a cache: an index is touched each time it is opened, and a build removes the indexes opened
least recently beyond the newest KEEP_INDEXES ($POOLGEN_DESK_INDEXES sets it; rebuilt if needed), and an
index another desk removes just as this one opens it is built again. Its
records keep their tags: a row changed in the index fails its tag exactly as a changed record in the
file does, so an index can lose a claim but never pay a forged one.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import sqlite3
from pathlib import Path

from poolgen.backoffice import owned
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.vouched import Run, check_key, read_validation, section_3_head
from poolgen.deliverables.validation import derive, key_check, known, open_body
from poolgen.files.leftovers import lock
from poolgen.interrupts import pause_point

INDEX = owned.Kind("desk index", 1, (
    "CREATE TABLE meta (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE records (k BLOB PRIMARY KEY NOT NULL, body BLOB NOT NULL) WITHOUT ROWID",
    "CREATE TABLE known (k BLOB PRIMARY KEY NOT NULL) WITHOUT ROWID",
))


KEEP_INDEXES = 64  # a folder's indexes kept after a build: 32 runs' two tiers (docs/back-office.md, 2)
KEEP_ENV = "POOLGEN_DESK_INDEXES"  # sets it (kept_indexes)
MAX_KEEP = 1_000_000
_NAMED = re.compile(r"[!-~]+\.(low|high)\.[0-9a-f]{16}\.sqlite", re.ASCII)  # RUN_ID.TIER.SHA256[0:16].sqlite


def default_dir() -> Path:
    """$XDG_CACHE_HOME/poolgen/desk, else ~/.cache/poolgen/desk: a relative XDG_CACHE_HOME is ignored, as
    the XDG base directory specification says (it made an index folder under whatever folder the desk
    was started in)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "poolgen" / "desk"


class Index:
    """One tier's index, open for lookups."""

    def __init__(self, db: sqlite3.Connection, path: Path, key: bytes, run_id: str, tier: str) -> None:
        self.db, self.path, self.key, self.run_id, self.tier = db, path, key, run_id, tier
        self.cleared: list[str] = []  # what killed builds left, removed before this one's (said by the CLI)

    @owned.guarded(INDEX)
    def is_known(self, barcode: str) -> bool:
        k = known(self.key, self.run_id, barcode)
        return self.db.execute("SELECT 1 FROM known WHERE k = ?", (k,)).fetchone() is not None

    @owned.guarded(INDEX)
    def lookup(self, barcode: str, virn: str) -> int | None:
        """The record's value (validation.plain), or None (no record, or a record whose tag fails)."""
        d = derive(self.key, self.run_id, barcode, virn)
        row = self.db.execute("SELECT body FROM records WHERE k = ?", (d[:16],)).fetchone()
        if row is not None and type(row[0]) is not bytes:
            raise sqlite3.DatabaseError(f"a damaged row: body is {type(row[0]).__name__}, not a blob")
        return None if row is None else open_body(self.key, self.run_id, d, row[0])

    def close(self) -> None:
        self.db.close()


def open_index(run: Run, tier: str, key: bytes, folder: Path | None = None, again: bool = True) -> Index:
    """The index of the run's `tier` validation file, built first if absent, or built again (`again`)
    if an earlier poolgen built it without recording the file's header."""
    folder = Path(folder) if folder is not None else default_dir()
    entry = run.validation.get(tier)
    if entry is None or not isinstance(entry.get("sha256"), str):
        raise BackOfficeError(f"{run.path}: the manifest lists no {tier}-tier validation file")
    sha = str(entry["sha256"])
    path = folder / f"{run.run_id}.{tier}.{sha[:16]}.sqlite"
    check_key(run, tier, key)  # a wrong key is named as one, not as an index to rebuild
    keep = kept_indexes()
    cleared: list[str] = []
    built = False
    for _ in range(8):
        fresh = not os.path.lexists(path)  # os.path: a name too long to look up is refused when made
        if fresh:
            cleared += _clear(folder, path.name)
            _build(run, tier, key, folder, path)
        built = built or fresh
        seen = _inode(path)
        pause_point("index-opening")  # a test removes the index here, as another desk's pruning may
        try:
            db = owned.connect(path, INDEX, create=False, read_only=True)  # never written again
            break
        except BackOfficeError:
            if seen is not None and _inode(path) == seen:
                raise
            # removed (or replaced) between the check and the open, by another desk's pruning: build it
            # again, or open the one another desk built meanwhile; never an error for the clerk
    else:
        raise BackOfficeError(f"{path}: removed by other desks each time it was built; raise "
                              f"{KEEP_ENV} (now {keep}) so that the folder keeps more indexes")
    try:
        meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
    except owned.FAILURES as exc:
        db.close()
        raise BackOfficeError(f"{path}: not a usable desk index ({exc}); remove it to rebuild it") from None
    if "header" not in meta and again and not built:
        # built before the desk checked a validation file's header (2026-12-05): its file's header was
        # never held to section 3's, so it is built again from the vouched file, which checks it
        db.close()
        _build(run, tier, key, folder, path)
        return open_index(run, tier, key, folder, again=False)
    want = {"run_id": run.run_id, "tier": tier, "sha256": sha, "key_check": key_check(key),
            "header": section_3_head(run, tier, key).decode()}
    if any(meta.get(k) != v for k, v in want.items()):
        db.close()
        raise BackOfficeError(f"{path}: not an index of the validation file the manifest vouches for "
                              "(another run, tier, key or file); remove it to rebuild it")
    with contextlib.suppress(OSError):  # opened now: the last index a build's pruning removes
        os.utime(path)
    index = Index(db, path, key, run.run_id, tier)
    index.cleared = cleared + (_prune(folder, path.name, keep) if built else [])
    return index


def kept_indexes() -> int:
    """The indexes a folder keeps after a build, its own counted: $POOLGEN_DESK_INDEXES (a whole number,
    1 to 1,000,000), else (unset or empty) KEEP_INDEXES."""
    told = os.environ.get(KEEP_ENV)
    if not told:  # unset or empty, as for XDG_CACHE_HOME
        return KEEP_INDEXES
    if not (told.isascii() and told.isdigit() and 1 <= int(told) <= MAX_KEEP):
        raise BackOfficeError(f"{KEEP_ENV}: {ascii(told[:40])} is not a whole number of indexes to keep, 1 "
                              f"to {MAX_KEEP:,}")
    return int(told)


def _inode(path: Path) -> int | None:
    try:
        return os.lstat(path).st_ino
    except OSError:
        return None


def _prune(folder: Path, mine: str, keep: int = KEEP_INDEXES) -> list[str]:
    """Remove the indexes of `folder` (files named as indexes, never another file) beyond the `keep`
    opened most recently (their modification time, which every open sets), never `mine`, with their
    -wal, -shm and -journal files. A desk holding one open keeps reading it (its file is only unlinked)."""
    try:
        names = [n for n in os.listdir(folder) if _NAMED.fullmatch(n) and n != mine]
    except OSError:
        return []
    opened = []
    for n in names:
        with contextlib.suppress(OSError):
            opened.append((os.lstat(folder / n).st_mtime_ns, n))
    done = []
    for _, n in sorted(opened, reverse=True)[max(keep - 1, 0):]:
        for name in (n, f"{n}-wal", f"{n}-shm", f"{n}-journal"):
            with contextlib.suppress(FileNotFoundError):
                (folder / name).unlink()
                done.append(name)
    return [f"removed {folder / n}: a desk index opened least recently, beyond the {keep} kept (rebuilt when "
            "needed)" for n in sorted(done)]


def _clear(folder: Path, name: str) -> list[str]:
    """Remove what killed builds of the index `name` left in `folder`: `.NAME.tmp-X` files no living
    build holds locked (a build holds its own under flock(2), which the kernel drops when its process
    dies, even by SIGKILL), with their -wal, -shm and -journal files, and those files left alone."""
    pattern = re.compile(rf"\.{re.escape(name)}\.tmp-[0-9a-f]+(-wal|-shm|-journal)?", re.ASCII)
    try:
        names = sorted(n for n in os.listdir(folder) if pattern.fullmatch(n))
    except OSError:  # no folder yet: nothing left in it
        return []
    mains = [n for n in names if not n.endswith(("-wal", "-shm", "-journal"))]
    done, gone = [], set()
    for n in mains:
        try:
            fd = os.open(folder / n, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if lock(fd):  # removed while locked: a build that has just made it finds it gone (_made)
                with contextlib.suppress(FileNotFoundError):
                    (folder / n).unlink()
                    done.append(n)
                gone.add(n)
        finally:
            os.close(fd)
    for n in names:
        main = re.sub(r"-(wal|shm|journal)$", "", n)
        if main not in mains or (main in gone and n != main):  # the logs of what was removed, or of none
            with contextlib.suppress(FileNotFoundError):
                (folder / n).unlink()
                done.append(n)
    return [f"removed {folder / n}: a temporary desk index of an interrupted build" for n in sorted(done)]


def _made(folder: Path, name: str) -> tuple[Path, int]:
    """A new temporary index file, made and locked by this build. Another build's `_clear` may take it
    between the two (it is not locked yet, so it looks abandoned): then it is no longer at its path, and
    this build makes another under a new name rather than build into a file nothing holds."""
    for _ in range(8):
        tmp = folder / f".{name}.tmp-{secrets.token_hex(4)}"  # never a killed build's name (a pid recurs)
        try:
            held = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise BackOfficeError(f"{tmp}: cannot create the {INDEX.name}: {exc.strerror}") from None
        try:
            pause_point("index-made")  # a test clears the folder here, as a concurrent build may
            try:
                ours = lock(held) and os.fstat(held).st_ino == os.lstat(tmp).st_ino
            except FileNotFoundError:
                ours = False
            if ours:
                os.fchmod(held, 0o600)  # whatever the umask
                return tmp, held
        except BaseException:  # an interrupt before _build holds it: the file made is removed, not left
            with contextlib.suppress(OSError):  # (a random name: no other build's; gone if a clear took it)
                tmp.unlink()
            os.close(held)
            raise
        os.close(held)
    raise BackOfficeError(f"{folder}: cannot keep a temporary {INDEX.name}: other builds remove them")


def _build(run: Run, tier: str, key: bytes, folder: Path, path: Path) -> None:
    inside = owned.in_run_folder(path)
    if inside is not None:
        raise BackOfficeError(f"{path}: inside the run folder {inside}; keep the {INDEX.name} outside it")
    vf, sha = read_validation(run, tier, key)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise BackOfficeError(f"{folder}: cannot make the index folder: {exc.strerror}") from None
    tmp, held = _made(folder, path.name)  # locked until the rename: a build's _clear leaves it alone
    try:
        db = owned.connect(tmp, INDEX, create=True, made=True)
        pause_point("index-building")  # a test clears the folder here too
        try:
            with owned.transaction(db, tmp, INDEX):
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("run_id", run.run_id), ("tier", tier), ("sha256", sha), ("key_check", key_check(key)),
                    ("header", section_3_head(run, tier, key).decode())])  # the file's, checked by its read
                keys, bodies, known_ = vf.keys.tobytes(), vf.bodies.tobytes(), vf.known.tobytes()  # 16 a row
                db.executemany("INSERT INTO records VALUES (?, ?)",
                               ((keys[i:i + 16], bodies[i:i + 16]) for i in range(0, len(keys), 16)))
                db.executemany("INSERT INTO known VALUES (?)",
                               ((known_[i:i + 16],) for i in range(0, len(known_), 16)))
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("PRAGMA journal_mode = DELETE")  # read only from now on: read with no -shm file
        finally:
            db.close()
        os.replace(tmp, path)
    finally:
        os.close(held)
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
