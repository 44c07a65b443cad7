"""A third engine of the seed ceremony, written from docs/ceremony.md (with docs/randomness.md section 1,
docs/publish-and-reveal.md and docs/provenance.md) alone: it imports neither poolgen nor audit.

From a ceremony's public files (a manifest's `ceremony` entry, published bundles, the ceremony file with
every reveal once claims close) it recomputes the transcript, the commitments, the drand round's check and
the seed, and refuses what the contract says is refused, each with the contract's message. Every check
raises `Refused` (verification raises); nothing here returns a boolean a caller could forget."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from functools import cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

QUICKNET = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
QUICKNET_KEY = ("83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c"
                "8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb"
                "5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a")
GENESIS, PERIOD = 1692803367, 3
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
HEX64 = re.compile(r"[0-9a-f]{64}")
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


class Refused(Exception):
    """The contract refuses this; the message is the contract's."""


def lp(b: bytes) -> bytes:
    return len(b).to_bytes(8, "big") + b


def u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _x(h: str) -> bytes:
    return bytes.fromhex(h)


def transcript_hash(t: dict) -> str:
    """"Derivation": v4 for a transcript binding the printed game; before it v2, or v3 when it follows."""
    follows = t.get("follows")
    body = (lp(t["id"].encode()) + lp(_x(t["spec_sha256"])) + lp(_x(t["code_sha256"]))
            + lp(t["game"].encode()) + u64(len(t["pools"])) + b"".join(lp(p.encode()) for p in t["pools"])
            + lp(t["run_id"].encode()) + u64(len(t["parties"]))
            + b"".join(lp(p["name"].encode()) + lp(_x(p["public_key"])) for p in t["parties"])
            + lp(_x(t["beacon"]["chain"])) + u64(t["beacon"]["round"])
            + lp(t["beacon"]["reveals_close"].encode()))
    book, printed = t.get("book_key_check"), t.get("printed")
    if follows is None and printed is None:
        data = b"poolgen/ceremony/transcript/v2" + body + (lp(_x(book)) if book is not None else b"")
    else:
        data = (body + (u64(0) if book is None else u64(1) + lp(_x(book))) + u64(len(follows or []))
                + b"".join(lp(f["run_id"].encode()) + lp(_x(f["manifest_sha256"]))
                           + lp(_x(f["transcript_sha256"])) for f in follows or []))
        if printed is None:
            data = b"poolgen/ceremony/transcript/v3" + data
        else:
            number, regulation = printed["number"], printed["regulation"].encode()
            data = (b"poolgen/ceremony/transcript/v4" + data
                    + (u64(0) if number is None else u64(1) + u64(number)) + lp(regulation))
    return hashlib.sha256(data).hexdigest()


def commitment(transcript: str, name: str, value: bytes) -> str:
    return hashlib.sha256(b"poolgen/ceremony/commitment/v2" + _x(transcript) + lp(name.encode())
                          + lp(value)).hexdigest()


def commitments_hash(transcript: str, commitments: list[dict]) -> str:
    return hashlib.sha256(b"poolgen/ceremony/commitments/v2" + _x(transcript) + b"".join(
        lp(c["name"].encode()) + _x(c["commitment"]) for c in commitments)).hexdigest()


def derive_seed(closed: str, reveals: list[dict], round_number: int, randomness: str) -> bytes:
    return hashlib.sha256(b"poolgen/ceremony/seed/v2" + _x(closed) + b"".join(
        lp(r["name"].encode()) + lp(_x(r["value"])) for r in reveals) + u64(round_number)
        + lp(_x(randomness))).digest()


def seed_commitment(seed: bytes) -> str:
    """docs/randomness.md section 1: what a manifest records of its seed."""
    return hashlib.sha256(b"poolgen/seed-commitment/v1" + seed).hexdigest()


def published_at(round_number: int) -> int:
    return GENESIS + PERIOD * (round_number - 1)


def utc(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_seconds(text: str) -> int | None:
    """A UTC time YYYY-MM-DDTHH:MM:SSZ in Unix seconds; None for any other text (a 30 February too)."""
    if not TIME.fullmatch(text):
        return None
    try:
        return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp())
    except ValueError:
        return None


@cache
def round_verifies(round_number: int, signature: str) -> bool:
    """"The beacon": e(S, g2) = e(H(SHA-256(u64(R))), PK), S a compressed G1 point of prime order."""
    from py_ecc.bls.hash_to_curve import hash_to_G1
    from py_ecc.bls.point_compression import decompress_G1, decompress_G2
    from py_ecc.optimized_bls12_381 import G2, curve_order, is_inf, multiply, pairing

    try:
        raw = _x(signature)
        if len(raw) != 48:
            return False
        point = decompress_G1(int.from_bytes(raw, "big"))  # type: ignore[arg-type]
        if is_inf(point) or not is_inf(multiply(point, curve_order)):
            return False
        pk = _x(QUICKNET_KEY)
        key = decompress_G2((int.from_bytes(pk[:48], "big"), int.from_bytes(pk[48:], "big")))  # type: ignore
    except ValueError:
        return False
    message = hashlib.sha256(u64(round_number)).digest()
    return bool(pairing(G2, point) == pairing(key, hash_to_G1(message, DST, hashlib.sha256)))


def signed(public_key: str, signature: str, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(_x(public_key)).verify(_x(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


def check_rules(t: dict) -> None:
    """The rules of `new` but the clock, as "Verifying" writes step 5's and 7's refusals."""
    cid, parties = t["id"], t["parties"]
    if not 2 <= len(parties) <= 16:
        many = "party" if len(parties) == 1 else "parties"
        raise Refused(f"ceremony {cid} lists {len(parties)} secret {many}; a ceremony needs 2 to 16")
    seen: dict[str, str] = {}
    keys: dict[str, str] = {}
    for p in parties:
        if p["name"] in seen:
            raise Refused(f"ceremony {cid} names party '{p['name']}' twice")
        seen[p["name"]] = p["public_key"]
        if not HEX64.fullmatch(p["public_key"]):
            raise Refused(f"ceremony {cid}: party '{p['name']}': public key is not 64 lower-case hex digits")
        if p["public_key"] in keys:
            raise Refused(f"ceremony {cid}: parties '{keys[p['public_key']]}' and '{p['name']}' have the "
                          "same key; each party has its own")
        keys[p["public_key"]] = p["name"]
    beacon = t["beacon"]
    if beacon["chain"] != QUICKNET:
        raise Refused(f"beacon chain {beacon['chain']} is not one this verifier knows (quicknet {QUICKNET})")
    close = beacon["reveals_close"]
    if published_at(beacon["round"]) > 253402300799:  # 9999-12-31T23:59:59Z: no later time is written
        raise Refused(f"round {beacon['round']} is published after 9999-12-31T23:59:59Z, the last time a "
                      "ceremony can name")
    at = published_at(beacon["round"])
    closes = utc_seconds(close)
    if closes is None:
        raise Refused(f"reveals_close '{close}' is not a UTC time YYYY-MM-DDTHH:MM:SSZ")
    if at <= closes:
        raise Refused(f"round {beacon['round']} is published at {utc(at)}, not after reveals close ({close})")
    made_before = "printed" not in t and at < utc_seconds("2026-12-05T00:00:00Z")  # round due before the rule
    if at - closes < 600 and not made_before:
        raise Refused(f"round {beacon['round']} is published at {utc(at)}, {at - closes} s after reveals "
                      f"close ({close}), not the 600 s (10 minutes) a party needs to see a reveal arrive "
                      "after the close")


def check_round(entry: dict, named: int, cid: str) -> None:
    """A manifest's (or sealed file's) round: the named one, its randomness the hash of its signature, and
    the BLS signature verifying against quicknet's key."""
    number = entry["round"]
    if number != named:
        raise Refused(f"the manifest's drand round is not the one ceremony {cid} named ({named})")
    if hashlib.sha256(_x(entry["signature"])).hexdigest() != entry["randomness"]:
        raise Refused(f"the manifest's drand round {number}: its randomness is not the SHA-256 of its "
                      "signature")
    if not round_verifies(number, entry["signature"]):
        raise Refused(f"the manifest's drand round {number}: its signature does not verify against chain "
                      "quicknet's public key (randomness nobody can check: the seed could have been chosen)")


def check_commitments(t: dict, transcript: str, commitments: list) -> None:
    for party, c in zip(t["parties"], commitments, strict=True):
        if c is None or c["name"] != party["name"]:
            raise Refused(f"commitments are not in the parties' order at '{party['name']}'")
        message = (b"poolgen/ceremony/commit/v2" + _x(transcript) + lp(c["name"].encode())
                   + _x(c["commitment"]))
        if not signed(party["public_key"], c["signature"], message):
            raise Refused(f"party '{party['name']}': the commitment's signature is not by its listed key")


def check_entry(manifest: dict, spec_sha256: str | None = None) -> dict:
    """Step 5 on a manifest's `ceremony` entry, without bundles; the entry."""
    entry = manifest["ceremony"]
    if entry.get("format") != "poolgen-ceremony/2":
        raise Refused("the manifest's ceremony is not 'poolgen-ceremony/2'")
    t = entry["transcript"]
    if transcript_hash(t) != entry["transcript_sha256"]:
        raise Refused("the manifest's ceremony transcript does not hash to its transcript_sha256")
    check_rules(t)
    bound = {"spec SHA-256": (manifest["spec"]["sha256"], t["spec_sha256"]),
             "code SHA-256": (manifest["tool"]["code"]["sha256"], t["code_sha256"]),
             "game": (manifest["game"]["rules"], t["game"]),
             "pools": ([p["id"] for p in manifest["pools"]], t["pools"]),
             "run id": (manifest["run_id"], t["run_id"]),
             "book key check": ((manifest.get("print") or {}).get("book_key_check"), t.get("book_key_check"))}
    if "printed" in t:  # v4: the printed game's number and regulation, as the manifest's game entry has them
        g = manifest["game"]
        bound["printed"] = ((g.get("number"), g.get("regulation")),
                            (t["printed"]["number"], t["printed"]["regulation"]))
    differ = [k for k, (a, b) in bound.items() if a != b]
    if differ:
        raise Refused(f"the run is not the one ceremony {t['id']} binds: {', '.join(differ)}")
    if spec_sha256 is not None and spec_sha256 != t["spec_sha256"]:
        raise Refused(f"the spec given hashes to {spec_sha256[:8]}... (bound: {t['spec_sha256'][:8]}...)")
    follows = t.get("follows")
    if follows is not None and (not isinstance(follows, list) or not follows):
        raise Refused(f"ceremony {t['id']}: follows is not a list of earlier orders")
    for i, f in enumerate(follows or []):
        if f["run_id"] == t["run_id"]:
            raise Refused(f"ceremony {t['id']} follows run {f['run_id']}, its own run id")
        if not (HEX64.fullmatch(f["manifest_sha256"]) and HEX64.fullmatch(f["transcript_sha256"])):
            raise Refused(f"ceremony {t['id']}: follows[{i}] is not a run id, a manifest's and a "
                          "transcript's SHA-256 in 64 lower-case hex digits")
    check_commitments(t, entry["transcript_sha256"], entry["commitments"])
    if commitments_hash(entry["transcript_sha256"], entry["commitments"]) != entry["commitments_sha256"]:
        raise Refused("the commitments do not recompute to the manifest's commitments_sha256")
    check_round(entry["round"], t["beacon"]["round"], t["id"])
    return entry


def ceremony_seed(manifest: dict, doc: dict) -> bytes:
    """Step 7 with `--ceremony FILE`, in the contract's order; the seed (never printed)."""
    entry, t = manifest["ceremony"], doc["transcript"]
    if doc["transcript_sha256"] != entry["transcript_sha256"]:
        raise Refused(f"the ceremony file is ceremony '{t['id']}' (transcript "
                      f"{doc['transcript_sha256'][:16]}...), the run's is '{entry['transcript']['id']}' "
                      f"(transcript {entry['transcript_sha256'][:16]}...)")
    if transcript_hash(t) != entry["transcript_sha256"]:
        raise Refused("the transcript does not recompute to the manifest's transcript_sha256")
    check_rules(t)
    check_abort(t, entry["transcript_sha256"], doc.get("abort"), refuse=True)
    if doc["commitments"] != entry["commitments"] or doc["round"] != entry["round"]:
        raise Refused("the ceremony file's commitments or round are not the manifest's")
    check_commitments(t, doc["transcript_sha256"], doc["commitments"])
    closed = commitments_hash(doc["transcript_sha256"], doc["commitments"])
    close = t["beacon"]["reveals_close"]
    for party, c, r in zip(t["parties"], doc["commitments"], doc["reveals"], strict=True):
        name = party["name"]
        if r is None or r["name"] != name:
            raise Refused(f"no reveal from party '{name}'")
        if not re.fullmatch(r"[0-9a-fA-F]*", r["value"]) or len(r["value"]) % 2:
            raise Refused(f"party '{name}': its contribution is not hex")
        value = _x(r["value"])
        if len(value) != 32:
            raise Refused(f"party '{name}': its contribution is {len(value)} bytes, not 32")
        message = (b"poolgen/ceremony/reveal/v2" + _x(closed) + lp(name.encode()) + lp(value)
                   + lp(r["revealed_at"].encode()))
        if not signed(party["public_key"], r["signature"], message):
            raise Refused(f"party '{name}': the reveal's signature is not by its listed key")
        if commitment(doc["transcript_sha256"], name, value) != c["commitment"]:
            raise Refused(f"the reveal of {name} does not match its commitment")
        at = utc_seconds(r["revealed_at"])
        if at is None:
            raise Refused(f"party '{name}': revealed_at '{r['revealed_at']}' is not a UTC time "
                          "YYYY-MM-DDTHH:MM:SSZ")
        if at >= (utc_seconds(close) or 0):
            raise Refused(f"party '{name}' revealed at {r['revealed_at']}, after reveals closed at {close}")
    rnd = doc["round"]
    if rnd["round"] != t["beacon"]["round"] or not round_verifies(rnd["round"], rnd["signature"]):
        raise Refused(f"the signature of round {rnd['round']} does not verify against chain quicknet's "
                      "public key")
    if hashlib.sha256(_x(rnd["signature"])).hexdigest() != rnd["randomness"]:
        raise Refused("randomness is not the SHA-256 of the round's signature")
    seed = derive_seed(closed, doc["reveals"], rnd["round"], rnd["randomness"])
    if seed_commitment(seed) != manifest["seed_commitment"]["value"]:
        raise Refused("the seed derived from the ceremony is not the manifest's seed commitment")
    return seed


def check_abort(t: dict, transcript: str, abort: dict | None, refuse: bool = False) -> str | None:
    """An abort's signer, its signature checked over the abort message; None when there is none."""
    if abort is None:
        return None
    keys = {p["name"]: p["public_key"] for p in t["parties"]}
    if abort["name"] not in keys:
        raise Refused("the ceremony file records an abort by no listed party")
    message = (b"poolgen/ceremony/abort/v2" + _x(transcript) + lp(abort["name"].encode())
               + lp(abort["reason"].encode()))
    if not signed(keys[abort["name"]], abort["signature"], message):
        raise Refused(f"party '{abort['name']}': the abort's signature is not by its listed key")
    if refuse:
        raise Refused(f"ceremony {t['id']} was aborted by {abort['name']} ({abort['reason']}): an aborted "
                      "ceremony seeds no run")
    return str(abort["name"])
