"""Symbol layouts, one module per game's rules (named as the spec's `game.rules`).

Each module provides:

    lay_out(spec, pool, tiers, stream) -> dict[str, numpy.ndarray]

`tiers` holds, in pool order, the index into `pool.tiers` of every ticket (0 = losing tier);
`stream` is the pool's own layout stream. It returns the layout columns (each of len(tiers)) that
the pool's Parquet file stores beside position, ticket identity, tier and prize. Optionally:

    check_structure(spec, result: GameCheck) -> None

adds problems to `poolgen check` when the spec cannot be laid out by the game's rules.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType


def layout_module(rules: str) -> ModuleType:
    """The layout module of a game's rules (`spec.RULES` lists the games that have one)."""
    return import_module(f"poolgen.layouts.{rules}")
