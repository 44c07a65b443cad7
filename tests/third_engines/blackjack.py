"""A third engine for `blackjack` areas, from docs/styles/blackjack.md, docs/styles/play.md and
docs/randomness.md alone: every row's wins and the reasons an illegal row is refused, worded as the
contract states them, and what an illegal row still pays (section 5); every printed ticket of a run's
imaging files evaluated from the codes it prints, against the prize its pool row states; the law of
section 7 worked out exactly (every display of a tier's rows, with its probability); and section 7's
layout drawn again from the seed (split.py's stream), to be compared with the pool byte for byte.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it)."""

from __future__ import annotations

import bisect
import itertools
import json
from fractions import Fraction
from pathlib import Path

import polars as pl

from tests.third_engines.printed import verdicts
from tests.third_engines.split import Stream

Win = tuple[str, str, int, str]  # (area, how, by, prize code)


def _inside(value: int | None, size: int) -> bool:
    return value is not None and 0 <= value < size


def columns(area: dict) -> list[str]:
    """Section 4's columns, in its order: the DEALER'S TOTAL, the cards, the PRIZES."""
    aid, h, k = area["id"], area["hands"], area["hand_cards"]
    return ([f"{aid}_dealer_0"] + [f"{aid}_card_{i}" for i in range(k * h)]
            + [f"{aid}_prize_{j}" for j in range(h)])


def beats(total: int, dealer: int) -> bool:
    """Section 5: a HAND wins when its total is 21 or less and above the DEALER'S TOTAL's points."""
    return total <= 21 and total > dealer


def blackjack_row(area: dict, named: dict[str, int | None]) -> tuple[list[Win], list[str]]:
    """One blackjack area of one row (section 5): rule 1, then each HAND against the DEALER'S TOTAL; a
    HAND with a card out of range, or every HAND when the DEALER'S TOTAL is, does not win; a PRIZE out of
    range reads as the nearest prize in range."""
    aid, h, k = area["id"], area["hands"], area["hand_cards"]
    points, dealer_points, prizes = area["points"], area["dealer_points"], area["prizes"]
    sizes = {c: (len(area["dealer_totals"]) if "_dealer_" in c else len(prizes) if "_prize_" in c
                 else len(points)) for c in named}
    bad = [c for c in columns(area) if not _inside(named[c], sizes[c])]
    reasons = [f"{aid}: a code out of range in {', '.join(bad)}"] if bad else []
    d = named[f"{aid}_dealer_0"]
    wins: list[Win] = []
    if not _inside(d, len(dealer_points)):
        return wins, reasons
    for hand in range(h):
        cards = [named[f"{aid}_card_{i}"] for i in range(k * hand, k * hand + k)]
        if not all(_inside(c, len(points)) for c in cards):
            continue
        if beats(sum(points[c] for c in cards if c is not None), dealer_points[d]):
            p = named[f"{aid}_prize_{hand}"]
            at = 0 if p is None or p < 0 else min(p, len(prizes) - 1)
            wins.append((aid, "match", 1, prizes[at]["code"]))
    return wins, reasons


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize (reasons "" when it is legal)."""
    parts = [(a, table.select(columns(a)).rows()) for a in play["areas"]]

    def row(i: int) -> tuple[list[Win], list[str]]:
        wins: list[Win] = []
        reasons: list[str] = []
        for area, rows in parts:
            w, r = blackjack_row(area, dict(zip(columns(area), rows[i], strict=True)))
            wins += w
            reasons += r
        return wins, reasons

    return verdicts(play, table, (row(i) for i in range(table.height)))


def from_files(run: Path) -> list[str]:
    """Every printed ticket of the run's imaging files (the codes it prints, section 4's columns) read
    as a player reads it: each HAND's total from its cards' `points`, the DEALER'S TOTAL's
    `dealer_points` (BUST 0), each winning HAND's PRIZE; the sum against the `prize_cents` its pool row
    (same book and ticket number) states. Returns the disagreements, one a line (none: the run agrees)."""
    manifest = json.loads((run / "manifest.json").read_text())
    areas = manifest["play"]["areas"]
    out = []
    for pool in manifest["pools"]:
        table = pl.read_parquet(run / f"pool-{pool['id']}.parquet")
        printed = pl.read_parquet(run / f"imaging-{pool['id']}.parquet")
        stated = {(b, t): (c, tk) for b, t, c, tk in table.select("book", "ticket_no", "prize_cents",
                                                                   "ticket").rows()}
        if printed.height != table.height:
            out.append(f"{pool['id']}: {printed.height} printed tickets, the pool holds {table.height}")
        for r in printed.iter_rows(named=True):
            paid = 0
            for a in areas:
                aid, k = a["id"], a["hand_cards"]
                points = dict(zip(a["numbers"], a["points"], strict=True))
                dealer = dict(zip(a["dealer_totals"], a["dealer_points"], strict=True))[r[f"{aid}_dealer_0"]]
                cents = {p["code"]: p["cents"] for p in a["prizes"]}
                for hand in range(a["hands"]):
                    total = sum(points[r[f"{aid}_card_{i}"]] for i in range(k * hand, k * hand + k))
                    if beats(total, dealer):
                        paid += cents[r[f"{aid}_prize_{hand}"]]
            cents_stated, ticket = stated[(r["book"], r["ticket_no"])]
            if paid != cents_stated:
                out.append(f"{pool['id']}: ticket {ticket} shows {paid} cents, the pool pays {cents_stated}")
    return out


def tuples(area: dict, dealer: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Section 7: the k-tuples of `numbers` codes that win against DEALER'S TOTAL `dealer` (an index),
    and those that lose, each in lexicographic order of the codes (spot kh first)."""
    d = area["dealer_points"][dealer]
    every = list(itertools.product(range(len(area["numbers"])), repeat=area["hand_cards"]))
    won = [t for t in every if beats(sum(area["points"][c] for c in t), d)]
    return won, [t for t in every if not beats(sum(area["points"][c] for c in t), d)]


def law(area: dict, w: int) -> dict[tuple[int, tuple[tuple[int, ...], ...]], Fraction]:
    """Section 7's law for a row of a tier of w wins in the area: (DEALER'S TOTAL, every HAND's cards) ->
    its probability, summed over the sets S of w HANDS (each equally likely): the DEALER'S TOTAL d with
    weight W(d)^w L(d)^(H-w), then each HAND uniformly among the tuples winning (in S) or losing against d.
    Worked out by listing every display, not from the formula's closed form."""
    h = area["hands"]
    lists = [tuples(area, d) for d in range(len(area["dealer_points"]))]
    weights = [len(won) ** w * len(lost) ** (h - w) for won, lost in lists]
    total = sum(weights)
    sets = list(itertools.combinations(range(h), w))
    out: dict[tuple[int, tuple[tuple[int, ...], ...]], Fraction] = {}
    for d, (won, lost) in enumerate(lists):
        if not weights[d]:
            continue
        each = Fraction(weights[d], total) / weights[d] / len(sets)
        for s in sets:
            for hands in itertools.product(*[won if j in s else lost for j in range(h)]):
                key = (d, tuple(hands))
                out[key] = out.get(key, Fraction(0)) + each
    return out


def _bounded(stream: Stream, bounds: list[int]) -> list[int]:
    """randomness.md section 3's integers, one bound a slot (step 4's "one `integers` call" over bounds
    that differ by HAND): each slot one word masked by its own bound's mask, rejected slots refilled in
    slot order from the next words, round after round."""
    masks = [(1 << max(n - 1, 0).bit_length()) - 1 for n in bounds]
    out = [0] * len(bounds)
    todo = list(range(len(bounds)))
    while todo:
        again = []
        for slot, word in zip(todo, stream.words(len(todo)), strict=True):
            if word & masks[slot] < bounds[slot]:
                out[slot] = word & masks[slot]
            else:
                again.append(slot)
        todo = again
    return out


def _tier(stream: Stream, area: dict, wins: list[str], weights: list[int], rows: list[int],
          cols: dict[str, list[int]], perm_for_losers: bool) -> None:
    """Section 7, steps 1 to 5, for the rows of one tier paying `wins` (prize codes) in the area."""
    aid, h, k = area["id"], area["hands"], area["hand_cards"]
    w, codes = len(wins), [p["code"] for p in area["prizes"]]
    drawn_perms = w or perm_for_losers
    perms = stream.row_permutations(len(rows), h) if drawn_perms else [list(range(h))] * len(rows)
    cum = list(itertools.accumulate(weights))
    drawn = stream.integers(cum[-1], len(rows) * h)
    lists = [tuples(area, d) for d in range(len(area["dealer_points"]))]
    dealers = stream.choices([len(a) ** w * len(b) ** (h - w) for a, b in lists], len(rows))
    winners = [set(perm[:w]) for perm in perms]
    bounds = [len(lists[d][0 if hand in won else 1]) for d, won in zip(dealers, winners, strict=True)
              for hand in range(h)]
    picks = _bounded(stream, bounds)
    for r, q in enumerate(rows):
        d = dealers[r]
        cols[f"{aid}_dealer_0"][q] = d
        for hand in range(h):
            cols[f"{aid}_prize_{hand}"][q] = bisect.bisect_right(cum, drawn[r * h + hand])
            cards = lists[d][0 if hand in winners[r] else 1][picks[r * h + hand]]
            for j, c in enumerate(cards):
                cols[f"{aid}_card_{k * hand + j}"][q] = c
        for i in range(w):
            cols[f"{aid}_prize_{perms[r][i]}"][q] = codes.index(wins[i])


def lay_out(seed: bytes, rules: str, pool: str, area: dict, tiers: list[tuple[str, int, list[str]]],
            per_pack: int, perm_for_losers: bool = True) -> tuple[list[str], dict[str, list[int]]]:
    """A pool of one blackjack area drawn again from its seed: `tiers` (id, count, the prize codes of its
    wins in the area, in the tier's order) in pool order, the losers first (randomness.md section 4);
    every tier's rows by section 7; then the neighbour rule (randomness.md 5.1), packs of `per_pack`.
    Returns every position's tier and the area's columns. `perm_for_losers`: whether step 1 draws
    `row_permutations(H)` for a tier of no wins in the area too."""
    base = [t for t, count, _ in tiers for _ in range(count)]
    order = Stream(seed, ("poolgen/v1", rules, pool, "order")).permutation(len(base))
    at = [base[order[q]] for q in range(len(base))]
    stream = Stream(seed, ("poolgen/v1", rules, pool, "layout"))
    cols = {c: [0] * len(base) for c in columns(area)}
    codes = [p["code"] for p in area["prizes"]]
    weights = [sum(count * wins.count(c) for _, count, wins in tiers) for c in codes]
    weights = weights if sum(weights) else [1] * len(codes)
    again = list(range(len(base)))
    while again:
        for tier, _, wins in tiers:
            rows = [q for q in again if at[q] == tier]
            if rows:
                _tier(stream, area, wins, weights, rows, cols, perm_for_losers)
        again = [q for run in _runs(at, per_pack) if any(
            all(v[q] == v[q + 1] for v in cols.values()) for q in run[:-1]) for q in run]
    return at, cols


def _runs(at: list[str], per_pack: int) -> list[list[int]]:
    """The maximal runs of positions of one tier inside one pack, in position order."""
    out: list[list[int]] = []
    for q, tier in enumerate(at):
        if q and q % per_pack and at[q - 1] == tier:
            out[-1].append(q)
        else:
            out.append([q])
    return out
