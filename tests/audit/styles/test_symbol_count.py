"""The auditor's symbol_count engine (audit/styles/symbol_count.py, audit/styles/play.py) on a play
entry and tables written by hand from docs/styles/symbol_count.md: what each count wins, every rule of
section 5 with its exact reason, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import mn_table, win

F, P, S = 0, 1, 2  # FLAME (counted), PEPPER, SUN
AREA = {"id": "sc", "style": "symbol_count", "spots": 5, "pictures": ["FLAME", "PEPPER", "SUN"],
        "symbol": "FLAME", "prizes": [{"code": "2", "cents": 200}, {"code": "9", "cents": 900}],
        "legend": [{"count": 2, "prize": "2"}, {"count": 4, "prize": "9"}], "most_alike": 2}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "c2", "wins": [win("sc", "2", 200)]},
                  {"id": "c4", "wins": [win("sc", "9", 900)]}]}


def judge(codes: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    table = mn_table([codes], "sc").with_columns(pl.lit(tier).alias("tier"))
    result = evaluate(table, {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("codes", "tier", "cents"), [
    ([F, P, S, P, S], "lose", 0), ([P, F, S, P, S], "lose", 0), ([F, F, S, P, S], "c2", 200),
    ([F, P, F, F, F], "c4", 900), ([S, F, F, P, F], "lose", None)])
def test_the_count_of_the_symbol_wins_the_legends_prize_for_it(codes, tier, cents):
    prize, why = judge(codes, tier)
    if cents is None:  # three flames: the legend lists 2 and 4
        assert why == ["sc: 3 x FLAME: the legend has no prize for 3"] and prize == 0
    else:
        assert (prize, why) == (cents, [])


def test_a_decoy_shown_more_than_most_alike_times():
    assert judge([P, P, P, F, S], "lose") == (0, ["sc: PEPPER shown 3 times, at most 2"])


def test_a_code_out_of_range_then_the_tier_it_does_not_pay():
    assert judge([F, F, 7, P, S], "c4") == (200, [
        "sc: a spot code out of range (0, 0, 7, 1, 2); its wins are not its tier 'c4''s (1 win(s) paying "
        "200 cents)"])


@pytest.mark.parametrize("change", [
    {"spots": 0}, {"spots": 65}, {"pictures": ["FLAME", "FLAME", "SUN"]}, {"symbol": "MOON"},
    {"most_alike": 0}, {"prizes": []}, {"legend": []},
    {"legend": [{"count": 4, "prize": "2"}, {"count": 2, "prize": "9"}]},
    {"legend": [{"count": 6, "prize": "2"}]}, {"legend": [{"count": 2, "prize": "5"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        table = mn_table([[F, F, S, P, S]], "sc").with_columns(pl.lit("c2").alias("tier"))
        evaluate(table, {"id": "p1"}, play)
    assert str(caught.value).startswith("manifest play entry: area 'sc': ")
