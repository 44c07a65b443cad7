"""A drand beacon round, verified offline against the chain's pinned public key (docs/ceremony.md).

poolgen verifies drand's quicknet chain (`bls-unchained-g1-rfc9380`): round R's signature S is a
G1 point with e(S, g2) = e(H(SHA-256(u64(R))), PK), H being RFC 9380's hash-to-curve to G1; the
round's randomness is SHA-256(S). The pairing comes from py_ecc (the Ethereum Foundation's BLS12-381,
pure Python: about a second per round), not from code of ours. audit/read/beacon.py checks the same
again without poolgen.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, cast

from poolgen.errors import PoolgenError
from poolgen.files.read import JSON_STRING, distinct_keys, nesting_depth, read_input
from poolgen.limits import MAX_NESTING


@dataclass(frozen=True)
class Chain:
    name: str
    hash: str
    scheme: str
    public_key: str
    genesis: int
    period: int

    def round_time(self, round_number: int) -> datetime:
        """When round `round_number` is published (UTC); at most `last_round()`."""
        return datetime.fromtimestamp(self.genesis + self.period * (round_number - 1), UTC)

    def first_round_from(self, when: int) -> int:
        """The first round published at `when` (Unix seconds, any: no datetime is made) or later."""
        return -(-(when - self.genesis) // self.period) + 1

    def last_round(self) -> int:
        """The last round published by 9999-12-31T23:59:59Z: a later one has no UTC time to write (a
        datetime ends there), so no ceremony names it."""
        last = int(datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp())
        return (last - self.genesis) // self.period + 1


QUICKNET = Chain("quicknet", "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
                 "bls-unchained-g1-rfc9380",
                 "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510"
                 "d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a",
                 1692803367, 3)
CHAINS = {QUICKNET.hash: QUICKNET}
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
MAX_ROUND = 2**63 - 1
_HEX = re.compile(r"^[0-9a-f]*$")


class BeaconError(PoolgenError):
    """A beacon round is refused; the message names the file and why."""


def chain(chain_hash: str, where: str) -> Chain:
    """A chain poolgen pins, by its hash."""
    found = CHAINS.get(chain_hash)
    if found is None:
        known = ", ".join(f"{c.name} {c.hash[:8]}..." for c in CHAINS.values())
        raise BeaconError(f"{where}: beacon chain {chain_hash} is not one poolgen verifies ({known})")
    return found


def _point_g1(data: bytes) -> Any:
    from py_ecc.bls.point_compression import decompress_G1  # lazy: see signature_verifies
    from py_ecc.optimized_bls12_381.optimized_curve import curve_order, is_inf, multiply

    point = decompress_G1(int.from_bytes(data, "big"))  # type: ignore[arg-type]
    if is_inf(point) or not is_inf(multiply(point, curve_order)):
        raise ValueError("not in G1")
    return point


@cache  # one round is checked once a process: py_ecc takes about a second
def signature_verifies(c: Chain, round_number: int, signature: bytes) -> bool:
    """True if `signature` is chain `c`'s BLS signature of round `round_number`."""
    # py_ecc is imported here, not with the module: it costs about half a second of CPU in every
    # poolgen command (the CLI loads every command's module), and only a ceremony needs it.
    from py_ecc.bls.hash_to_curve import hash_to_G1
    from py_ecc.bls.point_compression import decompress_G2
    from py_ecc.fields import optimized_bls12_381_FQ12 as FQ12
    from py_ecc.optimized_bls12_381.optimized_curve import G2, neg
    from py_ecc.optimized_bls12_381.optimized_pairing import final_exponentiate, miller_loop

    try:
        sig = _point_g1(signature)
    except (ValueError, TypeError, AssertionError):
        return False
    pk_bytes = bytes.fromhex(c.public_key)
    pk = decompress_G2((int.from_bytes(pk_bytes[:48], "big"),  # type: ignore[arg-type]
                        int.from_bytes(pk_bytes[48:], "big")))
    message = hashlib.sha256(round_number.to_bytes(8, "big")).digest()
    h = hash_to_G1(message, DST, cast(Any, hashlib.sha256))
    product = miller_loop(G2, neg(sig)) * miller_loop(pk, h)
    return bool(final_exponentiate(product) == FQ12.one())


@dataclass(frozen=True)
class Round:
    round: int
    signature: str  # hex
    randomness: str  # hex: SHA-256 of the signature

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "signature": self.signature, "randomness": self.randomness}


def parse_round(doc: object, where: str, c: Chain, named: int) -> Round:
    """Round `named` of chain `c` from drand's JSON; refused unless its signature verifies."""
    if not isinstance(doc, dict):
        raise BeaconError(f"{where}: not a drand round (a JSON object with round and signature)")
    if "chain" in doc and doc["chain"] != c.hash:
        raise BeaconError(f"{where}: a round of chain {doc['chain']}, the ceremony names chain {c.hash}")
    number, sig = doc.get("round"), doc.get("signature")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_ROUND:
        raise BeaconError(f"{where}: round: missing or not a positive integer")
    if number != named:
        raise BeaconError(f"{where}: round {number}, the ceremony names round {named}")
    if not isinstance(sig, str) or not _HEX.match(sig) or len(sig) != 96:
        raise BeaconError(f"{where}: signature: 48 bytes (96 lower-case hex digits) for chain {c.name}")
    randomness = hashlib.sha256(bytes.fromhex(sig)).hexdigest()
    if "randomness" in doc and doc["randomness"] != randomness:
        raise BeaconError(f"{where}: randomness is not the SHA-256 of the round's signature")
    if not signature_verifies(c, number, bytes.fromhex(sig)):
        raise BeaconError(f"{where}: the signature of round {number} does not verify against chain "
                          f"{c.name}'s public key")
    return Round(number, sig, randomness)


def read_round(path: Path, c: Chain, named: int) -> Round:
    """A round file the operator fetched from drand (docs/ceremony.md, "The beacon")."""
    data = read_input(path, "beacon round", BeaconError)
    try:
        text = data.decode("utf-8")
        if nesting_depth(text, JSON_STRING) > MAX_NESTING:  # before the parser: its C recursion on deep
            raise ValueError("nested too deep")  # brackets can overflow a thread's stack
        doc = json.loads(text, object_pairs_hook=distinct_keys)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        why = str(exc) if "appears twice" in str(exc) else "not JSON"
        raise BeaconError(f"{path}: not a drand round ({why})") from None
    return parse_round(doc, str(path), c, named)
