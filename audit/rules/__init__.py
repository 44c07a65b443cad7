"""Rules engines, one module per game (named as the manifest's `game.rules`), written from the
layout contracts in specs/<rules>.md and nothing else.

Each module provides:

    evaluate(table: polars.DataFrame, pool: dict) -> Evaluation

`table` is a pool's Parquet table (layout columns as the contract states); `pool` is the pool's
entry of manifest.json (id, price_cents, and for eInstants denomination_cents and play_areas).
It computes every ticket's prize and number of wins from its layout alone, and lists every
layout that breaks the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType

import numpy as np


@dataclass
class Evaluation:
    """What a pool's layouts pay: per row (in table order) prize in cents and number of wins."""

    prize_cents: np.ndarray
    wins: np.ndarray
    illegal: list[tuple[int, str]] = field(default_factory=list)  # (row, reason)


def rules_module(rules: str) -> ModuleType:
    """The evaluator of a game's rules; raises LookupError for a game it does not know."""
    try:
        return import_module(f"audit.rules.{rules}")
    except ModuleNotFoundError as exc:
        if exc.name == f"audit.rules.{rules}":
            raise LookupError(f"no audit rules for game rules {rules!r}") from None
        raise
