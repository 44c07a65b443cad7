"""A third engine for step 8's 1l (tells 1j did not read), written from docs/statistics.md section 1l alone
(with 1j's tables, tests/third_engines/step8_next_ticket.py): a match_n area's counts of each prize symbol
and of the symbols shown twice or more, a key_number_match area's near misses, every area of an area_match
share, and a prize_legend_duel's reveals with their two tests on runs of losers. It imports neither poolgen
nor audit; `play` is a manifest's `play` entry (a dict) and `columns` a pool's columns by name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from scipy.stats import chi2

from tests.third_engines.step8_next_ticket import (
    PRINT,
    SERIAL,
    Feature,
    Table,
    _method,
    book_highest,
    groups,
    independence,
    layout_features,
    next_name,
    next_ticket,
)


def spread_features(play: Mapping[str, Any], columns: Mapping[str, np.ndarray]) -> list[Feature]:
    """The counts over a match_n area's spots and a key_number_match area's near misses, in the entry's
    area order (every row holds a code)."""
    out: list[Feature] = []
    areas = {a["id"]: a for a in play.get("areas", [])}
    for area in play.get("areas", []):
        a = area["id"]
        if area["style"] == "match_n":
            prizes = [str(p["code"]) for p in area["prizes"]]
            spots = np.stack([columns[f"{a}_spot_{j}"] for j in range(int(area["spots"]))], axis=1)
            counts = [(spots == i).sum(axis=1).astype(np.int64) for i in range(len(prizes))]
            for code, c in zip(prizes, counts, strict=True):
                out.append(Feature(f"{a}: the spots showing {code} (counted)", c, np.ones(len(c), bool)))
            pairs = (np.stack(counts, axis=1) >= 2).sum(axis=1).astype(np.int64)
            out.append(Feature(f"{a}: the prize symbols shown twice or more (counted)", pairs,
                               np.ones(len(pairs), bool)))
        elif (area["style"] == "key_number_match" and not area.get("specials")
              and int(area.get("yours", 0)) >= 1):
            source = areas[area["winning_from"]] if area.get("winning_from") else area
            if int(source.get("winning", 0)) < 1:
                continue
            src = source["id"]
            wins = np.stack([columns[f"{src}_win_{i}"] for i in range(int(source["winning"]))], axis=1)
            near = np.zeros(len(wins), dtype=np.int64)
            for i in range(int(area["yours"])):
                yours = columns[f"{a}_your_{i}"].astype(np.int64)
                near += (np.abs(yours[:, None] - wins.astype(np.int64)) == 1).any(axis=1)
            out.append(Feature(f"{a}: the YOUR NUMBERS one off a WINNING NUMBER (counted)", near,
                               np.ones(len(near), bool)))
    return out


def later_areas(play: Mapping[str, Any], listed: list[str],
                columns: Mapping[str, np.ndarray]) -> list[Feature]:
    """An area_match share's areas 1 .. (those whose `a{i}_s0` the entry's columns list, at most 16):
    each spot, the amount and the bonus, named `COLUMN (as shown)`."""
    out = []
    for i in range(1, 16):
        if f"a{i}_s0" not in listed:
            break
        for c in [f"a{i}_s{j}" for j in range(int(play["spots"]))] + [f"a{i}_amount", f"a{i}_bonus"]:
            codes = columns[c].astype(np.int64)
            out.append(Feature(f"{c} (as shown)", codes, np.ones(len(codes), bool)))
    return out


def duel_features(spots: int, columns: Mapping[str, np.ndarray]) -> list[Feature]:
    """Each reveal's code, the reveal showing a multiplier (1 + the least j showing 4; 0 if none), the
    reveals played (not 0)."""
    s = np.stack([columns[f"spot_{j}"].astype(np.int64) for j in range(spots)], axis=1)
    every = np.ones(len(s), bool)
    out = [Feature(f"spot_{j} (a reveal's outcome code)", s[:, j], every) for j in range(spots)]
    mult = s == 4
    first = np.where(mult.any(axis=1), mult.argmax(axis=1) + 1, 0).astype(np.int64)
    out.append(Feature("the reveal showing a multiplier (its spot + 1, 0 if none)", first, every))
    out.append(Feature("the reveals played", (s != 0).sum(axis=1).astype(np.int64), every))
    return out


def loser_runs(prize: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(first, last) rows of each maximal run of two or more losers with a winner just before and after."""
    lose = prize == 0
    firsts, lasts = [], []
    i, n = 0, len(prize)
    while i < n:
        if not lose[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and lose[j + 1]:
            j += 1
        if i > 0 and j + 1 < n and j > i:
            firsts.append(i)
            lasts.append(j)
        i = j + 1
    return np.array(firsts, dtype=np.int64), np.array(lasts, dtype=np.int64)


def reversal(feature: Feature, prize: np.ndarray) -> Table | None:
    """Stuart-Maxwell's test of the runs' last losers' groups against their first losers'."""
    first, last = loser_runs(prize)
    m = len(first)
    if m == 0:
        return None
    g, k, _ = groups(np.concatenate([feature.codes[first], feature.codes[last]]))
    a, b = g[:m], g[m:]
    d = np.bincount(b, minlength=k) - np.bincount(a, minlength=k)
    s = np.zeros((k, k))
    for x, y in zip(a, b, strict=True):
        if x != y:
            e = np.zeros(k)
            e[y], e[x] = 1.0, -1.0
            s += np.outer(e, e)
    df = int(np.linalg.matrix_rank(s))
    if df == 0:
        return None
    x2 = float(d @ np.linalg.pinv(s) @ d)
    r = int((a != b).sum())
    return Table(f"{feature.name}, the last loser before a winner against the first after one "
                 "(runs of losers, serial order)",
                 f"Stuart-Maxwell test of marginal homogeneity, {k} groups of values, the last loser's "
                 "against the first's",
                 f"X2 = {x2:.1f}, df = {df:,}; {m:,} runs of losers between winners, {r:,} with their ends "
                 "in two groups", x2, df, float(chi2.sf(x2, df)))


def before_winner(feature: Feature, prize: np.ndarray) -> Table | None:
    """1j's table of the losers whose next share wins against that winner's prize."""
    rows = np.flatnonzero((prize[:-1] == 0) & (prize[1:] > 0))
    found = independence(feature.codes[rows], prize[rows + 1])
    if found is None:
        return None
    x2, df, k, v, lcount, least = found
    return Table(f"{feature.name}, on the last loser before a winner, against that winner's prize {SERIAL}",
                 _method(k, v, lcount, least, "the next winner's amount"),
                 f"X2 = {x2:.1f}, df = {df:,}; {len(rows):,} losers before a winner", x2, df,
                 float(chi2.sf(x2, df)))


def tables(play: Mapping[str, Any], columns: Mapping[str, np.ndarray], per_book: int | None,
           listed: list[str], not_made: list[str] | None = None) -> list[Table]:
    """Every table of 1j, 1k and 1l a pool makes (`per_book` None: an eInstant; `listed` the columns its
    manifest entry lists), in the sections' order; the names of 1j's tables not made (listed as not tested:
    1k's and the duel's runs are not) appended to `not_made`."""
    prize = columns["prize_cents"]
    n = len(prize)
    found = layout_features(play, columns, n)
    spread = spread_features(play, columns)
    later = later_areas(play, listed, columns) if play.get("style") == "area_match" else []
    order = PRINT if per_book else SERIAL
    made = [next_ticket(f, prize, order) for f in found + spread]  # 1l's counts after 1j's, then 1k's
    if per_book:
        made += [book_highest(f, prize, per_book) for f in found + spread]
    made += [next_ticket(f, prize, order) for f in later]
    if play.get("style") == "prize_legend_duel":
        for f in duel_features(int(play["spots"]), columns):
            made += [reversal(f, prize), before_winner(f, prize)]
    tables = [t for t in made if t is not None]
    if not_made is not None:
        names = {t.name for t in tables}
        not_made += [next_name(f, order) for f in found + spread + later if next_name(f, order) not in names]
    return tables
