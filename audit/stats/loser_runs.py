"""Step 8's tests of a loser's reveals against the next share where the neighbour rule ties them
(docs/statistics.md 1l): the prize_legend_duel style's later reveals.

The neighbour rule (docs/randomness.md 5.1) lays a run of losers out again while two consecutive ones are
identical, so a loser's layout depends a little on whether the next share is a loser too: where losers have
few layouts (a small duel: 4,550, two of them 3% each) 1j's table of a reveal against the next share
would refuse honest pools. Two tests read only what the rule leaves symmetric or independent:

- the last loser before a winner against the first loser after one, over the runs of two or more losers
  between two winners: a run is laid out from the losers' law conditioned on no identical neighbours, a law
  the run's reversal leaves as it is, so its first and last losers are exchangeable whatever the order;
  Stuart-Maxwell's test of marginal homogeneity of the pairs (a tell before winners shows on the last loser);
- the last loser before a winner against that winner's prize: a run's layouts depend on the order only
  through where its winners are, not on what they pay (under a uniform shuffle, given where the winners
  are, which tier each is is a uniform permutation); 1j's table on these rows (a tell before a top prize).
"""

from __future__ import annotations

import numpy as np

from audit.stats.laws import chi2_sf
from audit.stats.next_ticket import GROUPS, groups, loser_finding
from audit.stats.tests import Finding, distinct_values

WINNER, BEFORE = "next winner's amount", "losers before a winner"  # the second test's method and figures

__all__ = ["LoserRuns", "last_before_winner_finding", "reversal_finding", "run_names"]


def run_names(feature: str) -> tuple[str, str]:
    """The two tests' names of a feature."""
    return (f"{feature}, the last loser before a winner against the first after one (runs of losers, "
            "serial order)",
            f"{feature}, on the last loser before a winner, against that winner's prize (serial order)")


def _runs(prize: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, last) place of each run of two or more losers with a winner before and after it."""
    lose = prize == 0
    before = np.concatenate([[False], lose[:-1]])  # the previous ticket loses
    after = np.concatenate([lose[1:], [False]])  # the next ticket loses
    first = np.flatnonzero(lose & ~before & after)
    last = np.flatnonzero(lose & before & ~after)  # the k-th run of two or more: first[k] .. last[k]
    keep = (first > 0) & (last < len(prize) - 1)
    return first[keep], last[keep]


class LoserRuns:
    """Both tests for many features of one pool: the runs and the losers before a winner found once, the
    winners' amounts counted once."""

    def __init__(self, prize: np.ndarray) -> None:
        self.prize = prize
        self.runs = _runs(prize)
        self.rows = np.flatnonzero((prize[:-1] == 0) & (prize[1:] > 0))
        self.amount = prize[self.rows + 1]
        self.counted = distinct_values(self.amount)[1:]

    def findings(self, feature: str, codes: np.ndarray) -> list[Finding | None]:
        ends, winner = run_names(feature)
        mine = codes[self.rows]
        if len(mine) and int(mine.min()) < 0:  # rows without a code: left out, the amounts counted again
            last = last_before_winner_finding(winner, self.prize, codes)
        else:
            last = loser_finding(winner, mine, self.amount, WINNER, BEFORE, self.counted)
        return [reversal_finding(ends, self.prize, codes, self.runs), last]


def reversal_finding(name: str, prize: np.ndarray, codes: np.ndarray,
                     runs: tuple[np.ndarray, np.ndarray] | None = None) -> Finding | None:
    """Stuart-Maxwell over the runs of two or more losers between winners (both ends with a code): each
    end's value grouped as 1j groups (in code order, a group closing at n / GROUPS of the 2 m ends); d the
    count of last ends in each group less that of first ends, S the sum over the runs whose ends fall in
    two groups a and b of (e_b - e_a)(e_b - e_a)^T; X2 = d^T S^+ d, df = rank of S. None when no run has
    its ends in two groups, or fewer than two groups remain."""
    first, last = _runs(prize) if runs is None else runs
    keep = (codes[first] >= 0) & (codes[last] >= 0)
    first, last = first[keep], last[keep]
    m = len(first)
    if not m:
        return None
    _, value, sizes = distinct_values(np.concatenate([codes[first], codes[last]]))
    bins = groups(sizes, 2 * m / GROUPS)
    k = int(bins.max()) + 1
    if k < 2:
        return None
    a, b = bins[value[:m]], bins[value[m:]]
    d = np.bincount(b, minlength=k) - np.bincount(a, minlength=k)
    pairs = np.bincount(a * k + b, minlength=k * k).reshape(k, k)
    both = (pairs + pairs.T).astype(np.float64)
    np.fill_diagonal(both, 0.0)
    s = np.diag(both.sum(axis=1)) - both
    df = int(np.linalg.matrix_rank(s))
    if df < 1:
        return None
    x2 = float(d @ np.linalg.pinv(s) @ d)
    odd = int((a != b).sum())
    return Finding(name, f"Stuart-Maxwell test of marginal homogeneity, {k} groups of values, the last "
                   "loser's against the first's", f"X2 = {x2:.1f}, df = {df:,}; {m:,} runs of losers between "
                   f"winners, {odd:,} with their ends in two groups", float(min(1.0, chi2_sf(x2, df))))


def last_before_winner_finding(name: str, prize: np.ndarray, codes: np.ndarray) -> Finding | None:
    """1j's table over the losers followed by a winner (with a code) against that winner's prize."""
    rows = np.flatnonzero((prize[:-1] == 0) & (prize[1:] > 0) & (codes[:-1] >= 0))
    return loser_finding(name, codes[rows], prize[rows + 1], WINNER, BEFORE)
