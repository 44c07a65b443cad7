"""What audit's play-style engines (audit/styles/) have in common: the two kinds of engine as
protocols, what they return, and the plumbing they share (reading layout columns, collecting why
rows are illegal).

Every engine is written from its contract, docs/styles/<style>.md, alone, and is a module:

- an area engine (`AreaEngine`) evaluates one play area of a printed ticket from the manifest's
  `play` entry (docs/styles/play.md): `evaluate(table, area, reasons)` returns one `Slot` per place
  a win can come from (a spot, an amount), with per-row arrays; audit/styles/play.py sums a play's
  areas and holds every row to its tier's wins;
- a ticket-wide engine (`TicketEngine`, today the eInstant styles) evaluates whole shares:
  `evaluate(table, pool, play)` returns the `Evaluation` of the pool, from the pool's manifest entry
  and the manifest's `play` entry (that style's parameters).

audit/styles/__init__.py lists the engines by style name.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import polars as pl

__all__ = ["BIG", "HOWS", "AreaEngine", "Evaluation", "PlayFromSpec", "Reasons", "Slot",
           "TicketEngine", "Wording", "int_columns", "might_wrap", "read_column", "show", "READ"]

HOWS = ("match", "automatic", "multiplier", "reveal", "ticket", "all",  # how a slot wins (Slot.how: index)
        "bonus")


@dataclass
class Evaluation:
    """What a pool's layouts pay: per row (in table order) prize in cents and number of wins. A prize
    is exact: int64, or Python integers (an object array) when an illegal row's amounts make one that
    int64 cannot hold (an eInstant's amounts are the row's own int64 columns)."""

    prize_cents: np.ndarray
    wins: np.ndarray
    illegal: list[tuple[int, str]] = field(default_factory=list)  # (row, reason)


@dataclass
class Slot:
    """Per row: whether this place wins, how (index into HOWS), by how much, on which shown prize
    (its index in the area's `prizes`) and what that prize is worth."""

    won: np.ndarray  # bool
    how: np.ndarray  # int
    by: np.ndarray  # int64
    prize: np.ndarray  # int64
    cents: np.ndarray  # int64


class Wording(Protocol):
    """How one illegal row's reason reads: `word(row)` (a lambda may bind more with defaults)."""

    def __call__(self, row: int, /) -> str: ...


class Reasons:
    """Why rows are illegal: each vectorised check adds a row mask and how to word it for one row.
    A row's reasons are joined with '; ' in the order the checks were added."""

    def __init__(self) -> None:
        self.by_row: dict[int, list[str]] = {}

    def add(self, mask: npt.ArrayLike, word: Wording) -> None:
        for row in np.flatnonzero(mask).tolist():
            self.by_row.setdefault(row, []).append(word(row))

    def illegal(self) -> list[tuple[int, str]]:
        return [(row, "; ".join(self.by_row[row])) for row in sorted(self.by_row)]


BIG = 9999  # layout values are clipped to [-1, BIG]: no valid code or number is negative or above it
READ: ContextVar[set[str] | None] = ContextVar("READ", default=None)
"""While step 4 evaluates a pool, the layout columns the engines read (`read_column`): a column no
engine reads is one no style's contract allows (docs/pool-files.md)."""


def read_column(name: str) -> None:
    """Note that an engine reads layout column `name` (see READ)."""
    seen = READ.get()
    if seen is not None:
        seen.add(name)


def int_columns(table: pl.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """The layout columns as an (n, k) int16 array. A null becomes -2, a negative value -1 and a value
    above BIG BIG: none of them is a valid code or number."""
    for c in columns:
        read_column(c)
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


class AreaEngine(Protocol):
    """The engine of a play style of a printed ticket's area (match_n, key_number_match, ...)."""

    def evaluate(self, table: pl.DataFrame, area: dict[str, Any], reasons: Reasons) -> list[Slot]:
        """One Slot per place of the area a win can come from; illegal rows added to `reasons`;
        ValueError if the area's entry in `play` cannot be read."""
        ...


class TicketEngine(Protocol):
    """The engine of a ticket-wide style (area_match, prize_legend_duel, ...): whole shares."""

    def evaluate(self, table: pl.DataFrame, pool: dict[str, Any], play: dict[str, Any]) -> Evaluation:
        """What every row of the pool pays, and why any row is illegal; ValueError if `play` (the
        style's parameters) or the pool's entry cannot be read."""
        ...


class PlayFromSpec(Protocol):
    """A ticket-wide style whose contract derives the manifest's `play` entry from the spec (its TOML
    as read): step 5 holds the manifest's entry to it."""

    def __call__(self, doc: dict[str, Any], /) -> dict[str, Any]: ...


def might_wrap(*estimates: np.ndarray) -> np.ndarray:
    """Rows where int64 arithmetic may not hold a value exactly: any of the float64 `estimates` (the
    same arithmetic in floats, off by far less than 2^61) is 2^62 or more in size. Those rows are
    recomputed in Python integers; no legal row comes near."""
    wide = np.zeros(len(estimates[0]), dtype=bool)
    for e in estimates:
        wide |= np.abs(e) >= 2.0**62
    return wide
