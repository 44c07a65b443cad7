"""A claims ledger's head (docs/back-office.md, section 4): rows removed from the end of a ledger leave no
gap in its claim numbers, and the desk then pays the ticket again; only a head recorded outside the
ledger (printed by the desk and by every reconciliation) shows them. The chain is recomputed here from
the doc with hashlib alone (tests/support/ledger_heads.py). The run is the conftest's `office`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from poolgen.backoffice.claims import CLAIMS
from poolgen.backoffice.owned import APPLICATION_ID
from tests.support.cli import invoke, one_line
from tests.support.ledger_heads import ledger_head, link, payments_head, split_heads


def _pay(office, ledger, nth, *more):
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(nth)
    result = invoke("validate", office["folder"], b, v, "--public-key", office["public"], "--validation-key",
                    office["root"] / "low.key", "--index-dir", office["index"], "--ledger", ledger, *more)
    assert result.exit_code == 0, result.output
    return result


def _reconcile(office, ledger, *more):
    return invoke("claims", "reconcile", office["folder"], "--ledger", ledger, "--validation-key",
                  office["root"] / "low.key", *more)


def _cut(ledger, *claim_nos):
    db = sqlite3.connect(ledger)
    for no in claim_nos:
        db.execute("DELETE FROM paid WHERE claim_no = ?", (no,))
        db.execute("DELETE FROM attempts WHERE claim_no = ?", (no,))
    db.commit()
    db.close()


def test_the_desk_prints_the_head_the_doc_defines(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    first = _pay(office, ledger, 60)
    assert first.stderr == f"ledger {ledger}: head {ledger_head(ledger)}\n"
    assert ledger_head(ledger).startswith("1:")
    second = _pay(office, ledger, 61, "--json")
    assert json.loads(second.stdout)["head"] == ledger_head(ledger) and ledger_head(ledger).startswith("2:")
    assert second.stderr == ""


def test_rows_removed_from_the_end_are_named_against_the_recorded_head(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    for nth in (62, 63, 64):
        _pay(office, ledger, nth)
    head = ledger_head(ledger)  # yesterday's close, kept by the back office
    _cut(ledger, 3, 2)
    plain = _reconcile(office, ledger)
    assert plain.exit_code == 0  # without the head, the shorter ledger is whole
    result = _reconcile(office, ledger, "--head", head)
    assert (result.exit_code, split_heads(result.output)) == (1, (
        f"problem: {ledger}: claims 2 to 3 are missing (2 rows removed from its end): the ledger no longer "
        f"extends its head {head}; a removed payment can be paid again\n"
        "1 payment(s), $5.00: 1 problem(s); the ledgers do not reconcile\n",
        {str(ledger): ledger_head(ledger)}))
    _pay(office, ledger, 63)  # the desk pays the removed ticket again, as claim no. 2
    _pay(office, ledger, 64)
    again = _reconcile(office, ledger, "--head", f"{ledger}={head}")
    assert (again.exit_code, split_heads(again.output)[0]) == (1, (
        f"problem: {ledger}: its claim no. 3 is not the row its head {head} named (rows removed from its end "
        "and claims recorded since, or rows edited): the ledger no longer extends that head\n"
        "3 payment(s), $15.00: 1 problem(s); the ledgers do not reconcile\n"))


def test_a_ledger_that_extends_its_head_reconciles(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    _pay(office, ledger, 65)
    head = ledger_head(ledger)
    _pay(office, ledger, 66)
    result = _reconcile(office, ledger, "--head", head)
    assert (result.exit_code, split_heads(result.output)) == (0, (
        f"ledger {ledger}: extends the head given, {head}\n"  # the clerk sees the head was checked
        "2 payment(s), $10.00: they reconcile with the validation files and the manifest, whose "
        "signature was NOT checked (give --public-key)\n",
        {str(ledger): ledger_head(ledger)}))


def test_a_bad_head_is_refused_in_one_line(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    _pay(office, ledger, 67)
    one_line(_reconcile(office, ledger, "--head", "1:abc"), "poolgen",
             "--head '1:abc': not a ledger head N:HEX (a claim number, a colon and 64 lower-case hex digits)")
    other = tmp_path / "other.sqlite"
    one_line(_reconcile(office, ledger, "--head", f"{other}=1:{'0' * 64}"), "poolgen",
             f"--head '{other}=1:{'0' * 64}': {other} is not one of the --ledger files given")


@pytest.mark.parametrize(("command", "entry"), [(["claims", "reconcile"], "claim"),
                                                (["sales", "reconcile"], "payment"),
                                                (["books", "status"], "move")])
def test_a_bad_head_names_the_ledgers_own_numbered_rows(tmp_path, command, entry):
    """Every ledger's `--head` refusal said "a claim number": a sales ledger numbers its payments, a books
    ledger its moves (docs/back-office.md, sections 4, 5 and 8). The head is read before the run."""
    result = invoke(*command, tmp_path / "run", "--ledger", tmp_path / "ledger.sqlite", "--head", "7:abc")
    one_line(result, "poolgen", f"--head '7:abc': not a ledger head N:HEX (a {entry} number, a colon and 64 "
                                "lower-case hex digits)")


@pytest.mark.parametrize(("head", "entry"), [("sales=7:abc", "sale"), ("voids=07:" + "0" * 64, "void"),
                                             ("payments=7:" + "A" * 64, "payment")])
def test_a_bad_sales_ledger_head_of_a_named_chain_is_refused_as_given(tmp_path, head, entry):
    """`--head sales=7:abc` was refused as `--head '7:abc'`: the chain it was given for left out."""
    result = invoke("sales", "reconcile", tmp_path / "run", "--ledger", tmp_path / "ledger.sqlite", "--head",
                    head)
    one_line(result, "poolgen", f"--head {head!r}: not a ledger head N:HEX (a {entry} number, a colon and 64 "
                                "lower-case hex digits)")


def test_a_ledger_of_schema_version_1_is_refused(office, tmp_path):
    ledger = tmp_path / "claims.sqlite"
    db = sqlite3.connect(ledger)
    db.execute(CLAIMS.schema[0].replace(", chain TEXT NOT NULL)", ")"))
    db.execute(CLAIMS.schema[1])
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    ledger.chmod(0o600)
    b, v, *_ = office["rows"].filter(pl.col("tier") == "5").row(68)
    result = invoke("validate", office["folder"], b, v, "--public-key", office["public"], "--validation-key",
                    office["root"] / "low.key", "--index-dir", office["index"], "--ledger", ledger)
    one_line(result, "poolgen", f"{ledger}: not a poolgen claims ledger of version 2 (application id "
                                f"{APPLICATION_ID:#x}, version 1)")


def test_a_sales_payment_removed_from_the_end_is_named_against_the_recorded_head(einstant, tmp_path):
    ledger = tmp_path / "sales.sqlite"
    winners = [i for i, p in enumerate(einstant["prizes"], start=1) if p > 0][:2]
    signed = ("--public-key", einstant["public"], "--ledger", ledger)
    for _ in range(winners[1]):
        assert invoke("sales", "sell", einstant["folder"], "--pool", "d1.00", "--channel", "web", "--player",
                      "p1", *signed).exit_code == 0
    for serial in winners:
        assert invoke("sales", "claim", einstant["folder"], f"d1.00-{serial:07d}", *signed).exit_code == 0
    head = payments_head(ledger)
    db = sqlite3.connect(ledger)
    db.execute("DELETE FROM payments WHERE pay_no = 2")
    db.execute("UPDATE sales SET claimed_at = NULL, prize_cents = NULL WHERE serial = ?", (winners[1],))
    db.commit()
    db.close()
    plain = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger)
    assert plain.exit_code == 0  # without the head, the shorter ledger is whole
    result = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, "--head", head)
    assert (result.exit_code, split_heads(result.output)[0].splitlines()[0]) == (1, (
        f"problem: {ledger}: payment no. 2 is missing (1 row removed from its end): the ledger no longer "
        f"extends its head {head}; a removed payment can be paid again"))
    again = invoke("sales", "claim", einstant["folder"], f"d1.00-{winners[1]:07d}", *signed)
    assert again.exit_code == 0  # the desk cannot know; the head can
    after = invoke("sales", "reconcile", einstant["folder"], "--ledger", ledger, "--head", head)
    assert after.exit_code == 1 and split_heads(after.output)[0].splitlines()[0] == (
        f"problem: {ledger}: its payment no. 2 is not the row its head {head} named (rows removed from its "
        "end and payments recorded since, or rows edited): the ledger no longer extends that head")


def test_a_sales_ledger_of_schema_version_2_is_refused(einstant, tmp_path):
    from poolgen.backoffice.sales_schema import SALES  # noqa: PLC0415  # only this test builds a sales ledger

    ledger = tmp_path / "sales.sqlite"
    db = sqlite3.connect(ledger)
    for sql in SALES.schema:
        db.execute(sql.replace("chain TEXT NOT NULL, ", ""))
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    ledger.chmod(0o600)
    result = invoke("sales", "sell", einstant["folder"], "--pool", "d1.00", "--channel", "web", "--player",
                    "p1", "--public-key", einstant["public"], "--ledger", ledger)
    one_line(result, "poolgen", f"{ledger}: not a poolgen sales ledger of version 5 or 4 (read only) or 3 "
                                f"(read only) "
                                f"(application id "
                                f"{APPLICATION_ID:#x}, version 2)")


def _rechain(ledger) -> None:
    """What anyone able to write the file can do, the chain having no key: every row's chain computed
    again from the doc (tests/support/ledger_heads.py) and stored, so the ledger's own chain is whole."""
    db = sqlite3.connect(ledger)
    paid = {r[0]: r[1:] for r in db.execute("SELECT claim_no, virn, tier, prize_cents, free FROM paid")}
    chain = "00" * 32
    for row in db.execute("SELECT claim_no, at, run_id, barcode, desk, clerk, outcome, reason FROM attempts "
                          "ORDER BY claim_no").fetchall():
        chain = link(chain, [*row, *(paid[row[0]] if row[6] == "paid" else ())])
        db.execute("UPDATE attempts SET chain = ? WHERE claim_no = ?", (chain, row[0]))
    db.commit()
    db.close()


def test_a_rewritten_and_rechained_ledger_is_caught_only_by_a_head_recorded_after_the_rows_it_changed(
        office, tmp_path):
    """The limit docs/back-office.md (section 4) states: a head protects the rows up to it, nothing after
    it. Claim no. 2's clerk rewritten and the chain computed again: the ledger's own chain is whole, a head
    kept after claim 1 is still extended, and only the head kept after claim 3 names the change."""
    ledger = tmp_path / "claims.sqlite"
    _pay(office, ledger, 68)
    after_1 = ledger_head(ledger)
    _pay(office, ledger, 69)
    _pay(office, ledger, 70)
    after_3 = ledger_head(ledger)
    db = sqlite3.connect(ledger)
    db.execute("UPDATE attempts SET clerk = 'mallory' WHERE claim_no = 2")
    db.execute("UPDATE paid SET clerk = 'mallory' WHERE claim_no = 2")
    db.commit()
    db.close()
    _rechain(ledger)
    assert _reconcile(office, ledger).exit_code == 0
    assert _reconcile(office, ledger, "--head", after_1).exit_code == 0
    result = _reconcile(office, ledger, "--head", after_3)
    assert (result.exit_code, split_heads(result.output)[0]) == (1, (
        f"problem: {ledger}: its claim no. 3 is not the row its head {after_3} named (rows removed from its "
        "end and claims recorded since, or rows edited): the ledger no longer extends that head\n"
        "3 payment(s), $15.00: 1 problem(s); the ledgers do not reconcile\n"))


def test_a_head_names_its_ledger_by_the_file_not_by_the_path_as_typed(office, tmp_path, monkeypatch):
    """The doc (section 4): `--head LEDGER=N:HEX` names the ledger file itself, whatever path reaches it.
    Before: a head typed `claims.sqlite` for a ledger given as `./sub/../claims.sqlite`, by its absolute
    path, through a symbolic link or a linked folder was refused as no ledger given (exit 2), so a head
    kept in one form could not be checked against a ledger named in another."""
    ledger, other = tmp_path / "claims.sqlite", tmp_path / "other.sqlite"
    for nth in (65, 66):
        _pay(office, ledger, nth)
    _pay(office, other, 67)
    head = ledger_head(ledger)
    _cut(ledger, 2)
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.sqlite").symlink_to(ledger)
    (tmp_path / "folder").symlink_to(tmp_path)
    monkeypatch.chdir(tmp_path)
    want = (f"claim no. 2 is missing (1 row removed from its end): the ledger no longer extends its head "
            f"{head}; a removed payment can be paid again")
    for given, named in ((ledger, "claims.sqlite"), ("claims.sqlite", ledger), ("./sub/../claims.sqlite",
                         "claims.sqlite"), (ledger, "link.sqlite"), ("folder/claims.sqlite", ledger)):
        result = _reconcile(office, given, "--ledger", other, "--head", f"{named}={head}")
        problems = [x for x in result.output.splitlines() if x.startswith("problem: ")]
        assert (result.exit_code, problems) == (1, [f"problem: {Path(given)}: {want}"]), (given, named)
    twice = _reconcile(office, ledger, "--ledger", other, "--head", f"{ledger}={head}", "--head",
                       f"link.sqlite={head}")
    one_line(twice, "poolgen", f"--head 'link.sqlite={head}': a second head for {ledger}")
