"""The row encoding of docs/merkle.md (poolgen-merkle/v2), section 1: a row's bytes and its leaf.

leaf(row) = SHA-256(0x00 || M(row)), M(row) = header || values; the header (column names and type
tags, names in ascending order of their UTF-8 bytes) is the same for every row of a table. A value
is tagged "i" (8-byte big-endian signed integer), "b" (one byte) or "s" (u32be(length) || UTF-8).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence

LEAF_PREFIX = b"\x00"
MAX_INT = 2**63 - 1
MAX_TEXT_BYTES = 2**32 - 1


class MerkleError(ValueError):
    """A value outside the row encoding, or a malformed path."""


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def _utf8(text: str, what: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise MerkleError(f"{what} is not valid Unicode text (it has no UTF-8 form)") from None


def header(columns: Sequence[tuple[str, bytes]]) -> bytes:
    """u32be(k), then u32be(len(name)) || name || tag for each (name, tag), already in order."""
    out = [u32(len(columns))]
    for name, tag in columns:
        raw = _utf8(name, f"column name {name!r}")
        out += [u32(len(raw)), raw, tag]
    return b"".join(out)


def column_order(names: Iterable[str]) -> list[str]:
    """Column names in ascending order of their UTF-8 bytes."""
    return sorted(names, key=lambda c: _utf8(c, f"column name {c!r}"))


def encode_value(column: str, value: object) -> tuple[bytes, bytes]:
    """(tag, encoding) of one value (section 1 of docs/merkle.md), from its JSON/Python type."""
    if value is True or value is False:
        return b"b", b"\x01" if value else b"\x00"
    if type(value) is int:
        if value < -(2**63) or value > MAX_INT:
            raise MerkleError(f"column {column!r}: integer {value} is outside 64 signed bits")
        return b"i", value.to_bytes(8, "big", signed=True)
    if type(value) is str:
        raw = _utf8(value, f"column {column!r}: the value")
        if len(raw) > MAX_TEXT_BYTES:
            raise MerkleError(f"column {column!r}: a string of {len(raw)} bytes is too long to encode")
        return b"s", u32(len(raw)) + raw
    raise MerkleError(f"column {column!r}: {value!r} has no encoding (only integers, strings, booleans)")


def leaf_of_row(row: Mapping[str, object]) -> bytes:
    """leaf(row) = SHA-256(0x00 || M(row)) for a row given as {column: value}."""
    for name in row:
        if type(name) is not str:
            raise MerkleError(f"column name {name!r} is not text")
    names = column_order(row)
    encoded = [encode_value(name, row[name]) for name in names]
    h = hashlib.sha256(LEAF_PREFIX)
    h.update(header([(name, tag) for name, (tag, _) in zip(names, encoded, strict=True)]))
    h.update(b"".join(value for _, value in encoded))
    return h.digest()


