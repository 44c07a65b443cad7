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
