"""The small runs the step modules call their checks on directly."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest

from audit.read.manifest import Manifest
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, SPECS, spec_path


@pytest.fixture(scope="session")
def two_pools(tmp_path_factory) -> dict:
    """The manifest of an unsigned run of Happy Holidays' pools p1 and p2, as JSON (tests copy it)."""
    spec = load_spec(spec_path("happy_holidays"))
    run = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=tmp_path_factory.mktemp("v5"), run_id="r", pool_ids=["p1",
                                   "p2"])).folder
    return json.loads((run / "manifest.json").read_bytes())


@pytest.fixture(scope="session")
def small_printed(tmp_path_factory):
    """A real run of one 9-ticket book of Hit $50 (a styled printed game): its folder and manifest (tests
    copy the folder before changing it)."""
    spec = load_spec(SPECS / "examples" / "hit_50.toml")
    pool = spec.pool("p1")
    tiers = tuple(replace(t, count=c) for t, c in zip(pool.tiers, [6, 2, 1], strict=False))
    small = replace(pool, tiers=tiers, tickets=9, books=1)
    run = generate(GenerateRequest(replace(spec, pools=(small,)), SEED_A,
                                   now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path_factory.mktemp("small"),
                                   run_id="s")).folder
    return run, Manifest.parse((run / "manifest.json").read_bytes())
