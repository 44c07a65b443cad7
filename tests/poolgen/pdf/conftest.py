"""The runs the proof and report tests draw."""

from __future__ import annotations

import pytest

from tests.support.pdf import Runs


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> Runs:
    """One pool of each game (tests.support.pdf.GAMES), generated on first use."""
    return Runs(tmp_path_factory.mktemp("pdf"))
