"""A second, stand-alone implementation of validation records, format "poolgen-validation/2"
(docs/validation.md, section 3), one ticket at a time, used to write validation.txt. It shares no code
with poolgen/deliverables/validation.py or audit/steps/validation.py: HKDF-SHA256 (RFC 5869) from the
standard library's hmac, the ticket block built with int.to_bytes, the value by plain integer
arithmetic, and AES-256 applied to one 16-byte block at a time (`cryptography`'s AES in ECB mode over
a single block is the raw block cipher). It follows the document literally:

    K_p    = HKDF-SHA256(K, salt none, info = "poolgen/validation/v2/" || p || 0x00 || R),
             p in index, pad, tag, known
    m      = B as 7-byte big-endian || len(V) as 1 byte || V as 8-byte big-endian
    value  = 0 (a loser); 2^63 alone (a prize of the other tier); else prize_cents, | 2^62 if the
             prize is a free ticket
    D      = AES(K_index, m);  ct = value (8 bytes big-endian) XOR AES(K_pad, m)[0:8]
    tag    = AES(K_tag, AES(K_tag, D) XOR (ct || 8 zero bytes))[0:8]
    record = D || ct || tag;   known = AES(K_known, B as 16-byte big-endian)

    python tests/vectors/reference_validation.py > tests/vectors/validation.txt
"""

from __future__ import annotations

import hashlib
import hmac

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

OTHER_TIER, FREE = 1 << 63, 1 << 62


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


def value(tier: str, threshold: int, prize: int, free: bool) -> int:
    if prize == 0:
        return 0
    if (prize >= threshold) != (tier == "high"):
        return OTHER_TIER
    return prize | (FREE if free else 0)


def record(key: bytes, run_id: str, barcode: str, virn: str, held: int) -> bytes:
    """The record of a ticket whose value (`value`) is `held`."""
    m = int(barcode).to_bytes(7, "big") + bytes([len(virn)]) + int(virn).to_bytes(8, "big")
    d = aes_block(subkey(key, "index", run_id), m)
    pad = aes_block(subkey(key, "pad", run_id), m)[:8]
    ct = bytes(a ^ b for a, b in zip(held.to_bytes(8, "big"), pad, strict=True))
    k_tag = subkey(key, "tag", run_id)
    first = aes_block(k_tag, d)
    tag = aes_block(k_tag, bytes(a ^ b for a, b in zip(first, ct + bytes(8), strict=True)))[:8]
    return d + ct + tag


def known(key: bytes, run_id: str, barcode: str) -> bytes:
    return aes_block(subkey(key, "known", run_id), int(barcode).to_bytes(16, "big"))


def key_check(key: bytes) -> str:
    return hmac.digest(key, b"poolgen/validation/v1/key-check", "sha256")[:8].hex()


KEY = hashlib.sha256(b"poolgen validation vector key").digest()
RUN, THRESHOLD = "vector-run", 60000
# One run's tickets, each written into both tiers' files: (barcode, VIRN, prize in cents, free ticket).
# Every barcode is a barcode number (docs/validation.md section 2: 1 mod 97), so a desk built from
# docs/back-office.md takes each claim to its record rather than refusing it as "not a barcode number".
TICKETS = [
    ("465000000000031", "000000000000", 0, False),
    ("465000000000128", "123456789012", 100, True),
    ("465000000000225", "999999999999", 100, False),
    ("465000000000322", "000000000001", 59999, False),
    ("465000000000419", "314159265358", 60000, False),
    ("358123456700188", "271828182845", 2500000, False),
]
# Edge cases: other keys and run ids, a barcode number with leading zeros (game 000, book 0, ticket 0),
# the largest book and ticket, VIRNs of 12, 18 and 9 digits, a prize above 2^32:
# (key hex, run id, tier, threshold, barcode, VIRN, prize in cents, free ticket)
EDGES = [
    ("00" * 32, "run", "low", 60000, "000000000000098", "000000000000", 0, False),
    (bytes(range(32)).hex(), "wild_side", "low", 60000, "358000130700077", "025088224128", 100, True),
    (bytes(range(1, 33)).hex(), "2026-12-01T00:00:00Z-ws", "high", 60000, "358999999999996",
     "999999999999999999", 60000, False),
    ("ff" * 32, "hh", "high", 60000, "465123456729952", "123456789", 2**40 + 7, False),
]


def main() -> None:
    print('# Known-answer vectors for validation records, format "poolgen-validation/2" (docs/validation.md,')
    print("# section 3; poolgen/deliverables/validation.py, audit/steps/validation.py).")
    print("# Written by `python tests/vectors/reference_validation.py > tests/vectors/validation.txt`, a")
    print("# one-ticket-at-a-time second implementation (stdlib HMAC for HKDF-SHA256, AES-256 one block at")
    print("# a time) sharing no code with poolgen or audit. Each line: key (hex), run id, tier, high-tier")
    print("# threshold, barcode number, VIRN, prize in cents, free (1: a free ticket), the value held, the")
    print("# key's check value, the record and the known value (hex). The first 12 lines are one run's six")
    print("# tickets in both tiers' files (key = sha256(b'poolgen validation vector key')).")
    rows = [(KEY.hex(), RUN, tier, THRESHOLD, *t) for tier in ("low", "high") for t in TICKETS] + EDGES
    for key_hex, run_id, tier, threshold, barcode, virn, prize, free in rows:
        key = bytes.fromhex(key_hex)
        held = value(tier, threshold, prize, free)
        rec, kn = record(key, run_id, barcode, virn, held).hex(), known(key, run_id, barcode).hex()
        print(f"key={key_hex} run={run_id} tier={tier} threshold={threshold} barcode={barcode} "
              f"virn={virn} prize={prize} free={int(free)} value={held} key_check={key_check(key)} "
              f"record={rec} known={kn}")


if __name__ == "__main__":
    main()
