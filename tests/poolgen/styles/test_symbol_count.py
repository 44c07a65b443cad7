"""symbol_count layouts (poolgen/styles/symbol_count.py) read back here from
docs/styles/symbol_count.md alone: a full pool of Five Alarm Flames
(specs/examples/five_alarm_flames.toml) shows each tier's count of the symbol and decoys within their
cap; a loser's count is uniform below the legend's smallest; the loader refuses, in one line, what it
cannot lay out."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from poolgen.loader import load_spec
from tests.support.cli import invoke, one_line
from tests.support.laid_out import laid_out_first_pool
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/five_alarm_flames.toml"
PICTURES = ["FLAME", "PEPPER", "SUN", "BELL", "HYDRANT"]  # the example's codes 0..4; FLAME is counted
COUNT = {"2": 3, "5": 4, "50": 5, "1000": 6}  # the example's legend: prize code -> FLAMES shown


@pytest.fixture(scope="module")
def full_pool():
    return laid_out_first_pool(EXAMPLE)


def test_every_ticket_shows_its_tiers_count_and_decoys_within_their_cap(full_pool):
    spec, pool, tiers, cols = full_pool
    codes = np.stack([cols[f"flames_spot_{j}"] for j in range(8)], axis=1).astype(np.int64)
    assert codes.shape == (300_000, 8) and codes.min() >= 0 and codes.max() <= 4
    flames = (codes == 0).sum(axis=1)
    for d in range(1, 5):
        assert ((codes == d).sum(axis=1) <= 2).all()
    want = np.array([next((COUNT[w.prize.code] for w in spec.play.wins[t.id] if w.area == "flames"), -1)
                     for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(flames[want >= 0], want[want >= 0])
    no_prize = flames[want < 0]
    assert no_prize.max() == 2
    assert chisquare(np.bincount(no_prize, minlength=3)).pvalue > 1e-4  # 0, 1, 2 alike often


def test_where_the_flames_are_says_nothing_beyond_their_number(full_pool):
    spec, pool, tiers, cols = full_pool
    codes = np.stack([cols[f"flames_spot_{j}"] for j in range(8)], axis=1).astype(np.int64)
    four = (codes == 0).sum(axis=1) == 4
    per_spot = (codes[four] == 0).sum(axis=0)
    assert chisquare(per_spot).pvalue > 1e-4  # each spot alike among tickets of one count


def _doc(n_pictures: int = 3, **area: object) -> dict:
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in "ABCDEFGHIJ"[:n_pictures]]
    prizes = [{"group": "lp", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "sc", "style": "symbol_count", "spots": 4, "pictures": "pic", "symbol": "A",
            "prizes": "lp", "legend": [{"count": 2, "prize": "1"}, {"count": 3, "prize": "2"}],
            "most_alike": 2}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "sc", "prize": "1", "how": "match"}]}]
    return base_doc([{k: v for k, v in base.items() if v is not None}], pictures + prizes, tiers,
                    pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"symbol": "Z"}, "areas[0].symbol: 'Z' is not one of the area's pictures"),
    ({"spots": 65}, "areas[0].spots: must be at most 64, got 65"),
    ({"legend": [{"count": 5, "prize": "1"}]}, "areas[0].legend[0].count: must be at most 4, got 5"),
    ({"legend": [{"count": 3, "prize": "1"}, {"count": 2, "prize": "2"}]},
     "areas[0].legend[1].count: the legend lists counts in increasing order"),
    ({"legend": [{"count": 2, "prize": "1"}, {"count": 3, "prize": "1"}]},
     "areas[0].legend[1].prize: prize '1' is already the legend's for another count"),
    ({"legend": [{"count": 2, "prize": "9"}]},
     "areas[0].legend[0].prize: not one of the area's prize symbols"),
    ({"legend": [{"count": 2, "prize": "1", "by": 2}]}, "areas[0].legend[0].by: unknown field"),
    ({"most_alike": 1},
     "areas[0].pictures: 2 decoy pictures, each at most 1 times, cannot fill a ticket's 4 "),
    ({"n_pictures": 10, "spots": 9, "most_alike": 1, "legend": [{"count": 1, "prize": "1"}]},
     "areas[0].most_alike: fewer than 1 in 1,000 draws of 9 decoys in 9 spots keep each at most 1 times"),
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize(("win", "field", "message"), [
    ({"area": "sc", "prize": "7", "how": "match"}, "prize", "prize '7' is not one the legend lists"),
    ({"area": "sc", "prize": "1", "how": "reveal"}, "how", "how = 'reveal': a symbol_count win is \"match\""),
    ({"area": "sc", "prize": "1", "how": "match", "by": 3}, "by",
     "the legend's prize wins as listed: no `by`"),
])
def test_wins_the_legend_does_not_give_are_refused_naming_the_field(tmp_path, win, field, message):
    doc = _doc()
    doc["tiers"][0]["wins"] = [win]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             f"g.toml: tiers[0].wins[0].{field}: area 'sc' (symbol_count): {message}")


def test_decoys_just_loose_enough_are_accepted(tmp_path):
    # 8 decoys, 8 spots, each at most once: 8! / 8^8 = 0.0024 of draws qualify (at least 1 in 1,000)
    doc = _doc(n_pictures=9, spots=8, most_alike=1, legend=[{"count": 1, "prize": "1"}])
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert invoke("check", tmp_path / "g.toml").exit_code == 0


def test_a_legend_prize_no_tier_wins_is_refused(tmp_path):
    """A legend line no tier wins was accepted: every ticket would print a prize that never wins, a field
    nothing uses (docs/styles/symbol_count.md, section 2)."""
    doc = _doc()  # its one tier wins the legend's $1 alone
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].legend[1].prize: not used: no tier wins '2' (every ticket would print it in "
             "the legend, and it could never win)")
    doc["tiers"].append({"id": "u", "count": 5, "wins": [{"area": "sc", "prize": "2", "how": "match"}]})
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert [w.prize.code for w in load_spec(tmp_path / "g.toml").play.wins["u"]] == ["2"]
