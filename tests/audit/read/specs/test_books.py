"""audit/read/specs/order.py: a printed order's books and pools are read as poolgen's loader reads them,
in its words: books of at most 1,000 tickets, pools of whole books, an order of whole pools unless
`last_pool = "partial"` (and then not of whole pools, its rest whole books), at most 10,000,000 books. A
fuzz of today's examples found audit's reader taking a `last_ticket` of 2**63 - 1, a pool of 120,100 in
books of 150, `last_pool = "x"` and an unused `last_pool`, and naming a tier's count for an order that is
not whole pools."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("a book past three digits", {"last_ticket": 2**63 - 1},
     "printed.last_ticket: books of 9,223,372,036,854,775,808 tickets; at most 1,000 (three digits of every "
     "ticket id)"),
    ("a book of 1,001", {"last_ticket": 1000},
     "printed.last_ticket: books of 1,001 tickets; at most 1,000 (three digits of every ticket id)"),
    ("a pool of part of a book", {"pool_tickets": 120100, "order_tickets": 120100},
     "printed.pool_tickets: a pool of 120100 is not whole books of 150"),
    ("an order of part of a pool", {"order_tickets": 241200},
     "printed.pool_tickets: an order of 241200 is not whole pools of 120000 (last_pool = \"partial\" makes "
     "the rest one smaller pool)"),
    ("last_pool of another word", {"last_pool": "x"}, "printed.last_pool: must be \"partial\", not 'x'"),
    ("last_pool of whole pools", {"last_pool": "partial"},
     "printed.last_pool: not used: an order of 120000 is whole pools of 120000"),
    ("a last pool of part of a book", {"order_tickets": 240100, "last_pool": "partial"},
     "printed.order_tickets: the last pool of 100 is not whole books of 150"),
    ("books past seven digits", {"order_tickets": 100_000_000, "pool_tickets": 10_000_000, "last_ticket": 4},
     "printed.order_tickets: 20,000,000 books of 5; at most 10,000,000 (seven digits of every ticket id)"),
]


@pytest.mark.parametrize(("case", "printed", "said"), CASES, ids=[c[0] for c in CASES])
def test_audits_reader_refuses_books_and_pools_the_loader_refuses_in_its_words(
        tmp_path: Path, case: str, printed: dict[str, Any], said: str) -> None:
    doc = tomllib.loads((ROOT / "specs" / "examples" / "poker_night.toml").read_text(encoding="utf-8"))
    doc["printed"].update(printed)
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value) == f"{spec}: {said}"
    assert str(reader.value) == f"{spec}: {said}"
