"""A spec's published figures, as the regulation prints them: read and checked for form here, then
reconciled with the computed figures by `poolgen check` (poolgen/check/).

Counts are whole numbers; amounts are money as printed ("$2,512,625"; odd comma grouping such as
"$1,2500.00" is read here and reported by the check); odds are positive decimal numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, Literal, TypeVar

from poolgen.game.model import OtherCost, Published
from poolgen.loader.reader import Reader
from poolgen.money import parse_decimal, parse_printed

__all__ = ["printed_amount", "printed_number", "read_published"]

_R = TypeVar("_R")


def read_published(r: Reader, pub: Mapping[str, Any], prize_table: str = "regulation",
                   free_ticket_cost: Literal["zero", "price"] | None = None) -> Published:
    """The published figures of a [published] table as printed: counts are whole numbers, amounts
    and odds readable."""
    counts = {key: r.count(pub, key, "published") for key in ("winners", "losers") if key in pub}
    for key in ("subtotal_cost", "total_cost"):
        printed_amount(r, pub, key, "published")
    for key in ("odds", "losers_odds"):
        printed_number(r, pub, key, "published")
    others = pub.get("other_costs", [])
    if not isinstance(others, list):
        raise r.fail("published.other_costs", "must be a list of { name, amount } tables")
    costs = []
    for j, c in enumerate(others):
        where = f"published.other_costs[{j}]"
        if not isinstance(c, dict):
            raise r.fail(where, "must be a table { name = ..., amount = ... }")
        r.known(c, where, {"name", "amount"})
        name = r.get(c, "name", where, str)
        printed_amount(r, c, "amount", where, required=True)
        costs.append(OtherCost(name, c["amount"]))
    return Published(prize_table=prize_table, winners=counts.get("winners"), losers=counts.get("losers"),
                     subtotal_cost=pub.get("subtotal_cost"), total_cost=pub.get("total_cost"),
                     odds=pub.get("odds"), losers_odds=pub.get("losers_odds"), other_costs=tuple(costs),
                     free_ticket_cost=free_ticket_cost)


def _printed(r: Reader, table: Mapping[str, Any], key: str, where: str, parse: Callable[[str], _R],
             required: bool = False) -> _R | None:
    """A figure as printed, read by `parse` (None when absent and not required)."""
    if key not in table:
        if required:
            raise r.fail(f"{where}.{key}", "missing field")
        return None
    value = r.get(table, key, where, str)
    try:
        return parse(value)
    except ValueError as exc:
        raise r.fail(f"{where}.{key}", str(exc)) from None


def printed_amount(r: Reader, table: Mapping[str, Any], key: str, where: str,
                   required: bool = False) -> str | None:
    """An amount as printed (its text); odd comma grouping is allowed here (the check reports it)."""
    _printed(r, table, key, where, lambda text: parse_printed(text, r.currency), required)
    return table.get(key)


def printed_number(r: Reader, table: Mapping[str, Any], key: str, where: str,
                   required: bool = False) -> str | None:
    """A count or odds as printed (its text): a positive decimal number."""
    number: Decimal | None = _printed(r, table, key, where, parse_decimal, required)
    if number is not None and number <= 0:
        raise r.fail(f"{where}.{key}", f"{table[key]!r} is not a positive number")
    return table.get(key)
