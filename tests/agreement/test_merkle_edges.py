"""Merkle, both sides, where the known answers do not look: the edges of the row encoding, the exact
errors, audit's node(), a proof made by `prove_ticket` from a small real run, checked by audit, and
whole tables at the edges of both sides' fast grouping paths, against audit's one-row leaf_of_row."""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from itertools import product

import numpy as np
import polars as pl
import pytest

import audit.merkle as am
import poolgen.run.merkle as pm
from poolgen.errors import RunError
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.prove import prove_ticket
from tests.support import SEED_A, spec_path

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


def test_audit_names_the_column_of_text_that_has_no_utf8_form():
    with pytest.raises(am.MerkleError) as info:
        am.leaf_of_row({"a": "ok", "t": "\udc80"})
    assert str(info.value) == "column 't': the value is not valid Unicode text (it has no UTF-8 form)"


def test_a_column_name_must_be_text():
    with pytest.raises(am.MerkleError) as info:
        am.leaf_of_row({"a": 1, 7: 2})
    assert str(info.value) == "column name 7 is not text"


def test_strings_are_length_prefixed_big_endian_utf8():
    assert am.encode_value("s", "é") == (b"s", b"\x00\x00\x00\x02\xc3\xa9")
    assert pm.row_message({"s": "é"}).endswith(b"s\x00\x00\x00\x02\xc3\xa9")
    assert am.encode_value("s", "") == (b"s", b"\x00\x00\x00\x00")


@pytest.mark.parametrize("count", [2, 3, 16])
def test_audit_node_hashes_2_to_16_children(count):
    children = [bytes([i]) * 32 for i in range(count)]
    assert am.node(*children) == hashlib.sha256(b"\x01" + b"".join(children)).digest()


@pytest.mark.parametrize("count", [0, 1, 17])
def test_audit_node_refuses_other_counts(count):
    with pytest.raises(am.MerkleError) as info:
        am.node(*[bytes(32)] * count)
    assert str(info.value) == f"a node has 2 to 16 children, not {count}"


def _table(n: int) -> pl.DataFrame:
    return pl.DataFrame({"position": list(range(n)), "ticket": [f"t-{i:04d}" for i in range(n)],
                         "flag": [i % 3 == 0 for i in range(n)]})


@pytest.mark.parametrize(("n", "index"), [(1, 0), (2, 1), (17, 16), (300, 255), (300, 299)])
def test_path_for_gives_the_root_and_a_path_audit_folds_into_it(n, index):
    df = _table(n)
    root, path = pm.path_for(df, index)
    assert root == pm.root(df) == am.table_root(df)
    leaf = am.leaves(df)[index]
    assert am.root_from_path(leaf, index, n, path) == root
    assert [(len(s["left"]), len(s["right"])) for s in path] == am.expected_shape(index, n)


@pytest.mark.parametrize("chunk", [1, 7, 300])
def test_audit_leaves_do_not_depend_on_the_chunk(chunk):
    df = _table(300).with_columns(pl.Series("s", ["", "a", "bcd"] * 100))
    want = [row.tobytes() for row in pm.leaf_hashes(df)]
    assert am.leaves(df, chunk) == want
    assert am.leaves(df) == want


def test_audit_leaves_of_a_table_whose_only_column_is_empty_text():
    df = pl.DataFrame({"s": ["", "", ""]})
    want = [hashlib.sha256(b"\x00" + pm.row_message({"s": ""})).digest()] * 3
    assert am.leaves(df) == want
    assert am.leaves(df, 2) == want


# ---- prove_ticket on a small real run ----------------------------------------------------------------

@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A run of one cut-down Happy Holidays pool of 41 tickets (1 book), built by `generate`."""
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pool("p1")
    counts = [30, 4, 3, 2, 1, 0, 1]
    tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, counts, strict=False))
    small = replace(pool, tiers=tiers, tickets=sum(counts), books=1)
    out = tmp_path_factory.mktemp("proof")
    return generate(GenerateRequest(replace(spec, pools=(small,)), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=out, run_id="r")).folder


def test_prove_ticket_gives_the_row_path_and_root_audit_checks(small_run):
    manifest = (small_run / "manifest.json").read_bytes()
    entry = json.loads(manifest)["pools"][0]
    table = pl.read_parquet(small_run / "pool-p1.parquet")
    proof = prove_ticket(small_run, "465-0000000-034")
    assert set(proof) == {"format", "run_id", "manifest_sha256", "pool", "tickets", "position", "ticket",
                          "row", "leaf", "path", "merkle"}
    assert proof["format"] == "poolgen-proof/2" and proof["run_id"] == "r" and proof["pool"] == "p1"
    assert proof["manifest_sha256"] == hashlib.sha256(manifest).hexdigest()
    assert (proof["tickets"], proof["position"], proof["ticket"]) == (41, 34, "465-0000000-034")
    assert proof["row"] == table.row(34, named=True)
    assert entry["merkle"]["root"] == am.table_root(table).hex()
    assert proof["merkle"] == {"algorithm": "poolgen-merkle/v2", "root": entry["merkle"]["root"]}
    leaf = am.leaf_of_row(proof["row"])
    assert proof["leaf"] == leaf.hex()
    assert am.root_from_path(leaf, 34, 41, proof["path"]).hex() == entry["merkle"]["root"]
    first = prove_ticket(small_run, "465-0000000-000")
    assert first["position"] == 0 and first["row"]["ticket"] == "465-0000000-000"


def test_prove_ticket_of_an_unknown_ticket(small_run):
    with pytest.raises(RunError) as info:
        prove_ticket(small_run, "465-0000000-041")
    assert str(info.value) == f"{small_run}: no ticket '465-0000000-041' in any pool of the run"


def test_prove_ticket_refuses_a_pool_file_whose_root_is_not_the_manifests(small_run, tmp_path):
    run = tmp_path / "r"
    shutil.copytree(small_run, run)
    table = pl.read_parquet(run / "pool-p1.parquet")
    table.with_columns(pl.when(pl.col("position") == 3).then(pl.lit("0" * 32)).otherwise(pl.col("salt"))
                       .alias("salt")).write_parquet(run / "pool-p1.parquet")
    with pytest.raises(RunError) as info:
        prove_ticket(run, "465-0000000-001")
    assert str(info.value) == f"{run / 'pool-p1.parquet'}: its Merkle root is not the manifest's; the run " \
                              "folder is damaged"


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


@pytest.mark.parametrize("index", [-1, 5])
def test_a_path_of_a_leaf_outside_the_tree_is_refused_in_these_words(index):
    tree = pm.Tree.of_table(_table(5))
    with pytest.raises(IndexError) as info:
        tree.path(index)
    assert str(info.value) == f"leaf {index} of a tree of 5"
    assert tree.path(4) == pm.path_for(_table(5), 4)[1]


def test_prove_ticket_finds_a_ticket_of_a_later_pool(tmp_path):
    spec = load_spec(spec_path("happy_holidays"))
    pools = []
    for pool in spec.pools[:2]:
        tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, [8, 1], strict=False))
        pools.append(replace(pool, tiers=tiers, tickets=9, books=1))
    run = generate(GenerateRequest(replace(spec, pools=tuple(pools)), SEED_A,
                                   now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path, run_id="two")).folder
    ticket = pl.read_parquet(run / "pool-p2.parquet")["ticket"][6]
    proof = prove_ticket(run, ticket)
    assert (proof["pool"], proof["position"], proof["tickets"], proof["ticket"]) == ("p2", 6, 9, ticket)


def test_prove_ticket_of_a_pool_file_without_a_row_encoding(small_run, tmp_path):
    run = tmp_path / "r"
    shutil.copytree(small_run, run)
    table = pl.read_parquet(run / "pool-p1.parquet")
    table.with_columns(pl.lit(0.5).alias("x")).write_parquet(run / "pool-p1.parquet")
    with pytest.raises(RunError) as info:
        prove_ticket(run, "465-0000000-001")
    assert str(info.value) == f"{run}: pool p1: pool-p1.parquet has no Merkle root: column 'x': type " \
                              "Float64 has no row encoding"


# ---- whole tables against audit's one-row leaf_of_row (written from docs/merkle.md alone) ---------------
# Rows are grouped by the byte lengths of their strings and hashed a group (poolgen) or a block (audit) at
# a time: each case below is a table where a wrong grouping number, slice or width gives a wrong leaf.
def _by_row(df: pl.DataFrame) -> list[bytes]:
    return [am.leaf_of_row(row) for row in df.iter_rows(named=True)]


def _both_sides(df: pl.DataFrame, *chunks: int) -> list[bytes]:
    """The leaves both sides compute, asserted equal to the row-by-row leaves, and returned."""
    want = _by_row(df)
    assert [h.tobytes() for h in pm.leaf_hashes(df)] == want
    assert am.leaves(df) == want
    for chunk in chunks:
        assert [h.tobytes() for h in pm.leaf_hashes(df, chunk)] == want
        assert am.leaves(df, chunk) == want
    return want


def _text(lengths: list[int], letter: str) -> list[str]:
    return [(letter * k)[:k] for k in lengths]


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


def test_poolgen_takes_a_uint64_column_up_to_2_63_minus_1_and_refuses_above():
    _both_sides(pl.DataFrame({"u": pl.Series([0, 2**63 - 1, 7], dtype=pl.UInt64)}))
    with pytest.raises(pm.MerkleError) as info:
        pm.leaf_hashes(pl.DataFrame({"u": pl.Series([1, 2**63], dtype=pl.UInt64)}))
    assert str(info.value) == "column 'u': a value does not fit in 64 signed bits"


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


# ---- audit's checks of what a proof or a caller hands it, in these words ---------------------------------

_L = b"\x11" * 32


@pytest.mark.parametrize(("leaf", "index", "path", "why"), [
    (b"x" * 31, 0, [], "the leaf is not a 32-byte hash"),
    ("a" * 32, 0, [], "the leaf is not a 32-byte hash"),
    (_L, 0, "x", "the path is not a list of steps"),
    (_L, 0, [{"left": []}], "path step 0 is not an object with exactly 'left' and 'right'"),
    (_L, 0, [{"left": [], "right": "ab"}], "path step 0: 'left' and 'right' must be lists of hashes"),
    (_L, 0, [{"left": (), "right": ["g" * 80]}],
     f"path step 0, right 0 is not a hash in 64 lower-case hex digits: {'g' * 70!r}"),
    (_L, 1, [{"left": ["A" * 64], "right": []}],
     f"path step 0, left 0 is not a hash in 64 lower-case hex digits: {'A' * 64!r}")])
def test_root_from_path_refuses_a_malformed_leaf_or_path_in_these_words(leaf, index, path, why):
    with pytest.raises(am.MerkleError) as info:
        am.root_from_path(leaf, index, 2, path)
    assert str(info.value) == why


@pytest.mark.parametrize(("index", "size"), [(1.0, 5), (1, 5.0), (True, 5), (5, 5), (-1, 5)])
def test_expected_shape_refuses_a_position_that_is_not_a_leaf(index, size):
    with pytest.raises(am.MerkleError) as info:
        am.expected_shape(index, size)
    assert str(info.value) == f"position {index!r} is outside a tree of {size!r} leaves"


@pytest.mark.parametrize(("hashes", "why"), [
    (np.zeros((2, 31), np.uint8), "leaf hashes must be an (n, 32) uint8 array or 32-byte strings"),
    (np.zeros((2, 32), np.uint16), "leaf hashes must be an (n, 32) uint8 array or 32-byte strings"),
    (np.zeros((2, 32, 1), np.uint8), "leaf hashes must be an (n, 32) uint8 array or 32-byte strings"),
    ([_L, b"x" * 31], "a leaf hash is not 32 bytes"), (["a" * 32], "a leaf hash is not 32 bytes")])
def test_root_of_leaves_refuses_what_is_not_leaf_hashes(hashes, why):
    with pytest.raises(am.MerkleError) as info:
        am.root_of_leaves(hashes)
    assert str(info.value) == why


def test_root_of_leaves_takes_a_list_of_hashes_as_it_takes_an_array():
    leaves = [_L, b"\x22" * 32, b"\x33" * 32]
    assert am.root_of_leaves(leaves) == am.node(*leaves)
    assert am.root_of_leaves(np.frombuffer(b"".join(leaves), np.uint8).reshape(3, 32)) == am.node(*leaves)
    assert am.root_of_leaves(iter(leaves)) == am.node(*leaves)


@pytest.mark.parametrize("chunk", [-1, 2.5, "3"])
def test_audit_leaves_refuses_a_chunk_that_is_not_a_positive_integer(chunk):
    with pytest.raises(ValueError) as info:
        am.leaves(pl.DataFrame({"a": [1]}), chunk)
    assert str(info.value) == f"chunk must be a positive integer, not {chunk!r}"


def test_audit_names_a_column_name_that_has_no_utf8_form():
    with pytest.raises(am.MerkleError) as info:
        am.leaf_of_row({"a": 1, "\udc80": 2})
    assert str(info.value) == "column name '\\udc80' is not valid Unicode text (it has no UTF-8 form)"


def test_audit_leaves_of_two_varying_columns_in_few_layouts_hashed_layout_by_layout():
    # 4 layouts of 256 rows each: audit hashes each layout's rows as one matrix, cutting out the padding
    # of both varying columns by the lengths it reads back from the layout's number
    n = 1024
    df = pl.DataFrame({"a": _text([(0, 2)[i % 2] for i in range(n)], "a"),
                       "b": _text([(1, 3)[i // 2 % 2] for i in range(n)], "b"), "n": list(range(n))})
    leaves = _both_sides(df)
    assert len(set(leaves)) == n
