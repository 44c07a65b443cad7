"""A third engine for step 8's section 2 (the layout no-information tests) on a match_n area (each spot's
prize symbol against win/lose, the held-out classifier on spot 0), a key_number_match area's WINNING
NUMBERS and a prize_legend_duel eInstant's first reveal, written from docs/statistics.md sections 1 and 2,
docs/styles/match_n.md and prize_legend_duel.md section 8 alone: it imports neither poolgen nor audit. numpy
for the fit; scipy only for the chi-square and normal tails."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2, norm

from tests.third_engines.step8_per_pool import pool_rare

MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Found:
    name: str
    stat: float
    p: float


def pooled_table(feature: np.ndarray, win: np.ndarray) -> np.ndarray:
    """The 2 x K table of win/lose by the feature's values (those that occur, in code order), rare values
    pooled (step8_per_pool.pool_rare: section 2's rule)."""
    values = np.unique(feature)
    table = np.stack([[int(((feature == v) & win).sum()) for v in values],
                      [int(((feature == v) & ~win).sum()) for v in values]])
    if table[0].sum() == 0 or table[1].sum() == 0:
        return table[:, :1]
    return pool_rare(table)


def chi_square(feature: np.ndarray, win: np.ndarray) -> tuple[float, int, float] | None:
    table = pooled_table(feature, win)
    if table.shape[1] < 2 or table[0].sum() == 0 or table[1].sum() == 0:
        return None
    t = table.astype(np.float64)
    e = t.sum(axis=1, keepdims=True) * t.sum(axis=0, keepdims=True) / t.sum()
    x2 = float(((t - e) ** 2 / e).sum())
    df = t.shape[1] - 1
    return x2, df, float(chi2.sf(x2, df))


def split_key(file_sha256: str) -> int:
    digest = hashlib.sha256(b"poolgen/audit/stats-split/v1" + b"\x00" + file_sha256.encode()).digest()
    return int.from_bytes(digest[:8], "big")


def splitmix64(z: int) -> int:
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def training_rows(n: int, file_sha256: str) -> np.ndarray:
    k = split_key(file_sha256)
    return np.array([splitmix64((r + k) & MASK) >> 63 == 0 for r in range(n)])


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge logistic regression (the log-likelihood less |beta|^2 / 2, the intercept's coefficient
    among beta) by Newton's method from beta = 0: at most 12 steps, the last the first in which no
    coefficient moves by 1e-7. x has the intercept column first."""
    beta = np.zeros(x.shape[1])
    penalty = np.eye(x.shape[1])
    for _ in range(12):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (y - p) - penalty @ beta
        hess = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.abs(step).max() < 1e-7:
            break
    return beta


def auc_test(score: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """(AUC, z, p): U of the winners' scores over the losers' (ties half), its normal approximation."""
    n1, n0 = int(y.sum()), int((~y).sum())
    n = n1 + n0
    values, inverse, counts = np.unique(score, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(counts) - (counts - 1) / 2)[inverse]
    u = float(ranks[y].sum()) - n1 * (n1 + 1) / 2
    c = counts.astype(np.float64)
    var = n1 * n0 / 12 * ((n + 1) - float((c ** 3 - c).sum()) / (n * (n - 1)))
    z = (u - n1 * n0 / 2) / math.sqrt(var) if var > 0 else 0.0  # every score tied: no evidence
    return u / (n1 * n0), z, float(2 * norm.sf(abs(z)))


def design(blocks: list[list[np.ndarray]]) -> np.ndarray:
    """The intercept, then for each block (one column: one-hot; several, a set: multi-hot) a column for
    each value that occurs in it."""
    n = len(blocks[0][0])
    columns = [np.ones(n)]
    for block in blocks:
        for v in np.unique(np.concatenate(block)):
            columns.append(np.logical_or.reduce([c == v for c in block]).astype(float))
    return np.stack(columns, axis=1)


def classifier(blocks: list[list[np.ndarray]], win: np.ndarray,
               file_sha256: str) -> tuple[float, float] | None:
    """The held-out classifier: (z, p), None without 50 winners and 50 losers in each half. The rows are
    the ones it takes (in stored order), r counting them."""
    train = training_rows(len(win), file_sha256)
    for half in (train, ~train):
        if win[half].sum() < 50 or (~win[half]).sum() < 50:
            return None
    x = design(blocks)
    beta = fit(x[train], win[train].astype(float))
    _, z, p = auc_test(np.round(x[~train] @ beta, 9), win[~train])  # scores to 9 decimals: exact ties tie
    return z, p


def match_n_findings(area: str, spots: int, columns: dict[str, np.ndarray], win: np.ndarray,
                     file_sha256: str, prizes: int) -> list[Found]:
    """Each `<area>_spot_<j>`'s prize symbol (codes 0 .. prizes - 1), on the tickets whose spot j shows
    one, against win/lose; then the classifier on spot 0."""
    out = []
    for j in range(spots):
        code = columns[f"{area}_spot_{j}"]
        shows = code < prizes
        found = chi_square(code[shows], win[shows])
        if found:
            out.append(Found(f"{area}_spot_{j} (one scratched spot) against win/lose", found[0], found[2]))
    shows = columns[f"{area}_spot_0"] < prizes
    held = classifier([[columns[f"{area}_spot_0"][shows]]], win[shows], file_sha256)
    if held is not None:
        out.append(Found(f"win/lose predicted from {area}_spot_0", held[0], held[1]))
    return out


def winning_numbers_findings(area: str, count: int, columns: dict[str, np.ndarray], win: np.ndarray,
                             file_sha256: str) -> list[Found]:
    """key_number_match's area with WINNING NUMBERS of its own: each `<area>_win_<i>` and the smallest
    against win/lose, and the classifier on the set (multi-hot)."""
    cols = [columns[f"{area}_win_{i}"] for i in range(count)]
    out = []
    for i, c in enumerate(cols):
        found = chi_square(c, win)
        if found:
            out.append(Found(f"{area}_win_{i} (a WINNING NUMBER) against win/lose", found[0], found[2]))
    found = chi_square(np.minimum.reduce(cols), win)
    if found:
        out.append(Found(f"smallest WINNING NUMBER of {area} against win/lose", found[0], found[2]))
    held = classifier([cols], win, file_sha256)
    if held is not None:
        out.append(Found(f"win/lose predicted from the set of WINNING NUMBERS of area {area}", *held))
    return out


def first_reveal_findings(spot_0: np.ndarray, win: np.ndarray, first_spot_loss: str,
                          file_sha256: str) -> list[Found]:
    """prize_legend_duel (its contract's section 8): whether spot 0 is a loss (code 1) against win/lose,
    and the classifier on it."""
    loss = (spot_0 == 1).astype(np.int64)
    out = []
    found = chi_square(loss, win)
    if found:
        out.append(Found(f"first reveal (spot_0) a loss (drawn {first_spot_loss} for every share), against "
                         "win/lose", found[0], found[2]))
    held = classifier([[loss]], win, file_sha256)
    if held is not None:
        out.append(Found("win/lose predicted from whether spot_0 is a loss", *held))
    return out


def column_findings(columns: dict[str, np.ndarray], names: list[str], what: str,
                    win: np.ndarray) -> list[Found]:
    """A key_number_match area's YOUR NUMBERS or prize symbols: each column, on every ticket, against
    win/lose, named `<column> (WHAT) against win/lose`."""
    out = []
    for name in names:
        found = chi_square(columns[name], win)
        if found:
            out.append(Found(f"{name} ({what}) against win/lose", found[0], found[2]))
    return out
