"""The books ledger on a split order made as cuts (tests/support/split_run.py; docs/back-office.md,
section 8): every cut's pack list names all 240 books of the order (docs/validation.md, section 4), but a
cut holds only its own pools' 120. A move of another cut's book under this cut was recorded (`book
007-0000193: printed -> activated`), and `status` counted the order's 240 books as the cut's; now a
book of another cut is refused in one line, nothing recorded, and the counts are the cut's own."""

from __future__ import annotations

import json
import shutil

import pytest

from poolgen.backoffice.books import BooksLedger
from poolgen.backoffice.errors import BackOfficeError
from poolgen.backoffice.vouched import open_signed
from tests.support.cli import invoke, one_line
from tests.support.split_run import SplitRun, cut, split_run, ticket_rows


@pytest.fixture(scope="module")
def order(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("split-books")
    whole = split_run(root)
    return {"whole": whole, "a": cut(whole, ["p1", "p2", "p3"], "cut-a"),
            "b": cut(whole, ["p4", "p5", "p6"], "cut-b")}


def _books(run: SplitRun) -> list[str]:
    """The cut's own books, GGG-BBBBBBB, ascending."""
    return sorted({f"{b[:3]}-{b[3:10]}" for b in ticket_rows(run)["barcode"].to_list()})


def _books_cmd(run: SplitRun, *args: object):
    return invoke("books", *args[:1], run.folder, *args[1:], "--public-key", run.public)


def test_a_move_of_a_book_of_another_cut_is_refused_and_nothing_is_recorded(order, tmp_path):
    ledger = tmp_path / "books.sqlite"
    a, b = _books(order["a"]), _books(order["b"])
    assert len(a) == len(b) == 120 and not set(a) & set(b)
    theirs = b[0]
    for command in ("activate", "return", "stolen"):
        refused = _books_cmd(order["a"], command, a[0], theirs, "--ledger", ledger)
        one_line(refused, "poolgen", f"book '{theirs}': a book of another run of the order, not of run cut-a "
                                     "(its pools p1, p2, p3 do not hold it); name it under the run that "
                                     "holds it")
    bare = _books_cmd(order["a"], "activate", str(int(theirs[4:])), "--ledger", ledger)
    one_line(bare, "poolgen", f"book '{int(theirs[4:])}': a book of another run of the order, not of run "
                              "cut-a")
    assert not ledger.exists()  # refused before the ledger was opened
    mine = _books_cmd(order["b"], "activate", theirs, "--ledger", ledger)
    assert mine.exit_code == 0 and mine.stdout == f"book {theirs}: printed -> activated (move no. 1)\n"
    whole = _books_cmd(order["whole"], "settle", theirs, "--ledger", ledger)  # every pool: every book
    assert whole.exit_code == 0 and whole.stdout == f"book {theirs}: activated -> settled (move no. 2)\n"
    books = BooksLedger(ledger, create=False)
    try:
        assert [(r[0], r[2], r[3]) for r in books.rows()] == [(1, "cut-b", theirs), (2, "split", theirs)]
    finally:
        books.close()


def test_status_of_a_cut_counts_its_own_books_and_refuses_another_cuts(order, tmp_path):
    ledger = tmp_path / "books.sqlite"
    a, b = _books(order["a"]), _books(order["b"])
    assert _books_cmd(order["a"], "activate", a[0], a[1], "--ledger", ledger).exit_code == 0
    assert _books_cmd(order["b"], "stolen", b[0], "--ledger", ledger).exit_code == 0
    text = _books_cmd(order["a"], "status", "--ledger", ledger)
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines()[0] == ("run cut-a: 120 books (its pools'; the pack list names the order's"
                                           " 240): 118 printed, 2 activated, 0 settled, 0 returned, 0 stolen")
    states = json.loads(_books_cmd(order["b"], "status", "--ledger", ledger, "--json").stdout)["states"]
    assert states == {"printed": 119, "activated": 0, "settled": 0, "returned": 0, "stolen": 1}
    states = json.loads(_books_cmd(order["whole"], "status", "--ledger", ledger, "--json").stdout)["states"]
    assert states == {"printed": 237, "activated": 2, "settled": 0, "returned": 0, "stolen": 1}
    whole = _books_cmd(order["whole"], "status", "--ledger", ledger)
    assert whole.stdout.splitlines()[0].startswith("run split: 240 books: 237 printed")
    named = _books_cmd(order["a"], "status", a[0], b[0], "--ledger", ledger)
    one_line(named, "poolgen", f"book '{b[0]}': a book of another run of the order, not of run cut-a")


def test_a_cut_without_its_pool_files_cannot_name_its_books(order, tmp_path):
    """A cut's books are read from its pool files (the pack list names the order's): one missing is
    refused in one line, nothing recorded."""
    copy = tmp_path / "cut-a"
    shutil.copytree(order["a"].folder, copy)
    (copy / "pool-p2.parquet").unlink()
    moved = SplitRun(order["a"].spec, copy, order["a"].public, order["a"].low, order["a"].high,
                     order["a"].private)
    refused = _books_cmd(moved, "activate", _books(order["a"])[0], "--ledger", tmp_path / "books.sqlite")
    one_line(refused, "poolgen", "pool p2: pool file pool-p2.parquet is missing (a run of some pools of a "
                                 "split order knows its books from its pool files)")
    assert not (tmp_path / "books.sqlite").exists()


def test_a_cuts_book_named_twice_in_two_spellings_is_refused_and_nothing_is_recorded(order, tmp_path):
    """Its GGG-BBBBBBB name and its bare number are one book of the cut: named twice, nothing recorded."""
    ledger = tmp_path / "books.sqlite"
    mine = _books(order["a"])[0]
    twice = _books_cmd(order["a"], "activate", mine, str(int(mine[4:])), "--ledger", ledger)
    one_line(twice, "poolgen", f"book {mine}: named twice; name each book once")
    books = BooksLedger(ledger, create=False)
    try:
        assert books.rows() == []
    finally:
        books.close()


def test_a_cut_naming_every_pool_of_the_order_answers_for_every_book(order, tmp_path):
    """A cut of all six pools holds the order's tickets: every book of the pack list is its own (as the
    order's run's), another cut's included, and status counts the 240 without a word of the order's."""
    every = cut(order["whole"], ["p1", "p2", "p3", "p4", "p5", "p6"], "cut-all")
    ledger = tmp_path / "books.sqlite"
    theirs = _books(order["b"])[0]
    moved = _books_cmd(every, "activate", theirs, "--ledger", ledger)
    assert moved.exit_code == 0 and moved.stdout == f"book {theirs}: printed -> activated (move no. 1)\n"
    text = _books_cmd(every, "status", "--ledger", ledger)
    assert text.stdout.splitlines()[0] == ("run cut-all: 240 books: 239 printed, 1 activated, 0 settled, "
                                           "0 returned, 0 stolen")


UNKNOWN = "its books are unknown"


@pytest.mark.parametrize(("edit", "message"), [
    (lambda m: m.__setitem__("deliverables", 5), f"the manifest lists no usable pack list; {UNKNOWN}"),
    (lambda m: m.__setitem__("deliverables", None), f"the manifest lists no usable pack list; {UNKNOWN}"),
    (lambda m: m.__setitem__("print", []),  # the manifest's reader refuses it first (fuzz12)
     "/manifest.json: not a valid poolgen manifest: manifest.print: not an object"),
    (lambda m: m["print"].__setitem__("split", []),
     f"the manifest's print.split is not an order's split {{order_tickets, ...}}; {UNKNOWN}"),
    (lambda m: m["print"]["split"].__setitem__("order_tickets", True),
     f"the manifest's print.split is not an order's split {{order_tickets, ...}}; {UNKNOWN}"),
])
def test_status_of_an_unsigned_cut_whose_manifest_garbles_its_books_is_refused_in_one_line(
        order, tmp_path, edit, message):
    """`status` reads a run without --public-key, whose manifest may say anything: a pack list entry that
    is no list, or a `print` (or its split) of another type, is refused in one line, not a traceback, and
    a cut is never read as the whole order for it (its books counted as the order's 240)."""
    copy = tmp_path / "cut-a"
    shutil.copytree(order["a"].folder, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    edit(manifest)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    refused = invoke("books", "status", copy, "--ledger", tmp_path / "books.sqlite")
    one_line(refused, "poolgen", f"{copy}{message}" if message.startswith("/") else f"{copy}: {message}")


def test_a_script_moving_a_book_of_another_cut_is_refused_as_the_command_is(order, tmp_path):
    """`BooksLedger.move` called from a script (not the command line, which checked the books itself)
    recorded another cut's book under this cut: the ledger now checks the cut, one message for both."""
    a, b = _books(order["a"]), _books(order["b"])
    vouched = open_signed(order["a"].folder, order["a"].public, "books activate")
    books = BooksLedger(tmp_path / "books.sqlite")
    try:
        with pytest.raises(BackOfficeError) as info:
            books.move(vouched, "activate", [a[0], b[0]], "clerk1", "")
        assert str(info.value) == (f"book '{b[0]}': a book of another run of the order, not of run cut-a "
                                   "(its pools p1, p2, p3 do not hold it); name it under the run that "
                                   "holds it")
        with pytest.raises(BackOfficeError) as info:
            books.move(vouched, "activate", ["007-9999999"], "clerk1", "")
        assert str(info.value) == "book '007-9999999': not a book of run cut-a (not in its pack list)"
        assert books.rows() == []  # nothing recorded
        assert [m.book for m in books.move(vouched, "activate", [a[0]], "clerk1", "")] == [a[0]]
    finally:
        books.close()


def test_a_script_moving_no_book_is_refused_in_one_line_nothing_recorded(order, tmp_path):
    """`BooksLedger.move` with an empty list (the command line needs a book; a script may pass none) was an
    IndexError from inside its transaction, not a refusal."""
    vouched = open_signed(order["a"].folder, order["a"].public, "books activate")
    books = BooksLedger(tmp_path / "books.sqlite")
    try:
        with pytest.raises(BackOfficeError) as info:
            books.move(vouched, "activate", [], "clerk1", "")
        assert str(info.value) == "activate: no book named; name each book to move once"
        assert books.rows() == []
    finally:
        books.close()
