"""A crossword area's DOUBLER cells (docs/styles/crossword.md, section 11): one marked letter cell a
grid, drawn with the grids uniformly among its letter cells, the same way whatever the ticket's tier; a
legend's prize won with a completed word holding its grid's doubler cell pays `by` times.

Whether a letter set completes a word holding the cell is asked as the legends' counts are: the words
holding each grid's doubler cell (two a grid, the one word twice where one word holds it) are appended
to the ticket's words as *doubler words*, each legend's counted in a span of its own, whose range is
1 .. all of them (doubled), 0 .. 0 (undoubled) or 0 .. all (no win in that legend)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from poolgen.game.play import AreaReading, Win
from poolgen.rng import Stream, integers
from poolgen.styles.crossword.grids import Grid
from poolgen.styles.crossword.legends import Legend
from poolgen.styles.crossword.words import Lexicon

__all__ = ["MAX_CELLS", "Doubler", "extend", "free_masks", "hits", "mark_name", "pick", "places", "read",
           "through", "word_masks"]

MAX_CELLS = 256  # a grid's doubler cell is a uint8 column: its index among the grid's letter cells

Spans = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Doubler:
    by: tuple[int, ...]  # per legend: a doubled prize of it pays by[i] times
    free: bool | None = None  # a FREE space (True: no letter printed, always matched); None: not written
    listed: bool = False  # `by` written as a list, one k a grid (with `legends`)

    def written(self) -> int | list[int]:
        return list(self.by) if self.listed else self.by[0]


def read(ctx: AreaReading, table: Mapping[str, Any], where: str, grids: Sequence[Grid],
         per_grid: bool) -> Doubler | None:
    """`doubler = { by, free }` (section 11), or None: `by` one k, or with `legends` a list, one k a grid."""
    if "doubler" not in table:
        return None
    raw, at = table["doubler"], f"{where}.doubler"
    if not isinstance(raw, dict):
        raise ctx.r.fail(at, "must be a table { by, free }")
    for key in raw:
        if key not in ("by", "free"):
            raise ctx.r.fail(f"{at}.{key}", "unknown field")
    listed = isinstance(raw.get("by"), list)
    if listed:
        by = raw["by"]
        if not per_grid or len(by) != len(grids) or any(type(k) is not int or not 2 <= k <= 10 for k in by):
            raise ctx.r.fail(f"{at}.by", f"one k a grid, each a whole number 2 to 10 ({len(grids)} of them), "
                                         "with a legend a grid (`legends`)")
    else:
        by = [ctx.whole(raw, "by", at, 2, high=10)] * (len(grids) if per_grid else 1)
    free = raw.get("free")
    if "free" in raw and not isinstance(free, bool):
        raise ctx.r.fail(f"{at}.free", "true (the cell is a free space) or false (a marked letter)")
    for g, grid in enumerate(grids):
        if len(grid.cells) > MAX_CELLS:
            raise ctx.r.fail(f"{where}.grids[{g}]", f"{len(grid.cells)} letter cells: a grid with a doubler "
                                                     f"holds at most {MAX_CELLS}")
    return Doubler(tuple(by), free, listed)


def mark_name(k: int) -> str:
    """The PRIZE LEGEND's name of a doubler cell paying k times (section 11): DOUBLER, TRIPLER, else
    "<k> TIMES" (a CROWN paying TRIPLE was listed as a DOUBLER x3)."""
    return {2: "DOUBLER", 3: "TRIPLER"}.get(k, f"{k} TIMES")


@cache
def places(grid: Grid) -> np.ndarray:
    """(C, 2): per letter cell, its place in each of the words `through` gives."""
    held = through(grid)
    return np.array([[grid.slots[s].cells.index(c) for s in held[c]] for c in range(len(grid.cells))],
                    dtype=np.int64).reshape(-1, 2)


def free_masks(lex: Lexicon, grids: Sequence[Grid], drawn: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """(m, S) the words' letter masks when each row's doubler cells are FREE spaces (section 11): a word
    holding one needs every letter but the one at that cell (unless another of its cells holds it)."""
    masks: np.ndarray = lex.masks[drawn].copy()
    rows, base = np.arange(drawn.shape[0]), 0
    for g, grid in enumerate(grids):
        held, at = through(grid)[cells[:, g]], places(grid)[cells[:, g]]
        for k in (0, 1):
            slot = base + held[:, k]
            letters = lex.letters[drawn[rows, slot]].copy()
            letters[rows, at[:, k]] = -1
            masks[rows, slot] = np.bitwise_or.reduce(np.where(letters >= 0, np.left_shift(1, np.maximum(
                letters, 0)), 0), axis=1)
        base += len(grid.slots)
    return masks


@cache
def through(grid: Grid) -> np.ndarray:
    """(C, 2): per letter cell of the grid, the words holding it (indices among the grid's words); the
    one word twice where a single word holds it."""
    out = np.full((len(grid.cells), 2), -1, dtype=np.int64)
    for s, slot in enumerate(grid.slots):
        for c in slot.cells:
            out[c, 0 if out[c, 0] < 0 else 1] = s
    out[:, 1] = np.where(out[:, 1] < 0, out[:, 0], out[:, 1])
    return out


def pick(grids: Sequence[Grid], m: int, stream: Stream) -> np.ndarray:
    """(m, G): each row's doubler cell of every grid, grid after grid, uniform among its letter cells
    (`integers`, one per row, all the rows at once; section 11, layout)."""
    return np.stack([integers(stream, len(g.cells), size=m) for g in grids], axis=1)


def word_masks(grids: Sequence[Grid], masks: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """(m, 2G): the letter masks of the words holding each row's doubler cells, two a grid."""
    parts, base = [], 0
    for g, grid in enumerate(grids):
        held = through(grid)[cells[:, g]] + base
        parts.append(np.take_along_axis(masks, held, axis=1))
        base += len(grid.slots)
    return np.concatenate(parts, axis=1)


def hits(legends: Sequence[Legend], wins: Sequence[Win], by: Sequence[int]) -> list[bool | None]:
    """Per legend: True when the tier's win of it is doubled, False when undoubled, None when the tier
    has no win of that legend."""
    out: list[bool | None] = []
    for legend, k in zip(legends, by, strict=True):
        win = next((w for w in wins if w.how == "match" and any(s.code == w.prize.code for _, s in legend)),
                   None)
        out.append(None if win is None else win.by == k)
    return out


def extend(grids: Sequence[Grid], spans: Spans, lo: np.ndarray, hi: np.ndarray,
           wanted: Sequence[bool | None]) -> tuple[Spans, np.ndarray, np.ndarray]:
    """The spans, lo and hi ((m, spans)) with one span of doubler words a legend appended (after all the
    words: the doubler words of the grids the legend counts), in the range `wanted` asks."""
    total = sum(len(g.slots) for g in grids)
    starts = np.cumsum([0] + [len(g.slots) for g in grids]).tolist()
    extra: list[tuple[int, int]] = []
    low, high = [], []
    for (a, b), hit in zip(spans, wanted, strict=True):
        first, end = starts.index(a), starts.index(b)
        extra.append((total + 2 * first, total + 2 * end))
        low.append(1 if hit else 0)
        high.append(0 if hit is False else 2 * (end - first))
    m = lo.shape[0]
    return (tuple(spans) + tuple(extra), np.concatenate([lo, np.tile(low, (m, 1))], axis=1),
            np.concatenate([hi, np.tile(high, (m, 1))], axis=1))
