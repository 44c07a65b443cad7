"""The auditor's lines engine (audit/styles/lines.py, audit/styles/play.py) on a play entry and tables
written by hand from docs/styles/lines.md: what complete lines win, every rule of section 5 with its
exact reason, and the entries it cannot read."""

from __future__ import annotations

import copy

import polars as pl
import pytest

from audit.styles.play import evaluate
from tests.support.play_entries import win

X, OH, S = 0, 1, 2  # the pictures X, O, STAR
AREA = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": ["X", "O", "STAR"], "symbol": "X",
        "lines": [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 4, 8]],
        "prizes": [{"code": "2", "cents": 200}, {"code": "9", "cents": 900}],
        "legend": [{"lines": 1, "prize": "2"}, {"lines": 3, "prize": "9"}]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "l1", "wins": [win("ln", "2", 200)]},
                  {"id": "l3", "wins": [win("ln", "9", 900)]}]}


def judge(cells: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"ln_cell_{k}": [v] for k, v in enumerate(cells)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("cells", "tier", "cents"), [
    ([X, OH, S, OH, X, S, S, OH, OH], "lose", 0), ([X, X, X, OH, S, OH, S, OH, X], "l1", 200),
    ([X, OH, S, OH, X, S, S, OH, X], "l1", 200), ([X, X, X, X, X, X, S, OH, X], "l3", 900)])
def test_complete_lines_win_the_legends_prize(cells, tier, cents):
    assert judge(cells, tier) == (cents, [])


def test_two_lines_are_a_number_the_legend_does_not_price():
    assert judge([X, X, X, X, X, X, S, OH, OH], "lose") == (
        0, ["ln: 2 complete lines: the legend has no prize for 2"])


def test_a_line_of_one_decoy():
    assert judge([OH, OH, OH, S, X, S, S, X, OH], "lose") == (0, ["ln: line 1 shows O alone"])


def test_lines_of_one_decoy_each_name_the_area():
    assert judge([OH, OH, OH, S, S, S, S, X, OH], "lose") == (
        0, ["ln: line 1 shows O alone, ln: line 2 shows STAR alone"])


def test_a_line_of_one_decoy_beside_a_code_out_of_range():
    """Rule 2 is the line's: a cell out of range elsewhere on the ticket does not hide it."""
    assert judge([OH, OH, OH, S, X, S, S, X, 7], "lose") == (
        0, ["ln: a cell code out of range (1, 1, 1, 2, 0, 2, 2, 0, 7); ln: line 1 shows O alone"])


def test_a_code_out_of_range():
    prize, why = judge([X, OH, 5, OH, X, S, S, OH, OH], "lose")
    assert why == ["ln: a cell code out of range (0, 1, 5, 1, 0, 2, 2, 1, 1)"]


@pytest.mark.parametrize("change", [{"rows": 5, "cols": 4}, {"rows": 0}, {"symbol": "Q"}, {"lines": []},
                                    {"lines": [[0, 1]]}, {"lines": [[0, 1, 9]]}, {"legend": []},
                                    {"legend": [{"lines": 5, "prize": "2"}]},
                                    {"legend": [{"lines": 1, "prize": "7"}]}])
def test_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0] = AREA | change
    with pytest.raises(ValueError) as caught:
        judge([X, OH, S, OH, X, S, S, OH, OH], "lose", play)
    assert str(caught.value).startswith("manifest play entry: area 'ln': ")


# A prize per line (lines.md sections 3 and 5): each complete line wins the prize printed for it.
PER_LINE = {k: v for k, v in AREA.items() if k != "legend"} | {"line_prizes": ["2", "2", "9", "9"]}
PER_LINE_PLAY = {"max_wins": 3, "areas": [PER_LINE],
                 "tiers": [{"id": "lose", "wins": []}, {"id": "2", "wins": [win("ln", "2", 200)]},
                           {"id": "2+2", "wins": [win("ln", "2", 200), win("ln", "2", 200)]},
                           {"id": "2+9", "wins": [win("ln", "2", 200), win("ln", "9", 900)]},
                           {"id": "2+2+9", "wins": [win("ln", "2", 200), win("ln", "2", 200),
                                                    win("ln", "9", 900)]}]}


@pytest.mark.parametrize(("cells", "tier", "cents"), [
    ([X, OH, S, OH, X, S, S, OH, OH], "lose", 0), ([S, OH, S, X, X, X, S, OH, OH], "2", 200),
    ([X, X, X, OH, S, OH, X, X, X], "2+9", 1100), ([X, X, X, X, X, X, S, OH, X], "2+2+9", 1300)])
def test_each_complete_line_wins_the_prize_printed_for_it(cells, tier, cents):
    assert judge(cells, tier, PER_LINE_PLAY) == (cents, [])


def test_a_line_prize_the_tier_does_not_win_is_illegal():
    cents, why = judge([X, X, X, OH, S, OH, X, X, X], "2", PER_LINE_PLAY)
    assert (cents, why) == (1100, ["its wins are not its tier '2''s (2 win(s) paying 1100 cents)"])


def test_a_prize_per_line_has_no_legend_rule():
    """Two complete lines are no illegal count: every number of lines pays its lines' prizes."""
    assert judge([X, X, X, X, X, X, S, OH, OH], "2+2", PER_LINE_PLAY) == (400, [])


@pytest.mark.parametrize("change", [{"line_prizes": ["2", "2", "9"]}, {"line_prizes": ["2", "2", "9", "7"]},
                                    {"line_prizes": []}, {"legend": [{"lines": 1, "prize": "2"}]}])
def test_per_line_entries_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PER_LINE_PLAY)
    play["areas"][0] = PER_LINE | change
    with pytest.raises(ValueError, match="manifest play entry: area 'ln': rows, cols, pictures, symbol, "
                                         "symbols, calls, lines, prizes, legend or line_prizes unreadable"):
        judge([X, OH, S, OH, X, S, S, OH, OH], "lose", play)


# A prize spot a line (line_prizes = "shown", lines.md sections 4 and 5, rule 4).
SHOWN = {k: v for k, v in AREA.items() if k != "legend"} | {"line_prizes": "shown"}
SHOWN_PLAY = PER_LINE_PLAY | {"areas": [SHOWN]}


def judge_shown(cells: list[int], spots: list[int], tier: str) -> tuple[int, list[str]]:
    row = ({"tier": [tier]} | {f"ln_cell_{k}": [v] for k, v in enumerate(cells)}
           | {f"ln_prize_{i}": [v] for i, v in enumerate(spots)})
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"},
                      SHOWN_PLAY)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("cells", "spots", "tier", "cents"), [
    ([X, OH, S, OH, X, S, S, OH, OH], [1, 1, 1, 1], "lose", 0),
    ([S, OH, S, X, X, X, S, OH, OH], [1, 0, 1, 1], "2", 200),
    ([X, X, X, OH, S, OH, X, X, X], [1, 0, 0, 0], "2+9", 1100),
    ([X, X, X, X, X, X, S, OH, X], [0, 1, 1, 0], "2+2+9", 1300)])
def test_each_complete_line_wins_the_prize_its_spot_shows(cells, spots, tier, cents):
    assert judge_shown(cells, spots, tier) == (cents, [])


def test_a_prize_spot_out_of_range():
    assert judge_shown([S, OH, S, X, X, X, S, OH, OH], [1, 2, 1, 255], "2") == (
        0, ["ln: a prize spot code out of range (1, 2, 1, 255); its wins are not its tier '2''s (0 win(s) "
            "paying 0 cents)"])
