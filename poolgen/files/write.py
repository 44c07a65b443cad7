"""Writing files so that nothing is ever half-written: temporary name first, then rename."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import secrets
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, BinaryIO

from poolgen.errors import OutputError
from poolgen.files.leftovers import clear_temporaries, lock
from poolgen.files.read import printable
from poolgen.interrupts import Interrupted, deferred, kept, pause_point


def fsync_folder(folder: Path) -> None:
    """Make a folder's entries (a rename, a new file) durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _say_cleared(target: Path) -> None:
    """Clear what killed writes of `target` left, one line on stderr each (a closed stderr hides them)."""
    for line in clear_temporaries(target):
        with suppress(OSError, ValueError):
            print(printable(line), file=sys.stderr)  # a name never adds a line (poolgen.cli.common.say)


def new_temporary(path: Path, mode: int) -> tuple[Path, int]:
    """A new temporary file `.NAME.tmp-XXXXXXXX` beside `path`, of exactly `mode` (whatever the umask),
    open for writing and locked as in use (poolgen.files.leftovers), after clearing the temporary files
    killed writes of `path` left (said on stderr). Another write's clearing may take the new file before
    it is locked (it looks abandoned then): it is no longer at its name, and another is made."""
    _say_cleared(path)
    for _ in range(8):
        tmp = path.with_name(f".{path.name}.tmp-{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
        try:
            if lock(fd) and os.fstat(fd).st_ino == os.lstat(tmp).st_ino:
                os.fchmod(fd, mode)
                return tmp, fd
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(fd)
            discard(tmp)
            raise
        os.close(fd)
    raise OutputError(f"{path}: cannot keep a temporary file: other writes of it remove them")


def present(path: Path) -> bool:
    """Whether something is at `path`, a symbolic link included even if dangling (what a write there
    would replace: an output is never put over an existing name unless given --force, docs/back-office.md
    section 6), with a name the system refuses to look up (too long, say) said in one line."""
    try:
        return Path(path).exists() or Path(path).is_symlink()
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def resolved(path: Path) -> Path:
    """`path` absolute, its links followed, to look for a run folder around it: a loop of symbolic links
    on the way (Python 3.11's resolve raises RuntimeError for it, later ones OSError) is one line."""
    try:
        return Path(path).resolve()
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    except RuntimeError:
        raise OutputError(f"{path}: cannot write: {os.strerror(errno.ELOOP)}") from None


def refuse_run_folder(path: Path, what: str) -> None:
    """Refuse to write `what` at `path` (a file or a folder) if that is a run folder or inside one (it or
    a parent holds manifest.json): a run folder holds its listed, signed files alone (audit step 2 fails
    on any other) and leaves the building whole, so a key or an export put there would go with it."""
    here = resolved(path)
    run = next((f for f in (here, *here.parents) if os.path.exists(f / "manifest.json")), None)
    if run is not None:
        raise OutputError(f"{path}: inside the run folder {run}; keep the {what} outside run folders")


def discard(tmp: Path | None) -> None:
    """Remove a temporary file if it is there; one that was never made (None, or its name refused) is no
    error."""
    if tmp is not None:
        with suppress(OSError):
            tmp.unlink()


def make_folders(folder: Path, mode: int) -> None:
    """Create `folder` and any missing parents, each new one of exactly `mode` (whatever the umask)."""
    folder = Path(folder)
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for f in reversed(missing):
        try:
            f.mkdir(mode=mode)
        except FileExistsError:
            continue
        os.chmod(f, mode)


def _kept(path: Path) -> None:
    """A file is in place: an interrupt says it was kept, unless it is inside a run folder still being
    staged (`.NAME.partial-*`) or has a provisional dot-name (a pending seed)."""
    if not path.name.startswith(".") and not any(p.name.startswith(".") and ".partial-" in p.name
                                                 for p in path.parents):
        kept(path)


def write_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write `data` to `path` via a temporary file in the same folder and a rename."""
    path = Path(path)
    tmp: Path | None = None
    fd: int | None = None
    try:
        tmp, fd = new_temporary(path, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        pause_point("file-written")
        os.replace(tmp, path)  # still locked: no other write's clearing takes it first
        _kept(path)
        fsync_folder(path.parent)
    except OSError as exc:
        discard(tmp)
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    except BaseException:
        discard(tmp)
        raise
    finally:
        if fd is not None:
            os.close(fd)


def write_secret(path: Path, data: bytes, what: str, keep_locked: bool = False) -> int | None:
    """Create a new file of mode 0600 holding a secret; refuse to replace an existing file.

    With `keep_locked`, return an open descriptor holding the file's lock (poolgen.files.leftovers), for a
    file that is only provisional until the caller closes it."""
    path = Path(path)
    refuse_run_folder(path, what)
    if present(path):
        raise OutputError(f"{path}: {what} already exists; not overwriting it")
    try:
        make_folders(path.parent, 0o700)  # a new folder for secrets is private
    except OSError as exc:
        raise OutputError(f"{path.parent}: cannot create folder for the {what}: "
                          f"{exc.strerror or exc}") from None
    tmp: Path | None = None
    fd: int | None = None
    try:
        tmp, fd = new_temporary(path, 0o600)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        pause_point("secret-written")
        os.link(tmp, path)  # fails if `path` appeared meanwhile: never replaces a secret
        tmp.unlink()  # before anything else: a SIGKILL now leaves no second name of the secret
        _kept(path)
        fsync_folder(path.parent)
    except FileExistsError:
        raise OutputError(f"{path}: {what} already exists; not overwriting it") from None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write {what}: {exc.strerror or exc}") from None
    finally:
        discard(tmp)
        if fd is not None and not (keep_locked and path.exists()):
            os.close(fd)
            fd = None
    return fd


def write_key_pair(private: Path, private_pem: bytes, public: Path, public_pem: bytes,
                   kind: str = "") -> None:
    """A private key (0600, `write_secret`) and its public key beside it: the pair or nothing, neither
    written over. Ctrl-C or SIGTERM waits until the pair is written, or the new private key removed
    again; an interrupt once both are in place says they are kept. `kind` names them in messages
    ("recipient": "recipient public key already exists")."""
    if present(public):  # write_secret refuses an existing private key; write_atomic would replace this
        named = f"{kind} public key".strip()
        raise OutputError(f"{public}: {named} already exists; not overwriting it")
    try:
        with deferred():
            write_secret(private, private_pem, what=f"{kind} private key".strip())
            pause_point("private-key-written")
            try:
                write_atomic(public, public_pem)
            except BaseException:  # a pair or nothing: this private key is new, unused and ours to remove
                private.unlink(missing_ok=True)
                raise
    except Interrupted as exc:
        if private.exists() and public.exists():
            raise Interrupted(exc.signum, f"the key pair {private}, {public} was complete and is kept") \
                from None
        raise

FOLDER_MODE = 0o700  # a finished run folder: it holds every outcome (pool, imaging, validation files)
_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")


def check_run_id(run_id: str) -> str:
    """A run id is one plain folder name: it can neither nest in nor escape the output folder."""
    if not _RUN_ID.match(run_id):
        raise OutputError(f"--run-id {run_id!r}: use letters, digits, '.', '_' and '-' only, starting "
                          "with a letter or digit (one folder name, at most 128 characters)")
    return run_id


def ensure_folder(folder: Path) -> None:
    """Create `folder` (and parents) if needed, or say in one line why it cannot be written; never in a
    run folder (a run or bundle is written beside runs, never inside one)."""
    refuse_run_folder(folder, "new run folder")
    try:
        make_folders(folder, 0o755)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot create output folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{folder}: output folder is not writable")


def ensure_new(final: Path) -> None:
    if present(final):
        raise OutputError(f"{final}: already exists; a run folder is never overwritten")


_LIBC = ctypes.CDLL(None, use_errno=True)
_AT_FDCWD, _RENAME_NOREPLACE = -100, 1  # <fcntl.h>, <linux/fs.h>


def rename_new(src: Path, dst: Path) -> None:
    """Rename `src` to `dst`, which must not exist: FileExistsError if it does, even as an empty folder
    (plain rename(2) would silently replace an empty folder).

    Linux's renameat2(RENAME_NOREPLACE) makes the check and the rename one step. Where it is missing
    (another OS, an old kernel, a file system without it) the check comes just before the rename."""
    renameat2 = getattr(_LIBC, "renameat2", None)
    if renameat2 is not None:
        if renameat2(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), _RENAME_NOREPLACE) == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.ENOSYS, errno.EINVAL):
            raise OSError(code, os.strerror(code), str(dst))  # EEXIST is a FileExistsError
    if os.path.lexists(dst):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(dst))
    os.rename(src, dst)


@contextmanager
def staged_folder(final: Path, committed: Callable[[Path], None] | None = None, *,
                  mode: int = FOLDER_MODE) -> Iterator[Path]:
    """Yield a temporary folder beside `final`; rename it to `final` only if the block succeeds.

    On any error or interruption the temporary folder is removed, so `final` either does not
    exist or is complete. An existing `final` is never replaced. `committed(final)` runs just after
    the rename, with Ctrl-C and SIGTERM held back from the rename until it returns (so a run's seed
    is named with it). The folder is 0700 while it is written and `mode` once in place (`FOLDER_MODE`
    for a folder of outcomes; 0755 for one that holds none, a publish bundle or a ship folder); it
    is locked while in use, so a later `poolgen.files.leftovers.sweep`, or the next write of `final`,
    removes it only once its writer is gone.
    """
    final = Path(final)
    parent = final.parent
    ensure_folder(parent)
    ensure_new(final)
    _say_cleared(final)  # what killed writes of `final` left: said, never reused
    tmp, held = _new_staging(final)
    try:
        pause_point("staged")
        yield tmp
        fsync_folder(tmp)
        os.chmod(tmp, mode)
        pause_point("before-rename")
        with deferred():
            try:
                rename_new(tmp, final)
            except FileExistsError:
                raise OutputError(f"{final}: appeared while this folder was being written; not replacing "
                                  "it") from None
            except OSError as exc:
                raise OutputError(f"{final}: cannot move the finished folder into place: "
                                  f"{exc.strerror or exc}") from None
            kept(final)
            pause_point("renamed")
            if committed is not None:
                committed(final)
            fsync_folder(parent)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
        os.close(held)


def _new_staging(final: Path) -> tuple[Path, int]:
    """A new staging folder `.NAME.partial-XXXXXXXX` beside `final`, 0700, open and locked as in use. As
    for a temporary file (`new_temporary`): another write of `final` clearing what killed writes left may
    take it before it is locked (it looks abandoned then); it is then no longer at its name (or still
    held by that clearing, which removes it), and another is made under a new name."""
    for _ in range(8):
        tmp = final.parent / f".{final.name}.partial-{secrets.token_hex(4)}"
        try:
            tmp.mkdir(mode=0o700)
            held = os.open(tmp, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:  # taken between the two
            continue
        except OSError as exc:
            raise OutputError(f"{final.parent}: cannot write: {exc.strerror or exc}") from None
        try:
            pause_point("staging-made")  # a test clears here, as another write of `final` may
            if lock(held) and os.fstat(held).st_ino == os.lstat(tmp).st_ino:
                os.fchmod(held, 0o700)  # whatever the umask
                return tmp, held
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(held)
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        os.close(held)
    raise OutputError(f"{final}: cannot keep a staging folder: other writes of it remove them")


def create_secret_file(path: Path) -> BinaryIO:
    """A new file of mode 0600 whatever the umask, opened for binary writing; never replaces a file."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)  # the umask can only narrow the mode; this says it exactly
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


_OS_ERROR = re.compile(r"\(os error (\d+)\)")  # how polars (Rust's std::io::Error) names the system's error


@contextmanager
def secret_output(path: Path, what: str) -> Iterator[BinaryIO]:
    """`create_secret_file(path)` for the block to write, then flushed and fsync'd; a failed write (a full
    disk, a file size limit) is one OutputError naming the file and `what` it is. polars' writers pass
    the system's error on as a polars error whose text ends "(os error N)", not an OSError: that is one
    too (any other polars error is left as it is; this module does not import polars)."""
    try:
        with create_secret_file(path) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise OutputError(f"{path}: cannot write {what}: {exc.strerror or exc}") from None
    except Exception as exc:
        code = _OS_ERROR.search(str(exc)) if type(exc).__module__.startswith("polars") else None
        if code is None:
            raise
        raise OutputError(f"{path}: cannot write {what}: {os.strerror(int(code.group(1)))}") from None


def write_secret_bytes(path: Path, data: bytes) -> None:
    """Write a new outcome-holding file (mode 0600) and make it durable."""
    with create_secret_file(path) as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def canonical_bytes(doc: dict[str, Any]) -> bytes:
    """The one byte string a document (a manifest, a ceremony) serialises to: JSON, keys sorted, UTF-8,
    separators "," and ":" with no insignificant whitespace, no NaN or infinity."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")
