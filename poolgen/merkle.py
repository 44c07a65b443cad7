"""The Merkle tree over a pool's tickets in pool order; docs/merkle.md is the definition.

- Row encoding M = header || values. The header names the columns, in ascending order of the
  UTF-8 bytes of their names: u32be(count), then per column u32be(len(name)) || name || tag, with
  tag b"i" (integers), b"s" (strings; categoricals by their text) or b"b" (booleans). The values
  follow in the same order: an integer as 8 bytes big-endian two's complement, a string as
  u32be(len) || UTF-8 bytes, a boolean as 0x00/0x01. Nulls, floats and nested values have no
  encoding: such a table has no root.
- Leaf hash SHA-256(0x00 || M); node hash SHA-256(0x01 || left || right); the tree is the Merkle
  Tree Hash of RFC 6962 section 2.1, computed level by level (an odd last node moves up unchanged).

A table's header is the same for every row, so leaves are hashed from a SHA-256 state that has
already absorbed 0x00 || header. The values are laid out with numpy a group of rows at a time (rows
whose strings have the same lengths share one fixed-width layout) and hashed one call per row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from poolgen.errors import RunError

ALGORITHM = "poolgen-merkle/v1"
LEAF, NODE = b"\x00", b"\x01"
_INT64_MAX = (1 << 63) - 1

__all__ = ["ALGORITHM", "MerkleError", "Tree", "leaf_hashes", "path_for", "prove_ticket", "root",
           "row_message"]


class MerkleError(ValueError):
    """A table or row has a value the row encoding does not cover."""


def _order(names) -> list[str]:
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


def _columns(df: pl.DataFrame) -> list[tuple[str, str, object]]:
    """Per column in encoding order: (name, tag, values): tag "i" int64 values, "b" uint8 values,
    "s" the values as UTF-8 bytes objects."""
    out: list[tuple[str, str, object]] = []
    for name in _order(df.columns):
        s = df.get_column(name)
        if s.null_count():
            raise MerkleError(f"column {name!r}: {s.null_count()} null value(s) have no row encoding")
        dtype = s.dtype
        if dtype.is_integer():
            if dtype == pl.UInt64 and len(s) and s.max() > _INT64_MAX:
                raise MerkleError(f"column {name!r}: a value does not fit in 64 signed bits")
            out.append((name, "i", s.to_numpy().astype(np.int64)))
        elif dtype == pl.Boolean:
            out.append((name, "b", s.to_numpy().astype(np.uint8)))
        elif dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum):
            out.append((name, "s", s.cast(pl.String).cast(pl.Binary).to_list()))
        else:
            raise MerkleError(f"column {name!r}: type {dtype} has no row encoding")
    return out


def _block(cols: list[tuple[str, str, object]], idx: np.ndarray, widths: dict[str, int]) -> np.ndarray:
    """The (m, W) matrix of the values part of M for rows `idx`, whose strings have lengths `widths`.

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
    m = len(idx)
    block = np.empty((m, width), dtype=np.uint8)
    for at, raw in lengths:  # a string's length is the same for the whole group
        block[:, at:at + 4] = np.frombuffer(raw, dtype=np.uint8)
    if not names:
        return block
    slots = block.view(np.dtype({"names": names, "formats": formats, "offsets": offsets,
                                 "itemsize": width})).reshape(m)
    for k, (name, tag, values) in enumerate(cols):
        if tag == "s":
            if widths[name]:  # every slot is written: no byte of `block` stays uninitialised
                raw = b"".join([values[i] for i in idx.tolist()])  # type: ignore[index]
                slots[f"c{k}"] = np.frombuffer(raw, dtype=f"V{widths[name]}")
        else:
            slots[f"c{k}"] = values[idx]  # type: ignore[index]
    return block


def _groups(df: pl.DataFrame, str_names: list[str]) -> list[tuple[dict[str, int], np.ndarray]]:
    """Row indices grouped by the byte lengths of their string values."""
    n = df.height
    if not str_names or n == 0:
        return [({}, np.arange(n, dtype=np.int64))]
    lengths = np.stack([df.get_column(c).cast(pl.String).str.len_bytes().to_numpy().astype(np.int64)
                        for c in str_names], axis=1)
    code = np.zeros(n, dtype=np.int64)  # one number per distinct tuple of lengths
    for j in range(lengths.shape[1]):
        _, col = np.unique(lengths[:, j], return_inverse=True)
        code = np.unique(code * (int(col.max()) + 1) + col.ravel(), return_inverse=True)[1].ravel()
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    order = np.argsort(inverse, kind="stable")
    bounds = np.cumsum(np.bincount(inverse, minlength=len(first)))[:-1]
    return [({c: int(w) for c, w in zip(str_names, lengths[row], strict=True)}, rows)
            for row, rows in zip(first, np.split(order, bounds), strict=True)]


def leaf_hashes(df: pl.DataFrame, chunk: int = 1 << 16) -> np.ndarray:
    """SHA-256(0x00 || M(row)) of every row, in table order, as an (n, 32) uint8 array."""
    cols = _columns(df)
    start_state = hashlib.sha256(LEAF + _header([(name, tag) for name, tag, _ in cols]))
    copy = start_state.copy
    leaves = np.empty((df.height, 32), dtype=np.uint8)
    for widths, rows in _groups(df, [name for name, tag, _ in cols if tag == "s"]):
        for start in range(0, len(rows), chunk):
            idx = rows[start:start + chunk]
            block = _block(cols, idx, widths)
            size = block.shape[1]
            view = memoryview(block.tobytes())
            digests = bytearray()
            for k in range(0, len(idx) * size, size):
                h = copy()
                h.update(view[k:k + size])
                digests += h.digest()
            leaves[idx] = np.frombuffer(bytes(digests), dtype=np.uint8).reshape(len(idx), 32)
    return leaves


def _parents(level: np.ndarray) -> np.ndarray:
    pairs = len(level) // 2
    buf = np.empty((pairs, 65), dtype=np.uint8)
    buf[:, 0] = NODE[0]
    buf[:, 1:] = level[:2 * pairs].reshape(pairs, 64)
    view = memoryview(buf.tobytes())
    sha = hashlib.sha256
    digests = b"".join([sha(view[k:k + 65]).digest() for k in range(0, pairs * 65, 65)])
    up = np.frombuffer(digests, dtype=np.uint8).reshape(pairs, 32)
    if len(level) % 2:
        up = np.concatenate([up, level[-1:]])  # the odd last node moves up unchanged
    return up


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
        return self.levels[-1][0].tobytes()

    def path(self, index: int) -> list[dict]:
        """The audit path of leaf `index`: sibling hashes from the leaf up, each with its side."""
        if not 0 <= index < self.size:
            raise IndexError(f"leaf {index} of a tree of {self.size}")
        steps = []
        for level in self.levels[:-1]:
            sibling = index ^ 1
            if sibling < len(level):
                side = "left" if sibling < index else "right"
                steps.append({"side": side, "hash": level[sibling].tobytes().hex()})
            index //= 2
        return steps


def root(df: pl.DataFrame) -> bytes:
    """The Merkle root of a pool table (rows in pool order)."""
    return Tree.of_table(df).root


def path_for(df: pl.DataFrame, index: int) -> tuple[bytes, list[dict]]:
    """(root, audit path) of row `index`."""
    tree = Tree.of_table(df)
    return tree.root, tree.path(index)


PROOF_FORMAT = "poolgen-proof/1"


def prove_ticket(run: Path, ticket: str) -> dict:
    """A proof that `ticket` belongs to its pool in run folder `run`: its full row, its audit path
    and the pool's root, as `python -m audit check-proof` reads it (docs/merkle.md, section 4).

    The run is opened as the PDFs open it (`poolgen.pdf.run.open_run`: a validated manifest, every
    read of a pool file a RunError on failure)."""
    from poolgen.pdf.run import open_run  # noqa: PLC0415 - keeps reportlab out of `generate`

    folder = open_run(run)
    for entry in folder.parsed.pools:
        folder.require(entry.id, ["ticket"])
        found = folder.collect(entry.id, lambda lf: lf.with_row_index("_row")
                               .filter(pl.col("ticket") == ticket).select("_row"))
        if found.height == 0:
            continue
        position = int(found.item(0, 0))
        table = folder.read(entry.id)
        try:
            tree = Tree.of_table(table)
        except MerkleError as exc:
            raise RunError(f"{folder.name}: pool {entry.id}: {entry.file} has no Merkle root: {exc}") \
                from None
        if tree.root.hex() != entry.merkle_root:
            raise RunError(f"{folder.path / entry.file}: its Merkle root is not the manifest's; the run "
                           f"folder is damaged")
        return {
            "format": PROOF_FORMAT,
            "run_id": folder.manifest["run_id"],
            "manifest_sha256": hashlib.sha256(folder.manifest_bytes).hexdigest(),
            "pool": entry.id,
            "tickets": tree.size,
            "position": position,
            "ticket": ticket,
            "row": table.row(position, named=True),
            "leaf": tree.levels[0][position].tobytes().hex(),
            "path": tree.path(position),
            "merkle": {"algorithm": ALGORITHM, "root": entry.merkle_root},
        }
    raise RunError(f"{folder.name}: no ticket {ticket!r} in any pool of the run")
