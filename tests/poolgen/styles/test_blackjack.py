"""blackjack layouts (poolgen/styles/blackjack.py) read back here from docs/styles/blackjack.md alone:
the law of section 7 (a ticket of w wins uniform among the displays, DEALER'S TOTAL and cards, whose
winning HANDS number exactly w), held by a chi-square test on a small area; a pool of the example
(specs/examples/pa_blackjack_10.toml) wins exactly its tier's hands at the prizes they show; the loader
refuses, in one line, what it cannot lay out."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import chisquare

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/pa_blackjack_10.toml"
POINTS = [5, 10, 11]  # the law's cards 5, 10, A
DEALER = [15, 20, 0]  # its DEALER'S TOTALS 15, 20, BUST
N = 4000  # tickets a tier


def _doc(**area: object) -> dict:
    cards = [{"group": "card", "code": c, "symbol": c} for c in ("5", "10", "A")]
    dealer = [{"group": "dealer", "code": c, "symbol": c} for c in ("15", "20", "BUST")]
    prizes = [{"group": "pz", "code": "1", "symbol": "$1.00", "value": "1.00"}]
    base = {"id": "bj", "style": "blackjack", "hands": 2, "hand_cards": 2, "numbers": "card",
            "points": POINTS, "dealer_totals": "dealer", "dealer_points": DEALER, "prizes": "pz"}
    base.update(area)
    one = {"area": "bj", "prize": "1", "how": "match"}
    tiers = [{"id": "w1", "count": N, "wins": [one]}, {"id": "w2", "count": N, "wins": [one, one]}]
    return base_doc([base], cards + dealer + prizes, tiers, max_wins=2, pool_tickets=3 * N)


def _wins(display: tuple[int, ...]) -> int:
    """The HANDS a display (dealer, card 0 .. card 3) wins, read from section 5 alone."""
    d, cards = DEALER[display[0]], display[1:]
    totals = [POINTS[cards[0]] + POINTS[cards[1]], POINTS[cards[2]] + POINTS[cards[3]]]
    return sum(d < t <= 21 for t in totals)


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory) -> dict[int, np.ndarray]:
    """By number of wins, each tier's displays as poolgen lays them out: one display index a row."""
    path = tmp_path_factory.mktemp("law") / "g.toml"
    path.write_text(dumps(_doc()))
    spec = load_spec(path)
    pool = spec.pools[0]
    order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, order, derive_stream(SEED_A, "test", "law"))
    shown = np.stack([cols["bj_dealer_0"]] + [cols[f"bj_card_{i}"] for i in range(4)], axis=1)
    shown = shown.astype(np.int64)
    index = np.ravel_multi_index(shown.T, (3, 3, 3, 3, 3))
    wins = {t.id: len(spec.play.wins[t.id]) for t in pool.tiers}
    return {wins[t.id]: index[order == j] for j, t in enumerate(pool.tiers)}


@pytest.mark.parametrize("w", [0, 1, 2])
def test_a_tiers_displays_are_uniform_among_those_winning_as_many_hands(laid_out, w):
    """Every display shown wins exactly w hands, and each such display is shown equally often (a
    chi-square goodness of fit above 0.001 on fixed seeds); not so with the DEALER'S TOTAL drawn uniformly
    and then the cards (below 1e-6): the weighting of section 7, step 3, is what makes it uniform."""
    displays = [d for d in itertools.product(range(3), repeat=5) if _wins(d) == w]
    cells = np.ravel_multi_index(np.array(displays).T, (3, 3, 3, 3, 3))
    counts = np.bincount(laid_out[w], minlength=243)
    assert counts.sum() == counts[cells].sum() == N
    assert chisquare(counts[cells]).pvalue > 0.001
    per_dealer = np.bincount([d[0] for d in displays], minlength=3)
    dealers = np.count_nonzero(per_dealer)
    wrong = np.array([N / (dealers * per_dealer[d[0]]) for d in displays])  # a dealer uniformly, then cards
    assert chisquare(counts[cells], wrong).pvalue < 1e-6


def test_every_ticket_of_the_example_wins_exactly_its_tiers_hands():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    points = np.array([4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11])
    dealer = np.array([16, 17, 18, 19, 20, 0])[cols["table_dealer_0"].astype(np.int64)]
    cards = np.stack([cols[f"table_card_{i}"] for i in range(16)], axis=1).astype(np.int64)
    totals = points[cards].reshape(-1, 8, 2).sum(axis=2)
    boxes = np.stack([cols[f"table_prize_{h}"] for h in range(8)], axis=1).astype(np.int64)
    cents = np.array([100, 200, 400, 500, 1000, 2000, 4000, 5000, 10000, 50000, 100000, 2100000])
    won = (totals <= 21) & (totals > dealer[:, None])
    np.testing.assert_array_equal(np.where(won, cents[boxes], 0).sum(axis=1),
                                  np.array([t.prize_cents for t in pool.tiers])[tiers])
    assert (totals > 21).any() and (totals == dealer[:, None]).any()  # losers go over 21 and tie


@pytest.mark.parametrize(("change", "message"), [
    ({"hands": 17}, "areas[0].hands: must be at most 16, got 17"),
    ({"hand_cards": 4}, "areas[0].hand_cards: must be at most 3, got 4"),
    ({"points": [5, 10]}, "areas[0].points: 3 numbers for the 3 symbols of 'card', not 2"),
    ({"points": [5, 10, "A"]},
     "areas[0].points: a list of whole numbers, one per symbol of the group 'card'"),
    ({"points": 0}, "areas[0].points: a list of whole numbers, one per symbol of the group 'card'"),
    ({"dealer_points": {"a": 1}},
     "areas[0].dealer_points: a list of whole numbers, one per symbol of the group 'dealer'"),
    ({"points": [5, 10, 100]}, "areas[0].points[2]: 1..99, not 100"),
    ({"dealer_points": [15, 22, 0]}, "areas[0].dealer_points[1]: 0..21, not 22"),
    ({"dealer_points": [15, 20, -1]}, "areas[0].dealer_points[2]: 0..21, not -1"),
    ({"dealer_points": [0, 0, 0], "points": [5, 6, 7]},  # every hand 10..14 beats a BUST
     "areas[0].dealer_points: no DEALER'S TOTAL lets all 2 hands lose: a ticket that wins nothing here "
     "needs one"),
])
def test_areas_it_cannot_lay_out_are_refused_in_one_line_by_check_and_by_audits_reader(tmp_path, change,
                                                                                       message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")
    with pytest.raises(UnusableInput) as caught:
        read_spec(tmp_path / "g.toml")
    assert str(caught.value) == f"{tmp_path / 'g.toml'}: {message}"


def test_more_hands_than_a_hand_can_show_are_refused_by_check_and_by_audits_reader(tmp_path):
    doc = _doc(hand_cards=3)
    doc["symbols"] += [{"group": "card", "code": f"c{c}", "symbol": f"c{c}"} for c in range(2, 16)]
    doc["areas"][0]["points"] = POINTS + list(range(2, 16))
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].hand_cards: 17 symbols in 3 spots make 4913 hands; at most 4096")
    with pytest.raises(UnusableInput, match=r"areas\[0\]\.hand_cards: 17 symbols in 3 spots make 4913 hands"):
        read_spec(tmp_path / "g.toml")


def test_a_tier_no_dealers_total_lets_win_as_many_hands_is_refused(tmp_path):
    """Every DEALER'S TOTAL 21: no hand can beat it, so a tier winning a hand cannot be shown."""
    doc = _doc(dealer_points=[21, 21, 21])
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "no DEALER'S TOTAL lets 1 of the 2 hands win and the other 1 lose")
