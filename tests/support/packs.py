"""The pack-parameter example (specs/examples/happy_holidays_packs.toml) cut to a smaller pool, and
with another `[packs]` table, for tests that must run in seconds; Happy Holidays cut to 100 books of
30 with a `[packs]` table (`small_packs`); the chi-square of drawn pack compositions against their
exact law; and an insider's pools that keep every pack parameter but move the capped or spaced
tickets (rows reordered only), which step 8 must refuse (docs/statistics.md 1b); and the brute-force law
of small pools under winners bounds, caps and spacing (`pack_ok`, `exact_compositions`)."""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from poolgen.run.packs import Rules
from tests.support import SPECS

EXAMPLE = SPECS / "examples" / "happy_holidays_packs.toml"


def packs_variant(folder: Path, divisor: int = 10, packs: str | None = None,
                  name: str = "happy_holidays_packs.toml") -> Path:
    """The example with every count and the order divided by `divisor` (10: one pool of 100 packs
    of 300) and, if given, `packs` (TOML lines) as its whole `[packs]` table."""
    text = EXAMPLE.read_text()
    text = text.replace("order_tickets = 300000", f"order_tickets = {300000 // divisor}")
    text = text.replace("pool_tickets = 300000", f"pool_tickets = {300000 // divisor}")
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {int(m.group(1)) // divisor}", text, flags=re.M)
    if packs is not None:
        text = re.sub(r"\[packs\]\n(.*?\n)\n", f"[packs]\n{packs}\n\n", text, flags=re.S)
    path = folder / name
    path.write_text(text)
    return path


def pooled_chisquare(seen: Counter, weights: dict) -> float:
    """Pearson's chi-square p-value of the draws `seen` (cell -> times drawn) against the law
    proportional to `weights` (cell -> weight), the rarest cells pooled to at least 5 expected."""
    draws = sum(seen.values())
    total = sum(weights.values())
    exp, obs, acc_e, acc_o = [], [], 0.0, 0
    for c in sorted(weights, key=lambda c: weights[c]):  # rarest first, pooled to 5 expected
        acc_e += draws * weights[c] / total
        acc_o += seen[c]
        if acc_e >= 5:
            exp.append(acc_e)
            obs.append(acc_o)
            acc_e, acc_o = 0.0, 0
    exp[-1] += acc_e
    obs[-1] += acc_o
    return float(stats.chisquare(obs, exp).pvalue)


# Happy Holidays cut to one pool of 3,000 tickets in books of 30 (every count about 1/600 of the
# order's): 100 packs; free 200, $1 394, $2 235, $5 41, $20 5, $100 5.
SMALL_HH = {"order_tickets = 1800000": "order_tickets = 3000", "pool_tickets = 300000": "pool_tickets = 3000",
            "last_ticket = 299": "last_ticket = 29", "count = 120000": "count = 200",
            "count = 236100": "count = 394", "count = 141000": "count = 235", "count = 24600": "count = 41",
            "count = 3000\n": "count = 5\n", "count = 2700": "count = 5"}


def small_packs(folder: Path, packs: str, name: str = "hh_small_packs.toml") -> Path:
    """specs/happy_holidays.toml cut to SMALL_HH (100 books of 30), its published figures dropped,
    with `packs` (TOML lines) as its `[packs]` table."""
    text = (SPECS / "happy_holidays.toml").read_text()
    for old, new in SMALL_HH.items():
        text = text.replace(old, new)
    text = re.sub(r"published_cost = \"[^\"]*\"\n", "", text)
    text = re.sub(r"\[published\].*?\]\n\n", "", text, flags=re.S)
    text = text.replace("[play]\n", f"[packs]\n{packs}\n\n[play]\n")
    path = folder / name
    path.write_text(text)
    return path


def _held_mask(table: pl.DataFrame, tiers: list[str]) -> np.ndarray:
    return np.asarray(table["tier"].is_in(tiers).to_numpy())


def capped_to_first_packs(table: pl.DataFrame, per_book: int, tiers: list[str],
                          besides: tuple[str, ...] = ()) -> pl.DataFrame:
    """An insider's pool: every ticket of `tiers` (a cap of one a pack) moved into the first packs
    (`capped_to_packs` in pack order), never swapped with a ticket of `besides` (a second rule's)."""
    return capped_to_packs(table, per_book, tiers, np.arange(table.height // per_book), besides)


def capped_to_rich_packs(table: pl.DataFrame, per_book: int, tiers: list[str],
                         besides: tuple[str, ...] = ()) -> pl.DataFrame:
    """An insider's pool: every ticket of `tiers` (a cap of one a pack) moved into the packs with the
    most winners (`capped_to_packs`, packs by winners, most first; never swapped with `besides`)."""
    win = table["prize_cents"].to_numpy() > 0
    per = win[: table.height // per_book * per_book].reshape(-1, per_book).sum(axis=1)
    return capped_to_packs(table, per_book, tiers, np.argsort(-per, kind="stable"), besides)


def capped_to_packs(table: pl.DataFrame, per_book: int, tiers: list[str], chosen: np.ndarray,
                    besides: tuple[str, ...] = ()) -> pl.DataFrame:
    """Every ticket of `tiers` (a cap of one a pack, C of them) moved into the first C packs of
    `chosen`, each swapped with another winner of a chosen pack that holds none (so every pack keeps
    its winners and the cap), not one of `besides` (so a second rule's counts stay): the rows
    reordered, nothing else changed."""
    held = _held_mask(table, tiers)
    win = (table["prize_cents"].to_numpy() > 0) & ~_held_mask(table, list(besides))
    books = table.height // per_book
    target = set(chosen[: int(held.sum())].tolist())
    has = held[: books * per_book].reshape(books, per_book).any(axis=1)
    free = iter(b for b in chosen.tolist() if b in target and not has[b])
    order = np.arange(table.height)
    for at in np.flatnonzero(held):
        if at // per_book in target:
            continue
        for b in free:
            rows = np.flatnonzero((win & ~held)[b * per_book:(b + 1) * per_book])
            if rows.size:
                other = b * per_book + int(rows[0])
                order[at], order[other] = other, at
                break
    return table[order]


def spaced_to_starts(table: pl.DataFrame, per_book: int, tiers: list[str], distance: int) -> pl.DataFrame:
    """An insider's pool: in every pack, the tickets of `tiers` (a spacing rule `distance` apart) put at
    the pack's places 0, d, 2d, ..., each swapped with the ticket there (every pack keeps its tickets
    and the rule): the rows reordered, nothing else changed."""
    held = _held_mask(table, tiers)
    order = np.arange(table.height)
    for b in range(table.height // per_book):
        now = set(np.flatnonzero(held[b * per_book:(b + 1) * per_book]).tolist())
        goal = {i * distance for i in range(len(now))}
        for a, c in zip(sorted(now - goal), sorted(goal - now), strict=True):
            order[b * per_book + a], order[b * per_book + c] = b * per_book + c, b * per_book + a
    return table[order]


def capped_evened(table: pl.DataFrame, per_book: int, tiers: list[str]) -> pl.DataFrame:
    """An insider's pool: the tickets of `tiers` (a cap of k > 1 a pack) spread as evenly over the
    packs as they go, each move a swap of one from the pack holding most with another winner of the
    pack holding fewest (every pack keeps its winners, and the cap): the rows reordered."""
    held = _held_mask(table, tiers)
    win = table["prize_cents"].to_numpy() > 0
    books = table.height // per_book
    order = np.arange(table.height)
    for _ in range(table.height):
        now = held[order].reshape(books, per_book).sum(axis=1)
        others = (win[order] & ~held[order]).reshape(books, per_book).sum(axis=1)
        most = int(now.argmax())
        fewest = int(np.where(others > 0, now, per_book + 1).argmin())
        if now[most] - now[fewest] <= 1:
            break
        a = most * per_book + int(np.flatnonzero(held[order][most * per_book:(most + 1) * per_book])[0])
        b = fewest * per_book + int(np.flatnonzero((win & ~held)[order][fewest * per_book:
                                                                         (fewest + 1) * per_book])[0])
        order[a], order[b] = order[b], order[a]
    return table[order]


def s1_to_starts(table: pl.DataFrame, per_book: int, first: str, spaced: str) -> pl.DataFrame:
    """An insider's pool (a cap of one on tier `first` beside a spacing rule on tier `spaced`, apart):
    in every pack, the ticket of `first` swapped with the ticket at the first of the pack's places not
    holding `spaced` (every parameter still met: `first` is not spaced): the rows reordered."""
    tier = table["tier"].to_numpy()
    order = np.arange(table.height)
    for at in np.flatnonzero(tier == first):
        start = at // per_book * per_book
        to = start + int(np.flatnonzero(tier[start:start + per_book] != spaced)[0])
        order[at], order[to] = to, at
    return table[order]


def packs_in_order(table: pl.DataFrame, per_book: int, key: np.ndarray) -> pl.DataFrame:
    """An insider's pool: whole packs moved, each keeping its tickets in their order (so every pack
    still meets every parameter), the packs sorted by `key` (one number a pack), largest first; a
    last partial pack stays last. The rows reordered, nothing else changed."""
    books = table.height // per_book
    packs = np.argsort(-np.asarray(key)[:books], kind="stable")
    order = (packs[:, None] * per_book + np.arange(per_book)).ravel()
    return table[np.concatenate([order, np.arange(books * per_book, table.height)])]


def held_packs_first(table: pl.DataFrame, per_book: int, tiers: list[str]) -> pl.DataFrame:
    """`packs_in_order`: the packs holding a ticket of `tiers` first."""
    held = _held_mask(table, tiers)
    books = table.height // per_book
    return packs_in_order(table, per_book, held[: books * per_book].reshape(books, per_book).sum(axis=1))


def richest_packs_first(table: pl.DataFrame, per_book: int) -> pl.DataFrame:
    """`packs_in_order`: the packs paying the most first."""
    prize = table["prize_cents"].to_numpy()
    books = table.height // per_book
    return packs_in_order(table, per_book, prize[: books * per_book].reshape(books, per_book).sum(axis=1))


def capped_sorted_by(table: pl.DataFrame, per_book: int, tiers: list[str], key: np.ndarray,
                     keep: tuple[str, ...] = ()) -> pl.DataFrame:
    """An insider's pool (caps alone, docs/randomness.md 5.10): the packs' counts of `tiers` (one cap's)
    kept as a multiset but dealt to the packs by `key` (one number a pack), the largest counts to the
    largest keys (among equal keys, to the packs holding most already), each move a swap of a ticket of
    `tiers` in a pack holding too many with a ticket of no rule (not of `tiers` nor `keep`; another
    winner where the pack has one, the middle one of them) in a pack holding too few; every cap still
    met: the rows reordered, nothing else changed."""
    held = _held_mask(table, tiers)
    free = ~held & ~_held_mask(table, list(keep))
    win = table["prize_cents"].to_numpy() > 0
    books = table.height // per_book
    now = held[: books * per_book].reshape(books, per_book).sum(axis=1)
    goal = np.zeros(books, dtype=np.int64)
    goal[np.lexsort((-now, -np.asarray(key)[:books]))] = np.sort(now)[::-1]  # ties: the packs holding most
    order = np.arange(table.height)
    give = [b for b in range(books) for _ in range(max(0, now[b] - goal[b]))]
    take = [b for b in range(books) for _ in range(max(0, goal[b] - now[b]))]
    for a, b in zip(give, take, strict=True):
        rows = held[order][a * per_book:(a + 1) * per_book]
        at = a * per_book + int(np.flatnonzero(rows)[0])
        there = free[order][b * per_book:(b + 1) * per_book]
        winners = np.flatnonzero(there & win[order][b * per_book:(b + 1) * per_book])
        pick = winners if winners.size else np.flatnonzero(there)
        to = b * per_book + int(pick[pick.size // 2])
        order[at], order[to] = order[to], order[at]
    return table[order]


def caps_beside(table: pl.DataFrame, per_book: int, tiers: list[str], beside: list[str],
                keep: tuple[str, ...] = (), apart: bool = False) -> pl.DataFrame:
    """`capped_sorted_by`: a cap's tickets dealt to the packs holding the most tickets of `beside` (a
    second cap's; `apart`: the fewest), the counts per pack unchanged as a multiset."""
    books = table.height // per_book
    other = _held_mask(table, beside)[: books * per_book].reshape(books, per_book).sum(axis=1)
    return capped_sorted_by(table, per_book, tiers, -other if apart else other, (*keep, *beside))


def tier_across_pairs(table: pl.DataFrame, per_book: int, tier: str, lo: int, floor: int,
                      to_poorer: bool = True, most: int = 1) -> pl.DataFrame:
    """An insider's pool (the chain's, docs/statistics.md 1b, "Each tier given the rest of its pair"):
    in each pair of packs 2j, 2j + 1, up to `most` tickets of `tier` moved from the pack paying more to
    the one paying less (`to_poorer`; else from less to more), each swapped with a loser of that pack,
    while the giving pack keeps `lo` winners and `floor` cents; caps on other tiers and every place
    untouched, so every parameter is still met: the rows reordered, nothing else changed. A "shuffle,
    then repair" generator topping up poor packs from rich ones leans the same way."""
    prize = table["prize_cents"].to_numpy()
    held = table["tier"].to_numpy() == tier
    order = np.arange(table.height)
    for j in range(table.height // per_book // 2):
        a, b = 2 * j * per_book, (2 * j + 1) * per_book
        value = [int(prize[a:a + per_book].sum()), int(prize[b:b + per_book].sum())]
        if value[0] == value[1]:
            continue
        k = int((value[1] > value[0]) == to_poorer)  # the giving pack: 0 for 2j, 1 for 2j + 1
        give, take = (a, b) if k == 0 else (b, a)
        mine = np.flatnonzero(held[give:give + per_book])
        losers = np.flatnonzero(prize[take:take + per_book] == 0)
        wins, left = int((prize[give:give + per_book] > 0).sum()), value[k]
        for x, y in list(zip(mine, losers, strict=False))[:most]:
            if wins - 1 < lo or left - int(prize[give + x]) < floor:
                break
            order[give + x], order[take + y] = take + y, give + x
            wins, left = wins - 1, left - int(prize[give + x])
    return table[order]


def pack_ok(rules: Rules, pack: tuple[int, ...]) -> bool:
    """Whether one pack (its tiers in print order) meets the winners bounds, every cap and every spacing
    rule of `rules` (no value floor: the exact draws it checks have none)."""
    if not rules.lo <= sum(1 for t in pack if t) <= rules.hi:
        return False
    if any(sum(1 for t in pack if t in tiers) > most for tiers, most in rules.caps):
        return False
    for tiers, d in rules.spacing:
        at = [i for i, t in enumerate(pack) if t in tiers]
        if any(y - x < d for x, y in itertools.pairwise(at)):
            return False
    return True


def exact_compositions(rules: Rules) -> dict[tuple[tuple[int, ...], ...], int]:
    """Composition -> number of valid sequences with it: every m-tuple of tiers checked, counted by
    its count vector; the packs' vectors combined by enumeration."""
    tiers = len(rules.counts)
    packs: defaultdict[tuple[int, ...], int] = defaultdict(int)
    for pack in itertools.product(range(tiers), repeat=rules.m):
        if pack_ok(rules, pack):
            packs[tuple(pack.count(t) for t in range(tiers))] += 1

    def walk(left: tuple[int, ...], k: int) -> Iterator[tuple[tuple[tuple[int, ...], ...], int]]:
        if k == 0:
            if not any(left):
                yield (), 1
            return
        for v, n in packs.items():
            rest = tuple(a - b for a, b in zip(left, v, strict=True))
            if min(rest) >= 0:
                for tail, ways in walk(rest, k - 1):
                    yield (v, *tail), n * ways

    return dict(walk(rules.counts, rules.books))
