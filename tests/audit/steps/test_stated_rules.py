"""Rules docs/pool-files.md, docs/manifest.md and docs/merkle.md state that audit enforced but no test
named: rows stored in position order (step 3), a manifest's tier counts adding up to its tickets, odds
and payout as recounted and rounded half up to 4 places (step 5), and a Merkle algorithm other than
poolgen-merkle/v2 (step 6). Each check is called on a real run of one book of 9 tickets
(tests/audit/steps/conftest.py `small_printed`) with exactly that rule broken, so a check that stopped
enforcing it fails here."""

from __future__ import annotations

from dataclasses import replace

import polars as pl
import pytest

from audit.errors import VerificationError
from audit.read.manifest import Tier
from audit.read.runfiles import read_pool
from audit.steps.figures import check_figures, decimal_text
from audit.steps.identity import check_complete
from audit.steps.merkle_roots import check_merkle


@pytest.fixture
def pool(small_printed):
    run, manifest = small_printed
    entry = manifest.pools[0]
    return read_pool(run, entry.file), entry, manifest


def _fails(step: int, check, *args) -> str:
    with pytest.raises(VerificationError) as caught:
        check(*args)
    assert caught.value.step == step
    return caught.value.reason


def test_the_untouched_pool_passes_steps_3_5_and_6(pool):
    table, entry, manifest = pool
    check_complete(table, entry, "printed", entry.tickets, manifest.doc["game"]["number"])
    check_figures(table, entry)
    check_merkle(table, entry)


def test_rows_out_of_position_order_fail_step_3(pool):
    table, entry, manifest = pool
    swapped = pl.concat([table[1:2], table[0:1], table[2:]])  # rows 0 and 1 stored the other way round
    number = manifest.doc["game"]["number"]
    reason = _fails(3, check_complete, swapped, entry, "printed", entry.tickets, number)
    assert reason.startswith("2 row(s) not at their position (rows 0, 1); ")


def test_tier_counts_that_do_not_add_up_to_the_tickets_fail_step_5(pool):
    table, entry, _ = pool
    more = replace(entry, tickets=entry.tickets + 1)
    reason = _fails(5, check_figures, table, more)
    assert reason.endswith("the manifest's tier counts do not add up to its tickets")


def test_odds_and_payout_are_recounted_and_rounded_half_up_to_4_places(pool):
    table, entry, _ = pool
    assert entry.odds_1_in == decimal_text(entry.tickets, entry.winners)
    reason = _fails(5, check_figures, table, replace(entry, odds_1_in="3.0"))
    assert reason == f"odds 1 in: recounted {entry.odds_1_in}, the manifest says 3.0"
    reason = _fails(5, check_figures, table, replace(entry, payout_pct="0"))
    assert reason == f"payout %: recounted {entry.payout_pct}, the manifest says 0"


@pytest.mark.parametrize(("num", "den", "text"), [(1, 3, "0.3333"), (2, 3, "0.6667"), (1, 8, "0.1250"),
                                                  (1, 20000, "0.0001"), (1, 20001, "0.0000"),
                                                  (9, 1, "9.0000")])
def test_decimal_text_rounds_half_up_to_4_places(num, den, text):
    assert decimal_text(num, den) == text


def test_a_tier_count_off_by_one_fails_step_5(pool):
    table, entry, _ = pool
    tiers = (replace(entry.tiers[0], count=entry.tiers[0].count + 1), *entry.tiers[1:])
    reason = _fails(5, check_figures, table, replace(entry, tiers=tiers))
    assert f"tier 'lose': {entry.tiers[0].count:,} tickets, the manifest says {entry.tiers[0].count + 1:,}" \
        in reason


def test_a_merkle_algorithm_other_than_v2_fails_step_6(pool):
    table, entry, _ = pool
    assert _fails(6, check_merkle, table, replace(entry, merkle_algorithm="poolgen-merkle/v1")) == \
        "unknown Merkle algorithm 'poolgen-merkle/v1'"


def test_a_tier_listed_twice_fails_step_5(pool):
    table, entry, _ = pool
    twice = (*entry.tiers, Tier(entry.tiers[-1].id, entry.tiers[-1].prize_cents, 0))
    assert _fails(5, check_figures, table, replace(entry, tiers=twice)).startswith(
        "a tier id appears twice in the manifest")
