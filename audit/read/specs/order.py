"""A printed spec's order of books and pools (docs/new-game.md, section 2: `[printed]`), refused as
poolgen's loader refuses it, naming the same field: tickets numbered from 000, `last_ticket` not below
`first_ticket` and a book of at most 1,000 tickets (three digits of every ticket id), a pool of whole
books, an order of whole pools unless `last_pool = "partial"` makes its rest one smaller pool of whole
books (and `last_pool` only then), and at most 10,000,000 books (seven digits of every ticket id)."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["MAX_BOOK_TICKETS", "MAX_ORDER_BOOKS", "refuse_unfit_order"]

MAX_BOOK_TICKETS = 1000
MAX_ORDER_BOOKS = 10**7


def refuse_unfit_order(sales: dict[str, Any]) -> None:
    """UnusableInput naming the first `[printed]` field whose books and pools the loader refuses; the
    fields' types and signs have been checked (shapes.py)."""
    first, last = sales["first_ticket"], sales["last_ticket"]
    order, size = sales["order_tickets"], sales["pool_tickets"]
    if first != 0:  # docs/pool-files.md numbers a book's tickets 0 .. per_book - 1
        raise UnusableInput(f"printed.first_ticket: {first}; every book's tickets are numbered from 000 "
                            "(docs/pool-files.md: ticket_no is position % tickets per book), so a game whose "
                            f"tickets start at {first:03d} cannot be printed as its regulation says")
    if last < first:
        raise UnusableInput("printed.last_ticket: must not be below first_ticket")
    per_book = last - first + 1
    if per_book > MAX_BOOK_TICKETS:
        raise UnusableInput(f"printed.last_ticket: books of {per_book:,} tickets; at most "
                            f"{MAX_BOOK_TICKETS:,} (three digits of every ticket id)")
    if size % per_book:
        raise UnusableInput(f"printed.pool_tickets: a pool of {size} is not whole books of {per_book}")
    last_pool = sales.get("last_pool")
    if last_pool not in (None, "partial"):
        raise UnusableInput(f"printed.last_pool: must be \"partial\", not {last_pool!r}")
    rest = order % size
    if rest and last_pool is None:
        raise UnusableInput(f"printed.pool_tickets: an order of {order} is not whole pools of {size} "
                            "(last_pool = \"partial\" makes the rest one smaller pool)")
    if last_pool and not rest:
        raise UnusableInput(f"printed.last_pool: not used: an order of {order} is whole pools of {size}")
    if rest % per_book:
        raise UnusableInput(f"printed.order_tickets: the last pool of {rest} is not whole books of "
                            f"{per_book}")
    if order // per_book > MAX_ORDER_BOOKS:
        raise UnusableInput(f"printed.order_tickets: {order // per_book:,} books of {per_book}; at most "
                            f"{MAX_ORDER_BOOKS:,} (seven digits of every ticket id)")
