"""Step 8's distributions (audit/stats/laws.py) against scipy.stats, which they replace so that a verify
process need not load it: chi-square and normal tails the same floats, the hypergeometric pmf within
1e-12 of the exact law (scipy's own is within 1e-9 of it), mid-ranks equal to rankdata's average ranks. And a
real step 8 over a generated pool, in a fresh interpreter, never imports scipy.stats."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from math import comb, perm

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from audit.stats.laws import chi2_cdf, chi2_sf, hypergeom_pmf, mid_ranks, norm_sf
from tests.support import ROOT


@pytest.mark.parametrize("df", [1, 2, 9, 99, 999, 149_999])
@pytest.mark.parametrize("x", [0.0, 0.5, 3.0, 100.0, 1_000.0, 151_234.5])
def test_chi_square_tails_are_scipy_stats_floats(x, df):
    assert chi2_sf(x, df) == float(stats.chi2.sf(x, df))
    assert chi2_cdf(x, df) == float(stats.chi2.cdf(x, df))


@pytest.mark.parametrize("z", [0.0, 0.1, 1.96, 5.0, 12.5, 40.0])
def test_normal_tail_is_scipy_stats_float(z):
    assert norm_sf(z) == float(stats.norm.sf(z))


def exact_pmf(population: int, successes: int, draws: int) -> np.ndarray:
    """The hypergeometric pmf from exact fractions, rounded to float64 once."""
    whole = comb(population, draws)
    return np.array([float(Fraction(comb(successes, k) * comb(population - successes, draws - k), whole))
                     for k in range(draws + 1)])


@pytest.mark.parametrize(("population", "successes", "draws"), [
    (300_000, 87_900, 300),  # a book of a printed pool
    (1_000_000, 191_000, 1_000),  # a block of 1,000 shares
    (1_000_000, 3, 1_000),  # a rare tier
    (10, 10, 4), (10, 0, 4), (10, 7, 10), (12, 5, 9), (1, 1, 1), (2, 1, 0),
])
def test_hypergeometric_pmf_is_the_exact_law_to_1e_12(population, successes, draws):
    got = hypergeom_pmf(population, successes, draws)
    want = exact_pmf(population, successes, draws)
    assert got.shape == (draws + 1,)
    normal = want > 1e-300
    np.testing.assert_allclose(got[normal], want[normal], rtol=1e-12, atol=0)
    assert np.all(got[~normal] < 1e-290)
    # scipy.stats' own (boost's) is within 1e-9 of it: the p-values move in their last digits only
    np.testing.assert_allclose(got[normal], stats.hypergeom.pmf(np.arange(draws + 1), population, successes,
                                                                draws)[normal], rtol=1e-9, atol=0)


@pytest.mark.parametrize(("population", "successes", "draws"), [
    (299_550, 59_350, 109_950),  # 1i: Happy Holidays p1's $1s in the 368 books of its $100s
    (149_000, 27_500, 66_000),  # 1i: Wild Side p1's $5s in the books of its top prizes
])
def test_hypergeometric_pmf_of_100000_draws_is_the_exact_law_to_1e_12(population, successes, draws):
    """At the mode and 1, 3 and 6 standard deviations either side, each against the exact law from exact
    integers, C(s, k) perm(d, k) perm(P - d, s - k) / perm(P, s), rounded once (the combinations of 300,000
    would take seconds): summed from the support's first count the law was 5e-11 off there."""
    got = hypergeom_pmf(population, successes, draws)
    mean = successes * draws / population
    sd = (mean * (1 - successes / population) * (population - draws) / (population - 1)) ** 0.5
    for z in (-6, -3, -1, 0, 1, 3, 6):
        k = int(mean + z * sd)
        want = (comb(successes, k) * perm(draws, k) * perm(population - draws, successes - k)
                / perm(population, successes))
        assert got[k] == pytest.approx(want, rel=1e-12, abs=0), (z, k)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 3_000).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n), st.integers(0, min(n, 80)))))
def test_hypergeometric_pmf_is_the_exact_law_on_any_figures(args):
    population, successes, draws = args
    np.testing.assert_allclose(hypergeom_pmf(population, successes, draws),
                               exact_pmf(population, successes, draws), rtol=1e-12, atol=1e-300)


def test_hypergeometric_pmf_refuses_impossible_figures():
    with pytest.raises(ValueError, match="no hypergeometric law for 11 of 10, 4 drawn"):
        hypergeom_pmf(10, 11, 4)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-5, 5).map(lambda v: v / 2), min_size=1, max_size=60))
def test_mid_ranks_are_rankdatas_average_ranks(values):
    a = np.array(values, dtype=np.float64)
    assert np.array_equal(mid_ranks(a), stats.rankdata(a))


def test_verify_with_step_8_of_a_real_run_does_not_load_scipy_stats(tmp_path):
    """scipy.stats costs every verify process about a second of start-up (docs/scaling.md): a real
    Happy Holidays pool, generated and signed, verified with every step but 7's regeneration, in a
    fresh interpreter that must end without it."""
    code = f"""
import sys
from datetime import UTC, datetime
from pathlib import Path
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
tmp = Path({str(tmp_path)!r})
keys = new_key_pair(tmp / "keys")
signer = Signer.from_file(keys.private)
spec = load_spec(Path("specs/happy_holidays.toml"))
generate(GenerateRequest(spec, bytes(range(32)), now=datetime(2026, 1, 1, tzinfo=UTC), out=tmp, run_id="r",
                         pool_ids=["p1"], signature=signer.manifest_entry()), finish=signer.sign_run)
report = verify_run(VerifyRequest(run=tmp / "r", public_key=keys.public))
step8 = [s for s in report.steps if s.step == 8]
print(report.failed, [s.status for s in step8])
print(sorted(m for m in sys.modules if m.startswith("scipy.stats")))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    verdict, loaded = out.stdout.strip().splitlines()[-2:]
    assert verdict == "[] ['pass']", verdict
    assert loaded == "[]"
