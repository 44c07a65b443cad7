"""The `ticket` column's text (poolgen/run/build.py, docs/pool-files.md): the game number or pool id,
then the book (or serial) zero-filled to 7 digits and a printed ticket's number to 3, whichever way the
column is made (a byte matrix when every number fits its width, polars' format when one does not)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from poolgen.run.build import _ticket_ids


def test_einstant_serials_are_zero_filled_to_seven_digits():
    serial = pl.Series("serial", np.array([1, 42, 9_999_999], dtype=np.uint32))
    got = _ticket_ids("d7.50x4-", serial)
    assert got.dtype == pl.String and got.name == "ticket"
    assert got.to_list() == ["d7.50x4-0000001", "d7.50x4-0000042", "d7.50x4-9999999"]


def test_printed_ids_are_game_book_and_ticket():
    book = pl.Series("book", np.array([0, 1_234_567, 7], dtype=np.uint32))
    ticket_no = pl.Series("ticket_no", np.array([0, 299, 5], dtype=np.uint16))
    assert _ticket_ids("465-", book, "-", ticket_no).to_list() == [
        "465-0000000-000", "465-1234567-299", "465-0000007-005"]


@pytest.mark.parametrize(("books", "tickets", "want"), [
    ([10_000_000, 3], [1, 2], ["358-10000000-001", "358-0000003-002"]),  # a book of 8 digits
    ([3, 4], [1000, 2], ["358-0000003-1000", "358-0000004-002"]),  # a ticket number of 4 digits
])
def test_numbers_longer_than_their_width_are_not_cut(books, tickets, want):
    book = pl.Series("book", np.array(books, dtype=np.uint32))
    ticket_no = pl.Series("ticket_no", np.array(tickets, dtype=np.uint16))
    got = _ticket_ids("358-", book, "-", ticket_no)
    assert got.to_list() == want and got.name == "ticket"


def test_no_tickets_give_an_empty_column():
    got = _ticket_ids("p1-", pl.Series("serial", np.zeros(0, dtype=np.uint32)))
    assert got.len() == 0 and got.dtype == pl.String
