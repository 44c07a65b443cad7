"""Step 9's validation files, re-derived from docs/validation.md, section 3, alone (format
"poolgen-validation/2"; audit never imports poolgen).

For run R under key K, four AES-256 keys K_p = HKDF-SHA256(K, salt none, info = "poolgen/validation/v2/"
|| p || 0x00 || R) for p in index, pad, tag, known; for a ticket with barcode number B and validation
number V of `digits` digits, m = B (7 bytes, big-endian) || digits (1 byte) || V (8 bytes), and

    record = D || ct || tag,  D = AES(K_index, m),  ct = value (8 bytes) XOR AES(K_pad, m)[0:8],
    tag = AES(K_tag, AES(K_tag, D) XOR (ct || 0^8))[0:8];   known = AES(K_known, B as 16 bytes),

where a record's value is 0 for a loser, 2^63 (OTHER_TIER) alone for a prize of the other tier, else
the prize's cents, plus 2^62 (FREE) for a free ticket (a tier the manifest's `print.free_ticket_tiers`
names).

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
from audit.read.game_number import barcode_digits
from audit.read.runfiles import deliverable_limit, read_run_bytes

FORMAT = "poolgen-validation/2"
_LABEL = b"poolgen/validation/v2/"
_CHECK = b"poolgen/validation/v1/key-check"


@dataclass(frozen=True)
class Tickets:
    """Every ticket of the run, in pool order: barcode and validation numbers (int64), prizes, and
    whether each prize is a free ticket."""

    barcodes: np.ndarray
    virns: np.ndarray
    virn_digits: int
    prizes: np.ndarray
    free: np.ndarray  # bool


OTHER_TIER, FREE = 1 << 63, 1 << 62  # docs/validation.md, section 3 (format 2)


def values(high: bool, threshold: int, tickets: Tickets) -> np.ndarray:
    """What each ticket's record holds (uint64): 0 for a loser, the other tier's prize as OTHER_TIER
    alone, else the cents (with FREE for a free ticket)."""
    prizes = np.asarray(tickets.prizes, dtype=np.int64)
    cents = prizes.astype(np.uint64) | np.where(np.asarray(tickets.free, dtype=bool), np.uint64(FREE),
                                                np.uint64(0))
    out = np.where((prizes >= threshold) == high, cents, np.uint64(OTHER_TIER))
    return np.where(prizes == 0, np.uint64(0), out).astype(np.uint64)


def key_check(key: bytes) -> str:
    return hmac.digest(key, _CHECK, "sha256")[:8].hex()


def _aes(key: bytes, blocks: np.ndarray) -> np.ndarray:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    out = enc.update(np.ascontiguousarray(blocks, dtype=np.uint8).tobytes()) + enc.finalize()
    return np.frombuffer(out, dtype=np.uint8).reshape(-1, 16)


def _big_endian(values: np.ndarray, width: int) -> np.ndarray:
    rows = np.asarray(values, dtype=np.uint64).astype(">u8").view(np.uint8).reshape(-1, 8)
    return rows[:, 8 - width:]


def sorted_rows(rows: np.ndarray) -> np.ndarray:
    """Rows (n x w bytes) as numpy S<w> values, sorted by their bytes: by their first 8 bytes read as one
    big-endian integer (an argsort of integers, about half the CPU of sorting byte strings), by all
    their bytes only if two rows share those 8."""
    rows = np.ascontiguousarray(rows)
    if rows.shape[1] >= 8 and len(rows) > 1:
        first = np.ascontiguousarray(rows[:, :8]).view(">u8").ravel().astype(np.uint64)
        order = np.argsort(first)
        ahead = first[order]
        if (ahead[1:] != ahead[:-1]).all():
            return np.ascontiguousarray(rows[order]).view(f"S{rows.shape[1]}").ravel()
    return np.sort(rows.view(f"S{rows.shape[1]}").ravel())


def expected(key: bytes, run_id: str, tickets: Tickets, held: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The file's records and known values (numpy S32 and S16, each sorted) holding these values."""
    recs, known = _records(key, run_id, tickets, held)
    return sorted_rows(recs), sorted_rows(known)


def _records(key: bytes, run_id: str, tickets: Tickets, held: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each ticket's record and known value (rows of 32 and 16 bytes), in the tickets' order."""
    keys = {p: HKDF(hashes.SHA256(), 32, salt=None, info=_LABEL + p.encode() + b"\x00" + run_id.encode())
            .derive(key) for p in ("index", "pad", "tag", "known")}
    n = len(held)
    m = np.empty((n, 16), dtype=np.uint8)
    m[:, :7], m[:, 7], m[:, 8:] = _big_endian(tickets.barcodes, 7), tickets.virn_digits, \
        _big_endian(tickets.virns, 8)
    d = _aes(keys["index"], m)
    ct = _big_endian(held, 8) ^ _aes(keys["pad"], m)[:, :8]
    chained = _aes(keys["tag"], d).copy()
    chained[:, :8] ^= ct
    recs = np.concatenate([d, ct, _aes(keys["tag"], chained)[:, :8]], axis=1)
    block = np.zeros((n, 16), dtype=np.uint8)
    block[:, 8:] = _big_endian(tickets.barcodes, 8)
    return recs, _aes(keys["known"], block)


# section 3: the header holds these fields and nothing else
HEADER_KEYS = frozenset({"format", "tier", "run_id", "game", "records", "record_bytes", "known_bytes",
                         "high_tier_cents", "key_check"})
INTEGER_KEYS = ("game", "high_tier_cents", "known_bytes", "record_bytes", "records")  # the header's order


def _header(data: bytes, name: str) -> tuple[dict[str, Any], int]:
    """The header line as read, and where it ends."""
    end = data.find(b"\n")
    try:
        head = json.loads(data[:end]) if end >= 0 else None
    except (ValueError, RecursionError):
        head = None
    if not isinstance(head, dict):
        raise VerificationError(Step.DELIVERABLES, f"{name}: no header line")
    return head, end


def first_unsorted(rows: np.ndarray) -> int | None:
    """The first i whose row (of n x w bytes, w a multiple of 8) is not strictly below row i + 1 by its
    bytes, or None when the rows are sorted with none twice."""
    words = np.ascontiguousarray(rows).view(">u8")
    if len(words) < 2:
        return None
    first = words[:, 0].astype(np.uint64)  # rows whose first 8 bytes rise are sorted with none twice
    if (first[1:] > first[:-1]).all():
        return None
    differ = words[1:] != words[:-1]
    at = np.argmax(differ, axis=1)  # the first word two neighbours differ in (0 when they are equal)
    rising = differ.any(axis=1) & (np.take_along_axis(words[1:], at[:, None], 1)
                                   > np.take_along_axis(words[:-1], at[:, None], 1))[:, 0]
    bad = np.flatnonzero(~rising)
    return int(bad[0]) if bad.size else None


def order_problems(data: bytes, end: int, n: int) -> list[str]:
    """What no key is needed to see of the body: records and known values each sorted by their bytes,
    none twice (section 3: the sort order is not print order, and every ticket has one of each)."""
    body = np.frombuffer(data, dtype=np.uint8, offset=end + 1)
    if len(body) != 48 * n:
        return []  # the size is reported
    problems = []
    for what, rows in (("records", body[:32 * n].reshape(-1, 32)),
                       ("known values", body[32 * n:].reshape(-1, 16))):
        at = first_unsorted(rows)
        if at is not None:
            problems.append(f"{what} not sorted by their bytes with none twice (section 3), first at "
                            f"{what[:-1]} {at + 1:,} of {n:,}")
    return problems


def header_problems(data: bytes, entry: dict[str, Any], run_id: str, n: int, threshold: int,
                    game: int) -> list[str]:
    """What no key is needed to see: the header is section 3's for this run, tier and game, with no
    other field and in canonical form (the file goes to the central system: a field, or spacing, could
    carry outcomes), the file holds n records and n known values, each sorted with none twice."""
    head, end = _header(data, entry["name"])
    problems = []
    if head.get("format") != FORMAT:
        problems.append(f"format {head.get('format')!r}, not {FORMAT!r}")
    header = {"tier": entry.get("tier"), "run_id": run_id, "game": game, "record_bytes": 32,
              "known_bytes": 16}
    problems += [f"header {k} {head.get(k)!r}, not {v!r}" for k, v in header.items() if head.get(k) != v]
    floats = [k for k in INTEGER_KEYS if k in head and type(head[k]) is not int]  # 465.0 == 465, True == 1
    if floats:
        problems.append(f"header field(s) {floats} not JSON integers (section 3)")
    body = len(data) - end - 1
    if head.get("records") != n or body != 48 * n or head.get("high_tier_cents") != threshold:
        problems.append(f"{head.get('records')} records in {body:,} bytes for {n:,} tickets "
                        f"(threshold {head.get('high_tier_cents')})")
    extra = sorted(set(head) - HEADER_KEYS)
    if extra:
        problems.append(f"header field(s) {extra} section 3 does not give (the file goes to the central "
                        "system: a field could carry outcomes)")
    elif data[:end] != json.dumps(head, sort_keys=True, separators=(",", ":")).encode():
        problems.append("header not in canonical form (keys sorted, no spaces)")
    return problems + order_problems(data, end, n)


def check_header(folder: Path, entry: dict[str, Any], run_id: str, n: int, threshold: int, game: int) -> str:
    """(9) without the file's key: its header and size (`header_problems`), and the header's key check
    value the manifest's."""
    data = read_run_bytes(folder, entry["name"], "validation", deliverable_limit("validation", n))
    head, _ = _header(data, entry["name"])
    problems = header_problems(data, entry, run_id, n, threshold, game)
    if head.get("key_check") != entry.get("key_check"):
        problems.append(f"header key_check {head.get('key_check')!r}, the manifest's "
                        f"{entry.get('key_check')!r}")
    if problems:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: " + "; ".join(problems))
    return f"{entry['name']}: header and size as section 3 gives them"


def _first_without(key: bytes, run_id: str, tickets: Tickets, high: bool, threshold: int, got: np.ndarray,
                   game: int) -> str:
    """The first ticket (in pool order) whose record the file lacks, named by its barcode number (15
    digits, 16 for a game numbered 1000..9999): the failure's only cost, the records re-derived again."""
    recs, _ = _records(key, run_id, tickets, values(high, threshold, tickets))
    at = int(np.flatnonzero(~np.isin(np.ascontiguousarray(recs).view("S32").ravel(), got))[0])
    return f"the ticket of barcode {int(tickets.barcodes[at]):0{barcode_digits(game)}d}"


def check_validation(folder: Path, entry: dict[str, Any], key: bytes, run_id: str, tickets: Tickets,
                     threshold: int, game: int) -> str:
    """(9) the file is exactly every ticket's record and known value under `key`, for its tier; its
    header is the one section 3 gives for this run, tier and game (`header_problems`); the manifest's
    key check value is the key's."""
    n = len(tickets.prizes)
    data = read_run_bytes(folder, entry["name"], "validation", deliverable_limit("validation", n))
    head, end = _header(data, entry["name"])
    tier = entry.get("tier")
    if head.get("key_check") != key_check(key):
        raise VerificationError(Step.DELIVERABLES,
                                f"{entry['name']}: the given {tier}-tier key is not the file's key "
                                f"(key check {head.get('key_check')})")
    problems = []
    if entry.get("key_check") != key_check(key):
        problems.append(f"the manifest's key_check {entry.get('key_check')!r} is not the {tier}-tier "
                        f"key's {key_check(key)}")
    problems += header_problems(data, entry, run_id, n, threshold, game)
    high = tier == "high"
    want, known = expected(key, run_id, tickets, values(high, threshold, tickets))
    body = np.frombuffer(data, dtype=np.uint8, offset=end + 1)
    got = body[:32 * min(n, len(body) // 32)].view("S32")
    same = len(got) == n and np.array_equal(got, want)
    missing = 0 if same else int(np.count_nonzero(~np.isin(want, got)))
    if missing:  # none missing but not the same: out of order or twice, which header_problems says
        problems.append(f"{missing:,} ticket(s) without their record (missing or changed records), first "
                        f"{_first_without(key, run_id, tickets, high, threshold, got, game)}")
    shown = body[32 * n:].view("S16") if len(body) == 48 * n else None
    # a file as written holds them sorted: compared as they are first, sorted only if they differ
    if shown is None or not (np.array_equal(shown, known) or np.array_equal(np.sort(shown), known)):
        problems.append("the known-ticket values are not every ticket's")
    if problems:
        raise VerificationError(Step.DELIVERABLES, f"{entry['name']}: " + "; ".join(problems))
    held = ("high-tier prizes only, low-tier winners marked as such" if high
            else "prizes below the threshold only, high-tier winners marked as such without their amount")
    return f"{entry['name']}: every one of {n:,} tickets validates to exactly its prize ({held})"
