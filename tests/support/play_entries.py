"""Play entries and tables written by hand for audit's engines (docs/styles/play.md): a key_number_match
area and its play entry, a table of its columns, a refusal's words, one-field edits; a table of spots
(match_n, bonus_reveal) and a tier's win."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate

# docs/styles/key_number_match.md: numbers 1..6 (codes 0..5), BAG = 6, 2X = 7; prizes FREE, $1, $5
KN_AREA = {"id": "play", "style": "key_number_match", "winning": 2, "yours": 3,
           "numbers": ["1", "2", "3", "4", "5", "6"],
           "prizes": [{"code": "FREE", "cents": 100}, {"code": "1", "cents": 100},
                      {"code": "5", "cents": 500}],
           "specials": [{"code": "BAG", "how": "automatic", "by": 1},
                        {"code": "2X", "how": "multiplier", "by": 2}],
           "match_by": 1}
KN_PLAY = {"max_wins": 2, "areas": [KN_AREA], "tiers": [
    {"id": "lose", "wins": []},
    {"id": "1", "wins": [{"area": "play", "how": "match", "by": 1, "prize": "1", "prize_cents": 100}]}]}


def kn_table(win: list[int | None], your: list[int | None], prize: list[int | None],
             tier: str = "lose") -> pl.DataFrame:
    """One row of KN_AREA's columns (codes as UInt8), of `tier`."""
    row = {"tier": [tier]}
    row |= {f"play_win_{i}": [v] for i, v in enumerate(win)}
    row |= {f"play_your_{j}": [v] for j, v in enumerate(your)}
    row |= {f"play_prize_{j}": [v] for j, v in enumerate(prize)}
    return pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8))


def refusal(play: dict, table: pl.DataFrame | None = None) -> str:
    """The words `evaluate` refuses `play` with (on a losing row of KN_AREA unless `table` is given)."""
    with pytest.raises(ValueError) as caught:
        evaluate(kn_table([0, 1], [2, 3, 4], [1, 1, 1]) if table is None else table, {"id": "p1"}, play)
    return str(caught.value)


def edited(change) -> dict:
    """KN_PLAY, copied, with `change(play)` applied."""
    play = copy.deepcopy(KN_PLAY)
    change(play)
    return play


def mn_table(rows: list[list[int]], aid: str = "play") -> pl.DataFrame:
    """A table of area `aid`'s spots (match_n or bonus_reveal columns), one list of codes a row."""
    return pl.DataFrame({f"{aid}_spot_{j}": [r[j] for r in rows] for j in range(len(rows[0]))}).cast(pl.UInt8)


def win(area: str, prize: str, cents: int, how: str = "match", by: int = 1) -> dict:
    """One win of a play entry's tier (docs/styles/play.md)."""
    return {"area": area, "how": how, "by": by, "prize": prize, "prize_cents": cents}
