"""The eInstant closing report (`poolgen sales report --closing`): a prize in a voided sale can never be
claimed (its claim is refused), so it is no unclaimed prize owed to a player; it is counted apart,
and every level's total is paid + unclaimed + voided + never sold. The run is the conftest's
`einstant` (one pool of 2,000 shares)."""

from __future__ import annotations

import json

from pypdf import PdfReader

from tests.support.cli import invoke
from tests.support.pdf import pages


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
    assert text[2].split()[-6:] == ["amount", "Never", "sold", "Never", "sold", "amount"]


def test_the_closing_report_gives_the_voided_and_never_sold_prizes_in_cents(einstant, tmp_path):
    """An accountant needs the amounts, not only the counts: per level and in total, the prizes in voided
    shares and in shares never sold, in integer cents (JSON), and in the currency (text and PDF), so that
    the designed prizes are paid + unclaimed + voided + never sold amounts exactly."""
    ledger, pdf = tmp_path / "sales.sqlite", tmp_path / "closing.pdf"
    prizes = einstant["prizes"]
    winners = [i for i, p in enumerate(prizes, start=1) if p > 0][:3]
    for _ in range(winners[2]):
        assert _sales(einstant, "sell", "--ledger", ledger, "--pool", "d1.00", "--channel", "web", "--player",
                      "p").exit_code == 0
    assert _sales(einstant, "claim", f"d1.00-{winners[0]:07d}", "--ledger", ledger).exit_code == 0
    assert _sales(einstant, "void", f"d1.00-{winners[1]:07d}", "--ledger", ledger, "--reason",
                  "R1").exit_code == 0
    doc = json.loads(_sales(einstant, "report", "--ledger", ledger, "--closing", "--json").output)
    voided, sold = prizes[winners[1] - 1], prizes[:winners[2]]
    never_sold = sum(prizes) - sum(sold)
    assert doc["voided_cents"] == voided and doc["never_sold_cents"] == never_sold
    for lv in doc["levels"]:
        assert (lv["voided_cents"], lv["never_sold_cents"]) == (lv["voided"] * lv["prize_cents"],
                                                                lv["never_sold"] * lv["prize_cents"]), lv
    assert sum(lv["voided_cents"] for lv in doc["levels"]) == voided
    assert doc["designed_prizes_cents"] == (doc["paid_cents"] + doc["unclaimed_cents"] + doc["voided_cents"]
                                            + doc["never_sold_cents"])
    money = f"in voided shares {_dollars(voided)}, never sold {_dollars(never_sold)}"
    made = _sales(einstant, "report", "--ledger", ledger, "--closing", "--pdf", pdf)
    assert made.exit_code == 0, made.output
    text = made.stdout.splitlines()
    assert text[1].endswith(money), text[1]
    assert text[2].split()[-8:] == ["Voided", "Voided", "amount", "Never", "sold", "Never", "sold", "amount"]
    level = next(lv for lv in doc["levels"] if lv["voided"])
    row = next(r for r in text[3:] if r.split()[:2] == ["d1.00", level["prize"]])
    assert row.split()[-4:] == ["1", _dollars(level["prize_cents"]), f"{level['never_sold']:,}",
                                _dollars(level["never_sold_cents"])]
    page = " ".join(pages(pdf))
    assert money in page and "Voided Voided amount Never sold Never sold amount" in page
    assert PdfReader(pdf).pages[0].mediabox.width == 792  # landscape letter: nine columns fit its width


def _dollars(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"
