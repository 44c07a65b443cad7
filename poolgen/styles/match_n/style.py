"""Match N (contract: docs/styles/match_n.md): S spots of prize symbols; N like amounts win that
amount; N-1 like amounts and a multiplier symbol win k times it. An area may win more than once (on
different amounts) where a tier says so; the spots that do not win are decoys (`decoys`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Cell, Groups, Section, Win, WinError, prize_entry
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, row_permutations
from poolgen.styles.match_n import decoys

FIELDS: frozenset[str] = frozenset({"spots", "match", "prizes", "multipliers"})
# The imaging file's symbols (poolgen/deliverables/imaging.py): column suffix -> the area's symbol
# lists whose concatenation a stored code indexes (section 4).
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_spot_", ("prizes", "multipliers")),)


@dataclass(frozen=True)
class Params:
    spots: int
    match: int
    prizes: tuple[Symbol, ...]
    multipliers: tuple[Symbol, ...]


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
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


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    prize = next((s for s in params.prizes if s.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not one of its prize symbols")
    if how == "match":
        if by is not None:
            raise WinError("by", "a match wins the amount itself: no `by`")
        return prize, 1
    if how == "multiplier":
        if by is None or not any(s.by == by for s in params.multipliers):
            have = ", ".join(str(s.by) for s in params.multipliers) or "none"
            raise WinError("by", f"no multiplier symbol with by = {by} (it has: {have})")
        if prize.free:
            raise ValueError("a free ticket cannot be multiplied")
        return prize, by
    raise WinError("how", f"how = {how!r}: a match_n win is \"match\" or \"multiplier\"")


def _plan(p: Params, wins: tuple[Win, ...]) -> tuple[list[int], list[int], int]:
    """(head, others, times): the spots a tier's wins show (each match N of its amount; each multiplied
    win N - 1 of it, then the one multiplier symbol), the amounts not won, and how often each of those
    may show (N - 1, or N - 2 beside a multiplier symbol)."""
    index = {s.code: i for i, s in enumerate(p.prizes)}
    head: list[int] = []
    won: set[int] = set()
    mult: int | None = None
    for w in wins:
        c = index[w.prize.code]
        won.add(c)
        if w.how == "match":
            head += [c] * p.match
        else:
            head += [c] * (p.match - 1)
            mult = next(i for i, s in enumerate(p.multipliers) if s.by == w.by)
    if mult is not None:
        head.append(len(p.prizes) + mult)
    others = [c for c in range(len(p.prizes)) if c not in won]
    return head, others, p.match - (1 if mult is None else 2)


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    codes = [w.prize.code for w in wins]
    if len(set(codes)) < len(codes):
        return "two wins of one amount: an amount shows N like amounts once"
    if len({w.by for w in wins if w.how == "multiplier"}) > 1:
        return "multiplied wins of different k: a ticket shows one multiplier symbol"
    head, others, times = _plan(params, wins)
    if len(head) > params.spots:
        return f"{len(wins)} wins need {len(head)} spots, the area has {params.spots}"
    left = params.spots - len(head)
    if len(others) * times < left:
        more = "a second win" if len(wins) == 1 else "another win"
        return (f"the other {len(others)} amounts, each at most {times} times, cannot fill the "
                f"{left} other spots without {more}")
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"spots": params.spots, "match": params.match, "prizes": prize_entry(params.prizes),
            "multipliers": [{"code": s.code, "by": s.by} for s in params.multipliers]}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_spot_{j}" for j in range(params.spots)]


def expected(p: Params, wins: tuple[Win, ...]) -> tuple[list[Fraction], int]:
    """A winning ticket's expected count of every amount, and its multiplier symbols (section 7)."""
    head, others, _ = _plan(p, wins)
    counts = [Fraction(head.count(c)) for c in range(len(p.prizes))]
    for c in others:
        counts[c] += Fraction(p.spots - len(head), len(others))
    return counts, len(head) - sum(1 for c in head if c < len(p.prizes))


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    """For `check`: why section 8's promise does not hold for these (tickets, wins) per tier."""
    winners = [(n, *expected(params, wins)) for n, wins in counts if wins and n]
    m, capped = decoys.targets(len(params.prizes), params.spots, params.match - 1, winners)
    if not capped:
        return None
    return (f"winners show some amount more than {params.match - 1} times in {params.spots} spots on "
            "average: losers cannot match them, so one spot's amount is not independent of winning "
            "(docs/styles/match_n.md section 8)")


def decoy_plan(p: Params, groups: Groups, mix: Sequence[int]) -> tuple[list[tuple[int, np.ndarray]], bool]:
    """The layers of a ticket without a win in the area (poolgen/styles/match_n/decoys.py), from the
    pool's tickets with wins in it (`mix`: each tier's count in the pool); and whether m had to be
    capped."""
    winners = [(count, *expected(p, wins)) for count, (_, wins) in zip(mix, groups, strict=True)
               if wins and count]
    m, capped = decoys.targets(len(p.prizes), p.spots, p.match - 1, winners)
    return decoys.layers(m, p.spots, p.match - 1), capped


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, vectorised over its rows, in pool order: a ticket with wins here
    shows their spots and cards of a shuffled deck; any other the layers; then the spots arranged."""
    plan, _ = decoy_plan(params, groups, mix)
    spots = np.zeros((n, params.spots), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        if wins:
            head, others, times = _plan(params, wins)
            deck = np.repeat(np.array(others, dtype=np.int64), times)
            cards = deck[row_permutations(stream, k, deck.size)[:, :params.spots - len(head)]]
            multiset = np.concatenate([np.broadcast_to(np.array(head, dtype=np.int64), (k, len(head))),
                                       cards], axis=1)
        else:
            multiset = decoys.no_win(stream, k, plan)
        arrange = row_permutations(stream, k, params.spots)
        spots[rows] = np.take_along_axis(multiset, arrange, axis=1)
    spots8 = spots.astype(np.uint8)
    return {name: np.ascontiguousarray(spots8[:, j]) for j, name in enumerate(columns(area_id, params))}


def _symbol(p: Params, code: int) -> Symbol | None:
    if 0 <= code < len(p.prizes):
        return p.prizes[code]
    if 0 <= code - len(p.prizes) < len(p.multipliers):
        return p.multipliers[code - len(p.prizes)]
    return None


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The area as drawn: one section of S cells (column, symbol text, caption, None, None)."""
    cells: list[Cell] = []
    for name in columns(area_id, params):
        s = _symbol(params, row[name])
        cells.append((name, s.symbol if s else "?", s.caption if s else "", None, None))
    return [(f"MATCH {params.match} LIKE AMOUNTS", cells)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the columns that win."""
    names = columns(area_id, params)
    codes = [row[n] for n in names]
    shown = [m for m in range(len(params.multipliers)) if len(params.prizes) + m in codes]
    lines, winning = [], set()
    for i, s in enumerate(params.prizes):
        spots = [j for j, c in enumerate(codes) if c == i]
        if len(spots) == params.match:
            by, why = 1, f"{params.match} x {s.symbol}"
        elif len(spots) == params.match - 1 and len(shown) == 1:
            m = params.multipliers[shown[0]]
            by, why = m.by, f"{params.match - 1} x {s.symbol} and {m.captioned}"
            spots.append(codes.index(len(params.prizes) + shown[0]))
        else:
            continue
        winning |= {names[j] for j in spots}
        lines.append(f"{area_id}: {why} in spots {', '.join(str(j + 1) for j in sorted(spots))}: wins "
                     f"{fmt_cents(by * (s.cents or 0), currency)}.")  # a prize symbol has cents (`Win.cents`)
    return lines, winning


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first multiplier symbol no tier's win uses, and why (poolgen/loader/printed.py refuses it: a
    multiplier the game prints that never pays; contract, section 2)."""
    for s in params.multipliers:
        if not any(w.how == "multiplier" and w.by == s.by for w in wins):
            return "multipliers", f"no tier wins with its multiplier {s.code!r} (the game would print a " \
                              "multiplier that never pays)"
    return None
