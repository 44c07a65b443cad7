"""audit's own money reading (audit/read/specs/money.py): a spec's money and multipliers read
exactly, in the spec format's convention, and what it refuses (poolgen's side:
tests/poolgen/test_money.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from audit.read.specs.money import money as audit_money
from audit.read.specs.money import multiplier as audit_multiplier
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.money import NOT_EXACT_IN_BINARY


@pytest.mark.parametrize(("text", "cents", "well_formed"), NOT_EXACT_IN_BINARY)
def test_audit_money_is_exact_for_amounts_not_exact_in_binary(text, cents, well_formed):
    if well_formed:
        assert audit_money(text, "tiers[3].prize") == cents
        assert type(audit_money(text, "tiers[3].prize")) is int
    else:  # a spec's own money must be well formed, as poolgen's spec loader requires
        with pytest.raises(UnusableInput) as info:
            audit_money(text, "tiers[3].prize")
        assert str(info.value) == f"tiers[3].prize: {text!r} is not a well-formed amount"


@pytest.mark.parametrize(("text", "why"), [("$1.005", "has fractions of a cent"),
                                           ("-5.00", "is not a well-formed amount"),
                                           ("1e3", "is not a well-formed amount"),
                                           ("$1,000.5", "is not a well-formed amount"),
                                           ("Infinity", "is not a finite amount"),
                                           ("7.5", "is not a well-formed amount"),
                                           ("", "is not an amount"), ("$", "is not an amount")])
def test_audit_money_refuses_what_the_spec_format_does_not_allow(text, why):
    with pytest.raises(UnusableInput) as info:
        audit_money(text, "printed.price")
    assert str(info.value) == f"printed.price: {text!r} {why}"


@pytest.mark.parametrize("value", [5.0, 5, None, ["5"]])
def test_audit_money_must_be_a_string(value):
    with pytest.raises(UnusableInput) as info:
        audit_money(value, "printed.price")
    assert str(info.value) == f"printed.price: money must be a string, not {value!r}"


@pytest.mark.parametrize(("value", "want"), [("4.5", Decimal("4.5")), (" 0.29 ", Decimal("0.29")),
                                             (3, Decimal(3))])
def test_audit_multiplier_is_exact(value, want):
    got = audit_multiplier(value, "tiers[0].multiplier")
    assert type(got) is Decimal and got == want and str(got) == str(want)


@pytest.mark.parametrize(("value", "why"), [(True, "a multiplier must be a decimal string, not True"),
                                            (4.5, "a multiplier must be a decimal string, not 4.5"),
                                            ("x", "'x' is not a number"),
                                            ("Infinity", "'Infinity' is not a finite number")])
def test_audit_multiplier_refuses_what_is_not_a_decimal(value, why):
    with pytest.raises(UnusableInput) as info:
        audit_multiplier(value, "tiers[0].multiplier")
    assert str(info.value) == f"tiers[0].multiplier: {why}"


@pytest.mark.parametrize(("was", "now", "field", "sign"), [
    ('price = "2.00"', 'price = "£2.00"', "printed.price", "£"),
    ('value = "5.00"', 'value = "€5.00"', "symbols[11].value", "€")])
def test_an_amount_in_another_sign_on_a_cad_game_is_refused_naming_cad_as_the_loader_does(tmp_path, was, now,
                                                                                           field, sign):
    """Canadian dollars print '$' as US dollars do: audit's reader named the game's currency from its sign
    alone, so a CAD game's pound price was 'not an amount in USD' where the loader says CAD."""
    text = (ROOT / "specs/examples/alc_seven_or_eleven.toml").read_text()
    assert text.count(was) == 1
    path = tmp_path / "seven.toml"
    path.write_text(text.replace(was, now))
    line = (f"{path}: {field}: {now.split(' = ')[1].strip(chr(34))!r} is not an amount in CAD: its sign "
            f"{sign!r} is another currency's (the game's is '$')")
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(loader.value) == str(audit.value) == line
