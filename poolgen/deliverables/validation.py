"""Validation files for the central system and the keys that open them (docs/validation.md, section 3).

A validation key is 32 secret bytes (64 hex digits in a mode-0600 file, never inside a run folder).
For a ticket with barcode number B and validation number V in run R, under key K:

    D      = HMAC-SHA256(K, "poolgen/validation/v1/record" || 0x00 || R || 0x00 || B || 0x00 || V)
    record = D[0:16] || (value as 8-byte big-endian XOR D[16:24]) || tag
    tag    = HMAC-SHA256(K, "poolgen/validation/v1/tag" || D[0:16] || ciphertext)[0:8]
    known  = HMAC-SHA256(K, "poolgen/validation/v1/ticket" || 0x00 || R || 0x00 || B)[0:16]

`value` (format 2, `plain`): a loser 0; a prize of the file's tier its cents, with bit 62 (FREE) set
for a free ticket; a prize of the other tier bit 63 (OTHER_TIER) alone, never its amount. The
low-tier file holds prizes below the high-tier threshold, the high-tier file, under its own key,
prizes at or above it. A file is one header line of canonical JSON, then every ticket's 32-byte record
sorted by its first 16 bytes, then every ticket's 16-byte `known` value, sorted.
"""

from __future__ import annotations

import hmac
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from poolgen.errors import PoolgenError
from poolgen.files.read import read_input

KEY_BYTES = 32
RECORD_BYTES = 32
KNOWN_BYTES = 16
FORMAT = "poolgen-validation/2"
OTHER_TIER = 1 << 63  # a prize of the other tier: claim it at the other desk (amount not held)
FREE = 1 << 62  # a free ticket (its cents: the ticket price)
CENTS = FREE - 1  # the amount's bits
TIERS = {"low": "validation-low.bin", "high": "validation-high.bin"}
_RECORD = b"poolgen/validation/v1/record\x00"
_TAG = b"poolgen/validation/v1/tag"
_KNOWN = b"poolgen/validation/v1/ticket\x00"
_CHECK = b"poolgen/validation/v1/key-check"


class ValidationError(PoolgenError):
    """A validation key or file that cannot be used."""


def key_check(key: bytes) -> str:
    """A public check value naming the key without revealing it: HMAC(K, label)[0:8] in hex."""
    return hmac.digest(key, _CHECK, "sha256")[:8].hex()


def new_validation_key(path: Path) -> str:
    """Create a new validation key file (mode 0600, never overwritten); returns its check value."""
    from poolgen.files.write import write_secret  # noqa: PLC0415

    folder = Path(path).resolve().parent
    if any((f / "manifest.json").exists() for f in (folder, *folder.parents)):
        raise ValidationError(f"{path}: would put a validation key inside a run folder; keep keys outside")
    key = os.urandom(KEY_BYTES)
    write_secret(path, key.hex().encode() + b"\n", what="validation key")
    return key_check(key)


def read_validation_key(path: Path) -> bytes:

    body = read_input(path, "validation key", ValidationError).strip()
    try:
        key = bytes.fromhex(body.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise ValidationError(f"{path}: a validation key file holds {2 * KEY_BYTES} hex digits")
    return key


def _sep(*parts: str) -> bytes:
    return b"\x00".join(p.encode("ascii") for p in parts)


def record(key: bytes, run_id: str, barcode: str, virn: str, prize_cents: int) -> bytes:
    d = derive(key, run_id, barcode, virn)
    ct = (prize_cents ^ int.from_bytes(d[16:24], "big")).to_bytes(8, "big")
    return d[:16] + ct + hmac.digest(key, _TAG + d[:16] + ct, "sha256")[:8]


def known(key: bytes, run_id: str, barcode: str) -> bytes:
    return hmac.digest(key, _KNOWN + _sep(run_id, barcode), "sha256")[:KNOWN_BYTES]


def plain(tier: str, threshold_cents: int, prize_cents: int, free: bool) -> int:
    """The value a `tier` file's record holds for a ticket of this prize (docs/validation.md, section 3)."""
    if prize_cents == 0:
        return 0
    if (prize_cents >= threshold_cents) != (tier == "high"):
        return OTHER_TIER
    return prize_cents | (FREE if free else 0)


def file_bytes(tier: str, key: bytes, run_id: str, game: int, threshold_cents: int,
               barcodes: list[str], virns: list[str], prizes: list[int], free: list[bool]) -> bytes:
    """The whole validation file of one tier ("low" or "high"); `free[i]`: ticket i's prize is a free
    ticket."""
    recs = sorted(record(key, run_id, b, v, plain(tier, threshold_cents, p, f))
                  for b, v, p, f in zip(barcodes, virns, prizes, free, strict=True))
    tags = sorted(known(key, run_id, b) for b in barcodes)
    head = {"format": FORMAT, "tier": tier, "run_id": run_id, "game": game, "records": len(recs),
            "record_bytes": RECORD_BYTES, "known_bytes": KNOWN_BYTES,
            "high_tier_cents": threshold_cents, "key_check": key_check(key)}
    line = json.dumps(head, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    return line + b"".join(recs) + b"".join(tags)


def derive(key: bytes, run_id: str, barcode: str, virn: str) -> bytes:
    """D of a claim: its record's first 16 bytes are D[0:16] (the record's lookup key)."""
    return hmac.digest(key, _RECORD + _sep(run_id, barcode, virn), "sha256")


def open_body(key: bytes, d: bytes, body: bytes) -> int | None:
    """The value of a record's last 16 bytes (ciphertext || tag) found under D[0:16], or None if its
    tag fails (a changed or forged record)."""
    if len(body) != RECORD_BYTES - 16:
        return None
    if not hmac.compare_digest(hmac.digest(key, _TAG + d[:16] + body[:8], "sha256")[:8], body[8:]):
        return None
    return int.from_bytes(body[:8], "big") ^ int.from_bytes(d[16:24], "big")


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
        try:
            head = json.loads(data[:end]) if end > 0 else None
        except ValueError:
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
        return open_body(key, d, bytes(self.bodies[i]).ljust(16, b"\0"))

    def sorted_problem(self) -> str | None:
        """What is wrong with the order of the records or known values (each strictly ascending), or
        None. A lookup by binary search finds nothing in an unsorted file."""
        for name, column in (("records", self.keys), ("known values", self.known)):
            if len(column) > 1 and not bool(np.all(column[1:] > column[:-1])):
                return f"its {name} are not in strictly ascending order"
        return None

    def is_known(self, key: bytes, run_id: str, barcode: str) -> bool:
        k = known(key, run_id, barcode)
        i = int(np.searchsorted(self.known, k))
        return i < len(self.known) and bytes(self.known[i]).ljust(16, b"\0") == k
