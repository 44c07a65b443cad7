"""A spec's amounts, read exactly (Decimal, never a binary float), as poolgen's loader reads them, in the
game's currency (`game.currency`, docs/new-game.md section 1: an ISO 4217 code of SIGNS, "USD" when left
out; an amount is its sign, optional in a spec, before the digits, with two decimals)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from audit.errors import UnusableInput
from audit.read.currency import SIGNS

__all__ = ["SIGNS", "Sign", "dollars", "foreign_amount", "money", "sign_of", "multiplier", "printed_amount"]


class Sign(str):
    """A currency's sign that keeps the currency's code: CAD prints '$' as USD does, and a refusal of an
    amount in another sign names the game's code (CAD), in the loader's words, not the first code of '$'."""

    code: str

    def __new__(cls, code: str) -> Sign:
        made = super().__new__(cls, SIGNS[code])
        made.code = code
        return made


# A spec's money as printed: optional sign, digits grouped by commas in threes (or not grouped), optional
# point and two digits of cents. '$1,2500.00', '7.5', '-5', '1e3' are refused, as poolgen's loader does.
_DIGITS = r"(\d{1,3}(,\d{3})*|\d+)(\.\d{2})?"


def _amount(sign: str) -> re.Pattern[str]:
    return re.compile(re.escape(sign) + "?" + _DIGITS)


def sign_of(doc: dict[str, Any]) -> Sign:
    """The sign of the spec's `game.currency` ('$' when left out, or not a currency: refused as such)."""
    game = doc.get("game")
    code = game.get("currency", "USD") if isinstance(game, dict) else "USD"
    return Sign(code if isinstance(code, str) and code in SIGNS else "USD")


def foreign_amount(text: str, sign: str) -> str | None:
    """The sign of another currency than `sign`'s that `text` shows before a digit ('$5' or 'WIN $5' on a
    game in GBP), if any: a player would read an amount in it (docs/new-game.md section 1)."""
    signs = sorted(set(SIGNS.values()) - {sign})
    return next((s for s in signs if re.search(re.escape(s) + r"\d", text)), None)


def money(text: object, where: str, sign: str = "$") -> int:
    """'$1,103,611', '1.00', '$5' -> cents, exactly (Decimal, never a binary float); in GBP (`sign` '£')
    '£5' or '5'."""
    if not isinstance(text, str):
        raise UnusableInput(f"{where}: money must be a string, not {text!r}")
    foreign = next((s for s in sorted(set(SIGNS.values())) if s != sign and text.strip().startswith(s)), None)
    if foreign is not None:
        code = sign.code if isinstance(sign, Sign) else next(c for c, s in SIGNS.items() if s == sign)
        raise UnusableInput(f"{where}: {text!r} is not an amount in {code}: its sign {foreign!r} is another "
                            f"currency's (the game's is {sign!r})")
    try:
        value = Decimal(text.strip().lstrip(sign).replace(",", "")) * 100
    except ArithmeticError:  # InvalidOperation, or Overflow of an enormous exponent
        raise UnusableInput(f"{where}: {text!r} is not an amount") from None
    if not value.is_finite():
        raise UnusableInput(f"{where}: {text!r} is not a finite amount")
    if value != value.to_integral_value():
        raise UnusableInput(f"{where}: {text!r} has fractions of a cent")
    if not _amount(sign).fullmatch(text.strip()):
        raise UnusableInput(f"{where}: {text!r} is not a well-formed amount")
    return int(value)


def printed_amount(text: str, sign: str = "$") -> int | None:
    """A symbol's text that is a well-formed amount alone ('$5.00', '$1,000') in cents; else None."""
    return money(text, "", sign) if _amount(sign).fullmatch(text.strip()) else None


def dollars(cents: int, sign: str = "$") -> str:
    """1234505 -> '$12,345.05', as poolgen prints an amount (in GBP '£12,345.05')."""
    return f"{sign}{cents // 100:,}.{cents % 100:02d}"


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
