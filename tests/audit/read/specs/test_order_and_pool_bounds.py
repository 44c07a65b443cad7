"""audit/read/specs: an order or a pool beyond poolgen's loader's bounds (100,000,000 tickets or shares an
order, 10,000,000 a pool) is refused by audit's reader in the loader's words, naming the field, before
anything is built from it. A fuzz of today's examples found `verify --spec` on a spec stating
`order_tickets = 9223372036854775807` ending in a MemoryError traceback (the reader listed the order's
pools, one item a pool, before any bound), where `check` refuses it in one line."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.cli.main import app
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

TOP = 2**63 - 1
CASES = [
    ("examples/poker_night", "printed", "order_tickets", TOP,
     "printed.order_tickets: 9,223,372,036,854,775,807 is more than 100,000,000 per order"),
    ("examples/nz_holdem_five_deals", "printed", "order_tickets", 100_000_200,
     "printed.order_tickets: 100,000,200 is more than 100,000,000 per order"),
    ("examples/poker_night", "printed", "pool_tickets", 10_000_050,
     "printed.pool_tickets: 10,000,050 is more than 10,000,000 per pool"),
    ("hand_to_hand_tactics", "einstant", "order_shares", TOP,
     "einstant.order_shares: 9,223,372,036,854,775,807 is more than 100,000,000 per order"),
    ("hand_to_hand_tactics", "einstant", "pool_shares", 10_000_001,
     "einstant.pool_shares: 10,000,001 is more than 10,000,000 per pool"),
]


def _spec(folder: Path, name: str, table: str, key: str, value: int) -> Path:
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    doc[table][key] = value
    spec = folder / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    return spec


@pytest.mark.parametrize(("name", "table", "key", "value", "said"), CASES, ids=[c[4][:40] for c in CASES])
def test_audits_reader_refuses_an_order_or_pool_past_the_loaders_bound_in_its_words(
        tmp_path: Path, name: str, table: str, key: str, value: int, said: str) -> None:
    spec = _spec(tmp_path, name, table, key, value)
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value) == f"{spec}: {said}"
    assert str(reader.value) == f"{spec}: {said}"


def test_verify_with_a_spec_of_a_huge_order_is_refused_in_one_line(tmp_path: Path) -> None:
    made = CliRunner().invoke(app, ["keys", "new", str(tmp_path / "keys")])
    assert made.exit_code == 0, made.output
    run = tmp_path / "run"
    run.mkdir()
    (run / "manifest.json").write_text("{}\n")
    spec = _spec(tmp_path, "examples/poker_night", "printed", "order_tickets", TOP)
    key = tmp_path / "keys" / "signing-key.pub.pem"
    result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(key),
                                            "--spec", str(spec)])
    assert (result.exit_code, result.stderr.splitlines()) == (2, [
        f"audit: error: {spec}: printed.order_tickets: 9,223,372,036,854,775,807 is more than 100,000,000 "
        "per order"])
