"""The `[blocks]` table of an eInstant spec (poolgen/loader/packs.py): every field read, every refusal one
line naming the file and the field, and what no pool's counts allow refused before anything is made."""

from __future__ import annotations

from decimal import Decimal

import pytest

from poolgen.errors import SpecError
from poolgen.game.packs import Cap, Packs, Spacing, manifest_packs
from poolgen.loader import load_spec
from tests.support.blocks import blocks_variant

BIG = ["m5000", "m500", "m400", "m300", "m200"]


def test_every_field_is_read_and_recorded(tmp_path):
    game = load_spec(blocks_variant(tmp_path))
    assert game.packs == Packs(neighbours="within packs", min_winners=25, block=100,
                               min_prize_times=Decimal("40"), caps=(Cap(tuple(BIG), 1, "blocks.caps[0]"),),
                               spacing=(Spacing(("m50", "m45", "m40"), 2, "blocks.spacing[0]"),),
                               einstant=True)
    assert game.packs.floor_cents(game.pools[0].price_cents) == 4000
    assert manifest_packs(game.packs) == {
        "shares": 100, "neighbours": "within blocks", "min_winners": 25, "min_prize_times": "40",
        "caps": [{"tiers": BIG, "at_most": 1}],
        "spacing": [{"tiers": ["m50", "m45", "m40"], "min_distance": 2}]}


def test_the_neighbour_rule_is_on_by_default_across_every_pair_of_consecutive_serials(tmp_path):
    packs = load_spec(blocks_variant(tmp_path, blocks="shares = 100")).packs
    assert packs == Packs(neighbours="across packs", block=100, einstant=True) and not packs.composition
    assert manifest_packs(packs) == {"shares": 100, "neighbours": "across blocks"}
    plain = load_spec(blocks_variant(tmp_path, blocks="")).packs  # no [blocks]: the pool's serials
    assert plain == Packs(neighbours="across packs", einstant=True)
    assert manifest_packs(plain) == {"neighbours": "across blocks"}
    said = load_spec(blocks_variant(tmp_path, blocks='neighbours = "across blocks"')).packs
    assert said == plain


def test_neighbours_off_alone_turns_the_rule_off_without_blocks(tmp_path):
    packs = load_spec(blocks_variant(tmp_path, blocks='neighbours = "off"')).packs
    assert packs == Packs(einstant=True) and packs.neighbours is None and packs.block is None
    assert manifest_packs(packs) == {"neighbours": "off"}
    shares = load_spec(blocks_variant(tmp_path, blocks='shares = 100\nneighbours = "off"')).packs
    assert shares == Packs(block=100, einstant=True)
    assert manifest_packs(shares) == {"shares": 100, "neighbours": "off"}


REFUSED = [
    ("shares = 100\ncolour = 1", "blocks.colour: unknown field"),
    ("min_winners = 25", "blocks.shares: missing field: blocks.min_winners is a rule per block, which needs "
                         "the block's size"),
    ('neighbours = "within blocks"', "blocks.neighbours: \"within blocks\" needs blocks.shares; without "
                                     "blocks the rule is \"across blocks\" (every pair of consecutive "
                                     "serials) or \"off\""),
    ('neighbours = "never"', "blocks.neighbours: must be \"across blocks\" or \"off\" without blocks.shares, "
                             "not 'never'"),
    ("neighbours = 1", "blocks.neighbours: "),
    ('neighbours = ""',
     "blocks.neighbours: must be \"across blocks\" or \"off\" without blocks.shares, not ''"),
    ('shares = 100\nneighbours = ""',
     "blocks.neighbours: must be \"within blocks\", \"across blocks\" or \"off\", not ''"),
    ("shares = 300", "blocks.shares: 300 does not divide the pool of 20,000 shares into blocks of two or "
                     "more (a block is whole consecutive serials)"),
    ("shares = 1", "blocks.shares: 1 does not divide the pool of 20,000 shares"),
    ('shares = 100\nneighbours = "within packs"',
     "blocks.neighbours: must be \"within blocks\", \"across blocks\" or \"off\", not 'within packs'"),
    ("shares = 100\nmin_winners = 0", "blocks.min_winners: 0 asks nothing (every block holds at least 0 "
                                     "winners); leave it out"),
    ("shares = 100\nmin_winners = 101", "blocks.min_winners: 101 is more than a block's 100 tickets"),
    ("shares = 100\nmax_winners = 100", "blocks.max_winners: 100 asks nothing (a block holds 100 tickets)"),
    ('shares = 100\ncaps = [ { tiers = ["m1"], at_most = 100 } ]',
     "blocks.caps[0].at_most: 100 asks nothing (a block holds 100 tickets); leave the cap out"),
    ("shares = 100\nspacing = []", "blocks.spacing: an empty list asks nothing"),
    ("shares = 100\nmin_winners = 40\nmax_winners = 30", "blocks.max_winners: 30 is below min_winners 40"),
    ('shares = 100\nmin_prize_value = "40.00"', "blocks.min_prize_value: unknown field"),
    ('shares = 100\nmin_prize_times = "0"', "blocks.min_prize_times: must be more than nothing"),
    ('shares = 100\nmin_prize_times = "0.001"', "blocks.min_prize_times: 0.001 x the share price of pool "
                                               "d1.00 ($1.00) is not whole cents"),
    ('shares = 100\ncaps = [ { prize = "5.00", at_most = 1 } ]',
     "blocks.caps[0].prize: an eInstant's prizes differ from pool to pool: name the tiers (`tiers = [...]`)"),
    ('shares = 100\ncaps = [ { tiers = ["m11"], at_most = 1 } ]', "blocks.caps[0].tiers: no tier 'm11'"),
    ('shares = 100\nspacing = [ { tiers = ["m50"], min_distance = 101 } ]',
     "blocks.spacing[0].min_distance: must be 2 (never back to back) to 100 (a block), not 101"),
    # what no pool's counts allow
    ("shares = 100\nmin_winners = 34", "blocks.min_winners: pool d1.00 (200 blocks of 100) has 6,777 "
                                       "winners, fewer than 34 x 200 = 6,800"),
    ('shares = 100\nmin_prize_times = "121"', "blocks.min_prize_times: pool d1.00 (200 blocks of 100) pays "
                                              "$24,056.00 in all, less than $121.00 x 200 = $24,200.00"),
    ('shares = 100\ncaps = [ { tiers = ["m1"], at_most = 20 } ]', "blocks.caps[0].at_most: pool d1.00 (200 "
                                                                  "blocks of 100) has 4,016 tickets"),
]


def test_an_empty_blocks_table_is_refused_as_saying_nothing(tmp_path):
    path = blocks_variant(tmp_path, blocks="")
    path.write_text(path.read_text() + "\n[blocks]\n")
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == (f"{tmp_path}/hand_to_hand_blocks.toml: blocks: an empty table says "
                                 "nothing (the "
                                 "neighbour rule over consecutive serials holds without it); give a "
                                 "parameter or leave it out")


@pytest.mark.parametrize(("table", "message"), REFUSED)
def test_each_refusal_is_one_line_naming_the_field(tmp_path, table, message):
    with pytest.raises(SpecError) as caught:
        load_spec(blocks_variant(tmp_path, blocks=table))
    said = str(caught.value)
    assert said.startswith(f"{tmp_path}/hand_to_hand_blocks.toml: ") and "\n" not in said
    assert message in said
