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
one call per row plus one per 16 hashes above, and everything else is numpy. A table's header is
the same for every row, so leaves continue a state that has absorbed 0x00 || header. Rows whose
strings have the same byte lengths share one fixed-width layout and are laid out as one matrix,
whose rows are hashed by C-level `map`s (copy the state, update, digest), without a Python loop.
When the only column whose lengths vary is the last (a pool's `tier`), rows are not grouped: each
chunk of rows is laid out in table order with that column at its longest and zero-padded, and
numpy's fixed-width bytes drop each row's padding as it is handed to the hash (_varying_tail).
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import repeat
from typing import TYPE_CHECKING, Any

import numpy as np
import polars as pl

if TYPE_CHECKING:  # the type of hashlib's objects, which typeshed names here
    from _hashlib import HASH

ALGORITHM = "poolgen-merkle/v2"
LEAF, NODE = b"\x00", b"\x01"
ARITY = 16
_INT64_MAX = (1 << 63) - 1
_HASH = type(hashlib.sha256())

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
        if n and int(lengths.min()) < longest and (s.str.len_chars().to_numpy() == lengths).all():
            # ASCII of varying lengths: padded with NULs by polars, then one fixed-width block
            s = s.str.pad_end(longest, "\x00")
        flat = np.frombuffer(s.str.join("").item().encode("utf-8"), dtype=np.uint8) if n else \
            np.zeros(0, np.uint8)
        if len(flat) == n * longest:
            return cls(lengths, flat.reshape(n, longest))
        padded = np.zeros((n, longest), dtype=np.uint8)
        starts = np.cumsum(lengths) - lengths
        rows = np.repeat(np.arange(n), lengths)
        padded[rows, np.arange(len(flat)) - starts[rows]] = flat
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


def _hash_rows(state: HASH, block: np.ndarray, strip: bool = False) -> np.ndarray:
    """SHA-256 of (what `state` absorbed) || row, for every row of a (m, w) uint8 matrix, as (m, 32);
    with `strip`, of every row without its trailing 0x00 bytes (numpy's fixed-width bytes drop them)."""
    m, w = block.shape
    if w == 0:
        return np.frombuffer(state.digest() * m, dtype=np.uint8).reshape(m, 32)
    rows = np.ascontiguousarray(block).view(f"{'S' if strip else 'V'}{w}").ravel().tolist()
    states = list(map(_HASH.copy, repeat(state, m)))
    deque(map(_HASH.update, states, rows), maxlen=0)
    return np.frombuffer(b"".join(map(_HASH.digest, states)), dtype=np.uint8).reshape(m, 32)


def _varying_tail(cols: list[tuple[str, str, np.ndarray | _Text]], n: int) -> _Text | None:
    """The last column's text, if it is the only column whose byte lengths vary and each of its
    values ends in a byte other than 0x00 (an empty value ends in its length's 0x00).

    Then every row's M is the rows' common layout, that column's slot at its longest value (left-
    aligned, zero-padded), written in table order and with its trailing zero bytes removed: one
    block per chunk of rows, no grouping of rows by length."""
    if n == 0:
        return None
    texts = [(k, values) for k, (_, _, values) in enumerate(cols) if isinstance(values, _Text)]
    varying = [(k, text) for k, text in texts if not (text.lengths == text.lengths[0]).all()]
    if len(varying) != 1 or varying[0][0] != len(cols) - 1:
        return None
    text = varying[0][1]
    if not text.lengths.all() or not text.padded[np.arange(n), text.lengths - 1].all():
        return None
    return text


def _leaves_in_order(cols: list[tuple[str, str, np.ndarray | _Text]], n: int, start_state: HASH,
                     tail: _Text, chunk: int) -> np.ndarray:
    """Leaves of a table whose only varying column is `tail`, the last (_varying_tail)."""
    widths = {name: int(values.lengths.max()) for name, _, values in cols if isinstance(values, _Text)}
    leaves = np.empty((n, 32), dtype=np.uint8)
    for lo in range(0, n, chunk):
        hi = min(lo + chunk, n)
        block = _block(cols, slice(lo, hi), hi - lo, widths)
        at = block.shape[1] - widths[cols[-1][0]] - 4  # the tail's length: the row's own
        block[:, at:at + 4] = tail.lengths[lo:hi].astype(">u4").view(np.uint8).reshape(hi - lo, 4)
        leaves[lo:hi] = _hash_rows(start_state, block, strip=True)
    return leaves


def leaf_hashes(df: pl.DataFrame, chunk: int = 2048) -> np.ndarray:
    """SHA-256(0x00 || M(row)) of every row, in table order, as an (n, 32) uint8 array."""
    cols = _columns(df)
    start_state = hashlib.sha256(LEAF + _header([(name, tag) for name, tag, _ in cols]))
    n = df.height
    tail = _varying_tail(cols, n)
    if tail is not None:
        return _leaves_in_order(cols, n, start_state, tail, chunk)
    leaves = np.empty((n, 32), dtype=np.uint8)
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
    more hashes and moved up unchanged if it has one."""
    full, rest = divmod(len(level), ARITY)
    up = [_hash_rows(_NODE_STATE, level[:full * ARITY].reshape(full, ARITY * 32))]
    if rest == 1:
        up.append(level[-1:])
    elif rest:
        up.append(_hash_rows(_NODE_STATE, level[full * ARITY:].reshape(1, rest * 32)))
    return np.concatenate(up)


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
