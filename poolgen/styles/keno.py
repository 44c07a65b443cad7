"""Scratch keno (contract: docs/styles/keno.md): W WINNING NUMBERS and G GAMES of k numbers each; a
game wins the prize its key gives for its number of matches. Every tier's display is drawn uniformly
among the displays with exactly its wins (the hypergeometric counts of section 7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from math import comb, prod
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
    unpaid_legend_line,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, row_permutations
from poolgen.rng.sampling import Weights

FIELDS: frozenset[str] = frozenset({"winning", "numbers", "prizes", "games", "key"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_win_", ("numbers",)), ("_spot_", ("numbers",)))
LOSE = -1  # a game's outcome when it wins nothing (else: an index into `prizes`)


@dataclass(frozen=True)
class Params:
    winning: int
    numbers: tuple[Symbol, ...]
    prizes: tuple[Symbol, ...]
    games: tuple[int, ...]  # each game's number of spots
    key: tuple[tuple[int, int, Symbol], ...]  # (spots, matches, prize), spec order

    def h(self, k: int, m: int) -> int:
        """The k-sets of numbers with exactly m matches of a WINNING set (section 7)."""
        return comb(self.winning, m) * comb(len(self.numbers) - self.winning, k - m)

    def counts(self, k: int, outcome: int) -> list[int]:
        """The numbers of matches 0..k a game of k numbers shows for `outcome`, showable ones only."""
        paid = {m: self.prizes.index(p) for s, m, p in self.key if s == k}
        return [m for m in range(k + 1) if self.h(k, m) and paid.get(m, LOSE) == outcome]

    def ways(self, k: int, outcome: int) -> int:
        return sum(self.h(k, m) for m in self.counts(k, outcome))


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    numbers = ctx.group(table, "numbers", where, "numbers")
    if len(numbers) > 255:
        raise r.fail(f"{where}.numbers", "more than 255 numbers do not fit a uint8 code")
    if len(numbers) < 2:
        raise r.fail(f"{where}.numbers", "at least 2 numbers: one winning, one not")
    winning = ctx.whole(table, "winning", where, 1, high=len(numbers) - 1)
    prizes = ctx.group(table, "prizes", where, "prizes")
    games = r.get(table, "games", where, list)
    if not 1 <= len(games) <= 10:
        raise r.fail(f"{where}.games", f"1 to 10 games, not {len(games)}")
    for g, k in enumerate(games):
        if type(k) is not int or not 1 <= k <= min(20, len(numbers)):
            raise r.fail(f"{where}.games[{g}]", f"a game's numbers: a whole number 1 .. "
                                                f"{min(20, len(numbers))}, not {k!r}")
    raw = r.get(table, "key", where, list)
    key: list[tuple[int, int, Symbol]] = []
    for i, item in enumerate(raw):
        at = f"{where}.key[{i}]"
        if not isinstance(item, dict):
            raise r.fail(at, "must be a table { spots, matches, prize }")
        for name in item:
            if name not in ("spots", "matches", "prize"):
                raise r.fail(f"{at}.{name}", "unknown field")
        spots = ctx.whole(item, "spots", at, 1, high=20)
        if spots not in games:
            raise r.fail(f"{at}.spots", f"not used: no game has {spots} numbers")
        matches = ctx.whole(item, "matches", at, 0, high=spots)
        if matches > winning or spots - matches > len(numbers) - winning:
            raise r.fail(f"{at}.matches", f"{matches} matches of {spots} numbers cannot be shown with "
                                          f"{winning} WINNING NUMBERS of {len(numbers)}")
        if any(s == spots and m == matches for s, m, _ in key):
            raise r.fail(f"{at}.matches", f"the key already pays {matches} matches of {spots} numbers")
        code = r.get(item, "prize", at, str)
        prize = next((s for s in prizes if s.code == code), None)
        if prize is None:
            raise r.fail(f"{at}.prize", "not one of the area's prize symbols")
        key.append((spots, matches, prize))
    params = Params(winning, numbers, prizes, tuple(games), tuple(key))
    for g, k in enumerate(games):
        if not any(s == k for s, _, _ in key):
            raise r.fail(f"{where}.games[{g}]", f"the key lists no prize for a game of {k} numbers")
        if not params.ways(k, LOSE):
            raise r.fail(f"{where}.games[{g}]", f"every number of matches a game of {k} numbers can show "
                                                "wins: it could never lose")
    return params


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    prize = next((p for _, _, p in params.key if p.code == code), None)
    if prize is None:
        raise WinError("prize", f"prize {code!r} is not one the key pays")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a keno win is \"match\" (the key's prize for a game's "
                              "matches)")
    if by is not None:
        raise WinError("by", "a game wins its key's prize as listed: no `by`")
    return prize, 1


def assignments(params: Params, wins: Sequence[Win]) -> list[tuple[tuple[int, ...], int]]:
    """Every assignment of the wins to distinct games (lexicographic) with its weight (section 7)."""
    outcome = [params.prizes.index(w.prize) for w in wins]
    out = []
    for games in permutations(range(len(params.games)), len(wins)):
        given = dict(zip(games, outcome, strict=True))
        weight = prod(params.ways(k, given.get(g, LOSE)) for g, k in enumerate(params.games))
        if weight:
            out.append((games, weight))
    return out


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > len(params.games):
        return f"{len(wins)} wins, but the area has {len(params.games)} games (one win each)"
    if not assignments(params, wins):
        return "no game assignment pays these wins (each game wins one key prize)"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"winning": params.winning, "numbers": [s.code for s in params.numbers],
            "prizes": [{"code": s.code, "cents": s.cents} for s in params.prizes],
            "games": list(params.games),
            "key": [{"spots": s, "matches": m, "prize": p.code} for s, m, p in params.key]}


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_win_{i}" for i in range(params.winning)] + \
        [f"{area_id}_spot_{s}" for s in range(sum(params.games))]


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7, per tier in pool order, vectorised over its rows."""
    w, big = params.winning, len(params.numbers)
    offsets = np.cumsum((0,) + params.games)
    out = np.zeros((n, w + int(offsets[-1])), dtype=np.int64)
    for rows, wins in groups:
        r = rows.size
        if not r:
            continue
        order = row_permutations(stream, r, big)
        won, lost = order[:, :w], order[:, w:]
        outcome = np.full((r, len(params.games)), LOSE, dtype=np.int64)
        if wins:
            listed = assignments(params, wins)
            pick = Weights([x for _, x in listed]).choices(stream, r)
            table = np.array([g for g, _ in listed], dtype=np.int64)[pick]
            for j, win in enumerate(wins):
                outcome[np.arange(r), table[:, j]] = params.prizes.index(win.prize)
        matches = np.zeros((r, len(params.games)), dtype=np.int64)
        for g, k in enumerate(params.games):
            for o in np.unique(outcome[:, g]).tolist():
                at = np.flatnonzero(outcome[:, g] == o)
                counts = params.counts(k, o)
                if len(counts) == 1:
                    matches[at, g] = counts[0]
                else:
                    pick = Weights([params.h(k, m) for m in counts]).choices(stream, at.size)
                    matches[at, g] = np.array(counts, dtype=np.int64)[pick]
        out[rows, :w] = won
        for g, k in enumerate(params.games):
            hit = np.take_along_axis(won, row_permutations(stream, r, w), axis=1)
            miss = np.take_along_axis(lost, row_permutations(stream, r, big - w), axis=1)
            spots = row_permutations(stream, r, k)
            m = matches[:, g:g + 1]
            i = np.arange(k)[None, :]
            shown = np.where(i < m, np.take_along_axis(hit, np.minimum(i, w - 1).repeat(r, 0), axis=1),
                             np.take_along_axis(miss, np.clip(i - m, 0, big - w - 1), axis=1))
            placed = np.empty_like(shown)
            np.put_along_axis(placed, spots, shown, axis=1)
            out[rows, w + offsets[g]:w + offsets[g + 1]] = placed
    flat = out.astype(np.uint8)
    return {name: np.ascontiguousarray(flat[:, j]) for j, name in enumerate(columns(area_id, params))}


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first key line whose prize no tier's win lists (contract, section 2)."""
    unpaid = unpaid_legend_line([(m, p) for _, m, p in params.key], wins)
    if unpaid is None:
        return None
    return "key" + unpaid[0].removeprefix("legend"), unpaid[1].replace("legend", "key")


def _number(params: Params, code: int) -> str:
    return params.numbers[code].symbol if 0 <= code < len(params.numbers) else "?"


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The WINNING NUMBERS, each game's numbers, then the key."""
    def cell(column: str) -> Cell:
        code = int(row[column])
        caption = params.numbers[code].caption if 0 <= code < len(params.numbers) else ""
        return (column, _number(params, code), caption, None, None)
    sections: list[Section] = [("WINNING NUMBERS",
                                [cell(f"{area_id}_win_{i}") for i in range(params.winning)])]
    s = 0
    for g, k in enumerate(params.games):
        sections.append((f"GAME {g + 1}", [cell(f"{area_id}_spot_{s + j}") for j in range(k)]))
        s += k
    sections.append(("KEY", [("", f"{sp} SPOT: {m} MATCH", "", p.symbol, p.caption)
                             for sp, m, p in params.key]))
    return sections


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the cells of the winning games."""
    won = [int(row[f"{area_id}_win_{i}"]) for i in range(params.winning)]
    if not all(0 <= c < len(params.numbers) for c in won):
        won = []
    lines, cells, s = [], set(), 0
    for g, k in enumerate(params.games):
        spots = [f"{area_id}_spot_{s + j}" for j in range(k)]
        s += k
        hits = [c for c in spots if int(row[c]) in won]
        prize = next((p for sp, m, p in params.key if sp == k and m == len(hits)), None)
        if prize is not None:
            cells |= set(hits)
            lines.append(f"{area_id}, game {g + 1}: {len(hits)} of {k} numbers match: the key's prize, "
                         f"{fmt_cents(prize.cents or 0, currency)}.")
    return lines, cells
