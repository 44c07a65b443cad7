"""The deterministic random bit generator.

Construction (pinned by tests/vectors/drbg.txt, described in docs/randomness.md):

    key    = HKDF-SHA256(ikm=seed, salt=b"poolgen/drbg/v1", info=label, length=32)
    stream = ChaCha20(key, nonce=16 zero bytes) keystream, i.e. the encryption of zero bytes

`label` is the domain-separation label of one purpose (e.g. game / pool / "order"); it is built
from its parts with `encode_label`, which length-prefixes every part so no two part lists collide.
Words are read from the stream as little-endian unsigned 64-bit integers.
"""

from __future__ import annotations

import numpy as np
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

ALGORITHM = "HKDF-SHA256 -> ChaCha20 keystream (poolgen/drbg/v1)"
SEED_BYTES = 32
_SALT = b"poolgen/drbg/v1"
_NONCE = bytes(16)
_ZEROS = memoryview(bytes(1 << 20))  # what the keystream encrypts, a chunk at a time
_AHEAD = 1 << 12  # bytes of keystream made at once for short reads (`Stream.array`)


def encode_label(parts: tuple[str, ...]) -> bytes:
    """Length-prefixed UTF-8 encoding of label parts: b'' + for each part: 4-byte BE length + bytes."""
    out = bytearray()
    for part in parts:
        raw = part.encode("utf-8")
        out += len(raw).to_bytes(4, "big") + raw
    return bytes(out)


def label_text(parts: tuple[str, ...]) -> str:
    """A readable form of a label for manifests: parts joined by '/'."""
    return "/".join(parts)


class Stream:
    """A keystream of one purpose. Reads are sequential: each call continues where the last ended."""

    def __init__(self, key: bytes, label: tuple[str, ...]) -> None:
        if len(key) != 32:
            raise ValueError("stream key must be 32 bytes")
        self.label = label
        self._enc = Cipher(algorithms.ChaCha20(key, _NONCE), mode=None).encryptor()
        self.bytes_read = 0
        self._ahead = np.empty(0, dtype=np.uint8)  # keystream made ahead for short reads, not yet read
        self._at = 0  # the next unread byte of _ahead

    def read(self, n: int) -> bytes:
        """The next n bytes of the keystream."""
        return self.array(n).tobytes()

    def array(self, n: int) -> np.ndarray:
        """The next n bytes of the keystream as a uint8 array.

        A short read is served from _AHEAD bytes of keystream made at once (samplers read a few words
        at a time, thousands of times, on small pools: the cipher's call costs more than its bytes);
        the bytes are the same, in the same order. A long one is encrypted straight into the array a
        chunk at a time: letting the cipher allocate its output (`update`) costs about four times as
        long as the encryption itself."""
        self.bytes_read += n
        at, left = self._at, self._ahead.size - self._at
        if n <= left:
            self._at = at + n
            return self._ahead[at:at + n].copy()
        if n - left < _AHEAD:
            out = np.empty(n, dtype=np.uint8)
            out[:left] = self._ahead[at:]
            self._ahead = self._keystream(_AHEAD)
            self._at = n - left
            out[left:] = self._ahead[:n - left]
            return out
        out = np.empty(n, dtype=np.uint8)
        out[:left] = self._ahead[at:]
        self._ahead, self._at = self._ahead[:0], 0
        view = memoryview(out.data)
        for start in range(left, n, len(_ZEROS)):
            size = min(len(_ZEROS), n - start)
            self._enc.update_into(_ZEROS[:size], view[start:start + size])
        return out

    def _keystream(self, n: int) -> np.ndarray:
        out = np.empty(n, dtype=np.uint8)
        self._enc.update_into(_ZEROS[:n], memoryview(out.data))
        return out

    def words(self, n: int) -> np.ndarray:
        """The next n little-endian uint64 words."""
        return self.array(8 * n).view("<u8").astype(np.uint64, copy=False)


def derive_stream(seed: bytes, *label: str) -> Stream:
    """The stream for one purpose, derived from the run seed and a domain-separation label."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"seed must be {SEED_BYTES} bytes, got {len(seed)}")
    if not label or any(not p for p in label):
        raise ValueError("a stream label needs one or more non-empty parts")
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=encode_label(label)).derive(
        seed
    )
    return Stream(key, tuple(label))
