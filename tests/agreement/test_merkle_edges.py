"""Merkle, both sides, where the known answers (test_merkle.py) do not look: integers, strings and
values without an encoding, in each side's own words, and whole tables at the edges of both sides' fast
grouping paths, against audit's one-row leaf_of_row."""

from __future__ import annotations

import hashlib
from itertools import product

import polars as pl
import pytest

import audit.merkle as am
import poolgen.run.merkle as pm
from tests.support.merkle import both_sides as _both_sides
from tests.support.merkle import text as _text

LOW, HIGH = -(2**63), 2**63 - 1


@pytest.mark.parametrize("v", [LOW, -1, 0, HIGH])
def test_every_64_bit_integer_encodes_alike_on_both_sides(v):
    raw = v.to_bytes(8, "big", signed=True)
    assert am.encode_value("n", v) == (b"i", raw)
    assert pm.row_message({"n": v}) == b"\x00\x00\x00\x01\x00\x00\x00\x01ni" + raw
    assert am.leaf_of_row({"n": v}) == hashlib.sha256(b"\x00" + pm.row_message({"n": v})).digest()


@pytest.mark.parametrize("v", [LOW - 1, HIGH + 1, 2**64, -(2**64)])
def test_an_integer_beyond_64_signed_bits_is_refused_in_these_words(v):
    with pytest.raises(pm.MerkleError) as ours:
        pm.row_message({"n": v})
    assert str(ours.value) == f"column 'n': {v} does not fit in 64 signed bits"
    with pytest.raises(am.MerkleError) as theirs:
        am.leaf_of_row({"n": v})
    assert str(theirs.value) == f"column 'n': integer {v} is outside 64 signed bits"


@pytest.mark.parametrize(("v", "kind", "shown"), [(None, "null", "None"), (1.5, "float", "1.5"),
                                                  ([1], "list", "[1]"), (b"x", "bytes", "b'x'")])
def test_a_value_without_an_encoding_is_refused_in_these_words(v, kind, shown):
    with pytest.raises(pm.MerkleError) as ours:
        pm.row_message({"a": 1, "col": v})
    assert str(ours.value) == f"column 'col': a {kind} value has no row encoding"
    with pytest.raises(am.MerkleError) as theirs:
        am.leaf_of_row({"a": 1, "col": v})
    assert str(theirs.value) == f"column 'col': {shown} has no encoding (only integers, strings, booleans)"


def test_strings_are_length_prefixed_big_endian_utf8():
    assert am.encode_value("s", "é") == (b"s", b"\x00\x00\x00\x02\xc3\xa9")
    assert pm.row_message({"s": "é"}).endswith(b"s\x00\x00\x00\x02\xc3\xa9")
    assert am.encode_value("s", "") == (b"s", b"\x00\x00\x00\x00")


# ---- whole tables against audit's one-row leaf_of_row (written from docs/merkle.md alone) ---------------
# Rows are grouped by the byte lengths of their strings and hashed a group (poolgen) or a block (audit) at
# a time: each case below is a table where a wrong grouping number, slice or width gives a wrong leaf.
def test_a_table_of_rows_without_columns_hashes_the_empty_message():
    df = pl.DataFrame({"a": [1, 2, 3]}).drop("a")
    assert df.shape == (3, 0)
    leaf = hashlib.sha256(b"\x00" + (0).to_bytes(4, "big")).digest()
    assert [h.tobytes() for h in pm.leaf_hashes(df)] == [leaf] * 3
    assert am.leaves(df) == [leaf] * 3
    root = hashlib.sha256(b"\x01" + leaf * 3).digest()
    assert pm.root(df) == am.table_root(df) == root


def test_a_table_of_one_boolean_column_hashes_each_value():
    leaves = _both_sides(pl.DataFrame({"b": [True, False, True]}), 2)
    assert leaves[0] == hashlib.sha256(b"\x00\x00\x00\x00\x01\x00\x00\x00\x01bb\x01").digest()
    assert leaves[0] != leaves[1] and leaves[0] == leaves[2]


@pytest.mark.parametrize("last", [["", "", ""], ["", "x", ""]])
def test_an_empty_string_in_the_last_column_has_its_length_and_no_slot(last):
    _both_sides(pl.DataFrame({"a": [1, 2, 3], "z": last}), 2)


def test_varying_strings_of_multibyte_characters_in_every_row():
    _both_sides(pl.DataFrame({"s": ["é", "éé", "ü€", "€€€", "é"], "n": [1, 2, 3, 4, 5]}), 2)


def test_more_rows_than_a_chunk_in_every_group():
    df = pl.DataFrame({"n": list(range(11)), "s": _text([3, 0, 3, 5] * 2 + [3, 0, 5], "q")})
    _both_sides(df, 1, 3, 4, 10)
    _both_sides(df.drop("s"), 1, 3, 10)  # one group of fixed width, cut into chunks


def test_two_varying_columns_whose_length_codes_pass_2_16():
    # lengths 0..256 in both columns: 257 * 257 = 66,049 combinations, more than a uint16 holds. Rows
    # whose mixed-radix numbers differ by a multiple of 2^16 (or would, with a base off by one) must
    # still land in different groups.
    pairs = list(product(range(257), [0, 1, 128, 254, 255, 256]))
    df = pl.DataFrame({"a": _text([a for a, _ in pairs], "a"), "b": _text([b for _, b in pairs], "b")})
    _both_sides(df)


def test_three_varying_columns_every_combination_of_lengths():
    combos = list(product(range(3), repeat=3))
    df = pl.DataFrame({name: _text([c[k] for c in combos], name) for k, name in enumerate("xyz")})
    _both_sides(df)


@pytest.mark.parametrize("columns", [54, 64])
def test_many_varying_columns_whose_length_codes_pass_2_53_and_2_63(columns):
    # 54 columns of lengths 0 or 1: the codes 2^53 and 2^53 + 1 are one float apart, exact in int64;
    # 64 columns: 2^64 combinations, beyond int64, so the rows are numbered by their distinct lengths.
    rows = [[0] * columns, [1] * columns, [1] + [0] * (columns - 2) + [1], [0] * (columns - 1) + [1],
            [1] + [0] * (columns - 1)]
    df = pl.DataFrame({f"c{k:02d}": _text([r[k] for r in rows], "v") for k in range(columns)})
    leaves = _both_sides(df)
    assert len(set(leaves)) == len(rows)
