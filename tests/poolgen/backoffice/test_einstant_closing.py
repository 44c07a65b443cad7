"""The eInstant closing report (`poolgen sales report --closing`): a prize in a voided sale can never be
claimed (its claim is refused), so it is no unclaimed prize owed to a player; it is counted apart,
and every level's total is paid + unclaimed + voided + never sold. The run is the conftest's
`einstant` (one pool of 2,000 shares)."""

from __future__ import annotations

import json

from tests.support.cli import invoke


def _sales(einstant, command, *args):
    return invoke("sales", command, einstant["folder"], "--public-key", einstant["public"], *args)


def test_a_voided_winning_share_is_not_an_unclaimed_prize(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    prizes = einstant["prizes"]
    winners = [i for i, p in enumerate(prizes, start=1) if p > 0][:3]
    for _ in range(winners[2]):
        sold = _sales(einstant, "sell", "--ledger", ledger, "--pool", "d1.00", "--channel", "web", "--player",
                      "p")
        assert sold.exit_code == 0
    assert _sales(einstant, "claim", f"d1.00-{winners[0]:07d}", "--ledger", ledger).exit_code == 0
    voided = _sales(einstant, "void", f"d1.00-{winners[1]:07d}", "--ledger", ledger, "--reason", "R1")
    assert voided.exit_code == 0
    refused = _sales(einstant, "claim", f"d1.00-{winners[1]:07d}", "--ledger", ledger)
    assert refused.exit_code == 1 and "its sale was voided" in refused.output
    doc = json.loads(_sales(einstant, "report", "--ledger", ledger, "--closing", "--json").output)
    assert sum(lv["unclaimed"] for lv in doc["levels"]) == 1  # winners[2]: sold, not claimed
    assert doc["unclaimed_cents"] == prizes[winners[2] - 1]
    for lv in doc["levels"]:
        assert lv["total"] == lv["paid"] + lv["unclaimed"] + lv["voided"] + lv["never_sold"], lv
    assert sum(lv["voided"] for lv in doc["levels"]) == 1
    assert doc["paid_cents"] == prizes[winners[0] - 1]
    assert doc["sales_cents"] == (winners[2] - 1) * 100  # sales not voided
    text = _sales(einstant, "report", "--ledger", ledger, "--closing").output.splitlines()
    assert text[2].split()[-4:] == ["amount", "Voided", "Never", "sold"]
