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
    assert result.problems == ["Red Hot and Wild 7's: (j): row 2 ($5 w/RED 7) odds: published 1 in 25.05, "
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
    assert str(err.value) == "red_hot_wild_7s.toml: tiers[0].published_odds: 'eight' is not a number"


def test_printed_odds_of_a_row_with_no_ticket_are_a_problem_not_skipped(tmp_path):
    result = check_spec(load_spec(_edited(tmp_path, "count = 40345\n", "count = 0\n")))
    assert "Red Hot and Wild 7's: (j): row 2 ($5 w/RED 7) odds: published 1 in 25.04, computed none: no " \
           "ticket of the row in the order" in result.problems
