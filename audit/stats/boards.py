"""Step 8's reading of what a losing ticket shows beyond YOUR hand (docs/statistics.md 1l): a `cards` area's
DEALER'S cards, a `"hold_em"` deal's COMMUNITY cards, each hand's category, and a `maze` area's paths.

A losing ticket's `cards` deal is uniform among the deals in which no game wins, and a losing maze grid
uniform among the grids whose STARTs' paths all end unpaid, wherever the ticket lies (docs/styles/cards.md
section 8, maze.md section 7): any function of a loser's layout is independent of the next ticket's prize
and of its book's highest, 1j's and 1k's null. An insider who exchanges the losers' layouts among the losers
can put a tell where 1j and the YOUR-hand draws of spread.py do not look: a dealer's weak hand, a board
showing a pair, a losing hand that was a flush, a maze path that runs long before it loops.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from audit.stats.styles.kinds import Get

__all__ = ["SEQUENCES", "board_features", "maze_paths"]

SEQUENCES = [sum(1 << r for r in (12, 0, 1, 2, 3)), *[31 << k for k in range(9)]]  # A-5, 2-6 .. 10-A
MAZE_CELLS = 9  # fewer cells: so few losing grids that the neighbour rule ties neighbours (statistics.md 1l)
_STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (row, column) per arrow code 0..3: up, right, down, left

Draws = Any  # spread.py's `_draws(cards, what)`, passed in to keep one definition of the draws


def _category(cards: np.ndarray) -> np.ndarray:
    """Each row's hand category, 0 a high card .. 8 a straight flush (cards.md section 5), of its five
    cards or of the best five of its seven (section 1): the highest category any five of them make, read
    from the rows' rank and suit counts (no hand of five enumerated). A code outside 0..51 (a row step 4
    refuses) is clipped to -2..9999 and read modulo 52, as cards.md section 6 reads one."""
    codes = np.clip(cards, -2, 9999) % 52
    rank, suit = codes // 4, codes % 4
    n = cards.shape[0]
    tally = np.zeros((n, 13), dtype=np.int64)
    suits = np.zeros((n, 4), dtype=np.int64)
    for j in range(cards.shape[1]):
        tally[np.arange(n), rank[:, j]] += 1
        suits[np.arange(n), suit[:, j]] += 1
    bit = np.left_shift(np.int64(1), rank)
    shown = np.bitwise_or.reduce(bit, axis=1)
    straight = np.logical_or.reduce([(shown & m) == m for m in SEQUENCES])
    flush = suits.max(axis=1) >= 5
    top_suit = suits.argmax(axis=1)
    suited = np.bitwise_or.reduce(np.where(suit == top_suit[:, None], bit, 0), axis=1)
    straight_flush = flush & np.logical_or.reduce([(suited & m) == m for m in SEQUENCES])
    most = tally.max(axis=1)
    trips, pairs = (tally >= 3).sum(axis=1), (tally >= 2).sum(axis=1)
    category = np.zeros(n, dtype=np.int64)
    for value, where in ((1, most >= 2), (2, pairs >= 2), (3, most >= 3), (4, straight), (5, flush),
                         (6, (trips >= 1) & (pairs >= 2)), (7, most >= 4), (8, straight_flush)):
        category = np.where(where, value, category)  # a higher category overrides a lower one
    return category


def _cards(area: dict[str, Any], get: Get, draws: Draws | None) -> tuple[list[tuple[str, np.ndarray]],
                                                                         list[tuple[str, np.ndarray]]]:
    """(each game's DEALER'S and COMMUNITY cards' draws, with `draws`; else each game's two categories)."""
    aid, games, hold_em = area["id"], int(area["games"]), area.get("deal", "five") == "hold_em"
    shared = area.get("dealer", "each") == "shared"  # one DEALER'S HAND, its draws read by spread.py
    each: list[tuple[str, np.ndarray]] = []
    grouped: list[tuple[str, np.ndarray]] = []
    for g in range(games):
        board = [get(f"{aid}_community_{5 * g + j}").astype(np.int64) for j in range(5)] if hold_em else []
        if hold_em:
            yours = [get(f"{aid}_yours_{2 * g + j}").astype(np.int64) for j in range(2)] + board
            dealer = [get(f"{aid}_dealer_{2 * g + j}").astype(np.int64) for j in range(2)] + board
        else:
            yours = [get(f"{aid}_yours_{5 * g + j}").astype(np.int64) for j in range(5)]
            dealer = [get(f"{aid}_dealer_{j if shared else 5 * g + j}").astype(np.int64) for j in range(5)]
        who = "the DEALER'S 2 and the COMMUNITY cards" if hold_em else "the DEALER'S hand"
        if draws is not None:
            if not shared:
                each += draws(np.stack(dealer), f"{aid}: game {g}, {who}")
            if hold_em:
                each += draws(np.stack(board), f"{aid}: game {g}, the COMMUNITY cards")
            continue
        grouped.append((f"{aid}: game {g}, YOUR hand's category (0 a high card .. 8 a straight flush)",
                        _category(np.stack(yours, axis=1))))
        if not shared or g == games - 1:  # the one shared DEALER'S HAND once, after the games'
            grouped.append((f"{aid}: {'the' if shared else f'game {g}, the'} DEALER'S hand's category "
                            "(0 a high card .. 8 a straight flush)", _category(np.stack(dealer, axis=1))))
    return each, grouped


def maze_paths(grid: np.ndarray, rows: int, cols: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row of `grid` (n, rows x cols arrow codes, 0..3; another code ends the path there, as maze.md
    section 5 reads it): (the cells the START's path visits, its START included; how it ends: 0 in a loop
    or on a code out of range, 1 + s x 8 + at leaving the grid by side s (0 top, 1 right, 2 bottom, 3
    left) at column or row `at`). Followed a step at a time for the rows still on their way (flat
    indices into the grid: a row's cell k is grid.flat[row x cells + k])."""
    n, cells = grid.shape
    flat = np.ascontiguousarray(grid, dtype=np.int64).ravel()
    visited = np.zeros(n * cells, dtype=bool)
    length = np.zeros(n, dtype=np.int64)
    end = np.zeros(n, dtype=np.int64)
    dr, dc = np.array([s[0] for s in _STEP]), np.array([s[1] for s in _STEP])
    live = np.arange(n)  # the rows whose path goes on
    r, c = np.full(n, start // cols), np.full(n, start % cols)
    while len(live):
        at = live * cells + r * cols + c
        fresh = ~visited[at]  # a loop: the path comes back to a cell it visited (end 0)
        live, at, r, c = live[fresh], at[fresh], r[fresh], c[fresh]
        visited[at] = True
        length[live] += 1
        arrow = flat[at]
        ok = (arrow >= 0) & (arrow <= 3)  # a code out of range ends the path there (end 0)
        live, r, c, arrow = live[ok], r[ok], c[ok], arrow[ok]
        nr, nc = r + dr[arrow], c + dc[arrow]
        leaving = (nr < 0) | (nr >= rows) | (nc < 0) | (nc >= cols)
        end[live[leaving]] = 1 + arrow[leaving] * 8 + np.where(arrow % 2 == 0, c, r)[leaving]
        live, r, c = live[~leaving], nr[~leaving], nc[~leaving]
    return length, end


def _maze(area: dict[str, Any], get: Get) -> list[tuple[str, np.ndarray]]:
    aid, rows, cols = area["id"], int(area["rows"]), int(area["cols"])
    if rows * cols < MAZE_CELLS:
        return []
    grid = np.stack([get(f"{aid}_cell_{k}").astype(np.int64) for k in range(rows * cols)], axis=1)
    found: list[tuple[str, np.ndarray]] = []
    for i, start in enumerate(area["starts"]):
        length, end = maze_paths(grid, rows, cols, int(start))
        found += [(f"{aid}: START {i + 1}'s path, the cells it visits", length),
                  (f"{aid}: START {i + 1}'s path, where it ends (0 a loop, 1 + 8 side + at an exit)", end)]
    return found


def board_features(play: dict[str, Any], get: Get, draws: Draws | None) -> list[tuple[str, np.ndarray]]:
    """With `draws`, the features tested with each value a group: each `cards` game's DEALER'S draws and,
    for `"hold_em"`, its COMMUNITY cards' draws; without, those tested with 1j's groups of values: each
    `cards` game's YOUR and DEALER'S hand categories, each maze START's path length and end. In the play
    entry's area order; an area the features cannot read (which section 2's features report) gives none."""
    found: list[tuple[str, np.ndarray]] = []
    for area in play.get("areas", []):
        try:
            if isinstance(area, dict) and area.get("style") == "cards":
                each, grouped = _cards(area, get, draws)
                found += each if draws is not None else grouped
            elif isinstance(area, dict) and area.get("style") == "maze" and draws is None:
                found += _maze(area, get)
        except (KeyError, TypeError, ValueError, IndexError):
            continue
    return found
