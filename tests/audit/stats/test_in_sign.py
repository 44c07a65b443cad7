"""Step 8 names prize amounts in the game's currency sign (audit/stats/tests.py `in_sign`): a pound game's
tests read "prize level £1,000", never "$1,000" (tests/end_to_end/test_gbp_game.py holds the whole run)."""

from __future__ import annotations

from audit.stats.tests import Finding, in_sign


def test_every_amount_takes_the_games_sign_and_nothing_else_changes():
    name = "top prizes ($1,000 to $50; 160 tickets): a pack's -$2.00 (P($ >= x))"
    assert in_sign(name, "£") == "top prizes (£1,000 to £50; 160 tickets): a pack's -£2.00 (P($ >= x))"
    assert in_sign(name, "$") is name
    assert in_sign("prize level $5", "\\1") == "prize level \\15"  # the sign is text, not a pattern
    found = Finding("prize level $20 (tier 20b; 3 tickets)", "chi-square ($ free)", "x = $4", 0.25)
    assert found.in_sign("€") == Finding("prize level €20 (tier 20b; 3 tickets)", "chi-square ($ free)",
                                         "x = €4", 0.25)
