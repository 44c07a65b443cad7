"""A spec's amounts, read exactly (Decimal, never a binary float), as poolgen's loader reads them."""

from __future__ import annotations

import re
from decimal import Decimal

from audit.errors import UnusableInput

__all__ = ["dollars", "money", "multiplier", "printed_amount"]


# A spec's money as printed: optional $, digits grouped by commas in threes (or not grouped), optional
# point and two digits of cents. '$1,2500.00', '7.5', '-5', '1e3' are refused, as poolgen's loader does.
_AMOUNT = re.compile(r"\$?(\d{1,3}(,\d{3})*|\d+)(\.\d{2})?")


def money(text: object, where: str) -> int:
    """'$1,103,611', '1.00', '$5' -> cents, exactly (Decimal, never a binary float)."""
    if not isinstance(text, str):
        raise UnusableInput(f"{where}: money must be a string, not {text!r}")
    try:
        value = Decimal(text.strip().lstrip("$").replace(",", "")) * 100
    except ArithmeticError:  # InvalidOperation, or Overflow of an enormous exponent
        raise UnusableInput(f"{where}: {text!r} is not an amount") from None
    if not value.is_finite():
        raise UnusableInput(f"{where}: {text!r} is not a finite amount")
    if value != value.to_integral_value():
        raise UnusableInput(f"{where}: {text!r} has fractions of a cent")
    if not _AMOUNT.fullmatch(text.strip()):
        raise UnusableInput(f"{where}: {text!r} is not a well-formed amount")
    return int(value)


def printed_amount(text: str) -> int | None:
    """A symbol's text that is a well-formed amount alone ('$5.00', '$1,000') in cents; else None."""
    return money(text, "") if _AMOUNT.fullmatch(text.strip()) else None


def dollars(cents: int) -> str:
    """1234505 -> '$12,345.05', as poolgen prints an amount."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def multiplier(value: object, where: str) -> Decimal:
    """An eInstant tier's multiplier: a finite decimal number, as text ("4.5") or an integer."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise UnusableInput(f"{where}: a multiplier must be a decimal string, not {value!r}")
    try:
        number = Decimal(value.strip() if isinstance(value, str) else value)
    except ArithmeticError:
        raise UnusableInput(f"{where}: {value!r} is not a number") from None
    if not number.is_finite():
        raise UnusableInput(f"{where}: {value!r} is not a finite number")
    return number
