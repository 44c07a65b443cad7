"""The suite's order, and fixtures shared across the folders below (paths, seeds and builders that are
not fixtures are in tests/support)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import SPECS

TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def specs_dir() -> Path:
    return SPECS


# The suite runs from the bottom layer up, so that the first test to fail (`pytest -x`) is the one meant
# for what broke: a DRBG change fails the DRBG's known answers before any test that pins a pool's hash.
_FIRST = ("poolgen/rng/test_drbg.py", "poolgen/rng/test_sampling.py", "poolgen/rng/test_sampling_ties.py",
          "poolgen/test_money.py", "agreement/test_merkle.py",
          "poolgen/run/test_build.py", "poolgen/styles/test_key_number_match_decoys.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.relative_to(TESTS).as_posix(), len(_FIRST)))
