"""The `[packs]` table of a printed spec (poolgen/loader/packs.py): every field read, every refusal one
line naming the file and the field, and what no pool's counts allow refused before anything is made."""

from __future__ import annotations

import pytest

from poolgen.errors import SpecError
from poolgen.game.packs import Cap, Packs, Spacing
from poolgen.loader import load_spec
from tests.support import spec_path
from tests.support.packs import packs_variant


def test_every_field_is_read(tmp_path):
    game = load_spec(packs_variant(tmp_path))
    assert game.packs == Packs(neighbours="across packs", min_winners=80, max_winners=110,
                               min_prize_cents=15000, caps=(Cap(("100",), 1, "packs.caps[0]"),),
                               spacing=(Spacing(("20", "100"), 2, "packs.spacing[0]"),))
    assert game.packs.composition and not game.packs.winners_only


@pytest.mark.parametrize("rules", ["happy_holidays", "wild_side"])
def test_a_spec_without_packs_has_the_default_neighbour_rule_only(rules):
    assert load_spec(spec_path(rules)).packs == Packs(neighbours="within packs")


@pytest.mark.parametrize("rules", ["hand_to_hand_tactics", "primetime_payout"])
def test_an_einstant_has_the_neighbour_rule_over_its_consecutive_serials(rules):
    assert load_spec(spec_path(rules)).packs == Packs(neighbours="across packs", einstant=True)


REFUSED = [
    ("", "packs: an empty table says nothing (the default neighbour rule holds without it); give a parameter "
         "or leave it out"),
    ("min_winners = 0", "packs.min_winners: 0 asks nothing (every pack holds at least 0 winners); leave it "
                        "out"),
    ("colour = 1", "packs.colour: unknown field"),
    ('neighbours = "never"', "packs.neighbours: must be \"within packs\", \"across packs\" or \"off\", "
                             "not 'never'"),
    ('neighbours = ""', "packs.neighbours: must be \"within packs\", \"across packs\" or \"off\", not ''"),
    ("min_winners = 301", "packs.min_winners: 301 is more than a pack's 300 tickets"),
    ("min_winners = -1", "packs.min_winners: must not be negative, got -1"),
    ("min_winners = 90\nmax_winners = 80", "packs.max_winners: 80 is below min_winners 90"),
    ("min_prize_value = 150.0", "packs.min_prize_value: money must be a decimal string"),
    ('min_prize_value = "0.00"', "packs.min_prize_value: must be more than nothing"),
    ('caps = [ { tiers = ["500"], at_most = 1 } ]', "packs.caps[0].tiers: no tier '500' (tiers: free, 1, 2, "
                                                     "5, 20, 100)"),
    ('caps = [ { tiers = ["100", "100"], at_most = 1 } ]', "packs.caps[0].tiers: names a tier twice"),
    ('caps = [ { prize = "7.00", at_most = 1 } ]', "packs.caps[0].prize: no tier pays $7.00"),
    ('caps = [ { tiers = ["100"], prize = "100.00", at_most = 1 } ]',
     "packs.caps[0]: name the tiers (`tiers = [...]`) or one prize level (`prize = \"...\"`), not both"),
    ('caps = [ { tiers = ["100"] } ]', "packs.caps[0].at_most: missing field"),
    ('caps = [ { tiers = ["100"], at_most = 1, per = "book" } ]', "packs.caps[0].per: unknown field"),
    ('spacing = [ { tiers = ["100"], min_distance = 1 } ]',
     "packs.spacing[0].min_distance: must be 2 (never back to back) to 300 (a pack), not 1"),
    ("caps = 3", "packs.caps: must be a list of tables"),
    # what asks nothing, as an empty [packs] or min_winners = 0
    ("caps = []", "packs.caps: an empty list asks nothing; give a rule or leave it out"),
    ("spacing = []", "packs.spacing: an empty list asks nothing; give a rule or leave it out"),
    ("max_winners = 300", "packs.max_winners: 300 asks nothing (a pack holds 300 tickets); leave it out"),
    ('caps = [ { prize = "1.00", at_most = 300 } ]',
     "packs.caps[0].at_most: 300 asks nothing (a pack holds 300 tickets); leave the cap out"),
    # what the counts of pool p1 (100 packs of 300: 8,790 winners, $18,185.00 of prizes) cannot allow
    ("min_winners = 88", "packs.min_winners: pool p1 (100 packs of 300) has 8,790 winners, fewer than 88 x "
                         "100 = 8,800"),
    ("max_winners = 87", "packs.max_winners: pool p1 (100 packs of 300) has 8,790 winners, more than 87 x "
                         "100 = 8,700"),
    ('min_prize_value = "182.00"', "packs.min_prize_value: pool p1 (100 packs of 300) pays $18,185.00 in "
                                   "all, less than $182.00 x 100 = $18,200.00"),
    ('caps = [ { prize = "20.00", at_most = 0 } ]', "packs.caps[0].at_most: pool p1 (100 packs of 300) has "
                                                    "50 tickets of tiers 20: more than 0 x 100 packs = 0"),
    ('spacing = [ { tiers = ["5"], min_distance = 100 } ]',
     "packs.spacing[0].min_distance: pool p1 (100 packs of 300) has 410 tickets of tiers 5: at most 3 fit "
     "in a pack 100 apart, 300 in the pool"),
]


@pytest.mark.parametrize(("packs", "message"), REFUSED, ids=[m.split(":")[0] for _, m in REFUSED])
def test_a_refusal_is_one_line_naming_the_file_and_field(tmp_path, packs, message):
    with pytest.raises(SpecError) as info:
        load_spec(packs_variant(tmp_path, packs=packs))
    text = str(info.value)
    assert text.startswith(f"{tmp_path}/happy_holidays_packs.toml: {message}"), text
    assert "\n" not in text
