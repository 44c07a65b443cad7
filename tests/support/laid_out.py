"""A spec's first pool laid out whole from SEED_A's test streams, as the styles' property tests read it:
(spec, pool, each ticket's tier index in a uniform order, the style columns)."""

from __future__ import annotations

from typing import Any

import numpy as np

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A


def laid_out_first_pool(spec_file: str) -> tuple[Any, Any, np.ndarray, dict[str, np.ndarray]]:
    """The first pool of `spec_file` (a path from the repository's top), every ticket laid out."""
    spec = load_spec(spec_file)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    return spec, pool, tiers, cols
