"""The law of a hold_em cards layout (docs/styles/cards.md section 8, "The law of a row's layout"): a
losing ticket is uniform among the deals in which no game wins, a winning ticket among the deals that
win in exactly its games. Held on one game of 3,000 losers and 3,000 winners laid out by poolgen
against deals drawn uniformly (row_permutations of 52 from another stream) and kept when audit's engine
(audit/styles/cards.py, written from the contract apart from poolgen's) reads them as losing, or as
winning: YOUR best hand's category, the DEALER'S and whether the game ties, each a chi-square test of
the two samples (fixed seeds, so the p-values are fixed; each test also shows it can fail: the same
statistic against unconditioned deals is refused)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from audit.styles.cards import beats, best_strength
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, row_permutations
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps

N = 3000
BINS = 6  # categories 0..4 each, and flush or better together (too few alone for a chi-square cell)


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory) -> dict[str, np.ndarray]:
    """The two tiers' deals as poolgen lays them out: (N, 9) cards each, YOUR 2, the DEALER'S 2, board."""
    prizes = [{"group": "pz", "code": "1", "symbol": "$1", "value": "1.00"}]
    area = {"id": "he", "style": "cards", "games": 1, "prizes": "pz", "ties": "lose", "deal": "hold_em"}
    tiers = [{"id": "w", "count": N, "wins": [{"area": "he", "prize": "1", "how": "match"}]}]
    path = tmp_path_factory.mktemp("law") / "g.toml"
    path.write_text(dumps(base_doc([area], prizes, tiers, pool_tickets=2 * N)))
    spec = load_spec(path)
    pool = spec.pools[0]
    order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, order, derive_stream(SEED_A, "test", "law"))
    deals = np.stack([cols[f"he_{part}_{i}"] for part, k in (("yours", 2), ("dealer", 2), ("community", 5))
                      for i in range(k)], axis=1).astype(np.int64)
    return {t.id: deals[order == j] for j, t in enumerate(pool.tiers)}


def _read(deals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(YOUR category bin, the DEALER'S, ties, wins) of (n, 9) deals, by audit's engine."""
    yours = best_strength(deals[:, [0, 1, 4, 5, 6, 7, 8]])
    dealer = best_strength(deals[:, [2, 3, 4, 5, 6, 7, 8]])
    above, tie = beats(yours, dealer)
    return np.minimum(yours[:, 0], BINS - 1), np.minimum(dealer[:, 0], BINS - 1), tie.astype(np.int64), above


@pytest.fixture(scope="module")
def uniform() -> np.ndarray:
    """Deals drawn uniformly: the first 9 cards of uniform permutations of the deck."""
    return row_permutations(derive_stream(SEED_A, "test", "uniform"), 4 * N, 52)[:, :9].astype(np.int64)


def _p(a: np.ndarray, b: np.ndarray, bins: int) -> float:
    table = np.array([np.bincount(a, minlength=bins), np.bincount(b, minlength=bins)])
    return float(chi2_contingency(table[:, table.sum(axis=0) > 0], correction=False)[1])


@pytest.mark.parametrize("tier", ["lose", "w"])
def test_a_tiers_deals_are_uniform_deals_of_its_outcome(laid_out, uniform, tier):
    """Every laid-out deal has its tier's outcome, and its features are distributed as those of uniform
    deals of that outcome (no test below 0.001), not as those of all uniform deals (each below 1e-6)."""
    mine = _read(laid_out[tier])
    assert mine[3].tolist() == [tier == "w"] * N  # exactly the tier's outcome, never an unpaid win
    reference = _read(uniform)
    kept = reference[3] == (tier == "w")
    assert 0.4 * 4 * N < kept.sum() < 0.6 * 4 * N
    for k, bins in ((0, BINS), (1, BINS), (2, 2)):
        assert _p(mine[k], reference[k][kept], bins) > 1e-3, k
    assert _p(mine[0], reference[0], BINS) < 1e-6  # YOUR hand's category is what the outcome shows
    assert _p(mine[1], reference[1], BINS) < 1e-6
