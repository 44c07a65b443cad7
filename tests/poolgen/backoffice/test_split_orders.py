"""The back office on a split order (docs/randomness.md 4b) made as one run and again as cuts from the
same seed (tests/support/split_run.py): the same tickets, barcodes and validation numbers in several
signed runs. A ticket paid under one run is not paid again under another in the same ledger; prizes
remaining add up to the order's counts less the claims paid, exactly, in text and JSON alike."""

from __future__ import annotations

import json

import polars as pl
import pytest

from poolgen.backoffice.claims import ClaimsLedger
from poolgen.backoffice.tickets import default_clerk, default_desk
from tests.support.cli import invoke
from tests.support.split_run import SplitRun, cut, split_run, ticket_rows

ORDER = {"$6.00": 4, "$2.00": 50, "free ticket ($1.00)": 100, "$1.00": 100}  # the order's counts


@pytest.fixture(scope="module")
def order(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("split-office")
    whole = split_run(root)
    (root / "index").mkdir()
    return {"root": root, "whole": whole, "a": cut(whole, ["p1", "p2", "p3"], "cut-a"),
            "b": cut(whole, ["p4", "p5", "p6"], "cut-b"), "index": root / "index"}


def _claim(order: dict, run: SplitRun, ledger, barcode: str, virn: str, *more: object):
    return invoke("validate", run.folder, barcode, virn, "--validation-key", run.low,
                  "--high-validation-key", run.high, "--public-key", run.public,
                  "--index-dir", order["index"], "--ledger", ledger, *more)


def test_a_ticket_paid_under_one_run_of_the_order_is_not_paid_again_under_another(order, tmp_path):
    """The order's p1 is in the whole run and in cut a: the same barcode and VIRN open the same prize in
    both. Paid under the whole run, then claimed under cut a in the same ledger: the desk answered
    `prize $2.00 - paid, claim no. 2` (the ledger's key is (run, barcode)), and only a reconciliation
    named it afterwards. Now it is `already paid`, naming the run it was paid under."""
    ledger = tmp_path / "claims.sqlite"
    b, v, *_ = ticket_rows(order["a"]).filter(pl.col("tier") == "2").row(0)
    first = _claim(order, order["whole"], ledger, b, v)
    assert first.exit_code == 0 and first.stdout.endswith("prize $2.00 (low tier) - paid, claim no. 1 in the "
                                                          "ledger\n"), first.output
    again = _claim(order, order["a"], ledger, b, v, "--json")
    assert again.exit_code == 1, again.output
    answer = json.loads(again.stdout)
    assert (answer["outcome"], answer["pays"], answer["claim_no"]) == ("already paid", False, 2)
    assert answer["first"] == {"claim_no": 1, "at": answer["first"]["at"], "desk": default_desk(),
                               "clerk": default_clerk(),
                               "run_id": "split"}
    assert answer["text"].endswith(f"already paid: claim no. 1 at {answer['first']['at']}, desk "
                                   f"{default_desk()}, clerk {default_clerk()}, under run split; refusing a "
                                   "second claim (claim no. 2, recorded)")
    other = _claim(order, order["b"], ledger, b, v)  # not a ticket of cut b (p4 to p6)
    assert other.exit_code == 1 and "unknown ticket (not in run cut-b)" in other.stdout, other.output
    rec = invoke("claims", "reconcile", order["whole"].folder, "--ledger", ledger, "--validation-key",
                 order["whole"].low, "--high-validation-key", order["whole"].high)
    assert rec.exit_code == 0, rec.output
    assert rec.stdout.splitlines()[-1].startswith("1 payment(s), $2.00: they reconcile")


def test_prizes_remaining_of_a_split_order_are_its_counts_less_the_claims_paid(order, tmp_path):
    """Every pool's counts drawn (41 to 44 winners a pool, not 40): per level, total is the order's count
    exactly, claimed the tickets paid, remaining the difference, in text and JSON; the two cuts' tables
    add up to the whole run's (a cut's table is refused over a ledger holding the whole run's payments:
    docs/back-office.md section 6, "An order in several runs")."""
    whole = order["whole"]
    ledger = tmp_path / "claims.sqlite"
    rows = ticket_rows(whole)
    paid = {"6": 3, "2": 5, "free": 7, "1": 2}
    for tier, n in paid.items():
        for b, v, *_ in rows.filter(pl.col("tier") == tier).head(n).iter_rows():
            assert _claim(order, whole, ledger, b, v).exit_code == 0
    data = json.loads(invoke("claims", "report", whole.folder, "--ledger", ledger, "--json").stdout)
    got = {lv["prize"]: (lv["total"], lv["paid"], lv["remaining"]) for lv in data["levels"]}
    claimed = {"$6.00": 3, "$2.00": 5, "free ticket ($1.00)": 7, "$1.00": 2}
    assert got == {k: (ORDER[k], claimed[k], ORDER[k] - claimed[k]) for k in ORDER}
    text = invoke("claims", "report", whole.folder, "--ledger", ledger)
    table = [" ".join(line.split()) for line in text.stdout.splitlines()[2:]]
    assert table == [f"{k} {ORDER[k]} {claimed[k]} {ORDER[k] - claimed[k]}" for k in ORDER]
    refused = invoke("claims", "report", order["a"].folder, "--ledger", ledger)  # the ledger's payments
    assert refused.exit_code == 2, refused.output
    assert "17 payment(s) of game 7 under run(s) split, not given" in refused.stderr
    ClaimsLedger(tmp_path / "empty.sqlite").close()  # are the whole run's: with no payment, each cut's own
    totals = {k: 0 for k in ORDER}
    for part in (order["a"], order["b"]):
        report = json.loads(invoke("claims", "report", part.folder, "--ledger", tmp_path / "empty.sqlite",
                                   "--json").stdout)
        for lv in report["levels"]:
            totals[lv["prize"]] += lv["total"]
    assert totals == ORDER
