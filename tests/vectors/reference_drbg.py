"""A second, pure-Python implementation of poolgen's DRBG, used to make and check drbg.txt.

It shares no code with poolgen.rng: HKDF-SHA256 (RFC 5869) from the standard library's hmac, and
the ChaCha20 block function (RFC 8439, section 2.3) written out, with a 32-bit block counter
starting at 0 and a zero nonce. (`cryptography`'s ChaCha20 takes a 16-byte "nonce" that is the
little-endian 32-bit counter followed by the 96-bit nonce; poolgen passes 16 zero bytes.)
"""

from __future__ import annotations

import hashlib
import hmac
import struct


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    okm, block, i = b"", b"", 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        okm += block
        i += 1
    return okm[:length]


def _rotl(v: int, c: int) -> int:
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))


def _quarter(s: list[int], a: int, b: int, c: int, d: int) -> None:
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key: bytes, counter: int, nonce: bytes) -> bytes:
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key)) + [counter] + list(struct.unpack("<3I", nonce))
    w = list(state)
    for _ in range(10):
        _quarter(w, 0, 4, 8, 12)
        _quarter(w, 1, 5, 9, 13)
        _quarter(w, 2, 6, 10, 14)
        _quarter(w, 3, 7, 11, 15)
        _quarter(w, 0, 5, 10, 15)
        _quarter(w, 1, 6, 11, 12)
        _quarter(w, 2, 7, 8, 13)
        _quarter(w, 3, 4, 9, 14)
    return struct.pack("<16I", *((a + b) & 0xFFFFFFFF for a, b in zip(w, state, strict=True)))


def encode_label(parts: tuple[str, ...]) -> bytes:
    return b"".join(len(p.encode()).to_bytes(4, "big") + p.encode() for p in parts)


def keystream(seed: bytes, label: tuple[str, ...], n: int) -> bytes:
    key = hkdf_sha256(seed, b"poolgen/drbg/v1", encode_label(label))
    out = b"".join(chacha20_block(key, i, bytes(12)) for i in range((n + 63) // 64))
    return out[:n]


if __name__ == "__main__":  # prints the vectors of drbg.txt
    for seed_hex, label in (("00" * 32, ("poolgen/v1", "test", "vector")),
                            (bytes(range(32)).hex(), ("poolgen/v1", "wild_side", "p1", "order"))):
        stream = keystream(bytes.fromhex(seed_hex), label, 96)
        print(f"seed={seed_hex} label={'/'.join(label)} bytes={stream.hex()}")
