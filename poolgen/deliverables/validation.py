"""Validation files for the central system and the keys that open them (docs/validation.md, section 3).

A validation key is 32 secret bytes (64 hex digits in a mode-0600 file, never inside a run folder).
Format 2: for run R under key K, four AES-256 keys K_index, K_pad, K_tag, K_known, each
HKDF-SHA256(K, info = "poolgen/validation/v2/<purpose>" || 0x00 || R); for a ticket with barcode
number B (15 digits; 16 for a game numbered 1000..9999) and validation number V (up to 18 digits):

    m      = B as 7-byte big-endian || len(V) as 1 byte || V as 8-byte big-endian
    D      = AES(K_index, m)
    ct     = (value as 8-byte big-endian) XOR AES(K_pad, m)[0:8]
    tag    = AES(K_tag, AES(K_tag, D) XOR (ct || 8 zero bytes))[0:8]     (CBC-MAC of D || ct || 0^8)
    record = D || ct || tag
    known  = AES(K_known, B as 16-byte big-endian)

A file is one header line of canonical JSON, then every ticket's 32-byte record sorted by its bytes,
then every ticket's 16-byte `known` value, sorted. Each primitive is one AES block per record, so a
whole file is a few ECB calls over numpy arrays (`records`, `knowns`), not a Python loop.

`value` (`plain`, `tier_values`): a loser 0; a prize of the file's tier its cents, with bit 62 (FREE)
set for a free ticket; a prize of the other tier bit 63 (OTHER_TIER) alone, never its amount. The
low-tier file holds prizes below the high-tier threshold, the high-tier file, under its own key,
prizes at or above it.
"""

from __future__ import annotations

import functools
import hmac
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from poolgen.deliverables.identity import is_barcode_text
from poolgen.errors import PoolgenError
from poolgen.files.read import JSON_STRING, nesting_depth, read_secret
from poolgen.limits import MAX_KEY_FILE_BYTES, MAX_NESTING

KEY_BYTES = 32
RECORD_BYTES = 32
KNOWN_BYTES = 16
MAX_VIRN_DIGITS = 18
FORMAT = "poolgen-validation/2"
OTHER_TIER = 1 << 63  # a prize of the other tier: claim it at the other desk (amount not held)
FREE = 1 << 62  # a free ticket (its cents: the ticket price)
CENTS = FREE - 1  # the amount's bits
TIERS = {"low": "validation-low.bin", "high": "validation-high.bin"}
PURPOSES = ("index", "pad", "tag", "known")
_LABEL = "poolgen/validation/v2/"
_CHECK = b"poolgen/validation/v1/key-check"  # a key's name, unchanged since format 1


class ValidationError(PoolgenError):
    """A validation key or file that cannot be used."""


def key_check(key: bytes) -> str:
    """A public check value naming the key without revealing it: HMAC(K, label)[0:8] in hex."""
    return hmac.digest(key, _CHECK, "sha256")[:8].hex()


def new_validation_key(path: Path) -> str:
    """Create a new validation key file (mode 0600, never overwritten); returns its check value."""
    from poolgen.files.write import resolved, write_secret  # noqa: PLC0415

    folder = resolved(path).parent
    if any(os.path.exists(f / "manifest.json") for f in (folder, *folder.parents)):
        raise ValidationError(f"{path}: would put a validation key inside a run folder; keep keys outside")
    key = os.urandom(KEY_BYTES)
    write_secret(path, key.hex().encode() + b"\n", what="validation key")
    return key_check(key)


def read_validation_key(path: Path, allow_readable: bool = False) -> bytes:
    """A validation (or book) key file: 64 hex digits; a secret, so refused if its group or others may
    read it, unless `allow_readable` (the commands' --allow-readable-secret)."""
    body = read_secret(path, "validation key", ValidationError, MAX_KEY_FILE_BYTES, allow_readable).strip()
    try:
        key = bytes.fromhex(body.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise ValidationError(f"{path}: a validation key file holds {2 * KEY_BYTES} hex digits")
    return key


# ---- the primitives, over many tickets at once ----------------------------------------------------

def file_keys(key: bytes, run_id: str) -> dict[str, bytes]:
    """The four AES-256 keys of one file: HKDF-SHA256(K, info = label || purpose || 0x00 || R)."""
    return {p: HKDF(hashes.SHA256(), 32, salt=None,
                    info=(_LABEL + p).encode("ascii") + b"\x00" + run_id.encode("utf-8")).derive(key)
            for p in PURPOSES}


def _aes(key: bytes, blocks: np.ndarray) -> np.ndarray:
    """AES-256 of every 16-byte row of `blocks` (n x 16 uint8), one ECB call."""
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    out = encryptor.update(np.ascontiguousarray(blocks, dtype=np.uint8).tobytes()) + encryptor.finalize()
    return np.frombuffer(out, dtype=np.uint8).reshape(-1, 16)


def _be(values: np.ndarray, width: int) -> np.ndarray:
    """Unsigned integers as `width`-byte big-endian rows (n x width uint8)."""
    full = np.asarray(values, dtype=np.uint64).astype(">u8").view(np.uint8).reshape(-1, 8)
    return full[:, 8 - width:]


def ticket_blocks(barcodes: np.ndarray, virns: np.ndarray, virn_digits: int) -> np.ndarray:
    """m for every ticket: B (7 bytes) || the VIRN's digit count (1 byte) || V (8 bytes)."""
    if not 1 <= virn_digits <= MAX_VIRN_DIGITS:
        raise ValueError(f"a validation number has 1 to {MAX_VIRN_DIGITS} digits, not {virn_digits}")
    m = np.empty((len(barcodes), 16), dtype=np.uint8)
    m[:, :7] = _be(barcodes, 7)
    m[:, 7] = virn_digits
    m[:, 8:] = _be(virns, 8)
    return m


def records(keys: dict[str, bytes], blocks: np.ndarray, prizes: np.ndarray) -> np.ndarray:
    """Every ticket's 32-byte record (n x 32 uint8, in the tickets' order) from its block m."""
    d = _aes(keys["index"], blocks)
    ct = _be(prizes, 8) ^ _aes(keys["pad"], blocks)[:, :8]
    second = _aes(keys["tag"], d).copy()
    second[:, :8] ^= ct
    out = np.empty((len(blocks), RECORD_BYTES), dtype=np.uint8)
    out[:, :16], out[:, 16:24], out[:, 24:] = d, ct, _aes(keys["tag"], second)[:, :8]
    return out


def knowns(keys: dict[str, bytes], barcodes: np.ndarray) -> np.ndarray:
    """Every ticket's 16-byte `known` value (n x 16 uint8), from its barcode number."""
    block = np.zeros((len(barcodes), 16), dtype=np.uint8)
    block[:, 8:] = _be(barcodes, 8)
    return _aes(keys["known"], block)


def sorted_rows(rows: np.ndarray, runs: bool = False) -> np.ndarray:
    """Fixed-width byte rows sorted by their bytes (numpy's S-dtype order is byte order); `runs`: rows
    that are sorted runs one after another (numpy's stable sort, a timsort, merges them).

    Rows in no order (AES outputs) are ordered by their first 8 bytes read as one big-endian integer:
    an argsort of integers, about half the CPU of sorting byte strings (issue 28); only if two rows
    share those 8 bytes are all their bytes sorted. Either way the same rows in the same order."""
    width = rows.shape[1]
    rows = np.ascontiguousarray(rows)
    if not runs and width >= 8 and len(rows) > 1:
        first = np.ascontiguousarray(rows[:, :8]).view(">u8").ravel().astype(np.uint64)
        order = np.argsort(first)
        ahead = first[order]
        if (ahead[1:] != ahead[:-1]).all():
            return rows[order]
    values = rows.view(f"S{width}").ravel()
    return np.sort(values, kind="stable" if runs else "quicksort").view(np.uint8).reshape(-1, width)


def _claim_block(barcode: str, virn: str) -> np.ndarray | None:
    """m of one claim, or None if the barcode or VIRN cannot be a ticket's."""
    if not (is_barcode_text(barcode)
            and 1 <= len(virn) <= MAX_VIRN_DIGITS and virn.isascii() and virn.isdigit()):
        return None
    return ticket_blocks(np.array([int(barcode)]), np.array([int(virn)]), len(virn))


def record(key: bytes, run_id: str, barcode: str, virn: str, value: int) -> bytes:
    """One ticket's record holding `value` (`plain`): `records` for a single ticket."""
    m = _claim_block(barcode, virn)
    if m is None:
        raise ValueError(f"{barcode}/{virn}: not a barcode number and validation number")
    return records(file_keys(key, run_id), m, np.array([value], dtype=np.uint64)).tobytes()


def derive(key: bytes, run_id: str, barcode: str, virn: str) -> bytes:
    """What a claim needs to find and open its record: D (its record's first 16 bytes, the lookup key)
    || AES(K_pad, m)[0:8]; 16 zero bytes || 8 zero bytes for a claim that cannot be a ticket's (found
    by no record: D is a random permutation's output, never chosen by us)."""
    m = _claim_block(barcode, virn)
    if m is None:
        return bytes(24)
    keys = _cached_keys(key, run_id)
    return _aes(keys["index"], m).tobytes() + _aes(keys["pad"], m).tobytes()[:8]


def open_body(key: bytes, run_id: str, d: bytes, body: bytes) -> int | None:
    """The value of a record's last 16 bytes (ciphertext || tag) found under d[0:16] (`derive`), or
    None if its tag fails (a changed or forged record)."""
    if len(body) != RECORD_BYTES - 16 or len(d) != 24:
        return None
    k_tag = _cached_keys(key, run_id)["tag"]
    second = bytearray(_aes(k_tag, np.frombuffer(d[:16], np.uint8).reshape(1, 16)).tobytes())
    second[:8] = bytes(a ^ b for a, b in zip(second[:8], body[:8], strict=True))
    tag = _aes(k_tag, np.frombuffer(bytes(second), np.uint8).reshape(1, 16)).tobytes()[:8]
    if not hmac.compare_digest(tag, body[8:]):
        return None
    return int.from_bytes(body[:8], "big") ^ int.from_bytes(d[16:24], "big")


@functools.lru_cache(maxsize=4)
def _cached_keys(key: bytes, run_id: str) -> dict[str, bytes]:
    """The file keys of (key, run) for one claim after another: derived once per desk, not per claim."""
    return file_keys(key, run_id)


def known(key: bytes, run_id: str, barcode: str) -> bytes:
    """One barcode's `known` value (16 zero bytes for a text that cannot be a barcode number)."""
    if not is_barcode_text(barcode):
        return bytes(KNOWN_BYTES)
    return knowns(_cached_keys(key, run_id), np.array([int(barcode)])).tobytes()


# ---- a file ---------------------------------------------------------------------------------------

def file_head(tier: str, key: bytes, run_id: str, game: int, threshold_cents: int, tickets: int) -> bytes:
    head = {"format": FORMAT, "tier": tier, "run_id": run_id, "game": game, "records": tickets,
            "record_bytes": RECORD_BYTES, "known_bytes": KNOWN_BYTES,
            "high_tier_cents": threshold_cents, "key_check": key_check(key)}
    return json.dumps(head, sort_keys=True, separators=(",", ":")).encode() + b"\n"


def plain(tier: str, threshold_cents: int, prize_cents: int, free: bool) -> int:
    """The value a `tier` file's record holds for a ticket of this prize (docs/validation.md, section 3)."""
    if prize_cents == 0:
        return 0
    if (prize_cents >= threshold_cents) != (tier == "high"):
        return OTHER_TIER
    return prize_cents | (FREE if free else 0)


def tier_values(tier: str, prizes: np.ndarray, free: np.ndarray, threshold_cents: int) -> np.ndarray:
    """`plain` for every ticket at once (uint64)."""
    prizes = np.asarray(prizes, dtype=np.int64)
    own = np.asarray(prizes, dtype=np.uint64) | np.where(np.asarray(free, dtype=bool), np.uint64(FREE),
                                                         np.uint64(0))
    values = np.where((prizes >= threshold_cents) == (tier == "high"), own, np.uint64(OTHER_TIER))
    return np.where(prizes == 0, np.uint64(0), values).astype(np.uint64)


def file_bytes(tier: str, key: bytes, run_id: str, game: int, threshold_cents: int,
               barcodes: np.ndarray, virns: np.ndarray, virn_digits: int, prizes: np.ndarray,
               free: np.ndarray) -> bytes:
    """The whole validation file of one tier ("low" or "high"); barcodes and VIRNs as integers,
    `free[i]`: ticket i's prize is a free ticket."""
    keys = file_keys(key, run_id)
    blocks = ticket_blocks(barcodes, virns, virn_digits)
    recs = records(keys, blocks, tier_values(tier, prizes, free, threshold_cents))
    head = file_head(tier, key, run_id, game, threshold_cents, len(recs))
    return head + sorted_rows(recs).tobytes() + sorted_rows(knowns(keys, barcodes)).tobytes()


@dataclass(frozen=True)
class ValidationFile:
    head: dict[str, Any]
    keys: np.ndarray  # S16, sorted
    bodies: np.ndarray  # S16: ciphertext || tag, in the order of keys
    known: np.ndarray  # S16, sorted

    @classmethod
    def read(cls, path: Path) -> ValidationFile:
        return cls.parse(Path(path).read_bytes(), path)

    @classmethod
    def parse(cls, data: bytes, path: Path) -> ValidationFile:
        """A validation file from its bytes (`path` names it in errors)."""
        end = data.find(b"\n")
        line = data[:end].decode("utf-8", errors="replace") if end > 0 else ""
        try:  # a header is one flat object: brackets nested deep are refused before the parser, whose C
            # recursion on 100,000 of them can overflow a thread's stack (a segfault, not a RecursionError)
            head = json.loads(line) if line and nesting_depth(line, JSON_STRING) <= MAX_NESTING else None
        except (ValueError, RecursionError):
            head = None
        n = head.get("records") if isinstance(head, dict) else None
        if not (isinstance(head, dict) and head.get("format") == FORMAT and type(n) is int and n >= 0
                and len(data) == end + 1 + n * (RECORD_BYTES + KNOWN_BYTES)):
            raise ValidationError(f"{path}: not a {FORMAT} file")
        assert isinstance(n, int)  # for mypy: checked just above
        body = np.frombuffer(data, dtype=np.uint8, offset=end + 1)
        recs = body[:n * RECORD_BYTES].reshape(n, RECORD_BYTES)
        return cls(head, np.ascontiguousarray(recs[:, :16]).view("S16").ravel(),
                   np.ascontiguousarray(recs[:, 16:]).view("S16").ravel(),
                   body[n * RECORD_BYTES:].copy().view("S16"))

    def lookup(self, key: bytes, run_id: str, barcode: str, virn: str) -> int | None:
        """The value a claim's record holds (`plain`: cents, FREE, OTHER_TIER), or None (no record; or
        a record whose tag fails)."""
        d = derive(key, run_id, barcode, virn)
        i = int(np.searchsorted(self.keys, d[:16]))
        if i >= len(self.keys) or bytes(self.keys[i]).ljust(16, b"\0") != d[:16]:
            return None
        return open_body(key, run_id, d, bytes(self.bodies[i]).ljust(16, b"\0"))

    def sorted_problem(self) -> str | None:
        """What is wrong with the order of the records or known values (each strictly ascending), or
        None. A lookup by binary search finds nothing in an unsorted file."""
        for name, column in (("records", self.keys), ("known values", self.known)):
            if len(column) > 1 and not bool(np.all(column[1:] > column[:-1])):
                return f"its {name} are not in strictly ascending order"
        return None

    def is_known(self, key: bytes, run_id: str, barcode: str) -> bool:
        if not is_barcode_text(barcode):
            return False
        k = known(key, run_id, barcode)
        i = int(np.searchsorted(self.known, k))
        return i < len(self.known) and bytes(self.known[i]).ljust(16, b"\0") == k
