"""Primetime Payout layouts of the area_match style (poolgen/styles/area_match.py), checked by an
evaluator written here from specs/primetime_payout.md and docs/styles/area_match.md."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from decimal import Decimal
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from poolgen.check.figures import GameCheck
from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from poolgen.run.build import build_pool
from poolgen.styles.area_match import style as pp
from tests.support import spec_path

SPEC_PATH = spec_path("primetime_payout")
SEED = bytes(range(32))
FULL_POOL = "d2.00x3"

# --- the contract, as the doc states it (sections 3, 4 and 6) ---------------------------------
CODES = ("CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ", "GFOOT", "TD",
         "FG", "COIN", "JCOIN")
MATCHABLE = (1, 2, 3, 4, 5, 6, 7, 8, 13)
GFOOT, TD, FG, COIN = 9, 10, 11, 12
GRID = np.array([1, 2, 3, 4, 2, 1])
MULTIPLIERS = ["0.5", "1", "1.5", "2", "2.5", "3", "3.5", "4", "4.5", "5", "6", "7", "8", "9", "10",
               "12", "15", "17", "19", "20", "22", "25", "27", "30", "35", "40", "42", "43", "50",
               "52", "54", "55", "56", "57", "59", "60", "65", "67", "69", "70", "72", "74", "75",
               "77", "79", "80", "82", "84", "87", "89", "90", "100", "250", "500", "1000", "1004",
               "2500", "5000"]


def evaluate(cols: dict, k: int, denom: int) -> tuple[np.ndarray, np.ndarray, dict]:
    """(prize cents, illegal, per-area win kinds) of every row, by sections 4-6 of the doc."""
    n = len(cols["a0_s0"])
    allowed = np.array(sorted(int(Decimal(x) * denom) for x in MULTIPLIERS), dtype=np.int64)
    prize = np.zeros(n, dtype=np.int64)
    bad = np.zeros(n, dtype=bool)
    kinds = {}
    assert set(cols) == {f"a{i}_{c}" for i in range(k) for c in
                         ("s0", "s1", "s2", "s3", "amount", "bonus", "bonus_result",
                          "bonus_prizes")}
    for i in range(k):
        s = np.stack([cols[f"a{i}_s{j}"].astype(np.int64) for j in range(4)], axis=1)
        bad |= ((s < 1) | (s > 13)).any(axis=1)
        coins = (s == COIN).sum(axis=1)
        best = np.max([(s == c).sum(axis=1) for c in MATCHABLE], axis=0)
        match = coins + best
        g, t, f = ((s == x).any(axis=1) for x in (GFOOT, TD, FG))
        bad |= g & t & f
        trigger = np.where(g & t, 1, np.where(g & f, 2, 0))
        bonus = cols[f"a{i}_bonus"].astype(np.int64)
        res = cols[f"a{i}_bonus_result"].astype(np.int64)
        nprz = cols[f"a{i}_bonus_prizes"].astype(np.int64)
        amount = cols[f"a{i}_amount"]
        assert amount.dtype == np.int64
        bad |= bonus != trigger
        bad |= (bonus == 0) & ((res != 0) | (nprz != 0))
        popcount = np.array([bin(x).count("1") for x in range(256)])[np.clip(res, 0, 255)]
        bad |= (bonus == 1) & ((res < 1) | (res > 15) | (popcount != nprz))
        bad |= (bonus == 2) & ((res > 5) | (GRID[np.clip(res, 0, 5)] != nprz))
        bad |= (bonus != 0) & (nprz == 0)
        bad |= (amount <= 0) | ~np.isin(amount, allowed)
        win = np.where(match == 4, 2 * amount, np.where(
            match == 3, amount, np.where(trigger != 0, nprz * amount, 0)))
        prize += win
        kinds[i] = np.where(match == 4, "match4", np.where(match == 3, "match3", np.where(
            trigger == 1, "touchdown", np.where(trigger == 2, "field_goal", "lose"))))
    return prize, bad, kinds


# --- helpers ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec():
    return load_spec(SPEC_PATH)


def full_tiers(pool, seed: bytes = SEED) -> np.ndarray:
    base = np.repeat(np.arange(len(pool.tiers), dtype=np.int16), [t.count for t in pool.tiers])
    return base[permutation(derive_stream(seed, "test", pool.id, "order"), len(base))]


def small_tiers(pool, each: int = 3, losers: int = 40) -> np.ndarray:
    """Every winning tier `each` times and some losers, in a fixed shuffled order."""
    base = np.concatenate([np.zeros(losers, np.int16),
                           np.repeat(np.arange(1, len(pool.tiers), dtype=np.int16), each)])
    return base[permutation(derive_stream(SEED, "test", pool.id, "small"), len(base))]


def lay(spec, pool, tiers, label: str = "layout"):
    return spec.play.lay_out(spec, pool, tiers, derive_stream(SEED, "test", pool.id, label))


def assert_pays(spec, pool, tiers, cols) -> dict:
    prizes = np.array([t.prize_cents for t in pool.tiers], dtype=np.int64)[tiers]
    got, bad, kinds = evaluate(cols, pool.play_areas, pool.denomination_cents)
    assert not bad.any(), f"{bad.sum()} illegal rows, first at {np.nonzero(bad)[0][:5]}"
    np.testing.assert_array_equal(got, prizes)
    for c in cols.values():
        assert len(c) == len(tiers)
    return kinds


# --- a full pool ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def full(spec):
    pool = spec.pool(FULL_POOL)
    tiers = full_tiers(pool)
    return pool, tiers, lay(spec, pool, tiers)


@pytest.mark.slow
def test_full_pool_pays_every_share_exactly(spec, full):
    pool, tiers, cols = full
    assert len(tiers) == 1_000_000
    kinds = assert_pays(spec, pool, tiers, cols)
    # every kind of win occurs, and a losing share has only losing areas
    seen = set(np.concatenate([kinds[i][tiers > 0] for i in range(3)]).tolist())
    assert seen == {"lose", "match3", "match4", "touchdown", "field_goal"}
    assert all((kinds[i][tiers == 0] == "lose").all() for i in range(3))
    assert sum(int(cols[f"a{i}_bonus"].astype(bool).sum()) for i in range(3)) > 100_000


@pytest.mark.slow
def test_full_pool_dtypes(full):
    _, _, cols = full
    assert len(cols) == 3 * 8
    for name, c in cols.items():
        want = np.int64 if name.endswith("_amount") else np.uint8
        assert c.dtype == want, name


@pytest.mark.slow
def test_full_pool_shows_every_symbol(full):
    _, _, cols = full
    symbols = np.concatenate([cols[f"a{i}_s{j}"] for i in range(3) for j in range(4)])
    assert set(np.unique(symbols).tolist()) == set(range(1, 14))
    # including Jackpot Coin in winning matches and Coin as a wild
    assert (symbols == 13).sum() > 100_000


@pytest.mark.slow
def test_first_spot_carries_no_information(full):
    """a0_s0 against win/lose: chi-square test of independence, 99% level."""
    _, tiers, cols = full
    table = np.zeros((2, 13), dtype=np.int64)
    np.add.at(table, ((tiers > 0).astype(int), cols["a0_s0"].astype(int) - 1), 1)
    assert (table > 0).all()
    _, p, dof, _ = chi2_contingency(table)
    assert dof == 12
    assert p > 0.01, table
    # the marginal is uniform over the 13 codes as well
    assert abs(table.sum(axis=0) / len(tiers) - 1 / 13).max() < 0.002


def test_one_area_amount_carries_no_information(spec):
    """With one area the amount is the only money a share shows: decoys copy winning amounts."""
    pool = spec.pool("d1.00x1")
    tiers = full_tiers(pool)
    cols = lay(spec, pool, tiers)
    assert_pays(spec, pool, tiers, cols)
    amounts, win = cols["a0_amount"], tiers > 0
    values, idx = np.unique(amounts, return_inverse=True)
    table = np.zeros((2, len(values)), dtype=np.int64)
    np.add.at(table, (win.astype(int), idx), 1)
    common = table.sum(axis=0) >= 200  # pool the rare amounts into one column
    table = np.concatenate([table[:, common], table[:, ~common].sum(axis=1, keepdims=True)], axis=1)
    _, p, _, _ = chi2_contingency(table)
    assert p > 0.01, table


@pytest.mark.slow
def test_decompositions_vary_within_a_tier(spec, full):
    pool, tiers, cols = full
    wins = np.stack([evaluate_area_wins(cols, i, pool.denomination_cents) for i in range(3)],
                    axis=1)
    for t in (1, 7, len(pool.tiers) - 1):  # x5000 (2 shares), x100, x0.5
        rows = np.sort(wins[tiers == t], axis=1)
        assert (rows.sum(axis=1) == pool.tiers[t].prize_cents).all()
    m1 = [x.id for x in pool.tiers].index("m1")
    shapes = np.unique(np.sort(wins[tiers == m1], axis=1), axis=0)
    assert len(shapes) == len(pp.decompositions(spec.play.params, Decimal(1), 3)[0]) == 7
    # and a winning share's prize is not always in area 0
    winners = tiers > 0
    assert 0.2 < (wins[winners, 1] > 0).mean() < 0.9


def evaluate_area_wins(cols, i: int, denom: int) -> np.ndarray:
    one = {f"a0_{c}": cols[f"a{i}_{c}"] for c in ("s0", "s1", "s2", "s3", "amount", "bonus",
                                                  "bonus_result", "bonus_prizes")}
    return evaluate(one, 1, denom)[0]


@pytest.mark.slow
def test_reproducible(spec, full):
    pool, tiers, cols = full
    again = lay(spec, pool, tiers)
    assert list(again) == list(cols)
    for name in cols:
        assert again[name].tobytes() == cols[name].tobytes(), name
    other = lay(spec, pool, tiers, label="another")
    assert any(other[n].tobytes() != cols[n].tobytes() for n in cols)


# --- all 16 pools, small ----------------------------------------------------------------------


def test_every_pool_laid_out_small_pays_its_prizes(spec):
    assert len(spec.pools) == 16
    for pool in spec.pools:
        tiers = small_tiers(pool)
        cols = lay(spec, pool, tiers)
        assert_pays(spec, pool, tiers, cols)
        assert len(cols) == 8 * pool.play_areas


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pool_index=st.integers(0, 15), seed=st.binary(min_size=32, max_size=32),
       picks=st.lists(st.integers(0, 58), min_size=1, max_size=60))
def test_any_tiers_evaluate_to_their_prize(spec, pool_index, seed, picks):
    pool = spec.pools[pool_index]
    tiers = np.array(picks, dtype=np.int16)
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(seed, "hyp"))
    assert_pays(spec, pool, tiers, cols)


def test_a_pool_of_only_losers_shows_only_losing_areas(spec):
    pool = spec.pool("d5.00x2")
    tiers = np.zeros(500, dtype=np.int16)
    cols = lay(spec, pool, tiers)
    kinds = assert_pays(spec, pool, tiers, cols)
    assert (kinds[0] == "lose").all() and (kinds[1] == "lose").all()


# --- decompositions and check_structure --------------------------------------------------------


def brute_decompositions(m: Decimal, k: int) -> set[tuple[int, ...]]:
    halves = [int(2 * Decimal(x)) for x in MULTIPLIERS]
    values = {0} | {n * a for a in halves for n in range(1, 5)}
    # section 7: a share plays at most one bonus game, so at most one value that only a bonus wins
    bonus_only = {v for v in values - {0} if v not in halves and not (v % 2 == 0 and v // 2 in halves)}
    total = int(2 * m * k)
    return {c for c in itertools.combinations_with_replacement(sorted(v for v in values
                                                                      if v <= total), k)
            if sum(c) == total and sum(v in bonus_only for v in c) <= 1}


@pytest.mark.parametrize("m", ["0.5", "1", "3.5", "4.5", "10", "43"])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_decompositions_match_brute_force(spec, m, k):
    rows, total = pp.decompositions(spec.play.params, Decimal(m), k)
    got = [tuple(r) for r in rows.tolist()]
    assert got == sorted(got)  # lexicographic, no duplicates
    assert len(set(got)) == len(got) == total
    assert set(got) == brute_decompositions(Decimal(m), k)


def test_every_tier_of_every_pool_has_a_decomposition(spec):
    p = spec.play.params
    for pool in spec.pools:
        for t in spec.tiers:
            rows, total = pp.decompositions(p, t.times, pool.play_areas)
            assert total >= 1 and len(rows) == min(total, p.cap)
            assert (rows.sum(axis=1) == 2 * t.times * pool.play_areas).all()
    # with one area, the whole prize is one area's win
    assert pp.decompositions(p, Decimal("1004"), 1)[1] == 1


def test_cap_thins_evenly(spec):
    p = spec.play.params
    full_rows, n = pp.decompositions(p, Decimal("100"), 4)
    assert n == 18_192 and len(full_rows) == n
    small = dataclasses.replace(p, cap=1000)
    rows, n2 = pp.decompositions(small, Decimal("100"), 4)
    assert n2 == n and len(rows) == 1000
    np.testing.assert_array_equal(rows, full_rows[(np.arange(1000) * n) // 1000])


def test_check_structure_passes_and_notes(spec):
    assert spec.play.module is pp
    result = check_spec(spec)
    assert result.problems == []
    note = [n for n in result.notes if "decomposes into play-area wins" in n]
    assert len(note) == 1
    assert "16 pools" in note[0] and "18,192" in note[0]


def edited_spec(tmp_path: Path, old: str, new: str):
    text = SPEC_PATH.read_text()
    assert old in text
    path = tmp_path / "primetime_payout.toml"
    path.write_text(text.replace(old, new, 1))
    return load_spec(path)


def test_an_unreachable_tier_is_refused_by_check_as_by_generate(spec, tmp_path):
    """check listed it as a figure that disagrees (exit 1) while generate refused it (exit 2): a spec
    that cannot be laid out is bad input, the same one line from both."""
    # 1004 = 2 x 502 = 4 x 251: without 1004 among the amounts one area cannot win it
    bad = edited_spec(tmp_path, '"1000", "1004",', '"1000",')
    line = (f"{tmp_path}/primetime_payout.toml: tiers[2]: pool d1.00x1: the prize cannot be made of "
            "play-area wins with "
            "layout.amount_multipliers")
    with pytest.raises(SpecError) as err:
        bad.play.check(bad, GameCheck(bad))
    assert str(err.value) == line  # the first pool it fails in: d1.00x1 (also d2.00x1, d5.00x1, d7.50x1)
    with pytest.raises(SpecError) as err:
        bad.play.lay_out(bad, bad.pool("d1.00x1"), np.array([3], dtype=np.int16), derive_stream(SEED, "x"))
    assert str(err.value) == line


@pytest.mark.parametrize(("old", "new", "message"), [
    ("grid = [1, 2, 3, 4, 2, 1]", "grid = [1, 2, 3, 2, 1]",
     "layout.bonus_games\\[1\\]: wins 1, 2, 3 prizes, bonus_games\\[0\\] 1, 2, 3, 4: every bonus game "
     "must win the same numbers of prizes"),
    ("grid = [1, 2, 3, 4, 2, 1]", "grid = [1, 2, 3, 4, 0, 1]",
     "layout.bonus_games\\[1\\].grid: must list 1 to 255 sections' numbers of prizes, each a whole "
     "number 1..255"),
    ("chances = 4", "chances = 9", "layout.bonus_games\\[0\\].chances: must be a whole number 1..8, not 9"),
    ('symbol = "TD"', 'symbol = "GFOOT"',
     "layout.bonus_games\\[0\\].symbol: 'GFOOT' is already the wild, the bonus key or another game's symbol"),
    ('symbol = "TD"', 'symbol = "TDX"',
     "layout.bonus_games\\[0\\].symbol: must be the code of one of the \\[\\[symbols\\]\\], not 'TDX'"),
    ('wild = "COIN"', 'wild = "GFOOT"', "layout.bonus_key: must not be the wild symbol"),
    ("match_pays = [{count = 3, times = 1}, {count = 4, times = 2}]", "match_pays = [{count = 3, times = 1}]",
     "layout.match_pays: must be \\[{count = 3, times = ...}, {count = 4, times = ...}\\]"),
    ("{count = 4, times = 2}", "{count = 4, times = 5}",
     "layout.match_pays\\[1\\].times: 5: S like symbols \\(which hold no bonus symbol\\) must pay as "
     "often as S - 1 \\(1\\) or a number of prizes the bonus games win \\(1, 2, 3, 4\\)"),
    ("{count = 4, times = 2}", "{count = 4, times = 0}",
     "layout.match_pays\\[1\\].times: must be a whole number 1..255, not 0"),
    ("spots_per_area = 4", "spots_per_area = 3", "play.spots_per_area: must be 4, 5 or 6, not 3"),
    ('amount_multipliers = ["0.5",', 'amount_multipliers = ["0.25",',
     "layout.amount_multipliers\\[0\\]: '0.25' must be a positive multiple of 0.5"),
    ('amount_multipliers = ["0.5",', 'amount_multipliers = [0.5,',
     "layout.amount_multipliers\\[0\\]: must be a decimal string"),
    ("max_decompositions = 50000", "max_decompositions = 0",
     "layout.max_decompositions: must be a whole number 1..10,000,000, not 0"),
    ("max_decompositions = 50000", "max_decompositions = 50000\nbonus = 3",
     "layout.bonus: unknown field"),
])
def test_bad_layout_tables(tmp_path, old, new, message):
    """The style reads every parameter when the spec loads, so `check` refuses it as unusable input
    (exit 2), in one line naming the field."""
    text = SPEC_PATH.read_text()
    assert old in text
    path = tmp_path / "primetime_payout.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(SpecError, match="primetime_payout.toml: " + message) as err:
        load_spec(path)
    assert "\n" not in str(err.value)


def test_symbol_codes_follow_the_spec(spec):
    assert tuple(s.code for s in spec.symbols) == CODES == tuple(spec.play.document()["symbols"])
    p = spec.play.params
    assert (p.wild, p.key, tuple(g.symbol for g in p.games), p.matchable) == (
        COIN, GFOOT, (TD, FG), MATCHABLE)


# --- displays that are never shown (section 5, rules 10 and 11; issue 12) ---------------------


def unpaid_displays(table: pl.DataFrame, k: int) -> dict[str, int]:
    """How many shares show each display that a plain reading of (f) takes for a win the share is
    not paid, counted from the contract alone (polars, independent of the layout code)."""
    def count(i: int, code: int) -> pl.Expr:
        return pl.sum_horizontal((pl.col(f"a{i}_s{j}") == code).cast(pl.Int8) for j in range(4))

    def shows(i: int, *codes: int) -> pl.Expr:
        return pl.any_horizontal(pl.col(f"a{i}_s{j}").is_in(codes) for j in range(4))

    triple, unpaid_triple, second = [], [], []
    for i in range(k):
        counts = {c: count(i, c) for c in range(1, 14)}
        match = counts[COIN] + pl.max_horizontal(counts[c] for c in MATCHABLE)
        most = pl.max_horizontal(counts.values())
        trigger = shows(i, GFOOT) & shows(i, TD, FG)
        triple.append(pl.any_horizontal(counts[c] >= 3 for c in (GFOOT, TD, FG)))
        unpaid_triple.append((most >= 3) & (match < 3))
        second.append(trigger & pl.any_horizontal(counts[c] >= 2 for c in (GFOOT, TD, FG)))
    cross = [shows(i, GFOOT) & shows(j, TD, FG) for i in range(k) for j in range(k) if i != j]
    kinds = {
        "three or more of one bonus symbol in an area": pl.any_horizontal(triple),
        "three or more identical symbols in an area that wins no match": pl.any_horizontal(unpaid_triple),
        "a trigger with a second Golden Football, Touchdown or Field Goal": pl.any_horizontal(second),
        "Golden Football in one area, Touchdown or Field Goal in another": (
            pl.any_horizontal(cross) if cross else pl.lit(False)),
    }
    sums = table.select(**{name: expr.sum() for name, expr in kinds.items()})
    return {name: int(sums[name][0]) for name in kinds}


@pytest.mark.slow
@pytest.mark.parametrize("pool_id", ["d1.00x1", "d7.50x4"])
def test_full_pools_show_no_unpaid_win(spec, pool_id):
    """Two whole pools as poolgen builds them (one and four play areas): every share pays exactly,
    and none shows a display of rules 10 and 11, counted kind by kind."""
    pool = spec.pool(pool_id)
    table = build_pool(spec, pool, SEED)
    assert table.height == 1_000_000
    cols = {c: table[c].to_numpy() for c in table.columns if re.match(r"a\d_", c)}
    index = {t.id: i for i, t in enumerate(pool.tiers)}
    tiers = table["tier"].replace_strict(index, return_dtype=pl.Int16).to_numpy()
    assert_pays(spec, pool, tiers, cols)
    assert unpaid_displays(table, pool.play_areas) == dict.fromkeys(
        ["three or more of one bonus symbol in an area",
         "three or more identical symbols in an area that wins no match",
         "a trigger with a second Golden Football, Touchdown or Field Goal",
         "Golden Football in one area, Touchdown or Field Goal in another"], 0)
    # and the first spot still carries no information: chi-square test of independence at 99%
    table2 = np.zeros((2, 13), dtype=np.int64)
    np.add.at(table2, ((tiers > 0).astype(int), cols["a0_s0"].astype(int) - 1), 1)
    _, p, dof, _ = chi2_contingency(table2)
    assert dof == 12 and p > 0.01, table2
    if pool.play_areas > 1:  # section 8: losing areas show bonus symbols alike on winners and losers
        shown = np.zeros((2, 3), dtype=np.int64)
        for i in range(pool.play_areas):
            one = {f"a0_{c}": cols[f"a{i}_{c}"] for c in ("s0", "s1", "s2", "s3", "amount", "bonus",
                                                          "bonus_result", "bonus_prizes")}
            losing = evaluate(one, 1, pool.denomination_cents)[0] == 0
            s = np.stack([cols[f"a{i}_s{j}"] for j in range(4)], axis=1)[losing]
            what = np.where((s == GFOOT).any(axis=1), 1, np.where(np.isin(s, (TD, FG)).any(axis=1), 2, 0))
            np.add.at(shown, ((tiers[losing] > 0).astype(int), what), 1)
        _, p, dof, _ = chi2_contingency(shown)
        assert dof == 2 and p > 0.01, shown


def test_the_counter_finds_each_display():
    """unpaid_displays counts each kind on hand-built shares (so a zero above means something)."""
    def share(*areas: list[int]) -> dict[str, list[int]]:
        return {f"a{i}_s{j}": [a[j]] for i, a in enumerate(areas) for j in range(4)}

    rows = [share([9, 9, 9, 1], [1, 2, 3, 4]), share([1, 1, 1, 10], [9, 2, 3, 4]),
            share([9, 10, 10, 1], [1, 2, 3, 4]), share([9, 10, 1, 2], [1, 2, 3, 4])]
    table = pl.concat([pl.DataFrame(r, schema=dict.fromkeys(r, pl.UInt8)) for r in rows])
    assert list(unpaid_displays(table, 2).values()) == [1, 1, 1, 1]


@pytest.mark.parametrize(("spots", "pays", "pool_id"), [
    (5, "[{count = 4, times = 1}, {count = 5, times = 3}]", "d2.00x3"),
    (5, "[{count = 4, times = 2}, {count = 5, times = 3}]", "d7.50x4"),
    (4, "[{count = 3, times = 1}, {count = 4, times = 4}]", "d1.00x2"),
    (4, "[{count = 3, times = 2}, {count = 4, times = 2}]", "d5.00x2"),
])
def test_other_spots_and_pays_lay_out_what_audit_pays(tmp_path, spots, pays, pool_id):
    """The style with 5 spots or other match pays: every tier laid out, audit's engine (from the
    play entry) pays each share its tier's prize and finds nothing illegal."""
    from audit.styles.area_match import evaluate as audit_evaluate

    text = SPEC_PATH.read_text().replace("spots_per_area = 4 ", f"spots_per_area = {spots} ").replace(
        "match_pays = [{count = 3, times = 1}, {count = 4, times = 2}]", f"match_pays = {pays}")
    path = tmp_path / "variant.toml"
    path.write_text(text)
    spec = load_spec(path)
    assert check_spec(spec).problems == []
    pool = spec.pool(pool_id)
    tiers = small_tiers(pool, each=2, losers=200)
    cols = lay(spec, pool, tiers)
    assert sorted(c for c in cols if c.startswith("a0_s")) == [f"a0_s{j}" for j in range(spots)]
    table = pl.DataFrame({"tier": np.array([t.id for t in pool.tiers])[tiers],
                          "prize_cents": np.array([t.prize_cents for t in pool.tiers],
                                                  dtype=np.int64)[tiers],
                          **cols})
    entry = {"id": pool.id, "price_cents": pool.price_cents, "denomination_cents": pool.denomination_cents,
             "play_areas": pool.play_areas}
    result = audit_evaluate(table, entry, spec.play.document())
    assert result.illegal == []
    np.testing.assert_array_equal(result.prize_cents, table["prize_cents"].to_numpy())


GAME_SYMBOLS = ("TD", "FG", "BOTTLE")


@st.composite
def style_variants(draw):
    """Random parameters of the style on Primetime Payout's symbols and tiers: spots, match pays, one to
    three bonus games (chances or grids), the key, a subset of the amounts."""
    spots = draw(st.sampled_from([4, 5]))
    low = draw(st.integers(1, 3))
    chances = draw(st.integers(1, 4))
    full = draw(st.one_of(st.just(low), st.integers(1, chances), st.integers(1, 6)))  # the last often refused
    n_games = draw(st.integers(1, 3))
    games = [f'[[layout.bonus_games]]\nname = "G0"\nsymbol = "{GAME_SYMBOLS[0]}"\nchances = {chances}\n']
    for j in range(1, n_games):
        grid = draw(st.permutations(list(range(1, chances + 1)) + draw(st.lists(st.integers(1, chances),
                                                                                max_size=3))))
        games.append(f'[[layout.bonus_games]]\nname = "G{j}"\nsymbol = "{GAME_SYMBOLS[j]}"\n'
                     f'grid = {list(grid)}\n')
    drop = draw(st.lists(st.sampled_from(MULTIPLIERS), max_size=4, unique=True))  # may unmake a tier
    added = draw(st.lists(st.sampled_from(["3000", "7.5", "11"]), max_size=2, unique=True))
    amounts = [m for m in MULTIPLIERS if m not in drop] + added
    return spots, low, full, games, amounts, draw(st.integers(0, 15))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(style_variants())
def test_a_variant_check_accepts_lays_out_what_audit_pays(tmp_path, variant):
    """Every variant `check` accepts lays out every tier of a pool, and audit's engine pays each share its
    prize; a variant it refuses is refused with one line naming the field."""
    from audit.styles.area_match import evaluate as audit_evaluate

    spots, low, full, games, amounts, pool_index = variant
    text = SPEC_PATH.read_text()
    head, _, _ = text.partition("[[layout.bonus_games]]")
    head = head.replace("spots_per_area = 4 ", f"spots_per_area = {spots} ").replace(
        "match_pays = [{count = 3, times = 1}, {count = 4, times = 2}]",
        f"match_pays = [{{count = {spots - 1}, times = {low}}}, {{count = {spots}, times = {full}}}]")
    head = re.sub(r"amount_multipliers = \[[^\]]*\]", f"amount_multipliers = {json.dumps(amounts)}", head)
    rest = text[text.index("[published]"):]
    path = tmp_path / "variant.toml"
    path.write_text(head + "\n".join(games) + "\n" + rest)
    try:
        spec = load_spec(path)
    except SpecError as exc:  # a parameter the style cannot take: refused in one line when it loads
        assert "\n" not in str(exc) and str(exc).startswith(f"{tmp_path}/variant.toml: ")
        event("refused when loaded")
        return
    try:
        result = check_spec(spec)
    except SpecError as exc:  # a tier no layout makes: one line; generate refuses the pool it names alike
        named = re.search(r": pool (d\d+\.\d\dx\d): ", str(exc))
        assert "\n" not in str(exc) and named, str(exc)
        pool = spec.pool(named.group(1))
        with pytest.raises(SpecError) as err:
            lay(spec, pool, small_tiers(pool, each=1, losers=20))
        assert str(err.value) == str(exc)
        event("refused by check")
        return
    assert result.problems == []
    pool = spec.pools[pool_index]
    tiers = small_tiers(pool, each=1, losers=100)
    cols = lay(spec, pool, tiers)
    table = pl.DataFrame({"tier": np.array([t.id for t in pool.tiers])[tiers],
                          "prize_cents": np.array([t.prize_cents for t in pool.tiers],
                                                  dtype=np.int64)[tiers], **cols})
    entry = {"id": pool.id, "price_cents": pool.price_cents, "denomination_cents": pool.denomination_cents,
             "play_areas": pool.play_areas}
    out = audit_evaluate(table, entry, spec.play.document())
    assert out.illegal == []
    np.testing.assert_array_equal(out.prize_cents, table["prize_cents"].to_numpy())
    event("laid out and paid")
