"""Step 8's promise for lines areas marked by a caller (docs/styles/lines.md section 8): whatever the tier,
every board cell and every caller's place shows each of the P pictures with probability 1/P, tested
against win/lose by name. On a pool of 6,000 tickets laid out as the contract says, step 8 passes with
those features; the same pool with every loser whose first cell shows picture C0 renamed (C0 and C1
exchanged on its caller and board alike: still a loser, each row legal) fails it, naming that cell."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support.spec_docs import base_doc, dumps
from tests.support.stats import judge, on_losers

SEED = hashlib.sha256(b"poolgen/tests/lines-caller-features").digest()
WIN = "against win/lose"
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    deck = [{"group": "deck", "code": f"C{i}", "symbol": f"card {i}"} for i in range(12)]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("2", "10")]
    area = {"id": "game", "style": "lines", "rows": 3, "cols": 3, "pictures": "deck", "calls": 5,
            "lines": LINES, "prizes": "pz",
            "legend": [{"lines": 1, "prize": "2"}, {"lines": 2, "prize": "10"}]}
    tiers = [{"id": "w2", "count": 1200, "wins": [{"area": "game", "prize": "2", "how": "match"}]},
             {"id": "w10", "count": 300, "wins": [{"area": "game", "prize": "10", "how": "match"}]}]
    path = tmp_path_factory.mktemp("lncall") / "g.toml"
    path.write_text(dumps(base_doc([area], deck + prizes, tiers, pool_tickets=6000)))
    spec = load_spec(path)
    table = build_pool(spec, spec.pools[0], SEED)
    return spec, spec.pools[0], table, spec.play.document()["areas"][0]


def test_every_cell_and_call_is_tested_and_passes(pool):
    spec, p, table, _ = pool
    s, r = judge(spec, p, table, SEED)
    assert not s.failed and not r.failed
    judged = [j.finding.name for j in s.judged if j.finding.name.startswith(("game_cell_", "game_call_"))]
    feature = [f"game_cell_{k} (its picture)" for k in range(9)] + [f"game_call_{j} (its picture)"
                                                                     for j in range(5)]
    assert judged == [f"{f} {WIN}" for f in feature] + \
        [f"{f}, on a losing ticket, against the next ticket's prize (print order)" for f in feature]  # 2, 1j


def test_losers_renamed_where_the_first_cell_shows_c0_fail_naming_that_cell(pool):
    spec, p, table, area = pool
    names = [f"game_cell_{k}" for k in range(9)] + [f"game_call_{j}" for j in range(5)]
    codes = {c: table[c].to_numpy().astype(np.int64) for c in names}
    first_c0 = codes["game_cell_0"] == 0
    renamed = {c: np.where(first_c0, np.choose(np.clip(v, 0, 2), [1, 0, v]), v) for c, v in codes.items()}
    leaky = on_losers(table, area, renamed)
    assert (leaky["game_cell_0"].to_numpy()[table["prize_cents"].to_numpy() == 0] != 0).all()
    s, _ = judge(spec, p, leaky, SEED)
    failed = {j.finding.name: j.finding.p for j in s.failed}
    name = f"game_cell_0 (its picture) {WIN}"
    assert name in failed and failed[name] < 1e-6, failed
