"""Prize box (contract: docs/styles/prize_box.md): G games, each of S spots of pictures and a PRIZE
box; N like pictures in a game win the prize its box shows. A ticket wins in as many games as its
tier lists wins in the area."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    pool_prize_mix,
    prize_entry,
    shown_prize_win,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.styles.symbol_count import MIN_ACCEPT, accept_share

FIELDS: frozenset[str] = frozenset({"games", "spots", "match", "pictures", "prizes"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_spot_", ("pictures",)), ("_prize_", ("prizes",)))
TRIES = 100_000


@dataclass(frozen=True)
class Params:
    games: int
    spots: int
    match: int
    pictures: tuple[Symbol, ...]
    prizes: tuple[Symbol, ...]


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    p = Params(games=ctx.whole(table, "games", where, 1, high=32),
               spots=ctx.whole(table, "spots", where, 2, high=32), match=ctx.whole(table, "match", where, 2),
               pictures=ctx.group(table, "pictures", where, "pictures"),
               prizes=ctx.group(table, "prizes", where, "prizes"))
    if p.match > p.spots:
        raise r.fail(f"{where}.match", f"{p.match} like pictures do not fit {p.spots} spots")
    d, n, s = len(p.pictures), p.match, p.spots
    if d * (n - 1) < s or accept_share(d, s, n - 1) < MIN_ACCEPT:
        raise r.fail(f"{where}.pictures", f"{d} pictures cannot fill a game of {s} spots, each fewer than "
                                          f"{n} times, in 1 of 1,000 draws")
    if s > n and ((d - 1) * (n - 1) < s - n or accept_share(d - 1, s - n, n - 1) < MIN_ACCEPT):
        raise r.fail(f"{where}.pictures", f"{d - 1} other pictures cannot fill a winning game's other "
                                          f"{s - n} spots, each fewer than {n} times, in 1 of 1,000 draws")
    if max(len(p.pictures), len(p.prizes)) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    return p


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    return shown_prize_win(params.prizes, how, by, code, expected="match",
                           said="a prize_box win is \"match\" (the prize its game's box shows)",
                           no_by="a game wins the prize shown: no `by`")


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > params.games:
        return f"{len(wins)} wins, but the area has {params.games} games (one win each)"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"games": params.games, "spots": params.spots, "match": params.match,
            "pictures": [s.code for s in params.pictures], "prizes": prize_entry(params.prizes)}


def columns(area_id: str, params: Params) -> list[str]:
    return ([f"{area_id}_spot_{j}" for j in range(params.games * params.spots)]
            + [f"{area_id}_prize_{g}" for g in range(params.games)])


def _pictures(stream: Stream, k: int, choices: np.ndarray, spots: int, most: int) -> np.ndarray:
    """k rows of `spots` pictures drawn uniformly from `choices`, none more than `most` times."""
    out = np.zeros((k, spots), dtype=np.int64)
    todo = np.arange(k)
    for _ in range(TRIES):
        if not todo.size:
            return out
        draw = choices[integers(stream, choices.size, size=todo.size * spots)].reshape(-1, spots)
        top = np.stack([(draw == c).sum(axis=1) for c in choices.tolist()], axis=1).max(axis=1)
        good = top <= most
        out[todo[good]] = draw[good]
        todo = todo[~good]
    raise RunError(f"pictures not laid out in {TRIES:,} rounds")


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    g_, s_, n_ = params.games, params.spots, params.match
    d = len(params.pictures)
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    index = {s.code: i for i, s in enumerate(params.prizes)}
    spots = np.zeros((n, g_, s_), dtype=np.int64)
    boxes = np.zeros((n, g_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        which = row_permutations(stream, k, g_)  # game which[:, i] has the tier's win i
        box = np.searchsorted(cumulative, integers(stream, int(cumulative[-1]), size=k * g_).reshape(k, g_),
                              side="right")
        grid = np.zeros((k, g_, s_), dtype=np.int64)
        for g in range(g_):
            grid[:, g] = _pictures(stream, k, np.arange(d), s_, n_ - 1)
        for i, w in enumerate(wins):
            game = which[:, i]
            box[np.arange(k), game] = index[w.prize.code]
            matched = integers(stream, d, size=k)
            others = np.zeros((k, s_ - n_), dtype=np.int64)
            if s_ > n_:
                rest = _pictures(stream, k, np.arange(d - 1), s_ - n_, n_ - 1)
                others = rest + (rest >= matched[:, None])  # the other pictures, skipping the matched one
            shown = np.concatenate([np.repeat(matched[:, None], n_, axis=1), others], axis=1)
            place = row_permutations(stream, k, s_)
            arranged = np.empty_like(shown)
            np.put_along_axis(arranged, place, shown, axis=1)
            grid[np.arange(k), game] = arranged
        spots[rows] = grid
        boxes[rows] = box
    out = np.concatenate([spots.reshape(n, g_ * s_), boxes], axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(out[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _text(s: Symbol | None) -> str:
    return s.name if s else "?"


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """One section per game: its spots, then its PRIZE box (the prize, captioned PRIZE)."""
    sections: list[Section] = []
    for g in range(params.games):
        cells: list[Cell] = []
        for j in range(params.spots):
            name = f"{area_id}_spot_{g * params.spots + j}"
            code = int(row[name])
            s = params.pictures[code] if 0 <= code < len(params.pictures) else None
            cells.append((name, _text(s), s.caption if s else "", None, None))
        code = int(row[f"{area_id}_prize_{g}"])
        p = params.prizes[code] if 0 <= code < len(params.prizes) else None
        cells.append((f"{area_id}_prize_{g}", p.symbol if p else "?", f"PRIZE: {p.caption if p else ''}",
                      None, None))
        sections.append((f"GAME {g + 1}: MATCH {params.match} LIKE PICTURES, WIN PRIZE SHOWN", cells))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the spots and boxes that win."""
    lines, winning = [], set()
    for g in range(params.games):
        names = [f"{area_id}_spot_{g * params.spots + j}" for j in range(params.spots)]
        codes = [int(row[c]) for c in names]
        for c in sorted(set(codes)):
            if codes.count(c) == params.match and 0 <= c < len(params.pictures):
                box = int(row[f"{area_id}_prize_{g}"])
                if not 0 <= box < len(params.prizes):
                    continue
                p = params.prizes[box]
                winning |= {n for n, x in zip(names, codes, strict=True) if x == c} | {f"{area_id}_prize_{g}"}
                lines.append(f"{area_id}, game {g + 1}: {params.match} x {_text(params.pictures[c])}: wins "
                             f"the prize shown, {fmt_cents(p.cents or 0, currency)}.")
    return lines, winning
