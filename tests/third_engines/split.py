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

_MASK32 = 0xFFFFFFFF


def _hkdf(seed: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 HKDF-SHA256: extract, then expand."""
    prk = hmac.new(salt, seed, hashlib.sha256).digest()
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        out += block
        i += 1
    return out[:length]


def _rotl(v: int, c: int) -> int:
    return ((v << c) & _MASK32) | (v >> (32 - c))


def _quarter(s: list[int], a: int, b: int, c: int, d: int) -> None:
    s[a] = (s[a] + s[b]) & _MASK32
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & _MASK32
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & _MASK32
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & _MASK32
    s[b] = _rotl(s[b] ^ s[c], 7)


def _chacha_block(key: bytes, counter: int) -> bytes:
    """RFC 8439 section 2.3, a 96-bit zero nonce."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *struct.unpack("<8I", key), counter, 0, 0, 0]
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
    return struct.pack("<16I", *((x + y) & _MASK32 for x, y in zip(s, state, strict=True)))


class Stream:
    """docs/randomness.md section 2: one stream of one label, read sequentially."""

    def __init__(self, seed: bytes, parts: tuple[str, ...]) -> None:
        info = b"".join(len(p.encode()).to_bytes(4, "big") + p.encode() for p in parts)
        self._key = _hkdf(seed, b"poolgen/drbg/v1", info, 32)
        self._counter = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += _chacha_block(self._key, self._counter)
            self._counter += 1
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
