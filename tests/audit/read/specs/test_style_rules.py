"""audit/read/specs: what a style, [packs]/[blocks] or a tier's wins rule out is refused by audit's spec
reader in the loader's words, naming the same field (docs/new-game.md, section 3): before 2026-12-05 audit
read each of these specs and held a run to it, though `check` refused it. One edit of a shipped spec each;
both readers must give the one line below, word for word."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps


def _set(path: tuple[Any, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        table = doc
        for key in path[:-1]:
            table = table[key]
        table[path[-1]] = value
    return edit


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        table = doc
        for key in path[:-1]:
            table = table[key]
        del table[path[-1]]
    return edit


def _twice(doc: dict[str, Any]) -> None:  # a tier written twice under another id
    doc["tiers"].append({**doc["tiers"][0], "id": "again"})


CASES = [
    ("wild_side", _drop(("areas", 0, "spots")), "areas[0].spots: missing field"),
    ("wild_side", _set(("areas", 0, "winning"), 0),
     "areas[0].spots: 29 spots, but 0 winning numbers and 12 your numbers with their prizes are 24"),
    ("examples/cool_sevens", _drop(("areas", 0, "line_prizes")),
     "areas[0].legend: a lines area pays by `legend` (a prize per number of complete lines) or by "
     "`line_prizes` (a prize per line): one of them"),
    ("happy_holidays", _set(("tiers", 0, "wins", 0, "how"), "x"),
     "tiers[0].wins[0].how: area 'play' (match_n): how = 'x': a match_n win is \"match\" or \"multiplier\""),
    ("wild_side", _set(("tiers", 0, "wins", 0, "prize"), "x"),
     "tiers[0].wins[0].prize: area 'numbers' (key_number_match): prize 'x' is not one of its prize symbols"),
    ("happy_holidays", _twice, "tiers[6]: duplicate tier: won the same way as tiers[0]"),
    ("happy_holidays", _drop(("published", "free_ticket_cost")),
     "published.free_ticket_cost: missing: say how the published table prices free tickets (\"zero\" or "
     "\"price\")"),
    ("examples/happy_holidays_packs", _set(("packs", "min_winners"), 0),
     "packs.min_winners: 0 asks nothing (every pack holds at least 0 winners); leave it out"),
    ("examples/happy_holidays_packs", _set(("packs", "spacing", 0, "min_distance"), 0),
     "packs.spacing[0].min_distance: must be 2 (never back to back) to 300 (a pack), not 0"),
    ("examples/happy_holidays_packs", _set(("packs", "caps", 0, "at_most"), 0),
     "packs.caps[0].at_most: pool p1 (1,000 packs of 300) has 450 tickets of tiers 100: more than 0 x 1,000 "
     "packs = 0"),
    ("examples/hand_to_hand_blocks", _set(("blocks", "shares"), 7),
     "blocks.shares: 7 does not divide the pool of 1,000,000 shares into blocks of two or more (a block is "
     "whole consecutive serials)"),
    ("hand_to_hand_tactics", _set(("tiers", 1, "multiplier"), "5000"),
     "tiers[1].multiplier: duplicate tier: multiplier 5000 appears twice"),
    ("examples/pattern_bingo",
     _set(("areas", 0, "patterns", 0), {"name": "Dot", "cells": [[25]], "prize": "2"}),
     "areas[0].patterns[0].cells[0]: 25 is not a cell 0..24 (row k // 5, column k % 5)"),
    ("examples/bank_roll", _set(("areas", 0, "target"), [7, 99]),
     "areas[0].target: a game of 2 numbers cannot add up to 99"),
]


@pytest.mark.parametrize(("name", "edit", "line"), CASES, ids=[line.split(":")[0] for _, _, line in CASES])
def test_audits_reader_refuses_what_a_style_or_pack_rule_rules_out_in_the_loaders_words(tmp_path, name, edit,
                                                                                        line):
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    edit(doc)
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value) == f"{spec}: {line}"
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"
