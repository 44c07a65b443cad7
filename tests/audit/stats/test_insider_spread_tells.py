"""Step 8's tells where 1j did not look (docs/statistics.md 1l): an insider who exchanges the losers'
layouts among the losers (no prize moved, no layout a loser could not have) so that the losers before the
winners show a pattern of several spots (two amounts... each in two spots), a symbol in a later area of an
area_match share, or a later reveal of a duel. Every test before 1l sees the same pool and passes it; 1l's
refuse it, named. The duel's new statistic is checked against a reference written from the contract."""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl
import pytest
from scipy.stats import chi2 as chi2_law
from scipy.stats import chi2_contingency

from audit.checklist import Step
from audit.stats.layouts import layout_features
from audit.stats.loser_runs import last_before_winner_finding, reversal_finding, run_names
from audit.stats.spread import spread_features
from audit.stats.step import columns_needed, holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.pdf.report.statistics import withheld
from poolgen.run.build import build_pool
from tests.audit.stats.test_insider_next_ticket import _table
from tests.support import small_einstant, small_wild_side
from tests.support.next_ticket_biases import tell_before
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-spread-tells").digest()
PAIRS = ("play: the prize symbols shown twice or more (counted), on a losing ticket, against the next "
         "ticket's prize (print order)")


def _mine(name: str) -> bool:
    """A test of 1l: a count over an area's spots, an area after area 0, a duel's runs of losers."""
    return "(counted)" in name or "the last loser before a winner" in name or name.startswith("a1_")


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without 1l's: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if not _mine(j.finding.name)],
                                         pool_alpha(1)) if j.rejected]


def _pairs(table: pl.DataFrame) -> np.ndarray:
    spots = np.stack([table[f"play_spot_{j}"].to_numpy() for j in range(6)], axis=1)
    return ((spots[:, :, None] == np.arange(6)).sum(axis=1) >= 2).sum(axis=1)


def test_a_match_n_areas_counts_are_each_prize_symbols_spots_then_the_symbols_shown_twice():
    """Two spots of three per ticket, prize symbols A and B (codes 0, 1) and a multiplier (code 2, counts for
    none): the counts in the entry's order, the pairs last, named by the symbols' codes."""
    area = {"id": "z", "style": "match_n", "spots": 3, "prizes": [{"code": "A"}, {"code": "B"}]}
    columns = {"z_spot_0": np.array([0, 0, 1, 2]), "z_spot_1": np.array([0, 1, 1, 2]),
               "z_spot_2": np.array([1, 1, 1, 0])}
    found = spread_features({"areas": [area, {"id": "w", "style": "maze"}]}, lambda c: columns[c])
    assert [n for n, _ in found] == ["z: the spots showing A (counted)", "z: the spots showing B (counted)",
                                     "z: the prize symbols shown twice or more (counted)"]
    assert [c.tolist() for _, c in found] == [[2, 1, 0, 1], [1, 2, 3, 0], [1, 1, 1, 0]]


def test_a_duels_reveals_are_each_spots_code_then_the_first_multipliers_reveal_and_the_reveals_played():
    """Four spots (codes 1 LOSE, 2 TIE, 4 MULTIPLIER, 0 UNPLAYED): LOSE TIE MULT LOSE; MULT MULT LOSE
    UNPLAYED; LOSE LOSE UNPLAYED UNPLAYED."""
    spots = np.array([[1, 2, 4, 1], [4, 4, 1, 0], [1, 1, 0, 0]], dtype=np.uint8)
    f = layout_features(lambda c: spots[:, int(c.split("_")[1])], {"style": "prize_legend_duel", "spots": 4})
    assert f is not None
    assert [n for n, _ in f.runs] == [f"spot_{j} (a reveal's outcome code)" for j in range(4)] + [
        "the reveal showing a multiplier (its spot + 1, 0 if none)", "the reveals played"]
    assert [c.tolist() for _, c in f.runs[4:]] == [[3, 1, 0], [4, 3, 2]]


def test_a_key_number_areas_near_misses_count_its_your_numbers_next_to_a_winning_number_of_its_source():
    """Area `n` with its own two WINNING NUMBERS and three YOUR NUMBERS, area `w` taking n's WINNING
    NUMBERS (`winning_from`), area `s` of special symbols (none): codes one above or below a WINNING
    NUMBER's count."""
    n = {"id": "n", "style": "key_number_match", "winning": 2, "yours": 3}
    w = {"id": "w", "style": "key_number_match", "winning": 2, "yours": 2, "winning_from": "n"}
    special = {"id": "s", "style": "key_number_match", "winning": 1, "yours": 2, "specials": ["X"]}
    columns = {"n_win_0": np.array([5, 0]), "n_win_1": np.array([9, 3]), "n_your_0": np.array([4, 1]),
               "n_your_1": np.array([10, 2]), "n_your_2": np.array([7, 7]), "w_your_0": np.array([6, 4]),
               "w_your_1": np.array([8, 5])}
    found = spread_features({"areas": [n, w, special]}, lambda c: columns[c])
    assert [(name, c.tolist()) for name, c in found] == [
        ("n: the YOUR NUMBERS one off a WINNING NUMBER (counted)", [2, 2]),
        ("w: the YOUR NUMBERS one off a WINNING NUMBER (counted)", [2, 1])]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("spread"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_losers_with_three_amounts_each_in_two_spots_before_winners_are_refused_by_the_counts(small):
    """Small Happy Holidays: 100 losers showing three amounts twice each (of the pool's 231 such losers) put
    just before a winner. No single spot's test, of the loser against its own win or the next ticket's,
    refuses it; the count of the prize symbols shown twice does."""
    spec, pool, table = small
    lose = table["prize_cents"].to_numpy() == 0
    tell = lose & (_pairs(table) == 3)
    assert int(tell.sum()) == 231
    s, r = judge(spec, pool, tell_before(table, tell, None, 100, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert PAIRS in [j.finding.name for j in s.failed] and all(_mine(j.finding.name) for j in s.failed)
    assert min(j.finding.p for j in s.failed) < 1e-40


def test_wild_side_losers_with_five_near_misses_before_every_winner_are_refused_by_the_near_misses(tmp_path):
    """Small Wild Side: the 123 losers whose YOUR NUMBERS come one off a WINNING NUMBER five times or more,
    all put just before a winner (every ticket after one wins). No test of a single number sees it; 1l's
    near misses of area `numbers` do, alone."""
    spec = load_spec(small_wild_side(tmp_path))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    win = np.stack([table[f"numbers_win_{i}"].to_numpy() for i in range(5)], axis=1).astype(np.int64)
    yours = np.stack([table[f"numbers_your_{i}"].to_numpy() for i in range(12)], axis=1).astype(np.int64)
    near = (np.abs(yours[:, :, None] - win[:, None, :]) == 1).any(axis=2).sum(axis=1)
    tell = (table["prize_cents"].to_numpy() == 0) & (near >= 5)
    assert int(tell.sum()) == 123
    s, r = judge(spec, pool, tell_before(table, tell, None, None, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    name = "numbers: the YOUR NUMBERS one off a WINNING NUMBER (counted), on a losing ticket, against the " \
           "next ticket's prize (print order)"
    assert [j.finding.name for j in s.failed] == [name]
    assert s.failed[0].finding.p < 1e-40


def _runs_reference(prize: np.ndarray, codes: np.ndarray) -> tuple[float, int, int, int]:
    """docs/statistics.md 1l's first duel test written from its text with Python's lists and dicts:
    (X2, df, runs, runs with their ends in two groups)."""
    ends: list[tuple[int, int]] = []
    i, n = 0, len(prize)
    while i < n:
        if prize[i] != 0:
            i += 1
            continue
        j = i
        while j + 1 < n and prize[j + 1] == 0:
            j += 1
        if j > i and i > 0 and j < n - 1 and codes[i] >= 0 and codes[j] >= 0:
            ends.append((int(codes[i]), int(codes[j])))
        i = j + 1
    held: dict[int, int] = {}
    for a, b in ends:
        held[a] = held.get(a, 0) + 1
        held[b] = held.get(b, 0) + 1
    group: dict[int, int] = {}
    closed, members = 0, []
    for v in sorted(held):
        members.append(v)
        group[v] = closed
        if sum(held[m] for m in members) >= 2 * len(ends) / 20:
            closed, members = closed + 1, []
    if members and closed:
        for v in members:
            group[v] = closed - 1
    k = max(group.values()) + 1
    d = np.zeros(k)
    s = np.zeros((k, k))
    odd = 0
    for a, b in ends:
        ga, gb = group[a], group[b]
        d[gb] += 1
        d[ga] -= 1
        if ga != gb:
            odd += 1
            e = np.zeros(k)
            e[gb], e[ga] = 1, -1
            s += np.outer(e, e)
    return float(d @ np.linalg.pinv(s) @ d), int(np.linalg.matrix_rank(s)), len(ends), odd


@pytest.mark.parametrize("case", range(3))
def test_the_run_ends_statistic_is_stuart_maxwells_of_the_contracts_runs(case):
    """On random pools (runs of losers of every length, codes below 0 left out, values of 1% to 40%), the
    first duel test's X2, df and p are those of a reference written from the contract's words."""
    rng = np.random.default_rng(case)
    n = 6_000
    prize = rng.choice([0, 100, 500], size=n, p=[0.6, 0.3, 0.1])
    codes = rng.choice([0, 1, 2, 4, -1], size=n, p=[0.4, 0.3, 0.2, 0.09 - 0.02 * case, 0.01 + 0.02 * case])
    f = reversal_finding("x", prize, codes)
    assert f is not None
    x2, df, m, odd = _runs_reference(prize, codes)
    assert f.figures == f"X2 = {x2:.1f}, df = {df}; {m:,} runs of losers between winners, " \
                        f"{odd:,} with their ends in two groups"
    assert f.p == pytest.approx(chi2_law.sf(x2, df), rel=1e-9)


def test_the_last_loser_before_a_winner_is_1js_table_on_those_losers_against_the_winners_prize():
    rng = np.random.default_rng(7)
    prize = rng.choice([0, 100, 200, 500, 10_000], size=8_000, p=[0.6, 0.2, 0.1, 0.08, 0.02])
    codes = rng.choice([0, 1, 2, 3], size=8_000)
    f = last_before_winner_finding("x", prize, codes)
    rows = [i for i in range(len(prize) - 1) if prize[i] == 0 and prize[i + 1] > 0]
    table, least = _table([int(codes[i]) for i in rows], [int(prize[i + 1]) for i in rows])
    x2, p, df, _ = chi2_contingency(table, correction=False)
    assert f is not None and f.figures == f"X2 = {x2:.1f}, df = {df:,}; {len(rows):,} losers before a winner"
    assert f.method.endswith("classes of the next winner's amount, top-coded to classes of at least "
                             f"{least:,} tickets")
    assert f.p == pytest.approx(p, rel=1e-9)


def test_no_run_test_without_runs_between_winners_or_with_every_end_in_one_group():
    assert reversal_finding("x", np.array([0, 0, 100, 0, 0]), np.zeros(5, dtype=np.int64)) is None
    prize = np.array([100, 0, 0, 100] * 50)
    assert reversal_finding("x", prize, np.zeros(200, dtype=np.int64)) is None  # one group
    assert reversal_finding("x", prize, np.tile([9, 1, 1, 9], 50)) is None  # both ends alike: S is 0


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    spec = load_spec(small_einstant(tmp_path_factory.mktemp("duel"), "hand_to_hand_tactics", 100_000))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_a_duels_later_reveal_before_winners_is_refused_by_its_run_ends_test(duel):
    """Hand to Hand Tactics cut to 100,000 shares: 1,000 losing shares whose seventh reveal is a multiplier
    (of the pool's 2,242) put just before a winner. 1j does not read the later reveals (the neighbour rule
    ties them to the next share); 1l's test of the runs' ends refuses it, by that reveal and by where the
    multiplier shows, alone."""
    spec, pool, table = duel
    tell = (table["prize_cents"].to_numpy() == 0) & (table["spot_6"].to_numpy() == 4)
    assert int(tell.sum()) == 2_242
    s, r = judge(spec, pool, tell_before(table, tell, None, 1_000, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    failed = {j.finding.name: j.finding.p for j in s.failed}
    where = "the reveal showing a multiplier (its spot + 1, 0 if none)"
    assert set(failed) == {run_names(f)[0] for f in ("spot_6 (a reveal's outcome code)", where)}
    assert max(failed.values()) < 1e-6


def test_an_honest_duel_pool_gets_both_run_tests_of_every_reveal_and_passes(duel):
    s, r = judge(*duel, SEED)
    names = [j.finding.name for j in s.judged if "the last loser before a winner" in j.finding.name]
    assert names[:2] == list(run_names("spot_0 (a reveal's outcome code)")) and len(names) == 34
    assert s.failed == [] and r.failed == []
    assert all(withheld(n, "X2 = 1.0, df = 2; 9 runs") for n in names)


def test_a_tell_in_a_primetime_shares_second_area_is_refused_by_that_areas_test(tmp_path):
    """Primetime Payout cut to 100,000 shares, its pool of two areas: 1,000 losing shares whose area 1 shows
    symbol 1 first put just before a winner; 1j read area 0 only, 1l reads every area the pool has."""
    spec = load_spec(small_einstant(tmp_path, "primetime_payout", 100_000))
    pool = spec.pools[1]
    table = build_pool(spec, pool, SEED)
    tell = (table["prize_cents"].to_numpy() == 0) & (table["a1_s0"].to_numpy() == 1)
    s, r = judge(spec, pool, tell_before(table, tell, None, 1_000, np.random.default_rng(1)), SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == ["a1_s0 (as shown), on a losing ticket, against the next "
                                                  "ticket's prize (serial order)"]
    play = spec.play.document()
    assert [c for c in columns_needed(play, "einstant", tuple(table.columns)) if c.startswith("a1_")] == [
        "a1_s0", "a1_s1", "a1_s2", "a1_s3", "a1_amount", "a1_bonus"]
    assert not any(c.startswith("a1_") for c in columns_needed(play, "einstant"))


def test_a_re_signed_primetime_run_whose_second_area_tells_the_next_winner_fails_step_8_alone(tmp_path):
    """The same insider in a signed run of the two-area pool, re-signed: verify reads area 1's columns (the
    manifest's pool entry lists them) and step 8 refuses the pool by area 1's test; no other step sees it."""
    spec = load_spec(small_einstant(tmp_path, "primetime_payout", 100_000))
    pool = spec.pools[1]
    run, public, signer = signed_first_pool(spec, SEED, tmp_path, "pt", pool.id)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []

    def insider(table: pl.DataFrame) -> pl.DataFrame:
        tell = (table["prize_cents"].to_numpy() == 0) & (table["a1_s0"].to_numpy() == 1)
        return tell_before(table, tell, None, 1_000, np.random.default_rng(1))

    reseal_insider_pool(run, spec, pool.id, SEED, signer, insider)
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    name = "a1_s0 (as shown), on a losing ticket, against the next ticket's prize (serial order)"
    assert [r.split(" (chi-square")[0] for r in reasons] == [f"pool {pool.id}: {name}"]
