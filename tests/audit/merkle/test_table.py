"""audit's leaves of a whole table (audit/merkle/table.py): chunks, integer and text columns of
every kind, and rows of varying strings grouped by layout, against poolgen's leaves and audit's one-row
leaf_of_row."""

from __future__ import annotations

import hashlib

import polars as pl
import pytest

import audit.merkle as am
import poolgen.run.merkle as pm
from tests.support.merkle import both_sides as _both_sides
from tests.support.merkle import small_table as _table
from tests.support.merkle import text as _text


@pytest.mark.parametrize("chunk", [1, 7, 300])
def test_audit_leaves_do_not_depend_on_the_chunk(chunk):
    df = _table(300).with_columns(pl.Series("s", ["", "a", "bcd"] * 100))
    want = [row.tobytes() for row in pm.leaf_hashes(df)]
    assert am.leaves(df, chunk) == want
    assert am.leaves(df) == want


def test_the_default_block_is_about_a_mebibyte_of_encodings_and_blocks_are_crossed():
    """Rows of 934 bytes at their longest: the default block is 1 MiB // 934 = 1,122 rows, so 2,500 rows
    are three blocks, each with strings of several lengths; a 0 chunk is the default, as it always was."""
    wide = pl.Series("w", ["x" * 900, "y" * 903] * 1250)
    df = _table(2500).with_columns(wide, pl.Series("s", ["", "a", "bcd", "efgh", "ij"] * 500))
    assert am.table._width(am.table._columns(df)[0]) == 934
    want = [row.tobytes() for row in pm.leaf_hashes(df)]
    assert am.leaves(df) == want
    assert am.leaves(df, 0) == want


def test_audit_leaves_of_a_table_whose_only_column_is_empty_text():
    df = pl.DataFrame({"s": ["", "", ""]})
    want = [hashlib.sha256(b"\x00" + pm.row_message({"s": ""})).digest()] * 3
    assert am.leaves(df) == want
    assert am.leaves(df, 2) == want


def _varying(n: int, lengths: list[int], salt: int) -> list[str]:
    """n strings whose lengths cycle through `lengths` and whose letters differ from row to row."""
    return ["".join(chr(97 + (i * 7 + j + salt) % 26)
                    for j in range(lengths[(i * (salt + 1)) % len(lengths)])) for i in range(n)]


@pytest.mark.parametrize(("a", "b"), [([1, 3], [0, 2, 5]),        # few layouts, small radix: counted
                                      ([0, 300], [0, 300]),       # few layouts, radix above 2^16
                                      (list(range(40)), [0, 1])])  # many layouts: packed
def test_audit_leaves_of_varying_strings_grouped_by_layout_match_row_by_row(a, b):
    n = 2400
    df = pl.DataFrame({"a": _varying(n, a, 1), "b": _varying(n, b, 2), "n": list(range(n)),
                       "same": ["abc"] * n, "flag": [i % 2 == 0 for i in range(n)]})
    want = [row.tobytes() for row in pm.leaf_hashes(df)]
    assert am.leaves(df) == want
    assert am.leaves(df, 1000) == want
    for i in (0, 1, 2, 3, 4, 5, 777, n - 1):
        assert want[i] == am.leaf_of_row(df.row(i, named=True))


def test_audit_leaves_of_five_wide_varying_columns_are_packed_exactly():
    n = 600
    cols = {f"s{k}": _varying(n, [0, 250, 300], k) for k in range(5)}  # 301^5 layouts possible
    df = pl.DataFrame(cols)
    want = [row.tobytes() for row in pm.leaf_hashes(df)]
    assert am.leaves(df) == want
    assert want[5] == am.leaf_of_row(df.row(5, named=True))


def test_audit_takes_a_uint64_column_up_to_2_63_minus_1_and_refuses_above():
    top = pl.DataFrame({"u": pl.Series([0, 2**63 - 1], dtype=pl.UInt64)})
    assert am.leaves(top) == [am.leaf_of_row({"u": 0}), am.leaf_of_row({"u": 2**63 - 1})]
    small = pl.DataFrame({"u": pl.Series([5, 6], dtype=pl.UInt64)})
    assert am.leaves(small) == [am.leaf_of_row({"u": 5}), am.leaf_of_row({"u": 6})]
    over = pl.DataFrame({"u": pl.Series([1, 2**63], dtype=pl.UInt64)})
    with pytest.raises(am.MerkleError) as info:
        am.leaves(over)
    assert str(info.value) == "column 'u' holds an integer above 2^63 - 1"


@pytest.mark.parametrize("dtype", [pl.Categorical, pl.Enum(["", "ab", "xyz"])])
def test_audit_encodes_categorical_text_as_its_strings(dtype):
    values = ["ab", "", "xyz", "ab"] * 5
    text = pl.DataFrame({"c": values, "n": list(range(20))})
    cat = text.with_columns(pl.col("c").cast(dtype))
    assert am.leaves(cat) == am.leaves(text) == [am.leaf_of_row(r) for r in text.iter_rows(named=True)]


@pytest.mark.parametrize("chunk", [-1, 2.5, "3"])
def test_audit_leaves_refuses_a_chunk_that_is_not_a_positive_integer(chunk):
    with pytest.raises(ValueError) as info:
        am.leaves(pl.DataFrame({"a": [1]}), chunk)
    assert str(info.value) == f"chunk must be a positive integer, not {chunk!r}"


def test_audit_leaves_of_two_varying_columns_in_few_layouts_hashed_layout_by_layout():
    # 4 layouts of 256 rows each: audit hashes each layout's rows as one matrix, cutting out the padding
    # of both varying columns by the lengths it reads back from the layout's number
    n = 1024
    df = pl.DataFrame({"a": _text([(0, 2)[i % 2] for i in range(n)], "a"),
                       "b": _text([(1, 3)[i // 2 % 2] for i in range(n)], "b"), "n": list(range(n))})
    leaves = _both_sides(df)
    assert len(set(leaves)) == n
