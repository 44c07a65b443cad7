"""The order-and-salts third engine (tests/third_engines/order_salts.py: docs/randomness.md sections 2 to 4
and docs/pool-files.md alone, split.py's own HKDF-SHA256 and ChaCha20) against real generated pools:
every ticket's `salt` and `tier` is the engine's, from the seed, the rules id, the pool id and the pool
entry's tiers in the manifest's order. A printed game (Wild Side cut small), one with a FREE ticket tier
(Happy Holidays cut small), eInstants (Hand to Hand Tactics cut to 10,000 shares; Primetime Payout's
four-area pool cut to 5,000), a split order's partial last pool (Red Hot and Wild 7's pools cut to
4 x 5,000 + 300), the neighbour rule re-laying an eInstant's layouts (the order and salts unchanged),
and a pack parameter that draws the order otherwise (section 5: the salts still the engine's, the
order not). Whether the order is section 4's, the engine and audit's step 7 (audit/steps/order.py)
decide alike."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.read.manifest import Manifest
from audit.steps.order import order_parameters
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A, small_einstant, small_happy_holidays, small_wild_side
from tests.support.spec_docs import kn_doc, write
from tests.third_engines import order_salts

IDENTITY = ("position", "ticket", "book", "ticket_no", "serial", "tier", "prize_cents", "salt")


def _red_hot_cut(folder: Path) -> Path:
    """specs/examples/red_hot_wild_7s_pools.toml as an order of 20,300 tickets: four pools of 5,000 and a
    last pool of 300 (3 books of 100), every count per order a fiftieth (at least 1), split evenly; the
    published figures (the whole order's) dropped."""
    text = (ROOT / "specs/examples/red_hot_wild_7s_pools.toml").read_text()
    for was, now in (("order_tickets = 1010300", "order_tickets = 20300"),
                     ("pool_tickets = 250000", "pool_tickets = 5000")):
        assert text.count(was) == 1, was
        text = text.replace(was, now)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m.group(1)) // 50)}", text, flags=re.M)
    text = re.sub(r"^(winners|odds) = .*\n", "", text, flags=re.M)
    path = folder / "red_hot_wild_7s_pools.toml"
    path.write_text(text)
    return path


def _neighbours_off(folder: Path) -> Path:
    """Hand to Hand Tactics cut as `small_einstant` does, with `[blocks] neighbours = "off"`."""
    path = small_einstant(folder, "hand_to_hand_tactics", 10000)
    text = path.read_text()
    assert text.count("[published]") == 1
    path.write_text(text.replace("[published]", '[blocks]\nneighbours = "off"\n\n[published]'))
    return path


def _min_winners(folder: Path) -> Path:
    doc = kn_doc()
    doc["packs"] = {"min_winners": 2}
    return write(folder, doc)


SPECS = {  # run id: (spec writer, pools)
    "wild_side": (small_wild_side, None),
    "happy_holidays": (lambda f: small_happy_holidays(f, 3000), None),
    "hand_to_hand": (lambda f: small_einstant(f, "hand_to_hand_tactics", 10000), ["d1.00", "d30.00"]),
    "primetime": (lambda f: small_einstant(f, "primetime_payout", 5000), ["d7.50x4"]),
    "red_hot_split": (_red_hot_cut, None),
    "neighbours_off": (_neighbours_off, ["d1.00"]),
    "min_winners": (_min_winners, None),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("order3")
    made = {}
    for name, (writer, pools) in SPECS.items():
        (root / name).mkdir()
        spec = load_spec(writer(root / name))
        made[name] = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                              out=root / "runs", run_id=name, pool_ids=pools)).folder
    return made


def _pools(run: Path) -> tuple[dict, list[tuple[dict, pl.DataFrame]]]:
    manifest = json.loads((run / "manifest.json").read_text())
    return manifest, [(p, pl.read_parquet(run / p["file"]["name"])) for p in manifest["pools"]]


def _audits(run: Path) -> Manifest:
    """The manifest as audit reads it (the test's, not the engine's: the engine imports neither)."""
    return Manifest.parse((run / "manifest.json").read_bytes())


def _engine(manifest: dict, pool: dict) -> tuple[list[str], list[str]]:
    rules = manifest["game"]["rules"]
    tiers = [(t["id"], t["count"]) for t in pool["tiers"]]
    return (order_salts.salts(SEED_A, rules, pool["id"], pool["tickets"]),
            order_salts.tier_order(SEED_A, rules, pool["id"], tiers))


SECTION_4 = {  # run id: its pools' ids and tickets
    "wild_side": {f"p{k}": 3000 for k in range(1, 6)},
    "happy_holidays": {"p1": 3000},
    "hand_to_hand": {"d1.00": 10000, "d30.00": 10000},
    "primetime": {"d7.50x4": 5000},
    "red_hot_split": {"p1": 5000, "p2": 5000, "p3": 5000, "p4": 5000, "p5": 300},
    "neighbours_off": {"d1.00": 10000},
}


@pytest.mark.parametrize("name", sorted(SECTION_4))
def test_every_tickets_salt_and_tier_is_the_third_engines(runs, name):
    manifest, pools = _pools(runs[name])
    assert order_salts.order_rules(manifest) == order_parameters(_audits(runs[name])) == []
    assert {p["id"]: p["tickets"] for p, _ in pools} == SECTION_4[name]
    for pool, table in pools:
        assert table["position"].to_list() == list(range(pool["tickets"]))
        salts, tiers = _engine(manifest, pool)
        assert table["salt"].to_list() == salts
        assert table["tier"].to_list() == tiers


def test_a_free_ticket_tier_is_ordered_as_any_tier(runs):
    manifest, [(pool, table)] = _pools(runs["happy_holidays"])
    assert manifest["print"]["free_ticket_tiers"] == ["free"]
    assert [t["id"] for t in pool["tiers"][:2]] == ["lose", "free"]
    assert table["tier"].to_list() == _engine(manifest, pool)[1]
    assert table.filter(pl.col("tier") == "free").height == 200


def test_a_split_orders_partial_last_pool_lists_tiers_it_holds_none_of(runs):
    """Tiers of count 0 stay in the pool entry (and add nothing to base): the order is still the engine's."""
    manifest, pools = _pools(runs["red_hot_split"])
    last, table = pools[-1]
    assert manifest["print"]["split"]["order_tickets"] == 20300
    assert sum(t["count"] == 0 for t in last["tiers"]) > 0
    assert table["tier"].to_list() == _engine(manifest, last)[1]


def test_the_neighbour_rule_relays_layouts_and_leaves_the_order_and_salts(runs):
    manifest, pools = _pools(runs["hand_to_hand"])
    pool, on = pools[0]
    assert manifest["blocks"] == {"neighbours": "across blocks"}
    off_manifest, [(_, off)] = _pools(runs["neighbours_off"])
    assert off_manifest["blocks"] == {"neighbours": "off"}
    assert pool["id"] == "d1.00"
    assert on["tier"].equals(off["tier"]) and on["salt"].equals(off["salt"])
    layout = [c for c in on.columns if c not in IDENTITY]
    relaid = (on.select(layout) != off.select(layout)).select(pl.any_horizontal(pl.all()))
    assert int(relaid.to_series().sum()) == 111  # the rows laid out again under SEED_A
    assert on["tier"].to_list() == _engine(manifest, pool)[1]


def test_a_pack_parameter_draws_the_order_otherwise_and_leaves_the_salts(runs):
    manifest, [(pool, table)] = _pools(runs["min_winners"])
    assert order_salts.order_rules(manifest) == ["min_winners"]
    assert order_parameters(_audits(runs["min_winners"])) == ["print.packs.min_winners"]
    salts, tiers = _engine(manifest, pool)
    assert table["salt"].to_list() == salts
    assert sum(a != b for a, b in zip(table["tier"].to_list(), tiers, strict=True)) == 487
