"""The bonus_reveal engine (audit/styles/bonus_reveal.py) on areas and tables written by hand
(docs/styles/bonus_reveal.md): the areas it refuses, the area read as written, and most_alike counting
pictures on every ticket. On a real game (Wild Side's bonus area): test_key_number_match.py."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from audit.styles import bonus_reveal
from audit.styles.interface import Reasons
from audit.styles.play import evaluate as evaluate_styles
from tests.support.play_entries import mn_table

BR_AREA = {"id": "bonus", "style": "bonus_reveal", "spots": 3, "most_alike": 2,
           "prizes": [{"code": "10", "cents": 1000}], "pictures": ["bell", "star"]}


@pytest.mark.parametrize("change", [{"most_alike": 4}, {"most_alike": 0}, {"spots": True}, {"spots": 0},
                                    {"prizes": []}, {"pictures": []}, {"most_alike": True}])
def test_bonus_reveal_refuses_an_unreadable_area(change):
    with pytest.raises(ValueError) as caught:
        bonus_reveal.evaluate(pl.DataFrame(), BR_AREA | change, Reasons())
    assert str(caught.value) == ("manifest play entry: area 'bonus': spots, most_alike, prizes or pictures "
                                 "unreadable")


def test_bonus_reveal_reads_its_area_as_written():  # the baseline of the refusals above
    table = pl.DataFrame({f"bonus_spot_{j}": [v] for j, v in enumerate([0, 2, 1])}).cast(pl.UInt8)
    reasons = Reasons()
    slots = bonus_reveal.evaluate(table, BR_AREA, reasons)
    assert [bool(s.won[0]) for s in slots] == [False, True, False] and reasons.illegal() == []
    assert np.array_equal(slots[1].cents, [1000])


def test_bonus_reveal_reads_most_alike_1():
    """most_alike = 1: no picture may show twice."""
    area = BR_AREA | {"most_alike": 1}
    reasons = Reasons()
    slots = bonus_reveal.evaluate(mn_table([[0, 1, 2], [0, 0, 2]], aid="bonus"), area, reasons)
    assert reasons.illegal() == [(1, "bonus: one picture shows 2 times (at most 1: more read as a match that "
                                     "wins nothing)")]
    assert [s.won.tolist() for s in slots] == [[False, False], [False, False], [True, True]]


def test_bonus_reveal_most_alike_counts_pictures_on_every_ticket():
    area = {"id": "r", "style": "bonus_reveal", "spots": 3, "most_alike": 1,
            "prizes": [{"code": "WIN10", "cents": 1000}], "pictures": ["BAR", "BILL"]}
    reveal = {"area": "r", "how": "reveal", "by": 1, "prize": "WIN10", "prize_cents": 1000}
    play = {"max_wins": 3, "areas": [area], "tiers": [
        {"id": "lose", "wins": []}, {"id": "10", "wins": [reveal]}, {"id": "20", "wins": [reveal] * 2}]}
    # codes: BAR 0, BILL 1, WIN10 2
    table = pl.DataFrame([{"tier": t, "r_spot_0": a, "r_spot_1": b, "r_spot_2": c}
                          for t, a, b, c in (("20", 2, 2, 0), ("10", 2, 0, 0), ("lose", 0, 1, 1))]
                         ).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate_styles(table, {"id": "p1"}, play)
    assert result.prize_cents.tolist() == [2000, 1000, 0]
    assert result.illegal == [
        (1, "r: one picture shows 2 times (at most 1: more read as a match that wins nothing)"),
        (2, "r: one picture shows 2 times (at most 1: more read as a match that wins nothing)")]
