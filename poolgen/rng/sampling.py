"""Unbiased integers and uniform permutations from a `Stream`, vectorised with numpy.

- `integers(stream, high)`: uniform in [0, high) by mask-and-reject (numpy's `random_interval`):
  each word is masked to the smallest all-ones mask covering high-1 and rejected when >= high;
  rejected slots are redrawn, in order, from further words. No modulo bias.
- `permutation(stream, n)`: sort n random 64-bit keys; if any two keys are equal, draw all keys
  again. Conditioned on distinct keys every ordering is equally likely, so the result is exactly
  uniform, and unique, so it does not depend on the sort algorithm. (The chance of a redraw for
  n = 1,000,000 is about 2.7e-8.)
- `row_permutations(stream, rows, k)`: one independent uniform permutation of range(k) per row,
  by the same keys-and-sort rule applied to each row.
"""

from __future__ import annotations

import numpy as np

from poolgen.rng.drbg import Stream


def _masks(high: np.ndarray) -> np.ndarray:
    m = (high - 1).astype(np.uint64)
    for shift in (1, 2, 4, 8, 16, 32):
        m |= m >> np.uint64(shift)
    return m


def integers(stream: Stream, high: int | np.ndarray, size: int | None = None) -> np.ndarray:
    """Uniform integers in [0, high) as int64; `high` is a scalar (with `size`) or an array of bounds."""
    bounds = np.asarray(high, dtype=np.int64)
    if bounds.ndim == 0:
        if size is None:
            raise ValueError("size is needed with a scalar bound")
        shape: tuple[int, ...] = (size,)
    else:
        shape = bounds.shape
    if int(np.prod(shape)) and bounds.min() < 1:
        raise ValueError("every bound must be at least 1")
    flat_bounds = bounds.reshape(-1).astype(np.uint64)  # one element for a scalar bound
    masks = _masks(flat_bounds)
    # The first round draws every slot (the bound and mask broadcast when scalar); later rounds redraw
    # the rejected slots, in slot order, from further words.
    out = stream.words(int(np.prod(shape))) & masks
    todo = np.flatnonzero(out >= flat_bounds)
    if todo.size:
        every_bound = np.broadcast_to(flat_bounds, out.shape)
        every_mask = np.broadcast_to(masks, out.shape)
    while todo.size:
        words = stream.words(todo.size) & every_mask[todo]
        ok = words < every_bound[todo]
        out[todo[ok]] = words[ok]
        todo = todo[~ok]
    return out.view(np.int64).reshape(shape)  # every value is below its int64 bound


def _sort_keys(stream: Stream, shape: tuple[int, ...]) -> np.ndarray:
    """Permutation indices along the last axis, from distinct random keys (redrawn on any tie)."""
    count = int(np.prod(shape))
    while True:
        keys = stream.words(count).reshape(shape)
        order = np.argsort(keys, axis=-1)  # keys are distinct, so the order is unique
        ranked = np.take_along_axis(keys, order, axis=-1)
        if shape[-1] < 2 or not np.any(ranked[..., 1:] == ranked[..., :-1]):
            return order


def permutation(stream: Stream, n: int) -> np.ndarray:
    """A uniform random permutation of range(n) as int64."""
    if n < 0:
        raise ValueError("n must be non-negative")
    if n == 0:
        return np.empty(0, dtype=np.int64)
    return _sort_keys(stream, (n,)).astype(np.int64)


def row_permutations(stream: Stream, rows: int, k: int) -> np.ndarray:
    """A (rows, k) array whose every row is an independent uniform permutation of range(k)."""
    if rows == 0 or k == 0:
        return np.empty((rows, k), dtype=np.int64)
    return _sort_keys(stream, (rows, k)).astype(np.int64)
