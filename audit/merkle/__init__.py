"""Merkle roots and audit paths, written from docs/merkle.md (poolgen-merkle/v2) alone.

encoding.py: a row's bytes and its leaf, leaf_of_row(row) for a proof's row; table.py: every leaf of
a pool table at once, leaves(df) in row order and table_root(df); tree.py: node(), root_of_leaves()
over a list of leaf hashes or an (n, 32) uint8 array, expected_shape(index, size) and
root_from_path(leaf, index, size, path) for audit paths.
"""

from __future__ import annotations

from audit.merkle.encoding import MerkleError, encode_value, header, leaf_of_row
from audit.merkle.table import leaves, table_root
from audit.merkle.tree import ARITY, expected_shape, node, root_from_path, root_of_leaves

ALGORITHM = "poolgen-merkle/v2"

__all__ = ["ALGORITHM", "ARITY", "MerkleError", "encode_value", "expected_shape", "header", "leaf_of_row",
           "leaves", "node", "root_from_path", "root_of_leaves", "table_root"]
