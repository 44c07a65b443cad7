"""The third engine for step 8's 1a, 1c and 1e (tests/third_engines/step8_top_groups.py, written from
docs/statistics.md alone) held against audit's findings on pools built in memory and judged as one-pool
runs: every test of the three families made by one is made by the other, in the same order, under the
same name, with the same figures word for word, and p-values equal to a relative 1e-9 (the engine sums
exact integers; audit's 1a sums logs of factorials, 1c's chain runs in floating point). The pools: small
Happy Holidays (books of 30) honest and with each insider of tests/support/book_number_biases.py and
cluster_biases.py, a small Wild Side (books of 60, a single top prize), Hand to Hand Tactics eInstants of
30,500 shares (no residues mod 1,000) and 30,000 (with them) honest and with the top shares moved to
every 1,000th serial, and a full Happy Holidays p1 (its 450 $100s: the per ticket number test)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np
import polars as pl
import pytest

from audit.stats.gathered import gathered_findings as audit_gathered
from audit.stats.numbers import printed_number_findings as audit_numbers
from audit.stats.step import run_statistics
from audit.stats.top import top_findings, top_levels
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import _cut as cut_spec
from tests.support import small_einstant, small_wild_side, spec_path
from tests.support.book_number_biases import (
    top_books_ending_in,
    top_books_numbered_low,
    top_prizes_at_book_ends,
    top_prizes_at_ticket_digit,
)
from tests.support.cluster_biases import prizes_gathered
from tests.support.stats import judge, small_spec
from tests.third_engines.step8_top_groups import gathered_findings, printed_number_findings, run_level

SEED = hashlib.sha256(b"poolgen/tests/third-engine/step8-top-groups").digest()
OURS = re.compile(r"^top prize of each pool|^top \d+ prize amounts of each pool|^books of the top prizes"
                  r"|^top prizes \(.*\)(?: by |: close together|: in fewest)"
                  r"|^prize level .*: in fewest books$")


def _agree(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, tuple[str, float]]:
    """The engine's 1a, 1c and 1e findings equal audit's; returns them by name."""
    s, run = judge(spec, pool, table, SEED)
    audit = [j.finding for j in (*s.judged, *run.judged) if OURS.search(j.finding.name)]
    prize = table["prize_cents"].to_numpy()
    per_book = spec.tickets_per_book
    book = table["book"].to_numpy() if per_book else None
    found = printed_number_findings(prize, per_book, book) if per_book and book is not None else []
    found += gathered_findings(prize, per_book, book) + run_level([(pool.id, prize)], per_book)
    assert [f.name for f in found] == [a.name for a in audit]
    for f, a in zip(found, audit, strict=True):
        assert f.figures == a.figures, (f.name, f.figures, a.figures)
        assert f.p == pytest.approx(a.p, rel=1e-9, abs=1e-300), (f.name, f.p, a.p)
    return {f.name: (f.figures, f.p) for f in found}


@pytest.fixture(scope="module")
def happy(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("hh"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _einstant(tmp: Any, shares: int) -> tuple[Any, Any, pl.DataFrame]:
    spec = load_spec(small_einstant(tmp, "hand_to_hand_tactics", shares))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def test_an_honest_small_happy_holidays_pool_gets_the_same_top_group_findings(happy):
    found = _agree(*happy)
    assert len(found) == 38 and min(p for _, p in found.values()) > 1e-3


@pytest.mark.parametrize("bias", ["numbered low", "numbers ending in 7", "ticket numbers ending in 7",
                                  "first or last ticket", "three to a book"])
def test_a_placement_planted_in_a_small_happy_holidays_pool_gets_the_same_top_group_findings(happy, bias):
    spec, pool, table = happy
    biased = {"numbered low": lambda: top_books_numbered_low(table, 30, 2000),
              "numbers ending in 7": lambda: top_books_ending_in(table, 30, 2000, 7),
              "ticket numbers ending in 7": lambda: top_prizes_at_ticket_digit(table, 30, 500, 7),
              "first or last ticket": lambda: top_prizes_at_book_ends(table, 30, 500),
              "three to a book": lambda: prizes_gathered(table, 30, 500, 3, np.random.default_rng(9))}[bias]()
    found = _agree(spec, pool, biased)
    assert min(p for _, p in found.values()) < 1e-6


def test_a_small_wild_side_pool_with_one_top_prize_gets_the_same_top_group_findings(tmp_path):
    spec = load_spec(small_wild_side(tmp_path))
    pool = spec.pools[0]
    found = _agree(spec, pool, build_pool(spec, pool, SEED))
    assert "top prizes ($25,000; 1 tickets): in fewest books" not in found  # t >= 2 only
    assert not any(n.startswith("top prizes ($25,000; 1 tickets) by ticket number within the book: in fewest")
                   for n in found)


def test_an_einstant_with_a_short_last_block_gets_the_same_top_group_findings(tmp_path):
    found = _agree(*_einstant(tmp_path, 30_500))
    assert not any("serial mod 1,000" in n for n in found)  # 30,500 shares: no residues test


def test_an_einstant_with_its_top_prizes_sorted_to_the_end_gets_the_same_top_group_findings(tmp_path):
    """Every share in ascending prize order: p-values far below 1e-100, and the earliest of the top three
    at 11,997 of 12,000 shares, 99.975%, printed 99.97 (the double nearest 100 x / N, 99.97499..., to two
    decimals; from the double nearest x / N, times 100, 99.98)."""
    spec, pool, table = _einstant(tmp_path, 12_000)
    found = _agree(spec, pool, table[np.argsort(table["prize_cents"].to_numpy(), kind="stable")])
    assert found["top 3 prize amounts of each pool ($5,000 to $400): smallest position in its pool, pools "
                 "combined"][0] == "3 tickets over 1 pool; earliest at 99.97% of pool d1.00"
    assert min(p for _, p in found.values()) < 1e-100


def test_an_einstant_of_whole_thousands_gets_the_same_residues_honest_and_planted(tmp_path):
    spec, pool, table = _einstant(tmp_path, 30_000)
    honest = _agree(spec, pool, table)
    assert sum("serial mod 1,000: in fewest residues" in n for n in honest) >= 10
    prize = table["prize_cents"].to_numpy()
    top = np.argsort(-prize, kind="stable")[:9]  # the nine highest shares to serials 1,000, 2,000, ...
    order = np.arange(len(prize))
    for i, row in enumerate(top.tolist()):
        q = int(np.flatnonzero(order == row)[0])
        target = 999 + 1000 * i
        order[q], order[target] = order[target], order[q]
    planted = _agree(spec, pool, table[order])
    assert min(p for n, (_, p) in planted.items() if "in fewest residues" in n) < 1e-15


def test_a_full_happy_holidays_pool_gets_the_same_per_ticket_number_test():
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    found = _agree(spec, pool, build_pool(spec, pool, SEED))
    assert sum(n.endswith("by ticket number within the book: per ticket number") for n in found) == 1


def test_a_run_of_three_pools_of_different_sizes_gets_the_same_run_level_findings(happy):
    """1a over pools of 3,000, 2,400 and 3,000 tickets (books of 30), the third with its $5 and up kept out of
    the first fifth of print order: ceil(u N_p) and floor(v N_p) across sizes, the product over pools."""
    spec, pool, table = happy
    other = build_pool(spec, pool, hashlib.sha256(b"another pool").digest())
    prize = table["prize_cents"].to_numpy()
    late = np.flatnonzero(prize == 0)[-400:]
    early = np.flatnonzero((prize >= 500) & (np.arange(len(prize)) < 600))
    order = np.arange(len(prize))
    order[early], order[late[: len(early)]] = late[: len(early)], early
    pools = [("p1", other["prize_cents"].to_numpy()), ("p2", prize[:2400]), ("p3", prize[order])]
    run = run_statistics([top_levels(p, pid, 30) for pid, p in pools], 3)
    found = run_level(pools, 30)
    assert [f.name for f in found] == [j.finding.name for j in run.judged]
    for f, j in zip(found, run.judged, strict=True):
        assert f.figures == j.finding.figures, (f.name, f.figures, j.finding.figures)
        assert f.p == pytest.approx(j.finding.p, rel=1e-9, abs=1e-300), (f.name, f.p, j.finding.p)
    assert any(" over 3 pools; earliest at " in f.figures for f in found)


def test_a_pool_of_1_200_books_gets_the_same_ranks_and_levels_in_fewest_books(tmp_path):
    """Happy Holidays cut to pools of 36,000 in books of 30: ranks past 999 (printed with commas) and the
    levels below the top group held in fewest books ($20 and $5, at most B tickets each)."""
    text = spec_path("happy_holidays").read_text().replace("last_ticket = 299", "last_ticket = 29")
    spec = load_spec(cut_spec(tmp_path, "happy_holidays", (1800000, 216000), (300000, 36000), 50, least=0,
                              text=text))
    pool = spec.pools[0]
    found = _agree(spec, pool, build_pool(spec, pool, SEED))
    assert [n for n in found if n.startswith("prize level")] == [
        "prize level $5 (492 tickets): in fewest books", "prize level $20 (60 tickets): in fewest books"]
    assert any(re.search(r"\(rank 1,\d{3} of the pool's 1,200 book numbers\)", f) for f, _ in found.values())


def test_random_pools_get_the_same_top_group_findings():
    """100 random pools (books of 1 to 60 or eInstants; no winner, a few, or all; one book or many): the
    engine's 1a, 1c and 1e are audit's, figures word for word, p to 1e-9."""
    rng = np.random.default_rng(2027)
    for _ in range(100):
        per = int(rng.choice([1, 2, 3, 5, 10, 30, 60])) if rng.random() < 0.6 else None
        books = int(rng.integers(1, 40))
        n = per * books if per else int(rng.integers(5, 3000))
        prize = np.zeros(n, dtype=np.int64)
        winners = int(rng.integers(0, n + 1)) if rng.random() < 0.3 else int(rng.integers(0, n // 3 + 1))
        amounts = rng.choice([100, 200, 500, 1000, 5000, 100000], size=int(rng.integers(1, 6)), replace=False)
        prize[rng.choice(n, winners, replace=False)] = rng.choice(amounts, winners)
        book = np.repeat(rng.permutation(books) * 3 + 7, per) if per else None
        audit = [f for f, _ in top_findings([top_levels(prize, "p1", per)])]
        audit += audit_gathered(prize, per_book=per, book=book, order=True)
        found = run_level([("p1", prize)], per) if winners else []
        found += gathered_findings(prize, per, book)
        if per and book is not None:
            audit += audit_numbers(prize, book, per)
            found += printed_number_findings(prize, per, book)
        assert sorted(f.name for f in found) == sorted(a.name for a in audit), (per, n, winners)
        by_name = {a.name: a for a in audit}
        for f in found:
            assert f.figures == by_name[f.name].figures, (f.name, f.figures, by_name[f.name].figures)
            assert f.p == pytest.approx(by_name[f.name].p, rel=1e-9, abs=1e-300), (f.name, f.p)


def test_random_runs_of_one_to_four_pools_get_the_same_run_level_findings():
    """60 random runs (pools of different sizes, short last books, different top amounts, extremes tied
    between pools): 1a's names (the amounts over every pool), figures (the first pool at the extreme) and
    p to 1e-9."""
    rng = np.random.default_rng(2028)
    for _ in range(60):
        per = int(rng.choice([2, 3, 10, 30])) if rng.random() < 0.6 else None
        pools = []
        for p in range(int(rng.integers(1, 5))):
            short = int(rng.integers(0, per)) if per else 0  # a short last book
            n = per * int(rng.integers(1, 50)) + short if per else int(rng.integers(5, 3000))
            prize = np.zeros(n, dtype=np.int64)
            winners = min(n, int(rng.integers(1, n // 2 + 2)))
            amounts = rng.choice([100, 200, 500, 1000, 5000, 100000], int(rng.integers(1, 6)), replace=False)
            prize[rng.choice(n, winners, replace=False)] = rng.choice(amounts, winners)
            pools.append((f"p{p}", prize))
        audit = [f for f, _ in top_findings([top_levels(prize, pid, per) for pid, prize in pools])]
        found = run_level(pools, per)
        assert [f.name for f in found] == [a.name for a in audit]
        for f, a in zip(found, audit, strict=True):
            assert f.figures == a.figures, (f.name, f.figures, a.figures)
            assert f.p == pytest.approx(a.p, rel=1e-9, abs=1e-300), (f.name, f.p, a.p)
