"""poolgen's Merkle tree (poolgen/run/merkle.py) alone: paths, the values it refuses. Both sides
against docs/merkle.md's known answers and each other: tests/agreement/test_merkle.py and
test_merkle_edges.py."""

from __future__ import annotations

import polars as pl
import pytest

import audit.merkle as am
import poolgen.run.merkle as pm
from tests.support.merkle import both_sides as _both_sides
from tests.support.merkle import small_table as _table


@pytest.mark.parametrize(("n", "index"), [(1, 0), (2, 1), (17, 16), (300, 255), (300, 299)])
def test_path_for_gives_the_root_and_a_path_audit_folds_into_it(n, index):
    df = _table(n)
    root, path = pm.path_for(df, index)
    assert root == pm.root(df) == am.table_root(df)
    leaf = am.leaves(df)[index]
    assert am.root_from_path(leaf, index, n, path) == root
    assert [(len(s["left"]), len(s["right"])) for s in path] == am.expected_shape(index, n)


@pytest.mark.parametrize("index", [-1, 5])
def test_a_path_of_a_leaf_outside_the_tree_is_refused_in_these_words(index):
    tree = pm.Tree.of_table(_table(5))
    with pytest.raises(IndexError) as info:
        tree.path(index)
    assert str(info.value) == f"leaf {index} of a tree of 5"
    assert tree.path(4) == pm.path_for(_table(5), 4)[1]


def test_poolgen_takes_a_uint64_column_up_to_2_63_minus_1_and_refuses_above():
    _both_sides(pl.DataFrame({"u": pl.Series([0, 2**63 - 1, 7], dtype=pl.UInt64)}))
    with pytest.raises(pm.MerkleError) as info:
        pm.leaf_hashes(pl.DataFrame({"u": pl.Series([1, 2**63], dtype=pl.UInt64)}))
    assert str(info.value) == "column 'u': a value does not fit in 64 signed bits"


def _pool_like(tiers: list[str]) -> pl.DataFrame:
    """A pool's shape: integers, fixed-length strings, and `tier` last in the encoding order."""
    n = len(tiers)
    return pl.DataFrame({"position": pl.Series(range(n), dtype=pl.UInt32),
                         "prize_cents": [7 * i for i in range(n)],
                         "salt": [f"{i:032x}" for i in range(n)],
                         "a0_s0": pl.Series([i % 5 for i in range(n)], dtype=pl.UInt8),
                         "tier": tiers})


def test_rows_whose_last_column_alone_varies_are_hashed_in_table_order_without_grouping(monkeypatch):
    df = _pool_like(["lose", "m1", "big5", "m10", "lose", "é", "m1"] * 3)

    def no_grouping(*_: object) -> None:
        raise AssertionError("rows were grouped by length")

    want = _both_sides(df, 1, 4)  # every chunk boundary, against audit's row-by-row leaves
    monkeypatch.setattr(pm, "_groups", no_grouping)
    assert [h.tobytes() for h in pm.leaf_hashes(df, 5)] == want


@pytest.mark.parametrize("tiers", [
    ["lose", "", "m1", "m10"],  # an empty last value ends in its length's 0x00: grouped
    ["lose", "m1\x00", "m1", "m10"],  # a value ending in 0x00: grouped
    ["lose"] * 4,  # nothing varies: one fixed layout
])
def test_a_last_column_whose_values_may_end_in_zero_bytes_is_still_encoded_exactly(tiers):
    _both_sides(_pool_like(tiers * 3), 1, 5)


def test_a_varying_column_that_is_not_last_or_not_alone_is_still_encoded_exactly():
    df = _pool_like(["lose", "m1", "big5", "m10"] * 3)
    _both_sides(df.with_columns(zz=pl.lit("fixed")), 1, 5)  # `tier` no longer last
    _both_sides(df.with_columns(salt=pl.Series([f"{i}" for i in range(12)])), 1, 5)  # two vary
