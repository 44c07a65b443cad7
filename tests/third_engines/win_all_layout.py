"""The layouts of a key_number_match game drawn again from its seed and spec alone, as
docs/styles/key_number_match.md sections 7 and 7.1 and docs/randomness.md sections 2 to 4 state them:
the pool order from the pool's "order" stream, then every tier's rows from its "layout" stream (with
`distinct_numbers`, as section 8.1 states), area after area; a win-all tier that pins its prizes
(`shows`) puts them in a uniform order, drawing no multiset (section 7.1). For a game of
key_number_match areas without `decoy_weights` (section 8.2), and a pool in which the neighbour rule
(randomness.md 5.1) drew nothing again.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it)."""

from __future__ import annotations

import tomllib
from math import factorial
from pathlib import Path

from tests.third_engines import win_all
from tests.third_engines.split import Stream


def lay_out(seed: bytes, spec: Path, pool: str = "p1") -> tuple[list[str], dict[str, list[int]]]:
    """The pool's tier of every position and its layout columns."""
    doc = tomllib.loads(spec.read_text())
    assert not any("decoy_weights" in a for a in doc["areas"])
    game = win_all.read_spec(spec)
    tickets = game.pool_tickets
    counts = win_all.pool_counts(game, tickets)
    tiers = ["lose", *counts]  # the pool's tiers: the losers first, then the spec's, in its order
    sizes = {"lose": tickets - sum(counts.values()), **counts}
    base = [t for t in tiers for _ in range(sizes[t])]
    order = Stream(seed, ("poolgen/v1", game.rules, pool, "order")).permutation(tickets)
    at = [base[order[p]] for p in range(tickets)]
    stream = Stream(seed, ("poolgen/v1", game.rules, pool, "layout"))
    columns: dict[str, list[int]] = {}
    for a in game.areas:
        columns |= {f"{a.id}_win_{i}": [0] * tickets for i in range(a.winning) if a.source == a.id}
        columns |= {f"{a.id}_{k}_{j}": [0] * tickets for k in ("your", "prize") for j in range(a.yours)}
    listed = {t["id"]: t["wins"] for t in doc["tiers"]}
    rows = {t: [p for p in range(tickets) if at[p] == t] for t in tiers}
    for area in game.areas:  # every tier of an area before the next area
        for tier in tiers:
            wins = [w for w in listed.get(tier, []) if w["area"] == area.id]
            _lay_out_area(stream, area, wins, rows[tier], columns)
    return at, columns


def _lay_out_area(stream: Stream, area: win_all.Area, wins: list[dict], rows: list[int],
                  columns: dict[str, list[int]]) -> None:
    """One area's columns of one tier's rows (sections 7, 7.1 and 8.1)."""
    r, big_w, y, n, big_p = len(rows), area.winning, area.yours, area.numbers, len(area.prizes)
    own = area.source == area.id
    if own:
        numbers = stream.row_permutations(r, n)
    else:  # the source's WINNING NUMBERS, then the others in increasing code order
        shown = [[columns[f"{area.source}_win_{k}"][p] for k in range(big_w)] for p in rows]
        others = [[v for v in range(n) if v not in w] for w in shown]
        if area.distinct:  # those others in random order
            others = [[o[m] for m in mix] for o, mix in zip(others, stream.row_permutations(r, n - big_w),
                                                           strict=True)]
        numbers = [w + o for w, o in zip(shown, others, strict=True)]
    if area.distinct:  # section 8.1
        prizes = stream.integers(big_p, r * y)
        spots = stream.row_permutations(r, y)
        fresh = stream.row_permutations(r, big_w)
    else:
        spots = stream.row_permutations(r, y)
        losing = stream.integers(n - big_w, r * y)  # every spot's, read by those that win nothing
        prizes = stream.integers(big_p, r * y)
        matched = [stream.integers(big_w, r) for w in wins if w["how"] == "match"]  # one a match win
    whole = next((w for w in wins if w["how"] == "all"), None)
    total = None if whole is None else win_all.cents(whole["prize"])
    if whole is not None and "shows" in whole:  # section 7.1's pinned multiset: no choice drawn
        pinned = tuple(whole["shows"].get(c, 0) for c, _ in area.prizes)
        sets, pick = [(pinned, 1)], [0] * r
        shuffle = stream.row_permutations(r, y)
    elif total is not None:  # section 7.1
        sets = sorted(win_all.sequences(area, total).items())
        pick = stream.choices([factorial(y) // _product(c) for c, _ in sets], r)
        shuffle = stream.row_permutations(r, y)
    prize_code = {c: q for q, (c, _) in enumerate(area.prizes)}
    for i, p in enumerate(rows):
        win, rest = numbers[i][:big_w], numbers[i][big_w:]
        prize = [prizes[i * y + j] for j in range(y)]
        if area.distinct:  # the j-th spot without a win, in the spots' order, the j-th losing number
            your = [0] * y
            for place, spot in enumerate(spots[i][len(wins):]):
                your[spot] = rest[place]
        else:
            your = [rest[losing[i * y + j]] for j in range(y)]
        m = 0
        for j, w in enumerate(wins):
            spot = spots[i][j]
            if w["how"] == "match":
                your[spot] = win[fresh[i][m % big_w]] if area.distinct else win[matched[m][i]]
                prize[spot] = prize_code[w["prize"]]
                m += 1
                continue
            by = w.get("by", 1)
            your[spot] = n + next(s for s, (_, how, k) in enumerate(area.specials)
                                  if how == w["how"] and (how != "multiplier" or k == by))
            if w["how"] != "all":
                prize[spot] = prize_code[w["prize"]]
        if total is not None:
            codes = [q for q, c in enumerate(sets[pick[i]][0]) for _ in range(c)]
            prize = [codes[shuffle[i][j]] for j in range(y)]
        for k, v in enumerate(win if own else []):
            columns[f"{area.id}_win_{k}"][p] = v
        for j in range(y):
            columns[f"{area.id}_your_{j}"][p] = your[j]
            columns[f"{area.id}_prize_{j}"][p] = prize[j]


def _product(counts: tuple[int, ...]) -> int:
    out = 1
    for c in counts:
        out *= factorial(c)
    return out
