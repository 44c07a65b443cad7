"""A split order's public pack list names no pool (docs/validation.md section 4): its pools hold
different counts (docs/randomness.md 4b: four top prizes over six pools leave two pools without one),
so a pack list naming the books of some pools would tell anyone holding it (a retailer) which books
can hold a top prize. A run of some of its pools lists every book of the order, as a run of the
whole order does: the same bytes whatever pools the run holds. The order is tests/support/split_run.py's."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from audit.verify import VerifyRequest, verify_run
from poolgen.run.signing import Signer
from tests.support.reseal import resign
from tests.support.split_run import SplitRun, cut, split_run

TOP = "6"  # the order's top tier: 4 prizes over 6 pools


@pytest.fixture(scope="module")
def order(tmp_path_factory) -> SplitRun:
    return split_run(tmp_path_factory.mktemp("packs_split"))


def books_named(run: Path) -> list[int]:
    return [int(line.split(",")[1]) for line in (run / "packs.csv").read_text().splitlines()[1:]]


def test_a_run_of_some_pools_of_a_split_order_lists_every_book_of_the_order(order):
    doc = json.loads((order.folder / "manifest.json").read_bytes())
    empty = [p["id"] for p in doc["pools"] if not any(t["id"] == TOP and t["count"] for t in p["tiers"])]
    assert len(empty) == 2  # the public manifest says which pools hold no top prize
    whole = (order.folder / "packs.csv").read_bytes()
    assert books_named(order.folder) == list(range(240))
    for pid in empty:
        part = cut(order, [pid], f"cut-{pid}")
        # the attack: the cut's pack list would be exactly the books that cannot hold a top prize
        assert (part.folder / "packs.csv").read_bytes() == whole, pid
        steps = verify_run(VerifyRequest(run=part.folder, public_key=order.public, validation_key=order.low,
                                     high_validation_key=order.high)).to_json()["steps"]
        nine = next(s for s in steps if s["step"] == 9)
        assert nine["status"] == "pass", nine
        assert "packs.csv: 240 books of the order, sorted" in " ".join(nine["details"])


def test_audit_fails_a_split_runs_pack_list_naming_only_its_own_books(order):
    """What the generator wrote before: the cut's own books, in the same form, re-listed and signed."""
    part = cut(order, ["p3"], "cut-own-books")
    own = sorted(set(pl.read_parquet(part.folder / "pool-p3.parquet", columns=["book"])["book"].to_list()))
    game = json.loads((part.folder / "manifest.json").read_bytes())["game"]["number"]
    (part.folder / "packs.csv").write_text("game,book,first_ticket,last_ticket,tickets\n"
                                           + "".join(f"{game:03d},{b},0,49,50\n" for b in own))
    resign(part.folder, lambda doc: None, Signer.from_file(order.private))
    steps = verify_run(VerifyRequest(run=part.folder, public_key=order.public, validation_key=order.low,
                                     high_validation_key=order.high)).to_json()["steps"]
    nine = next(s for s in steps if s["step"] == 9)
    assert nine["status"] == "fail"
    g = f"{game:03d}"
    assert nine["reasons"] == [f"packs.csv: not every book of the order once, sorted, with tickets 0..49: "
                               f"line 2 reads '{g},{own[0]},0,49,50' where '{g},0,0,49,50' is expected"]
