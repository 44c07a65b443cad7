"""A Parquet file written one row group at a time, byte for byte what polars' `write_parquet` writes of
the whole table, so that a wide table (a printed pool's imaging file: 90 text columns of a million
rows, 1.4 GB in memory) is never held whole (docs/validation.md, section 4; issue 28).

polars splits a table into row groups by its height alone (`row_groups`, probed from polars itself);
each group, written alone with the same settings, is the same column chunks byte for byte. A file
is: `PAR1`, every row group's column chunks, then each chunk's page index (polars writes an offset
index per chunk), then the footer (Thrift compact `FileMetaData`), its length and `PAR1`. So
`RowGroupWriter` writes each group's chunks as they come and keeps only its footer entries and
page indexes, whose file offsets it moves to where the chunks now lie. A polars that lays its files
out otherwise is refused in one line (RunError), never written wrong: tests/poolgen/files/
test_parquet.py compares this writer's bytes with `write_parquet`'s.
"""

from __future__ import annotations

import io
from typing import Any, BinaryIO

import numpy as np
import polars as pl

from poolgen.errors import RunError

MAGIC = b"PAR1"
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)

Field = tuple[int, int, Any]  # (field id, compact type, value)
# The Thrift field ids used (parquet.thrift): FileMetaData 3 num_rows, 4 row_groups; RowGroup 1 columns,
# 5 file_offset, 7 ordinal; ColumnChunk 2 file_offset, 3 meta_data, 4 and 5 offset index offset and
# length, 6 column index offset; ColumnMetaData 7 total_compressed_size, 9 data_page_offset,
# 10 index_page_offset, 11 dictionary_page_offset; OffsetIndex 1 page_locations; PageLocation 1 offset.


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    out = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        out |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return out, pos


def _put_varint(out: bytearray, n: int) -> None:
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _value(buf: bytes, pos: int, kind: int) -> tuple[Any, int]:
    if kind in (_I16, _I32, _I64):
        n, pos = _varint(buf, pos)
        return (n >> 1) ^ -(n & 1), pos
    if kind == _BYTE:
        return buf[pos], pos + 1
    if kind == _DOUBLE:
        return buf[pos:pos + 8], pos + 8
    if kind == _BINARY:
        n, pos = _varint(buf, pos)
        return buf[pos:pos + n], pos + n
    if kind in (_LIST, _SET):
        head = buf[pos]
        pos += 1
        size, element = head >> 4, head & 0x0F
        if size == 15:
            size, pos = _varint(buf, pos)
        items = []
        for _ in range(size):
            item, pos = (buf[pos], pos + 1) if element in (_TRUE, _FALSE) else _value(buf, pos, element)
            items.append(item)
        return (element, items), pos
    if kind == _STRUCT:
        return _struct(buf, pos)
    raise RunError(f"Parquet footer: Thrift type {kind} is not one polars writes")


def _struct(buf: bytes, pos: int) -> tuple[list[Field], int]:
    fields: list[Field] = []
    last = 0
    while True:
        head = buf[pos]
        pos += 1
        if head == _STOP:
            return fields, pos
        kind, delta = head & 0x0F, head >> 4
        if delta:
            last += delta
        else:
            n, pos = _varint(buf, pos)
            last = (n >> 1) ^ -(n & 1)
        value, pos = (None, pos) if kind in (_TRUE, _FALSE) else _value(buf, pos, kind)
        fields.append((last, kind, value))


def _put_value(out: bytearray, kind: int, value: Any) -> None:
    if kind in (_I16, _I32, _I64):
        _put_varint(out, (value << 1) ^ (value >> 63))
    elif kind == _BYTE:
        out.append(value)
    elif kind == _DOUBLE:
        out += value
    elif kind == _BINARY:
        _put_varint(out, len(value))
        out += value
    elif kind in (_LIST, _SET):
        element, items = value
        if len(items) < 15:
            out.append(len(items) << 4 | element)
        else:
            out.append(0xF0 | element)
            _put_varint(out, len(items))
        for item in items:
            if element in (_TRUE, _FALSE):
                out.append(item)
            else:
                _put_value(out, element, item)
    else:
        _put_struct(out, value)


def _put_struct(out: bytearray, fields: list[Field]) -> None:
    last = 0
    for fid, kind, value in fields:
        if 0 < fid - last <= 15:
            out.append((fid - last) << 4 | kind)
        else:
            out.append(kind)
            _put_varint(out, (fid << 1) ^ (fid >> 63))
        last = fid
        if kind not in (_TRUE, _FALSE):
            _put_value(out, kind, value)
    out.append(_STOP)


def decode(buf: bytes) -> list[Field]:
    """A Thrift compact struct, as (field id, type, value) in the order written."""
    fields, end = _struct(buf, 0)
    if end != len(buf):
        raise RunError("Parquet footer: bytes after its last field")
    return fields


def encode(fields: list[Field]) -> bytes:
    """The Thrift compact bytes of `fields`; `encode(decode(b)) == b` for what polars writes."""
    out = bytearray()
    _put_struct(out, fields)
    return bytes(out)


def _get(fields: list[Field], fid: int) -> Any:
    return next((v for f, _, v in fields if f == fid), None)


def _moved(fields: list[Field], by: int, ids: tuple[int, ...]) -> list[Field]:
    return [(f, k, v + by if f in ids else v) for f, k, v in fields]


def parquet_bytes(table: pl.DataFrame) -> bytes:
    """What `write_parquet` writes of `table` with the run's settings (zstd level 1, no statistics)."""
    buf = io.BytesIO()
    table.write_parquet(buf, compression="zstd", compression_level=1, statistics=False)
    return buf.getvalue()


def _footer(data: bytes) -> tuple[list[Field], int]:
    if len(data) < 12 or data[:4] != MAGIC or data[-4:] != MAGIC:
        raise RunError("polars wrote a Parquet file without its PAR1 marks")
    start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    return decode(data[start:-8]), start


def row_groups(height: int) -> list[int]:
    """The rows of each row group polars gives a table of `height` rows: those of a one-column table of
    that height, written the same way (polars splits by height, whatever the columns)."""
    meta, _ = _footer(parquet_bytes(pl.DataFrame({"r": np.zeros(height, dtype=np.uint8)})))
    return [int(_get(group, 3)) for group in (_get(meta, 4) or (0, []))[1]]


def _layout(data: bytes, chunks: list[list[Field]],
            footer_at: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Each column chunk's first byte and its offset index (offset, length), once the file is seen to be
    laid out as this writer expects: each chunk's pages (total_compressed_size bytes from its first
    page, the dictionary's if any) then its ColumnMetaData again, the chunks one after the other from
    the file's 5th byte; then the chunks' offset indexes, in their order, up to the footer; no column
    index. (polars' file_offset is the data page's offset + that size: moved as is.)"""
    starts = [min(o for o in (_get(_get(c, 3), 11), _get(_get(c, 3), 9)) if o is not None) for c in chunks]
    spans = [(_get(c, 4), _get(c, 5)) for c in chunks]
    if all(at is not None for at, _ in spans) and not any(_get(c, 6) is not None for c in chunks):
        end = spans[0][0] if spans else footer_at
        ends = [*starts[1:], end]
        if (starts[:1] == [len(MAGIC)] and sorted(spans) == spans
                and sum(n for _, n in spans) == footer_at - end and all(
                    data[at + _get(_get(c, 3), 7):e] == encode(_get(c, 3))
                    for c, at, e in zip(chunks, starts, ends, strict=True))):
            return starts, spans
    raise RunError(f"polars {pl.__version__} lays its Parquet files out otherwise than this writer expects "
                   "(poolgen/files/parquet.py)")


class RowGroupWriter:
    """Writes to `f` one row group per `add(table)`, then the page indexes and footer at `close()`.
    Every table must have the same columns and types; each must be one of polars' row groups of the
    whole (`row_groups`) for the bytes to be `write_parquet`'s of the whole."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        self._at = len(MAGIC)
        self._meta: list[Field] | None = None
        self._groups: list[list[Field]] = []
        self._indexes: list[bytes] = []  # each chunk's offset index, in row-group then column order
        self._rows = 0
        f.write(MAGIC)

    def add(self, table: pl.DataFrame) -> None:
        data = parquet_bytes(table)
        meta, footer_at = _footer(data)
        head = [(f, k, v) for f, k, v in meta if f not in (3, 4)]
        if self._meta is None:
            self._meta = meta
        elif head != [(f, k, v) for f, k, v in self._meta if f not in (3, 4)]:
            raise RunError("a row group's schema or metadata differs from the first's")
        groups: list[list[Field]] = (_get(meta, 4) or (_STRUCT, []))[1]
        if len(groups) != 1:
            raise RunError(f"polars wrote {len(groups)} row groups of a {table.height}-row part, not one")
        chunks = _get(groups[0], 1)[1]
        starts, spans = _layout(data, chunks, footer_at)
        first = self._at
        new_chunks = []
        for c, start, (index_at, n) in zip(chunks, starts, spans, strict=True):  # data, moved
            by, size = self._at - start, _get(_get(c, 3), 7)
            column = _moved(_get(c, 3), by, (9, 10, 11))
            inline = encode(column)
            self._f.write(memoryview(data)[start:start + size])
            self._f.write(inline)
            index = decode(data[index_at:index_at + n])
            pages = [_moved(page, by, (1,)) for page in _get(index, 1)[1]]
            self._indexes.append(encode([(f, k, (_STRUCT, pages) if f == 1 else v) for f, k, v in index]))
            new_chunks.append([(f, k, column if f == 3 else v) for f, k, v in _moved(c, by, (2,))])
            self._at += size + len(inline)
        group = [(f, k, (_STRUCT, new_chunks) if f == 1 else first if f == 5 else
                  len(self._groups) if f == 7 else v) for f, k, v in groups[0]]
        self._groups.append(group)
        self._rows += table.height

    def close(self) -> None:
        """Write the page indexes and the footer: the file is complete."""
        if self._meta is None:
            raise RunError("a Parquet file of no row group")
        at = self._at
        chunks = [c for group in self._groups for c in _get(group, 1)[1]]
        for c, index in zip(chunks, self._indexes, strict=True):
            c[:] = [(f, k, at if f == 4 else len(index) if f == 5 else v) for f, k, v in c]
            at += len(index)
        self._f.write(b"".join(self._indexes))
        meta = [(f, k, self._rows if f == 3 else (_STRUCT, self._groups) if f == 4 else v)
                for f, k, v in self._meta]
        footer = encode(meta)
        self._f.write(footer + len(footer).to_bytes(4, "little") + MAGIC)
