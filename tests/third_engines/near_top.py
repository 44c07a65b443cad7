"""A third engine for step 8's 1i (a prize level with the top prizes: in their books, beside them), written
from docs/statistics.md 1i and 1a's top groups alone: it imports neither poolgen nor audit. The law at x
is taken from exact integers (math.comb), so the tail shares no log-gamma with audit's; scipy is not
needed."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LEVEL_MIN = 20
METHOD = ("exact: P(X >= x), X hypergeometric (the N - t places holding no top prize, the level's c tickets, "
          "the S places tested drawn)")


@dataclass(frozen=True)
class Found:
    name: str
    method: str
    figures: str
    p: float


def dollars(cents: int) -> str:
    """`$1,000` for whole dollars, `$1.50` otherwise."""
    whole, part = divmod(cents, 100)
    return f"${whole:,}" if part == 0 else f"${whole:,}.{part:02d}"


def upper_tail(places: int, level: int, drawn: int, x: int) -> float:
    """P(X >= x), X hypergeometric: the law at x in exact integers (math.comb, one division correctly
    rounded), then each next term by the law's ratio until the terms no longer move the sum."""
    top = min(level, drawn)
    if x > top:
        return 0.0
    # C(level, x) C(places - level, drawn - x) / C(places, drawn), as falling factorials of the level's
    # size (a few hundred milliseconds at 300,000 places, where the combinations take seconds)
    term = (math.comb(level, x) * math.perm(drawn, x) * math.perm(places - drawn, level - x)
            / math.perm(places, level))
    total = 0.0
    for k in range(x, top + 1):
        total += term
        if term <= total * 1e-18 and k > x:
            break
        term *= (level - k) * (drawn - k) / ((k + 1) * (places - level - drawn + k + 1))
    return min(1.0, total)


def top_groups(prize: np.ndarray) -> list[int]:
    """1a's top groups: the amounts from the highest down until they hold at least 50 tickets, or every
    winner."""
    amounts = sorted({int(a) for a in prize.tolist() if a > 0}, reverse=True)
    taken: list[int] = []
    held = 0
    for a in amounts:
        taken.append(a)
        held += int((prize == a).sum())
        if held >= 50:
            break
    return taken


def near_top_findings(prize: np.ndarray, per_book: int) -> list[Found]:
    """1i's tests of a printed pool with books of `per_book` tickets, in the contract's order."""
    n = len(prize)
    groups = top_groups(prize)
    if not groups:
        return []
    lowest = groups[-1]
    top = prize >= lowest
    t = int(top.sum())
    if t == int((prize > 0).sum()):
        return []  # the top groups hold every winner
    tops = dollars(lowest) if len(groups) == 1 else f"{dollars(lowest)} and up"
    book = np.arange(n) // per_book
    top_books = sorted({int(b) for b in book[top].tolist()})
    in_books = np.isin(book, top_books) & ~top
    beside = np.zeros(n, dtype=bool)
    for q in np.flatnonzero(top).tolist():
        for r in (q - 1, q + 1):
            if 0 <= r < n and book[r] == book[q] and not top[r]:
                beside[r] = True
    free = n - t
    found = []
    for a in sorted({int(v) for v in prize.tolist() if 0 < v < lowest}, reverse=True):
        level = prize == a
        c = int(level.sum())
        if c < LEVEL_MIN:
            continue
        head = f"prize level {dollars(a)} ({c:,} tickets): "
        for s, name, where in (
                (in_books, f"in the books of the top prizes ({tops})", f"in the {len(top_books):,} books "
                 "holding a top prize"),
                (beside, f"beside a top prize ({tops}) in its book", "beside a top prize")):
            size = int(s.sum())
            x = int((level & s).sum())
            e = c * size / free
            figures = (f"{x:,} of {c:,} {where} ({e:,.1f} expected; {size:,} of the {free:,} places holding "
                       "no top prize)")
            found.append(Found(head + name, METHOD, figures, upper_tail(free, c, size, x)))
    return found
