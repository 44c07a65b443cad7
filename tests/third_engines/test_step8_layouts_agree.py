"""The third engine for step 8's section 2 (tests/third_engines/step8_layouts.py, written from
docs/statistics.md, docs/styles/match_n.md and prize_legend_duel.md alone) held against audit's layout
findings on pools built in memory and judged as one-pool runs: every spot's chi-square (rare values
pooled), the held-out classifier (the split's hash, the ridge fit, the AUC's normal approximation) under
the same names, the statistic each reports first equal to its printed digits, p-values to a relative 1e-9.
The pools: small Happy Holidays (match_n) honest and with a leak planted in spot 3 of its losers, a small
Wild Side (WINNING NUMBERS, a multi-hot set of 46), a small Double Take (a set and a spot in one
classifier) and a Hand to Hand Tactics eInstant (prize_legend_duel: whether the first reveal is a loss)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.stats.tests import auc_classifier, independence
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_einstant, small_example, small_wild_side
from tests.support.stats import Entry, judge, on_losers, small_spec
from tests.third_engines.step8_layouts import (
    Found,
    chi_square,
    classifier,
    column_findings,
    first_reveal_findings,
    match_n_findings,
    winning_numbers_findings,
)

SEED = hashlib.sha256(b"poolgen/tests/third-engine/step8-layouts").digest()
STATISTIC = re.compile(r"(?:X2|z) = (-?[\d.]+)")


def _agree(spec: Any, pool: Any, table: pl.DataFrame, found: list[Found]) -> dict[str, float]:
    """Each of the engine's findings is audit's of that name (statistic to its digits, p to 1e-9)."""
    s, _ = judge(spec, pool, table, SEED)
    audit = {j.finding.name: j.finding for j in s.judged}
    for f in found:
        a = audit[f.name]
        shown = STATISTIC.findall(a.figures)[-1]
        places = len(shown.split(".")[1])
        assert abs(f.stat - float(shown)) <= 0.5 * 10 ** -places + 1e-9, (f.name, f.stat, a.figures)
        assert f.p == pytest.approx(a.p, rel=1e-9, abs=1e-300), (f.name, f.p, a.p)
    return {f.name: f.p for f in found}


def _columns(table: pl.DataFrame) -> dict[str, np.ndarray]:
    return {c: table[c].to_numpy().astype(np.int64) for c in table.columns if "_" in c}


@pytest.fixture(scope="module")
def happy(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("hh"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _happy_findings(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, float]:
    win = table["prize_cents"].to_numpy() > 0
    found = match_n_findings("play", 6, _columns(table), win, Entry(pool, SEED).file_sha256, 6)
    return _agree(spec, pool, table, found)


def test_an_honest_small_happy_holidays_pool_gets_the_same_layout_findings(happy):
    found = _happy_findings(*happy)
    assert len(found) == 7 and "win/lose predicted from play_spot_0" in found


def test_a_leak_in_spot_3_of_a_small_happy_holidays_pool_gets_the_same_layout_findings(happy):
    spec, pool, table = happy
    area = spec.play.document()["areas"][0]
    prize = table["prize_cents"].to_numpy()
    highest = np.full(table.height, 5, dtype=np.int64)  # code 5: the $100 symbol, shown in spot 3 of losers
    spot_3 = np.where(prize == 0, highest, table["play_spot_3"].to_numpy())
    leaked = on_losers(table, area, {"play_spot_3": spot_3})
    found = _happy_findings(spec, pool, leaked)
    assert found["play_spot_3 (one scratched spot) against win/lose"] < 1e-10


def test_a_small_wild_side_pool_gets_the_same_winning_numbers_findings(tmp_path):
    spec = load_spec(small_wild_side(tmp_path))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    win = table["prize_cents"].to_numpy() > 0
    columns = _columns(table)
    found = winning_numbers_findings("numbers", 5, columns, win, Entry(pool, SEED).file_sha256)
    for area in ("numbers", "wild"):  # 12 YOUR NUMBERS and their 12 prize symbols each
        found += column_findings(columns, [f"{area}_your_{i}" for i in range(12)], "a YOUR NUMBER", win)
        found += column_findings(columns, [f"{area}_prize_{i}" for i in range(12)], "a prize symbol", win)
    assert len(_agree(spec, pool, table, found)) == 7 + 48


def test_a_classifier_on_a_set_and_a_spot_gets_the_same_auc(tmp_path):
    spec = load_spec(small_example(tmp_path, "double_take", 6000))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    columns, win = _columns(table), table["prize_cents"].to_numpy() > 0
    held = classifier([[columns[f"play_win_{i}"] for i in range(3)], [columns["bonus_spot_0"]]], win,
                      Entry(pool, SEED).file_sha256)
    assert held is not None
    name = "win/lose predicted from the set of WINNING NUMBERS of area play and bonus_spot_0"
    _agree(spec, pool, table, [Found(name, *held)])


def test_an_einstant_gets_the_same_first_reveal_findings(tmp_path):
    spec = load_spec(small_einstant(tmp_path, "hand_to_hand_tactics", 30_500))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    win = table["prize_cents"].to_numpy() > 0
    first = str(spec.play.document()["first_spot_loss"])
    found = first_reveal_findings(table["spot_0"].to_numpy(), win, first, Entry(pool, SEED).file_sha256)
    assert len(_agree(spec, pool, table, found)) == 2


def test_random_features_get_the_same_chi_squares_and_classifiers():
    """40 random features (1 to 40 values, skewed or even, 1% to all winners) against audit's functions:
    the pooled chi-square and the classifier on one column (grouped fit), a set of three (per-row fit)
    and a column with another, p to 1e-9."""
    rng = np.random.default_rng(2029)
    for trial in range(40):
        n, k = int(rng.integers(10, 3000)), int(rng.integers(1, 40))
        feature = rng.choice(k, n, p=rng.dirichlet(np.ones(k) * rng.choice([0.2, 1, 5]))).astype(np.int64)
        win = rng.random(n) < rng.choice([0.01, 0.1, 0.35, 0.9, 1.0])
        audit = independence("x", win, feature)
        found = chi_square(feature, win)
        assert (audit is None) == (found is None)
        assert audit is None or found is None or found[2] == pytest.approx(audit.p, rel=1e-9)
        sha = hashlib.sha256(bytes([trial])).hexdigest()
        digest = hashlib.sha256(b"poolgen/audit/stats-split/v1\x00" + sha.encode()).digest()
        key = int.from_bytes(digest[:8], "big")  # the split's key, as audit's caller derives it
        sets = np.stack([rng.choice(12, 3, replace=False) for _ in range(n)])
        other = rng.integers(0, 3, n)
        for blocks in ([[feature]], [[sets[:, 0], sets[:, 1], sets[:, 2]]], [[feature], [other]]):
            held, ours = auc_classifier("c", win, blocks, key), classifier(blocks, win, sha)
            assert (held is None) == (ours is None)
            assert held is None or ours is None or ours[1] == pytest.approx(held.p, rel=1e-9)
