"""The books ledger (`poolgen books`, poolgen/backoffice/books.py; docs/back-office.md, section 8): a
book's life as the table of moves says, the desk refusing a ticket of a book not activated, returned or
stolen (before its validation number is looked up), a hand-edited books ledger refused, and moves all
or nothing across SIGKILL. The run is this folder's conftest's `office` (60 books of 300 tickets)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from poolgen.backoffice.books import BooksLedger
from poolgen.backoffice.desk import Desk
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.tickets import parse_ticket
from poolgen.backoffice.vouched import open_signed
from poolgen.deliverables.validation import read_validation_key
from tests.support.cli import invoke, one_line
from tests.support.ledger_heads import link


def books_cmd(office, command, ledger, *more):
    return invoke("books", command, office["folder"], *more, "--ledger", ledger, "--public-key",
                  office["public"])


def claim(office, tid, virn, *more):
    return invoke("validate", office["folder"], "--public-key", office["public"], tid, virn,
                  "--validation-key", office["root"] / "low.key", "--index-dir", office["index"], *more)


def book_of(row) -> str:
    return row[2][:11]  # GGG-BBBBBBB of the ticket id


def winners(office, n):
    """`n` low-tier winners ($1 to $10, not free), each in a book of its own."""
    rows = office["rows"].filter(pl.col("tier").is_in(["1", "2", "5", "10"])).rows()
    out, seen = [], set()
    for r in rows:
        if book_of(r) not in seen:
            seen.add(book_of(r))
            out.append(r)
        if len(out) == n:
            return out
    raise AssertionError("not enough books with a low-tier winner")


def test_a_book_moves_only_as_the_table_says_and_a_refused_command_records_nothing(office, tmp_path):
    ledger = tmp_path / "books.sqlite"
    a, b, c = (book_of(r) for r in winners(office, 3))
    first = books_cmd(office, "activate", ledger, a, b)
    assert first.exit_code == 0, first.output
    assert first.stdout == (f"book {a}: printed -> activated (move no. 1)\n"
                            f"book {b}: printed -> activated (move no. 2)\n")
    assert first.stderr.startswith(f"ledger {ledger}: head 2:")
    assert stat.S_IMODE(os.stat(ledger).st_mode) == 0o600
    bare = str(int(c[4:]))  # the pack list's book number, of the run's game
    moved = books_cmd(office, "return", ledger, bare, "--json", "--clerk", "ann", "--ref", "R17")
    assert moved.exit_code == 0 and [(m["book"], m["was"], m["state"], m["move_no"]) for m in
                                     json.loads(moved.stdout)["moves"]] == [(c, "printed", "returned", 3)]
    before = invoke("books", "status", office["folder"], "--ledger", ledger, a, b, c).stdout
    illegal = books_cmd(office, "activate", ledger, a, c)  # a active, c returned: the whole command refused
    one_line(illegal, "poolgen", f"book {a}: activated; an activated book cannot be activated (moves from "
                                 "activated: returned, settled, stolen)")
    again = books_cmd(office, "settle", ledger, a, a)
    one_line(again, "poolgen", f"book {a}: named twice")
    half = books_cmd(office, "settle", ledger, a, c)  # a may be settled, c may not: neither is
    one_line(half, "poolgen", f"book {c}: returned; a returned book cannot be settled (moves from returned: "
                              "stolen)")
    assert invoke("books", "status", office["folder"], "--ledger", ledger, a, b, c).stdout == before
    assert before.splitlines()[2].startswith(f"book {c}: returned (move no. 3 at 20")
    assert before.splitlines()[2].endswith(", clerk ann, ref R17)")
    one_line(books_cmd(office, "activate", ledger, "465-9999999"), "poolgen",
             "book '465-9999999': not a book of run hh (not in its pack list)")
    one_line(books_cmd(office, "activate", ledger, "\u0661"), "poolgen",
             "book '\\u0661': not a book GGG-BBBBBBB")
    assert books_cmd(office, "stolen", ledger, c).exit_code == 0
    one_line(books_cmd(office, "return", ledger, c), "poolgen", f"book {c}: stolen; a stolen book cannot be "
                                                                "returned (moves from stolen: none)")
    status = invoke("books", "status", office["folder"], "--ledger", ledger, "--json")
    assert status.exit_code == 0
    chain, db = "00" * 32, sqlite3.connect(ledger)  # section 8's chain, from the doc (tests/support)
    for row in db.execute("SELECT move_no, at, run_id, book, was, state, clerk, ref FROM moves ORDER BY "
                          "move_no"):
        chain = link(chain, list(row))
    db.close()
    assert json.loads(status.stdout)["head"] == f"4:{chain}"
    assert json.loads(status.stdout)["states"] == {"printed": 57, "activated": 2, "settled": 0, "returned": 0,
                                                   "stolen": 1}


def test_the_desk_refuses_a_ticket_of_a_book_not_active_before_its_validation_number(office, tmp_path):
    books, claims = tmp_path / "books.sqlite", tmp_path / "claims.sqlite"
    (pb, pv, pt, _, pp), (rb, rv, rt, _, _), (sb, sv, st, _, _), (ab, av, at, _, ap) = winners(office, 4)
    printed, returned, stolen, active = (t[:11] for t in (pt, rt, st, at))
    assert books_cmd(office, "activate", books, active, stolen).exit_code == 0
    assert books_cmd(office, "return", books, returned).exit_code == 0
    assert books_cmd(office, "stolen", books, stolen).exit_code == 0
    no_books = claim(office, pb, pv)  # without --books: paid as before
    assert no_books.stdout == f"{pb} ({pt}): prize ${pp // 100}.00 (low tier)\n"
    with_books = ("--books", books, "--ledger", claims)
    answer = claim(office, pb, pv, *with_books)
    assert (answer.exit_code, answer.stdout) == (1, f"{pb} ({pt}): book {printed} is not activated: not sold "
                                                    "by a retailer; not paid (claim no. 1, recorded)\n")
    ret = claim(office, rb, "0" * 12, *with_books, "--json")  # a wrong VIRN: the book is refused first
    assert json.loads(ret.stdout) | {"head": None, "text": None} == json.loads(ret.stdout) | {
        "outcome": "book returned", "book": returned, "book_state": "returned", "pays": False,
        "prize_cents": None, "head": None, "text": None}
    assert json.loads(ret.stdout)["text"].startswith(f"{rb} ({rt}): book {returned} was returned unsold")
    sto = claim(office, sb, sv, *with_books)
    assert sto.exit_code == 1
    assert sto.stdout == (f"{sb} ({st}): book {stolen} was reported stolen: keep the ticket and refer the "
                          "claim to security; not paid (claim no. 3, recorded)\n")
    paid = claim(office, ab, av, *with_books, "--json")
    assert paid.exit_code == 0 and json.loads(paid.stdout)["prize_cents"] == ap
    assert (json.loads(paid.stdout)["book"], json.loads(paid.stdout)["book_state"]) == (active, "activated")
    rows = sqlite3.connect(claims).execute("SELECT claim_no, outcome FROM attempts ORDER BY claim_no")
    rows = rows.fetchall()
    assert rows == [(1, "book not activated"), (2, "book returned"), (3, "book stolen"), (4, "paid")]
    lb, lv, lt, _, _ = office["rows"].filter(pl.col("tier") == "lose").filter(
        pl.col("ticket").str.starts_with(stolen)).row(0)
    loser = claim(office, lb, lv, "--books", books)  # a loser too: nothing tells winners apart
    assert loser.stdout.startswith(f"{lb} ({lt}): book {stolen} was reported")


def test_a_books_ledger_edited_by_hand_is_refused_by_the_desk_and_named_by_status(office, tmp_path):
    books = tmp_path / "books.sqlite"
    (sb, sv, st, _, _), (ob, *_) = winners(office, 2)
    assert books_cmd(office, "activate", books, st[:11], ob[3:10].lstrip("0") or "0").exit_code == 0
    assert books_cmd(office, "stolen", books, st[:11]).exit_code == 0
    head = invoke("books", "status", office["folder"], "--ledger", books).stdout.splitlines()[-1].split()[-1]
    checked = invoke("books", "status", office["folder"], "--ledger", books, "--head", head)
    assert (checked.exit_code, checked.stdout.splitlines()[-2:]) == (0, [  # the head given, said checked
        f"ledger {books}: extends the head given, {head}", f"ledger {books}: head {head}"])
    db = sqlite3.connect(books)
    db.execute("DELETE FROM moves WHERE move_no = 3")  # the theft removed: the last row, no gap
    db.commit()
    db.close()
    refused = invoke("books", "status", office["folder"], "--ledger", books, "--head", head)
    assert refused.exit_code == 1
    assert f"problem: {books}: move no. 3 is missing (1 row removed from its end): the ledger no longer " \
           f"extends its head {head}; a stolen or returned book whose move was removed is claimable again\n" \
           in refused.stdout
    db = sqlite3.connect(books)
    db.execute("DELETE FROM moves WHERE move_no = 1")  # now a gap
    db.commit()
    db.close()
    one_line(claim(office, sb, sv, "--books", books), "poolgen",
             f"{books}: move number 1 is missing (rows removed by hand: a stolen book removed is claimable "
             "again)")


def test_a_move_killed_before_its_commit_leaves_the_ledger_as_before_one_after_it_is_kept(office, tmp_path):
    books = tmp_path / "books.sqlite"
    a, b = (book_of(r) for r in winners(office, 2))
    cmd = [sys.executable, "-m", "poolgen", "books", "activate", str(office["folder"]), a, b, "--ledger",
           str(books), "--public-key", str(office["public"])]
    for sig, rows, code in ((signal.SIGKILL, [], -9), (signal.SIGTERM, [(1, a), (2, b)], 143)):
        mark = tmp_path / f"paused-{sig}"
        proc = subprocess.Popen(cmd, env={**os.environ, "POOLGEN_TEST_PAUSE": f"books-written:60:{mark}"},
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert mark.exists()  # both moves written, not committed
        proc.send_signal(sig)
        mark.unlink()
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == code
        got = sqlite3.connect(books).execute("SELECT move_no, book FROM moves ORDER BY move_no").fetchall()
        assert got == rows
    assert err == (f"poolgen: error: interrupted by SIGTERM; moves no. 1 to 2 (activate 2 books) in the "
                   f"ledger {books} was complete and is kept\n")


def _expected(office, paid_tickets, out_books):
    """Per level (cents, free), the prizes not paid in each out-of-play book state, from the pool rows."""
    counts: dict[tuple[int, bool], dict[str, int]] = {}
    for _, _, tid, tier, cents in office["rows"].filter(pl.col("prize_cents") > 0).rows():
        state = out_books.get(tid[:11])
        if state is not None and tid not in paid_tickets:
            level = counts.setdefault((cents, tier == "free"), {"returned": 0, "stolen": 0})
            level[state] += 1
    return counts


def test_prizes_in_returned_and_stolen_books_are_reported_apart_and_the_totals_reconcile(office, tmp_path):
    books, claims = tmp_path / "books.sqlite", tmp_path / "claims.sqlite"
    (pb, pv, pt, _, pp), (rb, *_), (sb, *_) = winners(office, 3)
    paid_book, returned, stolen = pt[:11], f"{rb[:3]}-{rb[3:10]}", f"{sb[:3]}-{sb[3:10]}"
    assert books_cmd(office, "activate", books, paid_book).exit_code == 0
    assert claim(office, pb, pv, "--books", books, "--ledger", claims).exit_code == 0  # paid while active
    assert books_cmd(office, "return", books, paid_book, returned).exit_code == 0  # then returned
    assert books_cmd(office, "stolen", books, stolen).exit_code == 0
    want = _expected(office, {pt}, {paid_book: "returned", returned: "returned", stolen: "stolen"})
    assert sum(v["returned"] for v in want.values()) > 0 and sum(v["stolen"] for v in want.values()) > 0
    plain = json.loads(invoke("claims", "report", office["folder"], "--ledger", claims, "--json").stdout)
    report = invoke("claims", "report", office["folder"], "--ledger", claims, "--books", books, "--json")
    assert report.exit_code == 0, report.output
    levels = json.loads(report.stdout)["levels"]
    assert len(levels) == len(plain["levels"])
    for lv, before in zip(levels, plain["levels"], strict=True):
        w = want.get((lv["prize_cents"], lv["free_ticket"]), {"returned": 0, "stolen": 0})
        assert (lv["returned"], lv["stolen"]) == (w["returned"], w["stolen"]), lv
        assert lv["total"] == lv["paid"] + lv["returned"] + lv["stolen"] + lv["remaining"] == before["total"]
        assert lv["paid"] == before["paid"] == (1 if lv["prize_cents"] == pp and not lv["free_ticket"] else 0)
    text = invoke("claims", "report", office["folder"], "--ledger", claims, "--books", books).stdout
    text = text.splitlines()
    assert text[1].split() == ["Prize", "Total", "prizes", "Claimed", "Returned", "Stolen", "Remaining"]
    close = json.loads(invoke("claims", "close", office["folder"], "--ledger", claims, "--books", books,
                              "--json").stdout)
    returned_cents = sum(c * v["returned"] for (c, _), v in want.items())
    stolen_cents = sum(c * v["stolen"] for (c, _), v in want.items())
    assert (close["returned_cents"], close["stolen_cents"]) == (returned_cents, stolen_cents)
    assert close["paid_cents"] == pp
    assert close["designed_prizes_cents"] == close["paid_cents"] + close["unclaimed_cents"] + returned_cents \
        + stolen_cents == int(office["rows"]["prize_cents"].sum())
    assert sum(lv["returned_cents"] + lv["stolen_cents"] + lv["unclaimed_cents"] for lv in close["levels"]) \
        == close["designed_prizes_cents"] - pp


@pytest.fixture(scope="module")
def signed(office):
    """The office run as the desk opens it: its signature verified (once for every example)."""
    return open_signed(office["folder"], office["public"], "test")


# docs/back-office.md section 8's table, written from the doc (not the library's MOVES)
_TABLE = {"activate": ({"printed"}, "activated"), "settle": ({"activated"}, "settled"),
          "return": ({"printed", "activated"}, "returned"),
          "stolen": ({"printed", "activated", "settled", "returned"}, "stolen")}
_COMMANDS = tuple(_TABLE)
_PATHS = {"printed": [], "activated": ["activate"], "settled": ["activate", "settle"], "returned": ["return"],
          "stolen": ["stolen"]}


def test_every_move_from_every_state_is_refused_or_recorded_as_the_table_says(office, signed, tmp_path):
    """All 20 (state, command) pairs, each on a book of its own driven to the state first."""
    books = sorted({book_of(r) for r in office["rows"].rows()})
    ledger = BooksLedger(tmp_path / "books.sqlite")
    try:
        pairs = [(state, command) for state in _PATHS for command in _TABLE]
        for (state, command), book in zip(pairs, books, strict=False):
            for step in _PATHS[state]:
                ledger.move(signed, step, [book], "clerk", "")
            assert ledger.state(book)[0] == state
            froms, to = _TABLE[command]
            if state in froms:
                moved = ledger.move(signed, command, [book], "clerk", "")
                assert [(m.was, m.state) for m in moved] == [(state, to)]
            else:
                refused = f"^book {book}: {state}; an? {state} book cannot be "
                with pytest.raises(BackOfficeError, match=refused):
                    ledger.move(signed, command, [book], "clerk", "")
                assert ledger.state(book)[0] == state
    finally:
        ledger.close()
_STEPS = st.lists(st.tuples(st.sampled_from(_COMMANDS), st.lists(st.integers(0, 2), min_size=1, max_size=3)),
                  max_size=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_STEPS)
def test_no_sequence_of_moves_pays_a_ticket_of_a_book_not_active_nor_loses_a_move_on_reopen(office, signed,
                                                                                             steps):
    """Any sequence of commands (each on one to three of three books, a book perhaps twice): a legal one
    records every move, an illegal one none; the ledger reopened holds exactly the model's states and
    moves; and the desk pays a winner of a book exactly when the model has it activated or settled."""
    run = signed
    tickets = winners(office, 3)
    names = [book_of(r) for r in tickets]
    folder = tempfile.mkdtemp()
    try:
        path = os.path.join(folder, "books.sqlite")
        model = dict.fromkeys(names, "printed")
        moves = 0
        for command, which in steps:
            chosen = [names[i] for i in which]
            froms, to = _TABLE[command]
            legal = len(set(chosen)) == len(chosen) and all(model[b] in froms for b in chosen)
            ledger = BooksLedger(path)
            try:
                ledger.move(run, command, chosen, "clerk", "")
                assert legal, (command, chosen, model)
                model.update(dict.fromkeys(chosen, to))
                moves += len(chosen)
            except BackOfficeError:
                assert not legal, (command, chosen, model)
            finally:
                ledger.close()
            reopened = BooksLedger(path, create=False)
            try:
                assert {b: reopened.state(b)[0] for b in names} == model
                assert [r[0] for r in reopened.rows()] == list(range(1, moves + 1))
            finally:
                reopened.close()
        if not os.path.exists(path):
            BooksLedger(path).close()
        desk = Desk(run, {"low": read_validation_key(office["root"] / "low.key")}, index_dir=office["index"],
                    books=Path(path))
        try:
            for row, name in zip(tickets, names, strict=True):
                answer = desk.claim(parse_ticket(row[0]), row[1])
                assert answer.pays == (model[name] in {"activated", "settled"}), (name, model[name], answer)
                if not answer.pays:
                    assert answer.outcome == {"printed": "book not activated", "returned": "book returned",
                                              "stolen": "book stolen"}[model[name]]
                    assert answer.prize_cents is None  # never told what it would have won
        finally:
            desk.close()
    finally:
        shutil.rmtree(folder)



def test_a_pack_list_an_unsigned_manifest_vouches_for_is_still_read_strictly(office, tmp_path):
    """`books status` reads a run without its signature: a manifest re-listing a pack list of other rows
    (or another name) is refused in one line, not a traceback."""
    run = tmp_path / "run"
    shutil.copytree(office["folder"], run)
    for packs, name, message in ((b"game,book,first_ticket,last_ticket,tickets\n465,x\n", "packs.csv",
                                  "packs.csv: line 2: not a pack list row GGG,BOOK,0,LAST,PER"),
                                 (b"game,book\n", "packs.csv", "its first line is not the pack list's"),
                                 (b"", "../packs.csv", "the manifest's pack list is named '../packs.csv'")):
        (run / "packs.csv").write_bytes(packs)
        doc = json.loads((run / "manifest.json").read_text())
        entry = next(f for f in doc["deliverables"] if f["role"] == "packs")
        entry.update(name=name, bytes=len(packs), sha256=hashlib.sha256(packs).hexdigest())
        (run / "manifest.json").write_text(json.dumps(doc))
        one_line(invoke("books", "status", run, "--ledger", tmp_path / "books.sqlite"), "poolgen", message)


def test_reconcile_names_a_payment_made_while_its_book_was_not_in_play(office, tmp_path):
    """A desk without --books pays a ticket of a book never activated (or stolen): `claims reconcile
    --books` names that payment; one made while its book was active stands, its book returned after."""
    books, claims = tmp_path / "books.sqlite", tmp_path / "claims.sqlite"
    (ab, av, at, _, _), (pb, pv, pt, _, _) = winners(office, 2)
    assert books_cmd(office, "activate", books, at[:11]).exit_code == 0
    assert claim(office, ab, av, "--ledger", claims, "--books", books).exit_code == 0
    assert claim(office, pb, pv, "--ledger", claims).exit_code == 0  # no --books: paid, its book printed
    assert books_cmd(office, "return", books, at[:11]).exit_code == 0
    keys = ("--validation-key", office["root"] / "low.key", "--public-key", office["public"])
    plain = invoke("claims", "reconcile", office["folder"], "--ledger", claims, *keys)
    assert plain.exit_code == 0, plain.output
    rec = invoke("claims", "reconcile", office["folder"], "--ledger", claims, *keys, "--books", books)
    problems = [line for line in rec.stdout.splitlines() if line.startswith("problem: ")]
    assert rec.exit_code == 1 and len(problems) == 1, rec.output
    assert problems[0].startswith(f"problem: {claims}: claim no. 2 ({pb}): paid at 20")
    assert problems[0].endswith(f"while its book {pt[:11]} was printed (no move recorded before it): not a "
                                "claimable ticket")


def test_status_names_a_book_whose_rows_are_not_a_path_of_the_table(office, tmp_path):
    books = tmp_path / "books.sqlite"
    a, b = (book_of(r) for r in winners(office, 2))
    for command, book in (("activate", a), ("settle", a), ("activate", b)):
        assert books_cmd(office, command, books, book).exit_code == 0
    db = sqlite3.connect(books)
    db.execute("UPDATE moves SET state = 'activated' WHERE move_no = 2")  # activated -> activated
    db.execute("UPDATE moves SET was = 'returned' WHERE move_no = 3")  # b was printed
    db.commit()
    db.close()
    status = invoke("books", "status", office["folder"], "--ledger", books)
    assert status.exit_code == 1
    assert [line for line in status.stdout.splitlines() if line.startswith("problem: ")] == [
        f"problem: {books}: book {a}: move no. 2 moves it activated -> activated, not a move of the table",
        f"problem: {books}: book {b}: move no. 3 says it was returned, but its moves before left it printed",
        f"problem: {books}: move no. 2: its chain is not the one its rows give (a row edited, inserted or "
        "removed by hand)"]


def test_six_clerks_activating_one_book_at_once_record_one_move(office, tmp_path):
    books = tmp_path / "books.sqlite"
    first, book = (book_of(r) for r in winners(office, 2))
    assert books_cmd(office, "activate", books, first).exit_code == 0  # the ledger exists before the race
    cmd = [sys.executable, "-m", "poolgen", "books", "activate", str(office["folder"]), book, "--ledger",
           str(books), "--public-key", str(office["public"])]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(6)]
    results = [(*p.communicate(timeout=120), p.returncode) for p in procs]
    assert sorted(code for _, _, code in results) == [0, 2, 2, 2, 2, 2], results
    assert [out for out, _, code in results if code == 0] == [
        f"book {book}: printed -> activated (move no. 2)\n"]
    refused = (f"poolgen: error: book {book}: activated; an activated book cannot be activated (moves from "
               "activated: returned, settled, stolen)\n")
    assert all(err == refused for _, err, code in results if code == 2)
    db = sqlite3.connect(books)
    assert db.execute("SELECT move_no, book, state FROM moves ORDER BY move_no").fetchall() == [
        (1, first, "activated"), (2, book, "activated")]
    db.close()


def test_a_move_from_a_state_edited_to_nothing_is_refused_in_one_line(office, tmp_path):
    """A state edited by hand to '' (or a newline) is refused as any other state the table has no move
    from, shown escaped: it was an IndexError traceback."""
    books = tmp_path / "books.sqlite"
    a, b = (book_of(r) for r in winners(office, 2))
    assert books_cmd(office, "activate", books, a, b).exit_code == 0
    db = sqlite3.connect(books)
    db.execute("UPDATE moves SET state = '' WHERE move_no = 1")
    db.execute("UPDATE moves SET state = 'x\ny' WHERE move_no = 2")
    db.commit()
    db.close()
    one_line(books_cmd(office, "settle", books, a), "poolgen",
             f"book {a}: ''; a '' book cannot be settled (moves from '': none)")
    one_line(books_cmd(office, "settle", books, b), "poolgen",
             f"book {b}: 'x\\ny'; a 'x\\ny' book cannot be settled (moves from 'x\\ny': none)")


def test_status_shows_a_row_edited_to_hold_a_newline_on_one_line(office, tmp_path):
    books = tmp_path / "books.sqlite"
    a = book_of(winners(office, 1)[0])
    assert books_cmd(office, "activate", books, a, "--clerk", "ann").exit_code == 0
    db = sqlite3.connect(books)
    db.execute("UPDATE moves SET clerk = 'ann\nbook 465-0000001: stolen' WHERE move_no = 1")
    db.commit()
    db.close()
    status = invoke("books", "status", office["folder"], "--ledger", books, a)
    assert status.exit_code == 1
    assert status.stdout.splitlines()[0].startswith(f"book {a}: activated (move no. 1 at 20")
    assert status.stdout.splitlines()[0].endswith(", clerk 'ann\\nbook 465-0000001: stolen')")


def test_reconcile_names_a_payment_made_in_the_millisecond_its_book_was_reported_stolen(office, tmp_path):
    """Section 8: a payment is judged by its book's state after its last move at or before the payment's
    time; a theft recorded in the same millisecond as a payment (a desk without --books) comes first."""
    books, claims = tmp_path / "books.sqlite", tmp_path / "claims.sqlite"
    (sb, sv, st, _, _), = winners(office, 1)
    run = open_signed(office["folder"], office["public"], "test")
    t0, t1 = datetime(2026, 12, 2, 9, tzinfo=UTC), datetime(2026, 12, 2, 10, tzinfo=UTC)
    ledger = BooksLedger(books)
    ledger.move(run, "activate", [st[:11]], "clerk", "", now=t0)
    ledger.move(run, "stolen", [st[:11]], "clerk", "", now=t1)
    ledger.close()
    desk = Desk(run, {"low": read_validation_key(office["root"] / "low.key")}, index_dir=office["index"],
                ledger=claims)
    assert desk.claim(parse_ticket(sb), sv, now=t1).pays
    desk.close()
    keys = ("--validation-key", office["root"] / "low.key", "--public-key", office["public"])
    rec = invoke("claims", "reconcile", office["folder"], "--ledger", claims, *keys, "--books", books)
    assert rec.exit_code == 1, rec.output
    assert f"problem: {claims}: claim no. 1 ({sb}): paid at 2026-12-02T10:00:00.000Z while its book " \
           f"{st[:11]} was stolen (move no. 2 at 2026-12-02T10:00:00.000Z): not a claimable ticket" \
           in rec.stdout.splitlines()
