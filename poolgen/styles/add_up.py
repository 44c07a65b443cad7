"""Add up (contract: docs/styles/add_up.md): G games, each of S numbers and a PRIZE; a game whose
numbers add up to the TARGET or more (or exactly to it, or to one of several targets, "7 or 11",
where the spec says so) wins its PRIZE."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import (
    AreaReading,
    Cell,
    Groups,
    Section,
    Win,
    pool_prize_mix,
    prize_entry,
    shown_prize_win,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations

FIELDS: frozenset[str] = frozenset({"games", "spots", "numbers", "target", "reach", "prizes"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_spot_", ("numbers",)), ("_prize_", ("prizes",)))
MAX_TUPLES = 1 << 16  # a game's tuples of numbers are enumerated (section 7)


@dataclass(frozen=True)
class Params:
    games: int
    spots: int
    numbers: tuple[Symbol, ...]  # each code a whole number: its value
    targets: tuple[int, ...]  # one target, or (reach "exactly") several: "adds up to 7 or 11"
    exactly: bool
    prizes: tuple[Symbol, ...]
    listed: bool = False  # the spec wrote `target` as a list (the manifest says it as written)


@cache
def outcomes(values: tuple[int, ...], spots: int, targets: tuple[int, ...],
             exactly: bool) -> tuple[np.ndarray, np.ndarray]:
    """Every S-tuple of number codes that wins, and every one that loses, in lexicographic order."""
    grid = np.array(list(product(range(len(values)), repeat=spots)), dtype=np.int64).reshape(-1, spots)
    total = np.array(values, dtype=np.int64)[grid].sum(axis=1)
    wins = np.isin(total, targets) if exactly else total >= targets[0]
    return grid[wins], grid[~wins]


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    games = ctx.whole(table, "games", where, 1, high=32)
    spots = ctx.whole(table, "spots", where, 1, high=16)
    numbers = ctx.group(table, "numbers", where, "numbers")
    if not all(s.code.isdigit() and len(s.code) <= 6 for s in numbers):
        raise r.fail(f"{where}.numbers", "each number's code is its value, a whole number 0..999999")
    reach = r.get(table, "reach", where, str)
    if reach not in ("at_least", "exactly"):
        raise r.fail(f"{where}.reach", f"\"at_least\" or \"exactly\", not {reach!r}")
    targets, listed = _targets(ctx, table, where, reach)
    prizes = ctx.group(table, "prizes", where, "prizes")
    if len(numbers) ** spots > MAX_TUPLES:
        raise r.fail(f"{where}.spots", f"{len(numbers)} numbers in {spots} spots are more than "
                                       f"{MAX_TUPLES:,} tuples to draw from")
    p = Params(games, spots, numbers, targets, reach == "exactly", prizes, listed)
    winning, losing = outcomes(tuple(int(s.code) for s in numbers), spots, targets, p.exactly)
    if not len(winning) or not len(losing):
        verb = "reach" if not len(winning) else "miss"
        raise r.fail(f"{where}.target", f"a game of {spots} numbers must be able to {verb} {_said(p)}")
    for t in targets if listed else ():
        if not len(outcomes(tuple(int(s.code) for s in numbers), spots, (t,), True)[0]):
            raise r.fail(f"{where}.target", f"a game of {spots} numbers cannot add up to {t}")
    if max(len(numbers), len(prizes)) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    return p


def _targets(ctx: AreaReading, table: Mapping[str, Any], where: str,
             reach: str) -> tuple[tuple[int, ...], bool]:
    """`target`: a whole number >= 0, or (with reach "exactly") a list of 2 to 16 distinct ones."""
    raw = table.get("target")
    if not isinstance(raw, list):
        return (ctx.whole(table, "target", where, 0),), False
    if reach != "exactly":
        raise ctx.r.fail(f"{where}.target", "a list of targets needs reach = \"exactly\" (with \"at_least\" "
                                            "only the smallest counts: give it alone)")
    if not 2 <= len(raw) <= 16 or len(set(map(str, raw))) != len(raw) or not all(
            type(t) is int and t >= 0 for t in raw):
        raise ctx.r.fail(f"{where}.target", f"a list of 2 to 16 distinct whole numbers >= 0, not {raw!r}")
    return tuple(raw), True


def _said(p: Params) -> str:
    """The target(s) as the ticket says them: "21", "7 or 11"."""
    return " or ".join(str(t) for t in p.targets)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="an add_up win is \"match\" (a game wins its prize)",
                           no_by="a game wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.games:
        return f"{len(wins)} wins, but the area has {params.games} games (one win each)"
    return None


def entry(params: Params) -> dict[str, Any]:
    target = list(params.targets) if params.listed else params.targets[0]
    return {"games": params.games, "spots": params.spots, "numbers": [s.code for s in params.numbers],
            "target": target, "reach": "exactly" if params.exactly else "at_least",
            "prizes": prize_entry(params.prizes)}


def columns(area_id: str, params: Params) -> list[str]:
    return ([f"{area_id}_spot_{j}" for j in range(params.games * params.spots)]
            + [f"{area_id}_prize_{g}" for g in range(params.games)])


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    g_, s_ = params.games, params.spots
    winning, losing = outcomes(tuple(int(s.code) for s in params.numbers), s_, params.targets, params.exactly)
    index = {s.code: i for i, s in enumerate(params.prizes)}
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    spots = np.zeros((n, g_, s_), dtype=np.int64)
    boxes = np.zeros((n, g_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        which = row_permutations(stream, k, g_)
        box = np.searchsorted(cumulative, integers(stream, int(cumulative[-1]), size=k * g_).reshape(k, g_),
                              side="right")
        game = losing[integers(stream, len(losing), size=k * g_)].reshape(k, g_, s_)
        for i, w in enumerate(wins):
            at = (np.arange(k), which[:, i])
            game[at] = winning[integers(stream, len(winning), size=k)]
            box[at] = index[w.prize.code]
        spots[rows], boxes[rows] = game, box
    out = np.concatenate([spots.reshape(n, g_ * s_), boxes], axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(out[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _sym(group: tuple[Symbol, ...], code: int) -> Symbol | None:
    return group[code] if 0 <= code < len(group) else None


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """One section per game: its numbers, then its PRIZE."""
    how = "EXACTLY" if params.exactly else "OR MORE"
    sections: list[Section] = []
    for g in range(params.games):
        cells: list[Cell] = []
        for j in range(params.spots):
            name = f"{area_id}_spot_{g * params.spots + j}"
            s = _sym(params.numbers, int(row[name]))
            cells.append((name, s.symbol if s else "?", s.caption if s else "", None, None))
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{g}"]))
        caption = f"PRIZE: {z.caption if z else ''}"
        cells.append((f"{area_id}_prize_{g}", z.symbol if z else "?", caption, None, None))
        said = " OR ".join(str(t) for t in params.targets)
        sections.append((f"GAME {g + 1}: ADD UP TO {said} {how}, WIN PRIZE", cells))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the spots of the winning games."""
    lines, winning = [], set()
    for g in range(params.games):
        names = [f"{area_id}_spot_{g * params.spots + j}" for j in range(params.spots)]
        shown = [_sym(params.numbers, int(row[c])) for c in names]
        z = _sym(params.prizes, int(row[f"{area_id}_prize_{g}"]))
        if z is None or any(s is None for s in shown):
            continue
        total = sum(int(s.code) for s in shown if s)
        if total in params.targets if params.exactly else total >= params.targets[0]:
            winning |= {*names, f"{area_id}_prize_{g}"}
            lines.append(f"{area_id}, game {g + 1}: adds up to {total}: wins "
                         f"{fmt_cents(z.cents or 0, currency)}.")
    return lines, winning
