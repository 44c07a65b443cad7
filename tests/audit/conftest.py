"""The run several folders' audit tests call steps on directly."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, spec_path


@pytest.fixture(scope="session")
def pp_folder(tmp_path_factory):
    """An unsigned run of Primetime Payout's pool d1.00x1 (an eInstant of 1,000,000 shares): steps 3 to 6
    called on it (tests/audit/steps, tests/audit/test_verify.py). Tests copy it before changing it."""
    return generate(GenerateRequest(load_spec(spec_path("primetime_payout")), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=tmp_path_factory.mktemp("pp5"),
                                    run_id="r", pool_ids=["d1.00x1"])).folder
