"""The law of a poker_hand layout (docs/styles/poker_hand.md section 8): a winning ticket is uniform among
the ordered hands of exactly its paying RANK, a losing one among the ordered hands of a RANK the chart
does not pay. Held on a 53-card deck (the JOKER wild), the chart down to jacks_or_better: 3,600 straight
flushes (180 hands: each expected 20 times) and 3,000 losers against deals drawn uniformly (the first 5 of
row_permutations of 53 from another stream) kept when audit's engine (audit/styles/poker_hand.py, written
from the contract apart from poolgen's) reads them as paying nothing; chi-square tests with fixed seeds,
so the p-values are fixed, each shown able to fail on a sample of another law."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from audit.styles.poker_hand import RANKS, hand_rank
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, row_permutations
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps

N_WIN, N_LOSE = 3600, 3000
CHART = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory) -> dict[str, np.ndarray]:
    """Each tier's hands as poolgen lays them out: (n, 5) codes in the order printed."""
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${100 - i}", "value": f"{100 - i}.00"}
              for i in range(len(CHART))]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz", "joker": True,
            "chart": [{"hand": h, "prize": p["code"]} for h, p in zip(CHART, prizes, strict=True)]}
    tiers = [{"id": "sf" if p["code"] == "Z2" else f"none{i}", "count": N_WIN if p["code"] == "Z2" else 0,
              "wins": [{"area": "ph", "prize": p["code"], "how": "match"}]}
             for i, p in enumerate(prizes)]  # a tier a chart line (one none pays is refused), sf alone held
    path = tmp_path_factory.mktemp("law") / "g.toml"
    path.write_text(dumps(base_doc([area], prizes, tiers, max_wins=1, pool_tickets=N_WIN + N_LOSE)))
    spec = load_spec(path)
    pool = spec.pools[0]
    order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, order, derive_stream(SEED_A, "test", "poker law"))
    hands = np.stack([cols[f"ph_card_{i}"] for i in range(5)], axis=1).astype(np.int64)
    return {t.id: hands[order == j] for j, t in enumerate(pool.tiers)}


def _losing(stream_label: str, n: int) -> np.ndarray:
    """n uniform deals of 5 of the 53 cards that pay nothing (rejection, read by audit's engine)."""
    deals = row_permutations(derive_stream(SEED_A, "test", stream_label), 3 * n, 53)[:, :5].astype(np.int64)
    keep = hand_rank(deals, True) < RANKS.index("jacks_or_better")
    assert keep.sum() >= n
    return deals[keep][:n]


def _features(hands: np.ndarray) -> list[tuple[np.ndarray, int]]:
    """(values, bins): the JOKER's position (5: none), the highest rank shown (the JOKER 13), the number
    of suits shown, and the position of the hand's highest code."""
    joker = np.where((hands == 52).any(axis=1), np.argmax(hands == 52, axis=1), 5)
    suits = np.array([len({c % 4 for c in h if c < 52}) for h in hands])
    return [(joker, 6), (hands.max(axis=1) // 4, 14), (suits, 5), (np.argmax(hands, axis=1), 5)]


def _p(a: np.ndarray, b: np.ndarray, bins: int) -> float:
    table = np.array([np.bincount(a, minlength=bins), np.bincount(b, minlength=bins)])
    return float(chi2_contingency(table[:, table.sum(axis=0) > 0], correction=False)[1])


def test_a_winner_shows_every_hand_of_its_rank_equally_often(laid_out):
    hands = laid_out["sf"]
    assert set(hand_rank(hands, True).tolist()) == {RANKS.index("straight_flush")}
    keys = [tuple(sorted(h)) for h in hands.tolist()]
    kinds = sorted(set(keys))
    assert len(kinds) == 180  # every straight flush of the 53-card deck shown (section 9)
    counts = np.array([keys.count(k) for k in kinds])
    assert chisquare(counts).pvalue > 0.01
    assert chisquare(np.bincount(np.argmax(hands == 52, axis=1)[(hands == 52).any(axis=1)])).pvalue > 0.01


def test_a_loser_is_uniform_among_the_hands_the_chart_does_not_pay(laid_out):
    losers = laid_out["lose"]
    assert (hand_rank(losers, True) < RANKS.index("jacks_or_better")).all()  # never a paid hand
    reference = _losing("poker reference", N_LOSE)
    for (a, bins), (b, _) in zip(_features(losers), _features(reference), strict=True):
        assert _p(a, b, bins) > 0.01


def test_the_loser_test_can_fail_on_unconditioned_deals(laid_out):
    deals = row_permutations(derive_stream(SEED_A, "test", "poker any"), N_LOSE, 53)[:, :5].astype(np.int64)
    a, bins = _features(laid_out["lose"])[1]
    assert _p(a, _features(deals)[1][0], bins) < 0.01
