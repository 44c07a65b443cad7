"""blackjack's DEALER'S hand of cards and prize by the number of HANDS won (docs/styles/blackjack.md,
sections 9 to 11), read back here from the contract alone: the law of section 11 (a ticket uniform among
the displays paying exactly its win) by a chi-square test on a small area; the example of Virginia's
Blackjack Classic checks its published figures and wins exactly its tiers; a spec without the new
fields lays out byte for byte as before (pinned); the loader and audit's reader refuse, in the same one
line, what the contract refuses."""

from __future__ import annotations

import hashlib
import itertools
import json

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

EXAMPLE = "specs/examples/va_blackjack_classic.toml"
HANDS = [18, 20, 21, 23]  # a HAND's one printed total
DEALER = [9, 10]  # the DEALER's two cards, added: 18, 19, 19 or 20
N = 4000  # tickets a tier
# pa_blackjack_10's layout before sections 9 to 11 (main at a1d03a02): a spec without the new fields
PINNED_PA = "586e15d8fcc9d0ea4bc8e519c61fc91e42a2732d580cec05a5ceb59d71421953"


def _doc(**area: object) -> dict:
    cards = [{"group": "card", "code": str(c), "symbol": str(c)} for c in HANDS]
    dealer = [{"group": "dealer", "code": str(c), "symbol": str(c)} for c in DEALER]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}.00", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "bj", "style": "blackjack", "hands": 3, "hand_cards": 1, "numbers": "card",
            "points": HANDS, "dealer_totals": "dealer", "dealer_points": DEALER, "dealer_cards": 2,
            "prizes": "pz", "pays": "count",
            "legend": [{"count": 1, "prize": "1"}, {"count": 2, "prize": "2"}]}  # 2: two or three HANDS
    base.update(area)
    tiers = [{"id": f"w{c}", "count": N, "wins": [{"area": "bj", "prize": c, "how": "match"}]}
             for c in ("1", "2")]
    return base_doc([base], cards + dealer + prizes, tiers, pool_tickets=3 * N)


def _won(display: tuple[int, ...]) -> int:
    """The HANDS a display (dealer card 0, dealer card 1, HAND 0 .. HAND 2) wins, from section 9 alone."""
    d = DEALER[display[0]] + DEALER[display[1]]
    return sum(d < HANDS[c] <= 21 for c in display[2:])


@pytest.fixture(scope="module")
def laid_out(tmp_path_factory) -> dict[str, np.ndarray]:
    """By tier, its displays as poolgen lays them out: one display index a row."""
    path = tmp_path_factory.mktemp("law") / "g.toml"
    path.write_text(dumps(_doc()))
    spec = load_spec(path)
    pool = spec.pools[0]
    order = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    cols = spec.play.lay_out(spec, pool, order, derive_stream(SEED_A, "test", "law"))
    assert sorted(cols) == ["bj_card_0", "bj_card_1", "bj_card_2", "bj_dealer_0", "bj_dealer_1"]
    shown = np.stack([cols[f"bj_dealer_{j}"] for j in range(2)] + [cols[f"bj_card_{i}"] for i in range(3)],
                     axis=1).astype(np.int64)
    index = np.ravel_multi_index(shown.T, (2, 2, 4, 4, 4))
    return {t.id: index[order == j] for j, t in enumerate(pool.tiers)}


@pytest.mark.parametrize(("tier", "counts"), [("lose", {0}), ("w1", {1}), ("w2", {2, 3})])
def test_a_tiers_displays_are_uniform_among_those_paying_its_legend_line(laid_out, tier, counts):
    """Every display shown wins a number of HANDS the tier stands for, each such display equally often
    (chi-square above 0.001 on a fixed seed); drawing the number of HANDS uniformly among the tier's
    instead of by its displays (section 11, step 1) is refused (below 1e-6)."""
    displays = [d for d in itertools.product(range(2), range(2), range(4), range(4), range(4))
                if _won(d) in counts]
    cells = np.ravel_multi_index(np.array(displays).T, (2, 2, 4, 4, 4))
    shown = np.bincount(laid_out[tier], minlength=256)
    assert shown.sum() == shown[cells].sum() == N
    assert chisquare(shown[cells]).pvalue > 0.001
    if len(counts) > 1:
        per = {m: sum(_won(d) == m for d in displays) for m in counts}
        wrong = np.array([N / (len(counts) * per[_won(d)]) for d in displays])
        assert chisquare(shown[cells], wrong).pvalue < 1e-6


def test_the_example_wins_exactly_its_tiers_legend_prize():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)][:60_000]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    points = np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11])
    dealer = points[cols["table_dealer_0"].astype(np.int64)] + points[cols["table_dealer_1"].astype(np.int64)]
    cards = np.stack([cols[f"table_card_{i}"] for i in range(30)], axis=1).astype(np.int64)
    totals = points[cards].reshape(-1, 15, 2).sum(axis=2)
    won = ((totals <= 21) & (totals > dealer[:, None])).sum(axis=1)
    legend = np.array([0, 300, 500, 1000, 1500, 2000, 2500, 5000, 10000, 50000] + [3000000] * 6)
    np.testing.assert_array_equal(legend[won], np.array([t.prize_cents for t in pool.tiers])[tiers])
    assert (dealer == 22).any() and (totals > 21).any()  # a dealer's two aces; hands over 21


def test_the_examples_published_odds_reconcile_and_a_figure_that_does_not_is_reported(tmp_path):
    assert invoke("check", EXAMPLE).exit_code == 0
    with open(EXAMPLE) as f:
        text = f.read()
    (tmp_path / "va.toml").write_text(text.replace('odds = "4.61"', 'odds = "4.62"'))
    result = invoke("check", tmp_path / "va.toml")
    assert result.exit_code == 1
    assert "(j): overall odds: published 1 in 4.62, computed 1 in 4.61" in result.output
    top = text.replace('published_odds = "240,000"', 'published_odds = "200,000"')
    (tmp_path / "top.toml").write_text(top)
    assert invoke("check", tmp_path / "top.toml").exit_code == 1


def test_a_spec_without_the_new_fields_lays_out_as_before():
    spec = load_spec("specs/examples/pa_blackjack_10.toml")
    assert "dealer_cards" not in json.dumps(spec.play.document(), default=str)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)][:50_000]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    digest = hashlib.sha256()
    for key in sorted(cols):
        digest.update(key.encode())
        digest.update(np.ascontiguousarray(cols[key]).tobytes())
    digest.update(json.dumps(spec.play.document(), sort_keys=True, default=str).encode())
    assert digest.hexdigest() == PINNED_PA


def test_a_tiers_count_weights_are_the_displays_paying_it(tmp_path):
    """N(m) of section 11 on the small area: the displays (dealer's cards, HANDS) winning exactly m."""
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    params = load_spec(tmp_path / "g.toml").play.areas[0].params
    every = list(itertools.product(range(2), range(2), range(4), range(4), range(4)))
    assert [params.displays(m) for m in range(4)] == [sum(_won(d) == m for d in every) for m in range(4)]
    assert [params.displays(m) for m in range(4)] == [51, 99, 81, 25]


LEGEND = [{"count": 1, "prize": "1"}, {"count": 2, "prize": "2"}]


@pytest.mark.parametrize(("change", "message"), [
    ({"pays": "each"}, "areas[0].pays: \"hand\" or \"count\", not 'each'"),
    ({"dealer_cards": 4}, "areas[0].dealer_cards: must be at most 3, got 4"),
    ({"dealer_cards": 0}, "areas[0].dealer_cards: must be at least 1, got 0"),
    ({"pays": "hand"}, "areas[0].legend: unknown field: a legend is read only with pays = \"count\""),
    ({"legend": []}, "areas[0].legend: list the prize of each number of hands won"),
    ({"legend": [LEGEND[0], {"count": 3, "prize": "2"}]},
     "areas[0].legend[1].count: the legend lists consecutive counts: 2, not 3"),
    ({"legend": [{"count": 2, "prize": "1"}, {"count": 1, "prize": "2"}]},
     "areas[0].legend[1].count: the legend lists numbers of hands won in increasing order"),
    ({"legend": [LEGEND[0], {"count": 2, "prize": "7"}]},
     "areas[0].legend[1].prize: '7' is not one of the area's prize symbols"),
    ({"legend": [LEGEND[0], {"count": 2, "prize": "1"}]},
     "areas[0].legend[1].prize: prize '1' is already the legend's for another count"),
    ({"legend": [LEGEND[0], {"count": 4, "prize": "2"}]},
     "areas[0].legend[1].count: must be at most 3, got 4"),
    ({"legend": [LEGEND[0], {"count": 2, "prize": "2", "or_more": True}]},
     "areas[0].legend[1].or_more: unknown field"),
])
def test_new_fields_it_cannot_read_are_refused_in_one_line_by_check_and_by_audits_reader(tmp_path, change,
                                                                                         message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")
    with pytest.raises(UnusableInput) as caught:
        read_spec(tmp_path / "g.toml")
    assert str(caught.value) == f"{tmp_path / 'g.toml'}: {message}"


def test_a_count_legend_without_its_legend_is_refused(tmp_path):
    doc = _doc()
    del doc["areas"][0]["legend"]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", "g.toml: areas[0].legend: missing field")
    with pytest.raises(UnusableInput, match=r"areas\[0\]\.legend: missing field"):
        read_spec(tmp_path / "g.toml")


def test_a_tier_paying_a_prize_off_the_legend_is_refused(tmp_path):
    doc = _doc()
    doc["symbols"].append({"group": "pz", "code": "9", "symbol": "$9.00", "value": "9.00"})
    doc["tiers"][1]["wins"][0]["prize"] = "9"
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[1].wins[0].prize: area 'bj' (blackjack): prize '9' is not one the legend lists")
    with pytest.raises(UnusableInput) as caught:
        read_spec(tmp_path / "g.toml")
    assert str(caught.value).endswith("tiers[1].wins[0].prize: area 'bj' (blackjack): prize '9' is not one "
                                      "the legend lists")


def test_a_legend_line_no_tier_wins_is_refused_by_check_and_by_audits_reader(tmp_path):
    doc = _doc()
    doc["tiers"] = doc["tiers"][:1]
    (tmp_path / "g.toml").write_text(dumps(doc))
    result = invoke("check", tmp_path / "g.toml")
    one_line(result, "poolgen", "areas[0].legend[1].prize: not used")
    with pytest.raises(UnusableInput, match=r"areas\[0\]\.legend\[1\]\.prize: not used"):
        read_spec(tmp_path / "g.toml")


def test_a_tier_no_display_can_pay_is_refused_by_check(tmp_path):
    """HANDS of 18 or 23 against a dealer's 18 to 20: no HAND ever wins, so no legend line can be shown."""
    doc = _doc(points=[18, 23, 18, 23])
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "tiers[0].wins: area 'bj' (blackjack): no display lets 1 of the 3 hands win")


def test_a_tier_of_two_legend_prizes_is_refused_by_check_and_by_audits_reader(tmp_path):
    doc = _doc()
    doc["play"]["max_wins"] = 2
    doc["tiers"][1]["wins"] *= 2
    (tmp_path / "g.toml").write_text(dumps(doc))
    message = "tiers[1].wins: area 'bj' (blackjack): 2 wins in the area; a ticket wins there at most 1 times"
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")
    with pytest.raises(UnusableInput) as caught:
        read_spec(tmp_path / "g.toml")
    assert str(caught.value) == f"{tmp_path / 'g.toml'}: {message}"
