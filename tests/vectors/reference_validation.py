"""A second implementation of the validation record (docs/validation.md, section 3, format 2), one
ticket at a time, used to make and check validation.txt.

It shares no code with poolgen.deliverables.validation or audit.steps.validation: HKDF-SHA256
(RFC 5869) from the standard library's hmac, the ticket block built with int.to_bytes, and AES-256
applied to one 16-byte block at a time (`cryptography`'s AES in ECB mode over a single block is the
raw block cipher). Run it to print the vectors: `python tests/vectors/reference_validation.py`.
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def hkdf_sha256(ikm: bytes, info: bytes, length: int = 32) -> bytes:
    prk = hmac.new(b"\x00" * 32, ikm, hashlib.sha256).digest()  # no salt: HashLen zero bytes
    okm, block, i = b"", b"", 1
    while len(okm) < length:
        block = hmac.new(prk, block + info + bytes([i]), hashlib.sha256).digest()
        okm += block
        i += 1
    return okm[:length]


def aes_block(key: bytes, block: bytes) -> bytes:
    assert len(block) == 16
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


def subkey(key: bytes, purpose: str, run_id: str) -> bytes:
    return hkdf_sha256(key, b"poolgen/validation/v2/" + purpose.encode() + b"\x00" + run_id.encode())


def record(key: bytes, run_id: str, barcode: str, virn: str, prize_cents: int) -> bytes:
    m = int(barcode).to_bytes(7, "big") + bytes([len(virn)]) + int(virn).to_bytes(8, "big")
    d = aes_block(subkey(key, "index", run_id), m)
    pad = aes_block(subkey(key, "pad", run_id), m)[:8]
    ct = bytes(a ^ b for a, b in zip(prize_cents.to_bytes(8, "big"), pad, strict=True))
    k_tag = subkey(key, "tag", run_id)
    first = aes_block(k_tag, d)
    tag = aes_block(k_tag, bytes(a ^ b for a, b in zip(first, ct + bytes(8), strict=True)))[:8]
    return d + ct + tag


def known(key: bytes, run_id: str, barcode: str) -> bytes:
    return aes_block(subkey(key, "known", run_id), int(barcode).to_bytes(16, "big"))


def key_check(key: bytes) -> str:
    return hmac.digest(key, b"poolgen/validation/v1/key-check", "sha256")[:8].hex()


CASES = [  # key (hex), run id, barcode, VIRN, prize in cents
    ("00" * 32, "run", "465000000000000", "000000000000", 0),
    (bytes(range(32)).hex(), "wild_side", "358000130700077", "025088224128", 100),
    (bytes(range(1, 33)).hex(), "2026-12-01T00:00:00Z-ws", "358999999999902", "999999999999999999", 60000),
    ("ff" * 32, "hh", "465123456729955", "123456789", 2**40 + 7),
]


if __name__ == "__main__":
    for key_hex, run_id, barcode, virn, prize in CASES:
        key = bytes.fromhex(key_hex)
        print(f"key={key_hex} run={run_id} barcode={barcode} virn={virn} prize={prize} "
              f"key_check={key_check(key)} record={record(key, run_id, barcode, virn, prize).hex()} "
              f"known={known(key, run_id, barcode).hex()}")
