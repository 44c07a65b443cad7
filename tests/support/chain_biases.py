"""An insider's reorderings of a chain pool (docs/randomness.md 5.3; step 8's tests under the chain,
docs/statistics.md 1b): rows only reordered, every pack still meeting every parameter of the bench's
`floor` and `chain` cases (bench/stats_packs.py), so steps 1 to 7 would pass after re-signing. Each moves
money where an insider would want it in a way a statistical test can look for: prize value evened over
the packs, the better prizes kept from poor packs, whole pairs of packs evened out (a rich pack beside a
poor one), the better prizes kept from the first and last tickets of every pack (the winners' places
unchanged), the spaced tickets at the start of their packs."""

from __future__ import annotations

import numpy as np
import polars as pl


def _spaced_ok(tier: np.ndarray, at: int, per_book: int, spaced: frozenset[str], d: int,
               ignore: int = -1) -> bool:
    """Whether a ticket of a spaced tier at row `at` keeps every other spaced ticket of its pack at
    least `d` away (row `ignore`, the one it is swapped with, left out)."""
    start = at - at % per_book
    near = range(max(start, at - d + 1), min(start + per_book, at + d))
    return not any(q not in (at, ignore) and tier[q] in spaced for q in near)


def value_evened(table: pl.DataFrame, per_book: int, movable: list[str], floor: int,
                 rounds: int = 3000) -> pl.DataFrame:
    """The packs' prize value evened out: up to `rounds` times, the best-paying winner of `movable`
    (tiers no cap nor spacing rule holds) in the pack whose `movable` winners pay most swapped with the
    lowest-paying winner of `movable` in the pack whose pay least, while that narrows their gap and the
    richer keeps `floor` cents in all (both winners: every pack keeps its winners; the poorer gains)."""
    prize = table["prize_cents"].to_numpy()
    tier = table["tier"].to_numpy()
    books = table.height // per_book
    order = np.arange(table.height)
    done = np.zeros(books, dtype=bool)  # packs that can give no more
    for _ in range(rounds):
        p = prize[order][: books * per_book]
        ok = (np.isin(tier[order], movable)[: books * per_book] & (p > 0)).reshape(books, per_book)
        value = np.where(ok, p.reshape(books, per_book), 0).sum(axis=1)
        whole = p.reshape(books, per_book).sum(axis=1)
        held = ok.any(axis=1)
        if (done | ~held).all():
            break
        rich = int(np.where(done | ~held, -1, value).argmax())
        poor = int(np.where(held, value, np.iinfo(np.int64).max).argmin())
        r = rich * per_book + np.flatnonzero(ok[rich])
        q = poor * per_book + np.flatnonzero(ok[poor])
        a, b = int(r[np.argmax(p[r])]), int(q[np.argmin(p[q])])
        gain = int(p[a] - p[b])
        if gain <= 0 or gain >= value[rich] - value[poor] or whole[rich] - gain < floor:
            done[rich] = True
            continue
        order[a], order[b] = order[b], order[a]
    return table[order]


def kept_from_poor(table: pl.DataFrame, per_book: int, tiers: list[str], movable: list[str], floor: int,
                   spaced: frozenset[str] = frozenset(), d: int = 1) -> pl.DataFrame:
    """The better prizes (`tiers`, no cap's) kept from poor packs: each ticket of `tiers` in a pack of the
    poorer half (by its value outside `tiers`) swapped with a lower-paying winner of `movable` in the
    richest pack of the other half that can take it (the giving pack keeps its winners and `floor` cents;
    a ticket of `spaced` only where it stays `d` from its pack's other spaced tickets)."""
    prize = table["prize_cents"].to_numpy()
    tier = table["tier"].to_numpy()
    books = table.height // per_book
    mine = np.isin(tier, tiers)
    rest = np.where(mine, 0, prize)[: books * per_book].reshape(books, per_book).sum(axis=1)
    rank = np.argsort(-rest, kind="stable")
    rich, poor = rank[: books // 2], set(rank[books // 2:].tolist())
    order = np.arange(table.height)
    value = prize[: books * per_book].reshape(books, per_book).sum(axis=1)
    for at in np.flatnonzero(mine[: books * per_book]):
        give = at // per_book
        if give not in poor:
            continue
        for take in rich.tolist():
            cur_t, span = tier[order], slice(take * per_book, (take + 1) * per_book)
            rows = take * per_book + np.flatnonzero(np.isin(cur_t[span], movable) & (prize[order][span] > 0))
            rows = [int(x) for x in rows if prize[order][x] < prize[order][at]]
            delta = int(prize[order][at]) - (int(prize[order][rows[0]]) if rows else 0)
            if not rows or value[give] - delta < floor:
                continue
            to = rows[0]
            if cur_t[at] in spaced and not _spaced_ok(cur_t, to, per_book, spaced, d):
                continue
            order[at], order[to] = order[to], order[at]
            value[give] -= delta
            value[take] += delta
            break
    return table[order]


def pairs_evened(table: pl.DataFrame, per_book: int) -> pl.DataFrame:
    """Whole pairs of packs evened out: the packs (each keeping its tickets in order) ranked by value,
    the k-th richest put beside the k-th poorest as packs 2j, 2j + 1 (which first alternating), the pairs
    in the order of their richer pack's place in the pool."""
    prize = table["prize_cents"].to_numpy()
    books = table.height // per_book
    value = prize[: books * per_book].reshape(books, per_book).sum(axis=1)
    rank = np.argsort(-value, kind="stable")
    pairs = [(int(rank[k]), int(rank[books - 1 - k])) for k in range(books // 2)]
    pairs.sort(key=lambda p: p[0])
    packs = [x for j, (r, p) in enumerate(pairs) for x in ((r, p) if j % 2 == 0 else (p, r))]
    packs += [int(b) for b in range(books) if b not in set(packs)]
    order = (np.asarray(packs)[:, None] * per_book + np.arange(per_book)).ravel()
    return table[np.concatenate([order, np.arange(books * per_book, table.height)])]


def kept_from_ends(table: pl.DataFrame, per_book: int, tiers: list[str], movable: list[str]) -> pl.DataFrame:
    """The better prizes kept from the first and last tickets of every pack: a ticket of `tiers` at a
    pack's place 0 or m - 1 swapped with a winner of `movable` paying less in the middle of the same pack
    (the nearest the middle): the pack keeps its composition and its winners' places."""
    prize = table["prize_cents"].to_numpy()
    tier = table["tier"].to_numpy()
    order = np.arange(table.height)
    books = table.height // per_book
    middle = np.argsort(np.abs(np.arange(per_book) - (per_book - 1) / 2), kind="stable")
    for b in range(books):
        base = b * per_book
        for end in (0, per_book - 1):
            at = base + end
            if tier[order[at]] not in tiers:
                continue
            for k in middle.tolist():
                to = base + k
                if k in (0, per_book - 1) or tier[order[to]] not in movable:
                    continue
                if 0 < prize[order[to]] < prize[order[at]]:
                    order[at], order[to] = order[to], order[at]
                    break
    return table[order]
