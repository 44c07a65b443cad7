"""Plumbing shared by audit's style engines (audit/styles/): reading layout columns, collecting why
rows are illegal."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import polars as pl


class Reasons:
    """Why rows are illegal: each vectorised check adds a row mask and how to word it for one row.
    A row's reasons are joined with '; ' in the order the checks were added."""

    def __init__(self) -> None:
        self.by_row: dict[int, list[str]] = {}

    def add(self, mask: np.ndarray, word: Callable[[int], str]) -> None:
        for row in np.flatnonzero(mask).tolist():
            self.by_row.setdefault(row, []).append(word(row))

    def illegal(self) -> list[tuple[int, str]]:
        return [(row, "; ".join(self.by_row[row])) for row in sorted(self.by_row)]


BIG = 9999  # layout values are clipped to [-1, BIG]: no valid code or number is negative or above it


def int_columns(table: pl.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """The layout columns as an (n, k) int16 array. A null becomes -2, a negative value -1 and a value
    above BIG BIG: none of them is a valid code or number."""
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise ValueError(f"layout columns missing: {', '.join(missing)}")
    not_int = [c for c in columns if not table.schema[c].is_integer()]
    if not_int:
        raise ValueError(f"layout columns not of an integer type: {', '.join(not_int)}")
    frame = table.select(pl.col(c).cast(pl.Int64, strict=False).clip(-1, BIG).fill_null(-2).cast(pl.Int16)
                         for c in columns)
    return frame.to_numpy().reshape(len(table), len(columns))


def show(value: int) -> str:
    """A layout value as a reason prints it."""
    return {-2: "null", -1: "negative", BIG: f">={BIG}"}.get(int(value), str(int(value)))
