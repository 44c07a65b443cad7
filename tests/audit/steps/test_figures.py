"""Step 5 (audit/steps/figures.py) of a printed run, message by message, called directly on the
manifest of a real run of two Happy Holidays pools (tests/audit/steps/conftest.py's two_pools): the run
against its spec (the spec's hash, every game field, the order's books) and the totals recounted. An
eInstant run: test_figures_einstant.py."""

from __future__ import annotations

import json

import pytest

from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.specs import read_spec
from audit.steps.figures import check_against_spec, check_totals
from tests.support import spec_path
from tests.support.steps import fails_at as _fails_at

SHA = "d7e98309510630d10d9383489f5d4ada6f9b9cae6374c65690d5661ddd24330d"  # specs/happy_holidays.toml


def _step5(doc: dict) -> str:
    spec = read_spec(spec_path("happy_holidays"))
    return check_against_spec(Manifest.parse(json.dumps(doc).encode()), spec)


def _step5_fails(doc: dict) -> str:
    with pytest.raises(VerificationError) as info:
        _step5(doc)
    assert info.value.step == 5
    return info.value.reason


def test_step5_passes_a_run_of_the_spec(two_pools):
    assert two_pools["spec"]["sha256"] == SHA
    assert _step5(two_pools) == (f"spec happy_holidays.toml (SHA-256 {SHA[:16]}...) matches the manifest; "
                                 "every pool, area and tier is as it says")


@pytest.mark.parametrize(("key", "value"), [("name", "Happy Days"), ("number", 466),
                                            ("regulation", "K.A.R. 111-4-9999"), ("rules", "wild_side")])
def test_step5_names_a_game_field_that_is_not_the_specs(two_pools, key, value):
    doc = json.loads(json.dumps(two_pools))
    was = doc["game"][key]
    doc["game"][key] = value
    assert _step5_fails(doc).startswith(f"game.{key}: manifest {value!r}, spec {was!r}")


def test_step5_names_every_problem_at_once(two_pools):
    doc = json.loads(json.dumps(two_pools))
    doc["spec"]["sha256"] = "0" * 64
    doc["game"]["regulation"] = "K.A.R. 111-999"
    doc["pools"][1]["first_book"] = 7
    assert _step5_fails(doc) == (
        f"spec happy_holidays.toml has SHA-256 {SHA}, the manifest says {'0' * 64} "
        "(file happy_holidays.toml); "
        "game.regulation: manifest 'K.A.R. 111-999', spec 'K.A.R. 111-4-3836'; "
        "pool p2: books 7.. do not start a pool of the order")


@pytest.mark.parametrize(("first", "books", "why"), [
    (7, 1000, "pool p2: books 7.. do not start a pool of the order"),
    (6000, 1000, "pool p2: books 6000.. do not start a pool of the order"),
    (0, 1000, "pool p2: id p2, spec p1; two pools hold the same books")])
def test_step5_places_every_pool_on_the_orders_books(two_pools, first, books, why):
    doc = json.loads(json.dumps(two_pools))
    doc["pools"][1]["first_book"] = first
    doc["pools"][1]["books"] = books
    assert _step5_fails(doc) == why


def test_step5_totals_fail_as_step_5(two_pools):
    doc = json.loads(json.dumps(two_pools))
    doc["totals"]["winners"] += 1
    reason = _fails_at(5, check_totals, Manifest.parse(json.dumps(doc).encode()))
    assert reason.startswith(f"totals: winners: recounted {doc['totals']['winners'] - 1}, the manifest says ")


def test_a_total_of_one_pool_written_true_fails_step_5(two_pools):
    """docs/manifest.md `totals`: sums, so whole numbers; JSON `true` equals 1 in Python and passed."""
    doc = json.loads(json.dumps(two_pools))
    doc["pools"] = doc["pools"][:1]
    first = doc["pools"][0]
    doc["totals"] |= {"pools": True, "tickets": first["tickets"], "winners": first["winners"],
                      "prize_cost_cents": first["prize_cost_cents"],
                      "sales_cents": first["tickets"] * first["price_cents"],
                      "odds_1_in": first["odds_1_in"], "payout_pct": first["payout_pct"]}
    reason = _fails_at(5, check_totals, Manifest.parse(json.dumps(doc).encode()))
    assert reason == "totals: pools: recounted 1, the manifest says True"
