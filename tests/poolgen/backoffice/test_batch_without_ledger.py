"""`poolgen validate --batch` without `--ledger` pays nothing and records nothing, so its summary must
not say "paid", and a batch naming one winning ticket twice (three times...) must not be answered
"prize" for each: it was, with `3 claim(s) answered: 3 paid, 0 refused`, and a clerk paid three
times. With a ledger the repeat is answered `already paid` and recorded. The run is the conftest's."""

from __future__ import annotations

import polars as pl

from tests.support.cli import invoke, one_line
from tests.support.ledger_heads import ledger_head


def _batch(office, csv, *more):
    return invoke("validate", office["folder"],
                  "--public-key", office["public"], "--batch", csv, "--validation-key",
                  office["root"] / "low.key", "--index-dir", office["index"], *more)


def test_a_batch_without_a_ledger_names_each_ticket_once(office, tmp_path):
    b, v, t, *_ = office["rows"].filter(pl.col("tier") == "5").row(40)
    lb, lv, *_ = office["rows"].filter(pl.col("tier") == "lose").row(40)
    csv = tmp_path / "claims.csv"
    csv.write_text(f"ticket,virn\n{b},{v}\n{lb},{lv}\n{t},{v}\n{b},{v}\n")
    result = _batch(office, csv)
    one_line(result, "poolgen", f"{csv}: line 4: ticket {b} again (line 2); without --ledger a batch names "
                                "each ticket once (with one, a repeat is answered `already paid`)")
    assert result.stdout == ""
    ledger = tmp_path / "claims.sqlite"
    recorded = _batch(office, csv, "--ledger", ledger)
    assert recorded.exit_code == 0
    assert [line.split(": ")[1] for line in recorded.stdout.splitlines()] == [
        "prize $5.00 (low tier) - paid, claim no. 1 in the ledger", "not a winner (claim no. 2, recorded)",
        "already paid", "already paid"]
    assert recorded.stderr == (f"4 claim(s) answered: 1 paid, 3 refused\nledger {ledger}: head "
                               f"{ledger_head(ledger)}\n")


def test_a_batch_without_a_ledger_says_nothing_was_paid(office, tmp_path):
    rows = [office["rows"].filter(pl.col("tier") == tier).row(41) for tier in ("5", "lose", "2")]
    csv = tmp_path / "claims.csv"
    csv.write_text("ticket,virn\n" + "".join(f"{r[0]},{r[1]}\n" for r in rows))
    result = _batch(office, csv)
    assert result.exit_code == 0
    assert result.stderr == ("3 claim(s) answered: 2 prize(s), 1 refused; nothing paid or recorded (no "
                             "--ledger)\n")
