"""The reference validation desk (`poolgen validate`, poolgen/deliverables/desk.py): validation
keys, each kind of claim answered, and a claims ledger shared by real processes that pays a ticket once.
The run is tests/poolgen/deliverables/conftest.py's `run`."""

from __future__ import annotations

import subprocess
import sys

import polars as pl

from tests.support.cli import invoke


def ticket(run, where) -> tuple[str, str, int]:
    return run["rows"].filter(where).row(0)


def claim(run, barcode, virn, *more):
    return invoke(
        "validate", run["folder"], barcode, virn, "--validation-key", run["root"] / "low.key", *more
    )


def test_validation_keys_are_0600_and_never_printed(run):
    result = invoke("keys", "validation", "new", run["root"] / "k" / "v.key")
    assert result.exit_code == 0
    key = (run["root"] / "k" / "v.key").read_text().strip()
    assert (run["root"] / "k" / "v.key").stat().st_mode & 0o777 == 0o600 and len(key) == 64
    assert key not in result.output
    again = invoke("keys", "validation", "new", run["root"] / "k" / "v.key")
    assert again.exit_code == 2 and "already exists; not overwriting it" in again.output
    inside = invoke("keys", "validation", "new", run["folder"] / "v.key")
    assert inside.exit_code == 2 and "inside a run folder" in inside.output


def test_the_desk_answers_each_kind_of_claim(run):
    b, v, p = ticket(run, (pl.col("prize_cents") > 0) & (pl.col("prize_cents") < 60000))
    assert claim(run, b, v).output == f"{b}: prize ${p // 100:,}.{p % 100:02d} (low tier)\n"
    lb, lv, _ = ticket(run, pl.col("prize_cents") == 0)
    assert claim(run, lb, lv).output.startswith(f"{lb}: not a winner (high-tier prizes are validated only")
    assert claim(run, b, lv).output == f"{b}: wrong validation number\n"
    unknown = "358" + "9999999" + "000"
    unknown += f"{98 - int(unknown + '00') % 97:02d}"
    assert claim(run, unknown, v).output == f"{unknown}: unknown ticket (not in run ws)\n"
    bad = b[:-1] + str((int(b[-1]) + 1) % 10)
    assert claim(run, bad, v).exit_code == 1 and "check digits fail" in claim(run, bad, v).output
    hb, hv, hp = ticket(run, pl.col("prize_cents") >= 60000)
    assert claim(run, hb, hv).output.startswith(f"{hb}: not a winner")  # the low key never pays it
    both = claim(run, hb, hv, "--high-validation-key", run["root"] / "high.key")
    assert both.exit_code == 0 and both.output == f"{hb}: prize ${hp // 100:,}.{hp % 100:02d} (high tier)\n"


def test_two_concurrent_claims_of_one_ticket_pay_once(run, tmp_path):
    b, v, _ = ticket(run, (pl.col("prize_cents") > 0) & (pl.col("prize_cents") < 60000))
    ledger = tmp_path / "claims.sqlite"
    cmd = [
        sys.executable,
        "-m",
        "poolgen",
        "validate",
        str(run["folder"]),
        b,
        v,
        "--validation-key",
        str(run["root"] / "low.key"),
        "--ledger",
        str(ledger),
    ]
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)
    ]
    results = [(p.wait(timeout=300), p.stdout.read()) for p in procs]
    assert sorted(code for code, _ in results) == [0, 1, 1, 1]
    assert sum("paid, recorded in the ledger" in out for _, out in results) == 1
    assert sum("already paid; refusing a second claim" in out for _, out in results) == 3
    assert ledger.stat().st_mode & 0o777 == 0o600
