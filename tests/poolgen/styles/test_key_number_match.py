"""Wild Side's layouts (specs/wild_side.toml: two key_number_match areas and a bonus_reveal area, laid
out by poolgen/styles/), checked by a small evaluator written here from the contracts alone
(specs/wild_side.md, docs/styles/key_number_match.md, docs/styles/bonus_reveal.md). The pool
file's columns are read back into the regulation's terms first: LUCKY NUMBERS = numbers_win_*,
YOUR NUMBERS = numbers_your_* over numbers_prize_*, YOUR WILD NUMBERS = wild_your_* over
wild_prize_*, WILD BONUS = bonus_spot_*; a number code is its place among the 46 numbers."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency, chisquare

from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SPECS
from tests.support.spec_docs import kn_doc, write

SEED = bytes(range(32))
NOT_A_NUMBER = 255  # what a number code outside the 46 reads as

WS_NUMBERS = np.array([3, 4, 6, 7, 8, 9, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26,
                       27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45,
                       46, 47, 48, 49, 51, 52, 53])
WS_PRIZES = ("FREE", "2", "5", "10", "15", "25", "50", "100", "500", "1000", "25000")
WS_PRIZE_VALUE = np.array([500, 200, 500, 1000, 1500, 2500, 5000, 10000, 50000, 100000, 2500000])
WS_BONUS = ("GLDBAR", "BILL", "PGYBNK", "COIN", "POTGLD", "CLOVER", "DIAMND", "HRSHOE",
            "WIN10", "WIN25", "WIN50")
WS_BONUS_VALUE = np.array([0] * 8 + [1000, 2500, 5000])



def _stack(cols, name, n):
    return np.stack([np.asarray(cols[f"{name}_{j}"], dtype=np.int64) for j in range(n)], axis=1)


def ws_evaluate(cols: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Wild Side, contract sections 4 and 5: prize, wins, won prize codes per area, legal."""
    lucky, bonus = _stack(cols, "lucky", 5), _stack(cols, "bonus", 3)
    your, your_p = _stack(cols, "your", 12), _stack(cols, "your_prize", 12)
    wild, wild_p = _stack(cols, "wild", 12), _stack(cols, "wild_prize", 12)
    is_number = np.zeros(256, dtype=bool)
    is_number[WS_NUMBERS] = True
    legal = np.ones(len(lucky), dtype=bool)
    for a in (lucky, your, wild):
        legal &= ((a >= 0) & (a < 256)).all(axis=1)
        legal &= is_number[np.clip(a, 0, 255)].all(axis=1)
    s = np.sort(lucky, axis=1)
    legal &= (s[:, 1:] != s[:, :-1]).all(axis=1)
    for a in (your_p, wild_p, bonus):
        legal &= ((a >= 0) & (a <= 10)).all(axis=1)
    your_p, wild_p, bonus = (np.clip(a, 0, 10) for a in (your_p, wild_p, bonus))
    match_y = (your[:, :, None] == lucky[:, None, :]).any(axis=2)
    match_w = (wild[:, :, None] == lucky[:, None, :]).any(axis=2)
    match_b = bonus >= 8
    wins = match_y.sum(axis=1) + match_w.sum(axis=1) + match_b.sum(axis=1)
    legal &= wins <= 21
    legal &= ~(match_w & (wild_p == 0)).any(axis=1)
    for area, match in ((your, match_y), (wild, match_w)):
        # non-matching numbers pairwise distinct
        tagged = np.where(match, 1000 + np.arange(12)[None, :], area)
        t = np.sort(tagged, axis=1)
        legal &= (t[:, 1:] != t[:, :-1]).all(axis=1)
        # matching numbers use the lucky numbers as evenly as possible
        k = match.sum(axis=1)
        per = ((area[:, :, None] == lucky[:, None, :]) & match[:, :, None]).sum(axis=1)
        legal &= (per.min(axis=1) >= k // 5) & (per.max(axis=1) <= -(-k // 5))
    prize = ((match_y * WS_PRIZE_VALUE[your_p]).sum(axis=1)
             + 5 * (match_w * WS_PRIZE_VALUE[wild_p]).sum(axis=1)
             + (match_b * WS_BONUS_VALUE[bonus]).sum(axis=1))
    won = {
        "your": np.stack([((your_p == c) & match_y).sum(axis=1) for c in range(11)], axis=1),
        "wild": np.stack([((wild_p == c) & match_w).sum(axis=1) for c in range(11)], axis=1),
        "bonus": np.stack([(bonus == c).sum(axis=1) for c in range(8, 11)], axis=1),
    }
    return {"prize": prize, "wins": wins, "legal": legal, "won": won, "lucky": lucky}



# The pool file's columns -> the regulation's spots (wild_side.md section 1).
RENAME = ([(f"numbers_win_{j}", f"lucky_{j}", True) for j in range(5)]
          + [(f"numbers_your_{j}", f"your_{j}", True) for j in range(12)]
          + [(f"numbers_prize_{j}", f"your_prize_{j}", False) for j in range(12)]
          + [(f"wild_your_{j}", f"wild_{j}", True) for j in range(12)]
          + [(f"wild_prize_{j}", f"wild_prize_{j}", False) for j in range(12)]
          + [(f"bonus_spot_{j}", f"bonus_{j}", False) for j in range(3)])


def spots(raw: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The 56 spots by the regulation's names; numbers as the number itself."""
    out = {}
    for column, name, number in RENAME:
        code = np.asarray(raw[column], dtype=np.int64)
        out[name] = (np.where((code >= 0) & (code < 46), WS_NUMBERS[np.clip(code, 0, 45)], NOT_A_NUMBER)
                     if number else code)
    return out


def codes(row: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The inverse of `spots` for an edited row: the pool file's columns."""
    index = {int(v): i for i, v in enumerate(WS_NUMBERS)}
    out = {}
    for column, name, number in RENAME:
        v = np.asarray(row[name], dtype=np.int64)
        out[column] = np.array([index.get(int(x), 46 + int(x) % 200) for x in v]) if number else v
    return out


def ws_expected(spec, pool) -> dict[str, np.ndarray]:
    """Per pool tier: counts of each prize code won in each area, as the spec's tiers say."""
    wins = spec.play.wins
    n = len(pool.tiers)
    out = {"your": np.zeros((n, 11), int), "wild": np.zeros((n, 11), int),
           "bonus": np.zeros((n, 3), int)}
    for i, pt in enumerate(pool.tiers[1:], start=1):
        for w in wins[pt.id]:
            if w.area == "numbers":
                out["your"][i, WS_PRIZES.index(w.prize.code)] += 1
            elif w.area == "wild":
                assert w.by == 5
                out["wild"][i, WS_PRIZES.index(w.prize.code)] += 1
            else:
                out["bonus"][i, WS_BONUS.index(w.prize.code) - 8] += 1
    return out


def ws_wins(spec, tier_id: str) -> dict[str, int]:
    wins = spec.play.wins[tier_id]
    return {a: sum(w.area == a for w in wins) for a in ("numbers", "wild", "bonus")}


def pool_tiers(pool, seed: bytes = SEED) -> np.ndarray:
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    return base[permutation(derive_stream(seed, "test", "order"), base.size)]


def lay(spec, pool, tiers, seed: bytes = SEED) -> dict[str, np.ndarray]:
    """The pool file's layout columns, as the styles lay them out."""
    return spec.play.lay_out(spec, pool, tiers, derive_stream(seed, "test", "layout"))


@pytest.fixture(scope="module")
def ws():
    spec = load_spec(SPECS / "wild_side.toml")
    pool = spec.pools[0]
    tiers = pool_tiers(pool)
    raw = lay(spec, pool, tiers)
    return spec, pool, tiers, spots(raw), raw


def independent(feature: np.ndarray, win: np.ndarray) -> float:
    """p-value of the chi-square test of independence of a feature and win/lose."""
    values = np.unique(feature)
    table = np.array([[np.sum((feature == v) & win), np.sum((feature == v) & ~win)]
                      for v in values])
    return float(chi2_contingency(table)[1])


def test_ws_columns(ws):
    spec, pool, tiers, cols, raw = ws
    want = ([f"numbers_win_{j}" for j in range(5)] + [f"numbers_your_{j}" for j in range(12)]
            + [f"numbers_prize_{j}" for j in range(12)] + [f"wild_your_{j}" for j in range(12)]
            + [f"wild_prize_{j}" for j in range(12)] + [f"bonus_spot_{j}" for j in range(3)])
    assert list(raw) == want
    areas = tomllib.loads((SPECS / "wild_side.toml").read_text())["areas"]
    assert [a["spots"] for a in areas] == [29, 24, 3] and len(want) == 56  # (c) 56 play spots
    for c in raw.values():
        assert c.dtype == np.uint8 and c.shape == (pool.tickets,)


def test_ws_code_tables_match_spec(ws):
    spec = ws[0]
    assert [s.code for s in spec.symbols_in("number")] == [f"{n:02d}" for n in WS_NUMBERS]
    assert [int(s.code) for s in spec.symbols_in("number")] == WS_NUMBERS.tolist()
    assert tuple(s.code for s in spec.symbols_in("prize")) == WS_PRIZES
    assert [s.cents for s in spec.symbols_in("prize")] == WS_PRIZE_VALUE.tolist()
    bonus = spec.symbols_in("bonus_play") + spec.symbols_in("bonus_prize")
    assert tuple(s.code for s in bonus) == WS_BONUS
    assert [s.cents or 0 for s in bonus] == WS_BONUS_VALUE.tolist()


def test_ws_every_ticket_pays_its_tier(ws):
    spec, pool, tiers, cols, raw = ws
    r = ws_evaluate(cols)
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    want = ws_expected(spec, pool)
    for area in ("your", "wild", "bonus"):
        assert np.array_equal(r["won"][area], want[area][tiers]), area


def test_ws_win_counts_per_tier(ws):
    spec, pool, tiers, cols, raw = ws
    wins = ws_evaluate(cols)["wins"]
    assert (wins[tiers == 0] == 0).all()
    for i, pt in enumerate(pool.tiers[1:], start=1):
        k = sum(ws_wins(spec, pt.id).values())
        assert (wins[tiers == i] == k).all(), pt.id
        assert np.sum(tiers == i) == pt.count
    assert wins.max() == 21  # tier t30
    assert np.sum(tiers == 0) == pool.tickets - 49212


def test_ws_numbers_distinct_within_areas_except_t30(ws):
    spec, pool, tiers, cols, raw = ws
    t30 = [t.id for t in pool.tiers].index("t30")
    for name in ("your", "wild"):
        a = np.sort(_stack(cols, name, 12), axis=1)
        dup = (a[:, 1:] == a[:, :-1]).any(axis=1)
        assert not dup[tiers != t30].any()
        assert dup[tiers == t30].all()
    # ... but the two areas may share numbers, on losers as well as winners
    shared = (_stack(cols, "your", 12)[:, :, None] == _stack(cols, "wild", 12)[:, None, :])
    assert shared.any(axis=(1, 2))[tiers == 0].mean() > 0.5


def test_ws_lucky_numbers_carry_no_information(ws):
    spec, pool, tiers, cols, raw = ws
    lucky = _stack(cols, "lucky", 5)
    win = tiers > 0
    assert independent(lucky.min(axis=1), win) > 0.01
    assert independent(lucky[:, 0], win) > 0.01
    # the prize won does not show either: smallest lucky number of the $5+ winners vs the rest
    assert independent(lucky.min(axis=1)[win] // 8, tiers[win] <= 2) > 0.01


def test_ws_spots_carry_no_information(ws):
    spec, pool, tiers, cols, raw = ws
    win = tiers > 0
    for name in ("your_prize_0", "wild_prize_0", "your_prize_11", "wild_prize_6", "your_0",
                 "wild_0"):
        assert independent(cols[name], win) > 0.01, name


def test_ws_winning_spots_are_uniform(ws):
    spec, pool, tiers, cols, raw = ws
    lucky = _stack(cols, "lucky", 5)
    match = (_stack(cols, "your", 12)[:, :, None] == lucky[:, None, :]).any(axis=2)
    one = [t.id for t in pool.tiers].index("t02")  # one YOUR win
    where = np.argmax(match[tiers == one], axis=1)
    counts = np.bincount(where, minlength=12)
    assert chisquare(counts)[1] > 0.01


def test_ws_every_symbol_appears(ws):
    spec, pool, tiers, cols, raw = ws
    numbers = np.unique(np.concatenate([_stack(cols, n, k).ravel() for n, k in
                                        (("lucky", 5), ("your", 12), ("wild", 12))]))
    assert numbers.tolist() == WS_NUMBERS.tolist()
    for name, k in (("lucky", 5), ("your", 12), ("wild", 12)):
        assert np.unique(_stack(cols, name, k)).tolist() == WS_NUMBERS.tolist(), name
    prizes = np.unique(np.concatenate([_stack(cols, "your_prize", 12).ravel(),
                                       _stack(cols, "wild_prize", 12).ravel()]))
    assert prizes.tolist() == list(range(11))
    assert np.unique(_stack(cols, "your_prize", 12)[tiers == 0]).tolist() == list(range(11))
    assert np.unique(_stack(cols, "bonus", 3)).tolist() == list(range(11))


def test_ws_bonus_area_never_shows_one_play_symbol_three_times(ws):
    """Section 5 / "Displays that are never shown": three equal play symbols in the WILD BONUS spots
    read as a match; tickets without a bonus win show the 504 other triples, each about equally often,
    and whether a ticket shows a repeated play symbol stays independent of win/lose."""
    spec, pool, tiers, cols, raw = ws
    bonus = _stack(cols, "bonus", 3).astype(np.int64)
    same = (bonus == bonus[:, :1]).all(axis=1) & (bonus[:, 0] < 8)
    assert int(same.sum()) == 0
    plain = (bonus < 8).all(axis=1)
    triple = bonus[plain] @ np.array([64, 8, 1])
    counts = np.bincount(triple, minlength=512)
    assert (counts[[73 * c for c in range(8)]] == 0).all()
    assert chisquare(np.delete(counts, [73 * c for c in range(8)]))[1] > 0.01
    pair = (bonus[plain, 0] == bonus[plain, 1]) | (bonus[plain, 1] == bonus[plain, 2]) \
        | (bonus[plain, 0] == bonus[plain, 2])
    table = np.zeros((2, 2), dtype=np.int64)
    np.add.at(table, ((tiers[plain] > 0).astype(int), pair.astype(int)), 1)
    assert chi2_contingency(table)[1] > 0.01, table


def test_ws_reproducible(ws):
    spec, pool, tiers, cols, raw = ws
    again = lay(spec, pool, tiers)
    assert all(raw[k].tobytes() == again[k].tobytes() for k in raw)
    other = lay(spec, pool, tiers, seed=bytes(32))
    assert any(not np.array_equal(raw[k], other[k]) for k in raw)


def _row(cols, tiers, pool, tier_id: str) -> dict[str, np.ndarray]:
    t = [x.id for x in pool.tiers].index(tier_id)
    i = int(np.flatnonzero(tiers == t)[0])
    return {k: v[i:i + 1].astype(np.int64) for k, v in cols.items()}


def _spot(row, area: str, matching: bool) -> int:
    lucky = [int(row[f"lucky_{j}"][0]) for j in range(5)]
    for j in range(12):
        if (int(row[f"{area}_{j}"][0]) in lucky) == matching:
            return j
    raise AssertionError("no such spot")


def test_ws_illegal_layouts_are_rejected(ws):
    spec, pool, tiers, cols, raw = ws
    assert ws_evaluate(_row(cols, tiers, pool, "lose"))["legal"][0]

    def broken(tier_id, edit):
        row = _row(cols, tiers, pool, tier_id)
        edit(row)
        return ws_evaluate(row)

    # a loser whose YOUR NUMBER matches a lucky number pays: the audit rejects it against tier lose
    def match_loser(row):
        row[f"your_{_spot(row, 'your', False)}"][0] = row["lucky_2"][0]
    r = broken("lose", match_loser)
    assert r["prize"][0] > 0 and r["wins"][0] == 1
    r = broken("lose", lambda row: row["bonus_1"].__setitem__(0, 9))
    assert r["prize"][0] == 2500

    illegal = {
        "not a number": lambda row: row["your_0"].__setitem__(0, 5),
        "lucky too big": lambda row: row["lucky_4"].__setitem__(0, 54),
        "lucky repeated": lambda row: row["lucky_1"].__setitem__(0, row["lucky_0"][0]),
        "prize code": lambda row: row["wild_prize_3"].__setitem__(0, 11),
        "bonus code": lambda row: row["bonus_2"].__setitem__(0, 11),
        "decoys repeated": lambda row: row[f"your_{(_spot(row, 'your', False) + 1) % 12}"]
        .__setitem__(0, row[f"your_{_spot(row, 'your', False)}"][0]),
    }
    for why, edit in illegal.items():
        row = _row(cols, tiers, pool, "lose")
        edit(row)
        assert not ws_evaluate(row)["legal"][0], why

    # 22 wins: tier t30 has 21; make one of its WILD decoys match
    def extra_win(row):
        row[f"wild_{_spot(row, 'wild', False)}"][0] = row["lucky_0"][0]
    r = broken("t30", extra_win)
    assert r["wins"][0] == 22 and not r["legal"][0]
    assert ws_evaluate(_row(cols, tiers, pool, "t30"))["wins"][0] == 21

    # a WILD win on a FREE ticket
    def wild_free(row):
        row[f"wild_prize_{_spot(row, 'wild', True)}"][0] = 0
    assert not broken("t05", wild_free)["legal"][0]

    # two matching YOUR NUMBERS repeat a lucky number while another lucky number is unused
    def lopsided(row):
        a = _spot(row, "your", True)
        lucky = [int(row[f"lucky_{j}"][0]) for j in range(5)]
        b = next(j for j in range(12) if j != a and int(row[f"your_{j}"][0]) in lucky)
        row[f"your_{b}"][0] = row[f"your_{a}"][0]
    r = broken("t13", lopsided)
    assert r["prize"][0] == 2500 and not r["legal"][0]


@settings(max_examples=20, deadline=None)
@given(counts=st.lists(st.integers(0, 3), min_size=35, max_size=35),
       seed=st.binary(min_size=32, max_size=32))
def test_ws_any_tier_mix_pays_exactly(counts, seed):
    spec = load_spec(SPECS / "wild_side.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(35), counts)
    tiers = base[permutation(derive_stream(seed, "o"), base.size)]
    r = ws_evaluate(spots(lay(spec, pool, tiers, seed)))
    assert r["legal"].all()
    assert np.array_equal(r["prize"], np.array([t.prize_cents for t in pool.tiers])[tiers])
    want = ws_expected(spec, pool)
    for area in ("your", "wild", "bonus"):
        assert np.array_equal(r["won"][area], want[area][tiers])


def test_the_spec_checks_clean():
    assert check_spec(load_spec(SPECS / "wild_side.toml")).problems == []


def _edited(tmp_path, old: str, new: str) -> Path:
    text = (SPECS / "wild_side.toml").read_text()
    assert text.count(old) >= 1, old
    path = tmp_path / "wild_side.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def test_ws_bad_decoy_weights(tmp_path):
    path = _edited(tmp_path, '"1000" = 3, "25000" = 1 }', '"1000" = 3, "25000" = 0 }')
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/wild_side.toml: areas[0].decoy_weights.25000: must be a whole "
                              "number 1 .. "
                              "1000000 (every prize symbol is shown), not 0")


def test_ws_wild_free_tier_refused(tmp_path):
    path = _edited(tmp_path, 'wins = [ { area = "wild", prize = "2", how = "match", by = 5 } ]',
                   'wins = [ { area = "wild", prize = "FREE", how = "match", by = 5 } ]')
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/wild_side.toml: tiers[4].wins[0]: area 'wild' "
                              "(key_number_match): a free "
                              "ticket cannot be multiplied (the area's matches pay 5 times)")


def test_a_multiplier_symbol_no_tier_wins_is_refused(tmp_path):
    """A 2X special no tier wins with was accepted: a multiplier the game prints that never pays is a
    field nothing uses (docs/styles/key_number_match.md, section 2)."""
    doc = kn_doc()
    doc["tiers"] = [t for t in doc["tiers"] if t["id"] != "2"]  # the one tier of the 2X
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: areas[0].specials: not used: no tier wins with its "
                              "multiplier '2X' "
                              "(the game would print a multiplier that never pays)")
    assert load_spec(write(tmp_path, kn_doc())).play.wins["2"][0].by == 2


@pytest.mark.parametrize("special, message", [
    ({"group": "special", "code": "ALL", "symbol": "win all", "how": "all"},
     "no tier wins with its win-all symbol 'ALL' (the game would print a symbol that never pays)"),
    ({"group": "special", "code": "STAR", "symbol": "star", "how": "automatic"},
     "a win shows the area's first automatic symbol, 'BAG': 'STAR' is never shown"),
    ({"group": "special", "code": "TWO", "symbol": "2X", "how": "multiplier", "by": 2},
     "a win shows the area's first multiplier symbol by 2, '2X': 'TWO' is never shown")],
    ids=["win-all", "second automatic", "second multiplier by 2"])
def test_a_special_symbol_no_win_shows_is_refused(tmp_path, special, message):
    """An automatic or win-all symbol no tier wins with, or a second symbol of the same kind (a win
    shows the first), was accepted: a special symbol no ticket shows is a field nothing uses
    (docs/styles/key_number_match.md, section 2)."""
    doc = kn_doc()
    doc["symbols"].append(special)
    if special["how"] == "all":  # a win-all area has cash prizes only (no FREE tier)
        doc["symbols"] = [s for s in doc["symbols"] if s["code"] != "FREE"]
        doc["tiers"] = [t for t in doc["tiers"] if t["id"] != "free"]
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == f"{tmp_path}/g.toml: areas[0].specials: not used: {message}"


def test_an_automatic_symbol_no_tier_wins_is_refused(tmp_path):
    """The moneybag's one tier removed: no ticket would show it (contract, section 6), so it is a
    field nothing uses, refused naming the area's `specials`."""
    doc = kn_doc()
    doc["tiers"] = [t for t in doc["tiers"] if t["id"] != "6"]
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: areas[0].specials: not used: no tier wins with its "
                              "automatic symbol "
                              "'BAG' (the game would print a symbol that never pays)")
