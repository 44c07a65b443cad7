"""Step 8's features of the styles whose win is a pattern of what the spots show: symbol_count,
lines, bingo and crossword. The pattern is the win and cannot be hidden (a winner shows more of the
symbol, more marked cells, more completed words); what each contract promises besides is tested:

- symbol_count (symbol_count.md section 8): each spot's decoy, on the tickets whose spot shows one;
- lines (lines.md section 8): each cell's decoy, on the tickets whose cell shows one;
- bingo (bingo.md section 8): each numbered card cell's and each caller's number's place in its
  column, (number - 1) mod 15;
- crossword (crossword.md section 8): each YOUR LETTER's place in alphabet order among the ticket's
  YOUR LETTERS, 0 .. L-1;
each against win/lose.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from audit.stats.styles.kinds import AreaFeatures, Get, Tests

__all__ = ["bingo", "bingo_columns", "crossword", "crossword_columns", "lines", "lines_columns",
           "symbol_count", "symbol_count_columns"]

FREE = 75  # bingo: the FREE space's code (bingo.md section 4); 0..74 show the numbers 1..75


def _decoys(codes: np.ndarray, symbol: int) -> np.ndarray:
    """A spot's decoy code; -1 (left out) where it shows the symbol."""
    codes = codes.astype(np.int64)
    return np.where(codes == symbol, -1, codes)


def symbol_count_columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_spot_{j}" for j in range(area["spots"])]


def symbol_count(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int],
                 get: Get) -> AreaFeatures:
    """symbol_count.md section 8: a spot's decoy is uniform over the decoys whatever the count."""
    aid, symbol = area["id"], area["pictures"].index(area["symbol"])
    tests: Tests = [(f"{aid}_spot_{j} (a decoy) on tickets whose spot {j} shows a decoy, against win/lose",
                     _decoys(get(f"{aid}_spot_{j}"), symbol))
                    for j in range(area["spots"])]
    return tests, [], [f"layout: {aid}: where and how often {area['symbol']} shows: the count is the win, "
                       "its places uniform only given the count (symbol_count.md section 8)"]


def lines_columns(area: dict[str, Any]) -> list[str]:
    shown = area.get("line_prizes") == "shown"
    spots = [f"{area['id']}_prize_{i}" for i in range(len(area["lines"]))] if shown else []
    calls = [f"{area['id']}_call_{j}" for j in range(area.get("calls", 0))]
    return [f"{area['id']}_cell_{k}" for k in range(area["rows"] * area["cols"])] + calls + spots


def lines(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """lines.md section 8: a cell's decoy is uniform over the decoys whatever the tier; with several
    symbols, a cell's symbol is uniform over the symbols whatever the tier; with a caller, every cell and
    every caller's picture uniform over the pictures whatever the tier."""
    aid, cells = area["id"], area["rows"] * area["cols"]
    if "calls" in area:
        return _called_lines(area, get)
    named, pictures = area.get("symbols") if "symbols" in area else [area.get("symbol")], area.get("pictures")
    if (("symbol" in area) == ("symbols" in area) or not isinstance(named, list)
            or not isinstance(pictures, list) or len(named) < (2 if "symbols" in area else 1)
            or not all(isinstance(c, str) and c in pictures for c in named) or len(set(named)) != len(named)):
        raise ValueError(f"manifest play entry: area {aid!r}: its symbol or symbols are not among its "
                         "pictures, each once (step 4 names it)")
    keys = np.array([pictures.index(c) for c in named], dtype=np.int64)
    grid = np.stack([get(f"{aid}_cell_{k}").astype(np.int64) for k in range(cells)])
    tests: Tests = []
    if len(keys) < len(area["pictures"]):
        tests += [(f"{aid}_cell_{k} (a decoy) on tickets whose cell {k} shows a decoy, against win/lose",
                   np.where(np.isin(grid[k], keys), -1, grid[k])) for k in range(cells)]
    if len(keys) > 1:
        tests += [(f"{aid}_cell_{k} (which symbol) on tickets whose cell {k} shows a symbol, against "
                   "win/lose",
                   np.where(np.isin(grid[k], keys), grid[k], -1)) for k in range(cells)]
    if area.get("line_prizes") == "shown":  # a line's prize spot where the line is not complete
        for i, line in enumerate(area["lines"]):
            done = (grid[line] == grid[line[0]]).all(axis=0) & np.isin(grid[line[0]], keys)
            tests.append((f"{aid}_prize_{i} (a prize spot) on tickets whose line {i + 1} is not complete, "
                          "against win/lose", np.where(done, -1, get(f"{aid}_prize_{i}").astype(np.int64))))
    shows = " or ".join(named)
    return tests, [], [f"layout: {aid}: where {shows} shows: the lines it completes are the win, "
                       "its cells uniform only given their number (lines.md section 8)"]


def _bingo_cells(area: dict[str, Any]) -> list[int]:
    """The card cells that hold a number (the FREE centre, cell 12, when `free`, does not)."""
    return [c for c in range(25) if not (area["free"] and c == 12)]


def bingo_columns(area: dict[str, Any]) -> list[str]:
    aid = area["id"]
    return ([f"{aid}_call_{i}" for i in range(area["calls"])]
            + [f"{aid}_card{k}_{c}" for k in range(area["cards"]) for c in _bingo_cells(area)])


def _place(codes: np.ndarray) -> np.ndarray:
    """A number's place in its column, (number - 1) mod 15; -1 (left out) for FREE or out of range."""
    codes = codes.astype(np.int64)
    return np.where((codes >= 0) & (codes < FREE), codes % 15, -1)


def bingo(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """bingo.md section 8: relabelling the numbers within a column leaves every tier's draws alike, so
    each card cell's number and each caller's number is at each place of its column equally often."""
    aid = area["id"]
    tests: Tests = []
    for k in range(area["cards"]):
        tests += [(f"{aid}_card{k}_{c} (its number's place in its column) against win/lose",
                   _place(get(f"{aid}_card{k}_{c}"))) for c in _bingo_cells(area)]
    tests += [(f"{aid}_call_{i} (its number's place in its column) against win/lose",
               _place(get(f"{aid}_call_{i}"))) for i in range(area["calls"])]
    return tests, [], [f"layout: {aid}: the caller's numbers' columns, the marked cells and which card wins: "
                       "not promised independent of winning (bingo.md section 8)"]


def crossword_columns(area: dict[str, Any]) -> list[str]:
    return [f"{area['id']}_letter_{j}" for j in range(area["letters"])]


def crossword(area: dict[str, Any], play: dict[str, Any], counts: dict[str, int], get: Get) -> AreaFeatures:
    """crossword.md section 8: YOUR LETTERS are shown in uniformly random order whatever the tier, so
    each one's place in alphabet order among them is uniform over 0 .. L-1."""
    aid, n = area["id"], area["letters"]
    shown = np.stack([get(f"{aid}_letter_{j}").astype(np.int64) for j in range(n)], axis=1)
    rank = np.argsort(np.argsort(shown, axis=1, kind="stable"), axis=1, kind="stable")
    tests: Tests = [(f"{aid}_letter_{j} (its place in alphabet order among YOUR LETTERS) against win/lose",
                     rank[:, j]) for j in range(n)]
    doubler = "; the doubler cells, drawn with the grids (section 11)" if "doubler" in area else ""
    return tests, [], [f"layout: {aid}: the grids, alike only between tiers whose targets every drawn grid "
                       "admits, which one row does not tell; YOUR LETTERS as a set, which decide the prize "
                       f"(crossword.md section 8){doubler}"]


def _called_lines(area: dict[str, Any], get: Get) -> AreaFeatures:
    """lines.md section 8, a caller's area: renaming the pictures maps a layout to one as likely."""
    aid = area["id"]
    names = [f"{aid}_cell_{k}" for k in range(area["rows"] * area["cols"])] + \
        [f"{aid}_call_{j}" for j in range(area["calls"])]
    tests: Tests = [(f"{c} (its picture) against win/lose", get(c).astype(np.int64)) for c in names]
    if area.get("line_prizes") == "shown":
        grid = np.stack([get(f"{aid}_cell_{k}").astype(np.int64) for k in range(area["rows"] * area["cols"])])
        called = np.stack([get(f"{aid}_call_{j}").astype(np.int64) for j in range(area["calls"])])
        marked = (grid[:, None, :] == called[None, :, :]).any(axis=1)
        for i, line in enumerate(area["lines"]):
            done = marked[line].all(axis=0)
            tests.append((f"{aid}_prize_{i} (a prize spot) on tickets whose line {i + 1} is not complete, "
                          "against win/lose", np.where(done, -1, get(f"{aid}_prize_{i}").astype(np.int64))))
    return tests, [], [f"layout: {aid}: which cells the caller's pictures mark: the lines they complete are "
                       "the win, the marked cells uniform only given the tier (lines.md section 8)"]
