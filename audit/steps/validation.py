"""Step 9's validation files, re-derived from docs/validation.md, section 3, alone (format
"poolgen-validation/2"; audit never imports poolgen).

For run R under key K, four AES-256 keys K_p = HKDF-SHA256(K, salt none, info = "poolgen/validation/v2/"
|| p || 0x00 || R) for p in index, pad, tag, known; for a ticket with barcode number B and validation
number V of `digits` digits, m = B (7 bytes, big-endian) || digits (1 byte) || V (8 bytes), and

    record = D || ct || tag,  D = AES(K_index, m),  ct = prize (8 bytes) XOR AES(K_pad, m)[0:8],
    tag = AES(K_tag, AES(K_tag, D) XOR (ct || 0^8))[0:8];   known = AES(K_known, B as 16 bytes).

Every ticket's record and known value are computed at once (one AES-ECB call per primitive over all
tickets) and the file must be exactly the header, the records sorted, the known values sorted.
"""

from __future__ import annotations

import hmac
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from audit.checklist import Step
from audit.errors import VerificationError

FORMAT = "poolgen-validation/2"
_LABEL = b"poolgen/validation/v2/"
_CHECK = b"poolgen/validation/v1/key-check"


@dataclass(frozen=True)
class Tickets:
    """Every ticket of the run, in pool order: barcode and validation numbers (int64) and prizes."""

    barcodes: np.ndarray
    virns: np.ndarray
    virn_digits: int
    prizes: np.ndarray


def key_check(key: bytes) -> str:
    return hmac.digest(key, _CHECK, "sha256")[:8].hex()


def _aes(key: bytes, blocks: np.ndarray) -> np.ndarray:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    out = enc.update(np.ascontiguousarray(blocks, dtype=np.uint8).tobytes()) + enc.finalize()
    return np.frombuffer(out, dtype=np.uint8).reshape(-1, 16)


def _big_endian(values: np.ndarray, width: int) -> np.ndarray:
    rows = np.asarray(values, dtype=np.uint64).astype(">u8").view(np.uint8).reshape(-1, 8)
    return rows[:, 8 - width:]


def _sorted(rows: np.ndarray) -> np.ndarray:
    """Rows (n x w bytes) as numpy S<w> values, sorted by their bytes."""
    return np.sort(np.ascontiguousarray(rows).view(f"S{rows.shape[1]}").ravel())


def expected(key: bytes, run_id: str, tickets: Tickets, prizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The file's records and known values (numpy S32 and S16, each sorted) for these prizes."""
    keys = {p: HKDF(hashes.SHA256(), 32, salt=None, info=_LABEL + p.encode() + b"\x00" + run_id.encode())
            .derive(key) for p in ("index", "pad", "tag", "known")}
    n = len(prizes)
    m = np.empty((n, 16), dtype=np.uint8)
    m[:, :7], m[:, 7], m[:, 8:] = _big_endian(tickets.barcodes, 7), tickets.virn_digits, \
        _big_endian(tickets.virns, 8)
    d = _aes(keys["index"], m)
    ct = _big_endian(prizes, 8) ^ _aes(keys["pad"], m)[:, :8]
    chained = _aes(keys["tag"], d).copy()
    chained[:, :8] ^= ct
    recs = np.concatenate([d, ct, _aes(keys["tag"], chained)[:, :8]], axis=1)
    block = np.zeros((n, 16), dtype=np.uint8)
    block[:, 8:] = _big_endian(tickets.barcodes, 8)
    return _sorted(recs), _sorted(_aes(keys["known"], block))


def check_validation(folder: Path, entry: dict[str, Any], key: bytes, run_id: str, tickets: Tickets,
                     threshold: int) -> str:
    """(9) the file is exactly every ticket's record and known value under `key`, for its tier."""
    data = (folder / entry["name"]).read_bytes()
    end = data.find(b"\n")
    try:
        head = json.loads(data[:end])
    except ValueError:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: no header line") from None
    tier = entry.get("tier")
    if head.get("key_check") != key_check(key):
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: the given {tier}-tier key is not the file's key "
                                f"(key check {head.get('key_check')})")
    problems = []
    if head.get("format") != FORMAT:
        problems.append(f"format {head.get('format')!r}, not {FORMAT!r}")
    high = tier == "high"
    prizes = np.asarray(tickets.prizes, dtype=np.int64)
    want, known = expected(key, run_id, tickets, np.where((prizes >= threshold) == high, prizes, 0))
    n = len(prizes)
    body = np.frombuffer(data, dtype=np.uint8, offset=end + 1)
    got = body[:32 * min(n, len(body) // 32)].view("S32")
    if head.get("records") != n or len(body) != 48 * n or head.get("high_tier_cents") != threshold:
        problems.append(f"{head.get('records')} records in {len(body):,} bytes for {n:,} tickets "
                        f"(threshold {head.get('high_tier_cents')})")
    same = len(got) == n and np.array_equal(got, want)
    missing = 0 if same else int(np.count_nonzero(~np.isin(want, got)))
    if not same:
        problems.append(f"{missing:,} ticket(s) without their record (missing, changed or reordered records)")
    if body[32 * n:].tobytes() != known.tobytes():
        problems.append("the known-ticket values are not every ticket's")
    if problems:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: " + "; ".join(problems))
    held = "high-tier prizes only" if high else "prizes below the threshold only, high-tier tickets as losers"
    return f"{entry['name']}: every one of {n:,} tickets validates to exactly its prize ({held})"
