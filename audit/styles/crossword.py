"""Crossword, evaluated from docs/styles/crossword.md (sections 3 to 6) alone.

A grid's words are its maximal runs of two or more letter cells across and down; a word is completed
when YOUR LETTERS hold all its letters; the number completed across all grids wins the legend's prize
for that number. A row is illegal (section 5, rules 1 to 4, in this order) when a code is out of
range, YOUR LETTERS repeat a letter, a grid word is not in the entry's word list, or the number of
completed words is one the legend does not price (at or above its smallest number). An area with a
BONUS WORD (section 9) shows its letters too: completed when YOUR LETTERS hold them all, it wins its
own prize besides (a second place to win, `how` "bonus"); rule 5 refuses one not a listed word. An
area with `legends` (section 10) counts each grid's words for its own legend: one place to win a grid.
An area with a `doubler` (section 11) marks one letter cell a grid: a legend's win with a completed word
of its grids holding its grid's marked cell is `by` the doubler's k."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns

MAX_WORD = 12  # the longest listed word the entry may hold (section 3)


def _unreadable(aid: object, what: str) -> ValueError:
    return ValueError(f"manifest play entry: area {aid!r}: {what}")


Entry = tuple[list[str], int, list[list[str]], list[Any], list[list[tuple[int, int]]], list[str],
              tuple[int, int] | None]  # the legends: one over all the grids, or one a grid (`legends`)
MAX_BY = 10  # a doubler's k: 2 .. MAX_BY (section 11)


def _read(area: dict[str, Any]) -> Entry:
    aid = area["id"]
    alphabet, letters, grids = area.get("alphabet"), area.get("letters"), area.get("grids")
    prizes, legend, words = area.get("prizes"), area.get("legend"), area.get("words")
    capitals = isinstance(alphabet, list) and all(isinstance(x, str) and len(x) == 1 and "A" <= x <= "Z"
                                                  for x in alphabet)
    if not (capitals and alphabet and len(set(alphabet)) == len(alphabet)):
        raise _unreadable(aid, "alphabet is not a list of distinct capital letters")
    if type(letters) is not int or not 1 <= letters <= len(alphabet):
        raise _unreadable(aid, "letters is not 1 .. the alphabet's size")
    def _grid(g: object) -> bool:
        return isinstance(g, list) and bool(g) and all(
            isinstance(r, str) and r and len(r) == len(g[0]) and set(r) <= {".", "#"} for r in g)

    if not (isinstance(grids, list) and grids and all(_grid(g) for g in grids)):
        raise _unreadable(aid, "grids are not lists of rows of '.' and '#' of one length")
    if not (isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and type(p.get("cents")) is int for p in prizes)):
        raise _unreadable(aid, "prizes unreadable")
    codes = [p.get("code") for p in prizes]
    if "legends" in area:
        many = area["legends"]
        if "legend" in area or not isinstance(many, list) or len(many) != len(grids):
            raise _unreadable(aid, "legends is not one legend a grid (and no legend)")
        tables = [_legend(aid, one, codes) for one in many]
        used = [p for table in tables for _, p in table]
        if len(set(used)) != len(used):
            raise _unreadable(aid, "a prize is in two legends")
    else:
        tables = [_legend(aid, legend, codes)]
    letters_set = set(alphabet)
    if not (isinstance(words, list)
            and all(isinstance(w, str) and 2 <= len(w) <= MAX_WORD and set(w) <= letters_set for w in words)):
        raise _unreadable(aid, f"words are not words of 2 to {MAX_WORD} letters of the alphabet")
    return alphabet, letters, grids, prizes, tables, words, _bonus(aid, area, codes)


def _legend(aid: object, legend: object, codes: list[Any]) -> list[tuple[int, int]]:
    """A legend as (number of words, its prize's index in `prizes`), in its order."""
    table: list[tuple[int, int]] = []
    if not isinstance(legend, list) or not legend:
        raise _unreadable(aid, "legend is not a list")
    for item in legend:
        n = item.get("words") if isinstance(item, dict) else None
        prize = item.get("prize") if isinstance(item, dict) else None
        if type(n) is not int or n < 1 or (table and n <= table[-1][0]) or prize not in codes:
            raise _unreadable(aid, "legend's numbers not increasing, or a prize not one of its prizes")
        table.append((n, codes.index(prize)))
    return table


def _doubler(area: dict[str, Any], grids: int) -> tuple[list[int], bool] | None:
    """The entry's `doubler` (section 11) as (its k for each legend, whether its cells are free spaces),
    or None: `by` one k, or with `legends` a list of one k a grid."""
    if "doubler" not in area:
        return None
    raw = area["doubler"]
    by = raw.get("by") if isinstance(raw, dict) else None
    free = raw.get("free", False) if isinstance(raw, dict) else None
    per_grid = "legends" in area
    ks: list[Any] = by if isinstance(by, list) and per_grid and len(by) == grids else \
        [by] * (grids if per_grid else 1)
    if not isinstance(raw, dict) or not {"by"} <= set(raw) <= {"by", "free"} or not isinstance(free, bool) \
            or any(type(k) is not int or not 2 <= k <= MAX_BY for k in ks):
        raise _unreadable(area["id"], f"doubler is not {{by: 2 to {MAX_BY} (or with legends one a grid), "
                                      "free: true or false (optional)}")
    return ks, free


def _bonus(aid: object, area: dict[str, Any], codes: list[Any]) -> tuple[int, int] | None:
    """The entry's `bonus` (section 9) as (its length, its prize's index in `prizes`), or None."""
    if "bonus" not in area:
        return None
    bonus = area["bonus"]
    length = bonus.get("length") if isinstance(bonus, dict) else None
    prize = bonus.get("prize") if isinstance(bonus, dict) else None
    if not isinstance(bonus, dict) or set(bonus) != {"length", "prize"} or type(length) is not int \
            or not 2 <= length <= MAX_WORD or prize not in codes:
        raise _unreadable(aid, f"bonus is not {{length: 2 to {MAX_WORD}, prize: one of its prizes}}")
    return length, codes.index(prize)


def _words_of(grid: list[str]) -> list[list[int]]:
    """A grid's words as lists of its cell numbers (reading order): across in reading order of their
    first cells, then down likewise."""
    number: dict[tuple[int, int], int] = {}
    for i, row in enumerate(grid):
        for j, ch in enumerate(row):
            if ch == ".":
                number[(i, j)] = len(number)
    h, w = len(grid), len(grid[0])
    across: list[list[int]] = []
    down: list[list[int]] = []
    for i in range(h):
        for j in range(w):
            if (i, j) in number and (i, j - 1) not in number and (i, j + 1) in number:
                run = []
                k = j
                while (i, k) in number:
                    run.append(number[(i, k)])
                    k += 1
                across.append(run)
            if (i, j) in number and (i - 1, j) not in number and (i + 1, j) in number:
                run = []
                k = i
                while (k, j) in number:
                    run.append(number[(k, j)])
                    k += 1
                down.append(run)
    return across + down


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    alphabet, n_letters, grids, prizes, legends, words, bonus = _read(area)
    doubler = _doubler(area, len(grids))
    a = len(alphabet)
    n = table.height
    cells_per = [sum(r.count(".") for r in g) for g in grids]
    letter_cols = [f"{aid}_letter_{j}" for j in range(n_letters)]
    cell_cols = [f"{aid}_cell_{j}" for j in range(sum(cells_per))]
    bonus_cols = [f"{aid}_bonus_{j}" for j in range(bonus[0] if bonus else 0)]
    shown = int_columns(table, letter_cols).astype(np.int64)
    cells = int_columns(table, cell_cols).astype(np.int64)
    extra = int_columns(table, bonus_cols).astype(np.int64) if bonus else np.zeros((n, 0), dtype=np.int64)
    marked_cols = [f"{aid}_doubler_{g}" for g in range(len(grids) if doubler else 0)]
    marked = int_columns(table, marked_cols).astype(np.int64) if doubler else np.zeros((n, 0), np.int64)
    names = letter_cols + cell_cols + bonus_cols + marked_cols
    both = np.concatenate([shown, cells, extra], axis=1)
    sizes = np.array(cells_per[:marked.shape[1]], dtype=np.int64)  # a doubler column's range: its grid's
    bad = np.concatenate([(both < 0) | (both >= a), (marked < 0) | (marked >= sizes)], axis=1)
    reasons.add(bad.any(axis=1), lambda r: f"{aid}: a code out of range in "
                                           f"{', '.join(names[j] for j in np.flatnonzero(bad[r]))}")
    ok_shown = np.where((shown >= 0) & (shown < a), shown, a)  # a: no letter
    have = np.zeros(n, dtype=np.int64)
    for j in range(n_letters):
        have |= np.where(ok_shown[:, j] < a, np.left_shift(np.int64(1), np.minimum(ok_shown[:, j], 62)), 0)
    twice = np.zeros(n, dtype=bool)
    for j in range(n_letters):
        for k in range(j):
            twice |= (ok_shown[:, j] == ok_shown[:, k]) & (ok_shown[:, j] < a)
    reasons.add(twice, lambda r: f"{aid}: YOUR LETTERS show a letter twice")

    base = a + 1  # packed words: letter c as digit c + 1, base a + 1
    digit = {ch: i + 1 for i, ch in enumerate(alphabet)}
    listed = np.unique(np.array([sum(digit[ch] * base ** i for i, ch in enumerate(w))
                                 for w in words], dtype=np.int64))
    completed = np.zeros((n, len(grids)), dtype=np.int64)  # by grid
    hit = np.zeros((n, len(grids)), dtype=bool)  # by grid: a completed word holds its doubler cell
    unlisted: list[tuple[np.ndarray, int, list[int]]] = []
    offset = 0
    for g, grid in enumerate(grids):
        for run in _words_of(grid):
            codes = cells[:, [offset + c for c in run]]
            in_range = (codes >= 0) & (codes < a)
            done = np.ones(n, dtype=bool)
            for k in range(len(run)):
                bit = np.left_shift(np.int64(1), np.clip(codes[:, k], 0, 62))
                free = (marked[:, g] == run[k]) if doubler and doubler[1] else False  # always matched
                done &= (in_range[:, k] & ((have & bit) != 0)) | free
            completed[:, g] += done
            if doubler:
                hit[:, g] |= done & np.isin(marked[:, g], run)
            if len(run) > MAX_WORD:
                is_listed = np.zeros(n, dtype=bool)
            else:
                weight = base ** np.arange(len(run), dtype=np.int64)
                packed = ((np.clip(codes, 0, a - 1) + 1) * weight).sum(axis=1)
                is_listed = in_range.all(axis=1) & np.isin(packed, listed)
            unlisted.append((~is_listed, g, [offset + c for c in run]))
        offset += cells_per[g]

    def _unlisted(r: int) -> str:
        found = []
        for miss, g, run in unlisted:
            if miss[r]:
                text = "".join(alphabet[v] if 0 <= v < a else "?" for v in cells[r, run])
                found.append(f"grid {g + 1} holds {text}, not a listed word")
        return f"{aid}: " + ", ".join(found)

    reasons.add(np.logical_or.reduce([m for m, _, _ in unlisted]), _unlisted)
    per_grid = "legends" in area
    counted = [completed[:, g] for g in range(len(grids))] if per_grid else [completed.sum(axis=1)]
    doubled: list[np.ndarray] = [hit[:, g] for g in range(len(grids))] if per_grid else [np.any(hit, axis=1)]
    cents = np.array([int(p["cents"]) for p in prizes], dtype=np.int64)
    slots, unpriced = [], []
    ks = doubler[0] if doubler else [1] * len(legends)
    for legend, words_done, twice, k in zip(legends, counted, doubled, ks, strict=True):
        counts = np.array([w for w, _ in legend], dtype=np.int64)
        unpriced.append(~np.isin(words_done, counts) & (words_done >= counts[0]))
        prize_of = np.full(int(words_done.max(initial=0)) + 1, -1, dtype=np.int64)
        for w, p in legend:
            if w < prize_of.size:
                prize_of[w] = p
        prize = prize_of[words_done]
        slots.append(Slot(won=prize >= 0, how=np.full(n, HOWS.index("match"), dtype=np.int64),
                          by=np.where(twice & (prize >= 0), k, 1).astype(np.int64),
                          prize=np.maximum(prize, 0),
                          cents=np.where(prize >= 0, cents[np.maximum(prize, 0)], 0)))

    def _unpriced(r: int) -> str:
        said = [f"{int(counted[g][r])} completed words: the legend has no prize for {int(counted[g][r])}"
                if not per_grid else
                f"grid {g + 1}: {int(counted[g][r])} completed words: its legend has no prize for "
                f"{int(counted[g][r])}" for g in range(len(counted)) if unpriced[g][r]]
        return f"{aid}: " + ", ".join(said)

    reasons.add(np.logical_or.reduce(unpriced), _unpriced)
    if bonus is None:
        return slots
    in_range = (extra >= 0) & (extra < a)
    weight = base ** np.arange(bonus[0], dtype=np.int64)
    packed = ((np.clip(extra, 0, a - 1) + 1) * weight).sum(axis=1)
    unlisted_bonus = ~(in_range.all(axis=1) & np.isin(packed, listed))
    reasons.add(unlisted_bonus, lambda r: f"{aid}: the bonus word "
                                          f"{''.join(alphabet[v] if 0 <= v < a else '?' for v in extra[r])} "
                                          "is not a listed word")
    spelt = np.asarray(in_range.all(axis=1))
    for k in range(bonus[0]):
        spelt &= (have & np.left_shift(np.int64(1), np.clip(extra[:, k], 0, 62))) != 0
    slots.append(Slot(won=spelt, how=np.full(n, HOWS.index("bonus"), dtype=np.int64),
                      by=np.ones(n, dtype=np.int64), prize=np.full(n, bonus[1], dtype=np.int64),
                      cents=np.where(spelt, cents[bonus[1]], 0)))
    return slots
