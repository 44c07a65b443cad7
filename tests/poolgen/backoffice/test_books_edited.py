"""The books ledger edited by hand (docs/back-office.md, section 8): what the desk refuses when it opens
the ledger (the whole chain) and per claim (the claimed book's own rows and their neighbours), and the
rewrite chained again to the end that only a head recorded before shows."""

from __future__ import annotations

import sqlite3

import pytest

from poolgen.backoffice.desk import Desk
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.tickets import default_clerk, default_desk, parse_ticket
from poolgen.backoffice.vouched import open_signed
from poolgen.deliverables.validation import read_validation_key
from tests.poolgen.backoffice.test_books import books_cmd, claim, winners
from tests.support.cli import invoke, one_line
from tests.support.ledger_heads import link


def test_a_stolen_book_edited_back_into_play_is_refused_unless_every_later_row_is_rechained(office, tmp_path):
    """A theft edited into a settlement, its chain left or made again alone, is refused (exit 2) by a desk
    opened after the edit (the whole chain) and by one opened before it (the claimed book's own rows and
    their neighbours' links, read per claim); chained again to the end it is paid, and only the head
    recorded before shows it (`books status --head`)."""
    books = tmp_path / "books.sqlite"
    (sb, sv, st, _, _), (ob, *_) = winners(office, 2)
    stolen, other = st[:11], f"{ob[:3]}-{ob[3:10]}"
    for command, book in (("activate", stolen), ("stolen", stolen), ("activate", other)):
        assert books_cmd(office, command, books, book).exit_code == 0
    head = invoke("books", "status", office["folder"], "--ledger", books).stdout.splitlines()[-1].split()[-1]
    open_before = Desk(open_signed(office["folder"], office["public"], "test"),
                       {"low": read_validation_key(office["root"] / "low.key")}, index_dir=office["index"],
                       books=books)
    db = sqlite3.connect(books)
    db.execute("UPDATE moves SET state = 'settled' WHERE move_no = 2")
    db.commit()
    one_line(claim(office, sb, sv, "--books", books), "poolgen",
             f"{books}: move no. 2: its chain is not the one its rows give (a row edited")
    with pytest.raises(BackOfficeError, match=f"move no. 2 [(]book {stolen}[)]: its chain is not the one"):
        open_before.claim(parse_ticket(sb), sv)
    rows = db.execute("SELECT move_no, at, run_id, book, was, state, clerk, ref, chain FROM moves ORDER BY "
                      "move_no").fetchall()
    chain = rows[0][8]
    for n, row in enumerate(rows[1:], start=2):
        chain = link(chain, list(row[:8]))
        db.execute("UPDATE moves SET chain = ? WHERE move_no = ?", (chain, n))
        if n == 2:
            db.commit()  # move no. 2 chained again alone: the next row's link no longer holds
            one_line(claim(office, sb, sv, "--books", books), "poolgen",
                     f"{books}: move no. 3: its chain is not the one")
            with pytest.raises(BackOfficeError, match=f"move no. 3 [(]after book {stolen}'s move no. 2[)]"):
                open_before.claim(parse_ticket(sb), sv)
    open_before.close()
    db.commit()
    db.close()
    assert claim(office, sb, sv, "--books", books).exit_code == 0  # rewritten to the end: only a head shows
    status = invoke("books", "status", office["folder"], "--ledger", books, "--head", head)
    assert status.exit_code == 1
    assert f"problem: {books}: its move no. 3 is not the row its head {head} named" in status.stdout


def test_a_theft_row_moved_to_another_book_by_hand_is_refused_by_the_desk(office, tmp_path):
    """A stolen book's theft row given another book's name (or its own in another form), its chain left:
    the claimed book's rows no longer hold it, and no neighbour of them is the row edited, so a check of
    the book's own rows alone paid its ticket; the desk refuses the claim (exit 2)."""
    books = tmp_path / "books.sqlite"
    (sb, sv, st, _, _), *others = winners(office, 4)
    stolen = st[:11]
    assert books_cmd(office, "activate", books, stolen).exit_code == 0
    for _, _, t, _, _ in others:  # moves 2 to 4: the theft's row is not next to the book's first
        assert books_cmd(office, "activate", books, t[:11]).exit_code == 0
    assert books_cmd(office, "stolen", books, stolen).exit_code == 0
    assert books_cmd(office, "settle", books, others[0][2][:11]).exit_code == 0  # move 6: a later row
    for name in (others[1][2][:11], f"{stolen[:4]}{int(stolen[4:])}"):
        db = sqlite3.connect(books)
        db.execute("UPDATE moves SET book = ? WHERE move_no = 5", (name,))
        db.commit()
        db.close()
        said = ("move no. 5: its chain is not the one its rows give" if name[4] == "0" else  # a book
                f"book {name}: move no. 5 says it was activated, but its moves before left it printed")
        one_line(claim(office, sb, sv, "--books", books), "poolgen", said)


def test_a_theft_rewritten_as_an_activation_while_a_desk_is_open_is_refused_at_its_claim(office, tmp_path):
    """A desk opened before the edit checks the claimed book's moves as a path of the table per claim: a
    theft rewritten as printed -> activated after the book's activation, every later row chained again
    (so every link holds), is refused (exit 2 at the CLI; here a BackOfficeError), not paid."""
    books = tmp_path / "books.sqlite"
    (sb, sv, st, _, _), (ob, *_) = winners(office, 2)
    for command, book in (("activate", st[:11]), ("stolen", st[:11]), ("activate", f"{ob[:3]}-{ob[3:10]}")):
        assert books_cmd(office, command, books, book).exit_code == 0
    desk = Desk(open_signed(office["folder"], office["public"], "test"),
                {"low": read_validation_key(office["root"] / "low.key")}, index_dir=office["index"],
                books=books)
    db = sqlite3.connect(books)
    db.execute("UPDATE moves SET was = 'printed', state = 'activated' WHERE move_no = 2")
    rows = db.execute("SELECT move_no, at, run_id, book, was, state, clerk, ref, chain FROM moves ORDER BY "
                      "move_no").fetchall()
    chain = rows[0][8]
    for n, row in enumerate(rows[1:], start=2):
        chain = link(chain, list(row[:8]))
        db.execute("UPDATE moves SET chain = ? WHERE move_no = ?", (chain, n))
    db.commit()
    db.close()
    said = f"book {st[:11]}: move no. 2 moves it printed -> activated after its moves before left it "
    said += "activated"
    with pytest.raises(BackOfficeError, match=said):
        desk.claim(parse_ticket(sb), sv)
    desk.close()


def test_a_payment_backdated_by_hand_to_before_its_book_was_stolen_is_named(office, tmp_path):
    """A desk without --books pays a ticket of a stolen book; an insider then sets the payment row's time
    back to when its book was active (and its desk and clerk to another's). The chain covers the attempt's
    time, desk and clerk, not the payment row's copies of them, and `claims reconcile --books` judged the
    payment by the copy: it passed. Each payment row must be its attempt's, field for field."""
    books, claims = tmp_path / "books.sqlite", tmp_path / "claims.sqlite"
    (sb, sv, st, _, _), = winners(office, 1)
    for command in ("activate", "stolen"):
        assert books_cmd(office, command, books, st[:11]).exit_code == 0
    assert claim(office, sb, sv, "--ledger", claims).exit_code == 0  # no --books: paid
    db = sqlite3.connect(books)
    (active,) = db.execute("SELECT at FROM moves WHERE move_no = 1").fetchone()
    db.close()
    db = sqlite3.connect(claims)
    db.execute("UPDATE paid SET at = ?, desk = 'desk9', clerk = 'bob' WHERE claim_no = 1", (active,))
    db.commit()
    db.close()
    keys = ("--validation-key", office["root"] / "low.key", "--public-key", office["public"])
    rec = invoke("claims", "reconcile", office["folder"], "--ledger", claims, *keys, "--books", books)
    problems = [line for line in rec.stdout.splitlines() if line.startswith("problem: ")]
    assert (rec.exit_code, problems) == (1, [
        f"problem: {claims}: claim no. 1 ({sb}): its payment row's at, desk, clerk are not its attempt's "
        "(the payment row edited by hand)"]), rec.output
    for command in ("report", "close"):
        one_line(invoke("claims", command, office["folder"], "--ledger", claims, "--books", books), "poolgen",
                 f"{claims}: claim no. 1 ({sb}): its payment row's at, desk, clerk are not its attempt's "
                 "(the payment row edited by hand); the ledgers do not reconcile")
    again = claim(office, sb, sv, "--ledger", claims)
    assert again.exit_code == 1 and "already paid: claim no. 1 at " in again.stdout
    # the attempt's desk and clerk, not the edit's
    assert f"desk {default_desk()}, clerk {default_clerk()}; refusing a second claim" in again.stdout
