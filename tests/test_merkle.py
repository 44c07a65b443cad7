"""The Merkle tree of docs/merkle.md: known answers, poolgen and audit agree, proofs verify and fail."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import polars as pl
import pytest
from conftest import VECTORS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import audit.merkle as am
import poolgen.merkle as pm


def _vectors() -> dict:
    out: dict = {"rows": [], "message": {}, "leaf": {}, "root": {}}
    for line in (VECTORS / "merkle.txt").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        kind, rest = line.split(" ", 1)
        if kind == "schema":
            out["schema"] = json.loads(rest)
        elif kind == "row":
            out["rows"].append(json.loads(rest))
        else:
            index, value = rest.split(" ")
            out[kind][int(index)] = value
    return out


V = _vectors()


def _table(rows: list[dict]) -> pl.DataFrame:
    schema = {name: getattr(pl, dtype) for name, dtype in V["schema"].items()}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _reference_root(leaves: list[bytes]) -> bytes:
    """RFC 6962 section 2.1, recursively: the third implementation."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\x01" + _reference_root(leaves[:k]) + _reference_root(leaves[k:])).digest()


def test_known_answer_messages_and_leaves():
    for i, row in enumerate(V["rows"]):
        assert pm.row_message(row).hex() == V["message"][i]
        assert am.leaf_of_row(row).hex() == V["leaf"][i]
    table = _table(V["rows"])
    assert [h.tobytes().hex() for h in pm.leaf_hashes(table)] == [V["leaf"][i] for i in range(len(V["rows"]))]
    assert [h.hex() for h in am.leaves(table)] == [V["leaf"][i] for i in range(len(V["rows"]))]


@pytest.mark.parametrize("n", range(0, 8))
def test_known_answer_roots(n):
    table = _table(V["rows"][:n])
    assert pm.root(table).hex() == V["root"][n]
    assert am.table_root(table).hex() == V["root"][n]


def test_the_known_answers_do_not_depend_on_column_order():
    table = _table(V["rows"])
    shuffled = table.select(list(reversed(table.columns)))
    assert pm.root(shuffled).hex() == am.table_root(shuffled).hex() == V["root"][7]


def test_values_without_an_encoding_are_refused():
    for table, what in ((pl.DataFrame({"x": [1.5]}), "Float64"),
                        (pl.DataFrame({"x": [1, None]}), "null"),
                        (pl.DataFrame({"x": pl.Series([2**63], dtype=pl.UInt64)}), "64 signed bits"),
                        (pl.DataFrame({"x": [[1, 2]]}), "List")):
        with pytest.raises(pm.MerkleError, match=what):
            pm.root(table)
    with pytest.raises(am.MerkleError):
        am.table_root(pl.DataFrame({"x": [1.5]}))
    with pytest.raises(am.MerkleError, match="null"):
        am.table_root(pl.DataFrame({"x": ["a", None]}))
    with pytest.raises(am.MerkleError, match="64 signed bits"):
        am.leaf_of_row({"x": 2**63})
    with pytest.raises(pm.MerkleError, match="no row encoding"):
        pm.row_message({"x": 1.0})


text = st.text(alphabet=st.characters(codec="utf-8"), max_size=6)
tables = st.integers(1, 40).flatmap(lambda n: st.fixed_dictionaries({
    "position": st.just(list(range(n))),
    "ticket": st.lists(text, min_size=n, max_size=n),
    "tier": st.lists(st.sampled_from(["lose", "1", "100", "free"]), min_size=n, max_size=n),
    "prize_cents": st.lists(st.integers(-(2**63), 2**63 - 1), min_size=n, max_size=n),
    "spot": st.lists(st.integers(0, 255), min_size=n, max_size=n),
    "flag": st.lists(st.booleans(), min_size=n, max_size=n),
}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables)
def test_poolgen_and_audit_agree_with_the_reference(data):
    table = pl.DataFrame(data).with_columns(pl.col("position").cast(pl.UInt32), pl.col("spot").cast(pl.UInt8))
    rows = table.to_dicts()
    reference = [hashlib.sha256(b"\x00" + pm.row_message(r)).digest() for r in rows]
    assert [am.leaf_of_row(r) for r in rows] == reference
    assert [h.tobytes() for h in pm.leaf_hashes(table, chunk=7)] == reference
    assert am.leaves(table, chunk=5) == reference
    root = _reference_root(reference)
    assert pm.root(table) == am.root_of_leaves(reference) == root


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 70).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))))
def test_every_path_leads_to_the_root(case):
    n, index = case
    leaves = np.frombuffer(b"".join(hashlib.sha256(bytes([i % 256, i // 256])).digest() for i in range(n)),
                           dtype=np.uint8).reshape(n, 32)
    tree = pm.Tree.of_leaves(leaves)
    assert tree.root == _reference_root([row.tobytes() for row in leaves])
    path = tree.path(index)
    assert [s["side"] for s in path] == am.expected_sides(index, n)
    assert am.root_from_path(leaves[index].tobytes(), index, n, path) == tree.root


def _proof_case(n: int = 13, index: int = 6):
    table = _table([V["rows"][i % 7] | {"position": i} for i in range(n)])
    tree = pm.Tree.of_table(table)
    return table.row(index, named=True), index, n, tree.path(index), tree.root


def test_a_proof_verifies_and_every_tampering_fails():
    row, index, n, path, root = _proof_case()
    assert am.root_from_path(am.leaf_of_row(row), index, n, path) == root
    # another row's values
    other = row | {"prize_cents": row["prize_cents"] + 1}
    assert am.root_from_path(am.leaf_of_row(other), index, n, path) != root
    # a flipped bit in a sibling hash
    bad = [dict(s) for s in path]
    bad[1]["hash"] = f"{int(bad[1]['hash'][0], 16) ^ 1:x}" + bad[1]["hash"][1:]
    assert am.root_from_path(am.leaf_of_row(row), index, n, bad) != root
    # the same path claimed for another position, a shortened path, swapped sides, a wrong size
    with pytest.raises(am.MerkleError, match="sides"):
        am.root_from_path(am.leaf_of_row(row), index + 1, n, path)
    with pytest.raises(am.MerkleError, match="sides"):
        am.root_from_path(am.leaf_of_row(row), index, n, path[:-1])
    flipped = [s | {"side": "left" if s["side"] == "right" else "right"} for s in path]
    with pytest.raises(am.MerkleError, match="sides"):
        am.root_from_path(am.leaf_of_row(row), index, n, flipped)
    with pytest.raises(am.MerkleError, match="outside a tree"):
        am.root_from_path(am.leaf_of_row(row), n, n, path)
    short = [dict(s) for s in path]
    short[0]["hash"] = short[0]["hash"][:-2]
    with pytest.raises(am.MerkleError, match="31 bytes"):
        am.root_from_path(am.leaf_of_row(row), index, n, short)


def test_odd_last_node_moves_up_unchanged():
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(3)]
    node = lambda a, b: hashlib.sha256(b"\x01" + a + b).digest()  # noqa: E731
    assert am.root_of_leaves(leaves) == node(node(leaves[0], leaves[1]), leaves[2])
    tree = pm.Tree.of_leaves(np.frombuffer(b"".join(leaves), dtype=np.uint8).reshape(3, 32))
    assert tree.root == node(node(leaves[0], leaves[1]), leaves[2])
    assert tree.path(2) == [{"side": "left", "hash": node(leaves[0], leaves[1]).hex()}]
