"""A Parquet file's footer, read and bounded before any column is decoded (docs/pool-files.md, "Reading
a run's files").

A Parquet file ends with its metadata (Apache Thrift, compact protocol), its length (4 bytes, little
endian) and "PAR1". `footer_problem` decodes that metadata with a small reader of its own, bounded by
the footer's length and a nesting depth, and returns what is wrong with it or None: a footer larger
than MAX_FOOTER_BYTES, more rows than MAX_ROWS, more row groups or columns than the bounds, a column
chunk kept in another file, or a column chunk whose declared decoded size exceeds what its rows could
hold (MAX_VALUE_BYTES a value, plus MAX_CHUNK_SLACK). So a 75 KB file declaring a 3 GB column is
refused from its metadata alone, before polars allocates anything.

Field ids are those of parquet-format's parquet.thrift: FileMetaData (2 schema, 3 num_rows,
4 row_groups), RowGroup (1 columns, 2 total_byte_size, 3 num_rows), ColumnChunk (1 file_path,
3 meta_data), ColumnMetaData (3 path_in_schema, 5 num_values, 6 total_uncompressed_size,
7 total_compressed_size).
"""

from __future__ import annotations

import os
from typing import Any

from audit.errors import UnusableInput


def literal(path: str | os.PathLike[str]) -> str:
    """`path` as polars must be given it to read that file and no other: absolute, since polars takes a
    leading `~` for the home folder (a run in a folder named `~` was read from /root/...); every caller
    passes glob=False too (to polars `[`, `*` and `?` are glob characters). polars takes a path only as
    UTF-8 text: a path that is not (bytes a shell passes as they are) is UnusableInput, one line asking
    for the folder to be renamed (it was a traceback, TypeError)."""
    full = os.path.abspath(path)
    try:
        full.encode("utf-8")
    except UnicodeEncodeError:
        shown = os.fsencode(full).decode("utf-8", "backslashreplace")
        raise UnusableInput(f"{shown}: the path is not UTF-8 text, and Parquet files are read by UTF-8 paths "
                            "only; rename the folder") from None
    return full


MAGIC = b"PAR1"
MAX_FOOTER_BYTES = 1 << 24  # a 1,000,000-row pool file's footer is a few KB
MAX_ROWS = 10_000_000  # a pool's tickets (poolgen's MAX_POOL_TICKETS)
MAX_ROW_GROUPS = 4096  # polars writes one per ~250,000 rows
MAX_COLUMNS = 4096  # an imaging file of 1,024 spots has 3,076
MAX_VALUE_BYTES = 256  # decoded bytes of one value (the longest is a symbol's text or caption)
MAX_CHUNK_SLACK = 1 << 20  # page headers and dictionaries of a column chunk
MAX_DECODED_BYTES = 8 << 30  # all column chunks of one file, decoded
MAX_PAGE_HEADER_BYTES = 1 << 16  # a page header (its statistics hold one short value)
MAX_PAGES = 1 << 16  # pages of one column chunk (polars writes one per ~1 MB)
_MAX_DEPTH = 16  # FileMetaData nests 5 deep

_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT, _UUID = range(14)


class NotParquet(ValueError):
    """The file is not Parquet, or is damaged (cut short, its footer or a page header unreadable):
    nothing in it is read, and a verifier reports it as a damaged file rather than refusing the run."""


class _Bad(ValueError):
    pass


class _Reader:
    """Thrift's compact protocol over one buffer: structs become {field id: value}."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise _Bad("the footer ends inside a value")
        self.at += 1
        return self.data[self.at - 1]

    def take(self, n: int) -> bytes:
        if n < 0 or self.at + n > len(self.data):
            raise _Bad("the footer ends inside a value")
        self.at += n
        return self.data[self.at - n:self.at]

    def varint(self) -> int:
        value = shift = 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise _Bad("a number of more than 64 bits")

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind: int, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise _Bad(f"nested more than {_MAX_DEPTH} deep")
        if kind in (_TRUE, _FALSE):  # a list's booleans are bytes; a field's are its type
            return kind == _TRUE
        if kind == _BYTE:
            return self.byte()
        if kind in (_I16, _I32, _I64):
            return self.zigzag()
        if kind == _DOUBLE:
            return self.take(8)
        if kind == _BINARY:
            return self.take(self.varint())
        if kind == _UUID:
            return self.take(16)
        if kind in (_LIST, _SET):
            head = self.byte()
            size, item = head >> 4, head & 0x0F
            if size == 15:
                size = self.varint()
            if size > len(self.data) - self.at:  # every item takes at least one byte
                raise _Bad("a list longer than the footer")
            if item in (_TRUE, _FALSE):
                return [self.byte() == 1 for _ in range(size)]
            return [self.value(item, depth + 1) for _ in range(size)]
        if kind == _MAP:
            size = self.varint()
            if size > len(self.data) - self.at:
                raise _Bad("a map longer than the footer")
            types = self.byte() if size else 0
            return [(self.value(types >> 4, depth + 1), self.value(types & 0x0F, depth + 1))
                    for _ in range(size)]
        if kind == _STRUCT:
            return self.struct(depth + 1)
        raise _Bad(f"unknown Thrift type {kind}")

    def struct(self, depth: int) -> dict[int, Any]:
        fields: dict[int, Any] = {}
        last = 0
        while True:
            head = self.byte()
            kind = head & 0x0F
            if kind == _STOP:
                return fields
            delta = head >> 4
            last = last + delta if delta else self.zigzag()
            fields[last] = self.value(kind, depth)


def read_footer(fd: int, size: int) -> dict[int, Any]:
    """The FileMetaData of the Parquet file open as `fd` (`size` bytes), decoded; ValueError (one
    line) if the file does not end as a Parquet file or its footer is not one."""
    if size < 12:
        raise NotParquet(f"{size} bytes: too short for a Parquet file")
    if os.pread(fd, 4, 0) != MAGIC:
        raise NotParquet("does not start with PAR1: not a Parquet file")
    tail = os.pread(fd, 8, size - 8)
    if tail[4:] != MAGIC:
        raise NotParquet("does not end with PAR1: not a Parquet file (or cut short)")
    length = int.from_bytes(tail[:4], "little")
    if length > size - 12:
        raise NotParquet(f"a footer of {length:,} bytes in a file of {size:,}: not a Parquet file (or cut "
                         "short)")
    if length > MAX_FOOTER_BYTES:
        raise ValueError(f"a footer of {length:,} bytes (at most {MAX_FOOTER_BYTES:,})")
    try:
        meta = _Reader(os.pread(fd, length, size - 8 - length)).struct(0)
    except _Bad as exc:
        raise NotParquet(f"its footer is not Parquet metadata: {exc}") from None
    meta[_DATA_END] = size - 8 - length
    return meta


_DATA_END = -1  # (a key no Thrift field has) where the column chunks must end: the footer's start


def check_pages(fd: int, meta: dict[int, Any]) -> None:
    """Every column chunk's pages, walked header by header (PageHeader: 2 uncompressed_page_size,
    3 compressed_page_size) from its first page (ColumnMetaData 11 dictionary_page_offset or
    9 data_page_offset): they lie between the file's start and its footer and decode to no more than
    the chunk's footer declares, so a footer cannot understate what its pages hold. Call after
    `check_footer`."""
    for group in meta[4]:
        for chunk in group[1]:
            _check_chunk_pages(fd, chunk[3], meta[_DATA_END])


def _check_chunk_pages(fd: int, md: dict[int, Any], end_of_data: int) -> None:
    name, declared = _name(md), md[6]
    start = md.get(11) if isinstance(md.get(11), int) and md.get(11) else md.get(9)
    if not isinstance(start, int) or start < 4 or start + md[7] > end_of_data:
        raise ValueError(f"column {name}: its pages are not between the file's start and its footer")
    at, end, decoded, pages = start, start + md[7], 0, 0
    while at < end:
        pages += 1
        if pages > MAX_PAGES:
            raise ValueError(f"column {name}: more than {MAX_PAGES:,} pages in a column chunk")
        reader = _Reader(os.pread(fd, min(MAX_PAGE_HEADER_BYTES, end - at), at))
        try:
            header = reader.struct(0)
        except _Bad as exc:
            raise NotParquet(f"column {name}: the page header at byte {at:,} is not one: {exc}") from None
        unpacked, packed = header.get(2), header.get(3)
        if not isinstance(unpacked, int) or not isinstance(packed, int) or min(unpacked, packed) < 0:
            raise NotParquet(f"column {name}: the page header at byte {at:,} has no sizes")
        decoded += unpacked
        at += reader.at + packed
    if at != end or decoded > declared:
        raise ValueError(f"column {name}: its pages decode to {decoded:,} bytes in {at - start:,}, the "
                         f"footer declares {declared:,} in {end - start:,}")


def _int(table: dict[int, Any], field: int, what: str) -> int:
    value = table.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise NotParquet(f"its footer has no {what}")
    return value


def _name(chunk: dict[int, Any]) -> str:
    path = chunk.get(3)
    parts = [p.decode("utf-8", "replace") for p in path if isinstance(p, bytes)] if isinstance(path, list) \
        else []
    return ".".join(parts) or "?"


def check_footer(meta: dict[int, Any], file_size: int) -> int:
    """The file's rows, once its footer is within the bounds above; ValueError (one line) if not."""
    rows = _int(meta, 3, "row count")
    if rows > MAX_ROWS:
        raise ValueError(f"{rows:,} rows (at most {MAX_ROWS:,})")
    schema, groups = meta.get(2), meta.get(4)
    if not isinstance(schema, list) or not isinstance(groups, list):
        raise NotParquet("its footer has no schema or row groups")
    if len(schema) > MAX_COLUMNS + 1:
        raise ValueError(f"{len(schema) - 1:,} columns (at most {MAX_COLUMNS:,})")
    if len(groups) > MAX_ROW_GROUPS:
        raise ValueError(f"{len(groups):,} row groups (at most {MAX_ROW_GROUPS:,})")
    decoded = counted = 0
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get(1), list):
            raise NotParquet("a row group of its footer has no columns")
        group_rows = _int(group, 3, "row count of a row group")
        counted += group_rows
        bound = MAX_VALUE_BYTES * group_rows + MAX_CHUNK_SLACK
        for chunk in group[1]:
            if not isinstance(chunk, dict) or 1 in chunk or not isinstance(chunk.get(3), dict):
                raise ValueError("a column chunk kept in another file, or without its metadata")
            meta_data = chunk[3]
            size = _int(meta_data, 6, "decoded size of a column chunk")
            if size > bound:
                raise ValueError(f"column {_name(meta_data)} declares {size:,} bytes decoded for "
                                 f"{group_rows:,} rows (at most {bound:,})")
            if _int(meta_data, 7, "stored size of a column chunk") > file_size:
                raise ValueError(f"column {_name(meta_data)} declares more stored bytes than the file has")
            if _int(meta_data, 5, "value count of a column chunk") > group_rows:
                raise ValueError(f"column {_name(meta_data)} declares more values than its rows")
            decoded += size
    if counted != rows:
        raise ValueError(f"its row groups hold {counted:,} rows, its footer says {rows:,}")
    if decoded > MAX_DECODED_BYTES:
        raise ValueError(f"{decoded:,} bytes decoded in all (at most {MAX_DECODED_BYTES:,})")
    return rows
