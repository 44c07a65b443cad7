"""audit/read/specs: a whole number past TOML's 64-bit range, and a tier with an empty `wins` list, are
refused by audit's reader in poolgen's loader's words, naming the same field. A fuzz of today's examples
(poker_hand, hold 'em, `multiplies`, [packs] spacing) found audit's reader taking `play.max_wins`,
`printed.last_ticket` or `areas[0].spots` of 10**30 and a tier whose wins are [] (a cards or poker_hand
area), or refusing them for another field or with an OverflowError naming none."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

HUGE = 10**30
OUT = "is out of range (a whole number below 2**63)"
CASES: list[tuple[str, tuple[Any, ...], object, str]] = [
    ("poker_lotto_instant", ("play", "max_wins"), HUGE, f"play.max_wins: {HUGE} {OUT}"),
    ("poker_lotto_instant", ("printed", "order_tickets"), HUGE, f"printed.order_tickets: {HUGE} {OUT}"),
    ("holdem_poker", ("printed", "last_ticket"), HUGE, f"printed.last_ticket: {HUGE} {OUT}"),
    ("holdem_poker", ("tiers", 0, "count"), HUGE, f"tiers[0].count: {HUGE} {OUT}"),
    ("happy_holidays_packs", ("areas", 0, "spots"), HUGE, f"areas[0].spots: {HUGE} {OUT}"),
    ("happy_holidays_packs", ("printed", "pool_tickets"), -HUGE, f"printed.pool_tickets: {-HUGE} {OUT}"),
    ("happy_holidays_packs", ("packs", "spacing", 0, "tiers", 0), HUGE,
     f"packs.spacing[0].tiers[0]: {HUGE} {OUT}"),
    ("bclc_deluxe_crossword", ("printed", "first_ticket"), HUGE, f"printed.first_ticket: {HUGE} {OUT}"),
    ("poker_lotto_instant", ("tiers", 0, "wins"), [], "tiers[0].wins: a prize tier is won some way"),
    ("holdem_poker", ("tiers", 1, "wins"), [], "tiers[1].wins: a prize tier is won some way"),
    ("happy_holidays_packs", ("tiers", 2, "wins"), [], "tiers[2].wins: a prize tier is won some way"),
]


@pytest.mark.parametrize(("name", "path", "value", "said"), CASES, ids=[f"{c[0]}:{c[3][:30]}" for c in CASES])
def test_audits_reader_refuses_a_huge_number_or_empty_wins_in_the_loaders_words(
        tmp_path: Path, name: str, path: tuple[Any, ...], value: object, said: str) -> None:
    doc = tomllib.loads((ROOT / "specs" / "examples" / f"{name}.toml").read_text(encoding="utf-8"))
    table = doc
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value).startswith(f"{spec}: {said}")
    assert str(reader.value).startswith(f"{spec}: {said}")
