"""Money as integer cents. Parsing is exact: decimal text in, int out; binary floats are refused."""

from __future__ import annotations

import re
from decimal import Decimal

from poolgen.limits import bounded_decimal

_PLAIN = re.compile(r"^-?\d+(\.\d{1,2})?$")
# As printed in a regulation: optional $, digits grouped by commas in threes, optional cents.
_PRINTED = re.compile(r"^\$?(\d{1,3}(,\d{3})*|\d+)(\.\d{2})?$")


def parse_cents(text: str) -> int:
    """'5.00' -> 500, '7.5' -> 750, '26110' -> 2611000. Raises ValueError on anything else."""
    if not isinstance(text, str):
        raise ValueError(f"money must be a decimal string such as \"5.00\", not {type(text).__name__}")
    if not _PLAIN.match(text):
        raise ValueError(f"{text!r} is not a decimal amount such as \"5.00\"")
    return int(Decimal(text) * 100)


def parse_printed(text: str) -> tuple[int, bool]:
    """Read an amount as a regulation prints it ('$1,004.00', '$26,110').

    Returns (cents, well_formed). A figure whose comma grouping is off ('$1,2500.00') is read by
    dropping the commas, and reported as not well formed so the check can say so.
    """
    raw = text.strip()
    well_formed = bool(_PRINTED.match(raw))
    digits = raw.lstrip("$").replace(",", "")
    try:
        value = bounded_decimal(digits, shown=text)
    except ValueError as exc:
        raise ValueError(str(exc).replace("is not a number", "is not an amount")) from None
    if not value.is_finite() or value < 0:
        raise ValueError(f"{text!r} is not an amount")
    cents = value * 100
    if cents != cents.to_integral_value():
        raise ValueError(f"{text!r} has fractions of a cent")
    return int(cents), well_formed


def parse_decimal(text: str) -> Decimal:
    """A printed number such as '1,000,000.00' or '4.5' as an exact Decimal."""
    return bounded_decimal(text.replace(",", ""), shown=text)


def fmt_cents(cents: int) -> str:
    """2538735_00 -> '$2,538,735.00'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"
