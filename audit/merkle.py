"""Merkle roots and audit paths, written from docs/merkle.md (poolgen-merkle/v1) alone.

M(row) = header || values; the header (column names and type tags) is the same for every row of a
table, so each leaf continues a SHA-256 state that has absorbed 0x00 || header. A table's rows are
partitioned by the byte lengths of their string values, so that within a part every row's values
have one width and the part is one matrix, assembled column by column and hashed row by row.
Paths are checked against the sides that RFC 6962's recursive PATH definition gives for the leaf's
index and the tree's size.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

ALGORITHM = "poolgen-merkle/v1"
_LEAF = b"\x00"
_NODE = b"\x01"
_MAX = 2**63 - 1


class MerkleError(ValueError):
    """A value outside the row encoding, or a malformed path."""


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def header(columns: Sequence[tuple[str, bytes]]) -> bytes:
    """u32be(k), then u32be(len(name)) || name || tag for each (name, tag), already in order."""
    return _u32(len(columns)) + b"".join(_u32(len(n.encode("utf-8"))) + n.encode("utf-8") + tag
                                         for n, tag in columns)


def encode_value(column: str, value: object) -> tuple[bytes, bytes]:
    """(tag, encoding) of one value (section 1 of docs/merkle.md), from its JSON/Python type."""
    if value is True or value is False:
        return b"b", b"\x01" if value else b"\x00"
    if type(value) is int:
        if value < -(2**63) or value > _MAX:
            raise MerkleError(f"column {column!r}: integer {value} is outside 64 signed bits")
        return b"i", value.to_bytes(8, "big", signed=True)
    if type(value) is str:
        raw = value.encode("utf-8")
        return b"s", _u32(len(raw)) + raw
    raise MerkleError(f"column {column!r}: {value!r} has no encoding (only integers, strings, booleans)")


def leaf_of_row(row: Mapping[str, object]) -> bytes:
    """leaf(row) = SHA-256(0x00 || M(row)) for a row given as {column: value}."""
    names = sorted(row, key=lambda c: c.encode("utf-8"))
    encoded = [encode_value(name, row[name]) for name in names]
    h = hashlib.sha256(_LEAF)
    h.update(header([(name, tag) for name, (tag, _) in zip(names, encoded, strict=True)]))
    for _, value in encoded:
        h.update(value)
    return h.digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_NODE + left + right).digest()


def _is_text(t: pl.DataType) -> bool:
    return t in (pl.String, pl.Categorical) or isinstance(t, pl.Enum)


def _tag(name: str, t: pl.DataType, col: pl.Series) -> bytes:
    """The column's type tag; refuses a column the encoding does not cover."""
    if col.null_count():
        raise MerkleError(f"column {name!r} holds null values, which have no encoding")
    if t.is_integer():
        if t == pl.UInt64 and col.len() and int(col.max()) > _MAX:
            raise MerkleError(f"column {name!r} holds an integer above 2^63 - 1")
        return b"i"
    if t == pl.Boolean:
        return b"b"
    if _is_text(t):
        return b"s"
    raise MerkleError(f"column {name!r} has type {t}, which has no encoding")


def _values(tag: bytes, col: pl.Series) -> np.ndarray:
    """(rows, width) matrix of the column's value encodings; a string column here holds strings of
    one byte length only."""
    m = col.len()
    if tag == b"i":
        return col.cast(pl.Int64).to_numpy().astype(">i8").view(np.uint8).reshape(m, 8)
    if tag == b"b":
        return col.cast(pl.UInt8).to_numpy().reshape(m, 1)
    raw = b"".join(col.cast(pl.String).cast(pl.Binary).to_list())
    width = len(raw) // m
    return np.concatenate([np.broadcast_to(np.frombuffer(_u32(width), np.uint8), (m, 4)),
                           np.frombuffer(raw, np.uint8).reshape(m, width)], axis=1)


def leaves(df: pl.DataFrame, chunk: int = 1 << 16) -> list[bytes]:
    """leaf(row) of every row of a pool table, in row order."""
    names = sorted(df.columns, key=lambda c: c.encode("utf-8"))
    tags = [_tag(c, df.schema[c], df[c]) for c in names]
    start = hashlib.sha256(_LEAF + header(list(zip(names, tags, strict=True))))
    texts = [c for c, tag in zip(names, tags, strict=True) if tag == b"s"]
    row_key, len_keys = "\x00row", [f"\x00len{k}" for k in range(len(texts))]
    if {row_key, *len_keys} & set(names):
        raise MerkleError("a column name starts with a NUL byte")
    keyed = df.with_columns(pl.int_range(pl.len(), dtype=pl.Int64).alias(row_key),
                            *[pl.col(c).cast(pl.String).str.len_bytes().alias(k)
                              for k, c in zip(len_keys, texts, strict=True)])
    parts = keyed.partition_by(len_keys) if texts else [keyed]
    out: list[bytes | None] = [None] * df.height
    for part in parts:
        rows = part[row_key].to_list()
        for lo in range(0, part.height, chunk):
            piece = part.slice(lo, chunk)
            m = piece.height
            if m == 0:
                continue
            blocks = [_values(tag, piece[c]) for c, tag in zip(names, tags, strict=True)]
            matrix = np.concatenate(blocks, axis=1) if blocks else np.zeros((m, 0), np.uint8)
            width = matrix.shape[1]
            view = memoryview(np.ascontiguousarray(matrix).tobytes())
            for r, k in zip(rows[lo:lo + m], range(0, m * width, width), strict=True):
                h = start.copy()
                h.update(view[k:k + width])
                out[r] = h.digest()
    return out  # type: ignore[return-value]


def root_of_leaves(hashes: Sequence[bytes]) -> bytes:
    """RFC 6962 Merkle Tree Hash of the leaf hashes (an odd last node moves up unchanged)."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    level = list(hashes)
    sha = hashlib.sha256
    while len(level) > 1:
        up = [sha(_NODE + level[i] + level[i + 1]).digest() for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            up.append(level[-1])
        level = up
    return level[0]


def table_root(df: pl.DataFrame) -> bytes:
    """The Merkle root of a pool table."""
    return root_of_leaves(leaves(df))


def expected_sides(index: int, size: int) -> list[str]:
    """Sides of the siblings on leaf `index`'s path, leaf upwards, from RFC 6962's PATH(m, D[n])."""
    if not 0 <= index < size:
        raise MerkleError(f"position {index} is outside a tree of {size} leaves")
    sides: list[str] = []
    lo, n, m = 0, size, index
    while n > 1:  # descend; the sibling subtree at each split is recorded, then reversed
        k = 1 << ((n - 1).bit_length() - 1)
        if m < k:
            sides.append("right")
            n = k
        else:
            sides.append("left")
            m, lo, n = m - k, lo + k, n - k
    return sides[::-1]


def root_from_path(leaf: bytes, index: int, size: int, path: Sequence[Mapping[str, str]]) -> bytes:
    """Fold a path into a root; raises MerkleError if its shape is not that of leaf `index`."""
    want = expected_sides(index, size)
    got = [step.get("side") for step in path]
    if got != want:
        raise MerkleError(f"the path's sides {got} are not those of position {index} in a tree of "
                          f"{size} leaves ({want})")
    h = leaf
    for step in path:
        try:
            sibling = bytes.fromhex(step["hash"])
        except (KeyError, TypeError, ValueError):
            raise MerkleError("a path step's hash is not hexadecimal") from None
        if len(sibling) != 32:
            raise MerkleError(f"a path step's hash is {len(sibling)} bytes, not 32")
        h = node(sibling, h) if step["side"] == "left" else node(h, sibling)
    return h
