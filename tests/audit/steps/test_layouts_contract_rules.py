"""Step 4 (audit/steps/layouts.py) enforcing the rules the style contracts settled (issue 22, item 6,
"precise contracts"; docs/styles/*.md), on real signed runs.

Two rows the engines used to accept, though the contracts exclude them, each in a real signed run
with one loser's row replaced by the crafted row and the manifest re-signed with the run's real key
(as an insider holding it could), so that only the rules engine (verify step 4) can tell:

- (A) a Ca$h Explosion loser (specs/examples/cash_explosion.toml, style match_n) showing eight
  different amounts and one 2X: docs/styles/match_n.md section 5, rule 4 (section 6);
- (B) a Hand to Hand Tactics loser (specs/hand_to_hand_tactics.toml, style prize_legend_duel) showing
  two MULTIPLIER spots when `loser_max_multipliers = 1`: docs/styles/prize_legend_duel.md section 4,
  rule 7 (section 9).

Each other rule a contract now states is tested on tables crafted by hand beside its engine's tests
(tests/audit/styles/)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from tests.support import SPECS, spec_path
from tests.support.layout_tamper import cli_verify, copied, replace_a_losers_row, signed_run

# ------------------------------------------------------------------------------------------------
# (A) Ca$h Explosion: a 2X beside no two like amounts (match_n.md section 5, rule 4)
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cash_explosion(tmp_path_factory) -> dict:
    """One book (150 tickets) of Ca$h Explosion with winners of a match and of both multipliers."""
    spec = load_spec(SPECS / "examples" / "cash_explosion.toml")
    pool = spec.pool("p1")
    counts = {"lose": 140, "free": 3, "2x2": 2, "4": 2, "5": 1, "5x2": 1, "2x5": 1}
    tiers = tuple(replace(t, count=counts[t.id]) for t in pool.tiers if t.id in counts)
    small = replace(pool, tiers=tiers, tickets=150, books=1)
    return signed_run(tmp_path_factory.mktemp("cash-explosion"), spec, small)


def test_an_honest_cash_explosion_run_verifies(cash_explosion, tmp_path):
    code, report = cli_verify(cash_explosion, copied(cash_explosion, tmp_path))
    assert code == 0 and report["failed_steps"] == []
    assert report["steps"][3]["details"] == [
        "pool p1: 150 layouts evaluated by audit.styles (match_n): each pays its stored prize (10 winners), "
        "none illegal",
        "pool p1: no two consecutive tickets of a pack show identical play data (9 layout columns compared)"]


def test_a_cash_explosion_loser_with_eight_amounts_and_a_2x_fails_step_4(cash_explosion, tmp_path):
    run = copied(cash_explosion, tmp_path)
    # codes (docs/styles/match_n.md section 4): prizes FREE, $2, $4, $5, $10, $20, $50, $100, ... 0..10;
    # 2X 11, 5X 12. Eight different amounts once each and a 2X: no win, yet a 2X is shown.
    spots = [0, 1, 2, 3, 4, 5, 6, 7, 11]
    values = {f"play_spot_{j}": c for j, c in enumerate(spots)}
    row, ticket = replace_a_losers_row(cash_explosion, run, values)
    code, report = cli_verify(cash_explosion, run)
    assert code == 1 and report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [
        f"pool p1: 1 illegal layout(s): {ticket} (row {row}): play: 2X beside no 2 like amounts: "
        "it multiplies nothing"]


# ------------------------------------------------------------------------------------------------
# (B) Hand to Hand Tactics: a loser with two multipliers (prize_legend_duel.md section 4, rule 7)
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hand_to_hand(tmp_path_factory) -> dict:
    """Pool d1.00 of Hand to Hand Tactics cut to 2,000 shares (every tier's count / 1,000, at least 1)."""
    spec = load_spec(spec_path("hand_to_hand_tactics"))
    pool = spec.pool("d1.00")
    winners = tuple(replace(t, count=max(1, t.count // 1000)) for t in pool.tiers[1:])
    losers = replace(pool.tiers[0], count=2000 - sum(t.count for t in winners))
    small = replace(pool, tickets=2000, tiers=(losers, *winners))
    return signed_run(tmp_path_factory.mktemp("hand-to-hand"), spec, small)


def test_an_honest_hand_to_hand_run_verifies(hand_to_hand, tmp_path):
    run = copied(hand_to_hand, tmp_path)
    assert json.loads((run / "manifest.json").read_bytes())["play"]["loser_max_multipliers"] == 1
    report = verify_run(VerifyRequest(run=run, public_key=hand_to_hand["keys"].public))
    assert report.failed == []
    assert report.step(Step.LAYOUTS).details == [
        "pool d1.00: 2,000 layouts evaluated by audit.styles.prize_legend_duel: each pays its stored prize "
        f"({hand_to_hand['pool'].winners:,} winners), none illegal",
        "pool d1.00: no two consecutive tickets of the pool (consecutive serials) show identical play data "
        "(30 layout columns compared)"]


def test_a_hand_to_hand_loser_with_two_multipliers_fails_step_4(hand_to_hand, tmp_path):
    run = copied(hand_to_hand, tmp_path)
    # outcome codes (section 3): MULTIPLIER, MULTIPLIER, LOSE, TIE, LOSE, LOSE, then UNPLAYED; no WIN, so
    # it pays 0 and breaks rules 1 to 6 nowhere: only rule 7 (loser_max_multipliers = 1) refuses it.
    codes = [4, 4, 1, 2, 1, 1] + [0] * 9
    values = {f"spot_{i}": c for i, c in enumerate(codes)} | {f"amt_{i}": 0 for i in range(15)}
    row, ticket = replace_a_losers_row(hand_to_hand, run, values)
    code, report = cli_verify(hand_to_hand, run)  # `poolgen verify RUN --public-key K --json`
    assert code == 1 and report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [
        f"pool d1.00: 1 illegal layout(s): {ticket} (row {row}): a losing share shows 2 MULTIPLIER spot(s), "
        "at most 1 (loser_max_multipliers)"]
