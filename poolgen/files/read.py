"""The input boundary: every file poolgen reads passes here before it is parsed.

`read_input` opens without blocking (a FIFO or device never hangs the command), refuses anything
but a regular file, and reads at most `limit` + 1 bytes; `read_secret` also refuses a seed or
private key that others may read. `parse_toml` bounds nesting and digit runs before tomllib sees
the text (tomllib recurses once per bracket and converts digits without limit). Every failure is
`error` with one line naming the file; the bounds are `poolgen.limits`.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tomllib
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO

from poolgen.errors import PoolgenError
from poolgen.limits import MAX_DIGIT_RUN, MAX_KEY_FILE_BYTES, MAX_NESTING

READABLE_SECRET_FLAG = "--allow-readable-secret"
PASSPHRASE_ENV = "POOLGEN_KEY_PASSPHRASE"  # where a private key's passphrase may come from (run/signing.py)


def _open_regular(path: Path, what: str, error: type[PoolgenError]) -> tuple[int, os.stat_result]:
    shown = printable(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise error(f"{shown}: {what} file not found") from None
    except OSError as exc:
        raise error(f"{shown}: cannot read {what} file: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if stat.S_ISDIR(st.st_mode):
        os.close(fd)
        raise error(f"{shown}: is a folder, not a {what} file")
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise error(f"{shown}: is not a regular file (a pipe, device or socket); give a {what} file")
    return fd, st


def _read_fd(fd: int, path: Path, what: str, limit: int, error: type[PoolgenError]) -> bytes:
    shown = printable(path)
    size = os.fstat(fd).st_size
    if size > limit:  # refused before a byte is read
        os.close(fd)
        raise error(f"{shown}: {size:,} bytes, larger than {limit:,}; not {_a(what)} file")
    chunks, total = [], 0
    try:
        while total <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise error(f"{shown}: cannot read {what} file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if total > limit:  # it grew while it was read
        raise error(f"{shown}: larger than {limit:,} bytes; not {_a(what)} file")
    return b"".join(chunks)


def _a(what: str) -> str:
    return ("an " if what[:1] in "aeiou" else "a ") + what


def read_input(path: Path, what: str, error: type[PoolgenError], limit: int = MAX_KEY_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, or `error` naming the file."""
    fd, _ = _open_regular(Path(path), what, error)
    return _read_fd(fd, Path(path), what, limit, error)


def open_input(path: Path, what: str, error: type[PoolgenError]) -> BinaryIO:
    """A regular file opened to be read in chunks, of any size (never a FIFO or device, which could
    block or never end), or `error` naming the file."""
    fd, _ = _open_regular(Path(path), what, error)
    return os.fdopen(fd, "rb")


def read_with_mode(path: Path, what: str, error: type[PoolgenError], limit: int) -> tuple[bytes, int]:
    """As `read_input`, also returning the file's mode bits."""
    fd, st = _open_regular(Path(path), what, error)
    return _read_fd(fd, Path(path), what, limit, error), stat.S_IMODE(st.st_mode)


def refuse_readable(path: Path, what: str, mode: int, error: type[PoolgenError],
                    allow_readable: bool = False) -> None:
    """A secret file (seed, private key) that its group or others may read is refused, unless
    `allow_readable` (the commands' --allow-readable-secret)."""
    if mode & 0o077 and not allow_readable:
        raise error(f"{printable(path)}: the {what} file is mode {mode:04o}: others may read it; make it "
                    f"private (chmod 600) or give {READABLE_SECRET_FLAG}")


def read_secret(path: Path, what: str, error: type[PoolgenError], limit: int,
                allow_readable: bool = False) -> bytes:
    """As `read_input`, for a seed or private key: refused if its group or others may read it."""
    data, mode = read_with_mode(path, what, error, limit)
    refuse_readable(path, what, mode, error, allow_readable)
    return data


# Strings and comments of TOML, removed before brackets are counted (brackets inside them do not nest).
_TOML_NOISE = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*',
                         re.S)
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def distinct_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads`'s object_pairs_hook for a document whose objects may not repeat a key (parsers differ
    on which of two wins, so such a document could mean one thing to a reader and another here): a
    ValueError naming the key."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {ascii(key)} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def nesting_depth(text: str, noise: re.Pattern[str]) -> int:
    """The deepest nesting of brackets and braces outside strings (and comments)."""
    marks = _BRACKETS.findall(noise.sub("", text))
    return max(accumulate(1 if m in "[{" else -1 for m in marks), default=0)


def parse_toml(data: bytes, name: str, error: type[PoolgenError]) -> dict[str, Any]:
    """A TOML document within the nesting and digit bounds, or `error` naming the file."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: not valid TOML: not UTF-8 text (byte {exc.start})") from None
    if text.startswith("\ufeff"):  # what some editors put first; TOML has no place for it
        raise error(f"{name}: not valid TOML: it starts with a byte-order mark; save it as UTF-8 without one")
    if nesting_depth(text, _TOML_NOISE) > MAX_NESTING:
        raise error(f"{name}: not a spec: brackets nested more than {MAX_NESTING} deep")
    if re.search(rf"\d{{{MAX_DIGIT_RUN + 1}}}", text):
        raise error(f"{name}: not a spec: a number of more than {MAX_DIGIT_RUN} digits")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{name}: not valid TOML: {exc}") from None
    except (ValueError, RecursionError) as exc:  # a second line of defence behind the bounds above
        raise error(f"{name}: not valid TOML: {type(exc).__name__}") from None


def display(path: Path | str) -> str:
    """A path as text (a file name that is not UTF-8 shows its bytes escaped)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def printable(path: Path | str) -> str:
    """A path as one printable line: as `display`, and a newline or other control character escaped
    (a file name cannot add a line to an error message)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in display(path))


def file_entry(path: Path) -> dict[str, Any]:
    """Name, size and SHA-256 of a file the tool wrote (a manifest's file entry)."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
            size += len(chunk)
    return {"name": path.name, "bytes": size, "sha256": h.hexdigest()}


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, as 64 lower-case hex digits (read in chunks)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()
