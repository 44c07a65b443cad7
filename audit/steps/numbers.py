"""Step 7 without a generator (`python -m audit verify --seed-file`): every validation number of a
printed run re-derived from the seed, written from docs/randomness.md (sections 2 and 3) and
docs/validation.md (section 2) alone.

Without it an insider holding the signing key could choose the validation numbers (say, digits of the
barcode) and pass every step of audit alone, seed given: step 9 checks that a VIRN has its digits and
that the validation files agree with it, not where it came from. A VIRN a retailer can compute from
the barcode lets them ask the central system which unsold tickets win (docs/validation.md, section 3:
finding a record without the VIRN is meant to take 10^virn_digits tries).

    stream(label) = ChaCha20 keystream (RFC 8439, zero nonce, counter from 0) under
                    HKDF-SHA256(ikm = seed, salt = "poolgen/drbg/v1", info = each part's 4-byte
                    big-endian length || its UTF-8), read as little-endian 64-bit words
    VIRN of ticket p of pool P = value p of integers(stream(("poolgen/v1", RULES, P, "virn")), 10^d):
                    one word a slot, masked with the smallest all-ones mask covering 10^d - 1, kept
                    below 10^d; rejected slots refilled in slot order from the next words
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.runfiles import read_imaging

__all__ = ["check_virns", "integers"]

SALT = b"poolgen/drbg/v1"


class _Stream:
    """A label's keystream, read word after word."""

    def __init__(self, seed: bytes, *label: str) -> None:
        info = b"".join(len(p.encode()).to_bytes(4, "big") + p.encode() for p in label)
        key = HKDF(hashes.SHA256(), 32, salt=SALT, info=info).derive(seed)
        self._enc = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None).encryptor()

    def words(self, n: int) -> np.ndarray:
        return np.frombuffer(self._enc.update(bytes(8 * n)), dtype="<u8").astype(np.uint64)


def integers(seed: bytes, label: tuple[str, ...], high: int, count: int) -> np.ndarray:
    """`count` integers in [0, high) from a label's stream, as docs/randomness.md section 3 draws them."""
    stream, mask = _Stream(seed, *label), np.uint64((1 << (high - 1).bit_length()) - 1)
    out, todo = np.zeros(count, dtype=np.uint64), np.arange(count)
    while todo.size:  # round after round, the rejected slots in slot order
        words = stream.words(todo.size) & mask
        kept = words < np.uint64(high)
        out[todo[kept]] = words[kept]
        todo = todo[~kept]
    return out


def check_virns(folder: Path, manifest: Manifest, seed: bytes) -> str:
    """(7) every imaging file's validation numbers are the seed's; "" for a run with none to check."""
    files = {f.get("pool"): f.get("name") for f in manifest.doc.get("deliverables", [])
             if isinstance(f, dict) and f.get("role") == "imaging"}
    digits = manifest.doc.get("print", {}).get("virn_digits")
    if manifest.kind != "printed" or not files or not isinstance(digits, int):
        return ""
    rules, wrong, n = manifest.doc["game"]["rules"], [], 0
    for pool in manifest.pools:
        name = files.get(pool.id)
        if not isinstance(name, str) or not (folder / name).is_file():  # absent: step 2's (or a reveal's)
            continue
        shown = read_imaging(folder, name)["virn"].cast(pl.String)
        want = pl.Series(integers(seed, ("poolgen/v1", rules, pool.id, "virn"), 10**digits, pool.tickets)) \
            .cast(pl.String).str.zfill(digits)
        off = np.flatnonzero((shown != want).fill_null(True).to_numpy()) if len(shown) == len(want) \
            else np.arange(max(len(shown), len(want)))
        n += len(want)
        if off.size:
            wrong.append(f"{name}: {off.size:,} validation number(s) not the seed's, first at position "
                         f"{int(off[0]):,}")
    if wrong:
        raise VerificationError(Step.REPRODUCTION, "seed matches the commitment; " + "; ".join(wrong)
                                + " (docs/validation.md, section 2: each from the pool's virn stream)")
    return f"{n:,} validation numbers re-derived from the seed"
