"""Whole pools pinned across versions: a seed must keep giving the pools it gave (tests/vectors/pools.txt)."""

from __future__ import annotations

import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from poolgen.run.merkle import root
from tests.support import SEED_A, VECTORS, spec_path


def _vectors() -> list[tuple[str, str, int, str]]:
    lines = (VECTORS / "pools.txt").read_text().splitlines()
    rows = [line.split() for line in lines if line and not line.startswith("#")]
    return [(rules, pool, int(tickets), digest) for rules, pool, tickets, digest in rows]


def test_the_vectors_cover_every_game():
    assert {rules for rules, *_ in _vectors()} == {"hand_to_hand_tactics", "primetime_payout",
                                                   "happy_holidays", "wild_side"}


@pytest.mark.parametrize(("rules", "pool_id", "tickets", "digest"), _vectors())
def test_a_seed_gives_the_pool_it_always_gave(rules, pool_id, tickets, digest):
    spec = load_spec(spec_path(rules))
    table = build_pool(spec, spec.pool(pool_id), SEED_A)
    assert table.height == tickets
    assert root(table).hex() == digest
