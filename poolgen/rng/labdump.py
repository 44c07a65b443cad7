"""Dumps of one DRBG stream for test labs: raw keystream bytes, or the scaled outputs (integers in
[0, n), permutations) exactly as `poolgen.rng.sampling` makes them for the generator.

A dump is a pure function of (seed, label, request): the same call gives the same bytes, and the
first bytes of a longer dump are a shorter dump. Dumps of a real run's seed are its outcomes, so a
dump file is written like a secret (mode 0600, temporary name then a link that never replaces a
file) and never inside a run folder; labs should be given a test seed (docs/lab-testing.md).
"""

from __future__ import annotations

import os
import re
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

import numpy as np

from audit.pipes import StandardOutputError
from poolgen.errors import OutputError, PoolgenError
from poolgen.files.write import discard, fsync_folder, new_temporary, present, resolved
from poolgen.interrupts import kept
from poolgen.rng import derive_stream, integers, permutation, row_permutations
from poolgen.rng.drbg import Stream
from poolgen.rng.labels import LABEL_ROOT

CHUNK = 1 << 20  # bytes read from the stream at a time
LINES = 1 << 20  # values formatted at a time
# Bounds of a request (docs/lab-testing.md): each is far above what a battery needs and keeps a
# command's memory small and its time bounded (the keystream runs at about 1.4 GB/s on one core).
MAX_CALL = 10_000_000  # values in one sampling call (a pool's tickets); --repeat asks for more
MAX_VALUES = 1_000_000_000  # values in one dump, all calls
MAX_SKIP = 64 << 30  # keystream bytes passed over (under a minute)
MAX_BYTES = 1 << 40  # keystream bytes in one dump
MAX_REPEAT = MAX_VALUES
MAX_BOUND = (1 << 63) - 1
_SIZE = re.compile(r"([0-9]{1,20})([KMGT]?)")
_WHOLE = re.compile(r"[0-9]{1,20}")
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class DumpError(PoolgenError):
    """A dump request cannot be carried out (the message names the option)."""


def parse_label(text: str) -> tuple[str, ...]:
    """A stream label as the manifest writes it (`drbg.streams`: parts joined by '/'), as its parts.

    The root part "poolgen/v1" holds a slash itself, so a label starting with "poolgen/v1/" is that
    part followed by the rest split at '/': "poolgen/v1/GAME/p1/order" is
    ("poolgen/v1", "GAME", "p1", "order"). Give a label with other slashes part by part (--part)."""
    if text.startswith(LABEL_ROOT + "/"):
        parts = (LABEL_ROOT, *text[len(LABEL_ROOT) + 1:].split("/"))
    else:
        parts = tuple(text.split("/"))
    if any(not p for p in parts):
        raise DumpError(f"--label {text[:80]!r}: a label is non-empty parts joined by '/'")
    return check_parts(parts, "--label")


MAX_LABEL_PARTS = 64
MAX_PART_CHARS = 256


def check_parts(parts: tuple[str, ...], option: str) -> tuple[str, ...]:
    """A label's parts: at most MAX_LABEL_PARTS, each of 1 to MAX_PART_CHARS printable characters."""
    if len(parts) > MAX_LABEL_PARTS:
        raise DumpError(f"{option}: more than {MAX_LABEL_PARTS} label parts")
    for p in parts:
        if not p or len(p) > MAX_PART_CHARS or not p.isprintable():
            raise DumpError(f"{option} {p[:40]!r}: a label part is 1 to {MAX_PART_CHARS} printable "
                            "characters")
    return parts


def parse_size(text: str, option: str, most: int, unit: str = "") -> int:
    """A count such as 1000, 64K, 16M or 1G (ASCII digits; binary units: 1K = 1024), at most `most`."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise DumpError(f"{option} {text!r}: give a whole number, optionally with K, M, G or T (x1024)")
    value = int(m.group(1)) * _UNITS[m.group(2)]
    if value > most:
        raise DumpError(f"{option} {text}: at most {most:,}{unit}")
    return value


def parse_whole(text: str, option: str, least: int, most: int) -> int:
    """A whole number in ASCII digits from `least` to `most`."""
    if not _WHOLE.fullmatch(text) or not least <= int(text) <= most:
        raise DumpError(f"{option} {text!r}: give a whole number from {least:,} to {most:,}")
    return int(text)


def parse_bounds(text: str) -> list[int]:
    """--high: bounds in ASCII digits separated by commas, each from 1 to 2**63 - 1."""
    parts = text.split(",")
    if len(parts) > MAX_CALL or not all(_WHOLE.fullmatch(p) for p in parts):
        raise DumpError(f"--high {text[:40]!r}: whole numbers separated by commas")
    bounds = [int(p) for p in parts]
    if any(not 1 <= b <= MAX_BOUND for b in bounds):
        raise DumpError("--high: every bound is a whole number from 1 to 2**63 - 1")
    return bounds


def _total(values: int, repeat: int, option: str) -> None:
    if values * repeat > MAX_VALUES:
        raise DumpError(f"{option} x --repeat: {values * repeat:,} values; at most {MAX_VALUES:,} in one "
                        "dump")


def keystream_chunks(stream: Stream, count: int) -> Iterator[bytes]:
    """The next `count` bytes of the stream, a chunk at a time (the same bytes as one read)."""
    left = count
    while left:
        size = min(CHUNK, left)
        yield stream.read(size)
        left -= size


def check_integers(high: list[int], count: int, repeat: int) -> None:
    """An integers request within the bounds above, or DumpError naming the option."""
    if not high or any(h < 1 for h in high) or max(high) > MAX_BOUND:
        raise DumpError("--high: every bound is a whole number from 1 to 2**63 - 1")
    if len(high) == 1 and not 0 <= count <= MAX_CALL:
        raise DumpError(f"--count {count}: at most {MAX_CALL:,} values per call; use --repeat for more")
    _total(count if len(high) == 1 else len(high), repeat, "--count" if len(high) == 1 else "--high")


def check_permutations(n: int, rows: int | None, repeat: int) -> None:
    """A permutations request within the bounds above, or DumpError naming the option."""
    if not 0 <= n <= MAX_CALL or (rows is not None and not (0 <= rows <= MAX_CALL and rows * n <= MAX_CALL)):
        raise DumpError(f"--n {n}: at most {MAX_CALL:,} values per call; use --repeat for more")
    _total(n * (1 if rows is None else rows), repeat, "--n")


def integer_chunks(stream: Stream, high: list[int], count: int, repeat: int) -> Iterator[bytes]:
    """Text, one value per line: `repeat` successive calls of `integers(stream, high, size=count)`
    (one bound), or of `integers(stream, array(high))` (one value per bound). The request is checked
    when this is called, before the stream is read."""
    check_integers(high, count, repeat)
    bounds = np.array(high, dtype=np.int64)

    def calls() -> Iterator[bytes]:
        for _ in range(repeat):
            yield from _lines(integers(stream, high[0], size=count) if len(high) == 1 else
                              integers(stream, bounds))
    return calls()


def permutation_chunks(stream: Stream, n: int, rows: int | None, repeat: int) -> Iterator[bytes]:
    """Text, one value per line: `repeat` successive `permutation(stream, n)`, or with `rows`,
    `row_permutations(stream, rows, n)` row after row (as the layouts draw them). The request is
    checked when this is called."""
    check_permutations(n, rows, repeat)

    def calls() -> Iterator[bytes]:
        for _ in range(repeat):
            yield from _lines(permutation(stream, n) if rows is None else row_permutations(stream, rows, n))
    return calls()


def _lines(values: np.ndarray) -> Iterator[bytes]:
    """The values as text, one a line, LINES at a time (a whole call's text is never held at once)."""
    flat = values.reshape(-1)
    for at in range(0, flat.size, LINES):
        yield ("\n".join(map(str, flat[at:at + LINES].tolist())) + "\n").encode("ascii")


def open_stream(seed: bytes, label: tuple[str, ...], skip: int = 0) -> Stream:
    """The stream of `label` under `seed`, after its first `skip` bytes."""
    try:
        stream = derive_stream(seed, *label)
    except ValueError as exc:
        raise DumpError(str(exc)) from None
    for _ in keystream_chunks(stream, skip):
        pass
    return stream


def write_dump(out: Path | None, chunks: Iterator[bytes]) -> int:
    """Write the chunks to `out` (a new file, mode 0600) or, for None, to standard output; the number
    of bytes written."""
    if out is None:
        try:
            fd = sys.stdout.fileno()
        except (OSError, ValueError):  # io.UnsupportedOperation: a stdout held in memory (a test runner's)
            return _copy(chunks, sys.stdout.buffer)
        sys.stdout.flush()  # anything already written goes first, then the dump through the descriptor
        try:
            return copy_to_fd(chunks, fd)
        except BrokenPipeError:
            raise
        except OSError as exc:  # into a file on a full disk: said in one line (audit/pipes.py)
            raise StandardOutputError(exc.errno, exc.strerror) from None
    with _new_secret_file(Path(out)) as f:
        return _copy(chunks, f)


def copy_to_fd(chunks: Iterator[bytes], fd: int) -> int:
    """Write the chunks to descriptor `fd`, all of each: a write(2) may take part of a chunk (the rest
    goes next), and a non-blocking descriptor (O_NONBLOCK set by whoever opened the pipe, which the
    process shares) may take none: then wait until poll says it takes more, never spin nor raise
    (through Python's buffered writer the first EAGAIN was a traceback, exit 120, and the bytes of a
    chunk it held were lost). A reader gone raises BrokenPipeError as a blocking write would."""
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    total = 0
    for chunk in chunks:
        rest = memoryview(chunk)
        while rest:
            try:
                rest = rest[os.write(fd, rest):]
            except BlockingIOError:
                poller.poll()  # POLLOUT, or POLLERR/POLLHUP: the next write says which (EPIPE raises)
        total += len(chunk)
    return total


def _copy(chunks: Iterator[bytes], f: BinaryIO) -> int:
    total = 0
    for chunk in chunks:
        rest = memoryview(chunk)
        while rest:  # a raw file may take part of it: the rest goes next, or raises
            rest = rest[f.write(rest) or 0:]
        total += len(chunk)
    f.flush()
    return total


@contextmanager
def _new_secret_file(path: Path) -> Iterator[BinaryIO]:
    """A new 0600 file: written under a temporary name, linked to `path` only when complete."""
    folder = resolved(path).parent
    if any(os.path.exists(f / "manifest.json") for f in (folder, *folder.parents)):
        raise OutputError(f"{path}: would put a stream dump inside a run folder (it holds manifest.json)")
    if present(path):
        raise OutputError(f"{path}: already exists; not overwriting it")
    tmp: Path | None = None
    try:
        tmp, fd = new_temporary(path, 0o600)  # locked until linked (poolgen.files.leftovers)
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
            os.link(tmp, path)  # fails if `path` appeared meanwhile
        kept(path)
        fsync_folder(path.parent)
    except FileExistsError:
        raise OutputError(f"{path}: already exists; not overwriting it") from None
    except OSError as exc:
        raise OutputError(f"{path}: cannot write the dump: {exc.strerror or exc}") from None
    finally:
        discard(tmp)
