"""A third engine for a printed run's validation files, as a lottery's central validation system would
write one: from docs/validation.md sections 2 and 3 and docs/back-office.md section 3 alone (the
record, the header, the lookup of a claim), with the `cryptography` package's HKDF and AES.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it). Given a run's
tickets (barcode, VIRN, prize, free), it writes a validation file's exact bytes; given a file and its
key, it opens every record and answers a claim as a clerk's terminal does."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

import numpy as np
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

FREE = 1 << 62
OTHER_TIER = 1 << 63
AMOUNT = FREE - 1


def check_digits(data: int) -> int:
    """ISO/IEC 7064 MOD 97-10 over the 13 (or 14) data digits: 98 - (N * 100 mod 97)."""
    return 98 - (data * 100 % 97)


def game_digits(game: int) -> str:
    """The game number as section 2 writes it: at least three digits (GGG, leading zeros), four for a
    game numbered 1000 to 9999 (GGGG)."""
    return str(game).rjust(3, "0")


def barcode(game: int, book: int, ticket_no: int) -> str:
    """`GGG BBBBBBB TTT CC` without its spaces: 15 digits, 1 mod 97 (`GGGG ...`, 16, from game 1000)."""
    data = f"{game_digits(game)}{book:07d}{ticket_no:03d}"
    return f"{data}{check_digits(int(data)):02d}"


def barcode_shaped(text: str) -> bool:
    """15 ASCII digits, or 16 whose first is not 0 (section 2: such a text is no barcode number)."""
    return (text.isascii() and text.isdigit()
            and (len(text) == 15 or (len(text) == 16 and not text.startswith("0"))))


def is_barcode(text: str) -> bool:
    return barcode_shaped(text) and int(text) % 97 == 1


def key_check(key: bytes) -> str:
    return hmac.new(key, b"poolgen/validation/v1/key-check", hashlib.sha256).digest()[:8].hex()


def purpose_key(key: bytes, purpose: str, run_id: str) -> bytes:
    info = b"poolgen/validation/v2/" + purpose.encode("ascii") + b"\x00" + run_id.encode("utf-8")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(key)


def _aes(key: bytes, blocks: bytes) -> bytes:
    """AES-256 applied to each 16-byte block on its own."""
    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(blocks) + encryptor.finalize()


def _blocks(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=np.uint8).reshape(-1, 16)


@dataclass(frozen=True)
class Keys:
    """The four AES keys of one file (run, tier key)."""

    index: bytes
    pad: bytes
    tag: bytes
    known: bytes

    @classmethod
    def of(cls, key: bytes, run_id: str) -> Keys:
        return cls(*(purpose_key(key, p, run_id) for p in ("index", "pad", "tag", "known")))


def messages(barcodes: list[str], virns: list[str]) -> bytes:
    """m = B (7 bytes, big-endian) || the VIRN's digits as 1 byte || V (8 bytes, big-endian), a ticket.
    The length is the VIRN's as printed (a file's VIRNs are all `virn_digits` long), so a VIRN typed
    without a leading zero is another m."""
    return b"".join(int(b).to_bytes(7, "big") + bytes([len(v)]) + int(v).to_bytes(8, "big")
                    for b, v in zip(barcodes, virns, strict=True))


def value(prize_cents: int, free: bool, high: bool, high_tier_cents: int) -> int:
    """What a file of tier `high` holds for a ticket paying `prize_cents`."""
    if prize_cents == 0:
        return 0
    if (prize_cents >= high_tier_cents) != high:
        return OTHER_TIER
    return prize_cents | (FREE if free else 0)


def records(keys: Keys, m: bytes, values: list[int]) -> list[bytes]:
    """Every ticket's 32-byte record D || ct || tag, in the order of `m`."""
    d = _aes(keys.index, m)
    pads = _blocks(_aes(keys.pad, m))[:, :8]
    vals = np.frombuffer(b"".join(v.to_bytes(8, "big") for v in values), dtype=np.uint8).reshape(-1, 8)
    ct = vals ^ pads
    second = np.zeros((len(values), 16), dtype=np.uint8)
    second[:, :8] = ct
    first = _blocks(_aes(keys.tag, d))
    tags = _blocks(_aes(keys.tag, (first ^ second).tobytes()))[:, :8]
    rows = np.concatenate([_blocks(d), ct, tags], axis=1).tobytes()
    return [rows[i:i + 32] for i in range(0, len(rows), 32)]


def known(keys: Keys, barcodes: list[str]) -> list[bytes]:
    out = _aes(keys.known, b"".join(int(b).to_bytes(16, "big") for b in barcodes))
    return [out[i:i + 16] for i in range(0, len(out), 16)]


def header(tier: str, run_id: str, game: int, count: int, high_tier_cents: int, check: str) -> bytes:
    doc = {"format": "poolgen-validation/2", "tier": tier, "run_id": run_id, "game": game, "records": count,
           "record_bytes": 32, "known_bytes": 16, "high_tier_cents": high_tier_cents, "key_check": check}
    # keys sorted, `,` and `:`, and every non-ASCII character as a \u escape: the header is ASCII
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii") + b"\n"


@dataclass(frozen=True)
class Ticket:
    barcode: str
    virn: str
    prize_cents: int
    free: bool


def validation_file(tickets: list[Ticket], key: bytes, tier: str, run_id: str, game: int,
                    high_tier_cents: int) -> bytes:
    """The file's exact bytes: header, records sorted, known values sorted."""
    keys = Keys.of(key, run_id)
    m = messages([t.barcode for t in tickets], [t.virn for t in tickets])
    vals = [value(t.prize_cents, t.free, tier == "high", high_tier_cents) for t in tickets]
    recs = records(keys, m, vals)
    knowns = known(keys, [t.barcode for t in tickets])
    return (header(tier, run_id, game, len(tickets), high_tier_cents, key_check(key))
            + b"".join(sorted(recs)) + b"".join(sorted(knowns)))


@dataclass(frozen=True)
class Opened:
    """A validation file read by its holder: header, records by index D, known values."""

    head: dict
    by_index: dict[bytes, bytes]  # D -> ct || tag
    known: frozenset[bytes]
    keys: Keys

    @classmethod
    def read(cls, data: bytes, key: bytes) -> Opened:
        line, _, body = data.partition(b"\n")
        head = json.loads(line)
        # section 3: exactly nine fields, the counts and amounts JSON integers (465.0 and true are not, as
        # docs/back-office.md section 2's desk refuses them), written in canonical form
        assert sorted(head) == ["format", "game", "high_tier_cents", "key_check", "known_bytes",
                                "record_bytes", "records", "run_id", "tier"], f"header fields {sorted(head)}"
        assert all(type(head[k]) is int for k in ("game", "records", "record_bytes", "known_bytes",
                                                  "high_tier_cents")), "a header count not a JSON integer"
        assert line == json.dumps(head, sort_keys=True, separators=(",", ":")).encode(), "header form"
        n = head["records"]
        assert len(body) == 48 * n, f"{len(body)} bytes of records and known values for {n} tickets"
        assert head["key_check"] == key_check(key), "another key's file"
        recs = [body[i:i + 32] for i in range(0, 32 * n, 32)]
        return cls(head, {r[:16]: r[16:] for r in recs},
                   frozenset(body[32 * n + i:32 * n + i + 16] for i in range(0, 16 * n, 16)),
                   Keys.of(key, head["run_id"]))

    def knows(self, barcode_text: str) -> bool:
        return known(self.keys, [barcode_text])[0] in self.known

    def open(self, barcode_text: str, virn: str) -> int | None:
        """The ticket's value, or None when no record has its index or the record's tag fails."""
        m = messages([barcode_text], [virn])
        d = _aes(self.keys.index, m)
        rest = self.by_index.get(d)
        if rest is None:
            return None
        ct, tag = rest[:8], rest[8:]
        inner = bytes(a ^ b for a, b in zip(_aes(self.keys.tag, d), ct + bytes(8), strict=True))
        if _aes(self.keys.tag, inner)[:8] != tag:
            return None
        pad = _aes(self.keys.pad, m)[:8]
        return int.from_bytes(bytes(a ^ b for a, b in zip(ct, pad, strict=True)), "big")


def ticket_barcode(text: str, game_of: int | None = None) -> str | None:
    """A claim's ticket, as a barcode number: the 15 (or 16) digits, or a printed id `GGG-BBBBBBB-TTT`
    (`GGGG-BBBBBBB-TTT`, its first digit not 0) with its check digits computed; None when it is neither."""
    if barcode_shaped(text):
        return text
    parts = text.split("-")
    if [len(p) for p in parts][1:] == [7, 3] and all(p.isascii() and p.isdigit() for p in parts) \
            and (len(parts[0]) == 3 or (len(parts[0]) == 4 and not parts[0].startswith("0"))):
        return barcode(int(parts[0]), int(parts[1]), int(parts[2]))
    return None


def answer(files: list[Opened], ticket: str, virn: str, virn_digits: int) -> dict:
    """docs/back-office.md section 3's outcome of one claim at a desk holding `files` (one per tier held):
    outcome, prize_cents (a prize's alone; None otherwise, a loser's included), free_ticket."""
    code = ticket_barcode(ticket)
    if code is None or not is_barcode(code):
        return {"outcome": "not a barcode number", "prize_cents": None, "free_ticket": False}
    if not all(f.knows(code) for f in files):
        return {"outcome": "unknown ticket", "prize_cents": None, "free_ticket": False}
    if len(virn) != virn_digits:  # not the printed VIRN: its m is no record's
        return {"outcome": "wrong validation number", "prize_cents": None, "free_ticket": False}
    values = [f.open(code, virn) for f in files]
    if any(v is None for v in values):
        return {"outcome": "wrong validation number", "prize_cents": None, "free_ticket": False}
    prizes = [v for v in values if v is not None and v & AMOUNT]
    if len(prizes) > 1:
        raise ValueError("two tiers both claim the ticket")
    if prizes:
        return {"outcome": "prize", "prize_cents": prizes[0] & AMOUNT, "free_ticket": bool(prizes[0] & FREE)}
    if any(v == OTHER_TIER for v in values):
        return {"outcome": "claim elsewhere", "prize_cents": None, "free_ticket": False}
    return {"outcome": "not a winner", "prize_cents": None, "free_ticket": False}
