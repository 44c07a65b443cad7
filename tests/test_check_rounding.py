"""Odds and percentages are compared as printed tables round them: half away from zero, never floored
(poolgen/check/figures.py `round_half_up`)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from poolgen.money import round_half_up


@pytest.mark.parametrize(("value", "places", "shown"), [
    (Fraction(2, 3), 2, "0.67"), (Fraction(1, 8), 2, "0.13"), (Fraction(5, 8), 2, "0.63"),
    (Fraction(300000, 47857), 2, "6.27"), (Fraction(1000000, 330943), 4, "3.0217"),
    (Fraction(7, 2), 0, "4"), (Fraction(5, 2), 0, "3"), (Fraction(1, 3), 2, "0.33"),
    (Fraction(-5, 8), 2, "-0.63"), (Fraction(3), 2, "3.00")])
def test_odds_are_rounded_half_up_not_floored(value, places, shown):
    got = round_half_up(value, places)
    assert type(got) is Decimal and str(got) == shown
