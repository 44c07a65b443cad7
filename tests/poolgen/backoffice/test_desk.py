"""The validation desk (`poolgen validate`, poolgen/backoffice/desk.py): every class of claim answered
as docs/back-office.md says, a ticket by barcode or printed id, JSON and batch answers, and a ledger
shared by real processes that pays a ticket once. The run is this folder's conftest's `office`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import polars as pl

from poolgen.backoffice.tickets import default_desk
from tests.support.cli import UNRECORDED, invoke


def ticket(office, where, nth=0) -> tuple[str, str, str, str, int]:
    return office["rows"].filter(where).row(nth)


def claim(office, tid, virn, *more, low=True, high=False):
    keys = (["--validation-key", office["root"] / "low.key"] if low else []) + \
        (["--high-validation-key", office["root"] / "high.key"] if high else [])
    return invoke("validate", office["folder"],
                  "--public-key", office["public"], tid, virn, *keys, "--index-dir", office["index"], *more)


def cash(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


def test_each_class_of_claim_is_answered_as_specified(office):
    b, v, t, _, p = ticket(office, pl.col("tier") == "5")
    name = f"{b} ({t})"
    right = claim(office, b, v)
    assert (right.exit_code, right.output) == (0, f"{name}: prize {cash(p)} (low tier)\n{UNRECORDED}")
    by_id = claim(office, t, v)
    assert (by_id.exit_code, by_id.output) == (0, right.output)  # the printed id names the same ticket
    fb, fv, ft, _, fp = ticket(office, pl.col("tier") == "free")
    free = claim(office, fb, fv)
    assert (free.exit_code, free.output) == (
        0, f"{fb} ({ft}): a free ticket (worth {cash(fp)}): hand over a new ticket, not cash (low tier)\n"
        f"{UNRECORDED}")
    one = ticket(office, pl.col("tier") == "1")  # a $1 cash prize, the same amount as the free ticket
    said = claim(office, one[0], one[1]).output
    assert said == f"{one[0]} ({one[2]}): prize $1.00 (low tier)\n{UNRECORDED}"
    lb, lv, lt, _, _ = ticket(office, pl.col("tier") == "lose")
    loser = claim(office, lb, lv)
    assert (loser.exit_code, loser.output) == (1, f"{lb} ({lt}): not a winner\n")
    assert claim(office, lb, lv, low=False, high=True).output == f"{lb} ({lt}): not a winner\n"
    wrong = claim(office, b, lv)
    assert (wrong.exit_code, wrong.output) == (1, f"{name}: wrong validation number\n")
    unknown = "465" + "9999999" + "000"
    unknown += f"{98 - int(unknown + '00') % 97:02d}"
    assert claim(office, unknown, v).output == \
        f"{unknown} (465-9999999-000): unknown ticket (not in run hh)\n"
    bad = b[:-1] + str((int(b[-1]) + 1) % 10)
    refused = claim(office, bad, v)
    assert (refused.exit_code, refused.output) == (
        1, f"{bad} ({t}): not a barcode number (its check digits fail)\n")


def test_a_winner_at_the_wrong_desk_is_sent_to_the_right_one_never_told_its_amount(office):
    hb, hv, ht, _, hp = ticket(office, pl.col("tier") == "100")
    low = claim(office, hb, hv, "--json")
    answer = json.loads(low.output)
    assert low.exit_code == 1 and answer["outcome"] == "claim elsewhere"
    assert answer["text"] == (f"{hb} ({ht}): a high-tier prize: claim at the claim centre (this desk holds "
                              "only the low-tier key)")
    assert answer["prize_cents"] is None and answer["prize"] is None and str(hp) not in low.output
    high = claim(office, hb, hv, low=False, high=True)
    assert (high.exit_code, high.output) == (0, f"{hb} ({ht}): prize {cash(hp)} (high tier)\n{UNRECORDED}")
    b, v, t, _, _ = ticket(office, pl.col("tier") == "2")
    centre = claim(office, b, v, low=False, high=True)
    assert (centre.exit_code, centre.output) == (
        1, f"{b} ({t}): a low-tier prize: claim at a retailer or the low-tier desk (this desk holds only "
           "the high-tier key)\n")
    both = claim(office, hb, hv, high=True)
    assert both.output == high.output


def test_a_desk_and_clerk_not_named_are_the_host_and_login_names_not_desk_desk_clerk_clerk(
        office, tmp_path, monkeypatch):
    """Unnamed, they were recorded as "desk" and "clerk", and a second claim was told "paid ... desk desk,
    clerk clerk". Now the ledger records this computer's host name and the login name running the
    command (docs/back-office.md section 3), and `unknown` for one that is not an id."""
    b, v, t, _, _ = ticket(office, pl.col("tier") == "20")
    ledger = tmp_path / "claims.sqlite"
    monkeypatch.setattr("socket.gethostname", lambda: "lotto-3")
    monkeypatch.setenv("LOGNAME", "ann")
    assert claim(office, t, v, "--ledger", ledger, high=True).exit_code == 0
    again = claim(office, b, v, "--ledger", ledger, high=True)
    assert again.stdout.endswith(", desk lotto-3, clerk ann; refusing a second claim (claim no. 2, "
                                 "recorded)\n"), again.stdout
    monkeypatch.setattr("socket.gethostname", lambda: "front desk")  # a space: not an id
    monkeypatch.setenv("LOGNAME", "")
    monkeypatch.setenv("USER", "x" * 65)  # too long
    other = tmp_path / "other.sqlite"
    assert claim(office, t, v, "--ledger", other, high=True).exit_code == 0
    again = claim(office, b, v, "--ledger", other, high=True)
    assert again.stdout.endswith(", desk unknown, clerk unknown; refusing a second claim (claim no. 2, "
                                 "recorded)\n"), again.stdout


def test_a_second_claim_is_told_when_and_where_the_first_was_paid(office, tmp_path):
    b, v, t, _, p = ticket(office, pl.col("tier") == "20")
    ledger = tmp_path / "claims.sqlite"
    first = claim(office, t, v, "--ledger", ledger, "--desk", "centre-1", "--clerk", "ann", "--json",
                  high=True)
    paid = json.loads(first.output)
    assert first.exit_code == 0 and paid["claim_no"] == 1 and paid["prize_cents"] == p
    again = claim(office, b, v, "--ledger", ledger, "--desk", "centre-2", "--clerk", "bob", high=True)
    assert again.exit_code == 1
    assert again.stdout.startswith(f"{b} ({t}): already paid: claim no. 1 at 20")
    assert again.stdout.endswith(", desk centre-1, clerk ann; refusing a second claim (claim no. 2, "
                                 "recorded)\n")
    wrong = claim(office, b, "1" * 12, "--ledger", ledger, high=True)
    assert wrong.stdout == f"{b} ({t}): wrong validation number (claim no. 3, recorded)\n"
    from poolgen.backoffice.claims import ClaimsLedger  # noqa: PLC0415  # read back after the CLI wrote

    book = ClaimsLedger(ledger)
    try:
        outcomes = [(a[0], a[3], a[4], a[6]) for a in book.attempts()]
        assert outcomes == [(1, b, "centre-1", "paid"), (2, b, "centre-2", "already paid"),
                            (3, b, default_desk(), "wrong validation number")]
        paid = [(x.barcode, x.prize_cents, x.tier, x.free) for x in book.payments()]
        assert paid == [(b, p, "high", False)]
    finally:
        book.close()
    assert ledger.stat().st_mode & 0o777 == 0o600


def test_a_batch_of_claims_is_answered_line_by_line(office, tmp_path):
    rows = [ticket(office, pl.col("tier") == tier) for tier in ("5", "lose", "free")]
    csv = tmp_path / "claims.csv"
    csv.write_text("ticket,virn\n" + "".join(f"{r[2]},{r[1]}\n" for r in rows))
    result = invoke("validate", office["folder"],
                    "--public-key", office["public"], "--batch", csv, "--validation-key",
                    office["root"] / "low.key", "--index-dir", office["index"], "--json")
    assert result.exit_code == 0
    assert [json.loads(line)["outcome"] for line in result.stdout.splitlines()] == ["prize", "not a winner",
                                                                                   "prize"]
    assert result.stderr == ("3 claim(s) answered: 2 prize(s), 1 refused; nothing paid or recorded (no "
                             "--ledger)\n")
    csv.write_text("ticket,virn\n" + f"{rows[0][2]},{rows[0][1]}\n" + "465-0000001-00١,1\n")
    bad = invoke("validate", office["folder"], "--public-key", office["public"], "--batch", csv,
                 "--validation-key", office["root"] / "low.key",
                 "--index-dir", office["index"])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr == (f"poolgen: error: {csv}: line 3: ticket '465-0000001-00\\u0661': not a barcode "
                          "number (15 digits; 16 for a game numbered 1000..9999) nor a ticket id "
                          "GGG-BBBBBBB-TTT (ASCII digits only)\n")


def _cmd(office, b, v, ledger):
    return [sys.executable, "-m", "poolgen", "validate", str(office["folder"]), b, v, "--public-key",
            str(office["public"]), "--validation-key",
            str(office["root"] / "low.key"), "--index-dir", str(office["index"]), "--ledger", str(ledger)]


def test_eight_concurrent_claims_of_one_ticket_pay_once(office, tmp_path):
    b, v, _, _, _ = ticket(office, pl.col("tier") == "5", 1)
    claim(office, b, "0" * 12)  # the index exists before the race
    ledger = tmp_path / "claims.sqlite"
    procs = [subprocess.Popen(_cmd(office, b, v, ledger), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(8)]
    results = [(p.wait(timeout=120), p.stdout.read() if p.stdout else "") for p in procs]
    assert sorted(code for code, _ in results) == [0] + [1] * 7, results
    assert sum("- paid, claim no." in out for _, out in results) == 1
    assert sum("already paid: claim no." in out for _, out in results) == 7
    assert ledger.stat().st_mode & 0o777 == 0o600


def test_a_claim_killed_before_its_commit_leaves_nothing_half_recorded(office, tmp_path):
    b, v, _, _, _ = ticket(office, pl.col("tier") == "5", 2)
    ledger = tmp_path / "claims.sqlite"
    mark = tmp_path / "paused"
    env = {**os.environ, "POOLGEN_TEST_PAUSE": f"claim-written:60:{mark}"}
    proc = subprocess.Popen(_cmd(office, b, v, ledger), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists()  # the attempt and the payment are written, not committed
    proc.kill()
    proc.wait(timeout=30)
    from poolgen.backoffice.claims import ClaimsLedger  # noqa: PLC0415  # read back after the kill

    book = ClaimsLedger(ledger)
    try:
        assert book.attempts() == [] and book.payments() == []
    finally:
        book.close()
    paid = subprocess.run(_cmd(office, b, v, ledger), capture_output=True, text=True, timeout=60)
    assert paid.returncode == 0 and "- paid, claim no. 1 in the ledger" in paid.stdout


def test_prove_takes_the_barcode_or_the_printed_id(office):
    b, v, t, _, _ = ticket(office, pl.col("tier") == "5")
    by_id = invoke("prove", office["folder"], t, v, "--json")
    by_barcode = invoke("merkle-proof", office["folder"], b, v, "--json")
    assert by_id.exit_code == 0 and by_barcode.stdout == by_id.stdout  # stderr: the signature not checked
    assert json.loads(by_id.stdout)["ticket"] == t
    bad = b[:-1] + str((int(b[-1]) + 1) % 10)
    refused = invoke("prove", office["folder"], bad, v)
    assert refused.exit_code == 2
    assert refused.stderr == f"poolgen: error: {bad}: not a barcode number (its check digits fail)\n"


def test_merkle_proof_of_a_printed_ticket_is_given_only_against_its_validation_number(office, einstant):
    """docs/publish-and-reveal.md: a printed ticket's proof (its outcome) goes only to whoever shows its
    VIRN; `merkle-proof` handed it for the barcode or id, on the ticket's outside. Now without the VIRN,
    or with a wrong one, it is refused in one line, exit 2, nothing printed; an eInstant share (no VIRN)
    is still proved by its id, and refused with a VIRN."""
    b, v, t, _, _ = ticket(office, pl.col("tier") == "5")
    other = ticket(office, pl.col("tier") == "5", 1)[1]
    bare = invoke("merkle-proof", office["folder"], b, "--json")
    assert (bare.exit_code, bare.stdout, bare.stderr) == (2, "", (
        f"poolgen: error: {t}: a printed ticket's proof is its outcome, given only to whoever shows its "
        "validation number (VIRN), which only its holder can read: give it after TICKET "
        "(docs/publish-and-reveal.md)\n"))
    wrong = invoke("merkle-proof", office["folder"], t, other)
    assert (wrong.exit_code, wrong.stdout, wrong.stderr) == (
        2, "", f"poolgen: error: {t}: wrong validation number; no proof given\n")
    unicode = invoke("merkle-proof", office["folder"], t, "\u0661" + v[1:])
    assert (unicode.exit_code, unicode.stderr) == (
        2, f"poolgen: error: validation number '\\u0661{v[1:]}': not a validation number (1 to 32 ASCII "
           "digits)\n")
    share = invoke("merkle-proof", einstant["folder"], "d1.00-0000007", "--json")
    assert share.exit_code == 0 and json.loads(share.stdout)["position"] == 6, share.output
    with_virn = invoke("merkle-proof", einstant["folder"], "d1.00-0000007", v)
    assert (with_virn.exit_code, with_virn.stderr) == (
        2, "poolgen: error: d1.00-0000007: an eInstant share has no validation number; give its share id "
           "alone\n")


def test_an_interrupt_after_the_payment_names_what_was_recorded(office, tmp_path):
    b, v, _, _, _ = ticket(office, pl.col("tier") == "5", 3)
    ledger = tmp_path / "claims.sqlite"
    mark = tmp_path / "paused"
    env = {**os.environ, "POOLGEN_TEST_PAUSE": f"kept:60:{mark}"}
    proc = subprocess.Popen(_cmd(office, b, v, ledger), env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists()
    proc.send_signal(signal.SIGTERM)
    mark.unlink()
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143
    assert err == (f"poolgen: error: interrupted by SIGTERM; claim no. 1 (the payment of {b}) in the ledger "
                   f"{ledger} was complete and is kept\n")
    again = subprocess.run(_cmd(office, b, v, ledger), capture_output=True, text=True, timeout=60)
    assert again.returncode == 1 and "already paid: claim no. 1" in again.stdout
