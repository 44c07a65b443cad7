"""poker_hand's proof text (poolgen/styles/poker_hand.py `face` and `explain`, docs/styles/poker_hand.md
sections 1, 4 and 6): YOUR HAND as printed (the JOKER too) beside the PRIZE CHART, and each winning hand
explained by its RANK and the chart's prize; a hand the chart does not pay explains nothing."""

from __future__ import annotations

import pytest

from poolgen.loader import load_spec
from tests.support.poker_ranks import hand
from tests.support.spec_docs import base_doc, write

CHART = ["five_of_a_kind", "royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
         "straight", "three_of_a_kind", "two_pair", "jacks_or_better"]


@pytest.fixture
def area(tmp_path):
    prizes = [{"group": "pz", "code": f"Z{i}", "symbol": f"${10 - i}", "caption": f"P{i}",
               "value": f"{10 - i}.00"} for i in range(len(CHART))]
    chart = [{"hand": h, "prize": f"Z{i}"} for i, h in enumerate(CHART)]
    tiers = [{"id": f"t{i}", "count": 10, "wins": [{"area": "ph", "prize": f"Z{i}", "how": "match"}]}
             for i in range(len(CHART))]  # every chart line paid by a tier (a line none pays is refused)
    area = {"id": "ph", "style": "poker_hand", "prizes": "pz", "joker": True, "chart": chart}
    doc = base_doc([area], prizes, tiers, max_wins=1, pool_tickets=500, per_book=25)
    return load_spec(write(tmp_path, doc)).play.areas[0]


def _row(text: str) -> dict[str, int]:
    return {f"ph_card_{i}": c for i, c in enumerate(hand(text))}


@pytest.mark.parametrize(("text", "line"), [
    ("JOKER 9C 9D 9H 9S", "ph: JOKER 9C 9D 9H 9S is five of a kind: wins $10.00."),
    ("QS JOKER AS JS 10S", "ph: QS JOKER AS JS 10S is royal flush: wins $9.00."),
    ("JOKER 2C 7D 9H KS", "ph: JOKER 2C 7D 9H KS is jacks or better: wins $1.00."),
])
def test_a_winning_hand_is_explained_by_its_rank_and_prize(area, text, line):
    lines, cells = area.module.explain("ph", area.params, _row(text))
    assert (lines, cells) == ([line], {f"ph_card_{i}" for i in range(5)})


def test_a_hand_the_chart_does_not_pay_explains_nothing(area):
    assert area.module.explain("ph", area.params, _row("JOKER 2C 7D 9H 10S")) == ([], set())


def test_the_face_shows_your_hand_and_the_chart(area):
    (title, cells), (chart_title, chart) = area.module.face("ph", area.params, _row("JOKER AS KD 10H 2C"))
    assert title == "YOUR HAND" and [(c[1], c[2]) for c in cells] == [
        ("JOKER", "JOKER"), ("AS", "ACE SPADES"), ("KD", "KING DIAMONDS"), ("10H", "TEN HEARTS"),
        ("2C", "TWO CLUBS")]
    assert chart_title == "PRIZE CHART"
    assert [(c[1], c[3], c[4]) for c in chart][:2] == [("FIVE OF A KIND", "$10", "P0"),
                                                       ("ROYAL FLUSH", "$9", "P1")]
    assert len(chart) == 10
