"""The shapes step 8's style features take (audit/stats/styles/): a feature is (name, codes), a code
below 0 leaving its row out of that test; a classifier block is (name, code columns sharing one code
space); each style's function returns (features, blocks, what is not tested and why)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["AreaFeatures", "Blocks", "Columns", "Feature", "Get", "Tests"]

Get = Callable[[str], np.ndarray]
Tests = list[tuple[str, np.ndarray]]  # chi-square features: (name, codes)
Blocks = list[tuple[str, list[np.ndarray]]]  # classifier blocks: (name, code columns)
AreaFeatures = tuple[Tests, Blocks, list[str]]  # and what is not tested
Feature = Callable[[dict[str, Any], dict[str, Any], dict[str, int], Get], AreaFeatures]
Columns = Callable[[dict[str, Any]], list[str]]  # the columns a style's features read, from its area entry
