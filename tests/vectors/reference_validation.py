"""A third, stand-alone implementation of validation records, format 2 (docs/validation.md, section 3),
used to write validation.txt. It shares no code with poolgen/deliverables/validation.py or
audit/steps/deliverables.py and uses only the standard library; it follows the document literally:

    D      = HMAC-SHA256(K, "poolgen/validation/v1/record" || 0x00 || R || 0x00 || B || 0x00 || V)
    value  = 0 (a loser); prize_cents | 2^62 if a free ticket (a prize of the file's tier);
             2^63 (a prize of the other tier)
    record = D[0:16] || (value XOR D[16:24], 8 bytes big-endian) || tag
    tag    = HMAC-SHA256(K, "poolgen/validation/v1/tag" || D[0:16] || ct)[0:8]
    known  = HMAC-SHA256(K, "poolgen/validation/v1/ticket" || 0x00 || R || 0x00 || B)[0:16]

    python tests/vectors/reference_validation.py > tests/vectors/validation.txt
"""

from __future__ import annotations

import hashlib
import hmac

KEY = hashlib.sha256(b"poolgen validation vector key").digest()
RUN = "vector-run"
THRESHOLD = 60000
# (barcode, virn, prize_cents, free ticket)
TICKETS = [
    ("465000000000040", "000000000000", 0, False),
    ("465000000000137", "123456789012", 100, True),
    ("465000000000234", "999999999999", 100, False),
    ("465000000000331", "000000000001", 59999, False),
    ("465000000000428", "314159265358", 60000, False),
    ("358123456700133", "271828182845", 2500000, False),
]


def value(tier: str, prize: int, free: bool) -> int:
    if prize == 0:
        return 0
    high = prize >= THRESHOLD
    if high != (tier == "high"):
        return 1 << 63
    return prize | ((1 << 62) if free else 0)


def record(tier: str, barcode: str, virn: str, prize: int, free: bool) -> bytes:
    msg = b"poolgen/validation/v1/record" + b"\x00" + RUN.encode() + b"\x00" + barcode.encode() + b"\x00" \
        + virn.encode()
    d = hmac.new(KEY, msg, hashlib.sha256).digest()
    ct = (value(tier, prize, free) ^ int.from_bytes(d[16:24], "big")).to_bytes(8, "big")
    tag = hmac.new(KEY, b"poolgen/validation/v1/tag" + d[:16] + ct, hashlib.sha256).digest()[:8]
    return d[:16] + ct + tag


def known(barcode: str) -> bytes:
    msg = b"poolgen/validation/v1/ticket" + b"\x00" + RUN.encode() + b"\x00" + barcode.encode()
    return hmac.new(KEY, msg, hashlib.sha256).digest()[:16]


def main() -> None:
    print("# Known-answer vector for validation records, format 2 (docs/validation.md, section 3).")
    print("# Written by `python tests/vectors/reference_validation.py > tests/vectors/validation.txt`, a")
    print("# stand-alone script (standard library only) sharing no code with poolgen or audit.")
    print(f"# key = sha256(b'poolgen validation vector key') = {KEY.hex()}; run_id = {RUN}; "
          f"high_tier_cents = {THRESHOLD}")
    print("# tier barcode virn prize_cents free record(hex) known(hex)")
    for tier in ("low", "high"):
        for b, v, p, f in TICKETS:
            print(tier, b, v, p, int(f), record(tier, b, v, p, f).hex(), known(b).hex())


if __name__ == "__main__":
    main()
