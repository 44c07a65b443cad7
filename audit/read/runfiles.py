"""The run folder's files at the audit's input boundary: every file of a run that the verifier (or
poolgen's readers of a run folder) opens goes through here (docs/pool-files.md, "Reading a run's files").

`run_file` accepts only a regular file of the run folder: not a pipe, device or socket, not a
symbolic link out of the folder, to nothing or in a loop. `open_run_file` also opens it without
blocking and bounds its size; `read_run_bytes` and `hash_run_file` read through it. A Parquet file
(`check_run_parquet`, `read_run_parquet`) has its footer decoded and bounded first (audit/read/parquet.py)
and its columns' types checked against the documented ones before a row is read.
`check_run_folder` passes every file the manifest lists through the same checks, before step 2.
Every refusal is UnusableInput naming the file (exit 2).
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Any

import polars as pl

from audit.errors import UnusableInput
from audit.read.limits import MAX_MANIFEST_BYTES, MAX_SIGNATURE_BYTES
from audit.read.manifest import MANIFEST, SIGNATURE, Manifest
from audit.read.parquet import NotParquet, check_footer, check_pages, literal, read_footer

MAX_RUN_FILE_BYTES = 1 << 32  # a pool or imaging file (a 1,000,000-share pool file is under 100 MB)
VALIDATION_HEADER_BYTES = 4096  # a validation file's header line; then 48 bytes a ticket
VALIDATION_TICKET_BYTES = 48
PACK_LINE_BYTES = 32  # a pack list's line is at most 24 bytes; a book has at least one ticket

# docs/pool-files.md: the columns every pool file shares; docs/validation.md: an imaging file's own.
POOL_COLUMNS: dict[str, Any] = {
    "position": pl.UInt32, "ticket": pl.String, "book": pl.UInt32, "ticket_no": pl.UInt16,
    "serial": pl.UInt32, "tier": pl.String, "prize_cents": pl.Int64, "salt": pl.String}
IMAGING_COLUMNS: dict[str, Any] = {"barcode": pl.String, "virn": pl.String, "book": pl.UInt32,
                                   "ticket_no": pl.UInt16}
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def _a(what: str) -> str:
    return ("an " if what[:1] in "aeiou" else "a ") + what


def _unreadable(path: Path, what: str, exc: OSError) -> UnusableInput:
    return UnusableInput(f"{path}: cannot read {what} file: {exc.strerror or exc}")


def _not_regular(path: Path, what: str) -> UnusableInput:
    return UnusableInput(f"{path}: is not a regular file (a pipe, device or socket); not {_a(what)} file")


def run_file(folder: Path, name: str, what: str) -> Path:
    """`folder`/`name`, once it is a regular file in the run folder (followed symbolic links must
    stay inside it); UnusableInput naming the file if not, or if it does not exist."""
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise UnusableInput(f"{folder}: {name!r} is not a plain file name in the run folder")
    path = Path(folder) / name
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        raise UnusableInput(f"{path}: {what} file not found") from None
    except OSError as exc:
        raise _unreadable(path, what, exc) from None
    if stat.S_ISLNK(st.st_mode):
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            raise UnusableInput(f"{path}: a symbolic link in a loop or to nothing; "
                                f"not {_a(what)} file") from None
        if not target.is_relative_to(Path(folder).resolve()):
            raise UnusableInput(f"{path}: a symbolic link out of the run folder (to {target}); "
                                f"not {_a(what)} file")
        st = os.stat(target)
    if stat.S_ISDIR(st.st_mode):
        raise UnusableInput(f"{path}: is a folder, not {_a(what)} file")
    if not stat.S_ISREG(st.st_mode):
        raise _not_regular(path, what)
    return path


def open_run_file(folder: Path, name: str, what: str, limit: int) -> tuple[int, int]:
    """(file descriptor, size) of a run file of at most `limit` bytes, opened without blocking."""
    path = run_file(folder, name, what)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise _unreadable(path, what, exc) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, what)
        raise UnusableInput(f"{path}: {st.st_size:,} bytes, larger than {limit:,}; not {_a(what)} file")
    return fd, st.st_size


def read_run_bytes(folder: Path, name: str, what: str, limit: int) -> bytes:
    """The bytes of a run file of at most `limit` bytes."""
    fd, size = open_run_file(folder, name, what, limit)
    try:
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise _unreadable(Path(folder) / name, what, exc) from None
    finally:
        os.close(fd)
    if len(data) > limit:  # it grew since it was opened
        raise UnusableInput(f"{Path(folder) / name}: larger than {limit:,} bytes; not {_a(what)} file")
    return data


def hash_run_file(folder: Path, name: str, what: str, limit: int = MAX_RUN_FILE_BYTES) -> tuple[int, str]:
    """(bytes, SHA-256 in hex) of a run file of at most `limit` bytes, read in chunks."""
    fd, _ = open_run_file(folder, name, what, limit)
    h, size = hashlib.sha256(), 0
    try:
        while size <= limit and (chunk := os.read(fd, 1 << 20)):
            h.update(chunk)
            size += len(chunk)
    except OSError as exc:
        raise _unreadable(Path(folder) / name, what, exc) from None
    finally:
        os.close(fd)
    if size > limit:
        raise UnusableInput(f"{Path(folder) / name}: larger than {limit:,} bytes; not {_a(what)} file")
    return size, h.hexdigest()


def check_run_parquet(folder: Path, name: str, what: str, documented: dict[str, Any],
                      damaged_ok: bool = False) -> Path:
    """The path of a Parquet run file whose footer and pages are within audit/read/parquet.py's
    bounds, whose columns are flat integers or text, and whose `documented` columns (those present)
    have their documented types. With `damaged_ok`, a file that is not Parquet at all or is damaged
    (NotParquet) passes: whoever reads it next refuses it (the checklist reports it as a damaged file)."""
    fd, size = open_run_file(folder, name, what, MAX_RUN_FILE_BYTES)
    path = Path(folder) / name
    try:
        meta = read_footer(fd, size)
        check_footer(meta, size)
        check_pages(fd, meta)
    except NotParquet as exc:
        if damaged_ok:
            return path
        raise UnusableInput(f"{path}: not a usable {what} file: {exc}") from None
    except ValueError as exc:
        raise UnusableInput(f"{path}: not a usable {what} file: {exc}") from None
    except OSError as exc:
        raise _unreadable(path, what, exc) from None
    finally:
        os.close(fd)
    try:
        schema = pl.scan_parquet(literal(path), glob=False).collect_schema()
    except (pl.exceptions.PolarsError, OSError, ValueError) as exc:
        if damaged_ok:
            return path
        raise UnusableInput(f"{path}: not a usable {what} file: {' '.join(str(exc).split())[:200]}") from None
    for column, dtype in schema.items():
        want = documented.get(column)
        if want is not None and dtype != want:
            raise UnusableInput(f"{path}: column {column!r} is {dtype}; the documented type is {want}")
        if not (dtype.is_integer() or dtype == pl.String):
            raise UnusableInput(f"{path}: column {column!r} is {dtype}; a run's columns are integers or text")
    return path


def read_run_parquet(folder: Path, name: str, what: str, documented: dict[str, Any],
                     columns: list[str] | None = None) -> pl.DataFrame:
    """Some columns (default: all) of a Parquet run file that `check_run_parquet` accepts, each in one
    contiguous chunk: polars reads a file of several row groups as several chunks, and every step
    that takes a column as a numpy array (steps 4, 6, 8) would copy it again (docs/scaling.md)."""
    return pl.read_parquet(literal(check_run_parquet(folder, name, what, documented)), columns=columns,
                           glob=False).rechunk()


def read_pool(folder: Path, name: str, columns: list[str] | None = None) -> pl.DataFrame:
    """A pool file (docs/pool-files.md), or some of its columns."""
    return read_run_parquet(folder, name, "pool", POOL_COLUMNS, columns)


def imaging_file(folder: Path, name: str) -> tuple[Path, list[str]]:
    """An imaging file (docs/validation.md, section 3) that `check_run_parquet` accepts, and its columns
    (no row read): read it a few columns at a time with `read_columns`, never whole (a 1,010,300-ticket
    file of 30 spots holds 90 text columns, about 2.9 GB decoded; issue 28)."""
    path = check_run_parquet(folder, name, "imaging", IMAGING_COLUMNS)
    return path, pl.read_parquet(literal(path), n_rows=0, glob=False).columns


def read_columns(path: Path, columns: list[str]) -> pl.DataFrame:
    """Some columns of a Parquet run file `check_run_parquet` accepted, each in one contiguous chunk."""
    return pl.read_parquet(literal(path), columns=columns, glob=False).rechunk()


def deliverable_limit(role: object, tickets: int) -> int:
    """The most bytes a deliverable of `role` can hold in a run of `tickets` tickets."""
    if role in ("validation", "validation-high"):
        return VALIDATION_HEADER_BYTES + VALIDATION_TICKET_BYTES * tickets
    if role == "packs":
        return VALIDATION_HEADER_BYTES + PACK_LINE_BYTES * tickets
    return MAX_RUN_FILE_BYTES


def run_tickets(manifest: Manifest) -> int:
    return sum(p.tickets for p in manifest.pools)


def split_order_tickets(manifest: Manifest) -> int:
    """`print.split.order_tickets` when that is a whole number above 0 (not a boolean), else 0: the
    order whose every book a split run's pack list names (step 5 judges its form)."""
    split = (manifest.doc.get("print") or {}).get("split") if isinstance(manifest.doc.get("print"), dict) \
        else None
    whole = split.get("order_tickets") if isinstance(split, dict) else 0
    return whole if isinstance(whole, int) and not isinstance(whole, bool) and whole > 0 else 0


def pack_list_tickets(manifest: Manifest) -> int:
    """The tickets a run's pack list may name: its pools', or a split order's whole order (its pack
    list lists every book of the order whatever pools the run holds, docs/validation.md section 4),
    `split_order_tickets` when above them."""
    return max(run_tickets(manifest), split_order_tickets(manifest))


def check_run_folder(folder: Path, manifest: Manifest) -> None:
    """Every file the manifest lists that is present in the run folder passes the boundary above
    (whether each is the file the manifest describes is step 2's to say, and a Parquet file that is
    damaged rather than hostile is step 3's or 9's); UnusableInput if not."""
    folder = Path(folder)
    for name, what, limit in ((MANIFEST, "manifest", MAX_MANIFEST_BYTES),
                              (SIGNATURE, "signature", MAX_SIGNATURE_BYTES)):
        if os.path.lexists(folder / name):
            os.close(open_run_file(folder, name, what, limit)[0])
    for pool in manifest.pools:
        if os.path.lexists(folder / pool.file):
            check_run_parquet(folder, pool.file, "pool", POOL_COLUMNS, damaged_ok=True)
    files = manifest.doc.get("deliverables", [])
    if not isinstance(files, list):
        return  # step 2 says the listing is not a list of files
    tickets = run_tickets(manifest)
    for entry in files:
        listed = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(listed, str) or "/" in listed or not os.path.lexists(folder / listed):
            continue
        name, role = listed, entry.get("role")
        if role == "imaging":
            check_run_parquet(folder, name, "imaging", IMAGING_COLUMNS, damaged_ok=True)
        elif role != "pool":
            kind = {"packs": "pack list", "validation-high": "validation"}.get(role, role) \
                if isinstance(role, str) and role.isprintable() else "deliverable"
            bound = pack_list_tickets(manifest) if role == "packs" else tickets
            os.close(open_run_file(folder, name, kind, deliverable_limit(role, bound))[0])
