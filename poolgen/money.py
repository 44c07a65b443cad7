"""Money as integer cents (a currency's minor units). Parsing is exact: decimal text in, int out; binary
floats are refused.

A game's currency (`game.currency`, docs/new-game.md section 1) is one of CURRENCIES: an ISO 4217 code
and the sign an amount is printed with, before the digits, with two decimals ('£1,004.15'); "USD" ($)
when a spec names none. An amount is read the way a regulation prints it: an optional sign of the game's
currency (another currency's sign is refused), digits either grouped by commas
in threes or not grouped, and optionally a point and exactly two digits of cents ('$1,004.15',
'7.50', '$26,110'). A figure grouped any other way ('$1,2500.00') is read without its commas
($12,500.00) and reported as not well formed: a spec's own money fields refuse it (poolgen/loader/),
while a figure transcribed from a regulation's tables is kept and `poolgen check` notes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from poolgen.limits import MAX_NUMBER_CHARS, bounded_decimal


@dataclass(frozen=True)
class Currency:
    """A game's currency: its ISO 4217 code and the sign printed before an amount."""

    code: str
    sign: str

    @property
    def printed(self) -> re.Pattern[str]:
        """An amount as printed in a regulation: optional sign, digits grouped by commas in threes,
        optional cents."""
        return re.compile(rf"^{re.escape(self.sign)}?(\d{{1,3}}(,\d{{3}})*|\d+)(\.\d{{2}})?$")


CURRENCIES = {c.code: c for c in (Currency("USD", "$"), Currency("CAD", "$"), Currency("GBP", "£"),
                                  Currency("EUR", "€"), Currency("AUD", "$"), Currency("NZD", "$"))}
USD = CURRENCIES["USD"]
SIGNS = sorted({c.sign for c in CURRENCIES.values()})  # every sign an amount may be printed with
# A printed count or odds (parse_decimal): digits and commas, optionally a point and digits.
_NUMBER = re.compile(r"-?[0-9][0-9,]*(\.[0-9]+)?", re.ASCII)


def parse_printed(text: str, currency: Currency = USD) -> tuple[int, bool]:
    """Read an amount as a regulation prints it ('$1,004.00', '$26,110'; in GBP '£2.00' or '2.00').

    Returns (cents, well_formed). A figure whose comma grouping is off ('$1,2500.00') is read by
    dropping the commas, and reported as not well formed so the check can say so. An amount printed
    with another currency's sign is refused.
    """
    raw = text.strip()
    foreign = foreign_sign(raw, currency)
    if foreign is not None:
        raise ValueError(f"{text!r} is not an amount in {currency.code}: its sign {foreign!r} is another "
                         f"currency's (the game's is {currency.sign!r})")
    well_formed = bool(currency.printed.match(raw))
    digits = raw.lstrip(currency.sign).replace(",", "")
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
    """A printed number such as '1,000,000.00' or '4.5' as an exact Decimal: digits (commas among
    them), optionally a point and more digits; not Python's other spellings ('4e1', '4_0', '+40', '40.',
    ' 40'), which no table prints and Decimal would read as 40."""
    if len(text) <= MAX_NUMBER_CHARS and not _NUMBER.fullmatch(text):  # longer: bounded_decimal says so
        raise ValueError(f"{text!r} is not a number")
    return bounded_decimal(text.replace(",", ""), shown=text)


def foreign_sign(text: str, currency: Currency) -> str | None:
    """The sign `text` starts with if it is another currency's, not `currency`'s ('$2' in GBP); else None."""
    return next((s for s in SIGNS if s != currency.sign and text.startswith(s)), None)


def foreign_amount(text: str, currency: Currency) -> str | None:
    """The sign of another currency than `currency` that `text` shows before a digit ('$5' or 'WIN $5'
    on a game in GBP), if any: a player would read an amount in it."""
    return next((s for s in SIGNS if s != currency.sign and re.search(re.escape(s) + r"\d", text)), None)


def fmt_cents(cents: int, currency: Currency = USD) -> str:
    """2538735_00 -> '$2,538,735.00' (in GBP '£2,538,735.00')."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{currency.sign}{whole:,}.{part:02d}"


def round_half_up(value: Fraction, places: int = 2) -> Decimal:
    """A fraction rounded as printed tables round: half away from zero, to `places` decimals (odds,
    percentages)."""
    q = Decimal(1).scaleb(-places)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(q, rounding=ROUND_HALF_UP)


def round_down(value: Fraction, places: int = 2) -> Decimal:
    """A fraction truncated to `places` decimals, as a table that truncates prints it (240,000 / 22,000
    = 10.909... printed 10.90: `row_odds_rounding = "down"`); exact: the Fraction's floor, not a float's."""
    scale = 10 ** places
    return Decimal(value.numerator * scale // value.denominator).scaleb(-places)


def round_up(value: Fraction, places: int = 2) -> Decimal:
    """A positive fraction rounded up to `places` decimals, as a table that rounds up prints it
    (1,050 / 200 = 5.25 printed "1:6": `row_odds_rounding = "up"`); exact: the Fraction's ceiling."""
    scale = 10 ** places
    return Decimal(-(-value.numerator * scale // value.denominator)).scaleb(-places)
