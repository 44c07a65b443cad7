"""Money (poolgen/money.py): every parser on amounts that are not exact in binary, against
decimal.Decimal, and how odds and percentages are rounded.

`poolgen/money.py` and `audit/read/specs/money.py` each read money on their own (audit never imports poolgen;
audit's side: tests/audit/read/specs/test_money.py). Amounts such as $19.99 or $4.35 have no exact binary
float; a float on the way to cents loses one."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.read.specs.money import money as audit_money
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.money import fmt_cents, parse_decimal, parse_printed, round_half_up, round_up
from tests.support import SPECS
from tests.support.money import NOT_EXACT_IN_BINARY


def test_an_amount_beyond_a_double_is_refused_not_rounded():
    # 2**53 + 1 dollars: no binary float holds it; the input boundary refuses it (poolgen/limits.py)
    refused = r"^'\$9,007,199,254,740,993.01' has more than 15 significant digits$"
    with pytest.raises(ValueError, match=refused):
        parse_printed("$9,007,199,254,740,993.01")


@pytest.mark.parametrize(("text", "cents", "well_formed"), NOT_EXACT_IN_BINARY)
def test_parse_printed_is_exact_for_amounts_not_exact_in_binary(text, cents, well_formed):
    assert parse_printed(text) == (cents, well_formed)
    assert type(parse_printed(text)[0]) is int


@pytest.mark.parametrize(("text", "cents"), [("$26,110", 2611000), ("$5", 500), ("1,000,000.00", 100000000),
                                             ("  $1.00 ", 100), ("0", 0), ("$0.01", 1), ("12", 1200)])
def test_parse_printed_reads_well_formed_amounts(text, cents):
    assert parse_printed(text) == (cents, True)


@pytest.mark.parametrize("text", ["$1,2500.00", "1,00", "$,100", "100,", "$1,000.5", "7.5", "$1.000",
                                  "1234,567", "$$5", "+5", "5.", "1e3", ".50"])
def test_parse_printed_reports_odd_figures_as_not_well_formed(text):
    assert parse_printed(text)[1] is False


@pytest.mark.parametrize(("text", "why"), [("$1.005", "has fractions of a cent"),
                                           ("0.001", "has fractions of a cent"),
                                           ("-5.00", "is not an amount"), ("$-1", "is not an amount"),
                                           ("Infinity", "is not an amount"), ("NaN", "is not an amount"),
                                           ("five", "is not an amount"), ("X5", "is not an amount"),
                                           ("", "is not an amount"), ("$", "is not an amount")])
def test_parse_printed_refuses_what_is_not_whole_cents(text, why):
    with pytest.raises(ValueError) as info:
        parse_printed(text)
    assert str(info.value) == f"{text!r} {why}"


@pytest.mark.parametrize(("text", "value"), [("1,000,000.00", Decimal("1000000.00")), ("4.5", Decimal("4.5")),
                                             ("0.29", Decimal("0.29")), ("3.0217", Decimal("3.0217")),
                                             ("-2", Decimal("-2"))])
def test_parse_decimal_is_the_exact_decimal(text, value):
    got = parse_decimal(text)
    assert type(got) is Decimal and got == value and str(got) == str(value)


@pytest.mark.parametrize("text", ["x2.95", "", "Infinity", "-inf", "nan", "1..2"])
def test_parse_decimal_refuses_what_is_not_a_finite_number(text):
    with pytest.raises(ValueError) as info:
        parse_decimal(text)
    assert str(info.value) == f"{text!r} is not a number"


@pytest.mark.parametrize(("text", "why"), [("1,2x5", "is not a number"),
                                           ("1,234,567,890,123,456", "has more than 15 significant digits")])
def test_parse_decimal_names_the_text_as_written_with_its_commas(text, why):
    with pytest.raises(ValueError) as info:
        parse_decimal(text)
    assert str(info.value) == f"{text!r} {why}"


@pytest.mark.parametrize(("cents", "text"), [(253873500, "$2,538,735.00"), (1999, "$19.99"), (29, "$0.29"),
                                             (5, "$0.05"), (0, "$0.00"), (-1999, "-$19.99"), (-5, "-$0.05"),
                                             (100, "$1.00"), (100000, "$1,000.00")])
def test_fmt_cents_prints_exact_dollars_and_cents(cents, text):
    assert fmt_cents(cents) == text


# A well-formed printed amount: digits grouped in threes or not at all, optional cents, optional $.
# Up to 15 significant digits, the bound of poolgen/limits.py (13 digits of dollars, 2 of cents).
_AMOUNTS = st.tuples(st.integers(0, 10**13 - 1), st.integers(0, 99), st.booleans(), st.booleans(),
                     st.booleans())


def _printed(whole: int, part: int, dollar: bool, grouped: bool, cents: bool) -> str:
    body = f"{whole:,}" if grouped else str(whole)
    return ("$" if dollar else "") + body + (f".{part:02d}" if cents else "")


@given(_AMOUNTS)
def test_parse_printed_agrees_with_decimal_on_random_amounts(amount):
    text = _printed(*amount)
    want = int(Decimal(text.lstrip("$").replace(",", "")) * 100)
    assert parse_printed(text) == (want, True)
    assert audit_money(text, "x") == want
    assert fmt_cents(want) == _printed(amount[0], amount[1] if amount[4] else 0, True, True, True)


@given(st.integers(-(10**15) + 1, 10**15 - 1))  # 15 significant digits: the bound of poolgen/limits.py
def test_fmt_cents_round_trips_through_both_parsers(cents):
    text = fmt_cents(cents)
    if cents >= 0:
        assert parse_printed(text) == (cents, True)
        assert audit_money(text, "x") == cents
    else:
        assert text == "-" + fmt_cents(-cents)


# --- the convention for the odd grouping "$1,2500.00", end to end ---

def test_spec_money_with_odd_grouping_is_refused(tmp_path):
    """A spec's own money field must be well formed; only transcribed regulation figures may be odd."""
    text = (SPECS / "happy_holidays.toml").read_text()
    assert 'price = "1.00"' in text
    path = tmp_path / "hh.toml"
    path.write_text(text.replace('price = "1.00"', 'price = "$1,2500.00"', 1))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert str(info.value) == f"{path}: printed.price: '$1,2500.00' is not a well-formed amount"


def test_spec_money_not_exact_in_binary_loads_exactly(tmp_path):
    text = (SPECS / "happy_holidays.toml").read_text()
    path = tmp_path / "hh.toml"
    path.write_text(text.replace('price = "1.00"', 'price = "$19.99"', 1))
    assert load_spec(path).pools[0].price_cents == 1999


# --- odds and percentages, compared as printed tables round them: half away from zero, never floored ---
# (round_half_up; `poolgen check` and the manifest's figures use it)
@pytest.mark.parametrize(("value", "places", "shown"), [
    (Fraction(2, 3), 2, "0.67"), (Fraction(1, 8), 2, "0.13"), (Fraction(5, 8), 2, "0.63"),
    (Fraction(300000, 47857), 2, "6.27"), (Fraction(1000000, 330943), 4, "3.0217"),
    (Fraction(7, 2), 0, "4"), (Fraction(5, 2), 0, "3"), (Fraction(1, 3), 2, "0.33"),
    (Fraction(-5, 8), 2, "-0.63"), (Fraction(3), 2, "3.00")])
def test_odds_are_rounded_half_up_not_floored(value, places, shown):
    got = round_half_up(value, places)
    assert type(got) is Decimal and str(got) == shown


def test_rounding_up_is_the_exact_ceiling_of_the_fraction():
    """Wisconsin's rows' odds (row_odds_rounding = "up"): 1,050 / 200 = 5.25 printed 6, 1,050 / 20 = 52.5
    printed 53; an exact figure is not moved, and the ceiling is the Fraction's, not a float's."""
    assert [str(round_up(Fraction(1050, n), 0)) for n in (200, 20, 2, 1)] == ["6", "53", "525", "1050"]
    assert str(round_up(Fraction(1050, 200), 2)) == "5.25"
    assert str(round_up(Fraction(1, 3), 2)) == "0.34"
    assert str(round_up(Fraction(10**30 + 1, 10**30), 2)) == "1.01"  # a float would say 1.00


@pytest.mark.parametrize("text", ["4e1", "4E+1", "4_0", "+40", "40.", ".5", " 40", "40 ", "1090e-2"])
def test_parse_decimal_refuses_spellings_no_table_prints_that_decimal_reads(text):
    """A printed row's "1 in" (`published_odds`) or count is digits, commas and a point: Decimal reads
    '4e1', '4_0' and '+40' as 40, so a typo or an exponent would have passed for a table's 1 in 40."""
    with pytest.raises(ValueError) as info:
        parse_decimal(text)
    assert str(info.value) == f"{text!r} is not a number"
