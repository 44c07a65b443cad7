"""The desk and the sales ledger pay and record only from a run whose manifest signature they verified
(docs/back-office.md, section 2): without `--public-key`, a validation file re-made with the desk's own
key and re-listed in the manifest was paid. Read-only reports keep `--public-key` optional. The library
the commands use holds the same line by construction: the desk and the sales ledger's recording methods
take only a `SignedRun` (poolgen/backoffice/vouched.py), which verifies the signature when it is built;
a script handing them a run it never verified paid as the CLI never would."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil

import numpy as np
import polars as pl
import pytest

from poolgen.backoffice.desk import Desk
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.sales import SalesLedger
from poolgen.backoffice.tickets import Ticket
from poolgen.backoffice.vouched import SignedRun, open_signed, open_vouched
from poolgen.deliverables.validation import file_bytes, read_validation_key
from poolgen.files.write import canonical_bytes
from poolgen.run.folder import open_run
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


def test_the_library_desk_refuses_a_run_whose_signature_it_was_not_shown_verified(office, tmp_path):
    """A manifest edited on disk (the high-tier line raised above every prize, so a low-tier desk pays
    the claim-centre prizes) opened without its signature: the desk refused it, and pays nothing."""
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["print"]["high_tier_cents"] = 10**9
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    keys = {"low": read_validation_key(office["root"] / "low.key")}
    with pytest.raises(BackOfficeError, match=f"^{run}: the desk answers and pays only from a run whose "
                                              r"manifest signature was verified \(open_signed with its "
                                              r"public key\)$"):
        Desk(open_vouched(run), keys, index_dir=tmp_path / "index",  # a Run, not a SignedRun
             ledger=tmp_path / "claims.sqlite")
    assert not (tmp_path / "claims.sqlite").exists()
    with pytest.raises(BackOfficeError, match="the signature does not verify with the given public key"):
        open_signed(run, office["public"], "a script")
    b, v, *_ = _winner(office)
    signed = open_signed(office["folder"], office["public"], "a script")
    desk = Desk(signed, keys, index_dir=tmp_path / "index")
    try:
        assert desk.claim(Ticket(b), v).pays
    finally:
        desk.close()


def test_the_library_sales_ledger_reads_any_run_and_records_only_from_a_verified_one(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    signed = SalesLedger(ledger, open_signed(einstant["folder"], einstant["public"], "a script"))
    try:
        assert signed.sell("d1.00", "web", "p1").serial == 1
    finally:
        signed.close()
    book = SalesLedger(ledger, open_vouched(einstant["folder"]))
    said = (f"^{einstant['folder']}: the sales ledger sells, voids, closes and pays only from a run whose "
            r"manifest signature was verified \(open_signed with its public key\)$")
    try:
        for record in (lambda: book.sell("d1.00", "web", "p2"), lambda: book.void("d1.00", 1, "R1"),
                       lambda: book.claim("d1.00", 1), lambda: book.close_pool("d1.00")):
            with pytest.raises(BackOfficeError, match=said):
                record()
        assert [(s.serial, s.voided_at, s.claimed_at) for s in book.sales()] == [(1, None, None)]
        assert book.pools()["d1.00"][2] is None  # not closed
    finally:
        book.close()


def test_a_signed_run_is_the_signed_bytes_own_or_it_is_not_made(office, tmp_path):
    """Valid by construction: a SignedRun re-made with another field (dataclasses.replace), with the
    folder's manifest edited in memory after it was read, or with another folder's bytes under the
    first one's signature, is refused when built."""
    signed = open_signed(office["folder"], office["public"], "a script")
    assert isinstance(signed, SignedRun)
    copy = re.escape("the manifest given is not the signed bytes' (edited after they were read)")
    with pytest.raises(BackOfficeError, match=copy):
        dataclasses.replace(signed, high_tier_cents=10**9)
    edited = dict(signed.folder.manifest, run_id="other")
    with pytest.raises(BackOfficeError, match=copy):
        dataclasses.replace(signed, folder=dataclasses.replace(signed.folder, manifest=edited))
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["print"]["high_tier_cents"] = 10**9
    (run / "manifest.json").write_bytes(canonical_bytes(doc))
    with pytest.raises(BackOfficeError, match="the signature does not verify with the given public key"):
        dataclasses.replace(signed, folder=open_run(run), high_tier_cents=10**9)


def test_a_signed_run_changed_in_memory_after_it_was_built_pays_nothing(office, tmp_path):
    """A script holding the low-tier key re-makes the validation file with a losing ticket at $4.00,
    writes it into a copy of the run, and points the SignedRun it already built at it (its validation
    entry was the manifest's own dict: size and SHA-256 set to the new file's): the desk paid $4.00 on
    a loser. Now the run's validation entries are read-only copies, and the desk, and the sales ledger
    at every record, refuse a SignedRun whose manifest, parsed form or fields are no longer its signed
    bytes'."""
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    signed = open_signed(run, office["public"], "a script")
    key = read_validation_key(office["root"] / "low.key")
    rows = office["rows"]
    loser = rows.filter(pl.col("prize_cents") == 0).row(0, named=True)
    prizes = np.where(rows["barcode"].to_numpy() == loser["barcode"], 400, rows["prize_cents"].to_numpy())
    stated = signed.folder.manifest["print"]
    free = rows["tier"].is_in(stated["free_ticket_tiers"]).to_numpy()
    data = file_bytes("low", key, signed.run_id, signed.game, stated["high_tier_cents"],
                      rows["barcode"].cast(pl.Int64).to_numpy(), rows["virn"].cast(pl.Int64).to_numpy(),
                      stated["virn_digits"], prizes, free)
    (run / "validation-low.bin").write_bytes(data)
    with pytest.raises(TypeError):  # the run's own entry is a read-only copy of the signed one
        signed.validation["low"]["sha256"] = hashlib.sha256(data).hexdigest()
    assert not hasattr(signed.validation["low"], "update")
    entry = next(f for f in signed.folder.manifest["deliverables"] if f.get("name") == "validation-low.bin")
    entry.update(bytes=len(data), sha256=hashlib.sha256(data).hexdigest())  # the manifest's dict, edited
    assert signed.validation["low"]["sha256"] != entry["sha256"]  # a copy: the edit does not reach it
    copy = re.escape("the manifest given is not the signed bytes' (edited after they were read)")
    with pytest.raises(BackOfficeError, match=copy):
        Desk(signed, {"low": key}, index_dir=tmp_path / "index", ledger=tmp_path / "claims.sqlite")
    assert not (tmp_path / "claims.sqlite").exists()


def test_the_sales_ledger_refuses_to_record_once_its_signed_run_was_changed_in_memory(einstant, tmp_path):
    signed = open_signed(einstant["folder"], einstant["public"], "a script")
    book = SalesLedger(tmp_path / "sales.sqlite", signed)
    try:
        assert book.sell("d1.00", "web", "p1").serial == 1
        signed.folder.manifest["pools"][0]["file"]["sha256"] = "0" * 64
        copy = re.escape("the manifest given is not the signed bytes' (edited after they were read)")
        with pytest.raises(BackOfficeError, match=copy):
            book.sell("d1.00", "web", "p2")
        assert [s.serial for s in book.sales()] == [1]
    finally:
        book.close()
