"""Step 8 on a pair's multiplier spot (docs/styles/yours_beats_theirs.md, sections 8 and 9;
audit/stats/styles/games.py): on a small real pool of Power Duel (specs/examples/power_duel.toml, 6,000
tickets) step 8 runs `duel_mult_<p>` for every pair and passes; the same pool with every loser's pair 0
showing 2X (each row still legal, its wins unchanged) fails it, naming that feature."""

from __future__ import annotations

import hashlib

import numpy as np

from audit.stats.step import columns_needed
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import small_example
from tests.support.stats import judge, on_losers

SEED = hashlib.sha256(b"poolgen/tests/pair-multipliers").digest()
WIN = "against win/lose"


def test_each_pairs_multiplier_is_tested_passes_honest_and_fails_a_leak(tmp_path):
    spec = load_spec(small_example(tmp_path, "power_duel", 6000))
    pool = spec.pools[0]
    area = next(a for a in spec.play.document()["areas"] if a["id"] == "duel")
    table = build_pool(spec, pool, SEED)
    s, r = judge(spec, pool, table.select(columns_needed(spec.play.document())), SEED)
    assert not s.failed and not r.failed, [(j.finding.name, j.finding.p) for j in s.failed + r.failed]
    names = [f"duel_mult_{p} (a multiplier) on tickets whose pair {p} does not win, {WIN}" for p in range(4)]
    judged = {j.finding.name for j in s.judged}
    assert set(names) <= judged
    leaky = on_losers(table, area, {"duel_mult_0": np.zeros(table.height)})  # every loser's pair 0: 2X
    assert not leaky.equals(table)
    s, _ = judge(spec, pool, leaky, SEED)
    failed = {j.finding.name: j.finding.p for j in s.failed}
    assert names[0] in failed and failed[names[0]] < 1e-6, failed
