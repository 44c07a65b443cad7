"""Lines (contract: docs/styles/lines.md): "three in a line" on an R x C grid of pictures. A line the
spec lists is complete when every cell of it shows one line-making symbol (the area's `symbol`, or any
one of its `symbols`); the number of complete lines wins the legend's prize for that number, only that
one, or (`line_prizes`) each complete line wins the prize printed for it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    pool_prize_mix,
    prize_entry,
    unpaid_legend_line,
)
from poolgen.money import USD, Currency, fmt_cents
from poolgen.rng import Stream, integers, row_permutations
from poolgen.styles.lines import caller
from poolgen.styles.lines.placements import (
    MAX_PLACEMENTS,
    PROBE,
    decoy_lines,
    decoys_fit,
    feasible,
    of,
    placements,
    valid_sets,
)
from poolgen.styles.lines.placements import (
    Params as Params,  # the style's parameters (poolgen/styles/__init__.py)
)

FIELDS: frozenset[str] = frozenset({"rows", "cols", "pictures", "symbol", "symbols", "lines", "prizes",
                                    "legend", "line_prizes", "calls"})
SPOTS: tuple[tuple[str, tuple[str, ...]], ...] = (("_cell_", ("pictures",)), ("_call_", ("pictures",)),
                                                  ("_prize_", ("prizes",)))
OPTIONAL_SPOTS = ("_call_", "_prize_")  # a caller's (`calls`), line_prizes = "shown" (poolgen/game/spots.py)
MAX_CELLS = 16
TRIES = 100_000


def _lines(ctx: AreaReading, table: Mapping[str, Any], where: str, cells: int) -> tuple[tuple[int, ...], ...]:
    r = ctx.r
    raw = r.get(table, "lines", where, list)
    out: list[tuple[int, ...]] = []
    for i, line in enumerate(raw):
        ok = isinstance(line, list) and all(type(c) is int and 0 <= c < cells for c in line)
        if not ok or len(line) < 3 or len(set(line)) != len(line):
            raise r.fail(f"{where}.lines[{i}]", f"a line is a list of 3 or more distinct cells 0.."
                                                f"{cells - 1}")
        if set(line) in [set(x) for x in out]:
            raise r.fail(f"{where}.lines[{i}]", "the same line twice")
        out.append(tuple(line))
    if not out:
        raise r.fail(f"{where}.lines", "list the lines that win (cells in reading order, from 0)")
    return tuple(out)


def read_area(ctx: AreaReading, table: Mapping[str, Any], where: str) -> Params:
    r = ctx.r
    rows, cols = ctx.whole(table, "rows", where, 1), ctx.whole(table, "cols", where, 1)
    if rows * cols > MAX_CELLS:
        raise r.fail(f"{where}.rows", f"{rows} x {cols} cells; at most {MAX_CELLS}")
    pictures = ctx.group(table, "pictures", where, "pictures")
    calls = caller.read_calls(ctx, table, where, pictures, rows * cols)
    symbols = _symbols(ctx, table, where, pictures) if not calls else ()
    decoys = len(pictures) - len(symbols) if not calls else 0
    if len(symbols) == 1 and len(pictures) < 3:
        raise r.fail(f"{where}.pictures", "the symbol and at least 2 decoy pictures")
    if decoys == 1:
        raise r.fail(f"{where}.pictures", "the symbols alone, or the symbols and at least 2 decoy pictures")
    base = len(symbols) + (1 if decoys else 0) if not calls else 2
    if base ** (rows * cols) > MAX_PLACEMENTS:
        raise r.fail(f"{where}.symbols", f"{base} classes of cell on {rows * cols} cells: "
                                         f"{base}^{rows * cols} placements; at most {MAX_PLACEMENTS:,}")
    lines = _lines(ctx, table, where, rows * cols)
    prizes = ctx.group(table, "prizes", where, "prizes")
    if ("legend" in table) == ("line_prizes" in table):
        raise r.fail(f"{where}.legend", "a lines area pays by `legend` (a prize per number of complete "
                                        "lines) or by `line_prizes` (a prize per line): one of them")
    complete = placements(rows * cols, lines, base, bool(decoys) or bool(calls))[1].sum(axis=1)
    if calls:  # a placement no caller and board show completes nothing a ticket can show
        complete = np.where(feasible(Params(rows, cols, pictures, (), lines, prizes, (), calls=calls)),
                            complete, -1)
    noun = "symbols" if "symbols" in table else "marked cells" if calls else "symbol"
    legend = _legend(ctx, table, where, prizes, lines, complete, noun) if "legend" in table else ()
    shown = table.get("line_prizes") == "shown"
    line_prizes = _line_prizes(ctx, table, where, prizes, lines) if "line_prizes" in table and not shown \
        else ()
    if decoys and decoys_fit(decoys, rows * cols, lines) < 4:
        raise r.fail(f"{where}.lines", f"fewer than 4 of {PROBE:,} draws of {decoys} decoys keep "
                                       "every line from showing one decoy alone")
    if not (complete == 0).any():
        raise r.fail(f"{where}.lines", f"every placement of the {noun} completes a line: no ticket could "
                                       "show none")
    return Params(rows, cols, pictures, symbols, lines, prizes, legend, line_prizes, shown,
                  several="symbols" in table, calls=calls)


def _symbols(ctx: AreaReading, table: Mapping[str, Any], where: str, pictures: tuple[Symbol, ...]
             ) -> tuple[int, ...]:
    """The line-making pictures: `symbol` (one) or `symbols` (a list of 2 or more), as indices."""
    r = ctx.r
    if "symbols" not in table:
        code = r.get(table, "symbol", where, str)
        symbol = next((i for i, s in enumerate(pictures) if s.code == code), None)
        if symbol is None:
            raise r.fail(f"{where}.symbol", f"{code!r} is not one of the area's pictures")
        return (symbol,)
    if "symbol" in table:
        raise r.fail(f"{where}.symbol", "a lines area names one `symbol` or a list of `symbols`: one of them")
    raw = r.get(table, "symbols", where, list)
    out: list[int] = []
    for j, code in enumerate(raw):
        at = next((i for i, s in enumerate(pictures) if s.code == code), None)
        if at is None:
            raise r.fail(f"{where}.symbols[{j}]", f"{str(code)[:80]!r} is not one of the area's pictures")
        if at in out:
            raise r.fail(f"{where}.symbols[{j}]", f"{code!r} twice")
        out.append(at)
    if len(out) < 2:
        raise r.fail(f"{where}.symbols", "a list of 2 or more of the area's pictures (a single one is "
                                         "`symbol`)")
    return tuple(out)


def _legend(ctx: AreaReading, table: Mapping[str, Any], where: str, prizes: tuple[Symbol, ...],
            lines: tuple[tuple[int, ...], ...], complete: np.ndarray, noun: str
            ) -> tuple[tuple[int, Symbol], ...]:
    r = ctx.r
    legend: list[tuple[int, Symbol]] = []
    for i, item in enumerate(r.get(table, "legend", where, list)):
        at = f"{where}.legend[{i}]"
        if not isinstance(item, dict) or set(item) - {"lines", "prize"}:
            raise r.fail(at, "must be a table { lines, prize }")
        n = ctx.whole(item, "lines", at, 1, high=len(lines))
        prize = next((s for s in prizes if s.code == r.get(item, "prize", at, str)), None)
        if prize is None or any(p.code == prize.code for _, p in legend):
            raise r.fail(f"{at}.prize", "not one of the area's prize symbols, or the legend's already")
        if legend and n <= legend[-1][0]:
            raise r.fail(f"{at}.lines", "the legend lists numbers of lines in increasing order")
        legend.append((n, prize))
    if not legend:
        raise r.fail(f"{where}.legend", "list the prize of each number of complete lines")
    for n, _ in legend:
        if not (complete == n).any():
            raise r.fail(f"{where}.legend", f"no placement of the {noun} completes exactly {n} lines")
    return tuple(legend)


def _line_prizes(ctx: AreaReading, table: Mapping[str, Any], where: str, prizes: tuple[Symbol, ...],
                 lines: tuple[tuple[int, ...], ...]) -> tuple[Symbol, ...]:
    r = ctx.r
    raw = table["line_prizes"]
    if not isinstance(raw, list):
        raise r.fail(f"{where}.line_prizes", "a list of the prize printed for each line, or \"shown\" (a "
                                             "prize spot a line)")
    out: list[Symbol] = []
    for i, code in enumerate(raw):
        prize = next((s for s in prizes if s.code == code), None)
        if prize is None:
            raise r.fail(f"{where}.line_prizes[{i}]", f"{str(code)[:80]!r} is not one of the area's prize "
                                                      "symbols")
        out.append(prize)
    if len(out) != len(lines):
        raise r.fail(f"{where}.line_prizes", f"{len(out)} prize(s) for {len(lines)} lines: one a line, in "
                                             "the order of `lines`")
    return tuple(out)


def read_win(params: Params, how: str, by: int | None, code: str) -> tuple[Symbol, int]:
    listed = params.prizes if params.shown else params.line_prizes or tuple(s for _, s in params.legend)
    prize = next((s for s in listed if s.code == code), None)
    if prize is None:
        where = "area's prizes hold" if params.shown else "lines print" if params.line_prizes else \
            "legend lists"
        raise WinError("prize", f"prize {code!r} is not one the {where}")
    if how != "match":
        raise WinError("how", f"how = {how!r}: a lines win is \"match\" (the prize of its lines)")
    if by is not None:
        raise WinError("by", "the legend's prize wins as listed: no `by`")
    return prize, 1


def check_wins(params: Params, wins: tuple[Win, ...]) -> str | None:
    if not params.line_prizes and not params.shown:
        return "a ticket wins one legend prize (only the highest)" if len(wins) > 1 else None
    noun = "symbols" if params.several else "marked cells" if params.calls else "symbol"
    if params.shown and not valid_sets(params, wins).size:
        return f"no placement of the {noun} completes exactly {len(wins)} lines"
    if not valid_sets(params, wins).size:
        paid = " + ".join(sorted((w.prize.code for w in wins), key=str))
        return f"no placement of the {noun} completes exactly lines printing {paid}"
    return None


def entry(params: Params) -> dict[str, Any]:
    pays: dict[str, Any] = ({"line_prizes": "shown"} if params.shown
                            else {"line_prizes": [s.code for s in params.line_prizes]} if params.line_prizes
                            else {"legend": [{"lines": n, "prize": s.code} for n, s in params.legend]})
    return {"rows": params.rows, "cols": params.cols, "pictures": [s.code for s in params.pictures],
            **_named(params), "lines": [list(x) for x in params.lines],
            "prizes": prize_entry(params.prizes)} | pays


def _named(params: Params) -> dict[str, Any]:
    """The manifest's `symbol` (one, as the spec named it), `symbols` (a list) or `calls` (a caller's)."""
    if params.calls:
        return {"calls": params.calls}
    codes = [params.pictures[i].code for i in params.symbols]
    return {"symbols": codes} if params.several else {"symbol": codes[0]}


def columns(area_id: str, params: Params) -> list[str]:
    spots = [f"{area_id}_prize_{i}" for i in range(len(params.lines))] if params.shown else []
    calls = [f"{area_id}_call_{j}" for j in range(params.calls)]
    return [f"{area_id}_cell_{k}" for k in range(params.rows * params.cols)] + calls + spots


def lay_out(area_id: str, params: Params, groups: Groups, n: int, stream: Stream,
            done: Mapping[str, np.ndarray], mix: Sequence[int]) -> dict[str, np.ndarray]:
    """Contract section 7: per tier, the symbol's cells, then the decoys (with a caller, the marked cells,
    then the pictures; then, line_prizes = "shown", every line's prize spot)."""
    cells = params.rows * params.cols
    spots = np.zeros((n, len(params.lines)), dtype=np.int64)
    calls = np.zeros((n, params.calls), dtype=np.int64)
    cumulative = pool_prize_mix(params.prizes, groups, mix)
    decoys = np.array(params.decoys, dtype=np.int64)
    classes, done_lines = of(params)
    picture_of = params.class_pictures
    out = np.zeros((n, cells), dtype=np.int64)
    for rows, wins in groups:
        k = rows.size
        if not k:
            continue
        valid = valid_sets(params, wins)
        if params.calls:
            chosen = caller.choose(params, valid, k, stream)
            calls[rows], out[rows] = caller.pictures(params, classes[chosen] == 1, stream)
            if params.shown:
                spots[rows] = _prize_spots(params, wins, done_lines[chosen], cumulative, stream)
            continue
        chosen = valid[integers(stream, valid.size, size=k)]
        fixed = picture_of[classes[chosen]]  # a symbol's picture, -1 where a decoy is drawn
        shown = fixed.copy()
        todo = np.arange(k) if decoys.size else np.arange(0)  # no decoys: step 2 draws nothing
        for _ in range(TRIES):
            if not todo.size:
                break
            draw = np.where(fixed[todo] >= 0, fixed[todo],
                            decoys[integers(stream, decoys.size, size=todo.size * cells)].reshape(-1, cells))
            line_of_one = decoy_lines(draw, params.lines, params.symbols)
            shown[todo[~line_of_one]] = draw[~line_of_one]
            todo = todo[line_of_one]
        if todo.size:
            raise RunError(f"area {area_id!r}: decoys not laid out in {TRIES:,} rounds")
        out[rows] = shown
        if params.shown:
            spots[rows] = _prize_spots(params, wins, done_lines[chosen], cumulative, stream)
    out8 = np.concatenate([out, calls] + ([spots] if params.shown else []), axis=1).astype(np.uint8)
    return {name: np.ascontiguousarray(out8[:, j]) for j, name in enumerate(columns(area_id, params))}


def _prize_spots(params: Params, wins: Sequence[Win], done: np.ndarray, cumulative: np.ndarray,
                 stream: Stream) -> np.ndarray:
    """Section 7, steps 3 and 4: every line's spot a prize of the pool's mix, then the complete lines (in
    line order) the tier's wins in the order of row_permutations."""
    k, count = done.shape[0], len(params.lines)
    drawn = integers(stream, int(cumulative[-1]), size=k * count).reshape(k, count)
    spots = np.searchsorted(cumulative, drawn, side="right")
    if wins:
        index = {s.code: i for i, s in enumerate(params.prizes)}
        paid = np.array([index[w.prize.code] for w in wins], dtype=np.int64)
        order = row_permutations(stream, k, len(wins))
        which = np.cumsum(done, axis=1) - 1  # a complete line's place among the row's complete lines
        fill = paid[order[np.arange(k)[:, None], np.clip(which, 0, len(wins) - 1)]]
        spots = np.where(done, fill, spots)
    out: np.ndarray = spots
    return out


def layout_note(params: Params, counts: list[tuple[int, tuple[Win, ...]]]) -> str | None:
    return None


def _text(s: Symbol | None) -> str:
    return s.name if s else "?"


def face(area_id: str, params: Params, row: Mapping[str, Any]) -> list[Section]:
    """The grid (drawn rows x columns), the caller's pictures (with `calls`), then the printed legend."""
    cells: list[Cell] = []
    for name in columns(area_id, params)[:params.rows * params.cols]:  # the grid's; the spots are drawn below
        code = int(row[name])
        cells.append((name, _text(params.pictures[code] if 0 <= code < len(params.pictures) else None), "",
                      None, None))
    key = _key(params)
    legend: list[Cell] = [("", f"{n} LINE{'S' if n > 1 else ''} OF {key.upper()}", p.symbol, None, None)
                          for n, p in params.legend]
    legend += [("", f"LINE {i + 1}", p.symbol, None, None) for i, p in enumerate(params.line_prizes)]
    if params.shown:
        legend += [(f"{area_id}_prize_{i}", f"LINE {i + 1}", _prize_text(params, row[f"{area_id}_prize_{i}"]),
                    None, None) for i in range(len(params.lines))]
    title = "LINE PRIZES" if params.line_prizes or params.shown else "PRIZE LEGEND"
    if params.calls:
        names = [f"{area_id}_call_{j}" for j in range(params.calls)]
        called: list[Cell] = [(c, _picture(params, row[c]), "", None, None) for c in names]
        return [("BOARD", cells), ("CALLED", called), (title, legend)]
    return [(f"{key.upper()} IN A LINE", cells), (title, legend)]


def _picture(params: Params, code: Any) -> str:
    c = int(code)
    return _text(params.pictures[c] if 0 <= c < len(params.pictures) else None)


def _key(params: Params) -> str:
    """The line-making pictures' names: `X`, or `X OR O` (with a caller: `called pictures`)."""
    if params.calls:
        return "called pictures"
    return " or ".join(_text(params.pictures[i]) for i in params.symbols)


def _maker(params: Params, row: Mapping[str, Any], names: list[str], line: tuple[int, ...],
           called: dict[int, str]) -> int | None:
    """The symbol (a picture index) every cell of `line` shows, or None: the line is not complete. With a
    caller (`called`: its pictures' codes and columns), -1 when every cell shows one of them (section 1b)."""
    if params.calls:
        return -1 if all(int(row[names[c]]) in called for c in line) else None
    first = int(row[names[line[0]]])
    return first if first in params.symbols and all(int(row[names[c]]) == first for c in line) else None


def _prize_text(params: Params, code: Any) -> str:
    c = int(code)
    return params.prizes[c].symbol if 0 <= c < len(params.prizes) else "?"


def _line_prize(params: Params, area_id: str, row: Mapping[str, Any], i: int) -> Symbol | None:
    """The prize line i pays: the one printed for it, or the one its spot shows (None: out of range)."""
    if not params.shown:
        return params.line_prizes[i]
    c = int(row[f"{area_id}_prize_{i}"])
    return params.prizes[c] if 0 <= c < len(params.prizes) else None


def shapes(area_id: str, params: Params) -> list[tuple[int, int, str] | None]:
    """The grid is drawn as a grid (rows x columns); the legend as spots."""
    return [(params.rows, params.cols, "")] + [None] * (2 if params.calls else 1)


def explain(area_id: str, params: Params, row: Mapping[str, Any],
            currency: Currency = USD) -> tuple[list[str], set[str]]:
    """Why the area pays what it pays (contract section 5), and the cells of the complete lines."""
    names = columns(area_id, params)
    called = {int(row[c]): c for c in names if c.startswith(f"{area_id}_call_")}
    makers = {i: m for i, line in enumerate(params.lines)
              if (m := _maker(params, row, names, line, called)) is not None}
    cells = {names[c] for i in makers for c in params.lines[i]}
    cells |= {called[int(row[c])] for c in cells if int(row[c]) in called}  # the caller's that mark them
    if params.line_prizes or params.shown:
        paid = [(i, m, _line_prize(params, area_id, row, i)) for i, m in makers.items()]
        spots = {f"{area_id}_prize_{i}" for i in makers} if params.shown else set()
        return ([f"{area_id}: line {i + 1} complete ({_text(params.pictures[m]) if m >= 0 else 'called'}): "
                 "its prize, "
                 f"{fmt_cents(p.cents or 0, currency)}." for i, m, p in paid if p is not None], cells | spots)
    prize = next((p for n, p in params.legend if n == len(makers)), None)
    if prize is None:
        return [], set()
    return ([f"{area_id}: {len(makers)} complete line(s) of {_key(params)}: the legend's prize, "
             f"{fmt_cents(prize.cents or 0, currency)}."], cells)


def unpaid_field(params: Params, wins: Sequence[Win]) -> tuple[str, str] | None:
    """The first legend line (or line's prize) no tier's win lists, and why (contract, section 2)."""
    paid = {w.prize.code for w in wins}
    unshown = next((p for p in params.prizes if p.code not in paid), None) if params.shown else None
    if unshown is not None:
        return "prizes", f"no tier wins {unshown.code!r} (no line's prize spot would ever show it)"
    for i, p in enumerate(params.line_prizes):
        if p.code not in paid:
            return f"line_prizes[{i}]", f"no tier wins {p.code!r} (every ticket would print it for line " \
                                        f"{i + 1}, and it could never win)"
    return unpaid_legend_line(params.legend, wins)
