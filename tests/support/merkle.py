"""Tables for the Merkle tests of both sides (docs/merkle.md), and the check that poolgen's and audit's
leaves of a whole table are audit's one-row leaf_of_row, row by row."""

from __future__ import annotations

import polars as pl

import audit.merkle as am
import poolgen.run.merkle as pm


def small_table(n: int) -> pl.DataFrame:
    """n rows of a position, a ticket id and a flag."""
    return pl.DataFrame({"position": list(range(n)), "ticket": [f"t-{i:04d}" for i in range(n)],
                         "flag": [i % 3 == 0 for i in range(n)]})


def by_row(df: pl.DataFrame) -> list[bytes]:
    """audit's leaf_of_row (written from docs/merkle.md alone) of each row."""
    return [am.leaf_of_row(row) for row in df.iter_rows(named=True)]


def both_sides(df: pl.DataFrame, *chunks: int) -> list[bytes]:
    """The leaves both sides compute, asserted equal to the row-by-row leaves, and returned.

    Rows are grouped by the byte lengths of their strings and hashed a group (poolgen) or a block (audit)
    at a time: a wrong grouping number, slice or width gives a wrong leaf."""
    want = by_row(df)
    assert [h.tobytes() for h in pm.leaf_hashes(df)] == want
    assert am.leaves(df) == want
    for chunk in chunks:
        assert [h.tobytes() for h in pm.leaf_hashes(df, chunk)] == want
        assert am.leaves(df, chunk) == want
    return want


def text(lengths: list[int], letter: str) -> list[str]:
    """One string of `letter` per length."""
    return [(letter * k)[:k] for k in lengths]
