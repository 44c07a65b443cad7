"""Match N (contract: docs/styles/match_n.md): S spots of prize symbols; N like amounts win that
amount; N-1 like amounts and a multiplier symbol win k times it. At most one win per area."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from poolgen.money import fmt_cents
from poolgen.rng import row_permutations
from poolgen.styles import prize_entry

FIELDS = {"spots", "match", "prizes", "multipliers"}


@dataclass(frozen=True)
class Params:
    spots: int
    match: int
    prizes: tuple
    multipliers: tuple


def read_area(ctx, table: dict, where: str) -> Params:
    r = ctx.r
    p = Params(spots=ctx.whole(table, "spots", where, 1), match=ctx.whole(table, "match", where, 2),
               prizes=ctx.group(table, "prizes", where, "prizes"),
               multipliers=ctx.group(table, "multipliers", where, "multipliers", required=False) or ())
    if p.match > p.spots:
        raise r.fail(f"{where}.match", f"{p.match} like amounts do not fit {p.spots} spots")
    if len(p.prizes) * (p.match - 1) < p.spots:
        raise r.fail(f"{where}.prizes", f"{len(p.prizes)} prize symbols, each at most {p.match - 1} times, "
                                        f"cannot fill a losing ticket's {p.spots} spots")
    if len(p.prizes) + len(p.multipliers) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    if len({s.by for s in p.multipliers}) != len(p.multipliers):
        raise r.fail(f"{where}.multipliers", "two multiplier symbols multiply by the same k")
    return p


def read_win(p: Params, how: str, by: int | None, code: str):
    prize = next((s for s in p.prizes if s.code == code), None)
    if prize is None:
        raise ValueError(f"prize {code!r} is not one of its prize symbols")
    if how == "match":
        if by is not None:
            raise ValueError("a match wins the amount itself: no `by`")
        return prize, 1
    if how == "multiplier":
        if not any(s.by == by for s in p.multipliers):
            have = ", ".join(str(s.by) for s in p.multipliers) or "none"
            raise ValueError(f"no multiplier symbol with by = {by} (it has: {have})")
        if prize.free:
            raise ValueError("a free ticket cannot be multiplied")
        return prize, by
    raise ValueError(f"how = {how!r}: a match_n win is \"match\" or \"multiplier\"")


def _room(p: Params, how: str) -> tuple[int, int]:
    """(times each other amount may show, spots left to fill) beside a win won `how`."""
    if how == "match":
        return p.match - 1, p.spots - p.match
    return p.match - 2, p.spots - p.match


def check_wins(p: Params, wins) -> str | None:
    if len(wins) > 1:
        return f"{len(wins)} wins: this generator lays out one win per match_n area"
    times, left = _room(p, wins[0].how)
    if (len(p.prizes) - 1) * times < left:
        return (f"the other {len(p.prizes) - 1} amounts, each at most {times} times, cannot fill the "
                f"{left} other spots without a second win")
    return None


def entry(p: Params) -> dict:
    return {"spots": p.spots, "match": p.match, "prizes": prize_entry(p.prizes),
            "multipliers": [{"code": s.code, "by": s.by} for s in p.multipliers]}


def columns(area_id: str, p: Params) -> list[str]:
    return [f"{area_id}_spot_{j}" for j in range(p.spots)]


def lay_out(area_id: str, p: Params, groups, n: int, stream, done=None) -> dict[str, np.ndarray]:
    """Contract section 7: the win's spots, then cards from a shuffled deck, then arranged."""
    n_prizes = len(p.prizes)
    codes = np.arange(n_prizes)
    spots = np.zeros((n, p.spots), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        if wins:
            w = wins[0]
            c = next(i for i, s in enumerate(p.prizes) if s.code == w.prize.code)
            times, _ = _room(p, w.how)
            if w.how == "match":
                head = [c] * p.match
            else:
                m = next(i for i, s in enumerate(p.multipliers) if s.by == w.by)
                head = [c] * (p.match - 1) + [n_prizes + m]
            deck = np.repeat(np.delete(codes, c), times)
        else:
            head, deck = [], np.repeat(codes, p.match - 1)
        fill = p.spots - len(head)
        cards = deck[row_permutations(stream, k, deck.size)[:, :fill]]
        multiset = np.concatenate([np.broadcast_to(np.array(head, dtype=np.int64), (k, len(head))),
                                   cards], axis=1)
        arrange = row_permutations(stream, k, p.spots)
        spots[rows] = np.take_along_axis(multiset, arrange, axis=1)
    spots8 = spots.astype(np.uint8)
    return {name: np.ascontiguousarray(spots8[:, j]) for j, name in enumerate(columns(area_id, p))}


def _symbol(p: Params, code: int):
    if 0 <= code < len(p.prizes):
        return p.prizes[code]
    if 0 <= code - len(p.prizes) < len(p.multipliers):
        return p.multipliers[code - len(p.prizes)]
    return None


def face(area_id: str, p: Params, row: dict) -> list[tuple[str, list[tuple]]]:
    """The area as drawn: one section of S cells (column, symbol text, caption, None, None)."""
    cells = []
    for name in columns(area_id, p):
        s = _symbol(p, row[name])
        cells.append((name, s.symbol if s else "?", s.caption if s else "", None, None))
    return [(f"MATCH {p.match} LIKE AMOUNTS", cells)]


def explain(area_id: str, p: Params, row: dict) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the columns that win."""
    names = columns(area_id, p)
    codes = [row[n] for n in names]
    shown = [m for m in range(len(p.multipliers)) if len(p.prizes) + m in codes]
    lines, winning = [], set()
    for i, s in enumerate(p.prizes):
        spots = [j for j, c in enumerate(codes) if c == i]
        if len(spots) == p.match:
            by, why = 1, f"{p.match} x {s.symbol}"
        elif len(spots) == p.match - 1 and len(shown) == 1:
            m = p.multipliers[shown[0]]
            by, why = m.by, f"{p.match - 1} x {s.symbol} and {m.symbol} ({m.caption})"
            spots.append(codes.index(len(p.prizes) + shown[0]))
        else:
            continue
        winning |= {names[j] for j in spots}
        lines.append(f"{area_id}: {why} in spots {', '.join(str(j + 1) for j in sorted(spots))}: wins "
                     f"{fmt_cents(by * s.cents)}.")
    return lines, winning
