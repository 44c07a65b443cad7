"""Why a write failed for want of room, where the failing library did not say (SQLite reports only a full
disk, ENOSPC, as SQLITE_FULL: a disk quota exceeded, EDQUOT, or a file size limit, EFBIG, is a bare "disk
I/O error"). Each of the three is named in one line, as precisely as the system names it."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path

PROBE_BYTES = 32_768  # what SQLite's -shm file grows by: a write the failed one needed at least

# each errno that means no room, as the one line says it
NO_ROOM = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded (its owner's files fill the quota set for them)",
    errno.EFBIG: "a file size limit (ulimit -f) stops it, as a full disk would",
}


def no_room(code: int | None) -> str | None:
    """What the one line says of a failed write's errno, if it means no room; else None."""
    return NO_ROOM.get(code) if code is not None else None


def probe(folder: Path) -> str | None:
    """Whether `folder` has room for a write of PROBE_BYTES, asked of the system by making one: a new
    hidden file written, flushed to disk, and removed again whatever happens. None if it has room (or the
    probe fails for another reason, which is not room's); else what `no_room` says of the errno."""
    name = Path(folder) / f".poolgen-room-{secrets.token_hex(4)}"
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        return no_room(exc.errno)
    try:
        view = memoryview(b"\0" * PROBE_BYTES)
        while view:  # a write past a file size limit is cut short first, then refused (EFBIG)
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as exc:
        return no_room(exc.errno)
    finally:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(name)
    return None


def sqlite_no_room(path: Path, exc: Exception) -> str | None:
    """Why SQLite could not write the file or its -wal or -shm file, if for want of room: SQLITE_FULL
    (the disk is full), or a write refused as SQLite says only "disk I/O error" (a -shm file it cannot
    grow; a disk quota exceeded, EDQUOT, which SQLite does not tell from any other failed write): then
    the system is asked by a write beside the file (`probe`), naming a full disk, a quota or a file size
    limit as precisely; else None. (poolgen/backoffice/owned.py's ledgers.)"""
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_FULL":
        return NO_ROOM[errno.ENOSPC]
    if name not in ("SQLITE_IOERR_WRITE", "SQLITE_IOERR_SHMSIZE", "SQLITE_IOERR_TRUNCATE"):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    with contextlib.suppress(OSError):
        if os.statvfs(folder).f_bavail == 0:
            return NO_ROOM[errno.ENOSPC]
    said = probe(Path(folder))
    if said is not None:
        return said
    with contextlib.suppress(ImportError):  # a limit the probe's write stayed under, the ledger's did not
        import resource  # Unix only

        if resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY:
            return NO_ROOM[errno.EFBIG]
    return None
