"""Ticket-wide multiplier (contract: docs/styles/ticket_multiplier.md): a BONUS box of S spots, each
a decoy picture or a multiplier symbol of k ("2X", "DBL"); a ticket shows at most one, and only when
its tier says so, or (`multipliers_on_losers`) on a ticket that wins nothing; then every prize it wins
in its other areas is paid k times (docs/styles/play.md, rule 2: poolgen/game/multiplied.py
`ticket_cents`), or, with `multiplies`, every prize won in the areas (or crossword puzzles) it names
(section 9). The area wins nothing by itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.multiplied import covered
from poolgen.game.play import TICKET, AreaReading, Cell, Groups, Section, Win, WinError
from poolgen.money import USD, Currency
from poolgen.rng import Stream, integers

FIELDS: frozenset[str] = frozenset({"spots", "multipliers", "pictures", "multipliers_on_losers",
                                    "multiplies"})
# imaging (poolgen/deliverables/imaging.py): column suffix -> the area's symbol lists, in code order
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_spot_", ("pictures", "multipliers")),)
STYLE = "ticket_multiplier"


@dataclass(frozen=True)
class Params:
    spots: int
    multipliers: tuple[Symbol, ...]
    pictures: tuple[Symbol, ...]
    on_losers: bool = False  # `multipliers_on_losers`: a loser's box may show one (contract, section 7)
    multiplies: tuple[tuple[str, int | None], ...] = ()  # (area, grid or None) as listed; () all (section 9)
    over: tuple[tuple[str, frozenset[str] | None], ...] = ()  # what it covers: (area, legend codes or None)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    if any(a.style == STYLE for a in ctx.areas):
        raise r.fail(f"{where}.style", "a ticket has at most one ticket_multiplier area (one multiplier "
                                       "of the whole ticket)")
    p = Params(spots=ctx.whole(table, "spots", where, 1, high=32),
               multipliers=ctx.group(table, "multipliers", where, "multipliers"),
               pictures=ctx.group(table, "pictures", where, "pictures"),
               on_losers=r.get(table, "multipliers_on_losers", where, bool, required=False) or False)
    if "multiplies" in table:
        p = replace(p, **_multiplies(ctx, table["multiplies"], f"{where}.multiplies"))
    if len(p.pictures) + len(p.multipliers) > 255:
        raise r.fail(where, "more than 255 symbols do not fit a uint8 code")
    shared = sorted({s.code for s in p.pictures} & {s.code for s in p.multipliers})
    if shared:  # a code names one symbol of the box (its art, its legend line, a tier's win)
        raise r.fail(f"{where}.pictures", f"code {shared[0]!r} is also a multiplier's")
    return p


def _multiplies(ctx: AreaReading, raw: object, where: str) -> dict[str, Any]:
    """Contract section 9: the areas (or a crossword's puzzles) the box multiplies, each listed before it."""
    r = ctx.r
    if not isinstance(raw, list) or not raw or not all(isinstance(x, dict) for x in raw):
        raise r.fail(where, "must be a non-empty list of tables { area, grid }")
    earlier = {a.id: a for a in ctx.areas}
    listed: list[tuple[str, int | None]] = []
    over: list[tuple[str, frozenset[str] | None]] = []
    for j, t in enumerate(raw):
        at = f"{where}[{j}]"
        for key in t:
            if key not in ("area", "grid"):
                raise r.fail(f"{at}.{key}", "unknown field")
        if "area" not in t:
            raise r.fail(f"{at}.area", "missing field")
        area = earlier.get(t["area"]) if isinstance(t["area"], str) else None
        if area is None:
            raise r.fail(f"{at}.area", f"no area {t['area']!r} listed before this one")
        if any(a == area.id for a, _ in listed):
            raise r.fail(f"{at}.area", f"area {area.id!r} named twice")
        grid = t.get("grid")
        codes: frozenset[str] | None = None
        if "grid" in t:
            if isinstance(grid, bool) or not isinstance(grid, int):
                raise r.fail(f"{at}.grid", f"must be a whole number, not {grid!r}")
            if area.style != "crossword" or not getattr(area.params, "per_grid", False):
                raise r.fail(f"{at}.grid", f"area {area.id!r} ({area.style}) has no legend a grid: grid "
                                           "names a crossword's puzzle")
            legends = area.params.legends
            if not 1 <= grid <= len(legends):
                raise r.fail(f"{at}.grid", f"must be 1..{len(legends)}, got {grid}")
            codes = frozenset(s.code for _, s in legends[grid - 1])
        listed.append((area.id, grid))
        over.append((area.id, codes))
    return {"multiplies": tuple(listed), "over": tuple(over)}


def covers(params: Params) -> tuple[tuple[str, frozenset[str] | None], ...]:
    """What a multiplier win of this box multiplies (poolgen/game/multiplied.py; () every other win)."""
    return params.over


def targets(params: Params) -> str:
    """The areas it multiplies as the proofs name them (contract section 9): `xw PUZZLE 3 and bonus`."""
    return " and ".join(a if g is None else f"{a} PUZZLE {g}" for a, g in params.multiplies)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    symbol = next((s for s in params.multipliers if s.code == code), None)
    if symbol is None:
        raise WinError("prize", f"prize {code!r} is not one of its multiplier symbols")
    if how != TICKET:
        raise WinError("how", f"how = {how!r}: a ticket_multiplier win is \"ticket\" (it multiplies the "
                              "ticket's other wins)")
    if by is not None:
        raise WinError("by", "the multiplier symbol says k: no `by`")
    return symbol, symbol.by


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if len(wins) > 1:
        return f"{len(wins)} multipliers; a ticket shows at most one"
    return None


def entry(params: Params) -> dict[str, Any]:
    return {"spots": params.spots, "pictures": [s.code for s in params.pictures],
            "multipliers": [{"code": s.code, "by": s.by} for s in params.multipliers]} \
        | ({"multipliers_on_losers": True} if params.on_losers else {}) \
        | ({"multiplies": [{"area": a} | ({} if g is None else {"grid": g}) for a, g in params.multiplies]}
           if params.multiplies else {})


def columns(area_id: str, params: Params) -> list[str]:
    return [f"{area_id}_spot_{j}" for j in range(params.spots)]


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, every spot a uniform picture, then the multiplier's spot."""
    d, s_ = len(params.pictures), params.spots
    index = {s.code: d + q for q, s in enumerate(params.multipliers)}
    spots = np.zeros((n, s_), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        grid = integers(stream, d, size=k * s_).reshape(k, s_)
        for w in wins:  # at most one (check_wins)
            grid[np.arange(k), integers(stream, s_, size=k)] = index[w.prize.code]
        spots[rows] = grid
    spots8 = spots.astype(np.uint8)
    return {name: np.ascontiguousarray(spots8[:, j]) for j, name in enumerate(columns(area_id, params))}


def lay_out_losers(area_id: str, params: Params, groups: Groups, stream: Stream,
                   done: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Contract sections 7 and 9, with `multipliers_on_losers`: on each row of a tier with no win the box
    covers (every tier's rows and wins in `groups`; those rows tier after tier in pool order), after
    `lay_out`, one spot (`integers(S)` a row) is drawn again uniformly over every symbol of the box
    (`integers(D + M)` a row): a picture or a multiplier. Without it nothing is drawn (every pool as
    before, byte for byte)."""
    if not params.on_losers:
        return {}
    probe = Win("", TICKET, 1, params.multipliers[0], over=params.over)  # what a multiplier would cover
    lost = [r for r, wins in groups if not any(covered(probe, w) for w in wins)]
    rows = np.concatenate(lost) if lost else np.zeros(0, np.int64)
    if not rows.size:
        return {}
    names = columns(area_id, params)
    spots = np.stack([np.asarray(done[name]) for name in names], axis=1)
    at = integers(stream, params.spots, size=rows.size)
    code = integers(stream, len(params.pictures) + len(params.multipliers), size=rows.size)
    spots[rows, at] = code
    return {name: np.ascontiguousarray(spots[:, j]) for j, name in enumerate(names)}


def losers_field(params: Params, wins: Mapping[str, tuple[Win, ...]]) -> str | None:
    """The spec field shown on losing tickets alone, if set (poolgen/loader/printed.py refuses it when no
    pool holds a losing ticket: a field nothing uses); with `multiplies`, a box that a tier's winners
    show too (a tier with no win it covers: contract section 9) is not one."""
    probe = Win("", TICKET, 1, params.multipliers[0], over=params.over)
    if params.over and any(not any(covered(probe, w) for w in ws) for ws in wins.values()):
        return None
    return "multipliers_on_losers" if params.on_losers else None


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    """Nothing to note for `poolgen check`: every promise of the contract holds for any counts."""
    return None


def _symbol(p: Params, code: int) -> Symbol | None:
    if 0 <= code < len(p.pictures):
        return p.pictures[code]
    if 0 <= code - len(p.pictures) < len(p.multipliers):
        return p.multipliers[code - len(p.pictures)]
    return None


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The BONUS box as drawn: one section of S cells (column, symbol text, caption, None, None)."""
    cells: list[Cell] = []
    for name in columns(area_id, params):
        s = _symbol(params, int(row[name]))
        cells.append((name, s.name if s else "?", s.caption if s else "", None, None))
    if params.multiplies:
        return [(f"PRIZE MULTIPLIER: MULTIPLY PRIZES WON IN {targets(params)}", cells)]
    return [("BONUS: REVEAL A MULTIPLIER, MULTIPLY ALL PRIZES WON", cells)]


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """What the box does to the ticket's prizes (contract section 5), and the spot that shows it."""
    lines, winning = [], set()
    for j, name in enumerate(columns(area_id, params)):
        code = int(row[name])
        if len(params.pictures) <= code < len(params.pictures) + len(params.multipliers):
            s = params.multipliers[code - len(params.pictures)]
            winning.add(name)
            where = f"in {targets(params)}" if params.multiplies else "on the ticket"
            lines.append(f"{area_id}, spot {j + 1}: {s.captioned} revealed: every prize won "
                         f"{where} is paid {s.by} times.")
    return lines, winning


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first multiplier symbol no tier's win uses, and why (poolgen/loader/printed.py refuses it: a
    multiplier the game prints that never pays; contract, section 2)."""
    for s in params.multipliers:
        if not any(w.prize.code == s.code for w in wins):
            return "multipliers", f"no tier wins with its multiplier {s.code!r} (the game would print a " \
                              "multiplier that never pays)"
    return None
