"""audit's spec reader (audit/read/specs/shapes.py) refuses a cash prize symbol printed as a dollar amount
alone that its value is not (docs/new-game.md section 2, "Symbols are told apart"), naming the field in
the loader's words: `verify --spec` holds no run to a spec `check` refuses."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support.spec_docs import kn_doc, write


def test_audits_spec_reader_refuses_a_prize_printed_as_another_amount_in_the_loaders_words(tmp_path):
    doc = kn_doc()
    doc["symbols"][7]["symbol"] = "$1,000"  # worth $1.00
    spec = write(tmp_path, doc)
    line = ("symbols[7].symbol: '$1,000' reads as $1,000.00, but its value is $1.00: a player reads the "
            "amount printed")
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"
    with pytest.raises(SpecError) as loader_said:
        load_spec(spec)
    assert str(loader_said.value) == f"{spec}: {line}"
