"""Unbiased integers and uniform permutations from a `Stream`, vectorised with numpy.

- `integers(stream, high)`: uniform in [0, high) by mask-and-reject (numpy's `random_interval`):
  each word is masked to the smallest all-ones mask covering high-1 and rejected when >= high;
  rejected slots are redrawn, in order, from further words. No modulo bias.
- `integers_by_key(stream, table, key)`: `integers(stream, table[key])` for many slots whose
  bounds come from a small table (each mask is computed once per table entry).
- `permutation(stream, n)`: sort n random 64-bit keys; if any two keys are equal, draw all keys
  again. Conditioned on distinct keys every ordering is equally likely, so the result is exactly
  uniform, and unique, so it does not depend on the sort algorithm. (The chance of a redraw for
  n = 1,000,000 is about 2.7e-8.)
- `big_integers(stream, bound, count)`: `count` uniform Python integers in [0, bound) for a bound of
  any size, by the same mask-and-reject rule on whole numbers of w = ceil(bits / 64) words (word i
  is bits 64i .. 64i + 63 of the candidate); rejected slots are redrawn, in slot order, from further
  words.
- `weighted_choices(stream, weights, count)`: `count` indices i drawn with probability
  weights[i] / sum(weights), for whole-number weights of any size, exactly: each slot's 64-bit word
  w is the first 64 bits of a uniform u in [0, 1); the index is the i with cum[i-1] <= u * T <
  cum[i] (cum the running sums, T their total) when the word settles it, which is every time but
  with probability about len(weights) / 2**64; an unsettled slot (in slot order, after all the first
  words) takes further words, 64 more bits of u each, until it is settled.
- `row_permutations(stream, rows, k)`: one independent uniform permutation of range(k) per row,
  by the same keys-and-sort rule applied to each row (for a few columns the sort is done by counting
  each key's rank, which gives the same permutations from the same keys).
"""

from __future__ import annotations

from bisect import bisect_right

import numpy as np

from poolgen.rng.drbg import Stream


def _masks(high: np.ndarray) -> np.ndarray:
    """The smallest all-ones mask covering high - 1, for every bound of `high` (uint64, each >= 1).

    Bounds of at most _MASK_TABLE are looked up in a table of their masks (one gather instead of
    six shift-and-or passes over every slot)."""
    if high.size > _MASK_TABLE and int(high.max()) <= _MASK_TABLE:
        table = _masks(np.arange(1, _MASK_TABLE + 1, dtype=np.uint64))
        return table[(high - np.uint64(1)).astype(np.intp)]
    m = (high - 1).astype(np.uint64)
    for shift in (1, 2, 4, 8, 16, 32):
        m |= m >> np.uint64(shift)
    return m


_MASK_TABLE = 1 << 12


def integers(stream: Stream, high: int | np.ndarray, size: int | None = None) -> np.ndarray:
    """Uniform integers in [0, high) as int64; `high` is a scalar (with `size`) or an array of bounds."""
    bounds = np.asarray(high, dtype=np.int64)
    if bounds.ndim == 0:
        return integers_by_key(stream, bounds, size=size)
    # One table entry per slot: `integers_by_key(stream, bounds, arange)` without looking each slot's
    # mask and bound up by its key (the same words, rejections and values).
    flat = bounds.reshape(-1)
    if flat.size and int(flat.min()) < 1:
        raise ValueError("every bound must be at least 1")
    return _draw(stream, flat.astype(np.uint64), None).reshape(bounds.shape)


def _words(stream: Stream, n: int, wide: bool) -> np.ndarray:
    """The next n words of the stream, or (not wide) just their low 32 bits as uint32."""
    if wide:
        return stream.words(n)
    return stream.array(8 * n).view("<u4")[::2]  # a word's low half comes first


def integers_by_key(stream: Stream, table: np.ndarray | int, key: np.ndarray | None = None,
                    size: int | None = None) -> np.ndarray:
    """`integers(stream, table[key])`, or for a scalar `table`, `integers(stream, table, size=size)`,
    as int64 of key's shape (or `size`). `integers` is this with one table entry per slot.

    Each table entry's mask is computed once, not once per slot. When every bound is below 2**32 the
    masks are applied to the words' low 32 bits only, which gives the same values (a masked word
    has no higher bit)."""
    bounds = np.asarray(table, dtype=np.int64)
    scalar = bounds.ndim == 0
    if scalar:
        if size is None:
            raise ValueError("size is needed with a scalar bound")
        shape: tuple[int, ...] = (size,)
        flat_key = np.zeros(1, dtype=np.intp)  # the bound of every slot
    else:
        keys = np.asarray(key)
        if not np.issubdtype(keys.dtype, np.integer):
            raise ValueError(f"keys are integers, not {keys.dtype}")
        shape = keys.shape
        flat_key = keys.reshape(-1).astype(np.intp, copy=False)
        if flat_key.size and not 0 <= int(flat_key.min()) <= int(flat_key.max()) < bounds.size:
            raise ValueError(f"every key must be an index into the table of {bounds.size} bound(s)")
    bounds = bounds.reshape(-1)
    count = int(np.prod(shape))
    if count and (bounds < 1).any() and (bounds[flat_key[:count]] < 1).any():  # a bound below 1 in use
        raise ValueError("every bound must be at least 1")
    bounds = np.maximum(bounds, 1).astype(np.uint64)  # entries below 1 are not used
    if scalar:
        return _draw(stream, bounds, None, count).reshape(shape)  # one bound for `count` slots
    return _draw(stream, bounds, flat_key).reshape(shape)


def _draw(stream: Stream, bounds: np.ndarray, key: np.ndarray | None, count: int | None = None) -> np.ndarray:
    """Mask-and-reject: slot i is uniform in [0, bounds[key[i]]) (key None and no count: [0, bounds[i]);
    key None and `count` slots: [0, bounds[0])), as int64. `bounds` are uint64, each at least 1."""
    masks = _masks(bounds)
    wide = int(bounds.max(initial=1)) >= 1 << 32  # a bound of 2**32 has a 32-bit mask but is wide
    if not wide:
        bounds, masks = bounds.astype(np.uint32), masks.astype(np.uint32)
    per_slot = key is None and count is None
    if key is None and count is not None:
        mask, bound = masks[0], bounds[0]
    elif key is None:
        mask, bound, count = masks, bounds, bounds.size
    else:
        mask, bound, count = masks[key], bounds[key], key.size
    out = _words(stream, count, wide) & mask
    todo = np.flatnonzero(out >= bound)
    while todo.size:
        if key is not None:
            todo_key = key[todo]
            mask, bound = masks[todo_key], bounds[todo_key]
        elif per_slot:
            mask, bound = masks[todo], bounds[todo]
        words = _words(stream, todo.size, wide) & mask
        out[todo] = words  # a rejected word is overwritten when its slot is redrawn
        todo = todo[words >= bound]
    result: np.ndarray = out.astype(np.int64)  # every value is below its int64 bound
    return result


def _ranked_keys(stream: Stream, rows: int, k: int) -> np.ndarray:
    """`_sort_keys(stream, (rows, k))` by counting ranks: the same keys, redraws and result.

    Each key's rank in its row is counted by comparing the k columns pairwise (k (k - 1) / 2
    comparisons of whole columns), and a tie anywhere redraws all keys as `_sort_keys` does; column j
    goes to its rank. For k <= _RANK_UP_TO this is faster than sorting each row."""
    while True:
        keys = stream.words(rows * k).reshape(rows, k)
        cols = [keys[:, j] for j in range(k)]
        rank = np.zeros((k, rows), dtype=np.uint8)
        tie = False
        for j in range(k):
            for other in range(j + 1, k):
                less = cols[j] < cols[other]
                rank[other] += less
                rank[j] += ~less
                tie = tie or bool((cols[j] == cols[other]).any())
        if not tie:
            break
    order = np.empty(rows * k, dtype=np.int64)
    row_start = np.arange(0, rows * k, k)
    for j in range(k):
        order[row_start + rank[j]] = j
    return order.reshape(rows, k)


# Measured on 300,000 rows (CPU, best of five, keys drawn included): counting ranks takes 8, 14, 25, 48
# and 78 ms for 2 to 6 columns against 28, 40, 45, 48 and 53 ms for sorting (numpy 2.4's argsort on a
# machine with AVX-512; an older numpy and machine gave 6, 21 and 41 ms against 18, 37 and 50 ms for
# 2, 4 and 6 columns). Both give the same permutations from the same keys.
_RANK_UP_TO = 4


def _sort_keys(stream: Stream, shape: tuple[int, ...]) -> np.ndarray:
    """Permutation indices along the last axis, from distinct random keys (redrawn on any tie).

    First try: each key's low bits (as many as a column index needs) are replaced by its column index,
    and the packed words are sorted (a sort of values, about twice as fast as an argsort and a gather).
    When no two keys of a row agree in their remaining high bits, the packed order is the keys' order
    and the keys are distinct; otherwise the same keys are argsorted as they stand."""
    count = int(np.prod(shape))
    k = shape[-1]
    keys = stream.words(count).reshape(shape)
    if k >= 2:
        low = np.uint64((1 << (k - 1).bit_length()) - 1)
        packed = keys & ~low
        packed |= np.arange(k, dtype=np.uint64)  # in place, and no array of booleans below: fewer passes
        packed.sort(axis=-1)
        step = np.bitwise_xor(packed[..., 1:], packed[..., :-1])
        if not step.size or step.min() > low:  # high bits all differ
            packed &= low
            return packed.view(np.int64)  # column indices (< 2**63): the same values as int64
    while True:
        order = np.argsort(keys, axis=-1)  # keys are distinct, so the order is unique
        ranked = np.take_along_axis(keys, order, axis=-1)
        if k < 2 or not np.any(ranked[..., 1:] == ranked[..., :-1]):
            return order
        keys = stream.words(count).reshape(shape)


def permutation(stream: Stream, n: int) -> np.ndarray:
    """A uniform random permutation of range(n) as int64."""
    if n < 0:
        raise ValueError("n must be non-negative")
    if n == 0:
        return np.empty(0, dtype=np.int64)
    if n <= _FEW:
        return np.array(_few_orders(stream, 1, n)[0], dtype=np.int64)
    return _sort_keys(stream, (n,)).astype(np.int64)


# At most this many keys (or words), a draw is made with Python's ints rather than numpy's arrays: the
# same words, rejections and values, without numpy's cost per call (small pools are drawn thousands of
# times, a few words a call).
_FEW = 32


def _few_orders(stream: Stream, rows: int, k: int) -> list[list[int]]:
    """`_sort_keys(stream, (rows, k))` as lists: the same keys, redraws (a tie in any row redraws all)
    and orders."""
    while True:
        keys = stream.words(rows * k).tolist()
        split = [keys[r * k:(r + 1) * k] for r in range(rows)]
        if all(len(set(row)) == k for row in split):
            return [sorted(range(k), key=row.__getitem__) for row in split]


def row_permutations(stream: Stream, rows: int, k: int) -> np.ndarray:
    """A (rows, k) array whose every row is an independent uniform permutation of range(k)."""
    if rows == 0 or k == 0:
        return np.empty((rows, k), dtype=np.int64)
    if rows * k <= _FEW:
        return np.array(_few_orders(stream, rows, k), dtype=np.int64).reshape(rows, k)
    if k <= _RANK_UP_TO:
        return _ranked_keys(stream, rows, k)
    return _sort_keys(stream, (rows, k)).astype(np.int64, copy=False)


def big_integers(stream: Stream, bound: int, count: int) -> list[int]:
    """`count` uniform integers in [0, bound) as Python ints, for a bound of any size."""
    if bound < 1:
        raise ValueError("the bound must be at least 1")
    bits = (bound - 1).bit_length()
    per = max(1, -(-bits // 64))
    mask = (1 << bits) - 1
    out = [0] * count
    todo = list(range(count))
    while todo:
        words = stream.words(per * len(todo)).tolist()
        again = []
        for k, slot in enumerate(todo):
            value = 0
            for i in range(per):
                value |= int(words[k * per + i]) << (64 * i)
            value &= mask
            if value < bound:
                out[slot] = value
            else:
                again.append(slot)
        todo = again
    return out


def big_integers_each(stream: Stream, bounds: list[int]) -> list[int]:
    """`[big_integers(stream, b, 1)[0] for b in bounds]`: the same words in the same order (each draw
    takes its words, its redraws included, before the next draw's), read a few calls at a time.

    Every call reads only words that some draw will take: the words the draws not yet made need at
    least (one try each) less those already read. So the stream ends where the calls one by one end."""
    per = [max(1, -(-(b - 1).bit_length() // 64)) if b >= 1 else 0 for b in bounds]
    if any(p == 0 for p in per):
        raise ValueError("the bound must be at least 1")
    need = sum(per)  # words the draws from here on take at least
    words: list[int] = []
    at = 0
    out = []
    for bound, w in zip(bounds, per, strict=True):
        mask = (1 << (bound - 1).bit_length()) - 1
        while True:
            if at + w > len(words):
                words = words[at:] + stream.words(need - (len(words) - at)).tolist()
                at = 0
            value = words[at]
            for i in range(1, w):
                value |= words[at + i] << (64 * i)
            at += w
            value &= mask
            if value < bound:
                break
        need -= w
        out.append(value)
    return out


class Weights:
    """Whole-number weights (>= 0, any size, sum > 0) made ready for `choices`."""

    def __init__(self, weights: list[int]) -> None:
        cum: list[int] = []
        total = 0
        for w in weights:
            if w < 0:
                raise ValueError("weights must not be negative")
            total += w
            cum.append(total)
        if total <= 0:
            raise ValueError("the weights must add up to more than nothing")
        self.total = total  # boundaries at the total (after the last positive weight) are never crossed:
        self.inner = [c for c in cum[:-1] if c < total]  # kept, cum[i] 2^64 / T would be 2^64, no word
        self.floors = np.array([(c << 64) // total for c in self.inner], dtype=np.uint64)
        self.whole = np.array([(c << 64) % total == 0 for c in self.inner], dtype=bool)
        self._floors, self._whole = self.floors.tolist(), self.whole.tolist()

    def picks(self, stream: Stream, count: int) -> list[int]:
        """`choices` as a list of ints (the same words and indices)."""
        if count > _FEW:
            many: list[int] = self._many(stream, count).tolist()
            return many
        words = stream.words(count).tolist()
        index = [bisect_right(self._floors, w) for w in words]
        for slot, (i, w) in enumerate(zip(index, words, strict=True)):
            if i > 0 and self._floors[i - 1] == w and not self._whole[i - 1]:
                index[slot] = self._settle(stream, w)
        return index

    def _settle(self, stream: Stream, word: int) -> int:
        """The index of a slot whose first word leaves a boundary inside its interval: more bits of u."""
        prefix, bits = word, 64
        while True:
            prefix = (prefix << 64) | int(stream.words(1)[0])
            bits += 64
            low = prefix * self.total
            i = sum(1 for c in self.inner if (c << bits) <= low)
            if i == len(self.inner) or (self.inner[i] << bits) >= low + self.total:
                return i

    def choices(self, stream: Stream, count: int) -> np.ndarray:
        """`count` indices, each i with probability weights[i] / sum(weights), as int64."""
        if count <= _FEW:
            return np.array(self.picks(stream, count), dtype=np.int64)
        return self._many(stream, count)

    def _many(self, stream: Stream, count: int) -> np.ndarray:
        """`choices` with numpy's arrays: faster than `picks` for many slots, the same indices."""
        words = stream.words(count)
        index = np.searchsorted(self.floors, words, side="right").astype(np.int64)
        if not self.inner:
            return index
        last = np.maximum(index - 1, 0)
        unsettled = np.flatnonzero((index > 0) & (self.floors[last] == words) & ~self.whole[last])
        for slot in unsettled.tolist():  # a boundary falls inside the word's interval: more bits of u
            index[slot] = self._settle(stream, int(words[slot]))
        return index


def weighted_choices(stream: Stream, weights: list[int], count: int) -> np.ndarray:
    """`count` indices into `weights`, each i with probability weights[i] / sum(weights) (`Weights`)."""
    return Weights(weights).choices(stream, count)
