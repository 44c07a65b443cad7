"""match_n layouts (poolgen/styles/match_n/style.py, decoys.py) checked by a small evaluator written
here from docs/styles/match_n.md alone: Happy Holidays (specs/happy_holidays.toml) on a full pool,
its probe variants ($2, nine spots), and areas that win more than once or with a multiplier."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import spec_path
from tests.support.spec_docs import base_doc, dumps

SEED = bytes(range(32))
HH_CODES = ("FREE", "1", "2", "5", "20", "100")  # specs/happy_holidays.md section 2
HH_VALUE = np.array([100, 100, 200, 500, 2000, 10000], dtype=np.int64)


def evaluate(cols: dict[str, np.ndarray], area: str, spots: int, match: int, cents: list[int],
             by: list[int]) -> dict[str, np.ndarray]:
    """match_n.md section 5: prize, wins (as sorted (amount, k) per row), legal."""
    codes = np.stack([np.asarray(cols[f"{area}_spot_{j}"], dtype=np.int64) for j in range(spots)], axis=1)
    p = len(cents)
    legal = ((codes >= 0) & (codes < p + len(by))).all(axis=1)
    count = np.stack([(codes == i).sum(axis=1) for i in range(p)], axis=1)
    mults = [np.flatnonzero(row >= p) for row in codes]
    legal &= (count <= match).all(axis=1) & np.array([len(m) <= 1 for m in mults], dtype=bool)
    prize, wins = np.zeros(len(codes), dtype=np.int64), []
    for r in range(len(codes)):
        won = []
        for i in range(p):
            if count[r, i] == match:
                won.append((i, 1))
            elif count[r, i] == match - 1 and len(mults[r]) == 1:
                won.append((i, by[codes[r, mults[r][0]] - p]))
        prize[r] = sum(k * cents[i] for i, k in won)
        wins.append(tuple(won))
    return {"prize": prize, "wins": wins, "legal": legal, "count": count}


def pool_tiers(pool, seed: bytes = SEED) -> np.ndarray:
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    return base[permutation(derive_stream(seed, "test", "order"), base.size)]


def lay(spec, pool, tiers, seed: bytes = SEED) -> dict[str, np.ndarray]:
    return spec.play.lay_out(spec, pool, tiers, derive_stream(seed, "test", "layout"))


def independent(feature: np.ndarray, win: np.ndarray) -> float:
    values = np.unique(feature)
    table = np.array([[np.sum((feature == v) & win), np.sum((feature == v) & ~win)] for v in values])
    return float(chi2_contingency(table)[1])


@pytest.fixture(scope="module")
def hh():
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    tiers = pool_tiers(pool)
    return spec, pool, tiers, lay(spec, pool, tiers)


def hh_eval(cols):
    return evaluate(cols, "play", 6, 3, HH_VALUE.tolist(), [])


# ---------------------------------------------------------------------------------------------
# Happy Holidays, a full pool

def test_hh_columns(hh):
    spec, pool, tiers, cols = hh
    assert list(cols) == [f"play_spot_{j}" for j in range(6)]
    for c in cols.values():
        assert c.dtype == np.uint8 and c.shape == (pool.tickets,)


def test_hh_code_table_matches_spec(hh):
    area = hh[0].play.areas[0].params
    assert tuple(s.code for s in area.prizes) == HH_CODES
    assert [s.cents for s in area.prizes] == HH_VALUE.tolist()
    assert [s.caption for s in area.prizes] == ["TICKET", "ONE$", "TWO$", "FIVE$", "TWENTY", "ONE-HUN"]
    assert area.multipliers == () and (area.spots, area.match) == (6, 3)


def test_hh_every_ticket_pays_its_tier(hh):
    spec, pool, tiers, cols = hh
    r = hh_eval(cols)
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    want = [()] + [((HH_CODES.index(spec.play.wins[t.id][0].prize.code), 1),) for t in pool.tiers[1:]]
    assert all(w == want[t] for w, t in zip(r["wins"], tiers.tolist(), strict=True))
    # section 7: a winner shows its triple and every other amount at most twice; a loser at most twice
    top = np.sort(r["count"], axis=1)
    assert (top[tiers > 0, -1] == 3).all() and (top[tiers > 0, -2] <= 2).all()
    assert (top[tiers == 0, -1] <= 2).all()


def test_hh_no_display_the_regulation_does_not_pay(hh):
    """specs/happy_holidays.md section 4, counted on the full pool: 0 of each."""
    spec, pool, tiers, cols = hh
    count = hh_eval(cols)["count"]
    assert int((count >= 4).any(axis=1).sum()) == 0  # a symbol four or more times
    assert int(((count == 3).sum(axis=1) >= 2).sum()) == 0  # two triples
    assert int(((count == 3).any(axis=1) & (tiers == 0)).sum()) == 0  # a loser's triple


def test_hh_spot_symbol_carries_no_information(hh):
    spec, pool, tiers, cols = hh
    for j in range(6):
        assert independent(cols[f"play_spot_{j}"], tiers > 0) > 0.01, j


def test_hh_losers_show_the_winners_mixture(hh):
    """match_n.md section 7: a ticket without a win shows amount s m(s) times on average, m(s) the
    winners' mean count (no multipliers here); to within sampling error on 212,100 losers."""
    spec, pool, tiers, cols = hh
    count = hh_eval(cols)["count"]
    winners = count[tiers > 0].mean(axis=0)
    losers = count[tiers == 0]
    sd = losers.std(axis=0) / np.sqrt(len(losers))
    assert (np.abs(losers.mean(axis=0) - winners) < 4 * sd + 0.004).all()
    # every loser shows two layers of three distinct amounts: 6 spots, each amount at most twice
    assert (losers.sum(axis=1) == 6).all() and set(np.unique((losers > 0).sum(axis=1))) <= {3, 4, 5, 6}


def test_hh_every_symbol_appears(hh):
    spec, pool, tiers, cols = hh
    assert np.unique(np.concatenate(list(cols.values()))).tolist() == [0, 1, 2, 3, 4, 5]
    on_losers = np.unique(np.concatenate([c[tiers == 0] for c in cols.values()]))
    assert on_losers.tolist() == [0, 1, 2, 3, 4, 5]


def test_hh_reproducible(hh):
    spec, pool, tiers, cols = hh
    again = lay(spec, pool, tiers)
    assert all(cols[k].tobytes() == again[k].tobytes() for k in cols)
    other = lay(spec, pool, tiers, seed=bytes(32))
    assert any(not np.array_equal(cols[k], other[k]) for k in cols)


@settings(max_examples=25, deadline=None)
@given(counts=st.lists(st.integers(0, 7), min_size=7, max_size=7), seed=st.binary(min_size=32, max_size=32))
def test_hh_any_tier_mix_pays_exactly(counts, seed):
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    base = np.repeat(np.arange(7), counts)
    tiers = base[permutation(derive_stream(seed, "o"), base.size)]
    r = hh_eval(lay(spec, pool, tiers, seed))
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])


def test_the_layer_probabilities_of_pool_p1():
    """m(s) of section 7 for p1's counts, exactly, and the two layers of 3 that make it."""
    from poolgen.styles.match_n import decoys
    from poolgen.styles.match_n import style as match_n
    spec = load_spec(spec_path("happy_holidays"))
    area, pool = spec.play.areas[0].params, spec.pool("p1")
    groups = [(np.arange(t.count), spec.play.wins[t.id]) for t in pool.tiers]
    winners = [(t.count, *match_n.expected(area, spec.play.wins[t.id])) for t in pool.tiers[1:]]
    m, capped = decoys.targets(6, 6, 2, winners)
    w = 87_900
    share = [20_000, 39_350, 23_500, 4_100, 500, 450]
    assert not capped and m == [Fraction(3 * n, w) + Fraction(3, 5) * Fraction(w - n, w) for n in share]
    plan, _ = match_n.decoy_plan(area, groups, [t.count for t in pool.tiers])
    assert [k for k, _ in plan] == [3, 3]
    assert [int(p.sum()) for _, p in plan] == [3 << 32, 3 << 32]
    assert all(abs(Fraction(int(a + b), 1 << 32) - x) <= Fraction(2, 1 << 32)
               for a, b, x in zip(plan[0][1], plan[1][1], m, strict=True))


# ---------------------------------------------------------------------------------------------
# The probe cases of issue 13

def _variant(tmp_path, old: str, new: str):
    text = spec_path("happy_holidays").read_text()
    assert text.count(old) == 1, old
    path = tmp_path / "happy_holidays.toml"
    path.write_text(text.replace(old, new))
    return load_spec(path)


def test_nine_spots_are_honoured(tmp_path):
    spec = _variant(tmp_path, "spots = 6\n", "spots = 9\n")
    pool = spec.pools[0]
    tiers = pool_tiers(pool)
    cols = lay(spec, pool, tiers)
    assert list(cols) == [f"play_spot_{j}" for j in range(9)]
    r = evaluate(cols, "play", 9, 3, HH_VALUE.tolist(), [])
    assert r["legal"].all() and (r["count"].sum(axis=1) == 9).all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    assert check_spec(spec).problems == []


def test_more_spots_than_the_amounts_can_fill_are_refused(tmp_path):
    with pytest.raises(SpecError) as err:
        _variant(tmp_path, "spots = 6\n", "spots = 13\n")
    assert str(err.value) == (f"{tmp_path}/happy_holidays.toml: areas[0].prizes: 6 prize symbols, each at "
                              "most 2 times, "
                              "cannot fill a losing ticket's 13 spots")
    # twelve is the most: a loser shows each of the 6 amounts twice, a winner its triple and 9 of
    # the other 5 amounts' 10
    assert check_spec(_variant(tmp_path, "spots = 6\n", "spots = 12\n")).problems == []


def test_sold_at_two_dollars_a_free_ticket_is_two_dollars(tmp_path):
    spec = _variant(tmp_path, 'price = "1.00"', 'price = "2.00"')
    pool = spec.pools[0]
    assert [t.prize_cents for t in pool.tiers] == [0, 200, 100, 200, 500, 2000, 10000]
    tiers = pool_tiers(pool)
    r = evaluate(lay(spec, pool, tiers), "play", 6, 3, [200, *HH_VALUE.tolist()[1:]], [])
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    # the regulation's $1 figures no longer reconcile: exactly the free row and the total say so
    assert check_spec(spec).problems == [
        "Happy Holidays: (i): row 1 (Free Ticket) prize cost: published $120,000.00, computed "
        "120,000 x $2.00 = $240,000.00",
        "Happy Holidays: (i): prize cost total: published $1,103,611.00, computed $1,211,100.00 + "
        "$12,511.00 other = $1,223,611.00"]


# ---------------------------------------------------------------------------------------------
# More than one win in an area, multipliers, and check's refusals

def _game(tmp_path, tiers, *, spots=9, max_wins=3, mults=True):
    prizes = [{"group": "prize", "code": c, "symbol": f"${c}", "value": f"{c}.00"}
              for c in ("1", "2", "5", "10", "20", "50", "100")]
    symbols = prizes + ([{"group": "mult", "code": f"{k}X", "symbol": f"{k}X", "by": k} for k in (2, 5)]
                        if mults else [])
    area = {"id": "bonus", "style": "match_n", "spots": spots, "match": 3, "prizes": "prize"}
    if mults:
        area["multipliers"] = "mult"
    path = tmp_path / "g.toml"
    path.write_text(dumps(base_doc([area], symbols, tiers, max_wins=max_wins, pool_tickets=20_000)))
    return load_spec(path)


def _win(prize, how="match", by=None):
    return {"area": "bonus", "prize": prize, "how": how} | ({"by": by} if by else {})


MULTI = [{"id": "two", "count": 600, "wins": [_win("1"), _win("2")]},
         {"id": "three", "count": 300, "wins": [_win("1"), _win("5"), _win("20")]},
         {"id": "x2", "count": 1500, "wins": [_win("10", "multiplier", 2)]},
         {"id": "m+x5", "count": 400, "wins": [_win("20"), _win("1", "multiplier", 5)]},
         {"id": "x2x2", "count": 300, "wins": [_win("2", "multiplier", 2), _win("5", "multiplier", 2)]},
         {"id": "one", "count": 1500, "wins": [_win("5")]}]


def test_an_area_wins_up_to_three_times(tmp_path):
    spec = _game(tmp_path, MULTI)
    pool = spec.pools[0]
    tiers = pool_tiers(pool)
    cols = lay(spec, pool, tiers)
    r = evaluate(cols, "bonus", 9, 3, [100, 200, 500, 1000, 2000, 5000, 10000], [2, 5])
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    want = {"lose": (), "two": ((0, 1), (1, 1)), "three": ((0, 1), (2, 1), (4, 1)), "x2": ((3, 2),),
            "m+x5": ((0, 5), (4, 1)), "x2x2": ((1, 2), (2, 2)), "one": ((2, 1),)}
    ids = [t.id for t in pool.tiers]
    wrong = Counter(w for w, t in zip(r["wins"], tiers.tolist(), strict=True) if w != want[ids[t]])
    assert wrong == Counter()
    # a multiplier symbol shows exactly on the tickets with a multiplied win
    shown = np.stack([cols[f"bonus_spot_{j}"] for j in range(9)], axis=1) >= 7
    multiplied = np.isin(tiers, [ids.index(t) for t in ("x2", "m+x5", "x2x2")])
    assert np.array_equal(shown.any(axis=1), multiplied)
    # among spots that show an amount, spot 0 says nothing about winning (section 8)
    spot0 = cols["bonus_spot_0"]
    amount = spot0 < 7
    assert not any("area 'bonus'" in n for n in check_spec(spec).notes)
    assert independent(spot0[amount], (tiers > 0)[amount]) > 0.01


@pytest.mark.parametrize(("wins", "spots", "message"), [
    ([_win("1"), _win("1")], 9, "two wins of one amount: an amount shows N like amounts once"),
    ([_win("1", "multiplier", 2), _win("2", "multiplier", 5)], 9,
     "multiplied wins of different k: a ticket shows one multiplier symbol"),
    ([_win("1"), _win("2"), _win("5"), _win("10")], 9, "4 wins need 12 spots, the area has 9"),
    ([_win("1", "multiplier", 2)], 12,
     "the other 6 amounts, each at most 1 times, cannot fill the 9 other spots without a second win"),
    ([_win("1"), _win("2", "multiplier", 2)], 13,
     "the other 5 amounts, each at most 1 times, cannot fill the 7 other spots without another win"),
])
def test_wins_an_area_cannot_lay_out_are_refused(tmp_path, wins, spots, message):
    with pytest.raises(SpecError) as err:
        _game(tmp_path, [{"id": "t", "count": 10, "wins": wins}], spots=spots, max_wins=4)
    assert str(err.value) == f"{tmp_path}/g.toml: tiers[0].wins: area 'bonus' (match_n): {message}"


def test_a_multiplier_no_tier_wins_is_refused(tmp_path):
    """An area whose 5X no tier wins was accepted: a multiplier the game prints that never pays is a
    field nothing uses (docs/styles/match_n.md, section 2)."""
    with pytest.raises(SpecError) as err:
        _game(tmp_path, [t for t in MULTI if t["id"] != "m+x5"])
    assert str(err.value) == (f"{tmp_path}/g.toml: areas[0].multipliers: not used: no tier wins with its "
                              "multiplier '5X' "
                              "(the game would print a multiplier that never pays)")
    assert _game(tmp_path, MULTI).play.areas[0].params.multipliers  # with a tier of it: accepted


def test_check_notes_when_losers_cannot_match_the_winners(tmp_path):
    """Nearly every ticket wins three $1: losers (at most two of each) cannot show $1 as often."""
    spec = _game(tmp_path, [{"id": "t", "count": 19_000, "wins": [_win("1")]}], spots=6, mults=False)
    assert check_spec(spec).notes == [
        "Test Game: the prize table is designed, not the regulation's: computed figures only where nothing "
        "is published",
        "Test Game: pool p1: area 'bonus': winners show some amount more than 2 times in 6 spots on average: "
        "losers cannot match them, so one spot's amount is not independent of winning "
        "(docs/styles/match_n.md section 8)"]
