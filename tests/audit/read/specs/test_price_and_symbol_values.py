"""audit/read/specs: a ticket price of nothing, a prize symbol worth nothing and a free-ticket symbol given
a value are refused by audit's reader in poolgen's loader's words, naming the field. A fuzz of today's
examples found audit's reader taking `printed.price = "0.00"` and a free symbol's `value` that `check`
refuses, and refusing a symbol's `value = "0.00"` for its printed amount instead of its value."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

CASES = [
    ("examples/poker_night", ("printed", "price"), "0.00", "printed.price: a ticket costs more than nothing"),
    ("examples/nz_holdem_five_deals", ("printed", "price"), "0.00",
     "printed.price: a ticket costs more than nothing"),
    ("examples/poker_night", ("symbols", 0, "value"), "0.00",
     "symbols[0].value: a prize symbol is worth more than nothing"),
    ("examples/poker_lotto_instant", ("symbols", 2, "value"), "0.00",
     "symbols[2].value: a prize symbol is worth more than nothing"),
    ("happy_holidays", ("symbols", 0, "value"), "1.00",
     "symbols[0].value: a free ticket is worth the ticket price: no value"),
]


@pytest.mark.parametrize(("name", "path", "value", "said"), CASES, ids=[f"{c[0]}:{c[3][:30]}" for c in CASES])
def test_audits_reader_refuses_a_free_price_a_worthless_prize_or_a_free_tickets_value_in_the_loaders_words(
        tmp_path: Path, name: str, path: tuple[str | int, ...], value: str, said: str) -> None:
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    table = doc
    for key in path[:-1]:
        table = table[key]
    table[path[-1]] = value
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value) == f"{spec}: {said}"
    assert str(reader.value) == f"{spec}: {said}"
