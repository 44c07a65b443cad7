"""A crossword area's grids and the counts tied to them (docs/styles/crossword.md, section 2), refused
as poolgen's loader refuses them, naming the same field: each grid a list of rows of one length, of
`.` and `#` only, at most 30 x 30, holding a word (a run of two or more letter cells across or down),
every letter cell in a word, the words crossing as a forest (no loop); a legend's largest number at
most the words of the grids it counts; at most 2,000,000 sets of YOUR LETTERS; a `labels` list of one
title a section (YOUR LETTERS, each grid, BONUS WORD with a bonus, PRIZE LEGEND: section 9); every word
of 3 to 6 letters (the word list's lengths). A length no listed word spelt in a smaller alphabet has is
left to `check` and step 4."""

from __future__ import annotations

from math import comb
from typing import Any

from audit.errors import UnusableInput

__all__ = ["grid_shape", "grid_words", "refuse_unfit_counts"]

MAX_LETTER_SETS = 2_000_000  # docs/styles/crossword.md, section 2: C(A, L)


def grid_shape(rows: object) -> list[str]:
    """The rows of a grid, or ValueError saying why they are not one (the loader's words): a list of rows
    of one length, of '.' and '#' alone, at most 30 x 30."""
    if not isinstance(rows, list) or not rows or any(not isinstance(r, str) for r in rows):
        raise ValueError("a grid is a list of rows (strings of '.' and '#')")
    w = len(rows[0])
    if w == 0 or any(len(r) != w for r in rows):
        raise ValueError("the rows of a grid are strings of one length")
    if any(ch not in ".#" for r in rows for ch in r):
        raise ValueError("a grid's rows hold only '.' (a letter) and '#' (no cell)")
    if len(rows) > 30 or w > 30:
        raise ValueError("a grid is at most 30 x 30")
    return rows


def _words(grid: object) -> int:
    """The number of words of a grid, or ValueError saying why it is not one (the loader's words)."""
    rows = grid_shape(grid)
    w = len(rows[0])
    cells = [(i, j) for i, r in enumerate(rows) for j, ch in enumerate(r) if ch == "."]
    index = {rc: k for k, rc in enumerate(cells)}
    words: list[list[int]] = []
    for across in (True, False):
        for a in range(len(rows) if across else w):
            run: list[int] = []
            for b in range(w if across else len(rows)):
                k = index.get((a, b) if across else (b, a))
                if k is not None:
                    run.append(k)
                    continue
                words += [run] if len(run) >= 2 else []
                run = []
            words += [run] if len(run) >= 2 else []
    if not words:
        raise ValueError("a grid holds at least one word (a run of two or more letters)")
    for word in words:  # the word list's words are of 3 to 6 letters (section 2)
        if not 3 <= len(word) <= 6:
            raise ValueError(f"a word of {len(word)} letters; the word list has words of 3 to 6 letters")
    owners: dict[int, list[int]] = {k: [] for k in range(len(cells))}
    for s, word in enumerate(words):
        for c in word:
            owners[c].append(s)
    lone = [cells[k] for k, o in owners.items() if not o]
    if lone:
        raise ValueError(f"the letter at row {lone[0][0] + 1}, column {lone[0][1] + 1} is in no word")
    # words and their crossings as a graph: a forest has words - components crossings, a loop more
    crossings = sum(len(o) - 1 for o in owners.values())
    parent = list(range(len(words)))

    def root(s: int) -> int:
        while parent[s] != s:
            s = parent[s]
        return s

    for o in owners.values():
        for t in o[1:]:
            parent[root(t)] = root(o[0])
    if crossings != len(words) - len({root(s) for s in range(len(words))}):
        raise ValueError("the grid's words cross in a loop; the generator fills grids whose words cross "
                         "as a tree")
    return len(words)


def grid_words(area: dict[str, Any], where: str) -> list[int]:
    """The number of words of each of a crossword area's grids; UnusableInput naming the first grid
    that is not one (`areas[i].grids[g]: ...`)."""
    out = []
    for g, rows in enumerate(area["grids"]):
        try:
            out.append(_words(rows))
        except ValueError as exc:
            raise UnusableInput(f"{where}.grids[{g}]: {exc}") from None
    return out


def refuse_unfit_counts(doc: dict[str, Any], area: dict[str, Any], where: str, words: list[int]) -> None:
    """After the area's legends are read (area_lists.py), given its grids' `words`: the legends' largest
    numbers against them, the number of letter sets, and the `labels` count."""
    alphabet = sum(1 for s in doc["symbols"] if s.get("group") == area["alphabet"])
    if "legends" in area:
        for g, legend in enumerate(area["legends"]):
            if legend[-1]["words"] > words[g]:
                raise UnusableInput(f"{where}.legends[{g}]: {legend[-1]['words']} completed words; grid "
                                    f"{g + 1} holds {words[g]}")
    elif area["legend"][-1]["words"] > sum(words):
        raise UnusableInput(f"{where}.legend: {area['legend'][-1]['words']} completed words; the grids hold "
                            f"{sum(words)}")
    if comb(alphabet, area["letters"]) > MAX_LETTER_SETS:
        raise UnusableInput(f"{where}.letters: more than {MAX_LETTER_SETS:,} sets of {area['letters']} "
                            f"letters of {alphabet} to draw from")
    sections = ["YOUR LETTERS", *(f"CROSSWORD {g + 1}" for g in range(len(words)))] + \
        ["BONUS WORD"] * ("bonus" in area) + ["PRIZE LEGEND"]
    labels = area.get("labels")
    if isinstance(labels, list) and len(labels) != len(sections):
        raise UnusableInput(f"{where}.labels: {len(labels)} title(s) for the area's {len(sections)} "
                            f"section(s) ({'; '.join(sections)})")
