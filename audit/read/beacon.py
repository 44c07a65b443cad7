"""A drand quicknet round, checked offline against the chain's public key, pinned here again
(docs/ceremony.md, "The beacon"; poolgen/seeds/beacon.py is the generator's side).

    round R verifies  iff  e(S, g2) = e(H(SHA-256(R as 8 bytes big-endian)), PK)
    H = RFC 9380 hash-to-curve to G1, tag BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_
    S = the 48-byte compressed G1 signature, in the prime-order group; randomness = SHA-256(S)

The pairing and the hash-to-curve are py_ecc's.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from functools import cache
from typing import Any, cast

QUICKNET_HASH = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
QUICKNET_KEY = ("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a"
                "0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd"
                "274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a")
GENESIS, PERIOD = 1692803367, 3
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"


LAST_TIME = 253402300799  # 9999-12-31T23:59:59Z, the last time a ceremony's rounds can be dated
# 2026-12-05T00:00:00Z: no poolgen wrote a v4 transcript (one that binds the printed game) before then
V4_SINCE = 1796428800


def rehearsal(t: dict[str, Any]) -> str:
    """What step 5 adds to its pass line for a v4 transcript naming a round published before any poolgen
    wrote v4: the ceremony began once its round was out (a rehearsal, POOLGEN_TEST_NOW), so its parties
    knew the round before they committed; "" otherwise (docs/ceremony.md, "When a bundle was published")."""
    due = round_time(t["beacon"]["round"])
    if "printed" not in t or due >= V4_SINCE:
        return ""
    at = datetime.fromtimestamp(due, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (f"; round {t['beacon']['round']} was published at {at}, before any poolgen wrote a v4 "
            "transcript (2026-12-05T00:00:00Z): a rehearsal, begun once its round was out, its seed known to "
            "its parties before they committed, never a real run's")


def round_time(round_number: int) -> int:
    """Unix time at which quicknet publishes round `round_number`."""
    return GENESIS + PERIOD * (round_number - 1)


@cache  # one round is checked once a process: py_ecc takes about a second
def verifies(round_number: int, signature_hex: str) -> bool:
    """True if `signature_hex` is quicknet's signature of round `round_number`."""
    # py_ecc is imported here, not with the module: it costs about half a second of CPU in every
    # process that imports audit.verify (each verify worker too), and only a ceremony run needs it.
    from py_ecc.bls.hash_to_curve import hash_to_G1
    from py_ecc.bls.point_compression import decompress_G1, decompress_G2
    from py_ecc.fields import optimized_bls12_381_FQ12 as FQ12
    from py_ecc.optimized_bls12_381.optimized_curve import G2, curve_order, is_inf, multiply, neg
    from py_ecc.optimized_bls12_381.optimized_pairing import final_exponentiate, miller_loop

    try:
        sig: Any = decompress_G1(int.from_bytes(bytes.fromhex(signature_hex), "big"))  # type: ignore[arg-type]
        if len(signature_hex) != 96 or is_inf(sig) or not is_inf(multiply(sig, curve_order)):
            return False
    except (ValueError, TypeError, AssertionError):
        return False
    raw = bytes.fromhex(QUICKNET_KEY)
    pk: Any = decompress_G2((int.from_bytes(raw[:48], "big"), int.from_bytes(raw[48:], "big")))  # type: ignore[arg-type]
    h = hash_to_G1(hashlib.sha256(round_number.to_bytes(8, "big")).digest(), DST, cast(Any, hashlib.sha256))
    return bool(final_exponentiate(miller_loop(G2, neg(sig)) * miller_loop(pk, h)) == FQ12.one())
