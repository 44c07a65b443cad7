"""The law of a `dealer = "shared"` cards layout (docs/styles/cards.md section 8, "The law of a row's
layout", kept by step 3's placement of the winning hands): a ticket winning in the games S is uniform
among the deals whose winning games are exactly S. Held on three hands against one dealer's, 3,000
tickets of each of 0, 1 and 2 wins laid out by poolgen, against deals drawn uniformly (row_permutations
of 52 from another stream) read by audit's engine (audit/styles/cards.py, apart from poolgen's) and
kept when they win as many games: the DEALER'S category, the category of the first winning hand and of
the first losing hand (in game order: the hands of a uniform deal of a given S are exchangeable), each
a chi-square test of the two samples; and which games win, each set of a size equally likely (fixed
seeds, so the p-values are fixed; each shows it can fail: the dealer's category against all uniform
deals is refused)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from audit.styles.cards import beats, strength
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, row_permutations
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps

N, G = 3000, 3
BINS = 6  # categories 0..4 each, and flush or better together (too few alone for a chi-square cell)


def _read(dealer: np.ndarray, yours: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the DEALER'S category bin, each hand's (n, G), each hand's win (n, G)), by audit's engine."""
    theirs = strength(dealer)
    mine = [strength(yours[:, 5 * g:5 * g + 5]) for g in range(G)]
    won = np.stack([beats(m, theirs)[0] for m in mine], axis=1)
    categories = np.stack([m[:, 0] for m in mine], axis=1)
    return np.minimum(theirs[:, 0], BINS - 1), np.minimum(categories, BINS - 1), won


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory) -> dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """By number of wins, the tier's rows as poolgen lays them out, read by _read."""
    prizes = [{"group": "pz", "code": "1", "symbol": "$1", "value": "1.00"}]
    area = {"id": "sd", "style": "cards", "games": G, "prizes": "pz", "ties": "lose", "dealer": "shared"}
    one = {"area": "sd", "prize": "1", "how": "match"}
    tiers = [{"id": "w1", "count": N, "wins": [one]}, {"id": "w2", "count": N, "wins": [one, one]}]
    path = tmp_path_factory.mktemp("law") / "g.toml"
    path.write_text(dumps(base_doc([area], prizes, tiers, max_wins=2, pool_tickets=3 * N)))
    spec = load_spec(path)
    pool = spec.pools[0]
    order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, order, derive_stream(SEED_A, "test", "law"))
    yours = np.stack([cols[f"sd_yours_{i}"] for i in range(5 * G)], axis=1).astype(np.int64)
    dealer = np.stack([cols[f"sd_dealer_{i}"] for i in range(5)], axis=1).astype(np.int64)
    wins = {t.id: len(spec.play.wins[t.id]) for t in pool.tiers}
    return {wins[t.id]: _read(dealer[order == j], yours[order == j]) for j, t in enumerate(pool.tiers)}


@pytest.fixture(scope="module")
def uniform() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals drawn uniformly, read by _read: the dealer's the first 5 cards, hand g the next 5g..5g+4."""
    deals = row_permutations(derive_stream(SEED_A, "test", "uniform"), 5 * N, 52)[:, :5 + 5 * G]
    deals = deals.astype(np.int64)
    return _read(deals[:, :5], deals[:, 5:])


def _first(categories: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Per row with one, the category of the first hand in game order where `where` holds."""
    rows = where.any(axis=1)
    return categories[rows, np.argmax(where[rows], axis=1)]


def _p(a: np.ndarray, b: np.ndarray) -> float:
    table = np.array([np.bincount(a, minlength=BINS), np.bincount(b, minlength=BINS)])
    return float(chi2_contingency(table[:, table.sum(axis=0) > 0], correction=False)[1])


@pytest.mark.parametrize("k", [0, 1, 2])
def test_a_tiers_deals_are_uniform_deals_winning_as_many_hands(laid_out, uniform, k):
    """Every laid-out ticket wins exactly its tier's number of hands; the dealer's category, the first
    winning and first losing hand's are distributed as those of uniform deals winning k hands (no test
    below 0.001), the dealer's not as that of all uniform deals (below 1e-6)."""
    dealer, hands, won = laid_out[k]
    assert won.sum(axis=1).tolist() == [k] * N
    ref_dealer, ref_hands, ref_won = uniform
    kept = ref_won.sum(axis=1) == k
    assert 0.15 * 5 * N < kept.sum() < 0.35 * 5 * N
    assert _p(dealer, ref_dealer[kept]) > 1e-3
    if k:
        assert _p(_first(hands, won), _first(ref_hands[kept], ref_won[kept])) > 1e-3
    if k < G:
        assert _p(_first(hands, ~won), _first(ref_hands[kept], ~ref_won[kept])) > 1e-3
    assert _p(dealer, ref_dealer) < 1e-6  # the dealer's hand is what the number of wins shows


@pytest.mark.parametrize("k", [1, 2])
def test_each_set_of_winning_hands_of_a_size_is_equally_likely(laid_out, k):
    """Step 1: the games a row wins are each set of k of the G equally likely (C(3, k) = 3 sets)."""
    _, _, won = laid_out[k]
    sets = won.astype(np.int64) @ (1 << np.arange(G))
    counts = np.unique(sets, return_counts=True)[1]
    assert counts.size == 3 and counts.sum() == N
    assert chisquare(counts).pvalue > 1e-3
