"""Step 8's tests of a losing ticket's layout against the next ticket's prize (audit/stats/next_ticket.py,
docs/statistics.md 1j): an insider who exchanges the losers' layouts among the losers, so that the losers
just before the winners show a chosen spot (a clerk who sees one scratched sells the next ticket to a
friend; a buyer shown an eInstant share's play buys the next serial), moves no prize and draws no layout a
loser could not have: every test before 1j sees the same pool. 1j refuses it, named. The statistic is the
contract's table, checked against a reference written from the contract and scipy; honest small pools
fail it no more than the design allows; a re-signed run fails step 8 alone."""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from audit.checklist import Step
from audit.stats.next_ticket import book_finding, book_name, groups, next_ticket_finding, next_ticket_name
from audit.stats.step import holm, pool_alpha
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.pdf.report.statistics import withheld
from poolgen.run.build import build_pool
from tests.support import small_einstant, spec_path
from tests.support.next_ticket_biases import tell_before, tell_in_books
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import judge, small_spec

SEED = hashlib.sha256(b"poolgen/tests/insider-next-ticket").digest()
SPOT_0 = "play_spot_0 (one scratched spot), on a losing ticket, against the next ticket's prize (print order)"
HUNDRED = 5  # the code of the $100 prize symbol in Happy Holidays' play area


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    spec = small_spec(tmp_path_factory.mktemp("next-ticket"))
    pool = spec.pools[0]
    return spec, pool, build_pool(spec, pool, SEED)


def _mine(name: str) -> bool:
    """A test of 1j (its names end "against the next ticket's prize (print order)" or "(serial order)") or
    of 1k ("against the book's highest prize"), or of 1l (a duel's runs of losers)."""
    return "against the next ticket's prize" in name or "against the book's highest prize" in name \
        or "the last loser before a winner" in name


def _refused_before(s) -> list[str]:
    """What Holm refuses of the pool's tests without those of 1j: step 8 before them."""
    return [j.finding.name for j in holm([j.finding for j in s.judged if not _mine(j.finding.name)],
                                         pool_alpha(1)) if j.rejected]


def _tell(table, column: str, code: int) -> np.ndarray:
    return (table["prize_cents"].to_numpy() == 0) & (table[column].to_numpy() == code)


def test_losers_showing_the_hundred_dollar_symbol_before_every_winner_are_refused_by_that_test(small):
    """Small Happy Holidays: every loser whose spot 0 shows $100 (as many as there are losers before a
    winner) put just before a winner, its layout exchanged with a loser's there. Every ticket after such a
    loser wins; the tests before 1j see the same pool (the losers' layouts, as a multiset, unchanged) and
    pass it; 1j's test of spot 0 refuses it, alone."""
    spec, pool, table = small
    tell = _tell(table, "play_spot_0", HUNDRED)
    biased = tell_before(table, tell, None, None, np.random.default_rng(1))
    prize = biased["prize_cents"].to_numpy()
    shows = _tell(biased, "play_spot_0", HUNDRED)[:-1]
    assert int(shows.sum()) == int(tell.sum()) == 211 and bool((prize[1:][shows] > 0).all())
    s, r = judge(spec, pool, biased, SEED)
    assert _refused_before(s) == [] and r.failed == []
    failed = {j.finding.name: j.finding.p for j in s.failed}  # and 1l's counts of the spots
    assert failed[SPOT_0] < 1e-30 and all(n == SPOT_0 or "(counted), on a losing" in n for n in failed)


def test_a_tell_before_the_top_prizes_alone_is_refused_by_that_test(small):
    """The same tell kept to the losers just before a ticket of $5 and up (51 of the pool's 3,000): 1j's
    classes of the next ticket's amount hold them apart from the $1s and $2s."""
    spec, pool, table = small
    tell = _tell(table, "play_spot_0", HUNDRED)
    biased = tell_before(table, tell, (500, 2000, 10000), None, np.random.default_rng(2))
    s, r = judge(spec, pool, biased, SEED)
    assert _refused_before(s) == [] and r.failed == []
    assert [j.finding.name for j in s.failed] == [SPOT_0] and s.failed[0].finding.p < 1e-6


def test_an_einstant_shares_first_reveal_a_loss_before_winners_is_refused_by_that_test(tmp_path):
    """Hand to Hand Tactics cut to 100,000 shares: 2,000 losing shares whose first reveal is a loss put
    just before a winning share (the buyer who sees one buys the next serial). Section 2's test of the
    first reveal, and every other, sees the same pool; 1j's refuses it."""
    spec = load_spec(small_einstant(tmp_path, "hand_to_hand_tactics", 100_000))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    biased = tell_before(table, _tell(table, "spot_0", 1), None, 2_000, np.random.default_rng(3))
    s, r = judge(spec, pool, biased, SEED)
    assert _refused_before(s) == [] and r.failed == []
    name = ("first reveal (spot_0) a loss (drawn 1/4 for every share), on a losing ticket, against the next "
            "ticket's prize (serial order)")
    failed = {j.finding.name: j.finding.p for j in s.failed}  # and 1l's of the reveals' runs of losers
    assert failed[name] < 1e-10 and all(n == name or "the last loser before a winner" in n for n in failed)


def _reference(prize: np.ndarray, codes: np.ndarray, each: bool = False) -> tuple[np.ndarray, int]:
    """docs/statistics.md 1j's table, written from its text with Python's dicts: (the table, least); `each`,
    1l's each value a group of its own (a poker hand's draws)."""
    rows = [i for i in range(len(prize) - 1) if prize[i] == 0 and codes[i] >= 0]
    return _table([int(codes[i]) for i in rows], [int(prize[i + 1]) for i in rows], each)


def _book_reference(prize: np.ndarray, codes: np.ndarray, m: int,
                    each: bool = False) -> tuple[np.ndarray, int]:
    """1k's: each whole book's first and last loser (one row if one ticket), against its highest prize."""
    values, against = [], []
    for b in range(len(prize) // m):
        losers = [i for i in range(b * m, b * m + m) if prize[i] == 0]
        for i in sorted({losers[0], losers[-1]} if losers else set()):
            if codes[i] >= 0:
                values.append(int(codes[i]))
                against.append(int(max(prize[b * m: b * m + m])))
    return _table(values, against, each)


def _table(values: list[int], against: list[int], each: bool = False) -> tuple[np.ndarray, int]:
    """The values grouped in code order by the amounts top-coded, as 1j states it (`each`: as 1l states it
    for a poker hand's draws, each value a group, which a threshold of 0 closes at once)."""
    n = len(values)
    rows = range(n)
    held: dict[int, int] = {}
    for i in rows:
        held[values[i]] = held.get(values[i], 0) + 1
    threshold = 0 if each else n / 20
    group: dict[int, int] = {}
    closed, members = 0, []
    for v in sorted(held):  # code order: a group closes as soon as it holds the threshold
        members.append(v)
        group[v] = closed
        if sum(held[m] for m in members) >= threshold:
            closed, members = closed + 1, []
    if members and closed:  # the rest joins the last closed group
        for v in members:
            group[v] = closed - 1
    sizes: dict[int, int] = {}
    for i in rows:
        sizes[group[values[i]]] = sizes.get(group[values[i]], 0) + 1
    least = math.ceil(5 * n / min(sizes.values()))
    amounts: dict[int, int] = {}
    for i in rows:
        amounts[against[i]] = amounts.get(against[i], 0) + 1
    order = sorted(amounts)  # ascending; classes closed from the highest down
    cls: dict[int, int] = {}
    members: list[int] = []
    classes: list[list[int]] = []
    for a in reversed(order):
        members.append(a)
        if sum(amounts[m] for m in members) >= least:
            classes.append(members)
            members = []
    if members:
        if classes:
            classes[-1] += members  # below the lowest closed class: joins it
        else:
            classes.append(members)
    classes.reverse()  # lowest first
    if len(classes) > 1 and sum(amounts[m] for m in classes[0]) < least:
        classes[1] = classes[0] + classes[1]
        classes.pop(0)
    for k, members in enumerate(classes):
        for a in members:
            cls[a] = k
    keys = sorted(set(group.values()))
    table = np.zeros((len(keys), len(classes)), dtype=np.int64)
    for i in rows:
        table[keys.index(group[values[i]]), cls[against[i]]] += 1
    return table, least


@pytest.mark.parametrize("case", range(4))
def test_the_statistic_is_the_contracts_table_and_pearsons_chi_square(case):
    """On random pools (values of 1% to 30% of the rows grouped in code order, codes below 0 left out, amounts
    of every size) the test's
    X2, df, p and the classes' least size are those of a reference written from the contract's words,
    and of scipy's chi2_contingency of that table."""
    rng = np.random.default_rng(case)
    n = 4_000
    prize = rng.choice([0, 0, 0, 100, 200, 500, 2_000, 10_000], size=n, p=[0.2, 0.2, 0.3, 0.15, 0.1, 0.04,
                                                                        0.009, 0.001])
    codes = rng.choice([0, 1, 2, 3, 7, 9, -1], size=n,
                       p=[0.3, 0.3, 0.2, 0.12, 0.01 * case, 0.04, 0.04 - 0.01 * case])
    f = next_ticket_finding("x", prize, codes)
    assert f is not None
    table, least = _reference(prize, codes)
    x2, p, df, _ = chi2_contingency(table, correction=False)
    assert f.figures == f"X2 = {x2:.1f}, df = {df:,}; {int(table.sum()):,} losers with a next ticket"
    classes = f"x {table.shape[1]} classes of the next ticket's amount"
    assert f.method.endswith(f"{classes}, top-coded to classes of at least {least:,} tickets")
    assert f.p == pytest.approx(p, rel=1e-9)


def test_no_test_without_losers_before_a_ticket_or_with_one_kind_of_next_ticket():
    """None: no loser with a code has a next ticket; every next ticket pays one amount; one value only."""
    assert next_ticket_finding("x", np.array([100, 0]), np.array([1, 1])) is None
    assert next_ticket_finding("x", np.array([0, 100] * 50), np.arange(100) % 3) is None
    assert next_ticket_finding("x", np.zeros(100, dtype=np.int64), np.arange(100) % 3) is None
    prize = np.array([0, 0, 100] * 100)
    assert next_ticket_finding("x", prize, np.zeros(300, dtype=np.int64)) is None
    assert next_ticket_finding("x", prize, np.full(300, -1)) is None


def test_the_names_are_the_features_with_the_order_of_the_next_ticket():
    assert next_ticket_name("play_spot_0 (one scratched spot) against win/lose", "printed") == SPOT_0
    assert next_ticket_name("a0_s0 (the first spot shown) against win/lose", "einstant") == \
        "a0_s0 (the first spot shown), on a losing ticket, against the next ticket's prize (serial order)"


def test_a_spot_of_a_match_n_area_with_multipliers_loses_its_against_win_lose_wherever_it_stands():
    """Section 2 names such a spot `... against win/lose among tickets whose spot j shows an amount`: 1j's
    and 1k's names take ` against win/lose` out of the middle (they said it before)."""
    spot = "play_spot_2 (one scratched spot) against win/lose among tickets whose spot 2 shows an amount"
    shown = "play_spot_2 (one scratched spot) among tickets whose spot 2 shows an amount"
    assert next_ticket_name(spot, "printed") == f"{shown}, on a losing ticket, against the next ticket's " \
        "prize (print order)"
    assert book_name(spot) == f"{shown}, on the first and last loser of each book, against the book's " \
        "highest prize"
    picture = "bonus_spot_1 (a picture) on tickets revealing no amount there"
    assert next_ticket_name(f"{picture}, against win/lose", "printed").startswith(f"{picture}, on a losing")


def test_honest_small_pools_fail_the_next_ticket_tests_within_the_design(tmp_path):
    """200 small honest pools (seeds of their own), each a one-pool run: at most 6 fail step 8 (the 1%
    design's allowance, as test_false_failure_rate), and no test of 1j or 1k has p at most 0.05 in more than
    22 of them (a uniform p-value exceeds that with probability 0.001)."""
    spec = small_spec(tmp_path)
    pool = spec.pools[0]
    low: dict[str, int] = {}
    failing = 0
    for i in range(200):
        seed = hashlib.sha256(b"poolgen/tests/next-ticket-honest/%d" % i).digest()
        s, r = judge(spec, pool, build_pool(spec, pool, seed), seed)
        failing += bool(s.failed or r.failed)
        mine = [j.finding for j in s.judged if _mine(j.finding.name)]
        # play_spot_0 .. play_spot_5 and 1l's 7 counts, 1j's; 1k's where the books' highest prizes make two
        # classes or more
        assert sum("next ticket" in f.name for f in mine) == 13 and len(mine) <= 26
        for f in mine:
            low[f.name] = low.get(f.name, 0) + (f.p <= 0.05)
    assert failing <= 6
    assert max(low.values()) <= 22, low


def test_a_re_signed_run_whose_losers_tell_the_next_winner_fails_step_8_alone(tmp_path):
    """A small Happy Holidays run whose losers showing $100 in spot 0 are put before winners, re-signed:
    step 8 refuses it by 1j's test of spot 0, and no other step sees it."""
    spec = small_spec(tmp_path)
    run, public, signer = signed_first_pool(spec, SEED, tmp_path)
    assert verify_run(VerifyRequest(run=run, public_key=public)).failed == []
    reseal_insider_pool(run, spec, spec.pools[0].id, SEED, signer,
                        lambda t: tell_before(t, _tell(t, "play_spot_0", HUNDRED), None, None,
                                              np.random.default_rng(1)))
    report = verify_run(VerifyRequest(run=run, public_key=public))
    assert report.failed == [Step.STATISTICS]
    reasons = next(s for s in report.steps if s.step == Step.STATISTICS).reasons
    named = [r.split(" (chi-square")[0] for r in reasons]  # and 1l's counts of the spots, the $100s' moved
    assert f"pool p1: {SPOT_0}" in named and all(n == f"pool p1: {SPOT_0}" or "(counted)" in n for n in named)


def test_the_next_ticket_tests_are_withheld_from_the_public_edition_by_their_names():
    """A failing 1j test tells a clerk which spot of a scratched loser to watch before selling the next
    ticket: withheld from the public edition whatever its figures' words, as 1i's."""
    assert withheld(SPOT_0, "X2 = 3.1, df = 5; 2,000 losers with a next ticket")
    assert withheld(next_ticket_name("a0_s0 (the first spot shown) against win/lose", "einstant"), "X2 = 1")
    assert withheld(book_name("play_spot_0 (one scratched spot) against win/lose"), "X2 = 1")


def test_a_books_first_loser_telling_its_top_prize_is_refused_by_the_book_test():
    """Happy Holidays p1 (1,000 books of 300): the first loser of each of the 370 or so books holding a
    $100 shows $100 in spot 0 (layouts exchanged among the losers). 1j sees nothing (the next ticket is no
    more often a winner); 1k's table of the books' first and last losers by the book's highest prize refuses
    it. (A small pool's 100 books of 30 nearly all hold a $2, and its books' highest prizes make one or two
    classes: 1k is for full books.)"""
    spec = load_spec(spec_path("happy_holidays"))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    tell = _tell(table, "play_spot_0", HUNDRED)
    biased = tell_in_books(table, tell, 300, (10000,), np.random.default_rng(5))
    s, r = judge(spec, pool, biased, SEED)
    assert _refused_before(s) == [] and r.failed == []
    name = book_name("play_spot_0 (one scratched spot) against win/lose")
    assert name == ("play_spot_0 (one scratched spot), on the first and last loser of each book, against the "
                    "book's highest prize")
    failed = {j.finding.name: j.finding.p for j in s.failed}  # and 1l's count of the $100s, the same tell
    counted = "play: the spots showing 100 (counted), on the first and last loser of each book, against " \
              "the book's highest prize"
    assert failed[name] < 1e-8 and set(failed) <= {name, counted}


@pytest.mark.parametrize("case", range(3))
def test_the_book_statistic_is_the_contracts_table(case):
    """1k on random pools of 400 books of 20 (books without a loser, rows without a code): X2, df, p and the
    classes' least size those of a reference written from 1j's and 1k's words, and of scipy's."""
    rng = np.random.default_rng(10 + case)
    prize = rng.choice([0, 100, 200, 500, 2_000, 10_000], size=8_000, p=[0.5, 0.3, 0.1, 0.07, 0.02, 0.01])
    prize[:20] = 100  # a book without a loser
    codes = rng.choice([0, 1, 2, 3, 4, -1], size=8_000, p=[0.3, 0.3, 0.2, 0.1, 0.05, 0.05])
    f = book_finding("x", prize, codes, 20)
    assert f is not None
    table, least = _book_reference(prize, codes, 20)
    x2, p, df, _ = chi2_contingency(table, correction=False)
    assert f.figures == f"X2 = {x2:.1f}, df = {df:,}; {int(table.sum()):,} first and last losers of the books"
    assert f.method.endswith(f"{table.shape[1]} classes of the book's highest prize, top-coded to classes of "
                             f"at least {least:,} tickets")
    assert f.p == pytest.approx(p, rel=1e-9)


def test_the_book_tests_rows_are_each_books_first_and_last_loser():
    """Books of 4: the first and last loser of each (one row where they are one ticket), against the book's
    highest prize; a row without a code left out."""
    prize = np.array([0, 100, 0, 0, 500, 0, 200, 200, 0, 0, 0, 0] * 50)
    codes = np.tile(np.array([0, 9, 1, 2, 9, 3, -1, 9, 4, 5, 6, 7]), 50)
    f = book_finding("x", prize, codes, 4)
    assert f is not None and f.figures.endswith("; 250 first and last losers of the books")


def test_a_losing_shares_decoy_amount_before_winners_is_refused_by_that_columns_test(tmp_path):
    """Primetime Payout cut to 100,000 shares: 1,000 losing shares showing a $10 amount in area 0 put just
    before a winning share. Section 2 promises nothing of a loser's amount, and no test before 1j, nor 1j's
    of a0_s0, sees it; 1j's test of a0_amount (a column of a losing share its style lists) refuses it."""
    spec = load_spec(small_einstant(tmp_path, "primetime_payout", 100_000))
    pool = spec.pools[0]
    table = build_pool(spec, pool, SEED)
    biased = tell_before(table, _tell(table, "a0_amount", 1_000), None, 1_000, np.random.default_rng(4))
    s, r = judge(spec, pool, biased, SEED)
    assert r.failed == []
    assert [j.finding.name for j in holm([j.finding for j in s.judged if "(as shown)" not in j.finding.name],
                                         pool_alpha(1)) if j.rejected] == []
    name = "a0_amount (as shown), on a losing ticket, against the next ticket's prize (serial order)"
    failed = {j.finding.name: j.finding.p for j in s.failed}  # and 1l's of the reveals' runs of losers
    assert failed[name] < 1e-10 and all(n == name or "the last loser before a winner" in n for n in failed)


def test_values_are_grouped_in_code_order_until_a_group_holds_enough():
    """A group closes as soon as it holds `least` rows; a short rest joins the last group; none closing
    leaves one group."""
    assert groups(np.array([5, 5, 5, 5]), 10).tolist() == [0, 0, 1, 1]
    assert groups(np.array([12, 1, 9, 3]), 10).tolist() == [0, 1, 1, 1]
    assert groups(np.array([3, 3]), 10).tolist() == [0, 0]
    assert groups(np.array([10, 10, 10]), 10).tolist() == [0, 1, 2]
