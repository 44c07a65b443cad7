"""Hand to Hand Tactics layouts (a spec of the prize_legend_duel style), checked against the style's
contract docs/styles/prize_legend_duel.md and the game's specs/hand_to_hand_tactics.md.

The evaluator here is written from the contract alone (sections 4 and 5), not from the module.
"""

from __future__ import annotations

import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.run.build import shuffled_tiers
from poolgen.styles.prize_legend_duel import style as h2h
from tests.support import spec_path

SPEC = spec_path("hand_to_hand_tactics")
SEED = bytes(range(32))
UNPLAYED, LOSE, TIE, WIN, MULT = 0, 1, 2, 3, 4


# --- An evaluator written from the contract ------------------------------------------------------

def evaluate_row(codes: list[int], amts: list[int]) -> int:
    """Section 4 of the contract, literally: the prize of a legal row; ValueError if illegal."""
    if len(codes) != 15 or len(amts) != 15:
        raise ValueError("15 spots")
    if any(c not in (0, 1, 2, 3, 4) for c in codes):
        raise ValueError("unknown code")
    losses = [i for i, c in enumerate(codes) if c == LOSE]
    if len(losses) != 3:
        raise ValueError(f"{len(losses)} losses")
    e = losses[2]
    if any(c == UNPLAYED for c in codes[:e + 1]) or any(c != UNPLAYED for c in codes[e + 1:]):
        raise ValueError("played spots are not the prefix ending at the third loss")
    if not all((a > 0) if c == WIN else (a == 0) for c, a in zip(codes, amts, strict=True)):
        raise ValueError("amount on a non-win spot or a win without an amount")
    return (1 + codes.count(MULT)) * sum(amts)


def evaluate(codes: np.ndarray, amts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same rules for a whole pool: (prize cents, legal) per row."""
    known = np.isin(codes, [0, 1, 2, 3, 4]).all(axis=1)
    is_loss = codes == LOSE
    three = is_loss.sum(axis=1) == 3
    before = np.cumsum(is_loss, axis=1) - is_loss  # losses strictly before each spot
    played_ok = ((codes != UNPLAYED) == (before < 3)).all(axis=1)
    amounts_ok = ((amts > 0) == (codes == WIN)).all(axis=1) & (amts >= 0).all(axis=1)
    prize = (1 + (codes == MULT).sum(axis=1)) * amts.sum(axis=1)
    return prize, known & three & played_ok & amounts_ok


def columns_to_arrays(cols: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    codes = np.stack([cols[f"spot_{i}"] for i in range(15)], axis=1)
    amts = np.stack([cols[f"amt_{i}"] for i in range(15)], axis=1)
    return codes, amts


SHOWN = {  # style contract section 6 with this spec's symbols and beats: shown for (outcome, pick)
    WIN: {"R": "S", "P": "R", "S": "P"},
    LOSE: {"R": "P", "P": "S", "S": "R"},
    TIE: {"R": "R", "P": "P", "S": "S"},
    MULT: {"R": "M", "P": "M", "S": "M"},
}
BEATS = {("P", "R"), ("R", "S"), ("S", "P")}


# --- Fixtures ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def spec():
    return load_spec(SPEC)


def pool_tiers(spec, pool) -> np.ndarray:
    """The pool's tiers in pool order, as poolgen builds them (int16, exact counts, shuffled)."""
    tiers = shuffled_tiers(spec, pool, SEED)
    assert np.array_equal(np.bincount(tiers), [t.count for t in pool.tiers])
    return tiers


@pytest.fixture(scope="module")
def full(spec):
    """One full pool of the $1.00 denomination (0.5 x $1 legend amounts are 50 cents)."""
    pool = spec.pool("d1.00")
    tiers = pool_tiers(spec, pool)
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED, "test", pool.id, "layout"))
    codes, amts = columns_to_arrays(cols)
    return pool, tiers, cols, codes, amts


# --- Tests ---------------------------------------------------------------------------------------

def test_columns_and_dtypes(full):
    pool, tiers, cols, _, _ = full
    assert list(cols) == [f"spot_{i}" for i in range(15)] + [f"amt_{i}" for i in range(15)]
    for name, col in cols.items():
        assert col.shape == (pool.tickets,)
        assert col.dtype == (np.uint8 if name.startswith("spot_") else np.int64)


@pytest.mark.slow
def test_full_pool_every_share_pays_its_prize(full):
    pool, tiers, _, codes, amts = full
    prize, legal = evaluate(codes, amts)
    assert legal.all()
    want = np.array([t.prize_cents for t in pool.tiers], dtype=np.int64)[tiers]
    assert np.array_equal(prize, want)
    assert prize.sum() == pool.prize_cost_cents == 87_999_200
    losers = tiers == 0
    assert not (codes[losers] == WIN).any()
    assert (codes[~losers] == WIN).any(axis=1).all()
    # the row-by-row evaluator agrees on a sample and on every share of the top tiers
    sample = np.concatenate([np.arange(3000), np.flatnonzero((tiers >= 1) & (tiers <= 6))])
    for r in sample:
        assert evaluate_row(codes[r].tolist(), amts[r].tolist()) == want[r]


@pytest.mark.slow
def test_amounts_are_legend_values(full, spec):
    pool, _, _, codes, amts = full
    legend = {int(v * pool.price_cents) for v in spec.play.params.legend}
    assert set(np.unique(amts[codes == WIN]).tolist()) <= legend
    assert 50 in set(np.unique(amts).tolist())  # the 0.5 symbol is used


@pytest.mark.slow
def test_game_ends_at_third_loss(full):
    _, _, _, codes, _ = full
    played = (codes != UNPLAYED).sum(axis=1)
    assert played.min() == 3 and played.max() == 15
    last = codes[np.arange(len(codes)), played - 1]
    assert (last == LOSE).all()
    assert ((codes != LOSE) & (codes != UNPLAYED)).sum(axis=1).max() == 12


@pytest.mark.slow
def test_first_spot_carries_no_information(full):
    """Chi-square at 99%: whether spot 0 is a loss is independent of winning."""
    _, tiers, _, codes, _ = full
    first_loss = codes[:, 0] == LOSE
    win = tiers > 0
    table = np.array([[np.sum(first_loss & win), np.sum(~first_loss & win)],
                      [np.sum(first_loss & ~win), np.sum(~first_loss & ~win)]])
    _, p, _, _ = chi2_contingency(table)
    assert p > 0.01, table
    # and its rate is the spec's first_spot_loss (1/4) for both groups
    assert abs(first_loss[win].mean() - 0.25) < 0.005
    assert abs(first_loss[~win].mean() - 0.25) < 0.005


@pytest.mark.slow
def test_every_outcome_and_symbol_appears(full):
    _, tiers, _, codes, _ = full
    assert set(np.unique(codes).tolist()) == {UNPLAYED, LOSE, TIE, WIN, MULT}
    losers = codes[tiers == 0]
    assert set(np.unique(losers).tolist()) == {UNPLAYED, LOSE, TIE, MULT}  # decoys on losers
    shown = {SHOWN[c][pick] for c in (WIN, LOSE, TIE, MULT) for pick in "RPS"}
    assert shown == {"R", "P", "S", "M"}
    for pick in "RPS":  # the mapping follows "Paper beats Rock, Rock beats Scissors, ..."
        assert (pick, SHOWN[WIN][pick]) in BEATS
        assert (SHOWN[LOSE][pick], pick) in BEATS


def test_the_proof_face_shows_the_symbols_the_regulation_reads(spec):
    """The style's section 6 applied to the spec's play_symbols and beats gives (f)'s table."""
    from poolgen.pdf.faces.prize_legend_duel import shown_symbol

    prm = spec.play.params
    for outcome, by_pick in SHOWN.items():
        for pick, symbol in by_pick.items():
            assert shown_symbol(prm, pick, outcome) == symbol
    assert shown_symbol(prm, "R", UNPLAYED) is None


@pytest.mark.slow
def test_decompositions_vary_within_a_tier(full, spec):
    pool, tiers, _, codes, amts = full
    for t in range(1, len(pool.tiers)):
        rows = np.flatnonzero(tiers == t)
        kinds = Counter(
            ((codes[r] == MULT).sum(), tuple(sorted(amts[r][codes[r] == WIN].tolist())))
            for r in rows[:400])
        if rows.size >= 7:
            assert len(kinds) >= 2, pool.tiers[t].id
    # the 1x tier has exactly three ways, all used: $1; $0.50 + $0.50; x2 multiplier on $0.50
    rows = np.flatnonzero(tiers == 40)
    assert pool.tiers[40].prize_cents == 100
    kinds = Counter(((codes[r] == MULT).sum(), tuple(sorted(amts[r][codes[r] == WIN].tolist())))
                    for r in rows[:3000])
    assert set(kinds) == {(0, (100,)), (0, (50, 50)), (1, (50,))}
    assert min(kinds.values()) > 800


def test_reproducible_and_stream_dependent(spec):
    pool = spec.pool("d5.00")
    tiers = pool_tiers(spec, pool)[:40_000]
    a = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED, "test", "repro"))
    b = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED, "test", "repro"))
    c = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED, "test", "other"))
    assert all(a[k].tobytes() == b[k].tobytes() for k in a)
    assert any(a[k].tobytes() != c[k].tobytes() for k in a)


def test_every_denomination_pays(spec):
    for pool in spec.pools:
        tiers = np.concatenate([np.arange(len(pool.tiers)), np.zeros(200, dtype=np.int64)])
        tiers = np.repeat(tiers, 3)
        cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED, "test", "denoms", pool.id))
        prize, legal = evaluate(*columns_to_arrays(cols))
        assert legal.all()
        want = np.array([t.prize_cents for t in pool.tiers])[tiers]
        assert np.array_equal(prize, want)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.binary(min_size=32, max_size=32),
       picks=st.lists(st.integers(min_value=0, max_value=40), min_size=0, max_size=60),
       pool_index=st.integers(min_value=0, max_value=5))
def test_any_tiers_pay_exactly(spec, seed, picks, pool_index):
    pool = spec.pools[pool_index]
    tiers = np.asarray(picks, dtype=np.int64)
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(seed, "prop"))
    codes, amts = columns_to_arrays(cols) if len(tiers) else (np.zeros((0, 15)), np.zeros((0, 15)))
    prize, legal = evaluate(codes, amts)
    assert legal.all()
    assert prize.tolist() == [pool.tiers[t].prize_cents for t in picks]
    for r in range(len(tiers)):
        assert evaluate_row(codes[r].tolist(), amts[r].tolist()) == prize[r]


@pytest.mark.parametrize("codes, amts, why", [
    ([1, 1, 1, 1] + [0] * 11, [0] * 15, "4 losses"),
    ([1, 1, 2, 1, 1] + [0] * 10, [0] * 15, "4 losses"),
    ([3, 1, 1, 1, 3] + [0] * 10, [100, 0, 0, 0, 100] + [0] * 10, "prefix"),  # win after the end
    ([3, 1, 1] + [0] * 12, [100] + [0] * 14, "2 losses"),
    ([1, 1, 1, 3] + [0] * 11, [0, 0, 0, 100] + [0] * 11, "prefix"),
    ([1, 0, 1, 1] + [0] * 11, [0] * 15, "prefix"),
    ([2, 1, 1, 1] + [0] * 11, [5, 0, 0, 0] + [0] * 11, "amount"),
    ([3, 1, 1, 1] + [0] * 11, [0] * 15, "amount"),
    ([5, 1, 1, 1] + [0] * 11, [0] * 15, "code"),
])
def test_contract_rejects_illegal_rows(codes, amts, why):
    with pytest.raises(ValueError, match=why):
        evaluate_row(codes, amts)
    prize, legal = evaluate(np.array([codes]), np.array([amts]))
    assert not legal[0]


def test_contract_example_row():
    # x2 multiplier, wins of $0.50 and $1.00, a tie, three losses: pays 2 x $1.50 = $3.00
    codes = [2, 3, 1, 4, 1, 3, 1] + [0] * 8
    amts = [0, 50, 0, 0, 0, 100, 0] + [0] * 8
    assert evaluate_row(codes, amts) == 300


def test_check_structure_real_spec(spec):
    result = check_spec(spec)
    assert result.problems == []
    notes = [n for n in result.notes if n.startswith("hand_to_hand_tactics:")]
    assert notes == ["hand_to_hand_tactics: every tier has 3..256 decompositions "
                     "(at most 256 kept per tier)"]


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    path = tmp_path / "hand_to_hand_tactics.toml"
    shutil.copy(SPEC, path)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


LEGEND = 'legend = ["0.5", "1", "2", "3", "4", "5", "10", "20", "25", "50", "100", "250", "500", "1000"]'


def test_a_tier_the_legend_cannot_make_is_refused_by_check_and_generate_in_one_line(tmp_path):
    """check listed it as a published figure that disagrees (exit 1) while generate refused the spec
    (exit 2): a spec that cannot be laid out is bad input, the same line from both."""
    # With only 2x and 5x symbols the 1x and 3x prizes (and 300, 400, 500, 5000) cannot be made at all.
    spec = load_spec(_variant(tmp_path, LEGEND, 'legend = ["2", "5"]'))
    line = (f"{tmp_path}/hand_to_hand_tactics.toml: play.legend: 6 tier(s) cannot be laid out: no (1 + m) "
            "x sum of "
            "legend values [2, 5] within 12 non-loss spots equals the multiplier of m5000 (5000), m500 "
            "(500), m400 (400), m300 (300), m3 (3), m1 (1)")
    with pytest.raises(SpecError) as err:
        check_spec(spec)
    assert str(err.value) == line
    with pytest.raises(SpecError) as err:
        spec.play.lay_out(spec, spec.pool("d1.00"), np.array([0, 40]), derive_stream(SEED, "x"))
    assert str(err.value) == line


def test_a_legend_value_no_tier_wins_is_refused_by_check_and_generate_as_not_used(tmp_path):
    """A legend value above every prize (7000 x the denomination, the top prize 5000 x) is in no tier's
    decompositions: no share ever reveals it, a field nothing uses, and both check and generate took it.
    Both refuse it now, in one line naming it (docs/styles/prize_legend_duel.md, section 7)."""
    spec = load_spec(_variant(tmp_path, LEGEND, LEGEND.replace('"1000"]', '"1000", "7000"]')))
    line = (f"{tmp_path}/hand_to_hand_tactics.toml: play.legend[14]: not used: no kept decomposition of "
            "any tier wins "
            "7000 (a prize symbol no share would ever reveal)")
    with pytest.raises(SpecError) as err:
        check_spec(spec)
    assert str(err.value) == line
    with pytest.raises(SpecError) as err:
        spec.play.lay_out(spec, spec.pool("d1.00"), np.array([0, 40]), derive_stream(SEED, "x"))
    assert str(err.value) == line
    smaller = load_spec(_variant(tmp_path, LEGEND, LEGEND.replace('"1000"]', '"1000", "0.25"]')))
    check_spec(smaller)  # a small value some tier's kept decompositions use: accepted


def test_check_finds_exactly_the_tiers_out_of_reach(tmp_path):
    # Only 1x symbols: a prize T fits iff T = (1 + m) x k with k >= 1 wins, k + m <= 12.
    spec = load_spec(_variant(tmp_path, LEGEND, 'legend = ["1"]'))
    with pytest.raises(SpecError) as err:
        check_spec(spec)
    named = str(err.value).split("equals the multiplier of ")[1].split(", ")
    fits = {(1 + m) * k for m in range(12) for k in range(1, 13 - m)}
    assert named == [f"{t.id} ({t.times:f})" for t in spec.tiers if int(t.times) not in fits]
    assert "m40 (40)" not in named and "m45 (45)" in named  # 40 = 5 x 8


@pytest.mark.parametrize("old, new, match", [
    (LEGEND, 'legend = [0.5, 1]', r"/hand_to_hand_tactics\.toml: play\.legend: values are decimal strings"),
    (LEGEND, 'legend = [" 0.5", "1"]', r"play\.legend: ' 0\.5' is not a plain decimal such as \"0\.5\""),
    (LEGEND, 'legend = ["1", "1"]', r"/hand_to_hand_tactics\.toml: play\.legend: a value appears twice$"),
    (LEGEND, 'legend = ["1", "0.125"]',  # 0.125 x $1.00 and x $5.00 are not whole cents; x $2.00 is
     r"/hand_to_hand_tactics\.toml: play\.legend\[1\]: 0\.125 x \$1\.00 is not whole cents \(a prize symbol "
     r"a share may show\)$"),
    (LEGEND, 'legend = ["-1"]',
     r"/hand_to_hand_tactics\.toml: play\.legend: '-1' is not a positive number$"),
    ('first_spot_loss = "1/4"', 'first_spot_loss = 0.25', r"play\.first_spot_loss: must be a fraction"),
    ('first_spot_loss = "1/4"', 'first_spot_loss = "5/4"',
     r"play\.first_spot_loss: '5/4' is not a probability"),
    ("max_decompositions = 256", "max_decompositions = 0",
     r"play\.max_decompositions: must be a whole number"),
    ("loser_max_multipliers = 1", "", r"play\.loser_max_multipliers: missing field$"),
    ("loser_max_multipliers = 1", "loser_max_multipliers = 1\nextra = 1",
     r"play\.extra: unknown field \(the prize_legend_duel style reads spots, losses,"),
])
def test_bad_play_table_is_refused_when_the_spec_loads(tmp_path, old, new, match):
    with pytest.raises(SpecError, match=match):
        load_spec(_variant(tmp_path, old, new))


def test_decomposition_order_and_cap():
    half, one, two = Fraction(1, 2), Fraction(1), Fraction(2)
    dec = h2h.decompositions(Fraction(2), (two, half, one), 100, 12)
    # m ascending; within m by copies of 2, then of 1, then of 0.5, ascending
    assert dec.total == 7
    assert list(zip(dec.multipliers, dec.amounts, strict=True)) == [
        (0, (half,) * 4), (0, (one, half, half)), (0, (one, one)), (0, (two,)),
        (1, (half, half)), (1, (one,)), (3, (half,)),
    ]
    capped = h2h.decompositions(Fraction(2), (half, one, two), 3, 12)  # indices 0, 2, 4 of 7
    assert capped.total == 7
    assert list(zip(capped.multipliers, capped.amounts, strict=True)) == [
        (0, (half,) * 4), (0, (one, one)), (1, (half, half))]
    for m, amounts in zip(dec.multipliers, dec.amounts, strict=True):
        assert (1 + m) * sum(amounts) == 2 and len(amounts) + m <= 12
