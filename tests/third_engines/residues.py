"""A third engine for step 8's 1h (the prize amounts by patterns of the printed book and ticket numbers),
written from docs/statistics.md 1h and section 1's top-coding alone: it imports neither poolgen nor audit;
scipy only for the chi-square tail the contract names."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2


@dataclass(frozen=True)
class Found:
    name: str
    method: str
    figures: str
    p: float


def classes(counts: list[int], least: int) -> list[int]:
    """Each amount's class (amounts ascending, 0 the lowest class): from the highest amount down, an amount
    whose class so far holds fewer than `least` tickets joins the next lower amount; then a lowest class of
    fewer than `least` joins the next higher."""
    groups: list[list[int]] = []  # from the top: the amounts' indices of each closed class
    current: list[int] = []
    held = 0
    for i in range(len(counts) - 1, -1, -1):
        current.append(i)
        held += counts[i]
        if held >= least and i > 0:
            groups.append(current)
            current, held = [], 0
    if current:
        groups.append(current)  # the lowest class, whatever it holds
    if len(groups) > 1 and sum(counts[i] for i in groups[-1]) < least:
        lowest = groups.pop()  # popped first: `groups[-2] += groups.pop()` indexes the shortened list
        groups[-1] += lowest
    out = [0] * len(counts)
    for rank, group in enumerate(reversed(groups)):
        for i in group:
            out[i] = rank
    return out


def table_test(name: str, residue: np.ndarray, prize: np.ndarray) -> Found | None:
    """Pearson's chi-square of the residues (those holding tickets) by the top-coded prize classes."""
    n = len(prize)
    held = sorted(set(residue.tolist()))
    sizes = {r: int((residue == r).sum()) for r in held}
    if len(held) < 2:
        return None
    least = math.ceil(5 * n / min(sizes.values()))
    amounts = sorted(set(prize.tolist()))
    counts = [int((prize == a).sum()) for a in amounts]
    cls = classes(counts, least)
    kinds = max(cls) + 1
    if kinds < 2:
        return None
    of = {a: cls[i] for i, a in enumerate(amounts)}
    ticket_class = np.array([of[a] for a in prize.tolist()])
    totals = [sum(c for c, k in zip(counts, cls, strict=True) if k == j) for j in range(kinds)]
    x2 = 0.0
    for r in held:
        here = ticket_class[residue == r]
        for j in range(kinds):
            e = sizes[r] * totals[j] / n
            x2 += (int((here == j).sum()) - e) ** 2 / e
    df = (len(held) - 1) * (kinds - 1)
    return Found(name, f"chi-square test of independence, {len(held)} residues x {kinds} classes, amounts "
                 f"top-coded to classes of at least {least:,} tickets", f"X2 = {x2:.1f}, df = {df:,}",
                 float(min(1.0, chi2.sf(x2, df))))


def residue_findings(prize: np.ndarray, per_book: int, book: np.ndarray) -> list[Found]:
    """1h's eleven tests, in the contract's order."""
    b = book.astype(np.int64)
    t = np.arange(len(prize)) % per_book
    tests = [(f"prize amounts by printed book number mod {k}", b % k) for k in range(2, 11)]
    tests.append(("prize amounts by ticket number within the book minus printed book number mod 10",
                  (t - b) % 10))
    tests.append(("prize amounts by printed book number and ticket number: barcode check digits, "
                  "(30 x book + ticket) mod 97", (30 * b + t) % 97))
    found = [table_test(name, residue, prize) for name, residue in tests]
    return [f for f in found if f is not None]
