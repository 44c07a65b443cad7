"""The Merkle tree of docs/merkle.md: known answers, poolgen and audit agree, proofs verify and fail."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import audit.merkle as am
import poolgen.run.merkle as pm
from tests.support import VECTORS


def _vectors() -> dict:
    out: dict = {"rows": [], "message": {}, "leaf": {}, "root": {}, "path": {}}
    for line in (VECTORS / "merkle.txt").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        kind, rest = line.split(" ", 1)
        if kind == "schema":
            out["schema"] = json.loads(rest)
        elif kind == "row":
            out["rows"].append(json.loads(rest))
        elif kind == "path":
            n, index, path = rest.split(" ", 2)
            out["path"][int(n), int(index)] = json.loads(path)
        else:
            index, value = rest.split(" ")
            out[kind][int(index)] = value
    return out


V = _vectors()


def _table(rows: list[dict]) -> pl.DataFrame:
    schema = {name: getattr(pl, dtype) for name, dtype in V["schema"].items()}
    return pl.DataFrame(rows, schema=schema, orient="row")


def _reference_root(leaves: list[bytes]) -> bytes:
    """docs/merkle.md section 3, recursively: the third implementation."""
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = 1
    while k * 16 < len(leaves):
        k *= 16
    return hashlib.sha256(b"\x01" + b"".join(_reference_root(leaves[i:i + k])
                                             for i in range(0, len(leaves), k))).digest()


def test_the_vector_covers_the_edges():
    assert len(V["rows"]) == 300 and len(V["message"]) == len(V["leaf"]) == 300
    assert sorted(V["root"]) == [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 255, 256, 257, 272, 273, 300]
    assert len(V["path"]) == 12


def test_known_answer_messages_and_leaves():
    for i, row in enumerate(V["rows"]):
        assert pm.row_message(row).hex() == V["message"][i]
        assert am.leaf_of_row(row).hex() == V["leaf"][i]
    table = _table(V["rows"])
    want = [V["leaf"][i] for i in range(len(V["rows"]))]
    assert [h.tobytes().hex() for h in pm.leaf_hashes(table)] == want
    assert [bytes(h).hex() for h in am.leaves(table)] == want


@pytest.mark.parametrize("n", sorted(V["root"]))
def test_known_answer_roots(n):
    table = _table(V["rows"][:n])
    assert pm.root(table).hex() == V["root"][n]
    assert am.table_root(table).hex() == V["root"][n]


@pytest.mark.parametrize("case", sorted(V["path"]))
def test_known_answer_paths(case):
    n, index = case
    table = _table(V["rows"][:n])
    assert pm.Tree.of_table(table).path(index) == V["path"][case]
    leaf = bytes.fromhex(V["leaf"][index])
    assert am.root_from_path(leaf, index, n, V["path"][case]).hex() == V["root"][n]


def test_the_known_answers_do_not_depend_on_column_order():
    table = _table(V["rows"])
    shuffled = table.select(list(reversed(table.columns)))
    assert pm.root(shuffled).hex() == am.table_root(shuffled).hex() == V["root"][300]


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
tables = st.integers(1, 80).flatmap(lambda n: st.fixed_dictionaries({
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
    assert pm.root(table) == am.root_of_leaves(reference) == am.table_root(table) == root


def _synthetic_leaves(n: int) -> np.ndarray:
    return np.frombuffer(b"".join(hashlib.sha256(i.to_bytes(4, "big")).digest() for i in range(n)),
                         dtype=np.uint8).reshape(n, 32)


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1))))
def test_every_path_leads_to_the_root(case):
    n, index = case
    leaves = _synthetic_leaves(n)
    tree = pm.Tree.of_leaves(leaves)
    assert tree.root == _reference_root([row.tobytes() for row in leaves]) == am.root_of_leaves(leaves)
    path = tree.path(index)
    assert [(len(s["left"]), len(s["right"])) for s in path] == am.expected_shape(index, n)
    assert len(path) == (0 if n == 1 else len(tree.levels) - 1)
    assert am.root_from_path(leaves[index].tobytes(), index, n, path) == tree.root


def _proof_case(n: int = 40, index: int = 20):
    table = _table([V["rows"][i] | {"position": i} for i in range(n)])
    tree = pm.Tree.of_table(table)
    return table.row(index, named=True), index, n, tree.path(index), tree.root


def test_a_proof_verifies_and_every_tampering_fails():
    row, index, n, path, root = _proof_case()
    assert [(len(s["left"]), len(s["right"])) for s in path] == [(4, 11), (1, 1)]
    assert am.root_from_path(am.leaf_of_row(row), index, n, path) == root
    # another row's values
    other = row | {"prize_cents": row["prize_cents"] + 1}
    assert am.root_from_path(am.leaf_of_row(other), index, n, path) != root
    # a flipped bit in a sibling hash
    bad = json.loads(json.dumps(path))
    bad[1]["left"][0] = f"{int(bad[1]['left'][0][0], 16) ^ 1:x}" + bad[1]["left"][0][1:]
    assert am.root_from_path(am.leaf_of_row(row), index, n, bad) != root
    # the same path claimed for another position, a shortened path, a hash moved across, a wrong size
    with pytest.raises(am.MerkleError, match="needs 5 and 10"):
        am.root_from_path(am.leaf_of_row(row), index + 1, n, path)
    with pytest.raises(am.MerkleError, match="the path has 1 steps"):
        am.root_from_path(am.leaf_of_row(row), index, n, path[:-1])
    moved = json.loads(json.dumps(path))
    moved[0]["right"].insert(0, moved[0]["left"].pop())
    with pytest.raises(am.MerkleError, match="has 3 left and 12 right"):
        am.root_from_path(am.leaf_of_row(row), index, n, moved)
    with pytest.raises(am.MerkleError, match="outside a tree"):
        am.root_from_path(am.leaf_of_row(row), n, n, path)
    short = json.loads(json.dumps(path))
    short[0]["left"][0] = short[0]["left"][0][:-2]
    with pytest.raises(am.MerkleError, match="64 lower-case hex digits"):
        am.root_from_path(am.leaf_of_row(row), index, n, short)


def test_a_group_of_one_moves_up_unchanged():
    leaves = _synthetic_leaves(17)
    node = lambda *hs: hashlib.sha256(b"\x01" + b"".join(hs)).digest()  # noqa: E731
    first = node(*(h.tobytes() for h in leaves[:16]))
    tree = pm.Tree.of_leaves(leaves)
    assert tree.root == am.root_of_leaves(leaves) == node(first, leaves[16].tobytes())
    assert tree.path(16) == [{"left": [], "right": []}, {"left": [first.hex()], "right": []}]
    assert am.expected_shape(16, 17) == [(0, 0), (1, 0)]
    assert pm.Tree.of_leaves(leaves[:1]).path(0) == [] == am.expected_shape(0, 1)


def test_many_varying_string_columns_group_rows_exactly():
    """More combinations of string lengths than one int64 can number: rows still group by their own."""
    rows = 40
    table = pl.DataFrame({f"s{c:02d}": [("x" * ((r * (c + 3)) % 9)) + ("é" * (r % 2)) for r in range(rows)]
                          for c in range(24)})
    reference = [hashlib.sha256(b"\x00" + pm.row_message(r)).digest() for r in table.to_dicts()]
    assert [h.tobytes() for h in pm.leaf_hashes(table, chunk=16)] == reference
    assert am.leaves(table) == reference
