"""A spec's currency (`game.currency`, docs/new-game.md section 1) and the amounts its symbols print."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from poolgen.game.model import Symbol
from poolgen.loader.reader import Reader
from poolgen.money import CURRENCIES, USD, Currency, fmt_cents, foreign_amount, parse_printed

__all__ = ["amounts_as_printed", "read_currency"]


def read_currency(r: Reader, doc: Mapping[str, Any]) -> Currency:
    """The spec's `game.currency`, an ISO 4217 code of CURRENCIES; "USD" when left out."""
    game = doc.get("game")
    code = game.get("currency") if isinstance(game, dict) else None  # a missing [game]: its form says so
    if code is None:
        return USD
    if not isinstance(code, str) or code not in CURRENCIES:
        raise r.fail("game.currency", f"must be one of {', '.join(CURRENCIES)} (an ISO 4217 code), "
                                      f"not {code!r}")
    return CURRENCIES[code]


def amounts_as_printed(r: Reader, symbols: list[Symbol]) -> None:
    """A cash prize symbol printed as a well-formed amount alone ("$5.00", "$1,000") is worth that
    amount: the player reads the symbol, and "$5.00" worth $50.00 would pay what no ticket says. No
    symbol's text is an amount in another currency's sign ("$5" on a game in GBP)."""
    c = r.currency
    for s in symbols:
        where = f"symbols[{s.index}].symbol"
        for field, text in (("symbol", s.symbol), ("caption", s.caption)):
            if foreign_amount(text, c):
                why = f"shows an amount in another currency's sign: the game's currency is {c.code} " \
                      f"({c.sign!r})"
                raise r.fail(f"symbols[{s.index}].{field}", f"{text!r} {why}")
        if s.cents is None or s.free or not s.symbol.startswith(c.sign):
            continue
        try:
            printed, well_formed = parse_printed(s.symbol, c)
        except ValueError:  # "$1,000/WK 20 YRS": words, read with the caption
            continue
        if well_formed and printed != s.cents:
            raise r.fail(where, f"{s.symbol!r} reads as {fmt_cents(printed, c)}, but its value is "
                                f"{fmt_cents(s.cents, c)}: a player reads the amount printed")
