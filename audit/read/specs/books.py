"""A printed order's pools and books (docs/new-game.md, section 2: `[printed]`): books of
`last_ticket - first_ticket + 1` tickets numbered from 000, at most 1,000 (three digits of a ticket id);
whole pools of `pool_tickets`, each whole books; the order's rest one more pool only with
`last_pool = "partial"`, itself whole books; at most 10,000,000 books (seven digits of a ticket id).
Refused in poolgen's loader's words, in its order, before anything is built from the sizes."""

from __future__ import annotations

from typing import Any

from audit.errors import UnusableInput

__all__ = ["order_pools"]

MAX_BOOK_TICKETS = 1000
MAX_ORDER_BOOKS = 10**7


def order_pools(sales: dict[str, Any]) -> tuple[int, list[int]]:
    """The tickets of a book and of each pool of the order stated by `[printed]` (its counts already
    whole numbers within their bounds: audit/read/specs/shapes.py)."""
    order, size = sales["order_tickets"], sales["pool_tickets"]
    first, last = sales["first_ticket"], sales["last_ticket"]
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
    return per_book, [size] * (order // size) + ([rest] if rest else [])
