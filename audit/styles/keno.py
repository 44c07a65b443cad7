"""Scratch keno, evaluated from docs/styles/keno.md (sections 3 to 6) alone.

W WINNING NUMBERS and G games of k_g numbers; game g's matches are how many of its codes equal a
WINNING NUMBER code (none while a WINNING NUMBER is out of range); it wins the key's prize for
(k_g, matches), when the key lists one. Illegal rows: codes out of range, equal WINNING NUMBERS, a game
showing a number twice (section 5's rules 1 to 4)."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from audit.styles.interface import HOWS, Reasons, Slot, int_columns


def _whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _read(area: dict[str, Any]) -> tuple[int, int, list[int], dict[tuple[int, int], int], np.ndarray]:
    """(W, n, the game sizes, (spots, matches) -> prize index, the prizes' cents); ValueError if the
    entry is unreadable (section 3)."""
    aid = area.get("id")
    numbers, prizes, games, key = area.get("numbers"), area.get("prizes"), area.get("games"), area.get("key")
    bad = ValueError(f"manifest play entry: area {aid!r}: winning, numbers, prizes, games or key unreadable")
    if not (isinstance(numbers, list) and 2 <= len(numbers) <= 255 and isinstance(prizes, list) and prizes
            and all(isinstance(p, dict) and isinstance(p.get("code"), str) and type(p.get("cents")) is int
                    for p in prizes)
            and isinstance(games, list) and 1 <= len(games) <= 10 and all(_whole(k, 1, 20) for k in games)
            and isinstance(key, list) and _whole(area.get("winning"), 1, len(numbers) - 1)):
        raise bad
    codes = [p["code"] for p in prizes]
    pays: dict[tuple[int, int], int] = {}
    for line in key:
        if not (isinstance(line, dict) and set(line) == {"spots", "matches", "prize"}
                and _whole(line["spots"], 1, 20) and _whole(line["matches"], 0, line["spots"])
                and line["prize"] in codes and (line["spots"], line["matches"]) not in pays):
            raise bad
        pays[(line["spots"], line["matches"])] = codes.index(line["prize"])
    cents = np.array([p["cents"] for p in prizes], dtype=np.int64)
    return area["winning"], len(numbers), games, pays, cents


def evaluate(table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
    aid = area["id"]
    w, n_numbers, games, pays, cents = _read(area)
    total = sum(games)
    codes = int_columns(table, [f"{aid}_win_{i}" for i in range(w)]
                        + [f"{aid}_spot_{s}" for s in range(total)]).astype(np.int64)
    rows = table.height
    won_codes, spots = codes[:, :w], codes[:, w:]
    offsets = np.cumsum([0] + games)
    bad_win = np.asarray(((won_codes < 0) | (won_codes >= n_numbers)).any(axis=1))
    reasons.add(bad_win, lambda r: f"{aid}: a winning number code out of range")
    bad_spot = (spots < 0) | (spots >= n_numbers)
    game_bad = np.stack([bad_spot[:, offsets[g]:offsets[g + 1]].any(axis=1) for g in range(len(games))],
                        axis=1)
    reasons.add(game_bad.any(axis=1), lambda r: f"{aid}: game {int(np.argmax(game_bad[r])) + 1}: a number "
                                                "code out of range")
    sorted_win = np.sort(won_codes, axis=1)
    reasons.add((sorted_win[:, 1:] == sorted_win[:, :-1]).any(axis=1),
                lambda r: f"{aid}: two winning numbers are equal")
    twice = np.zeros((rows, len(games)), dtype=bool)
    for g in range(len(games)):
        part = np.sort(spots[:, offsets[g]:offsets[g + 1]], axis=1)
        twice[:, g] = (part[:, 1:] == part[:, :-1]).any(axis=1)
    reasons.add(twice.any(axis=1),
                lambda r: f"{aid}: game {int(np.argmax(twice[r])) + 1} shows a number twice")
    inside = (spots >= 0) & (spots < n_numbers)
    equal: np.ndarray = spots[:, :, None] == won_codes[:, None, :]
    hit: np.ndarray = inside & equal.any(axis=2) & ~bad_win[:, None]
    slots = []
    for g, k in enumerate(games):
        m = hit[:, offsets[g]:offsets[g + 1]].sum(axis=1)
        table_k = np.array([pays.get((k, c), -1) for c in range(k + 1)], dtype=np.int64)
        prize = table_k[m]
        won = prize >= 0
        box = np.maximum(prize, 0)
        slots.append(Slot(won=won, how=np.full(rows, HOWS.index("match"), dtype=np.int64),
                          by=np.ones(rows, dtype=np.int64), prize=box, cents=cents[box]))
    return slots
