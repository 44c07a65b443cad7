"""Plumbing shared by the rules engines: collecting why rows are illegal, reading a column lazily."""

from __future__ import annotations

from collections.abc import Callable

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


class LazyColumn:
    """A table column read into Python only when a reason first needs it (None if there is none)."""

    def __init__(self, table: pl.DataFrame, name: str) -> None:
        self._table, self._name, self._values = table, name, None

    def __getitem__(self, row: int) -> object:
        if self._values is None:
            self._values = (self._table[self._name].to_list() if self._name in self._table.columns
                            else [None] * len(self._table))
        return self._values[row]
