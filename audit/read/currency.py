"""The currencies a game may be in (`game.currency`, docs/new-game.md section 1), each an ISO 4217 code
and the sign an amount is printed with, before its digits and two decimals ('£1,004.15')."""

from __future__ import annotations

__all__ = ["SIGNS"]

SIGNS = {"USD": "$", "CAD": "$", "GBP": "£", "EUR": "€", "AUD": "$", "NZD": "$"}  # USD when none is named
