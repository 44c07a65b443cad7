"""poolgen/files/parquet.py: a Parquet file written a row group at a time is byte for byte what polars'
`write_parquet` writes of the whole table (the imaging file's bytes did not change when it stopped
being held whole, issue 28), and a layout the writer does not know is refused, never written wrong."""

from __future__ import annotations

import io

import numpy as np
import polars as pl
import pytest

from poolgen.errors import RunError
from poolgen.files.parquet import RowGroupWriter, decode, encode, parquet_bytes, row_groups


def _table(n: int) -> pl.DataFrame:
    """An imaging file's kinds of column: unique text, text of a few values (dictionary pages), uint16."""
    rows = np.arange(n, dtype=np.uint32)
    codes = pl.Series("spot", (rows * 7919 % 13).astype(np.uint8))
    names = pl.Series([f"symbol number {v} of the alphabet" for v in range(13)], dtype=pl.String)
    return pl.DataFrame([
        pl.Series("barcode", rows).cast(pl.String).str.zfill(15),
        pl.Series("ticket_no", (rows % 300).astype(np.uint16)),
        codes, names.gather(codes).alias("spot_text")])


def _joined(table: pl.DataFrame) -> bytes:
    out, first = io.BytesIO(), 0
    writer = RowGroupWriter(out)
    for n in row_groups(table.height):
        writer.add(table.slice(first, n))
        first += n
    writer.close()
    return out.getvalue()


@pytest.mark.parametrize("height", [1, 131_073, 300_001])
def test_row_groups_written_one_by_one_are_write_parquets_bytes_of_the_whole(height):
    table = _table(height)
    groups = row_groups(height)
    assert sum(groups) == height
    assert len(groups) == {1: 1, 131_073: 1, 300_001: 3}[height]
    assert _joined(table) == parquet_bytes(table)


def test_a_footer_decodes_and_encodes_to_its_own_bytes():
    data = parquet_bytes(_table(300_001))
    start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    assert encode(decode(data[start:-8])) == data[start:-8]


def test_a_part_of_more_than_one_row_group_is_refused():
    writer = RowGroupWriter(io.BytesIO())
    with pytest.raises(RunError, match=r"^polars wrote 3 row groups of a 300001-row part, not one$"):
        writer.add(_table(300_001))


def test_parts_of_other_columns_are_refused():
    writer = RowGroupWriter(io.BytesIO())
    writer.add(_table(10))
    with pytest.raises(RunError, match=r"^a row group's schema or metadata differs from the first's$"):
        writer.add(_table(10).drop("spot_text"))


def test_a_file_of_no_row_group_is_refused():
    with pytest.raises(RunError, match=r"^a Parquet file of no row group$"):
        RowGroupWriter(io.BytesIO()).close()
