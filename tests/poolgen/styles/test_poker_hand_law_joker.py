"""The law of a poker_hand layout (docs/styles/poker_hand.md section 8) under the rules a pair chart and
Ohio's Joker Poker need: with `joker_multiplier` a winner is uniform among the hands of exactly its RANK
and its JOKER shown (`by` k) or not (no `by`), with `five_of_a_kind = false` the JOKER and four of a rank
among the four of a kinds; under a chart down to `tens_or_better` a winner's pair is uniform over 10 to A
and a loser uniform among the hands the chart does not pay (no pair of 10s or better). Rows laid out by
poolgen on small pools, read by audit's engine (written from the contract apart from poolgen's);
chi-square tests with fixed seeds, so the p-values are fixed, the loser test shown able to fail on the
losers of a chart down to jacks."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency, chisquare

from audit.styles.poker_hand import RANKS, hand_rank
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, row_permutations
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps

OHIO = ["royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair", "kings_or_better"]
N_SF, N_SF_JOKER, N_FOUR_JOKER = 720, 2880, 2509
N_TENS, N_LOSE = 2000, 3000


def _lay_out(folder, fields: dict, hands: list[str], counts: dict[tuple[int, int | None], int],
             losers: int) -> dict[str, np.ndarray]:
    """Each tier's hands ("l<line>" or "l<line>x<by>", and "lose") as poolgen lays them out: (n, 5) codes
    in the order printed; a tier for every chart line (count 0 unless `counts` says)."""
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${100 - i}", "value": f"{100 - i}.00"}
              for i in range(len(hands))]
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz",
            "chart": [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(hands)]} | fields
    ways = [(i, None) for i in range(len(hands))] + [w for w in counts if w[1] is not None]
    tiers = [{"id": f"l{i}" + ("" if k is None else f"x{k}"), "count": counts.get((i, k), 0),
              "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"} | ({} if k is None else {"by": k})]}
             for i, k in ways]
    path = folder / "g.toml"
    path.write_text(dumps(base_doc([area], prizes, tiers, max_wins=1,
                                   pool_tickets=sum(counts.values()) + losers)))
    spec = load_spec(path)
    pool = spec.pools[0]
    order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, order, derive_stream(SEED_A, "test", "poker joker law"))
    table = np.stack([cols[f"ph_card_{i}"] for i in range(5)], axis=1).astype(np.int64)
    return {t.id: table[order == j] for j, t in enumerate(pool.tiers)}


@pytest.fixture(scope="module")
def ohio(tmp_path_factory) -> dict[str, np.ndarray]:
    """Ohio's ranking: straight flushes without the JOKER (36 hands, each expected 20 times) and with it
    (144, 20 times each), and four of a kind with it (2,509 hands, the 13 of five alike among them)."""
    fields = {"joker": True, "five_of_a_kind": False, "joker_multiplier": 2}
    return _lay_out(tmp_path_factory.mktemp("ohio"), fields, OHIO,
                    {(1, None): N_SF, (1, 2): N_SF_JOKER, (2, 2): N_FOUR_JOKER}, 91)  # 6,200


@pytest.fixture(scope="module")
def tens(tmp_path_factory) -> dict[str, np.ndarray]:
    """A 52-card chart down to a pair of 10s: its pair winners and its losers."""
    return _lay_out(tmp_path_factory.mktemp("tens"), {}, OHIO[:-1] + ["tens_or_better"],
                    {(8, None): N_TENS}, N_LOSE)


def _kinds(hands: np.ndarray) -> np.ndarray:
    """How often each distinct hand (as a set) is shown, in the order of the sets."""
    return np.unique(np.sort(hands, axis=1), axis=0, return_counts=True)[1]


def test_a_joker_tier_shows_every_hand_of_its_rank_with_the_joker_equally_often(ohio):
    plain, joker = ohio["l1"], ohio["l1x2"]
    sf = {RANKS.index("straight_flush")}
    assert set(hand_rank(plain, True, 11, False).tolist()) == sf
    assert set(hand_rank(joker, True, 11, False).tolist()) == sf
    assert not (plain == 52).any() and (joker == 52).any(axis=1).all()
    assert (_kinds(plain).size, _kinds(joker).size) == (36, 144)  # every hand of each cell (section 9)
    assert chisquare(_kinds(plain)).pvalue > 0.01 and chisquare(_kinds(joker)).pvalue > 0.01
    assert chisquare(np.bincount(np.argmax(joker == 52, axis=1))).pvalue > 0.01  # the JOKER anywhere


def test_without_five_of_a_kind_the_joker_and_four_alike_are_drawn_as_one_four_of_a_kind_more(ohio):
    four = ohio["l2x2"]
    assert set(hand_rank(four, True, 11, False).tolist()) == {RANKS.index("four_of_a_kind")}
    alike = (np.sort(four, axis=1)[:, :4] // 4 == np.sort(four, axis=1)[:, :1] // 4).all(axis=1)
    # 13 of its 2,509 hands: 2,509 rows show them 13 times expected; Poisson, a fixed seed's count
    assert 3 <= int(alike.sum()) <= 26 and (four == 52).any(axis=1).all()


def test_a_tens_or_better_winner_shows_each_pair_from_10_to_a_equally_often(tens):
    hands = tens["l8"]
    assert set(hand_rank(hands, False, 8).tolist()) == {RANKS.index("jacks_or_better")}  # index 1: the pair
    ranks = hands // 4
    pair = np.array([next(r for r in row if (row == r).sum() == 2) for row in ranks])
    assert set(pair.tolist()) == {8, 9, 10, 11, 12} and chisquare(np.bincount(pair)[8:]).pvalue > 0.01


def _losing(label: str, n: int, pair: int) -> np.ndarray:
    """n uniform deals of 5 of 52 cards a chart down to `pair` does not pay (rejection, audit's engine)."""
    deals = row_permutations(derive_stream(SEED_A, "test", label), 2 * n, 52)[:, :5].astype(np.int64)
    keep = hand_rank(deals, False, pair) == 0
    assert keep.sum() >= n
    return deals[keep][:n]


def _pairs(hands: np.ndarray) -> np.ndarray:
    """The rank of a hand's pair, 13 for none."""
    ranks = hands // 4
    return np.array([next((r for r in row if (row == r).sum() == 2), 13) for row in ranks])


def _p(a: np.ndarray, b: np.ndarray) -> float:
    table = np.array([np.bincount(a, minlength=14), np.bincount(b, minlength=14)])
    return float(chi2_contingency(table[:, table.sum(axis=0) > 0], correction=False)[1])


def test_a_tens_or_better_loser_is_uniform_among_the_hands_the_chart_does_not_pay(tens):
    losers = tens["lose"]
    assert (hand_rank(losers, False, 8) == 0).all() and (_pairs(losers)[_pairs(losers) < 13] < 8).all()
    assert _p(_pairs(losers), _pairs(_losing("tens reference", N_LOSE, 8))) > 0.01


def test_the_loser_test_can_fail_on_the_losers_of_a_chart_down_to_jacks(tens):
    assert _p(_pairs(tens["lose"]), _pairs(_losing("jacks reference", N_LOSE, 9))) < 0.01
