"""audit/read/parquet.py: a Parquet footer decoded and bounded before a column is read. A file polars
writes passes with its row count; a footer declaring more than its rows can hold, an external column
chunk, too many rows or a cut file are refused in one line; any bytes at all give a row count or a
ValueError, never another exception or a hang (hypothesis)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.read.parquet import (
    MAX_CHUNK_SLACK,
    MAX_VALUE_BYTES,
    NotParquet,
    check_footer,
    check_pages,
    read_footer,
)
from tests.support.parquet import declare_decoded_size


def footer_of(path: Path) -> tuple[dict, int]:
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        return read_footer(fd, size), size
    finally:
        os.close(fd)


def rows_of(path: Path) -> int:
    """check_footer's rows, once check_pages has walked the pages too."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        meta = read_footer(fd, size)
        rows = check_footer(meta, size)
        check_pages(fd, meta)
        return rows
    finally:
        os.close(fd)


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "t.parquet"
    pl.DataFrame({"position": np.arange(500, dtype=np.uint32), "salt": [f"{i:032x}" for i in range(500)]}
                 ).write_parquet(path, compression="zstd", row_group_size=200)
    return path


def test_a_file_polars_writes_passes(small):
    meta, _ = footer_of(small)
    assert rows_of(small) == 500
    assert [g[3] for g in meta[4]] == [200, 200, 100]
    assert [c[3][3] for c in meta[4][0][1]] == [[b"position"], [b"salt"]]


def test_a_column_declaring_three_gigabytes_is_refused(small):
    declare_decoded_size(small, "salt", 3 << 30)
    with pytest.raises(ValueError) as info:
        rows_of(small)
    assert str(info.value) == (f"column salt declares {3 << 30:,} bytes decoded for 200 rows (at most "
                               f"{MAX_VALUE_BYTES * 200 + MAX_CHUNK_SLACK:,})")


def test_a_footer_understating_its_pages_is_refused(small):
    """A footer can lie the other way: declare little and hold a page that decodes to much more."""
    meta, _ = footer_of(small)
    chunk = meta[4][0][1][1][3]
    declare_decoded_size(small, "salt", 100)
    with pytest.raises(ValueError) as info:
        rows_of(small)
    assert str(info.value).startswith("column salt: its pages decode to ")
    assert str(info.value).endswith(f" bytes in {chunk[7]:,}, the footer declares 100 in {chunk[7]:,}")


def test_a_cut_file_and_a_file_that_is_not_parquet(small, tmp_path):
    data = small.read_bytes()
    small.write_bytes(data[:-1])
    with pytest.raises(NotParquet, match=r"^does not end with PAR1: not a Parquet file \(or cut short\)$"):
        footer_of(small)
    small.write_bytes(b"PAR1" + b"\0" * 100 + (2**31).to_bytes(4, "little") + b"PAR1")
    with pytest.raises(NotParquet, match=r"^a footer of 2,147,483,648 bytes in a file of 112: not a Parquet "
                                         r"file \(or cut short\)$"):
        footer_of(small)
    small.write_bytes(b"PAR1" + b"\x19\xfc" + b"\xff" * 10 + (12).to_bytes(4, "little") + b"PAR1")
    with pytest.raises(ValueError, match=r"^its footer is not Parquet metadata: "):
        footer_of(small)


def test_too_many_rows_an_external_chunk_and_a_row_count_that_disagrees(small):
    meta, size = footer_of(small)
    with pytest.raises(ValueError, match=r"^10,000,001 rows \(at most 10,000,000\)$"):
        check_footer({**meta, 3: 10_000_001}, size)
    chunk = meta[4][0][1][0]
    chunk[1] = b"other.parquet"
    with pytest.raises(ValueError, match=r"^a column chunk kept in another file, or without its metadata$"):
        check_footer(meta, size)
    del chunk[1]
    with pytest.raises(ValueError, match=r"^its row groups hold 500 rows, its footer says 499$"):
        check_footer({**meta, 3: 499}, size)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_change_to_a_footer_is_a_row_count_or_a_one_line_refusal(small, tmp_path, data):
    whole = small.read_bytes()
    small = tmp_path / "changed.parquet"  # `small` stays as written: every example changes its own copy
    length = int.from_bytes(whole[-8:-4], "little")
    footer = bytearray(whole[-8 - length:-8])
    for _ in range(data.draw(st.integers(1, 4))):
        footer[data.draw(st.integers(0, len(footer) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, 3))  # and sometimes a footer cut short
    footer = footer[:len(footer) - cut]
    small.write_bytes(whole[:-8 - length] + bytes(footer) + len(footer).to_bytes(4, "little") + b"PAR1")
    try:
        assert rows_of(small) <= 10_000_000
    except ValueError as exc:
        assert "\n" not in str(exc) and str(exc)
