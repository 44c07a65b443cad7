"""The tree of docs/merkle.md (poolgen-merkle/v2), sections 3 and 4: roots and audit paths.

node(h_1..h_c) = SHA-256(0x01 || h_1 || ... || h_c); the tree is built level by level, groups of 16
from the left, a group of one moving up unchanged. An audit path lists, per level below the root,
the other hashes of the leaf's group, left and right of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from audit.merkle.encoding import MerkleError

ARITY = 16
NODE_PREFIX = b"\x01"
_HEX = frozenset("0123456789abcdef")


def node(*children: bytes) -> bytes:
    """node(h_1, ..., h_c) = SHA-256(0x01 || h_1 || ... || h_c), 2 <= c <= 16."""
    if not 2 <= len(children) <= ARITY:
        raise MerkleError(f"a node has 2 to {ARITY} children, not {len(children)}")
    return hashlib.sha256(NODE_PREFIX + b"".join(children)).digest()


def _as_matrix(hashes: Iterable[bytes] | np.ndarray) -> np.ndarray:
    if isinstance(hashes, np.ndarray):
        if hashes.dtype != np.uint8 or hashes.ndim != 2 or hashes.shape[1] != 32:
            raise MerkleError("leaf hashes must be an (n, 32) uint8 array or 32-byte strings")
        return np.ascontiguousarray(hashes)
    listed = list(hashes)
    if any(not isinstance(h, bytes) or len(h) != 32 for h in listed):
        raise MerkleError("a leaf hash is not 32 bytes")
    return np.frombuffer(b"".join(listed), np.uint8).reshape(len(listed), 32)


def root_of_leaves(hashes: Iterable[bytes] | np.ndarray) -> bytes:
    """The root over the leaf hashes (a sequence of 32-byte strings or an (n, 32) uint8 array), level
    by level: groups of 16 from the left, a group of c >= 2 hashed as node(), a group of one kept."""
    level = _as_matrix(hashes)
    if len(level) == 0:
        return hashlib.sha256(b"").digest()
    sha = hashlib.sha256
    copy = sha(NODE_PREFIX).copy  # each full group: the prefix's state continued with its 16 hashes
    group = 32 * ARITY
    while len(level) > 1:
        n = len(level)
        full = n // ARITY
        hashes_bytes = level.reshape(-1).data  # the level's hashes back to back, not copied
        up = []
        for at in range(0, full * group, group):
            h = copy()
            h.update(hashes_bytes[at:at + group])
            up.append(h.digest())
        rest = level[full * ARITY:]
        if len(rest) == 1:
            up.append(rest.tobytes())
        elif len(rest) > 1:
            up.append(sha(NODE_PREFIX + rest.tobytes()).digest())
        level = np.frombuffer(b"".join(up), np.uint8).reshape(len(up), 32)
    return level.tobytes()


def expected_shape(index: int, size: int) -> list[tuple[int, int]]:
    """(len(left), len(right)) of every step of leaf `index`'s path in a tree of `size` leaves, leaf
    upwards (section 4); raises MerkleError if `index` is not a leaf of that tree."""
    if type(index) is not int or type(size) is not int or not 0 <= index < size:
        raise MerkleError(f"position {index!r} is outside a tree of {size!r} leaves")
    shape = []
    j, n = index, size
    while n > 1:
        g = j - j % ARITY
        c = min(ARITY, n - g)
        shape.append((j % ARITY, c - 1 - j % ARITY))
        j, n = j // ARITY, -(-n // ARITY)
    return shape


def _hash_of(value: object, where: str) -> bytes:
    if not isinstance(value, str) or len(value) != 64 or not _HEX.issuperset(value):
        raise MerkleError(f"{where} is not a hash in 64 lower-case hex digits: {str(value)[:70]!r}")
    return bytes.fromhex(value)


def root_from_path(leaf: bytes, index: int, size: int, path: Sequence[Mapping[str, Sequence[str]]]) -> bytes:
    """Fold a path into a root: h = node(left..., h, right...) per step, h unchanged by an empty step.

    Raises MerkleError unless the path has exactly the shape of leaf `index` in a tree of `size`
    leaves: one step per level, each an object with exactly the lists `left` and `right` of the
    lengths expected_shape() gives, holding hashes in 64 lower-case hex digits."""
    if not isinstance(leaf, bytes) or len(leaf) != 32:
        raise MerkleError("the leaf is not a 32-byte hash")
    want = expected_shape(index, size)
    if not isinstance(path, list | tuple):
        raise MerkleError("the path is not a list of steps")
    if len(path) != len(want):
        raise MerkleError(f"the path has {len(path)} steps; position {index} in a tree of {size} leaves "
                          f"has {len(want)}")
    steps = []
    for s, (step, (n_left, n_right)) in enumerate(zip(path, want, strict=True)):
        if not isinstance(step, Mapping) or set(step) != {"left", "right"}:
            raise MerkleError(f"path step {s} is not an object with exactly 'left' and 'right'")
        left, right = step["left"], step["right"]
        if not isinstance(left, list | tuple) or not isinstance(right, list | tuple):
            raise MerkleError(f"path step {s}: 'left' and 'right' must be lists of hashes")
        if (len(left), len(right)) != (n_left, n_right):
            raise MerkleError(f"path step {s} has {len(left)} left and {len(right)} right hashes; position "
                              f"{index} in a tree of {size} leaves needs {n_left} and {n_right}")
        steps.append((b"".join(_hash_of(x, f"path step {s}, left {k}") for k, x in enumerate(left)),
                      b"".join(_hash_of(x, f"path step {s}, right {k}") for k, x in enumerate(right))))
    h = leaf
    for left_bytes, right_bytes in steps:
        if left_bytes or right_bytes:
            h = hashlib.sha256(NODE_PREFIX + left_bytes + h + right_bytes).digest()
    return h
