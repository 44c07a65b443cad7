"""Audit's rules engines, parts that the whole-pool tests reach only at import time or not exactly."""

from __future__ import annotations

import numpy as np

from audit.rules import wild_side as ws


def test_ws_expected_counts_are_the_tier_table_tallied():
    """Section 2's table as counts per prize code: the engine compares a row's wins with these."""
    your, wild, bonus = ws._expected_counts()
    assert your.shape == wild.shape == (len(ws.TIERS), len(ws.PRIZE_CODES)) == (35, 11)
    assert bonus.shape == (35, len(ws.BONUS_CODES)) == (35, 11)
    assert your.dtype == wild.dtype == bonus.dtype == np.int64
    t30 = ws.TIER_IDS.index("t30")
    code = ws.PRIZE_CODES.index
    assert {ws.PRIZE_CODES[i]: int(c) for i, c in enumerate(your[t30]) if c} == {"10": 6, "15": 1, "25": 5}
    assert {ws.PRIZE_CODES[i]: int(c) for i, c in enumerate(wild[t30]) if c} == {"5": 6}
    assert {ws.BONUS_CODES[i]: int(c) for i, c in enumerate(bonus[t30]) if c} == {"WIN50": 3}
    t26 = ws.TIER_IDS.index("t26")
    assert your[t26, code("5")] == 5 and wild[t26, code("10")] == 1
    assert bonus[t26, ws.BONUS_CODES.index("WIN25")] == 1
    for t, (y, w, b) in enumerate(ws.TIERS.values()):
        assert (your[t].sum(), wild[t].sum(), bonus[t].sum()) == (len(y), len(w), len(b))
    expected = (ws.EXPECTED_YOUR, ws.EXPECTED_WILD, ws.EXPECTED_BONUS)
    for got, want in zip((your, wild, bonus), expected, strict=True):
        assert (got == want).all()
