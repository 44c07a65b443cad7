"""The ceremony's derivation, byte for byte (docs/ceremony.md, "Derivation"): the transcript that binds
the game, the commitments, the seed, and the messages the parties sign. audit/steps/ceremony.py
writes the same again without poolgen.
"""

from __future__ import annotations

import hashlib
from typing import Any


def lp(data: bytes) -> bytes:
    """`data`'s length as 8 bytes big-endian, then `data`."""
    return len(data).to_bytes(8, "big") + data


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def transcript_hash(t: dict[str, Any]) -> str:
    """The transcript's SHA-256 (hex) from its JSON form (the ceremony file's `transcript`): v4 for one that
    binds the printed game (`printed`, every ceremony `new` makes now); else, as they always hashed, v3
    for one that follows earlier orders (`follows`) and v2 for one that does not."""
    beacon = t["beacon"]
    data = (lp(t["id"].encode()) + lp(bytes.fromhex(t["spec_sha256"]))
            + lp(bytes.fromhex(t["code_sha256"])) + lp(t["game"].encode()) + u64(len(t["pools"]))
            + b"".join(lp(p.encode()) for p in t["pools"]) + lp(t["run_id"].encode())
            + u64(len(t["parties"]))
            + b"".join(lp(p["name"].encode()) + lp(bytes.fromhex(p["public_key"])) for p in t["parties"])
            + lp(bytes.fromhex(beacon["chain"])) + u64(beacon["round"])
            + lp(beacon["reveals_close"].encode()))
    if "follows" not in t and "printed" not in t:  # v2: transcripts made before `follows` hash as they did
        if "book_key_check" in t:  # only when bound: transcripts without one hash as before
            data += lp(bytes.fromhex(t["book_key_check"]))
        return hashlib.sha256(b"poolgen/ceremony/transcript/v2" + data).hexdigest()
    check = t.get("book_key_check")
    data += u64(0) if check is None else u64(1) + lp(bytes.fromhex(check))
    data += u64(len(t.get("follows", []))) + b"".join(
        lp(f["run_id"].encode()) + lp(bytes.fromhex(f["manifest_sha256"]))
        + lp(bytes.fromhex(f["transcript_sha256"])) for f in t.get("follows", []))
    if "printed" not in t:  # v3: a reorder's transcript made before `printed`
        return hashlib.sha256(b"poolgen/ceremony/transcript/v3" + data).hexdigest()
    number = t["printed"]["number"]
    data += (u64(0) if number is None else u64(1) + u64(number)) + lp(t["printed"]["regulation"].encode())
    return hashlib.sha256(b"poolgen/ceremony/transcript/v4" + data).hexdigest()


def commitment(transcript: str, name: str, value: bytes) -> str:
    """A party's commitment to its 32-byte contribution (hex)."""
    return hashlib.sha256(b"poolgen/ceremony/commitment/v2" + bytes.fromhex(transcript) + lp(name.encode())
                          + lp(value)).hexdigest()


def commitments_hash(transcript: str, pairs: list[tuple[str, str]]) -> str:
    """Every (name, commitment) in listed order, closed under the transcript (hex)."""
    data = b"".join(lp(n.encode()) + bytes.fromhex(c) for n, c in pairs)
    return hashlib.sha256(b"poolgen/ceremony/commitments/v2" + bytes.fromhex(transcript) + data).hexdigest()


def seed(commitments: str, reveals: list[tuple[str, bytes]], round_number: int, randomness: str) -> bytes:
    """The run seed: the closed commitments, every reveal in listed order, and the beacon round."""
    data = b"".join(lp(n.encode()) + lp(v) for n, v in reveals)
    return hashlib.sha256(b"poolgen/ceremony/seed/v2" + bytes.fromhex(commitments) + data + u64(round_number)
                          + lp(bytes.fromhex(randomness))).digest()


def commit_message(transcript: str, name: str, c: str) -> bytes:
    return b"poolgen/ceremony/commit/v2" + bytes.fromhex(transcript) + lp(name.encode()) + bytes.fromhex(c)


def reveal_message(commitments: str, name: str, value: bytes, revealed_at: str) -> bytes:
    return (b"poolgen/ceremony/reveal/v2" + bytes.fromhex(commitments) + lp(name.encode()) + lp(value)
            + lp(revealed_at.encode()))


def abort_message(transcript: str, name: str, reason: str) -> bytes:
    return b"poolgen/ceremony/abort/v2" + bytes.fromhex(transcript) + lp(name.encode()) + lp(reason.encode())
