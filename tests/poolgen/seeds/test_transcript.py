"""The ceremony's transcript hash (poolgen/seeds/transcript.py, docs/ceremony.md "Derivation") is one
to one over what it binds: transcripts that differ only in where one field ends and the next begins,
in how many pools or parties there are, in a book key bound or not, or in the earlier orders
followed, hash apart, and audit's copy of the derivation (audit/steps/ceremony.py) gives the same hash
for each."""

from __future__ import annotations

import copy
import hashlib

from audit.steps.ceremony import transcript_hash as audit_hash
from poolgen.seeds.transcript import transcript_hash
from tests.support.ceremony import CLOSE, QUICKNET, ROUND

BASE = {"id": "c1", "spec_sha256": "ab" * 32, "code_sha256": "cd" * 32, "game": "wild_side",
        "pools": ["p1", "p2"], "run_id": "r",
        "parties": [{"name": "vendor", "public_key": "11" * 32},
                    {"name": "lottery", "public_key": "22" * 32}],
        "beacon": {"chain": QUICKNET, "round": ROUND, "reveals_close": CLOSE}}


FOLLOWED = {"run_id": "r0", "manifest_sha256": "ee" * 32, "transcript_sha256": "ff" * 32}


def _with(**changes) -> dict:
    t = copy.deepcopy(BASE)
    for key, value in changes.items():
        t[key] = value
    return t


def test_transcripts_that_differ_only_in_a_boundary_hash_apart():
    variants = [
        BASE,
        _with(pools=["p1p2"]),  # two pools or one pool whose id is both ids
        _with(pools=["p1", "p2r"], run_id=""),  # the run id's text moved into the last pool
        _with(id="c1w", game="ild_side"),  # the id's end moved into the game
        _with(game="wild_side", pools=["p1", "p2", "r"], run_id=""),  # the run id as a third pool
        _with(parties=[{"name": "vendo", "public_key": "11" * 32},  # a name's end moved into the next
                       {"name": "rlottery", "public_key": "22" * 32}]),
        _with(book_key_check="00" * 8),  # a book key bound: optional
        _with(follows=[FOLLOWED]),  # an earlier order followed (v3)
        _with(follows=[FOLLOWED], book_key_check="00" * 8),
        _with(follows=[{**FOLLOWED, "run_id": "r0" + "\x00" * 7}]),  # the run id's end moved on
        _with(follows=[FOLLOWED, {**FOLLOWED, "run_id": "r9"}]),  # two earlier orders
        _with(beacon={"chain": QUICKNET, "round": ROUND, "reveals_close": CLOSE + "\x00" * 8}),
    ]
    hashes = [transcript_hash(t) for t in variants]
    assert len(set(hashes)) == len(variants)
    assert [audit_hash(t) for t in variants] == hashes


def test_a_transcript_that_follows_no_order_hashes_as_v2_did_and_one_that_does_as_v3():
    # ceremonies made before `follows` existed keep their hash (their commitments sign it); one naming
    # an earlier order hashes under another tag, so no v2 transcript can stand for it
    v2 = hashlib.sha256(b"poolgen/ceremony/transcript/v2" + _body(BASE)).hexdigest()
    assert transcript_hash(BASE) == audit_hash(BASE) == v2
    keyed = _with(book_key_check="0123456789abcdef")
    assert transcript_hash(keyed) == hashlib.sha256(b"poolgen/ceremony/transcript/v2" + _body(keyed)
                                                    + _lp(bytes.fromhex("0123456789abcdef"))).hexdigest()
    follows = _with(follows=[FOLLOWED])
    v3 = hashlib.sha256(b"poolgen/ceremony/transcript/v3" + _body(BASE) + (0).to_bytes(8, "big")
                        + (1).to_bytes(8, "big") + _lp(b"r0") + _lp(b"\xee" * 32) + _lp(b"\xff" * 32))
    assert transcript_hash(follows) == audit_hash(follows) == v3.hexdigest()


def _lp(b: bytes) -> bytes:
    return len(b).to_bytes(8, "big") + b


def _body(t: dict) -> bytes:
    """docs/ceremony.md's transcript fields up to reveals_close, written out again."""
    return (_lp(t["id"].encode()) + _lp(bytes.fromhex(t["spec_sha256"]))
            + _lp(bytes.fromhex(t["code_sha256"])) + _lp(t["game"].encode())
            + len(t["pools"]).to_bytes(8, "big")
            + b"".join(_lp(p.encode()) for p in t["pools"]) + _lp(t["run_id"].encode())
            + len(t["parties"]).to_bytes(8, "big")
            + b"".join(_lp(p["name"].encode()) + _lp(bytes.fromhex(p["public_key"])) for p in t["parties"])
            + _lp(bytes.fromhex(t["beacon"]["chain"])) + t["beacon"]["round"].to_bytes(8, "big")
            + _lp(t["beacon"]["reveals_close"].encode()))
