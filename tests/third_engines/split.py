"""A third engine for split orders (`[printed] split = "even"`), from docs/randomness.md sections 1 to 3
and 4b alone: its own stream derivation (HKDF-SHA256 over the standard library's HMAC, the ChaCha20
block function of RFC 8439 written out), its own permutation and mask-and-reject integers, and the
split's walk. Given a seed, the game's rules id, the order's pool sizes and each tier's count per
order, it says what each pool holds of each tier.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it), nor
tests/vectors/reference_drbg.py: it was written without reading them."""

from __future__ import annotations

import hashlib
import hmac
import struct

import numpy as np


def _hkdf(seed: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 HKDF-SHA256: extract, then expand."""
    prk = hmac.new(salt, seed, hashlib.sha256).digest()
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


def _rotl(v: np.ndarray, c: int) -> np.ndarray:
    return (v << np.uint32(c)) | (v >> np.uint32(32 - c))


def _quarter(s: list[np.ndarray], a: int, b: int, c: int, d: int) -> None:
    s[a] = s[a] + s[b]
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = s[c] + s[d]
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = s[a] + s[b]
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = s[c] + s[d]
    s[b] = _rotl(s[b] ^ s[c], 7)


def _chacha_blocks(key: bytes, first: int, count: int) -> bytes:
    """RFC 8439 section 2.3's block function, a 96-bit zero nonce, for the counters first ..
    first + count - 1 at once (each state word a numpy uint32 column, wrapping as the RFC adds)."""
    words = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *struct.unpack("<8I", key)]
    state = [np.full(count, w, dtype=np.uint32) for w in words]
    state += [np.arange(first, first + count, dtype=np.uint64).astype(np.uint32)]
    state += [np.zeros(count, dtype=np.uint32) for _ in range(3)]
    s = list(state)
    for _ in range(10):
        _quarter(s, 0, 4, 8, 12)
        _quarter(s, 1, 5, 9, 13)
        _quarter(s, 2, 6, 10, 14)
        _quarter(s, 3, 7, 11, 15)
        _quarter(s, 0, 5, 10, 15)
        _quarter(s, 1, 6, 11, 12)
        _quarter(s, 2, 7, 8, 13)
        _quarter(s, 3, 4, 9, 14)
    out = np.stack([x + y for x, y in zip(s, state, strict=True)], axis=1)  # (blocks, 16 words)
    return out.astype("<u4").tobytes()


class Stream:
    """docs/randomness.md section 2: one stream of one label, read sequentially."""

    def __init__(self, seed: bytes, parts: tuple[str, ...]) -> None:
        info = b"".join(len(p.encode()).to_bytes(4, "big") + p.encode() for p in parts)
        self._key = _hkdf(seed, b"poolgen/drbg/v1", info, 32)
        self._counter = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        if len(self._buffer) < count:  # at least 256 blocks ahead: the same keystream, fewer numpy calls
            blocks = max(256, -(-(count - len(self._buffer)) // 64))
            self._buffer += _chacha_blocks(self._key, self._counter, blocks)
            self._counter += blocks
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def words(self, count: int) -> list[int]:
        """64-bit words, little-endian."""
        return list(struct.unpack(f"<{count}Q", self.read(8 * count)))

    def integer(self, n: int) -> int:
        """One value in [0, n): a word masked by the smallest all-ones mask covering n - 1, drawn again
        until below n (section 3)."""
        mask = (1 << max(n - 1, 0).bit_length()) - 1
        while True:
            v = self.words(1)[0] & mask
            if v < n:
                return v

    def integers(self, n: int, count: int) -> list[int]:
        """`count` values in [0, n): one word a slot, masked; rejected slots refilled, in slot order,
        from the next words, round after round (section 3)."""
        mask = (1 << max(n - 1, 0).bit_length()) - 1
        out = [0] * count
        todo = list(range(count))
        while todo:
            again = []
            for slot, word in zip(todo, self.words(len(todo)), strict=True):
                if word & mask < n:
                    out[slot] = word & mask
                else:
                    again.append(slot)
            todo = again
        return out

    def row_permutations(self, rows: int, k: int) -> list[list[int]]:
        """A (rows, k) key matrix drawn row-major, all of it again on a tie in any row (section 3)."""
        while True:
            keys = self.words(rows * k)
            split = [keys[r * k:(r + 1) * k] for r in range(rows)]
            if all(len(set(row)) == k for row in split):
                return [sorted(range(k), key=row.__getitem__) for row in split]

    def choices(self, weights: list[int], count: int) -> list[int]:
        """`Weights.choices` (section 3): slot j's index is the i with cum[i-1] <= u T < cum[i], u read
        from word j of one draw of `count` words, and from one more word at a time while unsettled."""
        total, cum = sum(weights), []
        for w in weights:
            cum.append((cum[-1] if cum else 0) + w)
        out = []
        for word in self.words(count):
            low, high, scale = word * total, (word + 1) * total, 1 << 64  # u T lies in [low, high) / scale
            while True:
                i = next(i for i, c in enumerate(cum) if low < c * scale)
                if high <= cum[i] * scale:
                    break
                nxt = self.words(1)[0]  # the boundary lies inside: 64 more bits of u
                base = low * (1 << 64)
                low, high, scale = base + nxt * total, base + (nxt + 1) * total, scale << 64
            out.append(i)
        return out

    def permutation(self, n: int) -> list[int]:
        """n words as keys, all drawn again on a tie; the order that sorts them ascending (section 3)."""
        while True:
            keys = self.words(n)
            if len(set(keys)) == n:
                return sorted(range(n), key=lambda i: keys[i])


def split_counts(seed: bytes, rules: str, sizes: list[int], counts: list[int]) -> list[list[int]]:
    """docs/randomness.md section 4b: per pool (in pool order), its count of each tier (in the given
    order, the spec's), drawn from the stream ("poolgen/v1", rules, "order", "split")."""
    stream = Stream(seed, ("poolgen/v1", rules, "order", "split"))
    order, pools = sum(sizes), len(sizes)
    out = [[0] * len(counts) for _ in sizes]
    for t, c in enumerate(counts):
        floors = [c * s // order for s in sizes]
        rests = [c * s % order for s in sizes]
        total = sum(rests)
        assert total % order == 0, (c, sizes)
        for k in range(pools):
            out[k][t] = floors[k]
        if total == 0:
            continue
        walk = stream.permutation(pools)
        u = stream.integer(order)

        before = 0
        for k in walk:  # the points u, u + N, ... below x: max(0, ceil((x - u) / N))
            out[k][t] += max(0, -((u - before - rests[k]) // order)) - max(0, -((u - before) // order))
            before += rests[k]
    return out


def order_sizes(order_tickets: int, pool_tickets: int) -> list[int]:
    """Whole pools of `pool_tickets`, then the rest (docs/manifest.md, `print.split`)."""
    whole, rest = divmod(order_tickets, pool_tickets)
    return [pool_tickets] * whole + ([rest] if rest else [])
