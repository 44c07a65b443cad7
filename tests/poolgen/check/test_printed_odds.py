"""A printed tier's `published_odds` (docs/new-game.md, section 1, row (j)): the "1 in" a lottery
prints on each row of its prize table (New Hampshire's "ODDS OF 1 IN", Minnesota's "Odds"), which
`check` reconciles with the order's tickets over the tier's count, rounded half up to the places
written. Held against specs/examples/red_hot_wild_7s.toml, whose 26 rows print odds and no cost."""

from __future__ import annotations

from pathlib import Path

import pytest

from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import replaced

SPEC = ROOT / "specs" / "examples" / "red_hot_wild_7s.toml"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    return replaced(SPEC, tmp_path, old, new)


def test_every_row_s_printed_odds_reconcile():
    spec = load_spec(SPEC)
    assert [t.published.odds for t in spec.tiers][:3] == ["8.33", "25.04", "33.31"]
    assert spec.tiers[-1].published.odds == "202,060.00"
    result = check_spec(spec)
    assert result.stated and result.problems == []


def test_a_row_whose_printed_odds_disagree_is_a_problem(tmp_path):
    result = check_spec(load_spec(_edited(tmp_path, 'published_odds = "25.04"', 'published_odds = "25.05"')))
    # 25.05 is also 1,010,300 / 40,345 = 25.0415... rounded up: the problem says so
    assert result.problems == ["Red Hot and Wild 7's: (j): row 2 ($5 w/RED 7) odds: published 1 in 25.05, "
                               "computed 1 in 25.04 (rounded up 25.05: a table that rounds its rows' odds up "
                               "says row_odds_rounding = \"up\" in [published])"]
    result = check_spec(load_spec(_edited(tmp_path, 'published_odds = "25.04"', 'published_odds = "25.06"')))
    assert result.problems == ["Red Hot and Wild 7's: (j): row 2 ($5 w/RED 7) odds: published 1 in 25.06, "
                               "computed 1 in 25.04"]


def test_printed_odds_are_counted_over_the_whole_order(tmp_path):
    """Two pools of the counts per pool: every row's count over the order doubles with its tickets, so
    the rows' odds still reconcile (the total winners, per order, no longer do)."""
    path = _edited(tmp_path, "order_tickets = 1010300\n", "order_tickets = 2020600\n")
    path.write_text(path.read_text().replace('counts_per = "order"', 'counts_per = "pool"'))
    result = check_spec(load_spec(path))
    assert result.problems == ["Red Hot and Wild 7's: (i): total winners: published 246,247, "
                               "computed 492,494"]


def test_printed_odds_that_are_not_a_number_are_refused(tmp_path):
    with pytest.raises(SpecError) as err:
        load_spec(_edited(tmp_path, 'published_odds = "8.33"', 'published_odds = "eight"'))
    assert str(err.value) == (f"{tmp_path}/red_hot_wild_7s.toml: tiers[0].published_odds: 'eight' is not a "
                              "number")


@pytest.mark.parametrize("odds", ["8.33e0", "833e-2", "8_33", "+8.33", " 8.33"])
def test_printed_odds_in_a_spelling_no_table_prints_are_refused_not_read_as_decimal_reads_them(tmp_path,
                                                                                            odds):
    """'833e-2' is 8.33 to Decimal: read so, a row's "1 in" written as no table prints it passed check."""
    with pytest.raises(SpecError) as err:
        load_spec(_edited(tmp_path, 'published_odds = "8.33"', f'published_odds = "{odds}"'))
    assert str(err.value) == (f"{tmp_path}/red_hot_wild_7s.toml: tiers[0].published_odds: {odds!r} is not a "
                              "number")


def test_printed_odds_of_a_row_with_no_ticket_are_a_problem_not_skipped(tmp_path):
    result = check_spec(load_spec(_edited(tmp_path, "count = 40345\n", "count = 0\n")))
    assert "Red Hot and Wild 7's: (j): row 2 ($5 w/RED 7) odds: published 1 in 25.04, computed none: no " \
           "ticket of the row in the order" in result.problems


# Nebraska truncates its rows' odds (game 863, "10X The Money": 240,000 / 22,000 = 10.909 printed
# "10.90", 240,000 / 7,000 = 34.2857 printed "34.28"), where New Hampshire and Minnesota round half up.
# `[published] row_odds_rounding = "down"` says so (docs/new-game.md, section 1, row (j)).

def _truncating(tmp_path: Path) -> Path:
    """Red Hot and Wild 7's with row 2 printed as a truncating table prints it (1,010,300 / 40,345 =
    25.0415...: rounded 25.04, truncated 25.04) and row 4 (1,010,300 / 20,229 = 49.9431...: 49.94 both),
    row 1 (1,010,300 / 121,234 = 8.3335...: 8.33 both), row 6 (1,010,300 / 10,126 = 99.7728...: rounded
    99.77, truncated 99.77): the rows that differ are row 3 (1,010,300 / 30,333 = 33.3066...: 33.31
    rounded, 33.30 truncated) and others; here row 3 alone is printed truncated."""
    return _edited(tmp_path, 'published_odds = "33.31"', 'published_odds = "33.30"')


def test_a_truncated_row_odds_under_the_default_rounding_is_a_problem_that_names_the_field(tmp_path):
    result = check_spec(load_spec(_truncating(tmp_path)))
    assert result.problems == ["Red Hot and Wild 7's: (j): row 3 ($10) odds: published 1 in 33.30, computed "
                               "1 in 33.31 (truncated 33.30: a table that truncates its rows' odds says "
                               "row_odds_rounding = \"down\" in [published])"]


def test_row_odds_rounding_down_reconciles_a_table_that_truncates_its_rows_odds(tmp_path):
    path = _truncating(tmp_path)
    path.write_text(path.read_text().replace("[published]", "[published]\nrow_odds_rounding = \"down\"", 1))
    spec = load_spec(path)
    assert spec.published.row_odds_rounding == "down"
    rows = [p for p in check_spec(spec).problems if "(j): row" in p]
    # every other row of New Hampshire's table is rounded half up: those that truncate otherwise now differ
    assert rows and all("computed 1 in" in p and "truncated" not in p for p in rows)
    assert not any("row 3 ($10)" in p for p in rows)


def test_row_odds_rounding_down_reports_the_truncated_figure(tmp_path):
    path = _edited(tmp_path, 'published_odds = "33.31"', 'published_odds = "33.29"')
    path.write_text(path.read_text().replace("[published]", "[published]\nrow_odds_rounding = \"down\"", 1))
    problems = [p for p in check_spec(load_spec(path)).problems if "row 3 ($10)" in p]
    assert problems == ["Red Hot and Wild 7's: (j): row 3 ($10) odds: published 1 in 33.29, computed 1 in "
                        "33.30"]


def test_row_odds_rounding_half_up_written_out_changes_nothing(tmp_path):
    path = _edited(tmp_path, "[published]", "[published]\nrow_odds_rounding = \"half up\"")
    result = check_spec(load_spec(path))
    assert result.stated and result.problems == []



# Wisconsin rounds its rows' odds up (break-open game 767, "Deal 'Em": 1,050 / 200 = 5.25 printed "1:6",
# 1,050 / 20 = 52.5 printed "1:53"): `row_odds_rounding = "up"`. Row 1 of Red Hot and Wild 7's,
# 1,010,300 / 121,234 = 8.3335...: 8.33 rounded half up or truncated, 8.34 rounded up.

def test_a_row_odds_rounded_up_under_the_default_rounding_is_a_problem_that_names_the_field(tmp_path):
    result = check_spec(load_spec(_edited(tmp_path, 'published_odds = "8.33"', 'published_odds = "8.34"')))
    assert result.problems == ["Red Hot and Wild 7's: (j): row 1 ($5) odds: published 1 in 8.34, computed "
                               "1 in 8.33 (rounded up 8.34: a table that rounds its rows' odds up says "
                               "row_odds_rounding = \"up\" in [published])"]


def test_row_odds_rounding_up_reconciles_a_row_rounded_up_and_reports_the_rounded_up_figure(tmp_path):
    path = _edited(tmp_path, 'published_odds = "8.33"', 'published_odds = "8.34"')
    path.write_text(path.read_text().replace("[published]", "[published]\nrow_odds_rounding = \"up\"", 1))
    spec = load_spec(path)
    assert spec.published.row_odds_rounding == "up"
    problems = check_spec(spec).problems
    assert not any("row 1 ($5)" in p for p in problems)
    # row 3, 1,010,300 / 30,333 = 33.3066...: printed 33.31, which rounding up also gives; row 2,
    # 1,010,300 / 40,345 = 25.0415...: printed 25.04, rounded up 25.05
    assert not any("row 3 ($10)" in p for p in problems)
    assert "Red Hot and Wild 7's: (j): row 2 ($5 w/RED 7) odds: published 1 in 25.04, computed 1 in 25.05" \
        in problems


@pytest.mark.parametrize(("value", "message"), [
    ('"nearest"', "published.row_odds_rounding: must be \"half up\", \"down\" or \"up\", not 'nearest'"),
    ('"ceiling"', "published.row_odds_rounding: must be \"half up\", \"down\" or \"up\", not 'ceiling'"),
    ("1", "published.row_odds_rounding: must be a string, not 1"),
])
def test_a_row_odds_rounding_of_another_value_is_refused(tmp_path, value, message):
    with pytest.raises(SpecError) as err:
        load_spec(_edited(tmp_path, "[published]", f"[published]\nrow_odds_rounding = {value}"))
    assert str(err.value) == f"{tmp_path}/red_hot_wild_7s.toml: {message}"


def test_a_row_odds_rounding_with_no_row_odds_to_round_is_refused_as_not_used(tmp_path):
    path = _edited(tmp_path, "[published]", "[published]\nrow_odds_rounding = \"down\"")
    path.write_text("\n".join(line for line in path.read_text().splitlines()
                              if not line.startswith("published_odds")) + "\n")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/red_hot_wild_7s.toml: published.row_odds_rounding: not used: no "
                              "tier states "
                              "published_odds")
