"""The prize_legend_duel style's audit engine (audit/styles/prize_legend_duel.py), on Hand to Hand
Tactics (specs/hand_to_hand_tactics.toml) and on variants of other parameters.

It is written from docs/styles/prize_legend_duel.md only, and reads every parameter from the manifest's
`play` entry. Here it is held against the real pipeline (a full pool and reduced pools of every
denomination), against hand-broken layouts (real rows with one rule broken, exact reasons and prizes),
against a plain per-row transcription of the contract's evaluation section (hypothesis), and against
play entries and one-row tables written by hand: null cells named, amounts of any integer dtype, the
bounds it reads inclusively (64 legend values, a denomination of 1 cent), a duel whose only loss is at
spot 0. Rule 7 (loser_max_multipliers): test_prize_legend_duel_loser_multipliers.py."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.styles import einstant_engine
from audit.styles import prize_legend_duel as hth
from audit.styles import prize_legend_duel as pld
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import SEED_A, spec_path
from tests.support.engines import assert_pays_exactly, pool_entry, reduced, set_cell, set_cells

SPOTS = 15
POOL = {"id": "d1.00", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}


@pytest.fixture(scope="module")
def play():
    spec = load_spec(spec_path("hand_to_hand_tactics"))
    return spec.play.document()


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


# the game's legend x $1.00
LEGEND_CENTS = {50, 100, 200, 300, 400, 500, 1000, 2000, 2500, 5000, 10_000, 25_000, 50_000, 100_000}


def hth_reference(codes: list[int], amts: list[int]) -> tuple[int, bool]:
    """Sections 4 and 5 of docs/styles/prize_legend_duel.md with this game's parameters, transcribed row
    by row: (prize, legal)."""
    legal = all(c in (0, 1, 2, 3, 4) for c in codes)
    losses = [i for i, c in enumerate(codes) if c == 1]
    legal &= len(losses) == 3
    if len(losses) >= 3:
        e = losses[2]
        legal &= all(c != 0 for c in codes[:e + 1]) and all(c == 0 for c in codes[e + 1:])
    legal &= all((a > 0) if c == 3 else (a == 0) for c, a in zip(codes, amts, strict=True))
    legal &= all(a == 0 or a in LEGEND_CENTS for a in amts)
    return (1 + codes.count(4)) * sum(amts), legal


def test_hth_full_pool_pays_exactly(hth_full, play):
    table, pool = hth_full
    assert table.height == 1_000_000
    result = hth.evaluate(table, pool, play)
    assert_pays_exactly(table, result)
    codes = np.column_stack([table[f"spot_{i}"].to_numpy() for i in range(SPOTS)])
    np.testing.assert_array_equal(result.wins, (codes == 3).sum(axis=1))


def test_hth_full_pool_schema_and_legend(hth_full, play):
    table, pool = hth_full
    assert {c: table.schema[c] for c in hth.layout_columns(play)} == hth.layout_columns(play)
    assert list(hth.layout_columns(play)) == [f"{c}_{i}" for c in ("spot", "amt") for i in range(SPOTS)]
    # without the 1x symbol in the manifest's legend, exactly the rows revealing a $1.00 win are illegal
    fewer = {**play, "legend": [v for v in play["legend"] if v != "1"]}
    result = hth.evaluate(table, pool, fewer)
    ones = pl.any_horizontal([(pl.col(f"spot_{i}") == 3) & (pl.col(f"amt_{i}") == 100) for i in range(SPOTS)])
    rows = np.flatnonzero(table.select(ones).to_series().to_numpy()).tolist()
    assert [row for row, _ in result.illegal] == rows
    values = table.row(result.illegal[0][0], named=True)
    assert result.illegal[0][1] == "; ".join(f"amt_{i} is 100, not a legend value x 100" for i in range(SPOTS)
                                             if values[f"spot_{i}"] == 3 and values[f"amt_{i}"] == 100)


def _ended_early(table: pl.DataFrame, winning: bool) -> tuple[int, dict]:
    """The first row (winner or loser) whose third loss is before spot 14, with its values."""
    mask = (table["spot_14"] == 0) & ((table["prize_cents"] > 0) == winning)
    row = int(np.flatnonzero(mask.to_numpy())[0])
    return row, table.row(row, named=True)


def test_hth_fourth_loss_is_illegal(hth_full, play):
    table, pool = hth_full
    row, values = _ended_early(table, winning=False)
    losses = [i for i in range(SPOTS) if values[f"spot_{i}"] == 1]
    e = losses[2]
    broken = set_cell(table.slice(row, 1), 0, f"spot_{e + 1}", 1)
    result = hth.evaluate(broken, pool, play)
    spots = ", ".join(str(i) for i in [*losses, e + 1])
    assert result.illegal == [
        (0, f"4 LOSE spots ({spots}), not exactly 3; spot_{e + 1} is LOSE after the last loss at spot {e}")
    ]
    assert result.prize_cents.tolist() == [0]


def test_hth_win_after_third_loss_is_illegal(hth_full, play):
    table, pool = hth_full
    row, values = _ended_early(table, winning=True)
    e = [i for i in range(SPOTS) if values[f"spot_{i}"] == 1][2]
    multiplier = 1 + sum(values[f"spot_{i}"] == 4 for i in range(SPOTS))
    total = sum(values[f"amt_{i}"] for i in range(SPOTS))
    assert multiplier * total == values["prize_cents"] > 0
    broken = set_cells(table, row, {f"spot_{e + 1}": 3, f"amt_{e + 1}": 500})
    result = hth.evaluate(broken, pool, play)  # the whole pool: only that row, at its position
    pays = multiplier * (total + 500)
    assert result.illegal == [(row, f"spot_{e + 1} is WIN after the last loss at spot {e}; "
                                    f"layout pays {pays} cents, prize_cents is {values['prize_cents']}")]
    assert result.prize_cents[row] == pays
    assert result.wins[row] == 1 + sum(values[f"spot_{i}"] == 3 for i in range(SPOTS))


@pytest.mark.parametrize(("codes", "amts", "prize", "wins"), [
    ([3, 1, 2, 4, 1, 3, 1], {0: 200, 5: 50}, 500, 2),                    # (1 + 1) x 250
    ([4, 4, 3, 1, 1, 1], {2: 100}, 300, 1),                               # (1 + 2) x 100
    ([1, 1, 1], {}, 0, 0),                                                # shortest game
    ([4, 2, 1, 2, 1, 1], {}, 0, 0),                                       # a multiplier, no win (rule 7)
    ([3] * 12 + [1, 1, 1], {i: [50, 100, 200, 500][i % 4] for i in range(12)}, 2550, 12),  # longest game
])
def test_hth_legal_rows(play, codes, amts, prize, wins):
    result = hth.evaluate(hth_row(codes, amts, prize), POOL, play)
    assert result.illegal == []
    assert result.prize_cents.tolist() == [prize] and result.wins.tolist() == [wins]


@pytest.mark.parametrize(("codes", "amts", "prize", "reason"), [
    ([3, 1, 1], {0: 100}, 100, "2 LOSE spots (1, 2), not exactly 3"),
    ([2, 2], {}, 0, "0 LOSE spots, not exactly 3"),
    ([1, 0, 1, 1], {}, 0, "spot_1 is UNPLAYED before the last loss at spot 3"),
    ([1, 1, 1, 2], {}, 0, "spot_3 is TIE after the last loss at spot 2"),
    ([1, 1, 1, 0, 4], {}, 0, "spot_4 is MULTIPLIER after the last loss at spot 2"),
    ([5, 1, 1, 1], {}, 0, "spot_0 has code 5, not an outcome code 0..4"),
    ([3, 1, 1, 1], {}, 100, "amt_0 is 0 on a WIN spot, not > 0; layout pays 0 cents, prize_cents is 100; "
                            "tier 'm' but the layout pays 0 cents"),
    ([3, 1, 1, 1], {0: -100}, -100, "amt_0 is -100 on a WIN spot, not > 0"),
    ([2, 1, 1, 1], {0: 100}, 100, "amt_0 is 100 on a TIE spot, not 0"),
    ([1, 1, 1], {1: 100}, 100, "amt_1 is 100 on a LOSE spot, not 0"),
    ([1, 1, 1], {5: 100}, 100, "amt_5 is 100 on an UNPLAYED spot, not 0"),
    ([3, 1, 1, 1], {0: 100}, 200, "layout pays 100 cents, prize_cents is 200"),
    ([3, 1, 1, 1], {0: 600}, 600, "amt_0 is 600, not a legend value x 100"),  # no 6x symbol
    ([3, 1, 1, 1], {0: 25}, 25, "amt_0 is 25, not a legend value x 100"),
])
def test_hth_illegal_rows(play, codes, amts, prize, reason):
    result = hth.evaluate(hth_row(codes, amts, prize), POOL, play)
    assert result.illegal == [(0, reason)]


def test_hth_tier_and_prize_cents_disagree(play):
    result = hth.evaluate(hth_row([3, 1, 1, 1], {0: 100}, prize=100, tier="lose"), POOL, play)
    assert result.illegal == [(0, "tier 'lose' but the layout pays 100 cents")]
    result = hth.evaluate(hth_row([1, 1, 1], {}, prize=0, tier="m1"), POOL, play)
    assert result.illegal == [(0, "tier 'm1' but the layout pays 0 cents")]


def test_hth_malformed_table(play):
    with pytest.raises(ValueError, match="layout column 'amt_14' missing"):
        hth.evaluate(hth_row([1, 1, 1]).drop("amt_14"), POOL, play)
    with pytest.raises(ValueError, match="'spot_0' has dtype Float64, not integer"):
        hth.evaluate(hth_row([1, 1, 1]).with_columns(pl.col("spot_0").cast(pl.Float64)), POOL, play)
    nulls = hth_row([1, 1, 1]).with_columns(pl.lit(None, dtype=pl.Int64).alias("amt_3"))
    assert hth.evaluate(nulls, POOL, play).illegal == [(0, "amt_3 is null")]


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
def test_hth_matches_the_contract_reference(play, rows):
    data: dict[str, list[int]] = {f"spot_{i}": [r[0][i] for r in rows] for i in range(SPOTS)}
    data.update({f"amt_{i}": [r[1][i] for r in rows] for i in range(SPOTS)})
    schema = {**{f"spot_{i}": pl.UInt8 for i in range(SPOTS)}, **{f"amt_{i}": pl.Int64 for i in range(SPOTS)}}
    result = hth.evaluate(pl.DataFrame(data, schema=schema), POOL, play)
    expected = [hth_reference(*r) for r in rows]
    assert result.prize_cents.tolist() == [p for p, _ in expected]
    assert result.wins.tolist() == [r[0].count(3) for r in rows]
    assert [row for row, _ in result.illegal] == [i for i, (_, legal) in enumerate(expected) if not legal]


@pytest.mark.parametrize("pool_id", ["d1.00", "d2.00", "d5.00", "d10.00", "d20.00", "d30.00"])
def test_hth_reduced_pools_every_denomination(hth_spec, play, pool_id):
    p = reduced(hth_spec.pool(pool_id))
    table = build_pool(hth_spec, p, SEED_A)
    assert_pays_exactly(table, einstant_engine("prize_legend_duel").evaluate(table, pool_entry(p), play))
    assert set(table["prize_cents"].to_list()) == {t.prize_cents for t in p.tiers}




# ------------------------------------------------------------------------------------------------
# Other parameters: the engine reads spots, losses and legend from `play`, nothing of the game
# ------------------------------------------------------------------------------------------------

def duel_rows(codes: list[list[int]], amts: list[dict[int, int]], prizes: list[int],
              spots: int) -> pl.DataFrame:
    data: dict[str, pl.Series] = {
        "tier": pl.Series(["lose" if p == 0 else "m" for p in prizes]),
        "prize_cents": pl.Series(prizes, dtype=pl.Int64)}
    full = [c + [0] * (spots - len(c)) for c in codes]
    data.update({f"spot_{i}": pl.Series([c[i] for c in full], dtype=pl.UInt8) for i in range(spots)})
    data.update({f"amt_{i}": pl.Series([a.get(i, 0) for a in amts], dtype=pl.Int64) for i in range(spots)})
    return pl.DataFrame(data)


def test_a_duel_of_ten_spots_and_four_losses(play):
    four = {**play, "spots": 10, "losses": 4, "legend": ["1", "3"]}
    table = duel_rows([[3, 1, 4, 1, 1, 1], [3, 1, 1, 1], [1, 1, 1, 1, 2], [3] * 6 + [1] * 4],
                      [{0: 300}, {0: 100}, {}, {i: 100 for i in range(6)}], [600, 100, 0, 600], spots=10)
    result = hth.evaluate(table, POOL, four)
    assert result.prize_cents.tolist() == [600, 100, 0, 600]
    assert result.wins.tolist() == [1, 1, 0, 6]
    assert result.illegal == [(1, "3 LOSE spots (1, 2, 3), not exactly 4"),
                              (2, "spot_4 is TIE after the last loss at spot 3")]
    # the same rows under the game's 15 spots: the layout columns spot_10 .. are missing
    with pytest.raises(ValueError, match="^prize_legend_duel: layout column 'spot_10' missing$"):
        hth.evaluate(table, POOL, play)


@pytest.mark.parametrize(("change", "message"), [
    ({"style": "other"}, "manifest play entry: play.style is not 'prize_legend_duel'"),
    ({"spots": 3}, "manifest play entry: play.spots: 3 is not a whole number 4..40"),
    ({"losses": 0}, "manifest play entry: play.losses: 0 is not a whole number 1..39"),
    ({"losses": True}, "manifest play entry: play.losses: True is not a whole number 1..39"),
    ({"legend": []}, "manifest play entry: play.legend: not a list of 1 to 64 decimal strings"),
    ({"legend": ["1e3"]}, "manifest play entry: play.legend: '1e3' is not a plain decimal string"),
    ({"legend": ["0"]}, "manifest play entry: play.legend: '0' is not positive"),
])
def test_a_bad_play_entry_is_refused(play, change, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        hth.evaluate(hth_row([1, 1, 1]), POOL, {**play, **change})


@pytest.mark.parametrize("style", ["match_n", "key_number_match", "nothing_here", "../x", "primetime"])
def test_only_einstant_style_engines_are_looked_up(style):
    with pytest.raises(ValueError, match="^manifest play entry: no audit engine for eInstant style '"):
        einstant_engine(style)
    assert einstant_engine("prize_legend_duel") is hth


def test_the_denomination_comes_from_the_pool_entry(play):
    row = hth_row([3, 1, 1, 1], {0: 1000}, 1000)
    assert hth.evaluate(row, {**POOL, "denomination_cents": 1000}, play).illegal == []  # 1x $10.00
    assert hth.evaluate(row, {**POOL, "denomination_cents": 300}, play).illegal == [
        (0, "amt_0 is 1000, not a legend value x 300")]
    with pytest.raises(ValueError, match="^prize_legend_duel: pool denomination_cents None is not a whole"):
        hth.evaluate(row, {"id": "x"}, play)


# ------------------------------------------------------------------------------------------------
# Play entries and one-row tables written by hand
# ------------------------------------------------------------------------------------------------

DUEL = {"style": "prize_legend_duel", "spots": 4, "losses": 3, "legend": ["1", "2"]}


def duel_row(codes: list[int | None], amts: list[int | None], prize: int | None = None,
             amt_dtype: pl.DataType = pl.Int64) -> pl.DataFrame:
    data: dict[str, pl.Series] = {}
    if prize is not None:
        data["tier"] = pl.Series(["lose" if not prize else "m"])
        data["prize_cents"] = pl.Series([prize], dtype=pl.Int64)
    data.update({f"spot_{i}": pl.Series([c], dtype=pl.UInt8) for i, c in enumerate(codes)})
    data.update({f"amt_{i}": pl.Series([a], dtype=amt_dtype) for i, a in enumerate(amts)})
    return pl.DataFrame(data)


def test_duel_a_null_spot_is_named():
    out = pld.evaluate(duel_row([1, 1, 1, None], [0, 0, 0, 0], prize=0), POOL, DUEL)
    assert out.illegal == [(0, "spot_3 is null")]
    assert out.prize_cents.tolist() == [0]


def test_duel_a_null_prize_cents_is_named():
    table = duel_row([3, 1, 1, 1], [200, 0, 0, 0], prize=0).with_columns(
        pl.lit(None, dtype=pl.Int64).alias("prize_cents"), pl.lit("m").alias("tier"))
    out = pld.evaluate(table, POOL, DUEL)
    assert out.illegal == [(0, "prize_cents is null; layout pays 200 cents, prize_cents is 0")]
    table = duel_row([1, 1, 1, 0], [0, 0, 0, 0], prize=0).with_columns(pl.lit(None, dtype=pl.Int64)
                                                                        .alias("prize_cents"))
    assert pld.evaluate(table, POOL, DUEL).illegal == [(0, "prize_cents is null")]


def test_duel_amounts_of_any_integer_dtype_are_read():
    """UInt64 amount columns pay as Int64 ones (no numpy casting error adding them up); a MULTIPLIER
    doubles the sum."""
    out = pld.evaluate(duel_row([3, 1, 1, 1], [200, 0, 0, 0], prize=200, amt_dtype=pl.UInt64), POOL, DUEL)
    assert out.illegal == [] and out.prize_cents.tolist() == [200] and out.wins.tolist() == [1]
    four = {**DUEL, "spots": 5}
    table = duel_row([4, 3, 1, 1, 1], [0, 100, 0, 0, 0], prize=200, amt_dtype=pl.UInt64)
    out = pld.evaluate(table, POOL, four)
    assert out.illegal == [] and out.prize_cents.tolist() == [200] and out.wins.tolist() == [1]


@pytest.mark.parametrize("text", ["1.2.3", "1..2", "..", "1.²"])
def test_duel_a_legend_value_of_two_points_or_non_ascii_is_refused(text):
    """Pins the plain-decimal check the two equivalent legend mutants leave unchanged."""
    with pytest.raises(ValueError, match=re.escape(f"manifest play entry: play.legend: {text!r} is not a "
                                                   "plain decimal string")):
        pld.read_play({**DUEL, "legend": ["1", text]})


ONE_LOSS = {**DUEL, "spots": 2, "losses": 1}  # play ends with the first loss


def test_duel_a_legend_of_64_values_is_read_65_refused():
    legend = [str(k) for k in range(1, 66)]
    assert len(pld.read_play({**DUEL, "legend": legend[:64]}).legend) == 64
    with pytest.raises(ValueError) as exc:
        pld.read_play({**DUEL, "legend": legend})
    assert str(exc.value) == "manifest play entry: play.legend: not a list of 1 to 64 decimal strings"


def test_duel_the_only_loss_at_spot_0_ends_play():
    """losses = 1 and spot 0 a LOSE: the last loss is at spot 0 and spot 1 is UNPLAYED, a legal loser."""
    out = pld.evaluate(duel_row([1, 0], [0, 0], prize=0), POOL, ONE_LOSS)
    assert (out.illegal, out.prize_cents.tolist(), out.wins.tolist()) == ([], [0], [0])


def test_duel_a_win_after_the_only_loss_at_spot_0_is_named():
    out = pld.evaluate(duel_row([1, 3], [0, 100], prize=100), POOL, ONE_LOSS)
    assert out.illegal == [(0, "spot_1 is WIN after the last loss at spot 0")]
    assert (out.prize_cents.tolist(), out.wins.tolist()) == ([100], [1])


def test_duel_a_denomination_of_1_cent_is_read_0_refused():
    out = pld.evaluate(duel_row([3, 1], [2, 0], prize=2), {**POOL, "denomination_cents": 1}, ONE_LOSS)
    assert (out.illegal, out.prize_cents.tolist(), out.wins.tolist()) == ([], [2], [1])
    with pytest.raises(ValueError) as exc:
        pld.evaluate(duel_row([3, 1], [2, 0], prize=2), {**POOL, "denomination_cents": 0}, ONE_LOSS)
    assert str(exc.value) == "prize_legend_duel: pool denomination_cents 0 is not a whole number >= 1"
