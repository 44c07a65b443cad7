"""Shared fixtures: the real spec files and fixed seeds."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"
ASSETS = Path(__file__).resolve().parent / "assets"
VECTORS = Path(__file__).resolve().parent / "vectors"
sys.path.insert(0, str(VECTORS))  # reference_drbg, the second DRBG implementation

SEED_A = bytes(range(32))
SEED_B = bytes(range(1, 33))


@pytest.fixture(scope="session")
def specs_dir() -> Path:
    return SPECS


def spec_path(rules: str) -> Path:
    return SPECS / f"{rules}.toml"


def small_happy_holidays(folder: Path, order_tickets: int) -> Path:
    """Happy Holidays cut to pools of 3,000 tickets (counts per pool, 1/600 of the order's), an order of
    `order_tickets`, written as folder/happy_holidays.toml: a real printed game whose run takes seconds."""
    text = spec_path("happy_holidays").read_text()
    text = text.replace("order_tickets = 1800000", f"order_tickets = {order_tickets}")
    text = text.replace("pool_tickets = 300000", "pool_tickets = 3000").replace(
        'counts_per = "order"', 'counts_per = "pool"')
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {int(m.group(1)) // 600}", text, flags=re.M)
    path = folder / "happy_holidays.toml"
    path.write_text(text)
    return path


# The suite runs from the bottom layer up, so that the first test to fail (`pytest -x`) is the one meant
# for what broke: a DRBG change fails the DRBG's known answers before any test that pins a pool's hash.
_FIRST = ("test_rng.py", "test_sampling_ties.py", "test_money.py", "test_check_rounding.py", "test_merkle.py",
          "test_build.py", "test_layout_decoys.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(_FIRST)))  # stable: the rest keep their order
