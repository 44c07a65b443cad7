"""audit's own check of drand quicknet rounds (audit/read/beacon.py), on the real published rounds of
tests/vectors/drand_quicknet.txt: each verifies for its round only."""

from __future__ import annotations

import pytest

from audit.read.beacon import V4_SINCE, rehearsal, round_time, verifies
from tests.support.ceremony import rounds


@pytest.mark.parametrize("number", sorted(rounds()))
def test_real_published_rounds_verify_for_their_round_only(number):
    sig = rounds()[number]["signature"]
    assert verifies(number, sig)
    assert not verifies(number + 1, sig)
    assert not verifies(number, sig[:-1] + ("8" if sig[-1] != "8" else "9"))
    assert not verifies(number, "c0" + "00" * 47)  # the identity
    assert not verifies(number, sig[:-2])  # 47 bytes


def test_round_time():
    assert round_time(1000) == 1692803367 + 3 * 999


@pytest.mark.parametrize("flag", [381, 382, 383], ids=["sign", "infinity", "compression"])
def test_a_round_signature_has_one_encoding(flag):
    # randomness is the SHA-256 of the signature's bytes: a second encoding of the same point passing would
    # be a second seed to pick from for whoever holds every reveal; flipping a flag bit never verifies
    sig = rounds()[1000]["signature"]
    assert not verifies(1000, f"{int(sig, 16) ^ (1 << flag):096x}")


def _transcript(round_: int, printed: bool) -> dict:
    printed_game = {"printed": {"number": 358, "regulation": "K.A.R. 111-4-3762"}}
    return {"beacon": {"round": round_}} | (printed_game if printed else {})


def test_a_v4_ceremony_whose_round_came_before_v4_existed_is_said_to_be_a_rehearsal():
    # A v4 transcript (one binding the printed game) is written only by a poolgen of 2026-12-05 or later: one
    # naming a round published before then was begun once its round was out (POOLGEN_TEST_NOW, a clock set
    # back), so every party knew the round before committing; all its signatures verify all the same.
    first = (V4_SINCE - 1692803367) // 3 + 1  # the first round published at or after 2026-12-05T00:00:00Z
    assert round_time(first) == V4_SINCE
    assert rehearsal(_transcript(first - 1, True)) == (
        f"; round {first - 1} was published at 2026-12-04T23:59:57Z, before any poolgen wrote a v4 "
        "transcript (2026-12-05T00:00:00Z): a rehearsal, begun once its round was out, its seed known to "
        "its parties before they committed, never a real run's")
    assert rehearsal(_transcript(first, True)) == ""
    assert rehearsal(_transcript(1000, False)) == ""  # v2 and v3 transcripts were written before 2026-12-05
