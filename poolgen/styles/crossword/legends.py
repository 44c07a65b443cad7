"""A crossword area's prize legends (docs/styles/crossword.md, sections 2 and 10): one `legend` over
all the grids' words, or `legends`, one a grid, each counting its own grid's words; and a tier's
target, the range of completed words each legend's words must number in (section 7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from poolgen.game.model import Symbol
from poolgen.game.play import AreaReading, Win

__all__ = ["Legend", "read_entry", "read_legends", "targets"]

Legend = tuple[tuple[int, Symbol], ...]  # (completed words, prize), by number of words


def read_entry(ctx: AreaReading, item: Any, where: str, keys: tuple[str, str],
               prizes: tuple[Symbol, ...]) -> Symbol:
    """A table `{ <keys[0]>, prize }` (a legend line, the bonus word) checked for its keys, and its prize
    symbol, one of the area's `prizes`; every refusal one line naming the field."""
    r = ctx.r
    if not isinstance(item, dict):
        raise r.fail(where, f"must be a table {{ {', '.join(keys)} }}")
    for key in item:
        if key not in keys:
            raise r.fail(f"{where}.{key}", "unknown field")
    code = r.get(item, "prize", where, str)
    prize = next((s for s in prizes if s.code == code), None)
    if prize is None:
        raise r.fail(f"{where}.prize", f"{code!r} is not one of the area's prize symbols")
    return prize


def _legend(ctx: AreaReading, raw: Any, at: str, prizes: tuple[Symbol, ...]) -> Legend:
    r = ctx.r
    if not isinstance(raw, list) or not raw:
        raise r.fail(at, "list the prize of each number of completed words")
    out: list[tuple[int, Symbol]] = []
    for i, item in enumerate(raw):
        where = f"{at}[{i}]"
        prize = read_entry(ctx, item, where, ("words", "prize"), prizes)
        words = ctx.whole(item, "words", where, 1)
        code = prize.code
        if out and words <= out[-1][0]:
            raise r.fail(f"{where}.words", "the legend lists numbers of words in increasing order")
        if any(p.code == code for _, p in out):
            raise r.fail(f"{where}.prize", f"prize {code!r} is already the legend's for another number")
        out.append((words, prize))
    return tuple(out)


def read_legends(ctx: AreaReading, table: Mapping[str, Any], where: str, prizes: tuple[Symbol, ...],
                 grids: int) -> tuple[tuple[Legend, ...], bool]:
    """(the legends, whether one a grid): `legend` (one, over all the grids) or `legends` (section 10)."""
    r = ctx.r
    if "legends" not in table:
        return (_legend(ctx, r.get(table, "legend", where, list), f"{where}.legend", prizes),), False
    if "legend" in table:
        raise r.fail(f"{where}.legends", "one legend over all the grids (`legend`) or one a grid "
                                         "(`legends`), not both")
    raw = r.get(table, "legends", where, list)
    if len(raw) != grids:
        raise r.fail(f"{where}.legends", f"one legend a grid: {grids} legends, not {len(raw)}")
    out = tuple(_legend(ctx, item, f"{where}.legends[{g}]", prizes) for g, item in enumerate(raw))
    seen: dict[str, int] = {}
    for g, legend in enumerate(out):
        for i, (_, prize) in enumerate(legend):
            if prize.code in seen:
                raise r.fail(f"{where}.legends[{g}][{i}].prize",
                             f"prize {prize.code!r} is grid {seen[prize.code] + 1}'s legend's: a prize "
                             "names its grid, so no code is in two legends")
            seen[prize.code] = g
    return out, True


def targets(legends: Sequence[Legend], wins: tuple[Win, ...]) -> tuple[list[int], list[int]]:
    """(fewest, most) completed words a legend, of a ticket with these wins in the area (sections 7
    and 10): [W, W] where a win is the legend's prize for W, else [0, w1 - 1]."""
    lo, hi = [], []
    codes = {w.prize.code for w in wins if w.how == "match"}
    for legend in legends:
        n = next((n for n, s in legend if s.code in codes), None)
        lo.append(0 if n is None else n)
        hi.append(legend[0][0] - 1 if n is None else n)
    return lo, hi
