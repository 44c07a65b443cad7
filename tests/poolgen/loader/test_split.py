"""`[printed] split = "even"` (docs/new-game.md section 2, poolgen/loader/printed.py): a split order
loads with each pool's shares rounded down until a seed draws the rest; every refusal one line naming
the field; without the field, today's exact rule."""

from __future__ import annotations

import pytest

from poolgen.errors import SpecError
from poolgen.game.model import Printed
from poolgen.loader import load_spec
from poolgen.run.split import ceiling_game, split_game
from tests.support import SEED_A
from tests.support.spec_docs import kn_doc, write


def split_doc() -> dict:
    """The small key_number_match game as an order of six pools of 2,000, counts per order, its top
    tier 4 (two thirds of a prize a pool)."""
    doc = kn_doc()
    doc["printed"] |= {"order_tickets": 12_000, "counts_per": "order", "split": "even"}
    doc["tiers"][3]["count"] = 4
    return doc


def test_a_split_order_loads_with_its_shares_rounded_down_until_drawn(tmp_path):
    game = load_spec(write(tmp_path, split_doc()))
    assert isinstance(game.sales, Printed) and game.sales.split == "even"
    assert [[t.count for t in p.tiers] for p in game.pools] == [[1960, 16, 16, 8, 0]] * 6
    drawn = split_game(game, SEED_A)
    assert [sum(p.tiers[i].count for p in drawn.pools) for i in range(1, 5)] == [100, 100, 50, 4]
    assert all(p.tiers[0].count == p.tickets - p.winners for p in drawn.pools)
    assert split_game(drawn, SEED_A) is drawn  # drawn once
    # what check probes layouts and the neighbour rule with: every share rounded up, losers absorbing
    assert [[t.count for t in p.tiers] for p in ceiling_game(game).pools] == [[1956, 17, 17, 9, 1]] * 6


def test_without_split_a_count_that_does_not_scale_is_refused_as_before(tmp_path):
    doc = split_doc()
    del doc["printed"]["split"]
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    assert str(err.value) == (f"{tmp_path}/g.toml: tiers[0].count: 100 winners per order do not scale "
                              "exactly "
                              "to a pool of 2000 (printed.split = \"even\" spreads it)")


def _refusal(tmp_path, change) -> str:
    doc = split_doc()
    change(doc)
    with pytest.raises(SpecError) as err:
        load_spec(write(tmp_path, doc))
    return str(err.value)


def test_a_split_is_refused_in_one_line_naming_the_field(tmp_path):
    assert _refusal(tmp_path, lambda d: d["printed"].update(split="odd")) == \
        f"{tmp_path}/g.toml: printed.split: must be \"even\", not 'odd'"
    assert _refusal(tmp_path, lambda d: d["printed"].update(counts_per="pool")) == \
        f"{tmp_path}/g.toml: printed.split: needs counts_per = \"order\": the pools' counts add up to the " \
        "order's"

    def whole(doc: dict) -> None:
        for tier, count in zip(doc["tiers"], (600, 600, 300, 60), strict=True):
            tier["count"] = count
    assert _refusal(tmp_path, whole) == \
        f"{tmp_path}/g.toml: printed.split: not used: every tier's count scales exactly to every pool"


def test_pack_parameters_load_beside_a_split(tmp_path):
    """Every pool holds 40 to 44 winners in 40 packs: one to two a pack fits whatever the seed draws."""
    doc = split_doc() | {"packs": {"min_winners": 1, "max_winners": 2,
                                   "caps": [{"tiers": ["6"], "at_most": 1}]}}
    game = load_spec(write(tmp_path, doc))
    assert (game.packs.min_winners, game.packs.max_winners, game.packs.caps[0].at_most) == (1, 2, 1)


def test_a_split_pools_minimum_is_proved_with_every_share_rounded_down_a_maximum_rounded_up(tmp_path):
    """A pool holds $48 in 40 packs rounded down, $58 rounded up; 40 winners rounded down, 44 up: each
    parameter is refused at the rounding that breaks it, though the other rounding meets it."""
    assert _refusal(tmp_path, lambda d: d.update(packs={"min_prize_value": "1.25"})) == (
        f"{tmp_path}/g.toml: packs.min_prize_value: pool p1 (40 packs of 50) pays $48.00 in all when every "
        "share rounds down, less than $1.25 x 40 = $50.00")
    assert _refusal(tmp_path, lambda d: d.update(packs={"max_winners": 1})) == (
        f"{tmp_path}/g.toml: packs.max_winners: pool p1 (40 packs of 50) has 44 winners when every share "
        "rounds up, more than 1 x 40 = 40")
    assert _refusal(tmp_path, lambda d: d.update(packs={"caps": [{"tiers": ["6"], "at_most": 0}]})) == (
        f"{tmp_path}/g.toml: packs.caps[0].at_most: pool p1 (40 packs of 50) has 1 tickets of tiers 6 when "
        "every share rounds up: more than 0 x 40 packs = 0")


def test_a_split_that_could_leave_a_pool_without_losers_is_refused(tmp_path):
    """Every share rounded down fits (1,998 winners in 2,000), every share rounded up does not."""
    def crowded(doc: dict) -> None:
        for tier, count in zip(doc["tiers"], (11_984, 6, 3, 4), strict=True):
            tier["count"] = count
    assert _refusal(tmp_path, crowded) == (f"{tmp_path}/g.toml: printed.split: 2001 winners per pool exceed "
                                           "the pool of 2000 tickets when every share rounds up")


@pytest.mark.parametrize("packs", [5, [["min_winners"]]])
def test_a_split_beside_packs_that_are_no_table_is_refused_in_one_line(tmp_path, packs):
    """`packs = 5` beside a split was a TypeError traceback (set(5)), not the one line without a split."""
    assert _refusal(tmp_path, lambda d: d.update(packs=packs)) == f"{tmp_path}/g.toml: packs: must be a table"
