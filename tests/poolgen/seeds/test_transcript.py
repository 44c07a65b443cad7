"""The ceremony's transcript hash (poolgen/seeds/transcript.py, docs/ceremony.md "Derivation") is one
to one over what it binds: transcripts that differ only in where one field ends and the next begins,
in how many pools or parties there are, or in a book key bound or not, hash apart, and audit's copy of
the derivation (audit/steps/ceremony.py) gives the same hash for each."""

from __future__ import annotations

import copy

from audit.steps.ceremony import transcript_hash as audit_hash
from poolgen.seeds.transcript import transcript_hash
from tests.support.ceremony import CLOSE, QUICKNET, ROUND

BASE = {"id": "c1", "spec_sha256": "ab" * 32, "code_sha256": "cd" * 32, "game": "wild_side",
        "pools": ["p1", "p2"], "run_id": "r",
        "parties": [{"name": "vendor", "public_key": "11" * 32},
                    {"name": "lottery", "public_key": "22" * 32}],
        "beacon": {"chain": QUICKNET, "round": ROUND, "reveals_close": CLOSE}}


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
        _with(book_key_check="00" * 8),  # a book key bound: the only optional field
        _with(beacon={"chain": QUICKNET, "round": ROUND, "reveals_close": CLOSE + "\x00" * 8}),
    ]
    hashes = [transcript_hash(t) for t in variants]
    assert len(set(hashes)) == len(variants)
    assert [audit_hash(t) for t in variants] == hashes
