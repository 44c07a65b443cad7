"""The placements of a lines area (docs/styles/lines.md, section 7, step 1): which cells show which
line-making symbol, every one enumerated, and the lines each completes; and the decoys' rule 2.

A placement is a number read in base K, digit k (least significant first) the class of cell k. The
classes: a decoy (class 0, only when the area has decoy pictures), then the area's line-making symbols
in their order. One symbol with decoys is K = 2, bit k set when cell k shows the symbol."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from poolgen.game.model import Symbol
from poolgen.game.play import Win
from poolgen.rng import derive_stream, integers

MAX_PLACEMENTS = 1 << 20  # K ** (R x C) placements are enumerated
PROBE = 4096  # decoy draws `check` makes: at least 4 must make no line of one decoy (section 2)


@dataclass(frozen=True)
class Params:
    rows: int
    cols: int
    pictures: tuple[Symbol, ...]
    symbols: tuple[int, ...]  # the line-making pictures (indices into pictures), in the spec's order
    lines: tuple[tuple[int, ...], ...]
    prizes: tuple[Symbol, ...]
    legend: tuple[tuple[int, Symbol], ...]  # (complete lines, prize), increasing; () with line_prizes
    line_prizes: tuple[Symbol, ...] = ()  # the prize printed for each line, in the lines' order; or ()
    shown: bool = False  # line_prizes = "shown": each line's prize spot shows a prize of `prizes`
    several: bool = False  # the spec named `symbols` (a list), not one `symbol`
    calls: int = 0  # a caller's pictures mark the cells (section 1b; then `symbols` is ()), or 0

    @property
    def marks(self) -> bool:
        """The placement's classes are unmarked (0) and marked (1): one symbol with decoys, or a caller."""
        return bool(self.decoys) or bool(self.calls)

    @property
    def decoys(self) -> tuple[int, ...]:
        """The pictures that make no line, in the pictures' order (none with a caller: section 1b)."""
        if self.calls:
            return ()
        return tuple(i for i in range(len(self.pictures)) if i not in self.symbols)

    @property
    def base(self) -> int:
        """K: the number of classes a cell may be of."""
        if self.calls:
            return 2
        return len(self.symbols) + (1 if self.decoys else 0)

    @property
    def class_pictures(self) -> np.ndarray:
        """The picture of each class (-1: a decoy, drawn in step 2)."""
        return np.array(([-1] if self.decoys else []) + list(self.symbols), dtype=np.int64)


@cache
def placements(cells: int, lines: tuple[tuple[int, ...], ...], base: int = 2, decoys: bool = True
               ) -> tuple[np.ndarray, np.ndarray]:
    """Every placement's classes (placements x cells, in increasing order of the placement's number)
    and which lines it completes (placements x lines)."""
    sets = np.arange(base ** cells, dtype=np.int64)
    classes = np.stack([(sets // base ** k) % base for k in range(cells)], axis=1).astype(np.int8)
    low = 1 if decoys else 0  # the first class of a symbol
    done = np.zeros((sets.size, len(lines)), dtype=bool)
    for i, line in enumerate(lines):
        first = classes[:, line[0]]
        done[:, i] = (first >= low) & (classes[:, list(line)] == first[:, None]).all(axis=1)
    return classes, done


def of(params: Params) -> tuple[np.ndarray, np.ndarray]:
    """The area's placements (classes, complete lines)."""
    return placements(params.rows * params.cols, params.lines, params.base, params.marks)


def _distinct(params: Params) -> tuple[list[str], tuple[int, ...]]:
    """The distinct codes of line_prizes (first seen first) and each line's index among them."""
    codes = list(dict.fromkeys(s.code for s in params.line_prizes))
    return codes, tuple(codes.index(s.code) for s in params.line_prizes)


def valid_sets(params: Params, wins: Sequence[Win]) -> np.ndarray:
    """The placements (their numbers, increasing) that complete exactly what `wins` (a tier's wins in the
    area, none for a loser) pay: section 7, step 1."""
    _, done = of(params)
    if not params.line_prizes:
        target = len(wins) if params.shown else \
            next(c for c, s in params.legend if s.code == wins[0].prize.code) if wins else 0
        return _shown(params, np.flatnonzero(done.sum(axis=1) == target))
    codes, prize_of = _distinct(params)
    want = np.zeros(len(codes), dtype=np.int64)
    for w in wins:
        want[codes.index(w.prize.code)] += 1
    paid = np.zeros((done.shape[0], len(codes)), dtype=np.int64)
    for i, p in enumerate(prize_of):
        paid[:, p] += done[:, i]
    return _shown(params, np.flatnonzero((paid == want).all(axis=1)))


@cache
def marked(cells: int) -> np.ndarray:
    """Each placement's number of marked cells (class 1), placements of base 2 in increasing order."""
    sets = np.arange(1 << cells, dtype=np.int64)
    out: np.ndarray = np.sum([(sets >> k) & 1 for k in range(cells)], axis=0).astype(np.int64)
    return out


def feasible(params: Params) -> np.ndarray:
    """Section 1b: whether some caller and board show each placement: its m marked cells at most the
    calls, its other cells at most the pictures not called (a board shows a picture at most once)."""
    cells = params.rows * params.cols
    m = marked(cells)
    out: np.ndarray = (m <= params.calls) & (cells - m <= len(params.pictures) - params.calls)
    return out


def _shown(params: Params, sets: np.ndarray) -> np.ndarray:
    """`sets` less, with a caller, the placements no caller and board show."""
    out: np.ndarray = sets[feasible(params)[sets]] if params.calls else sets
    return out


def decoy_lines(draw: np.ndarray, lines: tuple[tuple[int, ...], ...], symbols: Sequence[int]) -> np.ndarray:
    """Per row: whether some line shows one decoy picture (none of `symbols`) in every cell."""
    found = np.zeros(draw.shape[0], dtype=bool)
    for line in lines:
        first = draw[:, line[0]]
        found |= ~np.isin(first, symbols) & (draw[:, list(line)] == first[:, None]).all(axis=1)
    return found


def decoys_fit(decoys: int, cells: int, lines: tuple[tuple[int, ...], ...]) -> int:
    """How many of PROBE uniform decoy grids (no symbol) show no line of one decoy (fixed stream)."""
    stream = derive_stream(bytes(32), "lines", "check")
    draw = integers(stream, decoys, size=PROBE * cells).reshape(PROBE, cells)
    return int((~decoy_lines(draw, lines, [-1])).sum())
