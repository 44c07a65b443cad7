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

    def read(self, n: int) -> bytes:
        """The next n bytes of the keystream."""
        return self.array(n).tobytes()

    def array(self, n: int) -> np.ndarray:
        """The next n bytes of the keystream as a uint8 array.

        The zero bytes are encrypted straight into the array a chunk at a time: letting the cipher
        allocate its output (`update`) costs about four times as long as the encryption itself."""
        self.bytes_read += n
        out = np.empty(n, dtype=np.uint8)
        view = memoryview(out.data)
        for at in range(0, n, len(_ZEROS)):
            size = min(len(_ZEROS), n - at)
            self._enc.update_into(_ZEROS[:size], view[at:at + size])
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
