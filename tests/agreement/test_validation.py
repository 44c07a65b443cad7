"""Validation records, format 2 (docs/validation.md, section 3): poolgen's writer and audit's step 9 both
agree with the stand-alone reference's known answers (tests/vectors/validation.txt, its first 12 lines:
one run's six tickets in both tiers' files)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from audit.errors import VerificationError
from audit.steps.validation import Tickets, check_validation
from poolgen.deliverables.validation import TIERS, file_bytes, key_check, known, plain, record
from tests.support import vector_lines

KEY = hashlib.sha256(b"poolgen validation vector key").digest()
RUN, THRESHOLD = "vector-run", 60000


def _vectors() -> list[tuple[str, str, str, int, bool, str, str]]:
    out = []
    for line in vector_lines("validation.txt"):
        v = dict(part.split("=", 1) for part in line.split(" "))
        if v["key"] == KEY.hex() and v["run"] == RUN:
            out.append((v["tier"], v["barcode"], v["virn"], int(v["prize"]), v["free"] == "1", v["record"],
                        v["known"]))
    return out


def _tickets(tickets: list[tuple[str, str, int, bool]]) -> Tickets:
    return Tickets(np.array([int(t[0]) for t in tickets]), np.array([int(t[1]) for t in tickets]), 12,
                   np.array([t[2] for t in tickets]), np.array([t[3] for t in tickets]))


def test_poolgen_writes_the_reference_records():
    vectors = _vectors()
    assert len(vectors) == 12
    for tier, b, v, p, f, rec, kn in vectors:
        assert record(KEY, RUN, b, v, plain(tier, THRESHOLD, p, f)).hex() == rec
        assert known(KEY, RUN, b).hex() == kn


@pytest.mark.parametrize("tier", list(TIERS))
def test_audit_accepts_the_reference_file_and_refuses_a_wrong_free_flag(tier, tmp_path):
    rows = [x for x in _vectors() if x[0] == tier]
    tickets = [(b, v, p, f) for _, b, v, p, f, _, _ in rows]
    t = _tickets(tickets)
    data = file_bytes(tier, KEY, RUN, 465, THRESHOLD, t.barcodes, t.virns, 12, t.prizes, t.free)
    head_end = data.index(b"\n") + 1
    assert data[head_end:head_end + 32 * len(rows)] == b"".join(sorted(bytes.fromhex(r[5]) for r in rows))
    (tmp_path / TIERS[tier]).write_bytes(data)
    entry = {"name": TIERS[tier], "tier": tier, "key_check": key_check(KEY)}
    said = check_validation(tmp_path, entry, KEY, RUN, t, THRESHOLD, 465)
    assert said.startswith(f"{TIERS[tier]}: every one of 6 tickets validates to exactly its prize")
    flipped = [(b, v, p, not f if p == 100 else f) for b, v, p, f in tickets]
    if tier == "low":  # the $1 tickets are low-tier: their flag is in this file
        with pytest.raises(VerificationError, match="2 ticket\\(s\\) without their record"):
            check_validation(tmp_path, entry, KEY, RUN, _tickets(flipped), THRESHOLD, 465)
    else:  # the high file holds a low-tier prize as OTHER_TIER alone: the flag is not in it
        assert check_validation(tmp_path, entry, KEY, RUN, _tickets(flipped), THRESHOLD, 465) == said
    assert json.loads(data[:head_end])["format"] == "poolgen-validation/2"
