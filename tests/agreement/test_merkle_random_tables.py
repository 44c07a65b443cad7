"""Merkle roots of random tables on both sides equal a naive row-by-row root written from docs/merkle.md
alone (tests/agreement/test_merkle_layouts.py `_naive_root`): random column names (non-ASCII, of any
byte order), every integer type at its bounds, booleans, strings and categoricals whose values vary in
length, end in a zero byte, are empty or multibyte, and 0 to 70 rows laid out a random number of rows at
a time, so that every layout path of poolgen/run/merkle.py and audit/merkle/table.py meets every shape."""

from __future__ import annotations

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import audit.merkle as am
import poolgen.run.merkle as pm
from tests.agreement.test_merkle_layouts import _naive_root

BOUNDS = {pl.Int8: (-(2**7), 2**7 - 1), pl.Int16: (-(2**15), 2**15 - 1), pl.Int32: (-(2**31), 2**31 - 1),
          pl.Int64: (-(2**63), 2**63 - 1), pl.UInt8: (0, 2**8 - 1), pl.UInt16: (0, 2**16 - 1),
          pl.UInt32: (0, 2**32 - 1), pl.UInt64: (0, 2**63 - 1)}
# characters of 1 to 4 UTF-8 bytes, and the zero byte a value may end in
LETTERS = st.sampled_from(["a", "Z", "0", "\x00", "é", "ß", "日", "€", "😀"]) | st.characters(codec="utf-8")
VALUE = st.text(LETTERS, max_size=6) | st.text(LETTERS, max_size=5).map(lambda s: s + "\x00")  # ends in 0x00
NAME = st.text(st.sampled_from(["a", "b", "_", "é", "日", "😀", "Z"]) | st.characters(codec="utf-8",
                                                                                     exclude_characters="\x00"),
               min_size=1, max_size=5)
KIND = st.sampled_from([*BOUNDS, pl.Boolean, pl.String, pl.String, pl.Categorical])


def _values(data: st.DataObject, kind: type[pl.DataType], n: int) -> pl.Series:
    if kind in BOUNDS:
        lo, hi = BOUNDS[kind]
        return pl.Series(data.draw(st.lists(st.sampled_from([lo, hi, 0]) | st.integers(lo, hi),
                                            min_size=n, max_size=n)), dtype=kind)
    if kind == pl.Boolean:
        return pl.Series(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=pl.Boolean)
    # a few distinct values, as a pool's text columns have (tier, salt), often one per row
    values = data.draw(st.lists(VALUE, min_size=1, max_size=5))
    column = pl.Series(data.draw(st.lists(st.sampled_from(values), min_size=n, max_size=n)), dtype=pl.String)
    return column.cast(pl.Categorical) if kind == pl.Categorical else column


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                    HealthCheck.data_too_large])
@given(st.data())
def test_both_sides_roots_of_random_tables_equal_the_naive_root_of_docs_merkle(data):
    n = data.draw(st.integers(0, 70), label="rows")
    names = data.draw(st.lists(NAME, min_size=1, max_size=6, unique=True), label="columns")
    table = pl.DataFrame({name: _values(data, data.draw(KIND, label=name), n) for name in names})
    want = _naive_root(table)
    assert pm.root(table) == want
    assert am.table_root(table) == want
    assert pm.Tree.of_leaves(pm.leaf_hashes(table, data.draw(st.integers(1, 20), label="chunk"))).root == want
    assert am.root_of_leaves(am.leaves(table, data.draw(st.integers(1, 20), label="chunk"))) == want
