"""key_number_match's win-all symbol on the generator's side (docs/styles/key_number_match.md, sections
1, 2 and 7.1), on specs/examples/money_bag_match.toml (a MONEYBAG wins all 10 prizes shown): what
`check` refuses, naming the field; every win-all ticket laid out shows exactly its sum, once, with no
other win beside it (and audit's engine agrees); and the drawn prize multisets follow the exact
weights (their numbers of orderings) on a small case."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from math import factorial

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import chdtrc

from audit.styles.play import evaluate
from poolgen.errors import SpecError
from poolgen.game.play import WinError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.styles import key_number_match
from poolgen.styles.key_number_all import TooManySets, draw_prizes, orderings, prize_sets
from tests.support import ROOT
from tests.support.spec_docs import replaced

SPEC = ROOT / "specs" / "examples" / "money_bag_match.toml"
VALUES = [200, 400, 500, 1000, 2000, 5000, 10_000, 100_000]  # the example's prize symbols, in order
BAG = 30  # the your-number code of the MONEYBAG: 30 numbers, then the special


@pytest.fixture(scope="module")
def game():
    return load_spec(SPEC)


@pytest.fixture(scope="module", params=["distinct_numbers", "repeats"])
def laid(request, tmp_path_factory):
    """The example as written (section 8.1's layout), and without `distinct_numbers` (section 7's)."""
    if request.param == "distinct_numbers":
        return load_spec(SPEC)
    return load_spec(replaced(SPEC, tmp_path_factory.mktemp("repeats"), "distinct_numbers = true\n", ""))


def _refusal(tmp_path, old: str, new: str) -> str:
    with pytest.raises(SpecError) as caught:
        load_spec(replaced(SPEC, tmp_path, old, new))
    return str(caught.value)


def test_check_refuses_a_win_all_sum_no_ten_prizes_make(tmp_path):
    # ten prizes of $2, $4, $5, ... add up to $21 only with one $5 and nine others making $16: below 9 x $2
    assert _refusal(tmp_path, 'prize = "30.00", how = "all"', 'prize = "21.00", how = "all"') == (
        f"{tmp_path}/money_bag_match.toml: tiers[7].wins[0].prize: area 'play' (key_number_match): $21.00 "
        "cannot be made "
        "from 10 of the area's prize symbols ($2.00, $4.00, $5.00, $10.00, $20.00, $50.00, $100.00, "
        "$1,000.00)")


def test_check_refuses_a_sum_below_ten_of_the_smallest_prize(tmp_path):
    assert "$19.98 cannot be made from 10" in _refusal(tmp_path, 'prize = "20.00", how = "all"',
                                                          'prize = "19.98", how = "all"')


def test_check_refuses_a_second_win_beside_a_win_all_win_in_its_area(tmp_path):
    assert _refusal(tmp_path, 'wins = [ { area = "play", prize = "50.00", how = "all" } ]',
                    'wins = [ { area = "play", prize = "50.00", how = "all" },\n'
                    '         { area = "play", prize = "2", how = "match" } ]') == (
        f"{tmp_path}/money_bag_match.toml: tiers[8].wins: area 'play' (key_number_match): a win-all symbol "
        "wins every "
        "prize of the area, each once: the tier lists no other win in it")


def test_check_refuses_a_win_all_win_with_a_by(tmp_path):
    assert _refusal(tmp_path, 'prize = "50.00", how = "all" }', 'prize = "50.00", how = "all", by = 2 }') \
        == (f"{tmp_path}/money_bag_match.toml: tiers[8].wins[0].by: area 'play' (key_number_match): a "
            "win-all win has "
            "no `by`")


def test_check_refuses_a_free_ticket_among_a_win_all_areas_prizes(tmp_path):
    assert _refusal(tmp_path, 'caption = "TWO$"\nvalue = "2.00"', 'caption = "TWO$"\nfree = true') == (
        f"{tmp_path}/money_bag_match.toml: areas[0].prizes: a free ticket cannot be part of a win-all "
        "symbol's sum: an "
        "area with one has cash prize symbols only")


def test_check_refuses_two_win_all_symbols_in_an_area(tmp_path):
    second = ('how = "all"                     # wins all 10 prizes shown, each once\n\n[[symbols]]\n'
              'group = "special"\ncode = "BAG2"\nsymbol = "bag"\ncaption = "WINALL"\nhow = "all"\n')
    assert _refusal(tmp_path, 'how = "all"                     # wins all 10 prizes shown, each once\n',
                    second) == (f"{tmp_path}/money_bag_match.toml: areas[0].specials: 2 win-all symbols "
                                "(BAG, BAG2): an area has at most one")


def test_two_win_all_tiers_of_other_sums_are_not_duplicates(game):
    wins = {t: game.play.wins[t][0] for t in ("bag20", "bag30", "bag50", "bag100")}
    assert {t: (w.how, w.by, w.prize.code, w.cents) for t, w in wins.items()} == {
        "bag20": ("all", 1, "BAG", 2000), "bag30": ("all", 1, "BAG", 3000),
        "bag50": ("all", 1, "BAG", 5000), "bag100": ("all", 1, "BAG", 10_000)}


def test_the_manifest_states_a_win_all_win_by_its_symbol_and_sum(game):
    tiers = {t["id"]: t["wins"] for t in game.play.document()["tiers"]}
    assert tiers["bag50"] == [{"area": "play", "how": "all", "by": 1, "prize": "BAG", "prize_cents": 5000}]
    assert game.play.document()["areas"][0]["specials"] == [{"code": "BAG", "how": "all", "by": 1}]


def test_the_sets_of_prizes_of_a_sum_are_every_one_and_in_order():
    # ten prizes adding up to $30: ten $2 make $20, so $10 more as a $4 adds 2, a $5 3, a $10 8: 2+2+2+2+2,
    # 2+2+3+3 or 8+2
    assert prize_sets(tuple(VALUES), 10, 3000) == ((5, 5, 0, 0, 0, 0, 0, 0), (6, 2, 2, 0, 0, 0, 0, 0),
                                                   (8, 1, 0, 1, 0, 0, 0, 0))
    assert [orderings(c) for c in prize_sets(tuple(VALUES), 10, 3000)] == [252, 1260, 90]
    assert prize_sets(tuple(VALUES), 10, 2000) == ((10, 0, 0, 0, 0, 0, 0, 0),)
    assert prize_sets(tuple(VALUES), 10, 2100) == ()


def test_a_sum_made_by_more_than_100000_sets_of_prizes_is_refused():
    """30 spots of the prizes 1 .. 10 adding up to 165: far more sets than `check` enumerates (2 s)."""
    with pytest.raises(TooManySets, match=r"^more than 100,000 sets of prizes make it$"):
        prize_sets(tuple(range(1, 11)), 30, 165)


def test_a_win_all_sum_too_many_sets_make_is_refused_naming_the_prize(game):
    """The refusal read_win gives the loader names the win's `prize` (tiers[i].wins[j].prize), as an
    unmakeable sum does, not the win as a whole: 30 spots of prizes 1 .. 10 cents adding up to $1.65."""
    params = game.play.areas[0].params
    cents = [dataclasses.replace(params.prizes[0], code=str(c), cents=c) for c in range(1, 11)]
    wide = dataclasses.replace(params, yours=30, prizes=tuple(cents))
    with pytest.raises(WinError) as caught:
        key_number_match.read_win(wide, "all", None, "1.65")
    assert (caught.value.field, str(caught.value)) == ("prize", "more than 100,000 sets of prizes make it")



def test_a_sum_of_prizes_of_unrelated_values_is_refused_after_a_bounded_search():
    """20 prize symbols whose values share nothing and 10 spots: no sum of them repeats another, so the
    partial sums multiply; deciding that an unreachable total is unreachable took 31 s (40 symbols and
    15 spots, minutes), and `check` hung on such a spec. Now refused once 300,000 partial sums are
    searched, in about a second."""
    values = (101, 257, 1009, 2003, 4001, 8009, 16_001, 32_003, 64_007, 128_021, 256_019, 512_009,
              1_024_021, 2_048_003, 4_096_013, 8_192_003, 16_384_001, 32_768_011, 65_536_043, 131_072_003)
    with pytest.raises(TooManySets, match=r"^more than 300,000 partial sums of the area's prize symbols to "
                                          r"search for it$"):
        prize_sets(values, 10, sum(values[:10]) + 1)

@settings(max_examples=25, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32),
       picks=st.lists(st.sampled_from(["bag20", "bag30", "bag50", "bag100", "2", "2x2", "lose"]),
                      min_size=1, max_size=40))
def test_every_win_all_ticket_shows_exactly_its_sum_and_nothing_else(laid, seed, picks):
    game = laid
    pool = game.pools[0]
    index = {t.id: i for i, t in enumerate(pool.tiers)}
    tiers = np.array([index[p] for p in picks])
    out = game.play.lay_out(game, pool, tiers, derive_stream(seed, "test", "win_all"))
    your = np.stack([out[f"play_your_{j}"] for j in range(10)], axis=1).astype(int)
    prize = np.stack([out[f"play_prize_{j}"] for j in range(10)], axis=1).astype(int)
    lucky = np.stack([out["play_win_0"], out["play_win_1"]], axis=1).astype(int)
    for r, tier in enumerate(picks):
        bags = int((your[r] == BAG).sum())
        matches = int(np.isin(your[r], lucky[r]).sum())
        if tier.startswith("bag"):
            assert (bags, matches) == (1, 0)
            assert sum(VALUES[k] for k in prize[r]) == pool.tiers[index[tier]].prize_cents
        else:
            assert bags == 0
    table = pl.DataFrame({"tier": picks} | out)
    cents = [pool.tiers[index[p]].prize_cents for p in picks]
    judged = evaluate(table, {"id": pool.id}, game.play.document())
    assert judged.illegal == [] and judged.prize_cents.tolist() == cents


def _exact(values: tuple[int, ...], yours: int, total: int) -> Counter[tuple[int, ...]]:
    """Every sequence of `yours` prize codes adding up to `total`, counted by its multiset (brute force)."""
    out: Counter[tuple[int, ...]] = Counter()
    for seq in itertools.product(range(len(values)), repeat=yours):
        if sum(values[k] for k in seq) == total:
            out[tuple(seq.count(k) for k in range(len(values)))] += 1
    return out


def test_the_drawn_multisets_follow_their_numbers_of_orderings():
    """Chi-square of 40,000 draws against the exact law (brute force over the 4^6 sequences: 416 add
    up to 15, in 6 multisets); a fixed seed, so the test is repeatable; p below 1e-4 fails. Measured
    (5 seeds): the 6 sets drawn alike instead of by their orderings give p = 0 (underflow); one set
    given 10% too much weight p from 5e-6 to 0.08; the exact weights p from 0.22 to 0.87."""
    values, yours, total = (1, 2, 3, 5), 6, 15
    exact = _exact(values, yours, total)
    sets = prize_sets(values, yours, total)
    assert set(sets) == set(exact) and all(exact[c] == orderings(c) for c in sets)
    assert sum(exact.values()) == sum(factorial(yours) // np.prod([factorial(c) for c in s]) for s in sets)
    draws = 40_000
    codes = draw_prizes(derive_stream(bytes(32), "test", "win_all", "law"), values, yours, total, draws)
    assert (np.array(values)[codes].sum(axis=1) == total).all()
    got = Counter(tuple(np.bincount(row, minlength=len(values)).tolist()) for row in codes)
    expected = np.array([exact[s] for s in sets], dtype=float) * draws / sum(exact.values())
    observed = np.array([got[s] for s in sets], dtype=float)
    stat = float(((observed - expected) ** 2 / expected).sum())
    assert chdtrc(len(sets) - 1, stat) > 1e-4, (stat, len(sets))
    # and within a multiset, every order alike: the first spot's prize against its exact law
    first = Counter(codes[:, 0].tolist())
    law = Counter()
    for seq in itertools.product(range(len(values)), repeat=yours):
        if sum(values[k] for k in seq) == total:
            law[seq[0]] += 1
    e = np.array([law[k] for k in sorted(law)], dtype=float) * draws / sum(law.values())
    o = np.array([first[k] for k in sorted(law)], dtype=float)
    assert chdtrc(len(law) - 1, float(((o - e) ** 2 / e).sum())) > 1e-4


def test_the_proof_says_the_symbol_wins_all_ten_prizes_and_marks_every_spot(game):
    area = game.play.areas[0]
    row = {"play_win_0": 17, "play_win_1": 22} | {f"play_your_{j}": j for j in range(10)} \
        | {f"play_prize_{j}": 0 for j in range(10)} | {"play_your_4": BAG, "play_prize_9": 1}
    lines, marked = area.module.explain("play", area.params, row)
    assert lines == ["play, spot 5: Symbol of a moneybag wins all 10 prizes shown: $22.00."]
    assert marked == {f"play_your_{j}" for j in range(10)}


def test_a_key_symbol_games_win_all_symbol_shows_once_with_its_sum(tmp_path):
    """No WINNING NUMBERS (winning = 0): New Hampshire's "Find a FLAME symbol, win ALL 15 PRIZES shown!"
    (specs/examples/red_hot_wild_7s.toml, whose FLAME rows pin their prizes) with a tier of a FLAME of
    $200 added that pins none: its prizes are drawn among the sets that make $200."""
    path = replaced(ROOT / "specs" / "examples" / "red_hot_wild_7s.toml", tmp_path, "max_wins", "max_wins")
    path.write_text(path.read_text() + '\n[[tiers]]\nid = "flame200"\ncount = 100\n'
                    'wins = [ { area = "play", prize = "200.00", how = "all" } ]\n')
    nh = load_spec(path)
    pool = nh.pools[0]
    index = next(i for i, t in enumerate(pool.tiers) if t.id == "flame200")
    out = nh.play.lay_out(nh, pool, np.full(200, index), derive_stream(bytes(32), "test", "flame"))
    your = np.stack([out[f"play_your_{j}"] for j in range(15)], axis=1).astype(int)
    prize = np.stack([out[f"play_prize_{j}"] for j in range(15)], axis=1).astype(int)
    values = np.array([500, 1000, 2000, 2500, 4000, 5000, 10_000, 20_000, 50_000, 100_000, 7_777_700])
    assert ((your == 10).sum(axis=1) == 1).all() and (your < 8).sum() == 200 * 14  # 8 pictures, B7, R7, FLAME
    assert (values[prize].sum(axis=1) == 20_000).all()
    assert len({tuple(sorted(r)) for r in prize.tolist()}) > 1  # the sets of prizes vary
