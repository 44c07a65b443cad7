"""A crossword grid's template (docs/styles/crossword.md, sections 2 and 7): rows of `.` (a letter
cell) and `#` (no cell); its words are the maximal runs of two or more letter cells across and down,
and the order the generator fills them in (each after the one it crosses, so one crossing letter is
known when a word is drawn)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Grid", "Slot", "read_grid"]


@dataclass(frozen=True)
class Slot:
    """One word of a grid: its cells (indices into the grid's letter cells, in reading order)."""

    cells: tuple[int, ...]
    across: bool


@dataclass(frozen=True)
class Grid:
    rows: tuple[str, ...]
    cells: tuple[tuple[int, int], ...]  # the letter cells (row, column), in reading order
    slots: tuple[Slot, ...]  # across words in reading order, then down words in reading order
    order: tuple[int, ...]  # the fill order (section 7): slot indices
    parent: tuple[tuple[int, int, int] | None, ...]  # per slot: (earlier slot, its position, mine) or None


def _runs(rows: Sequence[str], index: dict[tuple[int, int], int]) -> list[Slot]:
    h, w = len(rows), len(rows[0])
    slots: list[Slot] = []
    for across in (True, False):
        lines = range(h) if across else range(w)
        for a in lines:
            run: list[int] = []
            for b in range(w if across else h):
                rc = (a, b) if across else (b, a)
                if rc in index:
                    run.append(index[rc])
                    continue
                if len(run) >= 2:
                    slots.append(Slot(tuple(run), across))
                run = []
            if len(run) >= 2:
                slots.append(Slot(tuple(run), across))
    # across words in reading order of their first cells, then down words in that order
    return sorted(slots, key=lambda s: (not s.across, s.cells[0]))


def read_grid(rows: Sequence[str], lengths: frozenset[int]) -> Grid:
    """The grid of a template, or ValueError saying why it is not one the generator can fill."""
    if not rows or any(not isinstance(r, str) for r in rows):
        raise ValueError("a grid is a list of rows (strings of '.' and '#')")
    w = len(rows[0])
    if w == 0 or any(len(r) != w for r in rows):
        raise ValueError("the rows of a grid are strings of one length")
    if any(ch not in ".#" for r in rows for ch in r):
        raise ValueError("a grid's rows hold only '.' (a letter) and '#' (no cell)")
    if len(rows) > 30 or w > 30:
        raise ValueError("a grid is at most 30 x 30")
    cells = tuple((i, j) for i, r in enumerate(rows) for j, ch in enumerate(r) if ch == ".")
    index = {rc: k for k, rc in enumerate(cells)}
    slots = _runs(rows, index)
    if not slots:
        raise ValueError("a grid holds at least one word (a run of two or more letters)")
    owners: dict[int, list[tuple[int, int]]] = {k: [] for k in range(len(cells))}
    for s, slot in enumerate(slots):
        if len(slot.cells) not in lengths:
            raise ValueError(f"a word of {len(slot.cells)} letters; the word list has words of "
                             f"{min(lengths)} to {max(lengths)} letters")
        for pos, c in enumerate(slot.cells):
            owners[c].append((s, pos))
    lone = [cells[k] for k, o in owners.items() if not o]
    if lone:
        r, c = lone[0]
        raise ValueError(f"the letter at row {r + 1}, column {c + 1} is in no word")
    order, parent = _order(slots, owners)
    return Grid(tuple(rows), cells, tuple(slots), order, parent)


def _order(slots: Sequence[Slot], owners: dict[int, list[tuple[int, int]]]
           ) -> tuple[tuple[int, ...], tuple[tuple[int, int, int] | None, ...]]:
    """Breadth-first from the first unplaced word in slot order; ValueError if the words' crossings
    close a loop (a word would meet two placed words)."""
    parent: list[tuple[int, int, int] | None] = [None] * len(slots)
    placed: set[int] = set()
    order: list[int] = []
    for root in range(len(slots)):
        if root in placed:
            continue
        placed.add(root)
        queue = [root]
        while queue:
            s = queue.pop(0)
            order.append(s)
            up = parent[s]
            for pos, c in enumerate(slots[s].cells):
                for t, tpos in owners[c]:
                    if t == s or up is not None and up[0] == t:
                        continue
                    if t in placed:
                        raise ValueError("the grid's words cross in a loop; the generator fills grids "
                                         "whose words cross as a tree")
                    placed.add(t)
                    parent[t] = (s, pos, tpos)
                    queue.append(t)
    return tuple(order), tuple(parent)
