"""Validation records against tests/vectors/validation.txt (made by a second implementation,
tests/vectors/reference_validation.py), from poolgen's side (one ticket and many at once) and audit's,
and the vectorised primitives against the one-ticket reference for random tickets."""

from __future__ import annotations

import numpy as np
import reference_validation as reference
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.steps.validation import Tickets, expected, values
from poolgen.deliverables.validation import (
    file_keys,
    key_check,
    known,
    knowns,
    plain,
    record,
    records,
    ticket_blocks,
    tier_values,
)
from tests.support import vector_lines


def _vectors() -> list[dict[str, str]]:
    lines = [line for line in vector_lines("validation.txt") if line]
    return [dict(part.split("=", 1) for part in line.split(" ")) for line in lines]


def test_the_vector_file_holds_sixteen_tickets():
    assert len(_vectors()) == 16


def test_one_ticket_at_a_time_gives_the_vectors():
    for v in _vectors():
        key = bytes.fromhex(v["key"])
        held = plain(v["tier"], int(v["threshold"]), int(v["prize"]), v["free"] == "1")
        assert held == int(v["value"])
        assert key_check(key) == v["key_check"]
        assert record(key, v["run"], v["barcode"], v["virn"], held).hex() == v["record"]
        assert known(key, v["run"], v["barcode"]).hex() == v["known"]


def test_many_at_once_and_audit_derive_the_vectors():
    for v in _vectors():
        tickets = Tickets(np.array([int(v["barcode"])]), np.array([int(v["virn"])]), len(v["virn"]),
                          np.array([int(v["prize"])]), np.array([v["free"] == "1"]))
        high, threshold = v["tier"] == "high", int(v["threshold"])
        held = tier_values(v["tier"], tickets.prizes, tickets.free, threshold)
        assert held.tolist() == values(high, threshold, tickets).tolist() == [int(v["value"])]
        keys = file_keys(bytes.fromhex(v["key"]), v["run"])
        got = records(keys, ticket_blocks(tickets.barcodes, tickets.virns, tickets.virn_digits), held)
        assert got.tobytes().hex() == v["record"]
        recs, knowns_ = expected(bytes.fromhex(v["key"]), v["run"], tickets, held)
        assert (recs.tobytes().hex(), knowns_.tobytes().hex()) == (v["record"], v["known"])


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.text("abc-_09", min_size=1, max_size=12),
       st.sampled_from(["low", "high"]),
       st.lists(st.tuples(st.integers(0, 10**15 - 1), st.integers(0, 10**12 - 1), st.integers(0, 2**61),
                          st.booleans()),
                min_size=1, max_size=20))
def test_many_tickets_at_once_are_the_reference_ticket_by_ticket(key, run_id, tier, tickets):
    columns = list(zip(*tickets, strict=True))
    barcodes, virns, prizes = (np.array(column, dtype=np.int64) for column in columns[:3])
    free = np.array([t[3] for t in tickets])
    keys = file_keys(key, run_id)
    held = tier_values(tier, prizes, free, 60000)
    got = records(keys, ticket_blocks(barcodes, virns, 12), held)
    got_known = knowns(keys, barcodes)
    for i, (b, v, p, f) in enumerate(tickets):
        want = reference.value(tier, 60000, p, f)
        assert int(held[i]) == want
        assert got[i].tobytes() == reference.record(key, run_id, f"{b:015d}", f"{v:012d}", want)
        assert got_known[i].tobytes() == reference.known(key, run_id, f"{b:015d}")
