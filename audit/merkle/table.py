"""Every leaf of a pool table at once (docs/merkle.md, section 1, applied to whole columns), and its root.

Speed: the only per-row Python is the hash call (copy the header state, update, digest). A table is
encoded a block of rows at a time (about _BLOCK_BYTES of encodings: the block's matrix stays in the
CPU's cache while its rows are hashed) into one uint8 matrix with numpy: a run of adjacent integer columns is
gathered in a scratch array and written as big-endian int64 by one transposed copy; a string is
u32be(length) || bytes, its field padded with zeros to the longest value of the block (a column whose
values all have one length is copied in as a matrix). If every string column has a single length in
the block, the matrix rows are the encodings. If every varying string's values end in a byte other
than 0x00 (a column such as `tier`), each row is cut just after each varying field and the pieces,
read as numpy's fixed-width bytes (which drop trailing zeros: the field's padding), continue one
state in table order. Otherwise the block's rows are sorted by layout (the lengths of the varying
strings) and each layout's rows, without their padding, are hashed together; a block with many
layouts is packed into one buffer and hashed slice by slice. The per-row chain (copy, update,
digest) is a plain loop: one state at a time, freed before the next is made, stays in cache.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any, cast

import numpy as np
import polars as pl

from audit.merkle.encoding import LEAF_PREFIX, MAX_INT, MAX_TEXT_BYTES, MerkleError, column_order, header, u32
from audit.merkle.tree import root_of_leaves

_BLOCK_BYTES = 1 << 20  # bytes of row encodings per block (a block of 8,192 rows of 344 bytes, 2.8 MB, was
# 15 % slower to hash than one of 3,048 rows on the development machine: docs/scaling.md)
_MIN_BLOCK = 1 << 10  # fewest rows per block (a block's numpy calls cost the same whatever its rows)
_ROWS_PER_LAYOUT = 256  # fewest rows per string-length layout, on average, to hash by layout

# (tag, data): b"i" the int64 arrays of a run of adjacent integer columns, b"b" a boolean array,
# b"s" a _Text
Column = tuple[bytes, Any]
Padded = tuple[int, int, np.ndarray]  # a string field whose lengths vary: (offset, padded width, lengths)


def _is_text(t: pl.DataType) -> bool:
    return t in (pl.String, pl.Categorical) or isinstance(t, pl.Enum)


def _is_int(t: pl.DataType) -> bool:
    """int8..int64, uint8..uint64 (Int128 and other wider types are not in the encoding)."""
    return t in (pl.Int8, pl.Int16, pl.Int32, pl.Int64, pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64)


def _tag(name: str, col: pl.Series) -> bytes:
    """The column's type tag; refuses a column the encoding does not cover."""
    t = col.dtype
    if col.null_count():
        raise MerkleError(f"column {name!r} holds null values, which have no encoding")
    if _is_int(t):
        if t == pl.UInt64 and col.len() and cast(int, col.max()) > MAX_INT:
            raise MerkleError(f"column {name!r} holds an integer above 2^63 - 1")
        return b"i"
    if t == pl.Boolean:
        return b"b"
    if _is_text(t):
        return b"s"
    raise MerkleError(f"column {name!r} has type {t}, which has no encoding")


class _Text:
    """A string column: its UTF-8 bytes. If every value has `top` bytes (`varies` false), `rows` is the
    (rows, top) matrix of them; else `data` holds them back to back, `lens` their byte lengths and
    `offs` each row's offset into `data`."""

    def __init__(self, name: str, col: pl.Series) -> None:
        text = col if col.dtype == pl.String else col.cast(pl.String)
        lens = text.str.len_bytes()
        self.top = cast(int, lens.max()) if len(text) else 0
        if self.top > MAX_TEXT_BYTES:
            raise MerkleError(f"column {name!r} holds a string too long to encode")
        self.varies = bool(len(text)) and cast(int, lens.min()) != self.top
        joined = text.str.join("").cast(pl.Binary).item() if len(text) else b""
        self.data = np.frombuffer(joined, np.uint8)
        if self.varies:
            self.lens = lens.to_numpy().astype(np.int64)
            self.offs = np.zeros(len(self.lens) + 1, np.int64)
            np.cumsum(self.lens, out=self.offs[1:])
        else:
            self.rows = self.data.reshape(len(text), self.top)
            self.prefix = np.frombuffer(u32(self.top), np.uint8)  # u32be(top), the same in every row


def _columns(df: pl.DataFrame) -> tuple[list[Column], hashlib._Hash]:
    """[(tag, data)] in encoding order, and SHA-256 of 0x00 || header. data: a numpy array (boolean),
    a _Text (string), or for a run of adjacent integer columns (tag "i") the list of their arrays."""
    names = column_order(df.columns)
    cols: list[Column] = []
    head: list[tuple[str, bytes]] = []
    for name in names:
        col = df.get_column(name)
        tag = _tag(name, col)
        head.append((name, tag))
        if tag == b"i" and cols and cols[-1][0] == b"i":
            cols[-1][1].append(col.to_numpy())
        elif tag == b"i":
            cols.append((tag, [col.to_numpy()]))
        else:
            cols.append((tag, _Text(name, col) if tag == b"s" else col.to_numpy()))
    return cols, hashlib.sha256(LEAF_PREFIX + header(head))


def _width(cols: list[Column]) -> int:
    """The bytes of a row's encoding, its strings counted at their longest."""
    return sum(8 * len(data) if tag == b"i" else 1 if tag == b"b" else 4 + data.top for tag, data in cols)


def _encode(cols: list[Column], lo: int, hi: int) -> tuple[np.ndarray, list[Padded]]:
    """(matrix, padded): the encodings of rows lo..hi as one uint8 matrix, each string field padded
    with zeros to the longest value of the block, and [(byte offset, padded width, lengths)] of the
    string fields whose lengths vary in the block."""
    m = hi - lo
    texts: list[tuple[np.ndarray, int, bool]] = []
    width = 0
    for tag, data in cols:
        if tag == b"s" and data.varies:
            lens = data.lens[lo:hi]
            top = int(lens.max())
            texts.append((lens, top, top != int(lens.min())))
            width += 4 + top
        elif tag == b"s":
            width += 4 + data.top
        else:
            width += 8 * len(data) if tag == b"i" else 1
    matrix = np.empty((m, width), np.uint8)
    padded: list[Padded] = []
    pending = iter(texts)
    at = 0
    for tag, data in cols:
        if tag == b"i":  # a run of integer columns: one row each in a scratch array, then transposed
            run = np.empty((len(data), m), np.int64)  # into the matrix as big-endian int64 (one call)
            for j, values in enumerate(data):
                run[j] = values[lo:hi]
            matrix[:, at:at + 8 * len(data)].view(">i8")[...] = run.T
            at += 8 * len(data)
        elif tag == b"b":
            matrix[:, at] = data[lo:hi]
            at += 1
        elif not data.varies:  # every value of the column has data.top bytes
            matrix[:, at:at + 4] = data.prefix
            matrix[:, at + 4:at + 4 + data.top] = data.rows[lo:hi]
            at += 4 + data.top
        else:
            lens, top, varies = next(pending)
            matrix[:, at:at + 4].view(">u4")[:, 0] = lens
            body = data.data[data.offs[lo]:data.offs[hi]]
            if varies:  # the values, each followed by zeros up to top bytes, laid out in a scratch array
                field = np.zeros((m, top), np.uint8)
                field[np.arange(top) < lens[:, None]] = body
                matrix[:, at + 4:at + 4 + top] = field
                padded.append((at + 4, top, lens))
            elif top:
                matrix[:, at + 4:at + 4 + top] = body.reshape(m, top)
            at += 4 + top
    return matrix, padded


def _digests(start: hashlib._Hash, rows: Iterable[bytes | memoryview]) -> bytes:
    """The 32-byte digests, back to back, of the header state continued with each row."""
    copy = start.copy
    out: list[bytes] = []
    append = out.append
    for row in rows:
        h = copy()
        h.update(row)
        append(h.digest())
    return b"".join(out)


def _split_digests(start: hashlib._Hash, matrix: np.ndarray, padded: list[Padded]) -> np.ndarray | None:
    """(m, 32) leaf hashes of a block whose varying string fields all have values ending in a byte other
    than 0x00 (an empty value ends in its length's 0x00), else None.

    Each row is cut just after each varying field, and each piece ending in such a field is read as
    numpy's fixed-width bytes (`S`), which drop the piece's trailing zeros: the field's padding alone.
    A row's pieces continue one state, in order; no rows are moved."""
    m, width = matrix.shape
    rows = np.arange(m)
    pieces: list[list[bytes]] = []
    begin = 0
    for at, top, lens in padded:
        if not lens.all() or not matrix[rows, at + lens - 1].all():
            return None
        pieces.append(matrix[:, begin:at + top].view(f"S{at + top - begin}")[:, 0].tolist())
        begin = at + top
    if begin < width:
        pieces.append(matrix[:, begin:].view(f"V{width - begin}")[:, 0].tolist())
    if len(pieces) == 1:
        return np.frombuffer(_digests(start, pieces[0]), np.uint8).reshape(m, 32)
    copy = start.copy
    out: list[bytes] = []
    append = out.append
    for row in zip(*pieces, strict=True):
        h = copy()
        for piece in row:
            h.update(piece)
        append(h.digest())
    return np.frombuffer(b"".join(out), np.uint8).reshape(m, 32)


def _row_bytes(matrix: np.ndarray) -> list[bytes]:
    """The rows of an (m, w) uint8 matrix whose rows are contiguous, as bytes objects."""
    m, w = matrix.shape
    return cast(list[bytes], matrix.view(f"V{w}")[:, 0].tolist()) if w else [b""] * m


def _packed_leaves(start: hashlib._Hash, matrix: np.ndarray, padded: list[Padded]) -> np.ndarray:
    """(m, 32) leaf hashes of rows whose string fields were padded: each row, padding dropped by a
    boolean mask, is packed back to back with the others in one buffer and hashed as a slice."""
    m, width = matrix.shape
    keep = np.ones((m, width), bool)
    for at, top, lens in padded:
        keep[:, at:at + top] = np.arange(top) < lens[:, None]
    ends = np.cumsum(keep.sum(axis=1, dtype=np.int64)).tolist()
    buf = memoryview(matrix[keep].tobytes())
    copy = start.copy
    out: list[bytes] = []
    append = out.append
    for a, b in zip([0, *ends[:-1]], ends, strict=True):
        h = copy()
        h.update(buf[a:b])
        append(h.digest())
    return np.frombuffer(b"".join(out), np.uint8).reshape(m, 32)


def _block_leaves(cols: list[Column], start: hashlib._Hash, lo: int, hi: int) -> np.ndarray:
    """(hi - lo, 32) leaf hashes of rows lo..hi.

    When string lengths vary in the block, its rows are sorted by layout (the lengths of the varying
    strings) and each layout's rows, their padding dropped, hashed as one matrix; with many layouts
    (fewer than _ROWS_PER_LAYOUT rows each on average) the block goes to _packed_leaves instead."""
    matrix, padded = _encode(cols, lo, hi)
    m, width = matrix.shape
    if not padded:
        return np.frombuffer(_digests(start, _row_bytes(matrix)), np.uint8).reshape(m, 32)
    split = _split_digests(start, matrix, padded)
    if split is not None:
        return split
    layout = np.zeros(m, np.int64)  # the varying fields' lengths, as one mixed-radix number
    radix = 1
    for _, top, lens in padded:
        layout += lens * radix
        radix *= top + 1
        if radix > 1 << 40:
            return _packed_leaves(start, matrix, padded)
    if radix <= 1 << 16:  # small numbers: counted, and sorted by radix sort
        layout = layout.astype(np.uint16)
        counts = np.bincount(layout)
        kinds = np.flatnonzero(counts)
        counts = counts[kinds]
    else:
        kinds, counts = np.unique(layout, return_counts=True)
    if len(kinds) * _ROWS_PER_LAYOUT > m:
        return _packed_leaves(start, matrix, padded)
    order = np.argsort(layout, kind="stable")
    matrix = matrix[order]
    digests, first = [], 0
    for kind, count in zip(kinds.tolist(), counts.tolist(), strict=True):
        part = matrix[first:first + count]
        first += count
        pieces, begin = [], 0  # the byte ranges of these rows' encodings: all but the padding
        for at, top, _ in padded:
            length, kind = kind % (top + 1), kind // (top + 1)
            if length < top:
                pieces.append((begin, at + length))
                begin = at + top
        if begin < width or not pieces:
            pieces.append((begin, width))
        if len(pieces) == 1:  # a prefix of the padded rows (the last field's padding ends them)
            part = part[:, :pieces[0][1]]
        else:
            part = np.concatenate([part[:, a:b] for a, b in pieces], axis=1)
        digests.append(_digests(start, _row_bytes(part)))
    out = np.empty((m, 32), np.uint8)
    out[order] = np.frombuffer(b"".join(digests), np.uint8).reshape(m, 32)
    return out


def _leaf_matrix(df: pl.DataFrame, chunk: int | None = None) -> np.ndarray:
    """(rows, 32) uint8 matrix of leaf(row) for every row of the table, in row order, computed
    `chunk` rows (default: about _BLOCK_BYTES of encodings) at a time."""
    if chunk and (type(chunk) is not int or chunk < 1):  # 0 or None: the default
        raise ValueError(f"chunk must be a positive integer, not {chunk!r}")
    cols, start = _columns(df)
    chunk = chunk or max(_MIN_BLOCK, _BLOCK_BYTES // max(1, _width(cols)))
    n = df.height
    out = np.empty((n, 32), np.uint8)
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        out[lo:hi] = _block_leaves(cols, start, lo, hi)
    return out


def leaves(df: pl.DataFrame, chunk: int | None = None) -> list[bytes]:
    """leaf(row) of every row of a pool table, in row order, as 32-byte strings; `chunk` rows are
    encoded at a time (the default suits large tables; a small one lets a test cross blocks).

    Raises MerkleError if a column has no encoding (nulls, floats, an integer above 2^63 - 1, ...)."""
    return _leaf_matrix(df, chunk).view("V32").ravel().tolist()


def table_root(df: pl.DataFrame) -> bytes:
    """The Merkle root of a pool table; raises MerkleError if a column has no encoding."""
    return root_of_leaves(_leaf_matrix(df))


