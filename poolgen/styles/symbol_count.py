"""Symbol count (contract: docs/styles/symbol_count.md): S spots of pictures; the number of spots that
show the area's counted symbol wins the prize the legend lists for that number, only that one ("3 of
a symbol win the legend's prize for 3"). The other pictures are decoys, none more than `most_alike`
times on a ticket."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from typing import Any

import numpy as np

from poolgen.errors import RunError
from poolgen.game.model import Symbol
from poolgen.game.play import (
    AreaReading,
    Cell,
    Groups,
    Section,
    Win,
    WinError,
    prize_entry,
    unpaid_legend_line,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations

FIELDS: frozenset[str] = frozenset({"spots", "pictures", "symbol", "prizes", "legend", "most_alike"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_spot_", ("pictures",)),)
MIN_ACCEPT = Fraction(1, 1000)  # the decoys' rejection sampling accepts at least this share of draws
TRIES = 100_000  # rounds of rejection before `generate` gives up (RunError)


@dataclass(frozen=True)
class Params:
    spots: int
    pictures: tuple[Symbol, ...]
    symbol: int  # the counted symbol's index in `pictures`
    prizes: tuple[Symbol, ...]
    legend: tuple[tuple[int, Symbol], ...]  # (count, prize), counts increasing
    most_alike: int


def accept_share(decoys: int, spots: int, most: int) -> Fraction:
    """The share of decoy sequences of `spots` spots with no decoy more than `most` times."""
    poly = [Fraction(0)] * (spots + 1)  # (sum_{j<=most} x^j / j!)^decoys, up to x^spots
    poly[0] = Fraction(1)
    for _ in range(decoys):
        nxt = [Fraction(0)] * (spots + 1)
        for i, v in enumerate(poly):
            if v:
                for j in range(min(most, spots - i) + 1):
                    nxt[i + j] += v / factorial(j)
        poly = nxt
    return poly[spots] * factorial(spots) / Fraction(decoys) ** spots


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    spots = ctx.whole(table, "spots", where, 1, high=64)
    pictures = ctx.group(table, "pictures", where, "pictures")
    code = r.get(table, "symbol", where, str)
    symbol = next((i for i, s in enumerate(pictures) if s.code == code), None)
    if symbol is None:
        raise r.fail(f"{where}.symbol", f"{code!r} is not one of the area's pictures")
    prizes = ctx.group(table, "prizes", where, "prizes")
    raw = r.get(table, "legend", where, list)
    if not raw:
        raise r.fail(f"{where}.legend", "list the prize of each number of symbols")
    legend: list[tuple[int, Symbol]] = []
    for i, item in enumerate(raw):
        at = f"{where}.legend[{i}]"
        if not isinstance(item, dict):
            raise r.fail(at, "must be a table { count, prize }")
        for key in item:
            if key not in ("count", "prize"):
                raise r.fail(f"{at}.{key}", "unknown field")
        count = ctx.whole(item, "count", at, 1, high=spots)
        prize = next((s for s in prizes if s.code == r.get(item, "prize", at, str)), None)
        if prize is None:
            raise r.fail(f"{at}.prize", "not one of the area's prize symbols")
        if legend and count <= legend[-1][0]:
            raise r.fail(f"{at}.count", "the legend lists counts in increasing order")
        if any(p.code == prize.code for _, p in legend):
            raise r.fail(f"{at}.prize", f"prize {prize.code!r} is already the legend's for another count")
        legend.append((count, prize))
    first = legend[0][0]
    most = ctx.whole(table, "most_alike", where, 1, required=False, default=max(1, first - 1))
    decoys = len(pictures) - 1
    if decoys * most < spots:
        raise r.fail(f"{where}.pictures", f"{decoys} decoy pictures, each at most {most} times, cannot fill "
                                          f"a ticket's {spots} spots")
    if accept_share(decoys, spots, most) < MIN_ACCEPT:
        raise r.fail(f"{where}.most_alike", f"fewer than 1 in {int(1 / MIN_ACCEPT):,} draws of {decoys} "
                                            f"decoys in {spots} spots keep each at most {most} times")
    if len(pictures) > 255:
        raise r.fail(where, "more than 255 pictures do not fit a uint8 code")
    return Params(spots, pictures, symbol, prizes, tuple(legend), most)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    prize = next((s for _, s in params.legend if s.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not one the legend lists")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a symbol_count win is \"match\" (the legend's prize for its "
                              "count)")
    if by is not None:
        raise WinError("by", "the legend's prize wins as listed: no `by`")
    return prize, 1


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    return "a ticket wins one legend prize (only the highest)" if len(wins) > 1 else None


def entry(params: Params) -> dict[str, Any]:
    return {"spots": params.spots, "pictures": [s.code for s in params.pictures],
            "symbol": params.pictures[params.symbol].code, "prizes": prize_entry(params.prizes),
            "legend": [{"count": n, "prize": s.code} for n, s in params.legend],
            "most_alike": params.most_alike}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_spot_{j}" for j in range(params.spots)]


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, the count, the places of the symbol, then the decoys."""
    decoys = np.array([i for i in range(len(params.pictures)) if i != params.symbol], dtype=np.int64)
    spots = np.zeros((n, params.spots), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        if wins:
            count = np.full(k, next(c for c, s in params.legend if s.code == wins[0].prize.code))
        else:
            count = integers(stream, params.legend[0][0], size=k)
        place = row_permutations(stream, k, params.spots)
        is_symbol = np.zeros((k, params.spots), dtype=bool)
        np.put_along_axis(is_symbol, place, np.arange(params.spots)[None, :] < count[:, None], axis=1)
        shown = np.zeros((k, params.spots), dtype=np.int64)
        todo = np.arange(k)
        for _ in range(TRIES):
            if not todo.size:
                break
            draw = decoys[integers(stream, decoys.size, size=todo.size * params.spots)]
            draw = draw.reshape(-1, params.spots)
            counted = np.where(is_symbol[todo], -1, draw)
            most = np.stack([(counted == d).sum(axis=1) for d in decoys.tolist()], axis=1).max(axis=1)
            good = most <= params.most_alike
            shown[todo[good]] = counted[good]
            todo = todo[~good]
        if todo.size:
            raise RunError(f"area {area_id!r}: decoys not laid out in {TRIES:,} rounds")
        spots[rows] = np.where(is_symbol, params.symbol, shown)
    spots8 = spots.astype(np.uint8)
    return {name: np.ascontiguousarray(spots8[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _text(s: Symbol | None) -> str:
    return s.name if s else "?"


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The spots, then the printed legend (cells of no column: count x symbol, and its prize)."""
    cells: list[Cell] = []
    for name in columns(area_id, params):
        code = int(row[name])
        s = params.pictures[code] if 0 <= code < len(params.pictures) else None
        cells.append((name, _text(s), s.caption if s else "", None, None))
    key = params.pictures[params.symbol]
    legend: list[Cell] = [("", f"{c} x {_text(key)}", "", p.symbol, p.caption) for c, p in params.legend]
    return [(f"REVEAL {_text(key).upper()} SYMBOLS", cells), ("PRIZE LEGEND", legend)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the spots that win."""
    names = columns(area_id, params)
    hits = [n for n in names if int(row[n]) == params.symbol]
    prize = next((p for c, p in params.legend if c == len(hits)), None)
    if prize is None:
        return [], set()
    key = _text(params.pictures[params.symbol])
    return [f"{area_id}: {len(hits)} x {key}: the legend's prize for {len(hits)}, "
            f"{fmt_cents(prize.cents or 0, currency)}."], set(hits)


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first legend line no tier's win lists, and why (contract, section 2)."""
    return unpaid_legend_line(params.legend, wins)
