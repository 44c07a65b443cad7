"""audit's tree (audit/merkle/tree.py): nodes of 2 to 16 children, roots of leaf hashes, and a
proof's path and position, refused in these words when malformed."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import audit.merkle as am


@pytest.mark.parametrize("count", [2, 3, 16])
def test_audit_node_hashes_2_to_16_children(count):
    children = [bytes([i]) * 32 for i in range(count)]
    assert am.node(*children) == hashlib.sha256(b"\x01" + b"".join(children)).digest()


@pytest.mark.parametrize("count", [0, 1, 17])
def test_audit_node_refuses_other_counts(count):
    with pytest.raises(am.MerkleError) as info:
        am.node(*[bytes(32)] * count)
    assert str(info.value) == f"a node has 2 to 16 children, not {count}"


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
