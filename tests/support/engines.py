"""For audit's engines held against real pools: a pool's manifest entry, a reduced pool, cell edits of a
table, and the check that an evaluation pays every row its stored prize."""

from __future__ import annotations

import dataclasses

import numpy as np
import polars as pl

from audit.styles.interface import Evaluation


def pool_entry(p) -> dict:
    """An eInstant pool's manifest entry, as the engines read it."""
    return {"id": p.id, "price_cents": p.price_cents, "denomination_cents": p.denomination_cents,
            "play_areas": p.play_areas}


def reduced(p, tickets: int = 20_000):
    """The pool with every winning tier's count divided by 100 (at least 1), filled with losers."""
    winners = tuple(dataclasses.replace(t, count=max(1, t.count // 100)) for t in p.tiers[1:])
    losers = dataclasses.replace(p.tiers[0], count=tickets - sum(t.count for t in winners))
    return dataclasses.replace(p, tickets=tickets, tiers=(losers, *winners))


def set_cell(table: pl.DataFrame, row: int, column: str, value: int) -> pl.DataFrame:
    """`table` with one cell changed, its column's dtype kept."""
    dtype = table.schema[column]
    series = table[column].to_numpy().copy()
    series[row] = value
    return table.with_columns(pl.Series(column, series, dtype=dtype))


def set_cells(table: pl.DataFrame, row: int, values: dict[str, int]) -> pl.DataFrame:
    """`table` with several cells of one row changed."""
    for column, value in values.items():
        table = set_cell(table, row, column, value)
    return table


def assert_pays_exactly(table: pl.DataFrame, result: Evaluation) -> None:
    """Every row legal, paying its stored prize, and winning iff its tier is not the losing one."""
    assert result.illegal == []
    assert result.prize_cents.dtype == np.int64 and result.wins.dtype == np.int64
    assert len(result.prize_cents) == len(result.wins) == table.height
    np.testing.assert_array_equal(result.prize_cents, table["prize_cents"].to_numpy())
    losing = (table["tier"] == "lose").to_numpy()
    np.testing.assert_array_equal(result.wins == 0, losing)


def manifest_pool(pool) -> dict:
    """A printed pool's manifest entry (id, price, tickets, tiers), as the engines read it."""
    return {"id": pool.id, "price_cents": pool.price_cents, "tickets": pool.tickets,
            "tiers": [{"id": t.id, "prize_cents": t.prize_cents, "count": t.count} for t in pool.tiers]}
