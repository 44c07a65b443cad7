"""A third engine for plays of `crossword` (its doubler cells too), `lines` and `add_up` areas (and the
`bonus_reveal` area beside a crossword, through printed.py's), from docs/styles/crossword.md, lines.md,
add_up.md and docs/styles/play.md alone.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards it): given a
manifest's `play` entry and a pool table, it gives every row's wins and the reasons an illegal row is
refused, worded as the contracts state them."""

from __future__ import annotations

import polars as pl

from .printed import bonus_reveal_row, verdicts

Win = tuple[str, str, int, str]  # (area, how, by, prize code)


def _inside(value: int | None, size: int) -> bool:
    return value is not None and 0 <= value < size


def _shown(value: int | None) -> str:
    return "null" if value is None else "negative" if value < 0 else ">=9999" if value >= 9999 else str(value)


def words_of(grid: list[str]) -> list[list[tuple[int, int]]]:
    """A grid's words (crossword.md sections 2 and 5): maximal runs of two or more letter cells, the
    across words in reading order of their first cells, then the down words likewise; each word its
    cells as (row, column)."""
    rows, cols = len(grid), len(grid[0])
    across, down = [], []
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != ".":
                continue
            if c == 0 or grid[r][c - 1] != ".":
                run = [(r, k) for k in range(c, cols) if all(grid[r][j] == "." for j in range(c, k + 1))]
                if len(run) >= 2:
                    across.append(run)
            if r == 0 or grid[r - 1][c] != ".":
                run = [(k, c) for k in range(r, rows) if all(grid[j][c] == "." for j in range(r, k + 1))]
                if len(run) >= 2:
                    down.append(run)
    return across + down


_WORD_CELLS: dict[tuple[tuple[str, ...], ...], list[tuple[int, tuple[int, ...]]]] = {}


def _word_cells(grids: tuple[tuple[str, ...], ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Every word of the grids in order, as (grid index, its cells' indices among all the grids' letter
    cells, numbered in reading order grid by grid): the same for every row of an area, so worked out once
    per area (kept in _WORD_CELLS), not once per row."""
    if grids in _WORD_CELLS:
        return _WORD_CELLS[grids]
    out, base = [], 0
    for g, grid in enumerate(grids):
        number = {}  # (row, col) -> the cell's index among all the grids' letter cells
        for r, line in enumerate(grid):
            for c, ch in enumerate(line):
                if ch == ".":
                    number[(r, c)] = base + len(number)
        out += [(g, tuple(number[rc] for rc in word)) for word in words_of(list(grid))]
        base += len(number)
    _WORD_CELLS[grids] = out
    return out


_LISTED: list[tuple[list[str], frozenset[str]]] = []


def _listed(words: list[str]) -> frozenset[str]:
    """An area's listed words as a set: the same for every row of the area, so made once per word list
    (the last one kept in _LISTED, with the list itself: a lexicon of thousands of words, not rebuilt
    for every row of every table judged)."""
    if not _LISTED or _LISTED[0][0] is not words:
        _LISTED[:] = [(words, frozenset(words))]
    return _LISTED[0][1]


def crossword_row(area: dict, letters: list[int | None], cells: list[int | None],
                  *rest: list[int | None]) -> tuple[list[Win], list[str]]:
    """One crossword area of one row (crossword.md sections 5, 9, 10 and 11); `rest`: the bonus word's
    letters (an area with one), then the doubler cells (an area with a doubler)."""
    bonus = rest[0] if "bonus" in area else []
    marks = rest[-1] if "doubler" in area else []
    aid, alphabet = area["id"], area["alphabet"]
    a = len(alphabet)
    sizes = [sum(line.count(".") for line in grid) for grid in area["grids"]]
    starts = [sum(sizes[:g]) for g in range(len(sizes))]
    reasons = []
    out = [f"{aid}_letter_{j}" for j, v in enumerate(letters) if not _inside(v, a)]
    out += [f"{aid}_cell_{k}" for k, v in enumerate(cells) if not _inside(v, a)]
    out += [f"{aid}_bonus_{k}" for k, v in enumerate(bonus) if not _inside(v, a)]
    out += [f"{aid}_doubler_{g}" for g, v in enumerate(marks) if not _inside(v, sizes[g])]
    # each grid's doubler cell among all the grids' letter cells (None: out of range, in no word)
    marked = [starts[g] + v if v is not None and _inside(v, sizes[g]) else None for g, v in enumerate(marks)]
    if out:
        reasons.append(f"{aid}: a code out of range in {', '.join(out)}")
    shown = [v for v in letters if _inside(v, a)]
    if len(set(shown)) < len(shown):
        reasons.append(f"{aid}: YOUR LETTERS show a letter twice")
    held = set(shown)
    listed = _listed(area["words"])
    bad, completed = [], [0] * len(area["grids"])  # completed words by grid
    hit = [False] * len(area["grids"])  # by grid: a completed word holds its doubler cell (section 11)
    for g, word in _word_cells(tuple(tuple(grid) for grid in area["grids"])):
        codes = [cells[k] for k in word]
        text = "".join(alphabet[v] if _inside(v, a) else "?" for v in codes)
        if text not in listed:
            bad.append(f"grid {g + 1} holds {text}, not a listed word")
        free = (area.get("doubler") or {}).get("free") is True  # a free doubler cell is always matched
        done = all((_inside(cells[k], a) and cells[k] in held) or (free and k == marked[g]) for k in word)
        completed[g] += done
        hit[g] |= done and bool(marked) and marked[g] in word
    if bad:
        reasons.append(f"{aid}: {', '.join(bad)}")
    # one legend over all the grids, or one a grid (crossword.md section 10)
    per_grid = "legends" in area
    counted = list(zip(area["legends"], completed, hit, strict=True)) if per_grid else \
        [(area["legend"], sum(completed), any(hit))]
    by = area["doubler"]["by"] if "doubler" in area else 1  # one k, or one a grid (with `legends`)
    ks = by if isinstance(by, list) else [by] * len(counted)
    unpriced, wins = [], []
    for g, (legend, done, doubled) in enumerate(counted):
        prizes = {e["words"]: e["prize"] for e in legend}
        if done >= min(prizes) and done not in prizes:
            unpriced.append(f"grid {g + 1}: {done} completed words: its legend has no prize for {done}"
                            if per_grid else f"{done} completed words: the legend has no prize for {done}")
        if done in prizes:
            wins.append((aid, "match", ks[g] if doubled else 1, prizes[done]))
    if unpriced:
        reasons.append(f"{aid}: {', '.join(unpriced)}")
    if "bonus" in area:
        word = "".join(alphabet[v] if _inside(v, a) else "?" for v in bonus)
        if word not in listed:
            reasons.append(f"{aid}: the bonus word {word} is not a listed word")
        if all(_inside(v, a) and v in held for v in bonus):
            wins.append((aid, "bonus", 1, area["bonus"]["prize"]))
    return wins, reasons


def lines_row(area: dict, cells: list[int | None], spots: list[int | None] | None = None
              ) -> tuple[list[Win], list[str]]:
    """One lines area of one row (lines.md section 5): a line is complete when its cells all show the
    symbol, or (`symbols`) one of the symbols alike."""
    aid, pictures = area["id"], area["pictures"]
    makers = {pictures.index(c) for c in (area["symbols"] if "symbols" in area else [area["symbol"]])}
    reasons = []
    if not all(_inside(v, len(pictures)) for v in cells):
        reasons.append(f"{aid}: a cell code out of range ({', '.join(_shown(v) for v in cells)})")
    alone = []
    for i, line in enumerate(area["lines"]):
        shown = {cells[k] for k in line}
        if len(shown) == 1:
            (v,) = shown
            if _inside(v, len(pictures)) and v not in makers:
                alone.append(f"{aid}: line {i + 1} shows {pictures[v]} alone")
    if alone:
        reasons.append(", ".join(alone))
    done = [len({cells[k] for k in line}) == 1 and cells[line[0]] in makers for line in area["lines"]]
    if spots is not None:  # a prize spot a line (rule 4): a complete line wins the prize its spot shows
        prizes = area["prizes"]
        if not all(_inside(v, len(prizes)) for v in spots):
            reasons.append(f"{aid}: a prize spot code out of range ({', '.join(_shown(v) for v in spots)})")
        return [(aid, "match", 1, prizes[v]["code"]) for d, v in zip(done, spots, strict=True)
                if d and _inside(v, len(prizes))], reasons
    if "line_prizes" in area:  # each complete line wins the prize printed for it (section 5)
        return [(aid, "match", 1, p) for d, p in zip(done, area["line_prizes"], strict=True) if d], reasons
    complete = sum(done)
    prizes = {e["lines"]: e["prize"] for e in area["legend"]}
    if complete >= min(prizes) and complete not in prizes:
        reasons.append(f"{aid}: {complete} complete lines: the legend has no prize for {complete}")
    return ([(aid, "match", 1, prizes[complete])] if complete in prizes else []), reasons


def add_up_row(area: dict, spots: list[int | None], prize: list[int | None]) -> tuple[list[Win], list[str]]:
    """One add_up area of one row (add_up.md section 5): a game with a code out of range wins nothing."""
    aid, numbers, prizes, s = area["id"], area["numbers"], area["prizes"], area["spots"]
    out = [f"{aid}_spot_{k}" for k, v in enumerate(spots) if not _inside(v, len(numbers))]
    out += [f"{aid}_prize_{g}" for g, v in enumerate(prize) if not _inside(v, len(prizes))]
    reasons = [f"{aid}: a code out of range in {', '.join(out)}"] if out else []
    wins: list[Win] = []
    for g, q in enumerate(prize):
        game = spots[g * s: g * s + s]
        if not _inside(q, len(prizes)) or not all(_inside(v, len(numbers)) for v in game):
            continue
        total = sum(int(numbers[v]) for v in game if v is not None)
        if total >= area["target"] if area["reach"] == "at_least" else total == area["target"]:
            wins.append((aid, "match", 1, prizes[q]["code"]))
    return wins, reasons


def _columns(area: dict) -> list[list[str]]:
    aid = area["id"]
    if area["style"] == "crossword":
        cells = sum(line.count(".") for grid in area["grids"] for line in grid)
        bonus = [[f"{aid}_bonus_{k}" for k in range(area["bonus"]["length"])]] if "bonus" in area else []
        marks = [[f"{aid}_doubler_{g}" for g in range(len(area["grids"]))]] if "doubler" in area else []
        return [[f"{aid}_letter_{j}" for j in range(area["letters"])],
                [f"{aid}_cell_{k}" for k in range(cells)], *bonus, *marks]
    if area["style"] == "lines":
        shown = area.get("line_prizes") == "shown"
        spots = [[f"{aid}_prize_{i}" for i in range(len(area["lines"]))]] if shown else []
        return [[f"{aid}_cell_{k}" for k in range(area["rows"] * area["cols"])], *spots]
    if area["style"] == "add_up":
        return [[f"{aid}_spot_{k}" for k in range(area["games"] * area["spots"])],
                [f"{aid}_prize_{g}" for g in range(area["games"])]]
    if area["style"] == "bonus_reveal":
        return [[f"{aid}_spot_{j}" for j in range(area["spots"])]]
    raise ValueError(f"no third engine for style {area['style']!r}")


RULES = {"crossword": crossword_row, "lines": lines_row, "add_up": add_up_row,
         "bonus_reveal": bonus_reveal_row}


def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
    """Every row the contracts refuse, as row -> (its reasons joined with "; ", what it pays in cents),
    and every row that pays other than its stored prize (reasons "" when it is legal): each area by its
    style's rules, the row by play.md's (`printed.verdicts`)."""
    parts = [(a, [table.select(c).rows() for c in _columns(a)]) for a in play["areas"]]

    def row(i: int) -> tuple[list[Win], list[str]]:
        wins: list[Win] = []
        reasons: list[str] = []
        for area, cols in parts:
            w, r = RULES[area["style"]](area, *(list(c[i]) for c in cols))
            wins += w
            reasons += r
        return wins, reasons

    return verdicts(play, table, (row(i) for i in range(table.height)))
