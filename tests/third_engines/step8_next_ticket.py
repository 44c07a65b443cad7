"""A third engine for step 8's 1j and 1k (a loser's layout against the next ticket's prize; a book's first
and last loser against the book's highest prize), written from docs/statistics.md sections 1j, 1k and 3
alone: it imports neither poolgen nor audit. numpy for the counting, scipy only for the chi-square tail.
A feature is a named column of codes with a mask of the rows where it holds one (section 2's features,
then 1l's, tests/third_engines/step8_spread.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import chi2

PRINT, SERIAL = "(print order)", "(serial order)"


@dataclass(frozen=True)
class Feature:
    name: str  # as 1j names it before its suffix: section 2's name less ` against win/lose`, or 1l's
    codes: np.ndarray  # int64, one per row of the pool
    holds: np.ndarray  # bool: the rows whose feature holds a code


@dataclass(frozen=True)
class Table:
    name: str
    method: str
    figures: str
    x2: float
    df: int
    p: float


def feature_name(section2: str) -> str:
    """Section 2's name less its ` against win/lose` (and a comma before it), wherever it stands."""
    assert " against win/lose" in section2, section2
    what = ", against win/lose" if ", against win/lose" in section2 else " against win/lose"
    return section2.replace(what, "", 1)


def groups(values: np.ndarray) -> tuple[np.ndarray, int, int]:
    """(each row's group, K, V): the values in code order, a group closing as soon as it holds at least
    n / 20 rows, what is left after the last closed group joining it (none closing: one group)."""
    n = len(values)
    distinct, inverse, counts = np.unique(values, return_inverse=True, return_counts=True)
    of_value = np.zeros(len(distinct), dtype=np.int64)
    group, held = 0, 0
    closed = -1
    for v, c in enumerate(counts):
        of_value[v] = group
        held += int(c)
        if 20 * held >= n:
            closed = group
            group, held = group + 1, 0
    if held and closed >= 0:  # what is left after the last closed group joins it
        of_value[of_value > closed] = closed
    k = max(closed + 1, 1)
    return of_value[inverse], k, len(distinct)


def top_coded(amounts: np.ndarray, least: int) -> np.ndarray:
    """Each row's class: from the highest amount down, an amount whose class so far holds fewer than
    `least` joins the next lower amount; then a lowest class of fewer than `least` joins the next higher.
    Classes numbered from the highest (0)."""
    distinct, inverse, counts = np.unique(amounts, return_inverse=True, return_counts=True)
    of_value = np.zeros(len(distinct), dtype=np.int64)
    cls, held, closed = 0, 0, -1
    for v in range(len(distinct) - 1, -1, -1):
        of_value[v] = cls
        held += int(counts[v])
        if held >= least:
            closed = cls
            cls, held = cls + 1, 0
    if held and closed >= 0:  # the lowest class, of fewer, joins the next higher
        of_value[of_value > closed] = closed
    return of_value[inverse]


def independence(codes: np.ndarray, against: np.ndarray) -> tuple[float, int, int, int, int, int] | None:
    """(X2, df, K, V, L, M) of the K groups of `codes` x L top-coded classes of `against` (at least M
    rows each), or None when fewer than two groups or one class."""
    n = len(codes)
    if n == 0:
        return None
    g, k, v = groups(codes)
    if k < 2:
        return None
    r = np.bincount(g, minlength=k)
    least = -(-5 * n // int(r.min()))
    c_of = top_coded(against, least)
    lcount = int(c_of.max()) + 1
    if lcount < 2:
        return None
    o = np.bincount(g * lcount + c_of, minlength=k * lcount).reshape(k, lcount).astype(np.float64)
    e = o.sum(axis=1, keepdims=True) * o.sum(axis=0, keepdims=True) / n
    x2 = float(((o - e) ** 2 / e).sum())
    return x2, (k - 1) * (lcount - 1), k, v, lcount, least


def _method(k: int, v: int, lcount: int, least: int, of: str) -> str:
    values = f"{k} groups of values" + (f" ({v} values in code order)" if k < v else "")
    return (f"chi-square test of independence, {values} x {lcount} classes of {of}, top-coded to classes "
            f"of at least {least:,} tickets")


def next_name(feature: Feature, order: str) -> str:
    return f"{feature.name}, on a losing ticket, against the next ticket's prize {order}"


def next_ticket(feature: Feature, prize: np.ndarray, order: str) -> Table | None:
    """1j: the losers with a code and a next ticket against the next ticket's prize."""
    rows = np.flatnonzero((prize[:-1] == 0) & feature.holds[:-1])
    found = independence(feature.codes[rows], prize[rows + 1])
    if found is None:
        return None
    x2, df, k, v, lcount, least = found
    return Table(next_name(feature, order),
                 _method(k, v, lcount, least, "the next ticket's amount"),
                 f"X2 = {x2:.1f}, df = {df:,}; {len(rows):,} losers with a next ticket", x2, df,
                 float(chi2.sf(x2, df)))


def book_ends(prize: np.ndarray, per_book: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, their book's highest prize): each whole book's first and last loser (one row where they are
    one ticket), book by book."""
    books = len(prize) // per_book
    rows, highest = [], []
    for b in range(books):
        part = prize[b * per_book:(b + 1) * per_book]
        losers = np.flatnonzero(part == 0)
        if len(losers) == 0:
            continue
        ends = sorted({int(losers[0]), int(losers[-1])})
        rows += [b * per_book + i for i in ends]
        highest += [int(part.max())] * len(ends)
    return np.array(rows, dtype=np.int64), np.array(highest, dtype=np.int64)


def book_highest(feature: Feature, prize: np.ndarray, per_book: int) -> Table | None:
    """1k: each book's first and last loser (those holding a code) against the book's highest prize."""
    rows, highest = book_ends(prize, per_book)
    keep = feature.holds[rows]
    rows, highest = rows[keep], highest[keep]
    found = independence(feature.codes[rows], highest)
    if found is None:
        return None
    x2, df, k, v, lcount, least = found
    name = f"{feature.name}, on the first and last loser of each book, against the book's highest prize"
    return Table(name,
                 _method(k, v, lcount, least, "the book's highest prize"),
                 f"X2 = {x2:.1f}, df = {df:,}; {len(rows):,} first and last losers of the books", x2, df,
                 float(chi2.sf(x2, df)))


def layout_features(play: Mapping[str, Any], columns: Mapping[str, np.ndarray], n: int) -> list[Feature]:
    """Section 2's chi-square features of a manifest's `play` entry (docs/statistics.md section 2's tables,
    the styles of the Kansas games), then 1j's area 0 columns of an `area_match` share."""
    every = np.ones(n, dtype=bool)
    style = play.get("style")
    if style == "prize_legend_duel":
        loss = (columns["spot_0"] == 1).astype(np.int64)
        drawn = play["first_spot_loss"]
        return [Feature(f"first reveal (spot_0) a loss (drawn {drawn} for every share)", loss, every)]
    if style == "area_match":
        out = [Feature("a0_s0 (the first spot shown)", columns["a0_s0"], every)]
        return out + [Feature(f"{c} (as shown)", columns[c], every)
                      for c in [f"a0_s{j}" for j in range(1, int(play["spots"]))] + ["a0_amount", "a0_bonus"]]
    out = []
    for area in play["areas"]:
        a = area["id"]
        if area["style"] == "match_n":
            for j in range(int(area["spots"])):
                code = columns[f"{a}_spot_{j}"]
                among = f" among tickets whose spot {j} shows an amount" if area.get("multipliers") else ""
                name = feature_name(f"{a}_spot_{j} (one scratched spot) against win/lose{among}")
                out.append(Feature(name, code, code < len(area["prizes"])))
        elif area["style"] == "key_number_match":
            if not area.get("winning_from") and int(area.get("winning", 0)) >= 1:
                wins = [columns[f"{a}_win_{i}"] for i in range(int(area["winning"]))]
                out += [Feature(f"{a}_win_{i} (a WINNING NUMBER)", w, every) for i, w in enumerate(wins)]
                out.append(Feature(f"smallest WINNING NUMBER of {a}", np.minimum.reduce(wins), every))
            if not area.get("specials"):
                out += [Feature(f"{a}_your_{i} (a YOUR NUMBER)", columns[f"{a}_your_{i}"], every)
                        for i in range(int(area["yours"]))]
            if area.get("decoy_weights"):
                out += [Feature(f"{a}_prize_{i} (a prize symbol)", columns[f"{a}_prize_{i}"], every)
                        for i in range(int(area["yours"]))]
        elif area["style"] == "bonus_reveal":  # a loser reveals no amount there: every loser holds a code
            out += [Feature(f"{a}_spot_{j} (a picture) on tickets revealing no amount there",
                            columns[f"{a}_spot_{j}"], every) for j in range(int(area["spots"]))]
    return out
