"""Parquet files no writer makes: a footer changed to declare what its pages do not hold."""

from __future__ import annotations

import os
from pathlib import Path

from audit.read.parquet import read_footer


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _i64(n: int) -> bytes:
    """A field of ColumnMetaData that follows the one before it (compact protocol: delta 1, type i64)."""
    return b"\x16" + _varint(n << 1 if n >= 0 else (-n << 1) - 1)


def declare_decoded_size(path: Path, column: str, size: int) -> None:
    """Rewrite the footer of the Parquet file `path` so that `column`'s first column chunk declares
    `size` decoded bytes (ColumnMetaData.total_uncompressed_size); its pages are unchanged."""
    data = path.read_bytes()
    fd = os.open(path, os.O_RDONLY)
    try:
        meta = read_footer(fd, len(data))
    finally:
        os.close(fd)
    chunk = next(c[3] for c in meta[4][0][1] if c[3][3] == [column.encode()])
    length = int.from_bytes(data[-8:-4], "little")
    footer = data[-8 - length:-8]
    old = _i64(chunk[5]) + _i64(chunk[6]) + _i64(chunk[7])
    assert footer.count(old) == 1, "the column chunk's sizes are not unique in the footer"
    footer = footer.replace(old, _i64(chunk[5]) + _i64(size) + _i64(chunk[7]))
    path.write_bytes(data[:-8 - length] + footer + len(footer).to_bytes(4, "little") + b"PAR1")
