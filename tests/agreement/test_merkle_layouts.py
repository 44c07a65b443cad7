"""Merkle roots of whole tables through every layout path of both sides' table code (poolgen/run/merkle.py
cuts a row into segments after its varying strings, or groups rows by length; audit/merkle/table.py cuts
each block's rows after their varying fields, or sorts them by layout), pinned: each root is the one the
code before those paths computed, and equals a naive row-by-row implementation written here from
docs/merkle.md alone (no code of either side)."""

from __future__ import annotations

import hashlib

import polars as pl
import pytest

import audit.merkle as am
import poolgen.run.merkle as pm


def _tag(dtype: pl.DataType) -> bytes:
    if dtype.is_integer():
        return b"i"
    if dtype == pl.Boolean:
        return b"b"
    assert dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum), dtype
    return b"s"


def _value(tag: bytes, v: object) -> bytes:
    if tag == b"i":
        assert isinstance(v, int)
        return v.to_bytes(8, "big", signed=True)
    if tag == b"b":
        return b"\x01" if v else b"\x00"
    assert isinstance(v, str)
    raw = v.encode("utf-8")
    return len(raw).to_bytes(4, "big") + raw


def _naive_root(df: pl.DataFrame) -> bytes:
    """docs/merkle.md sections 1 to 3, one row and one node at a time."""
    names = sorted(df.columns, key=lambda c: c.encode("utf-8"))
    tags = [_tag(df.schema[c]) for c in names]
    header = len(names).to_bytes(4, "big") + b"".join(
        len(c.encode()).to_bytes(4, "big") + c.encode() + t for c, t in zip(names, tags, strict=True))
    level = [hashlib.sha256(b"\x00" + header + b"".join(_value(t, row[c]) for c, t in zip(names, tags,
                                                                                        strict=True))).digest()
             for row in df.iter_rows(named=True)]
    if not level:
        return hashlib.sha256(b"").digest()
    while len(level) > 1:
        groups = [level[i:i + 16] for i in range(0, len(level), 16)]
        level = [g[0] if len(g) == 1 else hashlib.sha256(b"\x01" + b"".join(g)).digest() for g in groups]
    return level[0]


def _cycle(values: list, n: int) -> list:
    return [values[i % len(values)] for i in range(n)]


def _base(n: int) -> dict[str, pl.Series]:
    """A pool's fixed columns: integers of several widths (uint64 up to 2^63 - 1, negative int8 and
    int64), a boolean, a 32-hex-digit salt and a 15-character ticket id."""
    return {"position": pl.Series(range(n), dtype=pl.UInt32),
            "prize_cents": pl.Series([(-1) ** i * 7 * i for i in range(n)], dtype=pl.Int64),
            "big": pl.Series(_cycle([0, 1, 2**63 - 1, 2**40], n), dtype=pl.UInt64),
            "small": pl.Series(_cycle([-128, -1, 0, 127], n), dtype=pl.Int8),
            "flag": pl.Series([i % 3 == 0 for i in range(n)], dtype=pl.Boolean),
            "salt": pl.Series([f"{i * 2654435761 % 2**128:032x}" for i in range(n)]),
            "ticket": pl.Series([f"465-{i // 300:07d}-{i % 300:03d}" for i in range(n)])}


TIERS = ["lose", "m0.5", "m10", "free", "1", "big5"]


def _table(case: str, n: int) -> pl.DataFrame:
    cols = _base(n)
    if case == "tier last, ASCII":  # generate: one stripped segment; audit: one piece
        cols["tier"] = pl.Series(_cycle(TIERS, n))
    elif case == "tier last, multibyte":  # UTF-8 of 1 to 6 bytes, last bytes non-zero
        cols["tier"] = pl.Series(_cycle(["é", "日本", "lose", "ü1", "x"], n))
    elif case == "tier in the middle, zero bytes after it":  # two segments; the last ends in 0x00 bytes
        cols["tier"] = pl.Series(_cycle(TIERS, n))
        cols["z_after"] = pl.Series(_cycle([0, 255, 0, 1], n), dtype=pl.UInt8)
        cols["zz_flag"] = pl.Series([False] * n)
    elif case == "two varying, multibyte":  # three segments
        cols["a_text"] = pl.Series(_cycle(["ß", "abc", "€€", "q"], n))
        cols["tier"] = pl.Series(_cycle(TIERS, n))
        cols["zz"] = pl.Series(range(n), dtype=pl.UInt16)
    elif case == "empty strings vary":  # an empty value ends in its length's 0x00: grouped / sorted
        cols["tier"] = pl.Series(_cycle(["lose", "", "m1", "é"], n))
        cols["zz"] = pl.Series(range(n), dtype=pl.Int16)
    elif case == "a value ends in 0x00":
        cols["tier"] = pl.Series(_cycle(["lose", "m1\x00", "m1"], n))
    elif case == "fixed empty and categorical text":  # a string slot of no bytes; text by its strings
        cols["empty"] = pl.Series([""] * n)
        cols["tier"] = pl.Series(_cycle(TIERS, n)).cast(pl.Categorical)
        cols["kind"] = pl.Series(_cycle(["a", "b"], n)).cast(pl.Enum(["b", "a"]))
    elif case == "varies only past the first chunks":  # audit's early blocks: one length, no cut
        cols["tier"] = pl.Series(["lose"] * (n - 3) + ["m1", "lose", "big50"])
    else:
        raise AssertionError(case)
    return pl.DataFrame(cols)


# Roots computed by both sides before the segment (generate) and cut (audit) paths existed (commit
# 548317f), for n = 300 rows: the same bytes then and now.
ROOTS = {
    "tier last, ASCII":
        "bea2497db43f68085dde75e6766e9aac775d6faa02c99db3b334327a49292cbb",
    "tier last, multibyte":
        "cceac666e9befaf3bab46dbe4b9b59df715182f29518a755ae6903bda96e7d90",
    "tier in the middle, zero bytes after it":
        "cd73024c1302ebdfb59558bf346141f64609a0b99402d0c34177b1f51badd8c7",
    "two varying, multibyte":
        "9fcb1a92917be98175e358622abce383ccfa4bd3d1a2913b3cfcc9a574988405",
    "empty strings vary":
        "354e3f987487b39b66a0325666c6d49d6a8dbc3db8d9b79e4ba2fdb9577d997b",
    "a value ends in 0x00":
        "70943f477b7b9e057a1f9f2be86a40d5caf9191b28bde406725485c92f9db7a1",
    "fixed empty and categorical text":
        "38ec5b19d88b5faf7e8c8b9f44b3ddab08a364670e49159400f33b4cfbfab237",
    "varies only past the first chunks":
        "d71939d7e130909c49daf0f0a93eaa8c1540db9a340aaf0cfe875050c64e7102",
}


@pytest.mark.parametrize("case", list(ROOTS))
def test_both_sides_roots_equal_the_naive_root_and_the_root_before_the_fast_paths(case):
    df = _table(case, 300)
    want = _naive_root(df)
    assert want.hex() == ROOTS[case]
    assert pm.root(df) == want
    assert am.table_root(df) == want


@pytest.mark.parametrize("case", list(ROOTS))
@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_both_sides_roots_do_not_depend_on_the_chunk_of_rows_laid_out_at_once(case, chunk):
    df = _table(case, 300)
    want = _naive_root(df)
    assert pm.Tree.of_leaves(pm.leaf_hashes(df, chunk)).root == want
    assert am.root_of_leaves(am.leaves(df, chunk)) == want


# (generate's segments, or None when rows are grouped by length; audit cuts rows in table order)
PATHS = {"tier last, ASCII": (1, True), "tier last, multibyte": (1, True),
         "tier in the middle, zero bytes after it": (2, True), "two varying, multibyte": (3, True),
         "empty strings vary": (None, False), "a value ends in 0x00": (None, False),
         "fixed empty and categorical text": (1, True), "varies only past the first chunks": (1, True)}


@pytest.mark.parametrize("case", list(ROOTS))
def test_each_table_takes_the_layout_path_it_is_named_for(case, monkeypatch):
    df = _table(case, 300)
    segments = pm._segments(pm._columns(df), df.height, 2048)
    assert (None if segments is None else len(segments)) == PATHS[case][0]
    cut = []
    split = am.table._split_digests

    def spy(*args):  # type: ignore[no-untyped-def]
        out = split(*args)
        cut.append(out is not None)
        return out

    monkeypatch.setattr(am.table, "_split_digests", spy)
    assert am.table_root(df).hex() == ROOTS[case]
    assert cut == [PATHS[case][1]]
