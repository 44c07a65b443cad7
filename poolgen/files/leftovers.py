"""What a killed run left behind, found and cleared by the next command in the same folder.

A run stages its pools in `.RUN.partial-XXXXXXXX`, a fresh seed waits as `.RUN.seed.pending` until the
run folder is in place, and files are written as `.NAME.tmp-XXXXXXXX` before their rename. Each is
held under an exclusive flock(2) by the process writing it, so a lock that can be taken means its
writer is gone (the kernel drops a lock when its process dies, even by SIGKILL). `sweep(folder)`
removes those, except a pending seed whose run folder is complete: that seed is put under its final
name, so a run's seed is never lost. It returns one line per thing done, for the command to print.
`clear_temporaries(path)` removes only what killed writes of one target left beside it (`.NAME.tmp-*`,
`.NAME.partial-*`): every file or folder written under a temporary name (a PDF, a key, a ceremony file,
an export, a sealed file, a bundle) calls it first, so the next write of it clears what a killed one
left.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
from pathlib import Path

STAGING = re.compile(r"^\..+\.partial-[0-9a-f]{8}$")
TEMPORARY = re.compile(r"^\..+\.tmp-[0-9a-f]{8}$")
PENDING_SEED = re.compile(r"^\.(.+)\.seed\.pending$")


def pending_seed_name(run_id: str) -> str:
    return f".{run_id}.seed.pending"


def lock(fd: int) -> bool:
    """Take the exclusive lock of an open file or folder; False if another process holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _abandoned(path: Path) -> int | None:
    """An open descriptor of `path`, locked, if no living process holds it; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    if lock(fd):
        return fd
    os.close(fd)
    return None


def remove_abandoned(path: Path) -> bool:
    """Remove the regular file or staging folder `path` if no living process holds its lock; True if it
    was removed.

    The lock is taken on what `path` named when opened, and it is removed only if `path` still names
    that then: a writer that has renamed it into place meanwhile keeps it."""
    fd = _abandoned(path)
    if fd is None:
        return False
    try:
        if os.fstat(fd).st_ino != os.lstat(path).st_ino or path.is_symlink():
            return False
        if path.is_dir():
            shutil.rmtree(path)
        elif path.is_file():
            path.unlink()
        else:
            return False
        return True
    except FileNotFoundError:
        return False
    finally:
        os.close(fd)


def clear_temporaries(path: Path) -> list[str]:
    """Remove what killed writes of `path` left beside it and no living writer holds: its temporary files
    `.NAME.tmp-XXXXXXXX` and its staging folders `.NAME.partial-XXXXXXXX`; one line per thing removed."""
    path = Path(path)
    own = re.compile(rf"^\.{re.escape(path.name)}\.(tmp|partial)-[0-9a-f]{{8}}$")
    try:
        names = sorted(n for n in os.listdir(path.parent) if own.match(n))
    except OSError:  # no folder yet (or none to read): nothing left in it
        return []
    done = []
    for name in names:
        what = "temporary file" if ".tmp-" in name[len(path.name):] else "staging folder"
        try:
            if remove_abandoned(path.parent / name):
                done.append(f"removed {path.parent / name}: the {what} of an interrupted command "
                            "(nothing of it was put in place)")
        except OSError as exc:
            done.append(f"could not clear {path.parent / name}: {exc.strerror or exc}")
    return done


def sweep(folder: Path) -> list[str]:
    """Clear what killed commands left in `folder`; one line per thing done."""
    folder = Path(folder)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    done = []
    for name in names:
        path = folder / name
        if not (STAGING.match(name) or TEMPORARY.match(name) or PENDING_SEED.match(name)):
            continue
        fd = _abandoned(path)
        if fd is None:
            continue
        try:
            if STAGING.match(name) and path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
                done.append(f"removed {path}: the staging folder of an interrupted run (no run was made)")
            elif TEMPORARY.match(name) and path.is_file() and not path.is_symlink():
                path.unlink()
                done.append(f"removed {path}: a temporary file of an interrupted command")
            elif (m := PENDING_SEED.match(name)) and path.is_file() and not path.is_symlink():
                done.append(_settle(folder, m.group(1), path))
        except OSError as exc:
            done.append(f"could not clear {path}: {exc.strerror or exc}")
        finally:
            os.close(fd)
    return done


def _settle(folder: Path, run_id: str, pending: Path) -> str:
    final = folder / f"{run_id}.seed"
    if (folder / run_id / "manifest.json").is_file() and not os.path.lexists(final):
        os.link(pending, final)
        pending.unlink()
        return (f"recovered {final}: the seed of run {folder / run_id}, which was complete when its "
                "command was interrupted")
    pending.unlink()
    return f"removed {pending}: the seed of a run that was never completed"
