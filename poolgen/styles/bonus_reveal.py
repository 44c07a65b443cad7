"""Bonus reveal (contract: docs/styles/bonus_reveal.md): S spots, each showing a win amount (a prize
symbol, won as shown) or a decoy picture (no win). A picture never shows more than `most_alike`
times on a ticket (by default S - 1: S alike would read as a match that pays nothing)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Cell, Groups, Section, Win, prize_entry, shown_prize_win
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations

FIELDS: frozenset[str] = frozenset({"spots", "prizes", "pictures", "most_alike"})
# imaging (poolgen/deliverables/imaging.py): column suffix -> the area's symbol lists, in code order
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_spot_", ("pictures", "prizes")),)
MAX_TUPLES = 1 << 16  # the losing arrangements a layout enumerates (section 7)


@dataclass(frozen=True)
class Params:
    spots: int
    prizes: tuple[Symbol, ...]
    pictures: tuple[Symbol, ...]
    most_alike: int


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    spots = ctx.whole(table, "spots", where, 1)
    p = Params(spots=spots, prizes=ctx.group(table, "prizes", where, "prizes"),
               pictures=ctx.group(table, "pictures", where, "pictures"),
               most_alike=ctx.whole(table, "most_alike", where, 1, required=False, default=max(1, spots - 1)))
    if p.most_alike > spots:
        raise r.fail(f"{where}.most_alike", f"{p.most_alike} alike do not fit {spots} spots")
    if len(p.pictures) * p.most_alike < spots:
        raise r.fail(f"{where}.pictures", f"{len(p.pictures)} pictures, each at most {p.most_alike} times, "
                                          f"cannot fill a losing ticket's {spots} spots")
    if p.most_alike < spots and len(p.pictures) ** spots > MAX_TUPLES:
        raise r.fail(f"{where}.most_alike", f"{len(p.pictures)} pictures in {spots} spots are more than "
                                            f"{MAX_TUPLES} arrangements to draw from; use most_alike = "
                                            f"{spots}")
    if len(p.pictures) + len(p.prizes) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    return p


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    return shown_prize_win(params.prizes, how, by, code, expected="reveal",
                           said="a bonus_reveal win is \"reveal\"",
                           no_by="a revealed amount wins as shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.spots:
        return f"{len(wins)} wins do not fit {params.spots} spots"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"spots": params.spots, "prizes": prize_entry(params.prizes),
            "pictures": [s.code for s in params.pictures], "most_alike": params.most_alike}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_spot_{j}" for j in range(params.spots)]


def _arrangements(p: Params, m: int) -> np.ndarray:
    """Every ordered m-tuple of picture codes with no picture more than most_alike times, in
    lexicographic order."""
    return _arrangement_table(len(p.pictures), p.most_alike, m)


@lru_cache(maxsize=32)
def _arrangement_table(d: int, most_alike: int, m: int) -> np.ndarray:
    """`_arrangements` for d pictures (remembered, read only: every tier of every pool asks for it)."""
    grid = np.array(list(product(range(d), repeat=m)), dtype=np.int64).reshape(-1, m)
    counts = np.stack([(grid == c).sum(axis=1) for c in range(d)], axis=1) if m else np.zeros((1, d))
    table = grid[(counts <= most_alike).all(axis=1)]
    table.flags.writeable = False
    return table


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, the wins' spots, then the pictures of the other spots."""
    d = len(params.pictures)
    prize_index = {s.code: d + i for i, s in enumerate(params.prizes)}
    spots = np.zeros((n, params.spots), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        place = row_permutations(stream, k, params.spots)
        m = params.spots - len(wins)
        if m > params.most_alike:  # a repeat limit can bind: one of the allowed arrangements, uniformly
            table = _arrangements(params, m)
            rest = table[integers(stream, len(table), size=k)]
        else:
            rest = integers(stream, d, size=k * m).reshape(k, m)
        head = np.broadcast_to(np.array([prize_index[w.prize.code] for w in wins], dtype=np.int64),
                               (k, len(wins)))
        slots = np.concatenate([head, rest], axis=1)
        out = np.empty_like(slots)
        np.put_along_axis(out, place, slots, axis=1)
        spots[rows] = out
    spots8 = spots.astype(np.uint8)
    return {name: np.ascontiguousarray(spots8[:, j]) for j, name in enumerate(columns(area_id, params))}


def _symbol(p: Params, code: int) -> Symbol | None:
    if 0 <= code < len(p.pictures):
        return p.pictures[code]
    if 0 <= code - len(p.pictures) < len(p.prizes):
        return p.prizes[code - len(p.pictures)]
    return None


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The area as drawn: one section of S cells (column, symbol text, caption, None, None); a
    picture described as "Symbol of a clover" is drawn as "clover"."""
    cells: list[Cell] = []
    for name in columns(area_id, params):
        s = _symbol(params, row[name])
        cells.append((name, s.name if s else "?", s.caption if s else "", None, None))
    return [("BONUS: REVEAL A WIN AMOUNT", cells)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the columns that win."""
    lines, winning = [], set()
    for j, name in enumerate(columns(area_id, params)):
        code = row[name]
        if len(params.pictures) <= code < len(params.pictures) + len(params.prizes):
            s = params.prizes[code - len(params.pictures)]
            winning.add(name)
            lines.append(f"{area_id}, spot {j + 1}: {s.captioned} revealed: wins "
                         f"{fmt_cents(s.cents, currency)}.")
    return lines, winning


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    """Nothing to note for `poolgen check`: every promise of the contract holds for any counts."""
    return None
