"""A spec's first pool laid out for the styles' tests: whole, from SEED_A's test streams (spec, pool, each
ticket's tier index in a uniform order, the style columns), or as a digest pinning a style's layouts."""

from __future__ import annotations

import dataclasses
import hashlib
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


def layout_digest(spec_file: str, rows: int = 6000) -> tuple[str, list[str]]:
    """SHA-256 over every layout column (its name, then its bytes) of the first `rows` tickets of the
    spec's first pool, laid out from the fixed seed 0..31's "pin" streams (a pin of a style's layouts), and
    the columns' names."""
    seed = bytes(range(32))
    spec = load_spec(spec_file)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(seed, "pin", "order"), base.size)][:rows]
    cols = spec.play.lay_out(spec, dataclasses.replace(pool, tickets=rows), tiers,
                             derive_stream(seed, "pin", "layout"))
    digest = hashlib.sha256()
    for column, values in cols.items():
        digest.update(column.encode())
        digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest(), list(cols)
