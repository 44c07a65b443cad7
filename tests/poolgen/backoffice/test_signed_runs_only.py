"""The desk and the sales ledger pay and record only from a run whose manifest signature they verified
(docs/back-office.md, section 2): without `--public-key`, a validation file re-made with the desk's own
key and re-listed in the manifest was paid. Read-only reports keep `--public-key` optional."""

from __future__ import annotations

import shutil

import polars as pl

from tests.support.cli import invoke, one_line


def _winner(office):
    return office["rows"].filter(pl.col("tier") == "5").row(0)


def test_validate_without_a_public_key_is_refused_and_records_nothing(office, tmp_path):
    b, v, *_ = _winner(office)
    ledger = tmp_path / "claims.sqlite"
    result = invoke("validate", office["folder"], b, v, "--validation-key", office["root"] / "low.key",
                    "--index-dir", office["index"], "--ledger", ledger)
    one_line(result, "poolgen", "validate: give --public-key FILE: it pays and records only from a run "
                                "whose manifest signature it verified")
    assert result.stdout == "" and not ledger.exists()


def test_every_sales_command_that_records_needs_the_public_key(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    commands = {"sell": ["--pool", "d1.00", "--channel", "web", "--player", "p1"],
                "close": ["--pool", "d1.00"], "void": ["d1.00-0000001", "--reason", "R1"],
                "claim": ["d1.00-0000001"]}
    for command, more in commands.items():
        result = invoke("sales", command, einstant["folder"], *more, "--ledger", ledger)
        one_line(result, "poolgen", f"sales {command}: give --public-key FILE: it pays and records only from "
                                    "a run whose manifest signature it verified")
        assert not ledger.exists()


def test_a_report_still_reads_without_the_public_key(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    assert invoke("sales", "sell", einstant["folder"], "--pool", "d1.00", "--channel", "web", "--player",
                  "p1", "--ledger", ledger, "--public-key", einstant["public"]).exit_code == 0
    report = invoke("sales", "report", einstant["folder"], "--ledger", ledger, "--json")
    assert report.exit_code == 0, report.output


def test_an_unsigned_run_is_refused_at_the_desk(office, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    (run / "manifest.sig").unlink()
    b, v, *_ = _winner(office)
    result = invoke("validate", run, b, v, "--validation-key", office["root"] / "low.key", "--index-dir",
                    office["index"], "--public-key", office["public"])
    one_line(result, "poolgen", f"{run}: an unsigned run (no manifest.sig); the back office pays and "
                                "records only from a signed run")
