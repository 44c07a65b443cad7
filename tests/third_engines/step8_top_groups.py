"""A third engine for step 8's tests of the top groups: 1a (the run's top tiers, pools combined), 1c
(the top prizes by printed book and ticket number) and 1e (the top prizes gathered where a confederate
collects them), written from docs/statistics.md alone: it imports neither poolgen nor audit. Exact
integers (fractions) for every exact law; scipy only for 1e's chi-square tail."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy.stats import chi2

from tests.third_engines.step8_per_pool import TOP_TICKETS, amounts_label, dollars


@dataclass(frozen=True)
class Found:
    name: str
    figures: str
    p: float


def top_amounts(prize: np.ndarray) -> list[int]:
    """The pool's amounts, highest first, until they hold at least 50 tickets (or every winner)."""
    amounts, counts = np.unique(prize[prize > 0], return_counts=True)
    out, held = [], 0
    for a, c in sorted(zip(amounts.tolist(), counts.tolist(), strict=True), reverse=True):
        out.append(a)
        held += c
        if held >= TOP_TICKETS:
            break
    return out


def ratio(num: int, den: int) -> float:
    return float(Fraction(num, den))


def hyper_sf(x: int, total: int, good: int, drawn: int) -> float:
    """P(X >= x), X hypergeometric, exact."""
    num = sum(math.comb(good, j) * math.comb(total - good, drawn - j) for j in range(x, min(good, drawn) + 1))
    return ratio(num, math.comb(total, drawn))


def one_digit(digits: np.ndarray, pool_digits: np.ndarray) -> tuple[float, int, int, int]:
    """min(1, 10 min_d P(X_d >= x_d)) over the digits held; (p, that digit, x_d, n_d), the lowest digit
    on a tie."""
    total, drawn = len(pool_digits), len(digits)
    x = np.bincount(digits, minlength=10)
    n = np.bincount(pool_digits, minlength=10)
    best = min((hyper_sf(int(x[d]), total, int(n[d]), drawn), d) for d in range(10) if x[d] > 0)
    return min(1.0, 10 * best[0]), best[1], int(x[best[1]]), int(n[best[1]])


def fewest_p(t: int, k: int, classes: int, per_class: int) -> tuple[float, float]:
    """1c's chain: (P(K <= k), E K), K the classes that t positions drawn uniformly without replacement
    from classes x per_class take: before draw r, with j taken, a new class with probability
    (N - j per_class) / (N - r)."""
    n = classes * per_class
    dist = np.zeros(t + 1)
    dist[1] = 1.0
    j = np.arange(t + 1)
    for r in range(1, t):
        new = np.clip((n - j * per_class) / (n - r), 0.0, 1.0)
        moved = dist * new
        dist = dist - moved
        dist[1:] += moved[:-1]
    return float(dist[: k + 1].sum()), float((j * dist).sum())


def gaps_p(places: list[int], n: int) -> tuple[float, int, int, float]:
    """1e's law of the gaps: (p, c, g, E)."""
    t = len(places)
    g = max(1, n // (10 * t))
    xs = sorted(places)
    c = sum(1 for a, b in zip(xs, xs[1:], strict=False) if b - a <= g)
    m = t - 1 - c
    whole = math.comb(n, t)
    num = whole + sum((-1) ** (r + m) * math.comb(r - 1, m) * math.comb(t - 1, r)
                      * math.comb(max(0, n - r * g), t) for r in range(m + 1, t))
    e = (t - 1) * (1 - Fraction(math.comb(n - g, t), whole))
    return ratio(num, whole), c, g, float(e)


def within(groups: list[tuple[str, int, np.ndarray]], rooms: list[int]) -> float:
    """prod_p C(room_p, t_p) / C(N_p, t_p), exact."""
    return float(math.prod(Fraction(math.comb(r, len(w)), math.comb(n, len(w)))
                           for (_, n, w), r in zip(groups, rooms, strict=True)))


def percent(x: Fraction) -> float:
    """100 x as the double nearest it (then printed to two decimals)."""
    return 100 * x.numerator / x.denominator


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}{'s' if count != 1 else ''}"


def run_level(pools: list[tuple[str, np.ndarray]], per_book: int | None) -> list[Found]:
    """1a over the run's pools (id, prize column in print order)."""
    tops = [top_amounts(prize) for _, prize in pools]
    out: list[Found] = []
    for k in range(1, max(len(t) for t in tops) + 1):
        groups = [(pid, len(prize), np.flatnonzero(np.isin(prize, top[:k])))
                  for (pid, prize), top in zip(pools, tops, strict=True)]
        amounts = sorted({a for top in tops for a in top[:k]}, reverse=True)
        stem = (f"top prize of each pool ({amounts_label(amounts)})" if k == 1
                else f"top {k} prize amounts of each pool ({amounts_label(amounts)})")
        t_all = sum(len(w) for _, _, w in groups)
        head = f"{plural(t_all, 'ticket')} over {plural(len(pools), 'pool')}"
        # the extreme's pool: the first in the run's order among those at it
        u, upid = min(((Fraction(int(w.min()), n), pid) for pid, n, w in groups), key=lambda x: x[0])
        pu = within(groups, [n - math.ceil(u * n) for _, n, _ in groups])
        out.append(Found(f"{stem}: smallest position in its pool, pools combined",
                         f"{head}; earliest at {percent(u):.2f}% of pool {upid}", pu))
        v, vpid = max(((Fraction(int(w.max()) + 1, n), pid) for pid, n, w in groups), key=lambda x: x[0])
        pv = within(groups, [math.floor(v * n) for _, n, _ in groups])
        out.append(Found(f"{stem}: largest position in its pool, pools combined",
                         f"{head}; latest at {percent(v):.2f}% of pool {vpid}", pv))
        if per_book:
            b = per_book
            x = min(int((w % b).min()) for _, _, w in groups)
            y = max(int((w % b).max()) for _, _, w in groups)
            # the positions whose ticket number (position mod B) is at least x, at most y: a short last
            # book holds its first n mod B numbers
            px = within(groups, [int((np.arange(n) % b >= x).sum()) for _, n, _ in groups])
            py = within(groups, [int((np.arange(n) % b <= y).sum()) for _, n, _ in groups])
            out.append(Found(f"{stem}: smallest ticket number within its book, pools combined",
                             f"{head}; smallest ticket number {x} of 0..{b - 1}", px))
            out.append(Found(f"{stem}: largest ticket number within its book, pools combined",
                             f"{head}; largest ticket number {y} of 0..{b - 1}", py))
            same = same_book(stem, [(n, w) for _, n, w in groups], b)
            if same is not None:
                out.append(same)
    return out


def at_least(q: list[Fraction], x: int) -> Fraction:
    """P(a sum of independent Bernoulli(q_i) >= x), exactly: the Poisson binomial's recursion."""
    law = [Fraction(1)]
    for qi in q:
        law = [(law[j] if j < len(law) else 0) * (1 - qi) + (law[j - 1] * qi if j else 0)
               for j in range(len(law) + 1)]
    return sum(law[x:], Fraction(0))


def same_book(stem: str, groups: list[tuple[int, np.ndarray]], m: int) -> Found | None:
    """1a's *The same book in every pool*: over the pools holding the group (two or more, each of whole
    books of m tickets), c_s the pools whose book s of print order holds it, x = max c_s, and
    p = min(1, sum over s of P(C_s >= x)), C_s Poisson binomial of K_p / B_p over the pools with B_p > s."""
    held = [(n, w) for n, w in groups if len(w)]
    if len(held) < 2 or any(n % m for n, _ in held):
        return None
    books = [(n // m, {int(b) for b in np.unique(w // m)}) for n, w in held]
    reach = max(b for b, _ in books)
    c = [sum(s in which for _, which in books) for s in range(reach)]
    x = max(c)
    s_star = c.index(x)
    tails: dict[tuple[Fraction, ...], Fraction] = {}  # the same pools reach every book of a stretch
    p = Fraction(0)
    for s in range(reach):
        q = tuple(Fraction(len(which), b) for b, which in books if b > s)
        if q not in tails:
            tails[q] = at_least(list(q), x)
        p += tails[q]
    return Found(f"{stem}: the same book of print order in the most pools, pools combined",
                 f"{len(held)} pools hold it; book {s_star + 1:,} of print order holds it in {x} of them",
                 float(min(Fraction(1), p)))


def ranks(book: np.ndarray, per_book: int) -> tuple[np.ndarray, np.ndarray]:
    """Each book's printed number (its first row's) and its rank among the pool's, print order."""
    numbers = book[::per_book].astype(np.int64)
    rank = np.empty(len(numbers), dtype=np.int64)
    rank[np.argsort(numbers, kind="stable")] = np.arange(len(numbers))
    return numbers, rank


def fewest_found(name: str, t: int, k: int, classes: int, per_class: int, unit: str) -> Found:
    p, e = fewest_p(t, k, classes, per_class)
    return Found(name, f"{t:,} tickets in {k:,} {unit} ({e:,.1f} expected of the pool's {classes:,})", p)


def digit_found(name: str, digits: np.ndarray, pool_digits: np.ndarray, unit: str) -> Found:
    p, d, x, nd = one_digit(digits, pool_digits)
    return Found(name, f"{x:,} of {len(digits):,} end in {d} ({nd:,} of the pool's {len(pool_digits):,} "
                 f"{unit} do)", p)


def gaps_found(name: str, places: list[int], n: int, unit: str) -> Found:
    p, c, g, e = gaps_p(places, n)
    return Found(name, f"{c:,} of the {len(places) - 1:,} gaps between consecutive {unit} at most {g:,} "
                 f"apart ({e:,.1f} expected)", p)


def printed_number_findings(prize: np.ndarray, per_book: int, book: np.ndarray) -> list[Found]:
    """1c for one printed pool."""
    n, b = len(prize), per_book
    books = n // b
    numbers, rank = ranks(book, b)
    ticket_no = np.arange(n) % b
    top = top_amounts(prize)
    out: list[Found] = []
    for j in range(1, len(top) + 1):
        label = amounts_label(top[:j])
        where = np.flatnonzero(np.isin(prize, top[:j]))
        t = len(where)
        held = np.unique(where // b)
        k = len(held)
        r = rank[held]
        stem = f"books of the top prizes ({label}; {k:,} of {books:,} books) by printed book number"
        lo, hi = int(r.min()), int(r.max())
        of = f"of the pool's {books:,} book numbers"
        out.append(Found(f"{stem}: smallest", f"smallest of {k:,} is book {int(numbers[held[np.argmin(r)]])} "
                         f"(rank {lo:,} {of})", ratio(math.comb(books - lo, k), math.comb(books, k))))
        out.append(Found(f"{stem}: largest", f"largest of {k:,} is book {int(numbers[held[np.argmax(r)]])} "
                         f"(rank {hi:,} {of})", ratio(math.comb(hi + 1, k), math.comb(books, k))))
        out.append(digit_found(f"{stem}: one last digit", numbers[held] % 10, numbers % 10, "books"))
        tstem = f"top prizes ({label}; {t:,} tickets)"
        out.append(digit_found(f"{tstem} by ticket number within the book: one last digit",
                               ticket_no[where] % 10, ticket_no % 10, "tickets"))
        if b >= 3:
            ends = 2 * n // b
            x = int(np.isin(ticket_no[where], [0, b - 1]).sum())
            out.append(Found(f"{tstem} by ticket number within the book: first or last ticket",
                             f"{x:,} of {t:,} are a book's first or last ticket ({ends:,} of the pool's "
                             f"{n:,} tickets are)", hyper_sf(x, n, ends, t)))
        if t >= 2 and b >= 2:
            out.append(fewest_found(f"{tstem}: in fewest books", t, k, books, b, "books"))
    for a in sorted({int(v) for v in prize[prize > 0].tolist()} - set(top)):  # lowest first
        where = np.flatnonzero(prize == a)
        t = len(where)
        if 20 <= t <= books and b >= 2:
            out.append(fewest_found(f"prize level {dollars(a)} ({t:,} tickets): in fewest books", t,
                                    len(np.unique(where // b)), books, b, "books"))
    return out


def gathered_findings(prize: np.ndarray, per_book: int | None, book: np.ndarray | None) -> list[Found]:
    """1e for one pool without pack parameters (printed: per_book and book; eInstant: None)."""
    n = len(prize)
    top = top_amounts(prize)
    out: list[Found] = []
    for j in range(1, len(top) + 1):
        label = amounts_label(top[:j])
        where = np.flatnonzero(np.isin(prize, top[:j]))
        t = len(where)
        stem = f"top prizes ({label}; {t:,} tickets)"
        if 2 <= t <= 500:
            order, unit = ("print order", "tickets") if per_book else ("serial order", "shares")
            out.append(gaps_found(f"{stem}: close together in {order}", where.tolist(), n, unit))
        if per_book and book is not None:
            b = per_book
            books = n // b
            _, rank = ranks(book, b)
            held = rank[np.unique(where // b)]
            if 2 <= len(held) <= 500:
                name = (f"books of the top prizes ({label}; {len(held):,} of {books:,} books) by printed "
                        "book number: close together")
                out.append(gaps_found(name, held.tolist(), books, "book numbers"))
            ticket_no = where % b
            if 2 <= t <= b and books >= 2:  # a ticket number of one book is one place: K = t
                out.append(fewest_found(f"{stem} by ticket number within the book: in fewest ticket numbers",
                                        t, len(np.unique(ticket_no)), b, books, "ticket numbers"))
            elif t > b and t >= 250:
                x = np.bincount(ticket_no, minlength=b)
                e = t / b
                x2 = float(((x - e) ** 2 / e).sum())
                out.append(Found(f"{stem} by ticket number within the book: per ticket number",
                                 f"X2 = {x2:.2f}, df = {b - 1}; at most {int(x.max())} on one ticket number "
                                 f"({e:.2f} expected)", float(chi2.sf(x2, b - 1))))
        else:
            if n % 1000 == 0 and n >= 2000 and 2 <= t <= 1000:
                out.append(fewest_found(f"{stem} by serial mod 1,000: in fewest residues", t,
                                        len(np.unique(where % 1000)), 1000, n // 1000, "residues"))
            serial = np.arange(1, n + 1)
            out.append(digit_found(f"{stem} by serial: one last digit", (where + 1) % 10, serial % 10,
                                   "shares"))
    return out
