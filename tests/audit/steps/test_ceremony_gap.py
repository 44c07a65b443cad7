"""Steps 5 and 7 hold a transcript to `ceremony new`'s 600 s between reveals closing and the round only
from the rule's first day (docs/ceremony.md, audit/steps/ceremony.py GAP_SINCE): a ceremony whose
reveals closed before 2026-12-05T00:00:00Z was made under the rule before it (the round only after
the close), and a run that verified then still does (review, 2026-12-05: a real run of 3dd8dad, round
1000 due 24 s after its close, was refused by the next day's audit)."""

from __future__ import annotations

import pytest

from audit.checklist import Step
from audit.errors import VerificationError
from audit.read.beacon import QUICKNET_HASH
from audit.steps.ceremony import transcript_rules

GENESIS, PERIOD = 1692803367, 3  # quicknet: round R is published at GENESIS + PERIOD (R - 1)
ROUND_2027 = 35_319_412  # published at 2027-01-01T00:00:00Z


def _transcript(close: str, round_: int) -> dict:
    return {"id": "c1", "run_id": "r1", "parties": [{"name": "a", "public_key": "ab" * 32},
                                                     {"name": "b", "public_key": "cd" * 32}],
            "beacon": {"chain": QUICKNET_HASH, "reveals_close": close, "round": round_}}


def test_round_2027_is_published_at_the_first_second_of_2027():
    assert GENESIS + PERIOD * (ROUND_2027 - 1) == 1798761600  # date -d 2027-01-01T00:00:00Z +%s


@pytest.mark.parametrize("step", [Step.FIGURES, Step.REPRODUCTION])
def test_a_round_due_24_s_after_a_close_from_the_rules_first_day_is_refused(step):
    with pytest.raises(VerificationError) as said:
        transcript_rules(_transcript("2026-12-31T23:59:36Z", ROUND_2027), step)
    assert str(said.value).endswith(
        f"round {ROUND_2027} is published at 2027-01-01T00:00:00Z, 24 s after reveals close "
        "(2026-12-31T23:59:36Z), not the 600 s (10 minutes) a party needs to see a reveal arrive after the "
        "close")


def test_a_round_due_600_s_after_the_close_passes():
    transcript_rules(_transcript("2026-12-31T23:50:00Z", ROUND_2027), Step.FIGURES)


def test_a_ceremony_whose_reveals_closed_before_the_rule_is_held_to_the_rule_before_it():
    transcript_rules(_transcript("2023-08-23T15:59:00Z", 1000), Step.FIGURES)  # round 1000: 15:59:24
    with pytest.raises(VerificationError) as said:  # the round still comes after the close
        transcript_rules(_transcript("2023-08-23T15:59:24Z", 1000), Step.FIGURES)
    assert str(said.value).endswith("round 1000 is published at 2023-08-23T15:59:24Z, not after reveals "
                                    "close (2023-08-23T15:59:24Z)")
