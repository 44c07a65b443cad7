"""Wild Side's decoys (key_number_match with `distinct_numbers`, poolgen/styles/key_number_match.py):
a number that is not a win never shows a LUCKY NUMBER. A decoy equal to a lucky number would show a
win the ticket does not pay."""

from __future__ import annotations

import numpy as np

from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from tests.support import SEED_A, spec_path


def _stack(cols: dict[str, np.ndarray], name: str, n: int) -> np.ndarray:
    return np.stack([np.asarray(cols[f"{name}_{j}"], dtype=np.int64) for j in range(n)], axis=1)


def test_ws_decoys_never_show_a_lucky_number():
    spec = load_spec(spec_path("wild_side"))
    pool = spec.pool("p1")
    ids = [t.id for t in pool.tiers]
    # 3,000 losers and every winning tier 20 times, in a fixed mixed order
    tiers = np.concatenate([np.zeros(3000, dtype=np.int64), np.repeat(np.arange(1, len(ids)), 20)])
    tiers = tiers[np.argsort(derive_stream(SEED_A, "test", "mix").words(tiers.size))]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "decoys"))
    lucky = _stack(cols, "numbers_win", 5)
    wins = spec.play.wins
    for area in ("numbers", "wild"):
        k = np.array([0] + [sum(w.area == area for w in wins[i]) for i in ids[1:]])[tiers]
        numbers = _stack(cols, f"{area}_your", 12)
        matches = (numbers[:, :, None] == lucky[:, None, :]).any(axis=2).sum(axis=1)
        assert (matches[tiers == 0] == 0).all(), f"a loser's {area} decoy shows a lucky number"
        assert (matches == k).all(), f"{area}: a decoy shows a lucky number"
        assert k.max() == (12 if area == "numbers" else 6)  # tier t30
