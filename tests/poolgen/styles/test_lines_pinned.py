"""The one-symbol lines examples lay out byte for byte as they did before `symbols` (several line-making
symbols, docs/styles/lines.md) joined the style: the SHA-256 of each example's layout columns and play
entry for the first 100,000 tickets of a fixed order, recorded from commit 29a4233 (before the change).
ca_tic_tac_bonus (several symbols) is pinned the same way from commit 6d645d8, before a caller's
`calls` (docs/styles/lines.md, section 1b) joined the style: every example lays out as before it too."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A

PINNED = {
    "ca_tic_tac_bonus": "31f8f9cd149679080fa25171ece779f69cacbb66c11af1054b8eb89072ed688b",
    "cool_sevens": "f39c23c45ce4f63efc175e48aa84adbf492883855897b98b4c65142a5d47b9ef",
    "fl_loteria": "11d71e640e7426a69ebe082c456061adee153868818afe334322a89fb80c5a5d",
    "tic_tac_cash": "cc55bcadcdd761d541acc7a17288e3c6eb432be955c3383adcf3aeb220aee8ff",
    "winter_fortune": "b4d460cc624867a0ea88dcbe62f4a3807253c478d20c8e621c34166588c395b3",
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_lines_examples_lay_out_as_pinned_before_symbols_and_calls(name):
    spec = load_spec(f"specs/examples/{name}.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)][:100_000]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    digest = hashlib.sha256()
    for key in sorted(cols):
        digest.update(key.encode())
        digest.update(np.ascontiguousarray(cols[key]).tobytes())
    digest.update(json.dumps(spec.play.document(), sort_keys=True, default=str).encode())
    assert digest.hexdigest() == PINNED[name]
