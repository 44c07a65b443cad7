"""The auditor's eInstant rules engine audit/rules/hand_to_hand_tactics.py.

They are written from the layout contracts specs/<rules>.md only. Here they are held against the
real pipeline (full pools and reduced pools of every denomination and play-area count), against
hand-broken layouts (real rows with one rule broken, exact reasons and prizes), and against a
plain per-row transcription of the contracts' evaluation sections (hypothesis).
"""

from __future__ import annotations

import dataclasses
import tomllib

import numpy as np
import polars as pl
import pytest
from conftest import SEED_A, spec_path
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.rules import Evaluation, rules_module
from audit.rules import hand_to_hand_tactics as hth
from poolgen.build import build_pool
from poolgen.spec import load_spec

SPOTS = 15


def pool_entry(p) -> dict:
    return {"id": p.id, "price_cents": p.price_cents, "denomination_cents": p.denomination_cents,
            "play_areas": p.play_areas}


def reduced(p, tickets: int = 20_000):
    """The pool with every winning tier's count divided by 100 (at least 1), filled with losers."""
    winners = tuple(dataclasses.replace(t, count=max(1, t.count // 100)) for t in p.tiers[1:])
    losers = dataclasses.replace(p.tiers[0], count=tickets - sum(t.count for t in winners))
    return dataclasses.replace(p, tickets=tickets, tiers=(losers, *winners))


def set_cell(table: pl.DataFrame, row: int, column: str, value: int) -> pl.DataFrame:
    dtype = table.schema[column]
    series = table[column].to_numpy().copy()
    series[row] = value
    return table.with_columns(pl.Series(column, series, dtype=dtype))


def set_cells(table: pl.DataFrame, row: int, values: dict[str, int]) -> pl.DataFrame:
    for column, value in values.items():
        table = set_cell(table, row, column, value)
    return table


def _rows_where(mask: pl.Series) -> list[int]:
    return np.flatnonzero(mask.to_numpy()).tolist()


def assert_pays_exactly(table: pl.DataFrame, result: Evaluation) -> None:
    assert result.illegal == []
    assert result.prize_cents.dtype == np.int64 and result.wins.dtype == np.int64
    assert len(result.prize_cents) == len(result.wins) == table.height
    np.testing.assert_array_equal(result.prize_cents, table["prize_cents"].to_numpy())
    losing = (table["tier"] == "lose").to_numpy()
    np.testing.assert_array_equal(result.wins == 0, losing)


# ------------------------------------------------------------------------------------------------
# Hand to Hand Tactics
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hth_spec():
    return load_spec(spec_path("hand_to_hand_tactics"))


@pytest.fixture(scope="module")
def hth_full(hth_spec):
    p = hth_spec.pool("d1.00")
    return build_pool(hth_spec, p, SEED_A), pool_entry(p)


def hth_row(codes: list[int], amts: dict[int, int] | None = None, prize: int = 0,
            tier: str | None = None) -> pl.DataFrame:
    codes = codes + [0] * (SPOTS - len(codes))
    amts = amts or {}
    data: dict[str, pl.Series] = {
        "tier": pl.Series([tier or ("lose" if prize == 0 else "m")]),
        "prize_cents": pl.Series([prize], dtype=pl.Int64),
    }
    data.update({f"spot_{i}": pl.Series([codes[i]], dtype=pl.UInt8) for i in range(SPOTS)})
    data.update({f"amt_{i}": pl.Series([amts.get(i, 0)], dtype=pl.Int64) for i in range(SPOTS)})
    return pl.DataFrame(data)


def hth_reference(codes: list[int], amts: list[int]) -> tuple[int, bool]:
    """Section 4 of hand_to_hand_tactics.md, transcribed row by row: (prize, legal)."""
    legal = all(c in (0, 1, 2, 3, 4) for c in codes)
    losses = [i for i, c in enumerate(codes) if c == 1]
    legal &= len(losses) == 3
    if len(losses) >= 3:
        e = losses[2]
        legal &= all(c != 0 for c in codes[:e + 1]) and all(c == 0 for c in codes[e + 1:])
    legal &= all((a > 0) if c == 3 else (a == 0) for c, a in zip(codes, amts, strict=True))
    return (1 + codes.count(4)) * sum(amts), legal


def test_hth_full_pool_pays_exactly(hth_full):
    table, pool = hth_full
    assert table.height == 1_000_000
    result = hth.evaluate(table, pool)
    assert_pays_exactly(table, result)
    codes = np.column_stack([table[f"spot_{i}"].to_numpy() for i in range(SPOTS)])
    np.testing.assert_array_equal(result.wins, (codes == 3).sum(axis=1))


def test_hth_full_pool_schema_and_legend(hth_full, hth_spec):
    table, pool = hth_full
    assert {c: table.schema[c] for c in hth.layout_columns(pool)} == hth.layout_columns(pool)
    legend = tomllib.loads(spec_path("hand_to_hand_tactics").read_text())["layout"]["legend"]
    assert hth.off_legend(table, pool, legend) == []
    # without the $1.00 symbol, exactly the rows revealing a $1.00 win are off the legend
    off = hth.off_legend(table, pool, [v for v in legend if v != "1"])
    ones = pl.any_horizontal([(pl.col(f"spot_{i}") == 3) & (pl.col(f"amt_{i}") == 100) for i in range(SPOTS)])
    assert [row for row, _ in off] == _rows_where(table.select(ones).to_series())
    values = table.row(off[0][0], named=True)
    assert off[0][1] == "; ".join(f"amt_{i} is 100, not a legend value x 100" for i in range(SPOTS)
                                  if values[f"spot_{i}"] == 3 and values[f"amt_{i}"] == 100)


def _ended_early(table: pl.DataFrame, winning: bool) -> tuple[int, dict]:
    """The first row (winner or loser) whose third loss is before spot 14, with its values."""
    mask = (table["spot_14"] == 0) & ((table["prize_cents"] > 0) == winning)
    row = int(np.flatnonzero(mask.to_numpy())[0])
    return row, table.row(row, named=True)


def test_hth_fourth_loss_is_illegal(hth_full):
    table, pool = hth_full
    row, values = _ended_early(table, winning=False)
    losses = [i for i in range(SPOTS) if values[f"spot_{i}"] == 1]
    e = losses[2]
    broken = set_cell(table.slice(row, 1), 0, f"spot_{e + 1}", 1)
    result = hth.evaluate(broken, pool)
    spots = ", ".join(str(i) for i in [*losses, e + 1])
    assert result.illegal == [
        (0, f"4 LOSE spots ({spots}), not exactly 3; spot_{e + 1} is LOSE after the third loss at spot {e}")
    ]
    assert result.prize_cents.tolist() == [0]


def test_hth_win_after_third_loss_is_illegal(hth_full):
    table, pool = hth_full
    row, values = _ended_early(table, winning=True)
    e = [i for i in range(SPOTS) if values[f"spot_{i}"] == 1][2]
    multiplier = 1 + sum(values[f"spot_{i}"] == 4 for i in range(SPOTS))
    total = sum(values[f"amt_{i}"] for i in range(SPOTS))
    assert multiplier * total == values["prize_cents"] > 0
    broken = set_cells(table, row, {f"spot_{e + 1}": 3, f"amt_{e + 1}": 500})
    result = hth.evaluate(broken, pool)  # the whole pool: only that row, at its position
    pays = multiplier * (total + 500)
    assert result.illegal == [(row, f"spot_{e + 1} is WIN after the third loss at spot {e}; "
                                    f"layout pays {pays} cents, prize_cents is {values['prize_cents']}")]
    assert result.prize_cents[row] == pays
    assert result.wins[row] == 1 + sum(values[f"spot_{i}"] == 3 for i in range(SPOTS))


@pytest.mark.parametrize(("codes", "amts", "prize", "wins"), [
    ([3, 1, 2, 4, 1, 3, 1], {0: 200, 5: 50}, 500, 2),                    # (1 + 1) x 250
    ([4, 4, 3, 1, 1, 1], {2: 100}, 300, 1),                               # (1 + 2) x 100
    ([1, 1, 1], {}, 0, 0),                                                # shortest game
    ([4, 2, 1, 4, 1, 1], {}, 0, 0),                                       # multipliers, no win
    ([3] * 12 + [1, 1, 1], {i: 100 * (i + 1) for i in range(12)}, 7800, 12),  # longest game
])
def test_hth_legal_rows(codes, amts, prize, wins):
    result = hth.evaluate(hth_row(codes, amts, prize), {})
    assert result.illegal == []
    assert result.prize_cents.tolist() == [prize] and result.wins.tolist() == [wins]


@pytest.mark.parametrize(("codes", "amts", "prize", "reason"), [
    ([3, 1, 1], {0: 100}, 100, "2 LOSE spots (1, 2), not exactly 3"),
    ([2, 2], {}, 0, "0 LOSE spots, not exactly 3"),
    ([1, 0, 1, 1], {}, 0, "spot_1 is UNPLAYED before the third loss at spot 3"),
    ([1, 1, 1, 2], {}, 0, "spot_3 is TIE after the third loss at spot 2"),
    ([1, 1, 1, 0, 4], {}, 0, "spot_4 is MULTIPLIER after the third loss at spot 2"),
    ([5, 1, 1, 1], {}, 0, "spot_0 has code 5, not an outcome code 0..4"),
    ([3, 1, 1, 1], {}, 100, "amt_0 is 0 on a WIN spot, not > 0; layout pays 0 cents, prize_cents is 100; "
                            "tier 'm' but the layout pays 0 cents"),
    ([3, 1, 1, 1], {0: -100}, -100, "amt_0 is -100 on a WIN spot, not > 0"),
    ([2, 1, 1, 1], {0: 100}, 100, "amt_0 is 100 on a TIE spot, not 0"),
    ([1, 1, 1], {1: 100}, 100, "amt_1 is 100 on a LOSE spot, not 0"),
    ([1, 1, 1], {5: 100}, 100, "amt_5 is 100 on an UNPLAYED spot, not 0"),
    ([3, 1, 1, 1], {0: 100}, 200, "layout pays 100 cents, prize_cents is 200"),
])
def test_hth_illegal_rows(codes, amts, prize, reason):
    result = hth.evaluate(hth_row(codes, amts, prize), {})
    assert result.illegal == [(0, reason)]


def test_hth_tier_and_prize_cents_disagree():
    result = hth.evaluate(hth_row([3, 1, 1, 1], {0: 100}, prize=100, tier="lose"), {})
    assert result.illegal == [(0, "tier 'lose' but the layout pays 100 cents")]
    result = hth.evaluate(hth_row([1, 1, 1], {}, prize=0, tier="m1"), {})
    assert result.illegal == [(0, "tier 'm1' but the layout pays 0 cents")]


def test_hth_malformed_table():
    with pytest.raises(ValueError, match="layout column 'amt_14' missing"):
        hth.evaluate(hth_row([1, 1, 1]).drop("amt_14"), {})
    with pytest.raises(ValueError, match="'spot_0' has dtype Float64, not integer"):
        hth.evaluate(hth_row([1, 1, 1]).with_columns(pl.col("spot_0").cast(pl.Float64)), {})
    nulls = hth_row([1, 1, 1]).with_columns(pl.lit(None, dtype=pl.Int64).alias("amt_3"))
    assert hth.evaluate(nulls, {}).illegal == [(0, "amt_3 is null")]


hth_rows = st.lists(
    st.one_of(
        st.tuples(st.lists(st.sampled_from([0, 1, 2, 3, 4, 5]), min_size=SPOTS, max_size=SPOTS),
                  st.lists(st.sampled_from([0, 0, 0, 50, 100, -1]), min_size=SPOTS, max_size=SPOTS)),
        # legal-shaped rows: non-loss items, two losses among them, then the third loss
        st.integers(0, 12).flatmap(lambda k: st.tuples(
            st.permutations([1, 1] + [2] * k),
            st.lists(st.sampled_from([2, 3, 4]), min_size=k, max_size=k),
            st.lists(st.sampled_from([50, 100, 500, 100_000]), min_size=k, max_size=k),
        )).map(lambda t: _legal_shaped(*t)),
    ),
    min_size=1, max_size=40,
)


def _legal_shaped(order: list[int], kinds: list[int], amounts: list[int]) -> tuple[list[int], list[int]]:
    codes, amts, items = [], [], iter(zip(kinds, amounts, strict=True))
    for slot in order:
        if slot == 1:
            codes.append(1)
            amts.append(0)
        else:
            kind, amount = next(items)
            codes.append(kind)
            amts.append(amount if kind == 3 else 0)
    codes.append(1)
    amts.append(0)
    pad = SPOTS - len(codes)
    return codes + [0] * pad, amts + [0] * pad


@settings(max_examples=150, deadline=None)
@given(hth_rows)
def test_hth_matches_the_contract_reference(rows):
    data: dict[str, list[int]] = {f"spot_{i}": [r[0][i] for r in rows] for i in range(SPOTS)}
    data.update({f"amt_{i}": [r[1][i] for r in rows] for i in range(SPOTS)})
    schema = {**{f"spot_{i}": pl.UInt8 for i in range(SPOTS)}, **{f"amt_{i}": pl.Int64 for i in range(SPOTS)}}
    result = hth.evaluate(pl.DataFrame(data, schema=schema), {})
    expected = [hth_reference(*r) for r in rows]
    assert result.prize_cents.tolist() == [p for p, _ in expected]
    assert result.wins.tolist() == [r[0].count(3) for r in rows]
    assert [row for row, _ in result.illegal] == [i for i, (_, legal) in enumerate(expected) if not legal]


@pytest.mark.parametrize("pool_id", ["d1.00", "d2.00", "d5.00", "d10.00", "d20.00", "d30.00"])
def test_hth_reduced_pools_every_denomination(hth_spec, pool_id):
    p = reduced(hth_spec.pool(pool_id))
    table = build_pool(hth_spec, p, SEED_A)
    assert_pays_exactly(table, rules_module("hand_to_hand_tactics").evaluate(table, pool_entry(p)))
    assert set(table["prize_cents"].to_list()) == {t.prize_cents for t in p.tiers}
