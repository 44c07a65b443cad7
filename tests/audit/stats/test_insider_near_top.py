"""Step 8's tests of a prize level placed with the top prizes (audit/stats/near_top.py, docs/statistics.md
1i): an insider who moves a level into the books already holding a top prize (a retailer who sees one
claimed buys the rest of the book), or right beside a top prize in its book (a clerk selling the book in
order sells the next ticket to a friend), keeping every book's winners, passed every test before them;
"in the books of the top prizes" and "beside a top prize" refuse each, named. The law is checked against
scipy and against every placement of tiny pools, and honest small pools fail it no more than the design
allows."""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest

from audit.checklist import Step
from audit.stats.near_top import METHOD, near_top_findings, near_top_places
from audit.stats.step import holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.run.build import build_pool
from tests.support.near_top_biases import level_beside_top, level_into_top_books
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-near-top").digest()
BOOKS = "prize level $2 (235 tickets): in the books of the top prizes ($5 and up)"
BESIDE = "prize level $2 (235 tickets): beside a top prize ($5 and up) in its book"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("near-top"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _mine(name: str) -> bool:
    """A test of 1i (its names: "prize level $A (c tickets): in the books of the top prizes (...)", "...:
    beside a top prize (...) in its book")."""
    return name.startswith("prize level ") and ("of the top prizes" in name or "beside a top prize" in name)


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without those of 1i: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if not _mine(j.finding.name)],
                                         pool_alpha(1)) if j.rejected]


def test_40_two_dollar_tickets_moved_into_the_books_of_the_top_prizes_are_refused_by_that_test(small):
    spec, pool, table = small
    honest, r = judge(spec, pool, table, SEED)
    assert not honest.failed and not r.failed
    biased = level_into_top_books(table, 30, 500, 200, 40, np.random.default_rng(1))
    wins = (biased["prize_cents"].to_numpy() > 0).reshape(100, 30).sum(axis=1)
    assert (wins == (table["prize_cents"].to_numpy() > 0).reshape(100, 30).sum(axis=1)).all()
    s, r = judge(spec, pool, biased, SEED)
    assert not r.failed and _refused_before(s) == []
    assert [j.finding.name for j in s.failed] == [BOOKS]
    f = s.failed[0].finding
    assert f.figures == ("129 of 235 in the 40 books holding a top prize (91.6 expected; 1,149 of the 2,949 "
                         "places holding no top prize)") and f.p < 1e-6
    assert f.method == METHOD


def test_15_two_dollar_tickets_put_beside_a_top_prize_in_its_book_are_refused_by_that_test(small):
    spec, pool, table = small
    biased = level_beside_top(table, 30, 500, 200, 15, np.random.default_rng(1))
    wins = (biased["prize_cents"].to_numpy() > 0).reshape(100, 30).sum(axis=1)
    assert (wins == (table["prize_cents"].to_numpy() > 0).reshape(100, 30).sum(axis=1)).all()
    s, r = judge(spec, pool, biased, SEED)
    assert not r.failed and _refused_before(s) == []
    assert [j.finding.name for j in s.failed] == [BESIDE]
    f = s.failed[0].finding
    assert f.figures == ("24 of 235 beside a top prize (7.6 expected; 95 of the 2,949 places holding no top "
                         "prize)")
    assert f.p < 1e-6


def test_each_p_value_is_the_hypergeometric_tail_of_the_contract():
    """docs/statistics.md 1i from its text, with scipy: S the places holding no top prize in the books
    holding one (or next to one in its book), x the level's tickets there, p = P(X >= x), X hypergeometric
    (the N - t places holding no top prize, the level's c, |S| drawn)."""
    from scipy.stats import hypergeom

    rng = np.random.default_rng(11)  # a test pool's layout, not a pool's draw
    prize = np.zeros(6_000, dtype=np.int64)
    places = rng.permutation(6_000)
    prize[places[:60]] = 10_000  # the top group: 60 $100s
    prize[places[60:160]] = 500
    prize[places[160:500]] = 100
    found = near_top_findings(prize, 50, True)
    assert [f.name for f in found] == [f"prize level ${a} ({c} tickets): {w}" for a, c in ((5, 100), (1, 340))
                                       for w in ("in the books of the top prizes ($100)",
                                                 "beside a top prize ($100) in its book")]
    top = prize == 10_000
    books = np.repeat(top.reshape(120, 50).any(axis=1), 50) & ~top
    # the same book only: ticket 49 of one book is not beside ticket 0 of the next
    beside = np.array([not top[q] and any(0 <= r < 6_000 and r // 50 == q // 50 and top[r]
                                          for r in (q - 1, q + 1)) for q in range(6_000)])
    assert (near_top_places(top, 50)[0] == books).all() and (near_top_places(top, 50)[1] == beside).all()
    cases = [(500, books), (500, beside), (100, books), (100, beside)]
    for f, (amount, where) in zip(found, cases, strict=True):
        x, c = int(((prize == amount) & where).sum()), int((prize == amount).sum())
        assert f.p == pytest.approx(float(hypergeom.sf(x - 1, 5_940, c, int(where.sum()))), rel=1e-9)
        assert f.figures.startswith(f"{x} of {c} ")


@pytest.mark.parametrize("per_book", [3, 4])
def test_the_tests_are_valid_over_every_placement_of_tiny_pools(per_book, monkeypatch):
    """Every placement of 2 top prizes and 3 tickets of a level among 12 places (levels of 3 tickets, top
    groups of 2: the modules' minimums lowered): P(p <= p_observed) is at most p for each test."""
    monkeypatch.setattr("audit.stats.near_top.LEVEL_MIN", 3)
    monkeypatch.setattr("audit.stats.positions.TOP_MIN", 2)
    ps: list[list[float]] = [[], []]
    for tops in itertools.combinations(range(12), 2):
        rest = [q for q in range(12) if q not in tops]
        for level in itertools.combinations(rest, 3):
            prize = np.zeros(12, dtype=np.int64)
            prize[list(tops)] = 1_000
            prize[list(level)] = 100
            found = near_top_findings(prize, per_book, True)
            assert len(found) == 2
            for i, f in enumerate(found):
                ps[i].append(f.p)
    for test in ps:
        p = np.array(test)
        for x in sorted(set(test)):
            assert (p <= x + 1e-12).mean() <= x + 1e-12


def test_no_test_without_a_uniform_shuffle_of_books_or_a_level_below_the_top_groups():
    prize = np.zeros(3_000, dtype=np.int64)
    prize[::7] = 100
    prize[::60] = 10_000  # 50 tickets: the top group alone
    assert near_top_findings(prize, 30, False) == []  # pack parameters, or a BookNull other than uniform
    assert near_top_findings(prize, None, True) == []  # an eInstant
    assert len(near_top_findings(prize, 30, True)) == 2
    prize[::7] = 0
    prize[:19] = 100  # 19 tickets of $1: too few to test
    assert near_top_findings(prize, 30, True) == []


def test_honest_small_pools_fail_the_near_top_tests_within_the_design(tmp_path):
    """200 small honest pools (seeds of their own), each a one-pool run: at most 6 fail step 8 (the 1%
    design's allowance, as test_false_failure_rate), and no test of 1i has p at most 0.05 in more than 22
    of them (exact: 5% or less each, docs/statistics.md 1i)."""
    spec = small_spec(tmp_path)
    pool = spec.pools[0]
    low: dict[str, int] = {}
    failing = 0
    for i in range(200):
        seed = hashlib.sha256(b"poolgen/tests/near-top-honest/%d" % i).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        failing += bool(s.failed or r.failed)
        mine = [j.finding for j in s.judged if _mine(j.finding.name)]
        assert len(mine) == 4  # $2 and $1 (below the top groups), in the top prizes' books and beside one
        for f in mine:
            low[f.name] = low.get(f.name, 0) + (f.p <= 0.05)
    assert failing <= 6
    assert max(low.values()) <= 22, low


def test_a_re_signed_run_with_two_dollar_tickets_beside_its_top_prizes_fails_step_8_alone(tmp_path):
    """A small Happy Holidays run: 15 of its 235 $2 tickets put beside a ticket of $5 and up in its book
    (each swapped within its book, or with a lower winner there): step 8 refuses it by "beside a top
    prize", and no other step sees it."""
    spec = small_spec(tmp_path)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda table: level_beside_top(table, 30, 500, 200, 15, np.random.default_rng(1)))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert [r.split(" (exact")[0] for r in reasons] == [f"pool p1: {BESIDE}"]


def test_a_pool_with_a_partial_last_book_makes_no_near_top_test_at_all():
    """docs/statistics.md 1i: N not a multiple of m (a partial last book) makes no 1i finding, neither over
    the whole books nor with the partial book counted; the same pool's whole books alone would."""
    prize = np.zeros(3_000, dtype=np.int64)
    prize[::7] = 100
    prize[::60] = 10_000  # 50 tickets: the top group alone
    assert len(near_top_findings(prize, 100, True)) == 2  # 30 whole books of 100
    assert near_top_findings(np.append(prize, 0), 100, True) == []  # 3,001: a last book of one ticket
    assert near_top_findings(np.append(prize, 500), 100, True) == []
