"""Step 4 refusing a real signed run of Pennsylvania's $10 Blackjack (specs/examples/pa_blackjack_10.toml,
cut to one pool of 600) whose manifest an insider holding the signing key changed in one prize of the
blackjack entry that no row need show, and signed again (tests/support/reseal.py): each contract's
section 3 lists a prize as `{code, cents}` and docs/styles/play.md rule 1 bounds its cents to
0..2^40 - 1, shown or not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from poolgen.cli.main import app
from poolgen.loader import load_spec
from tests.support import small_example
from tests.support.layout_tamper import copied, signed_run
from tests.support.reseal import resign


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("blackjack")
    spec = load_spec(small_example(folder, "pa_blackjack_10", 600))
    return signed_run(folder, spec, spec.pools[0])


def _verify(base: dict[str, Any], run: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public), "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def test_the_honest_run_verifies(base, tmp_path):
    assert _verify(base, copied(base, tmp_path))["failed_steps"] == []


@pytest.mark.parametrize("prize", [{"cents": 100}, {"code": 7, "cents": 100}, {"code": "X", "cents": -100},
                                   {"code": "X", "cents": 1 << 40}])
def test_an_unshown_prize_not_code_and_cents_in_range_fails_step_4_with_one_reason(base, tmp_path, prize):
    run = copied(base, tmp_path)
    resign(run, lambda doc: doc["play"]["areas"][0]["prizes"].append(prize), base["signer"])
    report = _verify(base, run)
    assert report["failed_steps"] == [4]
    area = json.loads((run / "manifest.json").read_bytes())["play"]["areas"][0]["id"]
    assert report["steps"][3]["reasons"] == [
        f"pool p1: could not be checked: ValueError: manifest play entry: area {area!r}: prizes is not a "
        "non-empty list of {code, cents} (cents 0..2^40 - 1)"]
