"""The Merkle tree over a pool's tickets in pool order; docs/merkle.md is the definition.

- Row encoding M = header || values. The header names the columns, in ascending order of the
  UTF-8 bytes of their names: u32be(count), then per column u32be(len(name)) || name || tag, with
  tag b"i" (integers), b"s" (strings; categoricals by their text) or b"b" (booleans). The values
  follow in the same order: an integer as 8 bytes big-endian two's complement, a string as
  u32be(len) || UTF-8 bytes, a boolean as 0x00/0x01. Nulls, floats and nested values have no
  encoding: such a table has no root.
- Leaf hash SHA-256(0x00 || M); node hash SHA-256(0x01 || h_1 || ... || h_c) over 2 to 16 child
  hashes; level by level, groups of 16 consecutive hashes, a group of one moves up unchanged.

Speed: each SHA-256 call costs about a microsecond in CPython whatever its length, so the work is
one call chain per row (copy the state that absorbed 0x00 || header, update, digest) plus one per 16
hashes above, and everything else is numpy. The chain is a plain loop, one state at a time: a state
freed at once is the next one's memory, still in cache (2,048 states copied, then updated, then
digested by C-level `map`s were 10 % slower). A string's bytes come out of polars as one buffer.
When every string column whose byte lengths vary has values that end in a byte other than 0x00 (a
pool's `tier`), rows are not grouped by length (_segments): the row is cut after
each such column into segments, each laid out a chunk of rows at a time, in table order, into a
reused buffer (the varying column at its longest, zero-padded; integers byte-swapped as they are
written through a strided view), and numpy's fixed-width bytes (`S`) drop each row's padding as the
segment is handed to the hash. Other tables are grouped by their strings' lengths (_groups).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

if TYPE_CHECKING:  # the type of hashlib's objects, which typeshed names here
    from _hashlib import HASH

ALGORITHM = "poolgen-merkle/v2"
LEAF, NODE = b"\x00", b"\x01"
ARITY = 16
_INT64_MAX = (1 << 63) - 1

__all__ = ["ALGORITHM", "ARITY", "MerkleError", "Tree", "leaf_hashes", "path_for", "root",
           "row_message"]


class MerkleError(ValueError):
    """A table or row has a value the row encoding does not cover."""


def _order(names: Iterable[str]) -> list[str]:
    return sorted(names, key=lambda c: c.encode("utf-8"))


def _header(columns: list[tuple[str, str]]) -> bytes:
    """u32be(count) || per column u32be(len name) || name || tag, for (name, tag) in order."""
    out = len(columns).to_bytes(4, "big")
    for name, tag in columns:
        raw = name.encode("utf-8")
        out += len(raw).to_bytes(4, "big") + raw + tag.encode("ascii")
    return out


def _tag_value(column: str, v: object) -> tuple[str, bytes]:
    if isinstance(v, bool):
        return "b", b"\x01" if v else b"\x00"
    if isinstance(v, int):
        if not -(1 << 63) <= v <= _INT64_MAX:
            raise MerkleError(f"column {column!r}: {v} does not fit in 64 signed bits")
        return "i", v.to_bytes(8, "big", signed=True)
    if isinstance(v, str):
        raw = v.encode("utf-8")
        return "s", len(raw).to_bytes(4, "big") + raw
    kind = "null" if v is None else type(v).__name__
    raise MerkleError(f"column {column!r}: a {kind} value has no row encoding")


def row_message(row: Mapping[str, object]) -> bytes:
    """M for one row given as {column: value} (as a proof prints it)."""
    names = _order(row)
    encoded = [_tag_value(c, row[c]) for c in names]
    return _header([(c, tag) for c, (tag, _) in zip(names, encoded, strict=True)]) + b"".join(
        value for _, value in encoded)


@dataclass(frozen=True)
class _Text:
    """A string column's UTF-8 bytes: per-row byte lengths, and the rows left-aligned in a
    zero-padded (n, longest) matrix."""

    lengths: np.ndarray
    padded: np.ndarray

    @classmethod
    def of(cls, s: pl.Series) -> _Text:
        s = s.cast(pl.String)
        n = len(s)
        lengths = s.str.len_bytes().to_numpy().astype(np.int64)
        longest = int(lengths.max()) if n else 0
        flat = np.frombuffer(s.str.join("").cast(pl.Binary).item(), dtype=np.uint8) if n else \
            np.zeros(0, np.uint8)
        if len(flat) == n * longest:
            return cls(lengths, flat.reshape(n, longest))
        padded = np.zeros((n, longest), dtype=np.uint8)  # row-major: each row's bytes, then its zeros
        padded[np.arange(longest) < lengths[:, None]] = flat
        return cls(lengths, padded)


def _columns(df: pl.DataFrame) -> list[tuple[str, str, np.ndarray | _Text]]:
    """Per column in encoding order: (name, tag, values): tag "i" integer values, "b" uint8 values,
    "s" the column's bytes as a _Text."""
    out: list[tuple[str, str, np.ndarray | _Text]] = []
    for name in _order(df.columns):
        s = df.get_column(name)
        if s.null_count():
            raise MerkleError(f"column {name!r}: {s.null_count()} null value(s) have no row encoding")
        dtype = s.dtype
        if dtype.is_integer():
            if dtype == pl.UInt64 and (s > _INT64_MAX).any():
                raise MerkleError(f"column {name!r}: a value does not fit in 64 signed bits")
            out.append((name, "i", s.to_numpy()))  # widened to big-endian int64 as it is laid out
        elif dtype == pl.Boolean:
            out.append((name, "b", s.to_numpy().astype(np.uint8)))
        elif dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum):
            out.append((name, "s", _Text.of(s)))
        else:
            raise MerkleError(f"column {name!r}: type {dtype} has no row encoding")
    return out


def _block(cols: list[tuple[str, str, np.ndarray | _Text]], rows: np.ndarray | slice, m: int,
           widths: dict[str, int]) -> np.ndarray:
    """The (m, W) matrix of the values part of M for the m `rows`, whose strings have byte lengths
    `widths`.

    Each value is written into its slot through a structured view (numpy byte-swaps integers on the
    way); a string's slot is its 4-byte length (the same for the whole group) and its bytes."""
    names, formats, offsets, lengths = [], [], [], []
    width = 0
    for k, (name, tag, _) in enumerate(cols):
        if tag == "s":
            lengths.append((width, widths[name].to_bytes(4, "big")))
            width += 4
        size = {"i": 8, "b": 1}.get(tag) or widths[name]
        if size:  # an empty string has no slot
            names.append(f"c{k}")
            formats.append({"i": ">i8", "b": "u1"}.get(tag) or f"V{size}")
            offsets.append(width)
            width += size
    block = np.empty((m, width), dtype=np.uint8)
    for at, raw in lengths:  # a string's length is the same for the whole group
        block[:, at:at + 4] = np.frombuffer(raw, dtype=np.uint8)
    if not names:
        return block
    slots = block.view(np.dtype({"names": names, "formats": formats, "offsets": offsets,
                                 "itemsize": width})).reshape(m)
    for k, (name, _, values) in enumerate(cols):
        if isinstance(values, _Text):
            if widths[name]:  # every slot is written: no byte of `block` stays uninitialised
                text = np.ascontiguousarray(values.padded[rows, :widths[name]])
                slots[f"c{k}"] = text.view(f"V{widths[name]}").reshape(m)
        else:
            slots[f"c{k}"] = values[rows]
    return block


def _groups(cols: list[tuple[str, str, np.ndarray | _Text]], n: int) \
        -> list[tuple[dict[str, int], np.ndarray | slice]]:
    """The rows grouped by the byte lengths of their string values (one slice if they never vary)."""
    if n == 0:
        return []
    texts = [(name, values) for name, _, values in cols if isinstance(values, _Text)]
    fixed = {name: int(t.lengths[0]) for name, t in texts if (t.lengths == t.lengths[0]).all()}
    varying = [(name, t) for name, t in texts if name not in fixed]
    if not varying:
        return [(fixed, slice(0, n))]
    radix = 1
    for _, t in varying:
        radix *= int(t.lengths.max()) + 1
    if radix <= 1 << 62:  # the varying lengths as one mixed-radix number per row
        code = np.zeros(n, dtype=np.int64)
        scale = 1
        for _, t in varying:
            code += t.lengths * scale
            scale *= int(t.lengths.max()) + 1
        if radix <= 1 << 16:  # small codes: numpy's stable sort of uint16 is a radix sort
            code = code.astype(np.uint16)
    else:  # too many combinations for one int64: number the distinct tuples of lengths instead
        code = np.unique(np.stack([t.lengths for _, t in varying], axis=1), axis=0, return_inverse=True)[1]
        code = code.ravel()
    order = np.argsort(code, kind="stable")
    kinds, first, counts = np.unique(code[order], return_index=True, return_counts=True)
    groups: list[tuple[dict[str, int], np.ndarray | slice]] = []
    for start, count in zip(first.tolist(), counts.tolist(), strict=True):
        rows = order[start:start + count]
        groups.append(({**fixed, **{name: int(t.lengths[rows[0]]) for name, t in varying}}, rows))
    return groups


def _digests(state: HASH, rows: list[bytes], *more: list[bytes]) -> np.ndarray:
    """(m, 32): SHA-256 of (what `state` absorbed) || rows[i] || (each of `more`)[i], for every i."""
    copy = state.copy
    out: list[bytes] = []
    append = out.append
    if not more:
        for row in rows:
            h = copy()
            h.update(row)
            append(h.digest())
    else:
        for parts in zip(rows, *more, strict=True):
            h = copy()
            for part in parts:
                h.update(part)
            append(h.digest())
    return np.frombuffer(b"".join(out), dtype=np.uint8).reshape(len(out), 32)


def _hash_rows(state: HASH, block: np.ndarray) -> np.ndarray:
    """SHA-256 of (what `state` absorbed) || row, for every row of a (m, w) uint8 matrix, as (m, 32)."""
    m, w = block.shape
    if w == 0:
        return np.frombuffer(state.digest() * m, dtype=np.uint8).reshape(m, 32)
    return _digests(state, np.ascontiguousarray(block).view(f"V{w}").ravel().tolist())


@dataclass(frozen=True)
class _Segment:
    """Consecutive columns of the encoding order (integers, booleans, strings), at most the last of
    them a string whose byte lengths vary (then `strip`: its values end in a byte other than 0x00),
    laid out `chunk` rows at a time into `buffer`; `writes`: (offset, tag, values) per column."""

    buffer: np.ndarray
    writes: tuple[tuple[int, str, np.ndarray | _Text], ...]
    strip: bool

    def rows(self, lo: int, hi: int) -> list[bytes]:
        """The segment's bytes of rows lo..hi, each row's trailing padding dropped if `strip`."""
        block = self.buffer[:hi - lo]
        last = len(self.writes) - 1
        for j, (at, tag, values) in enumerate(self.writes):
            if isinstance(values, _Text):
                width = values.padded.shape[1]
                if self.strip and j == last:  # the varying column: its length is the row's own
                    block[:, at - 4:at].view(">u4")[:, 0] = values.lengths[lo:hi]
                if width:
                    block[:, at:at + width] = values.padded[lo:hi]
            elif tag == "i":  # widened to big-endian int64 as it is written
                block[:, at:at + 8].view(">i8")[:, 0] = values[lo:hi]
            else:
                block[:, at] = values[lo:hi]
        rows: list[bytes] = block.view(f"{'S' if self.strip else 'V'}{block.shape[1]}").ravel().tolist()
        return rows  # every segment has a byte: a column is 1 (boolean), 4 (string) or 8 bytes at least


def _segments(cols: list[tuple[str, str, np.ndarray | _Text]], n: int, chunk: int) -> list[_Segment] | None:
    """The row cut after each string column whose byte lengths vary, if every such column's values end
    in a byte other than 0x00 (an empty value ends in its length's 0x00), else None."""
    segments: list[_Segment] = []
    writes: list[tuple[int, str, np.ndarray | _Text]] = []
    prefixes: list[tuple[int, bytes]] = []  # the fixed-length strings' u32be(length): written once
    width = 0
    for k, (_, tag, values) in enumerate(cols):
        varies = False
        if isinstance(values, _Text):
            lengths = values.lengths
            varies = n > 0 and bool((lengths != lengths[0]).any())
            if varies and not (lengths.all() and values.padded[np.arange(n), lengths - 1].all()):
                return None
            if not varies:
                prefixes.append((width, (int(lengths[0]) if n else 0).to_bytes(4, "big")))
            width += 4
        writes.append((width, tag, values))
        width += values.padded.shape[1] if isinstance(values, _Text) else 8 if tag == "i" else 1
        if varies or k == len(cols) - 1:
            buffer = np.empty((min(chunk, n), width), dtype=np.uint8)
            for at, raw in prefixes:
                buffer[:, at:at + 4] = np.frombuffer(raw, dtype=np.uint8)
            segments.append(_Segment(buffer, tuple(writes), varies))
            writes, prefixes, width = [], [], 0
    return segments or None  # no columns: the empty message (_groups)


def leaf_hashes(df: pl.DataFrame, chunk: int = 2048) -> np.ndarray:
    """SHA-256(0x00 || M(row)) of every row, in table order, as an (n, 32) uint8 array."""
    cols = _columns(df)
    start_state = hashlib.sha256(LEAF + _header([(name, tag) for name, tag, _ in cols]))
    n = df.height
    leaves = np.empty((n, 32), dtype=np.uint8)
    segments = _segments(cols, n, chunk)
    if segments is not None:
        for lo in range(0, n, chunk):
            hi = min(lo + chunk, n)
            leaves[lo:hi] = _digests(start_state, *(segment.rows(lo, hi) for segment in segments))
        return leaves
    for widths, rows in _groups(cols, n):
        count = n if isinstance(rows, slice) else len(rows)
        for lo in range(0, count, chunk):
            hi = min(lo + chunk, count)
            part = slice(lo, hi) if isinstance(rows, slice) else rows[lo:hi]
            leaves[part] = _hash_rows(start_state, _block(cols, part, hi - lo, widths))
    return leaves


_NODE_STATE = hashlib.sha256(NODE)


def _parents(level: np.ndarray) -> np.ndarray:
    """The next level up: every full group of 16 hashed, a last short group hashed if it has two or
    more hashes and moved up unchanged if it has one. A group is a slice of the level's buffer."""
    full, rest = divmod(len(level), ARITY)
    group = ARITY * 32
    hashes = np.ascontiguousarray(level).reshape(-1).data  # the level's bytes, not copied
    copy = _NODE_STATE.copy
    up: list[bytes] = []
    append = up.append
    for at in range(0, full * group, group):
        h = copy()
        h.update(hashes[at:at + group])
        append(h.digest())
    if rest == 1:
        append(level[-1].tobytes())
    elif rest:
        append(hashlib.sha256(NODE + level[full * ARITY:].tobytes()).digest())
    return np.frombuffer(b"".join(up), dtype=np.uint8).reshape(len(up), 32)


@dataclass(frozen=True)
class Tree:
    """Every level of the tree, leaves first; `levels[-1]` holds the root alone."""

    levels: tuple[np.ndarray, ...]

    @classmethod
    def of_leaves(cls, leaves: np.ndarray) -> Tree:
        levels = [leaves]
        while len(levels[-1]) > 1:
            levels.append(_parents(levels[-1]))
        return cls(tuple(levels))

    @classmethod
    def of_table(cls, df: pl.DataFrame) -> Tree:
        return cls.of_leaves(leaf_hashes(df))

    @property
    def size(self) -> int:
        return len(self.levels[0])

    @property
    def root(self) -> bytes:
        if self.size == 0:
            return hashlib.sha256(b"").digest()
        top: bytes = self.levels[-1][0].tobytes()
        return top

    def path(self, index: int) -> list[dict[str, Any]]:
        """The audit path of leaf `index`: per level below the root, the other hashes of its group,
        those before it ("left") and those after it ("right")."""
        if not 0 <= index < self.size:
            raise IndexError(f"leaf {index} of a tree of {self.size}")
        steps = []
        for level in self.levels[:-1]:
            first = index - index % ARITY
            last = min(first + ARITY, len(level))
            steps.append({"left": [h.tobytes().hex() for h in level[first:index]],
                          "right": [h.tobytes().hex() for h in level[index + 1:last]]})
            index //= ARITY
        return steps


def root(df: pl.DataFrame) -> bytes:
    """The Merkle root of a pool table (rows in pool order)."""
    return Tree.of_table(df).root


def path_for(df: pl.DataFrame, index: int) -> tuple[bytes, list[dict[str, Any]]]:
    """(root, audit path) of row `index`."""
    tree = Tree.of_table(df)
    return tree.root, tree.path(index)
