"""Shared fixtures: the real spec files and fixed seeds."""

from __future__ import annotations

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
