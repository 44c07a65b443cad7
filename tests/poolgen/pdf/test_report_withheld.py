"""The public report withholds what names a position, and nothing it shows gives it back: a withheld
test's p-value is a function of its figure (P(min >= x) = C(N - x, t) / C(N, t) printed as 0.164 is
one x), and a Holm threshold is a function of the test's rank among every p-value of the pool, withheld
ones too (docs/proofs.md, "The report's editions"). An analyst holding only the public edition inverts
the p-values below; the internal edition still shows them."""

from __future__ import annotations

import re
from math import comb
from pathlib import Path

import numpy as np
import polars as pl
import pypdfium2
import pytest

from audit.checklist import Step, StepResult
from audit.stats.book_order import book_order_findings
from audit.stats.gathered import gathered_findings
from audit.stats.near_top import near_top_findings
from audit.stats.slots import same_book_finding
from audit.stats.step import fmt_p
from audit.stats.windows import window_findings
from poolgen.pdf.report.statistics import checklist_lines, withheld
from tests.support import SEED_A, small_wild_side
from tests.support.cli import invoke

MIN_ROW = re.compile(r"smallest position exact: P\(min >= x\) = C\(N-x, t\)/C\(N, t\) (.*?) (?:pass|FAIL)\b")
MAX_ROW = re.compile(r"largest position exact: P\(max <= y\) = C\(y\+1, t\)/C\(N, t\) (.*?) (?:pass|FAIL)\b")
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e-\d+)?")


def text(pdf: Path) -> str:
    doc = pypdfium2.PdfDocument(pdf)
    return " ".join(" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(len(doc)))


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict:
    """One pool of Wild Side cut to 3,000 tickets, signed; its public and internal reports' text."""
    root = tmp_path_factory.mktemp("withheld")
    spec = small_wild_side(root)
    seed = root / "run.seed"
    seed.write_text(SEED_A.hex() + "\n")
    seed.chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    made = invoke("generate", spec, "--out", root / "runs", "--seed-file", seed, "--pool", "p1",
                  "--run-id", "ws", "--workers", "1", "--key", root / "keys" / "signing-key.pem")
    assert made.exit_code == 0, made.output
    run = root / "runs" / "ws"
    out = {"pool": pl.read_parquet(run / "pool-p1.parquet")}
    for edition, extra in (("public", []), ("internal", ["--internal"])):
        pdf = root / f"{edition}.pdf"
        done = invoke("report", run, "--out", pdf, "--public-key", root / "keys" / "signing-key.pub.pem",
                      *extra)
        assert done.exit_code == 0, done.output
        out[edition] = text(pdf)
    return out


def recovered(row: str, true_p: str) -> bool:
    """Whether the row shows the withheld test's p-value (or anything printed as it)."""
    return true_p in NUMBER.findall(row)


def test_public_report_p_values_do_not_give_back_the_top_prizes_first_and_last_positions(reports):
    pool, public = reports["pool"], reports["public"]
    top = pool.filter(pl.col("prize_cents") >= 2500)["position"]
    n, t, first, last = pool.height, top.len(), int(top.min()), int(top.max())
    p_first = fmt_p(comb(n - first, t) / comb(n, t))
    p_last = fmt_p(comb(last + 1, t) / comb(n, t))
    # the attack: every x whose P(min >= x) prints as the row's p-value; one of them is the truth
    assert [x for x in range(n) if fmt_p(comb(n - x, t) / comb(n, t)) == p_first] == [first]
    rows = MIN_ROW.findall(public), MAX_ROW.findall(public)
    assert len(rows[0]) == 1 and len(rows[1]) == 1, rows
    assert "withheld" in rows[0][0] and "withheld" in rows[1][0]
    assert not recovered(rows[0][0], p_first), rows[0][0]
    assert not recovered(rows[1][0], p_last), rows[1][0]
    internal = reports["internal"]
    assert recovered(MIN_ROW.findall(internal)[0], p_first)
    assert recovered(MAX_ROW.findall(internal)[0], p_last)


def test_public_report_shows_no_rank_of_a_p_value(reports):
    """Holm's thresholds rank every p-value of the pool, withheld ones among them, and the smallest p
    of a pool or of the run may be a withheld test's: neither is in the public edition."""
    public, internal = reports["public"], reports["internal"]
    assert "smallest p =" in internal and "Holm threshold" in internal
    assert "smallest p =" not in public
    sentence = "each test's Holm threshold: internal edition"
    assert public.count(sentence) == 1 and public.count("Holm threshold") == 1  # no column, no failure's
    assert sentence not in internal


def test_a_failed_position_test_is_named_without_its_figures_in_the_public_checklist():
    """A pool that fails a withheld test (a pool's first top prize at position 3) is named as failing
    in the public checklist, by the test's name alone; the internal edition shows it whole."""
    step = StepResult(Step.STATISTICS, "statistics")
    name, method = "top prizes ($25,000 to $25; 54 tickets): smallest position", "exact: P(min >= x)"
    figures = "smallest of 54 at position 3 (0.1% into the pool)"
    step.add("fail", f"{name} ({method}): {figures}, p = 1.00e-06 <= Holm threshold 4.44e-06, family-wise "
                     "0.04% for this pool", "pool p1")
    step.add("fail", "winner positions by tenth of the pool (chi-square): X2 = 40.1, df = 9, p = 7.00e-06 "
                     "<= Holm threshold 4.08e-06, family-wise 0.04% for this pool", "pool p2")
    step.figures = [{"pool": "p1", "test": name, "method": method, "statistic": figures, "p": 1e-6,
                     "holm_threshold": 4.44e-6, "alpha": 0.0004, "significant": True}]
    step.add("pass", "106 tests, 2 significant at family-wise 0.04%, Holm across the pool's tests", "pool p1")
    public, internal = checklist_lines(step, internal=False), checklist_lines(step, internal=True)
    assert public[0] == f"pool p1: {name}: withheld: it names a position (internal edition)"
    assert public[1] == ("pool p2: winner positions by tenth of the pool (chi-square): X2 = 40.1, df = 9, "
                         "p = 7.00e-06, family-wise 0.04% for this pool")
    assert internal[:2] == tuple(step.reasons)
    assert "position 3" not in " ".join(public) and "Holm threshold" not in " ".join(public)


def test_a_failed_run_level_test_of_the_top_prizes_ticket_numbers_is_withheld_in_the_public_checklist():
    """The run's tests of the top prizes' ticket numbers within their books (audit/stats/top.py) name the
    last digit a top prize is printed with, as the pools' tests of the printed numbers do: failed, the
    public checklist names the test alone; the internal edition shows it whole."""
    step = StepResult(Step.STATISTICS, "statistics")
    name = "top prize of each pool ($6.00): smallest ticket number within its book, pools combined"
    method = "exact: P(min >= x) = prod C(M_p(>= x), t_p)/C(N_p, t_p)"
    figures = "4 tickets over 4 pools; smallest ticket number 47 of 0..49"
    step.add("fail", f"{name} ({method}): {figures}, p = 1.00e-06 <= Holm threshold 2.50e-03, family-wise 1% "
                     "for the run's top tiers", "run")
    step.figures = [{"pool": None, "test": name, "method": method, "statistic": figures, "p": 1e-6,
                     "holm_threshold": 2.5e-3, "alpha": 0.01, "significant": True}]
    public, internal = checklist_lines(step, internal=False), checklist_lines(step, internal=True)
    assert public == (f"run: {name}: withheld: it names a position (internal edition)",)
    assert internal == tuple(step.reasons) and "ticket number 47" in internal[0]


def test_an_einstants_tests_by_serial_number_are_withheld_from_the_public_edition():
    """An eInstant's serial is its position plus one: the tests of the top prizes by serial (audit/stats/
    gathered.py: one last digit, fewest residues mod 1,000) name the last digit of the top prize's serial
    ("1 of 1 end in 7") as the printed tests by ticket number within the book name a ticket's, which the
    public edition withholds; their figures and p-values are withheld too. So is close together in serial
    order: its gaps name no place, but with two top prizes one claimed says where the other lies."""
    prize = np.zeros(2_000, dtype=np.int64)
    prize[::9] = 100
    prize[[6, 506, 1_306]] = 500  # serials 7, 507, 1,307: the top prizes all end in 7
    found = {f.name: f for f in gathered_findings(prize, per_book=None, book=None, order=True)}
    top = "top prizes ($5; 3 tickets)"
    digit = found[f"{top} by serial: one last digit"]
    assert digit.figures.startswith("3 of 3 end in 7")
    assert withheld(digit.name, digit.figures)
    residues = found[f"{top} by serial mod 1,000: in fewest residues"]
    assert withheld(residues.name, residues.figures)
    close = found[f"{top}: close together in serial order"]
    assert withheld(close.name, close.figures)


def test_the_tests_of_top_prizes_gathered_are_withheld_by_their_names():
    """docs/statistics.md 1e's tests say how close together the top prizes lie, and on how few serial
    residues or last digits of an eInstant (sold in serial order) or ticket numbers they fall: each is
    withheld from the public edition whatever its figures' words (names as audit/stats/gathered.py
    makes them for a printed pool and for an eInstant)."""
    printed = np.zeros(3_000, dtype=np.int64)
    printed[[5, 7, 9, 11, 700, 1_400, 2_100, 2_800]] = 100_000
    book = np.repeat(np.arange(50), 60)
    found = gathered_findings(printed, per_book=60, book=book, order=True)
    shares = np.zeros(10_000, dtype=np.int64)
    shares[[999, 1_999, 2_999, 3_999, 4_999, 5_999, 6_999, 7_999, 8_999]] = 100_000
    found += gathered_findings(shares, per_book=None, book=None, order=True)
    assert any("close together" in f.name for f in found) and any("serial mod" in f.name for f in found)
    assert any("one last digit" in f.name for f in found)
    assert [f.name for f in found if not withheld(f.name, f.figures)] == []


def test_the_tests_of_a_level_in_consecutive_books_or_blocks_are_withheld_by_their_names():
    """docs/statistics.md 1f's and 1g's tests by printed book number, and 1g's in print or serial order,
    name (or rank) the books or blocks where a level crowds: each is withheld from the public edition
    whatever its figures' words (names as audit/stats/book_order.py and windows.py make them)."""
    printed = np.zeros(6_000, dtype=np.int64)
    printed[::20] = 500
    printed[::7] = 100
    book = np.repeat(np.arange(200)[::-1], 30)
    found = window_findings(printed, per_book=30, book=book, order=True)
    found += book_order_findings(printed, book, 30)
    shares = np.zeros(100_000, dtype=np.int64)  # 100 blocks of 1,000
    shares[::9] = 200
    shares[::40] = 100_000
    found += window_findings(shares, per_book=None, book=None, order=True)
    assert len([f for f in found if "most in consecutive" in f.name]) == 3
    assert any("serial order" in f.name for f in found) and len(found) == 3 + 4
    assert [f.name for f in found if not withheld(f.name, f.figures)] == []


def test_the_tests_of_a_level_with_the_top_prizes_are_withheld_by_their_names():
    """docs/statistics.md 1i's tests, a level in the books holding a top prize or beside one: a failing one
    tells a buyer to take the rest of a claimed top prize's book, or the ticket next to it, so each is
    withheld from the public edition whatever its figures' words (names as audit/stats/near_top.py makes
    them)."""
    printed = np.zeros(6_000, dtype=np.int64)
    printed[::20] = 500
    printed[::7] = 100
    printed[::100] = 10_000
    found = near_top_findings(printed, 30, True)
    assert [f.name.split(": ")[1] for f in found] == ["in the books of the top prizes ($100)",
                                                      "beside a top prize ($100) in its book"] * 2
    assert [f.name for f in found if not withheld(f.name, f.figures)] == []


def test_the_run_level_test_of_the_same_book_in_every_pool_is_withheld_by_its_name():
    """docs/statistics.md 1a's same book of print order in the most pools: its figures name the book
    (audit/stats/slots.py), so it is withheld whatever its words."""
    pools = [(100, 10, np.array([5])), (100, 10, np.array([7]))]
    f = same_book_finding("top prize of each pool ($100)", pools)
    assert f is not None and "book 1 of print order" in f.figures
    assert withheld(f.name, f.figures)
