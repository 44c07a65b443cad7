"""Step 8's tests of the top prizes gathered where a confederate collects them (audit/stats/gathered.py,
docs/statistics.md 1e): close together in print order (two cartons of consecutive books for friendly
retailers), their books close together by printed book number, on few residues of an eInstant's serial
mod 1,000 (every 1,000th share) or one last digit of it (every tenth). Before these tests each of these
passed step 8 on full Kansas pools (the report of the red-team pass that added them; measured in the
docs). The law is checked against every placement; the biases on a small Happy Holidays pool (3,000
tickets in books of 30), on a synthetic eInstant pool, and in a re-signed run."""

from __future__ import annotations

import hashlib
import itertools
import math

import numpy as np
import polars as pl
import pytest

from audit.checklist import Step
from audit.stats.gathered import close_together, gathered_findings
from audit.verify import VerifyRequest, verify_run
from poolgen.run.build import build_pool
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-gathered").digest()
CLOSE = "top prizes ($100 to $20; 10 tickets): close together in print order"
BOOKS = "books of the top prizes ($100 to $20; 10 of 100 books) by printed book number: close together"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("gathered"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def to_books(table: pl.DataFrame, per_book: int, at_least: int, books: list[int]) -> pl.DataFrame:
    """The tickets paying `at_least` or more, one to each of `books` in turn, each swapped with a lower
    winner there chosen by a fixed coin (every book keeps its winners); identity columns in print order."""
    prize = table["prize_cents"].to_numpy()
    order = np.arange(table.height)
    rng = np.random.default_rng(11)
    for a, b in zip(np.flatnonzero(prize >= at_least), books, strict=False):
        book = prize[b * per_book:(b + 1) * per_book]
        q = b * per_book + int(rng.choice(np.flatnonzero((book > 0) & (book < at_least))))
        order[a], order[q] = order[q], order[a]
    moved = table[order]
    return moved.with_columns(table[c] for c in ("position", "ticket", "book", "ticket_no"))


@pytest.mark.parametrize("n,t", [(40, 2), (60, 3), (30, 4), (12, 5), (25, 3)])
def test_the_close_together_p_value_is_the_exact_law_over_every_placement(n, t):
    """Every t-subset of range(n): p = P(C >= c), C the gaps at most g = max(1, n // (10 t))."""
    g = max(1, n // (10 * t))
    close = [int((np.diff(s) <= g).sum()) for s in itertools.combinations(range(n), t)]
    for c in sorted(set(close)):
        s = next(s for s, k in zip(itertools.combinations(range(n), t), close, strict=True) if k == c)
        f = close_together("x", np.array(s), n, "tickets")
        assert f is not None and f.p == pytest.approx(sum(k >= c for k in close) / math.comb(n, t), rel=1e-12)
        assert f.figures.startswith(f"{c} of the {t - 1} gaps between consecutive tickets at most {g} apart")


def test_the_top_prizes_in_two_cartons_of_consecutive_books_are_refused():
    """Wild Side's scale: 2,500 books of 60, the top 11 tickets (one $25,000, ten $1,000), 21 of $500 and
    the pool's lower winners; the 11 then moved one to a book into two cartons of consecutive books (six
    of books 700..709, five of 1,800..1,809), each swapped with a $5 winner: the extremes of print order
    do not move, no book holds two."""
    rng = np.random.default_rng(3)
    prize = rng.permutation(np.repeat([2500000, 100000, 50000, 500, 0], [1, 10, 21, 49468, 100500]))
    name = "top prizes ($25,000 to $1,000; 11 tickets): close together in print order"
    assert {f.name: f for f in gathered_findings(prize, per_book=60, book=None, order=True)}[name].p > 0.01
    moved = prize.copy()
    cartons = [*rng.permutation(np.arange(700, 710))[:6], *rng.permutation(np.arange(1800, 1810))[:5]]
    for a, b in zip(np.flatnonzero(prize >= 100000), cartons, strict=True):
        q = b * 60 + int(rng.choice(np.flatnonzero(prize[b * 60:b * 60 + 60] == 500)))
        moved[a], moved[q] = moved[q], moved[a]
    f = {f.name: f for f in gathered_findings(moved, per_book=60, book=None, order=True)}[name]
    assert f.figures.startswith("9 of the 10 gaps between consecutive tickets at most 1,363 apart")
    assert f.p < 1e-8


def test_the_top_prizes_books_given_consecutive_book_numbers_are_refused(small):
    spec, pool, table = small
    prize, book = table["prize_cents"].to_numpy(), table["book"].to_numpy()
    numbers = book[::30].copy()
    held = np.unique(np.flatnonzero(prize >= 2000) // 30)
    for h, wanted in zip(held, np.sort(numbers)[45:45 + len(held)], strict=True):  # ranks 45.. in a row
        j = int(np.flatnonzero(numbers == wanted)[0])
        numbers[j], numbers[h] = numbers[h], numbers[j]
    s, r = judge(spec, pool, table.with_columns(pl.Series("book", np.repeat(numbers, 30))), SEED)
    failed = {j.finding.name: j.finding for j in s.failed}
    assert BOOKS in failed and failed[BOOKS].p < 1e-6
    gaps = "9 of the 9 gaps between consecutive book numbers at most 1 apart"
    assert failed[BOOKS].figures.startswith(gaps)


def test_an_einstants_top_prizes_at_every_1000th_serial_or_every_tenth_are_refused():
    """200,000 shares: one $5,000, eight $500, 50 of $100, 60,000 of $1; the nine highest then moved to
    serials 1,000, 2,000, ... (each swapped with a $1 share there), or to serials ending in 0."""
    rng = np.random.default_rng(7)
    prize = rng.permutation(np.repeat([500000, 50000, 10000, 100, 0], [1, 8, 50, 60000, 139941]))
    found = {f.name: f for f in gathered_findings(prize, per_book=None, book=None, order=True)}
    residues = "top prizes ($5,000 to $500; 9 tickets) by serial mod 1,000: in fewest residues"
    digit = "top prizes ($5,000 to $500; 9 tickets) by serial: one last digit"
    assert found[residues].p > 0.01 and found[digit].p > 0.01
    for step in (1000, 10):
        moved = prize.copy()
        for a, q in zip(np.flatnonzero(prize >= 50000), rng.choice(np.arange(step - 1, len(prize), step), 9,
                                                                    replace=False), strict=True):
            while moved[q] != 100:
                q = (q + step) % len(prize)
            moved[a], moved[q] = moved[q], moved[a]
        f = {f.name: f for f in gathered_findings(moved, per_book=None, book=None, order=True)}
        if step == 1000:
            assert f[residues].p < 1e-20 and f[residues].figures.startswith("9 tickets in 1 residues")
        assert f[digit].p < 1e-6 and f[digit].figures.startswith("9 of 9 end in 0")


def test_under_pack_parameters_only_the_book_number_test_is_made(small):
    _, _, table = small
    names = [f.name for f in gathered_findings(table["prize_cents"].to_numpy(), per_book=30,
                                               book=table["book"].to_numpy(), order=False)]
    assert names and all("by printed book number: close together" in n for n in names)


def test_a_re_signed_run_with_the_top_prizes_in_consecutive_books_fails_step_8_alone(tmp_path):
    spec = small_spec(tmp_path)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda table: to_books(table, 30, 2000, [40, 40, 41, 41, 42, 42, 43, 43, 44, 44]))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    assert any(CLOSE in r for r in reasons), reasons


def test_a_top_group_bigger_than_a_books_numbers_kept_to_some_of_them_is_refused_per_ticket_number():
    """Happy Holidays' scale: 1,000 books of 300, the top group 450 of $100 (more than a book's 300 ticket
    numbers: no fewest test), 4,600 lower winners; 100 of the $100 then moved within their books to the 21
    ticket numbers whose digits add to 7 (7, 16, 25, ..., 250), each swapped with a lower winner there."""
    rng = np.random.default_rng(5)
    prize = rng.permutation(np.repeat([10000, 2000, 500, 0], [450, 500, 4100, 294950]))
    name = "top prizes ($100; 450 tickets) by ticket number within the book: per ticket number"
    honest = {f.name: f for f in gathered_findings(prize, per_book=300, book=None, order=True)}[name]
    x = np.bincount(np.flatnonzero(prize == 10000) % 300, minlength=300)
    x2 = ((x - 1.5) ** 2).sum() / 1.5
    assert honest.figures.startswith(f"X2 = {x2:.2f}, df = 299; ") and honest.p > 0.01
    sevens = np.array([t for t in range(300) if sum(map(int, str(t))) == 7])
    moved = prize.copy()
    for a in np.flatnonzero(prize == 10000)[:100]:
        places = (a // 300) * 300 + sevens
        q = next((q for q in rng.permutation(places) if 0 < moved[q] < 10000), int(places[0]))
        moved[a], moved[q] = moved[q], moved[a]
    f = {f.name: f for f in gathered_findings(moved, per_book=300, book=None, order=True)}[name]
    assert f.p < 1e-10


def test_the_per_ticket_number_test_is_made_only_where_its_tail_is_the_chi_squares():
    """t > B and t >= 250: 302 tickets over 60 numbers and 450 over 300 are tested; 51 over 30 (the small
    pools), 61 over 60 and 150 over 100 are not (their X2's tail is heavier than the law's)."""
    for tickets, per_book, made in [(302, 60, True), (450, 300, True), (51, 30, False), (61, 60, False),
                                    (150, 100, False)]:
        prize = np.zeros(per_book * 100, dtype=np.int64)
        prize[:tickets] = 100
        names = [f.name for f in gathered_findings(prize, per_book=per_book, book=None, order=True)]
        assert any(n.endswith(": per ticket number") for n in names) == made, (tickets, per_book)


def test_the_expected_close_gaps_are_printed_from_their_exact_value():
    """E = (t - 1)(1 - C(n - g, t) / C(n, t)) is 3.75 exactly for 10 places among 24 (g = 1): printed 3.8, as
    a third engine computing it exactly prints it, not 3.7 from the quotient's rounding (3.7499999...)."""
    found = close_together("x", np.array([0, 1, 2, 3, 4, 10, 12, 14, 20, 23]), 24, "book numbers")
    assert found is not None
    assert found.figures == "4 of the 9 gaps between consecutive book numbers at most 1 apart (3.8 expected)"
