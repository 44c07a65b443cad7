"""Yours beats theirs (contract: docs/styles/yours_beats_theirs.md): P pairs, each YOUR symbol against
THEIR symbol with a PRIZE; a pair whose YOUR symbol ranks above THEIRS (or ties it, where the spec says
ties win) wins its prize. Ranks are the order of the `numbers` group in the spec."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import (
    AreaReading,
    Cell,
    Groups,
    Section,
    Win,
    WinError,
    pool_prize_mix,
    prize_entry,
    shown_prize_win,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations

FIELDS: frozenset[str] = frozenset({"pairs", "numbers", "prizes", "ties", "multipliers"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_yours_", ("numbers",)), ("_theirs_", ("numbers",)),
                                                  ("_prize_", ("prizes",)), ("_mult_", ("multipliers",)))


@dataclass(frozen=True)
class Params:
    pairs: int
    numbers: tuple[Symbol, ...]  # lowest rank first
    prizes: tuple[Symbol, ...]
    ties_win: bool
    multipliers: tuple[Symbol, ...] = ()  # a multiplier spot a pair (section 9); () without the field


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    pairs = ctx.whole(table, "pairs", where, 1, high=32)
    numbers = ctx.group(table, "numbers", where, "numbers")
    ties = r.get(table, "ties", where, str)
    if ties not in ("win", "lose"):
        raise r.fail(f"{where}.ties", f"\"win\" or \"lose\", not {ties!r}")
    if len(numbers) < 2:
        raise r.fail(f"{where}.numbers", "at least 2 numbers: a pair must be able to win and to lose")
    prizes = ctx.group(table, "prizes", where, "prizes")
    if max(len(numbers), len(prizes)) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    multipliers = ctx.group(table, "multipliers", where, "multipliers", required=False) or ()
    if "multipliers" in table and len(multipliers) < 2:
        raise r.fail(f"{where}.multipliers", "at least 2 multiplier symbols (one alone tells every pair's "
                                             "multiplier before it is scratched)")
    for i, s in enumerate(multipliers):
        for x in (x for x in multipliers[:i] if x.by == s.by):
            raise r.fail(f"{where}.multipliers", f"two multiplier symbols by {s.by} ({x.code!r} and "
                                                 f"{s.code!r}): a win shows the first, so the other would "
                                                 "show on losing pairs only")
    return Params(pairs, numbers, prizes, ties == "win", multipliers)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    if params.multipliers:
        prize, _ = shown_prize_win(params.prizes, how, None, code, expected="match",
                                   said="a yours_beats_theirs win is \"match\" (a pair wins its prize)",
                                   no_by="")
        have = ", ".join(str(s.by) for s in params.multipliers)
        if by is None:
            raise WinError("by", "missing field (a pair's win pays by its multiplier spot: "
                                 f"by = one of {have})")
        if not any(s.by == by for s in params.multipliers):
            raise WinError("by", f"{by} is not the by of one of the area's multipliers ({have})")
        if prize.free:
            raise ValueError("a free ticket cannot be multiplied")
        return prize, by
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="a yours_beats_theirs win is \"match\" (a pair wins its prize)",
                           no_by="a pair wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.pairs:
        return f"{len(wins)} wins, but the area has {params.pairs} pairs (one win each)"
    return None


def entry(params: Params) -> dict[str, Any]:
    out = {"pairs": params.pairs, "numbers": [s.code for s in params.numbers],
           "prizes": prize_entry(params.prizes), "ties": "win" if params.ties_win else "lose"}
    if params.multipliers:
        out["multipliers"] = [{"code": s.code, "by": s.by} for s in params.multipliers]
    return out


def columns(area_id: str, params: Params) -> list[str]:
    parts = ("yours", "theirs", "prize") + (("mult",) if params.multipliers else ())
    return [f"{area_id}_{part}_{p}" for part in parts for p in range(params.pairs)]


def _outcomes(params: Params) -> tuple[np.ndarray, np.ndarray]:
    """Every (yours, theirs) code pair that wins, and every one that loses, in lexicographic order."""
    n = len(params.numbers)
    y, t = np.divmod(np.arange(n * n), n)
    wins = (y > t) | (params.ties_win & (y == t))
    return np.stack([y[wins], t[wins]], axis=1), np.stack([y[~wins], t[~wins]], axis=1)


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    p_ = params.pairs
    winning, losing = _outcomes(params)
    index = {s.code: i for i, s in enumerate(params.prizes)}
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    m = len(params.multipliers)
    out = np.zeros((n, 4 if m else 3, p_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        which = row_permutations(stream, k, p_)
        box = np.searchsorted(cumulative, integers(stream, int(cumulative[-1]), size=k * p_).reshape(k, p_),
                              side="right")
        pair = losing[integers(stream, len(losing), size=k * p_)].reshape(k, p_, 2)
        for i, w in enumerate(wins):
            at = (np.arange(k), which[:, i])
            pair[at] = winning[integers(stream, len(winning), size=k)]
            box[at] = index[w.prize.code]
        out[rows, 0], out[rows, 1], out[rows, 2] = pair[:, :, 0], pair[:, :, 1], box
        if m:  # step 5: uniform among the multipliers, then each win's pair the first of its k
            spot = integers(stream, m, size=k * p_).reshape(k, p_)
            for i, w in enumerate(wins):
                spot[np.arange(k), which[:, i]] = next(j for j, s in enumerate(params.multipliers)
                                                       if s.by == w.by)
            out[rows, 3] = spot
    flat = out.reshape(n, out.shape[1] * p_).astype(np.uint8)
    return {name: np.ascontiguousarray(flat[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _sym(group: tuple[Symbol, ...], code: int) -> Symbol | None:
    return group[code] if 0 <= code < len(group) else None


def _cell(column: str, s: Symbol | None, what: str) -> Cell:
    return (column, s.symbol if s else "?", f"{what}: {s.caption if s else ''}", None, None)


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """One section per pair: YOUR symbol, THEIR symbol, its PRIZE."""
    sections: list[Section] = []
    for p in range(params.pairs):
        y = _sym(params.numbers, int(row[f"{area_id}_yours_{p}"]))
        t = _sym(params.numbers, int(row[f"{area_id}_theirs_{p}"]))
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{p}"]))
        cells = [_cell(f"{area_id}_yours_{p}", y, "YOURS"), _cell(f"{area_id}_theirs_{p}", t, "THEIRS"),
                 _cell(f"{area_id}_prize_{p}", z, "PRIZE")]
        if params.multipliers:
            x = _sym(params.multipliers, int(row[f"{area_id}_mult_{p}"]))
            cells.append(_cell(f"{area_id}_mult_{p}", x, "MULTIPLIER"))
        sections.append((f"PAIR {p + 1}: YOURS BEATS THEIRS, WIN PRIZE", cells))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the cells of the winning pairs."""
    lines, winning = [], set()
    for p in range(params.pairs):
        y, t = int(row[f"{area_id}_yours_{p}"]), int(row[f"{area_id}_theirs_{p}"])
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{p}"]))
        if z is None or not (0 <= y < len(params.numbers) and 0 <= t < len(params.numbers)):
            continue
        x = _sym(params.multipliers, int(row[f"{area_id}_mult_{p}"])) if params.multipliers else None
        if params.multipliers and x is None:
            continue
        if y > t or params.ties_win and y == t:
            parts = ("yours", "theirs", "prize") + (("mult",) if x is not None else ())
            winning |= {f"{area_id}_{part}_{p}" for part in parts}
            verb = "ties" if y == t else "beats"
            times = f" x {x.by} ({x.symbol})" if x is not None else ""
            lines.append(f"{area_id}, pair {p + 1}: {params.numbers[y].symbol} {verb} "
                         f"{params.numbers[t].symbol}: wins {fmt_cents(z.cents or 0, currency)}{times}.")
    return lines, winning
