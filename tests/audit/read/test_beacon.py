"""audit's own check of drand quicknet rounds (audit/read/beacon.py), on the real published rounds of
tests/vectors/drand_quicknet.txt: each verifies for its round only."""

from __future__ import annotations

import pytest

from audit.read.beacon import round_time, verifies
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
