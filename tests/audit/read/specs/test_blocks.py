"""audit's reading of an eInstant's `[blocks]` and of a manifest's `blocks` (audit/read/specs/packs.py),
with tomllib alone: the neighbour rule over every pair of consecutive serials by default, `neighbours =
"off"` alone, blocks "across" by default, and no rule for a manifest without `blocks` (a run made before
2026-12-02); what the contract refuses, refused."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs.packs import (
    EINSTANT_RULES,
    NO_BLOCKS,
    PackRules,
    manifest_packs,
    read_blocks,
    read_packs,
)


@pytest.mark.parametrize(("doc", "rules"), [
    ({}, EINSTANT_RULES),
    ({"blocks": {"neighbours": "across blocks"}}, EINSTANT_RULES),
    ({"blocks": {"neighbours": "off"}}, NO_BLOCKS),
    ({"blocks": {"shares": 100}}, PackRules(across=True, size=100, einstant=True)),
    ({"blocks": {"shares": 100, "neighbours": "within blocks"}}, PackRules(size=100, einstant=True)),
])
def test_a_spec_s_blocks(doc, rules):
    assert read_blocks(doc) == rules
    assert rules.table == "blocks" and rules.unit == "block"


@pytest.mark.parametrize(("doc", "message"), [
    ({"blocks": {"neighbours": "within blocks"}}, "blocks: within blocks needs blocks.shares"),
    ({"blocks": {"min_winners": 3}}, "blocks: min_winners needs blocks.shares"),
    ({"blocks": {"neighbours": "never"}}, "blocks.neighbours: 'never'"),
    ({"blocks": {}}, r"blocks: an empty table says nothing \(the neighbour rule over consecutive serials "),
    ({"blocks": {"shares": 100, "min_winners": 0}},
     r"blocks.min_winners: 0 asks nothing \(every block holds at least 0 winners\)"),
    ({"blocks": {"shares": 100, "caps": []}}, r"blocks.caps: an empty list asks nothing"),
    ({"blocks": {"shares": 100, "max_winners": 100}},
     r"blocks.max_winners: 100 asks nothing \(a block holds 100 tickets\)"),
    ({"blocks": {"shares": 100, "caps": [{"tiers": ["m1"], "at_most": 100}]}},
     r"blocks.caps\[0\].at_most: 100 asks nothing \(a block holds 100 tickets\)"),
])
def test_a_spec_s_blocks_refused(doc, message):
    with pytest.raises(UnusableInput, match=message):
        read_blocks(doc)


@pytest.mark.parametrize(("doc", "message"), [
    ({"packs": {}}, r"packs: an empty table says nothing \(the default neighbour rule holds without it\)"),
    ({"packs": {"min_winners": 0}},
     r"packs.min_winners: 0 asks nothing \(every pack holds at least 0 winners\)"),
    ({"packs": {"spacing": []}}, r"packs.spacing: an empty list asks nothing"),
    ({"printed": {"first_ticket": 0, "last_ticket": 299}, "packs": {"max_winners": 300}},
     r"packs.max_winners: 300 asks nothing \(a pack holds 300 tickets\)"),
    ({"printed": {"first_ticket": 1, "last_ticket": 300},
      "packs": {"caps": [{"prize": "1.00", "at_most": 301}]}},
     r"packs.caps\[0\].at_most: 301 asks nothing \(a pack holds 300 tickets\)"),
])
def test_a_spec_s_empty_packs_and_min_winners_0_refused(doc, message):
    with pytest.raises(UnusableInput, match=message):
        read_packs(doc)


def test_a_manifest_s_blocks():
    assert manifest_packs({"blocks": {"neighbours": "across blocks"}}) == EINSTANT_RULES
    assert manifest_packs({"blocks": {"neighbours": "off"}}) == NO_BLOCKS
    assert manifest_packs({"game": {"kind": "einstant"}}) is None  # made before 2026-12-02: no rule
    assert EINSTANT_RULES.across and EINSTANT_RULES.neighbours and EINSTANT_RULES.size is None
    assert not NO_BLOCKS.neighbours and not NO_BLOCKS.composition
