"""The law of a `lines` area's grids with several symbols (docs/styles/lines.md, sections 7 and 8),
counted on generated pools: with decoys, a placement uniform among those paying the tier, then decoys
uniform among the fillings leaving no line of one decoy alone, which is not uniform among the legal
grids; without decoys, every grid paying the tier alike. Boards are counted from the pool file and held
to the law by chi-square (fixed seeds: a deterministic verdict)."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
from scipy.stats import chisquare

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps

LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]


def _pool(folder: Path, area: dict, pictures: tuple[str, ...], tiers: list[dict],
          tickets: int) -> pl.DataFrame:
    pics = [{"group": "pic", "code": c, "symbol": c} for c in pictures]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "5")]
    doc = base_doc([area], pics + prizes[:len(area["legend"])], tiers, pool_tickets=tickets, per_book=50)
    (folder / "g.toml").write_text(dumps(doc))
    made = generate(GenerateRequest(load_spec(folder / "g.toml"), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r"))
    return pl.read_parquet(made.folder / "pool-p1.parquet")


def _boards(table: pl.DataFrame, tier: str, cells: int) -> Counter[tuple[int, ...]]:
    rows = table.filter(pl.col("tier") == tier)
    return Counter(zip(*(rows[f"g_cell_{k}"].to_list() for k in range(cells)), strict=True))


def test_a_loser_of_x_or_o_and_two_decoys_follows_placement_then_decoys_not_the_uniform_legal_grid(tmp_path):
    """1 x 3, one line, X and O (codes 0, 1) and decoys A and B (2, 3), 12,000 tickets of which 11,900
    lose: the 60 losing grids' counts fit the two-stage law (1/100 for X, A, B; 1/150 for A, A, B)
    and refuse the uniform one."""
    area = {"id": "g", "style": "lines", "rows": 1, "cols": 3, "pictures": "pic", "symbols": ["X", "O"],
            "lines": [[0, 1, 2]], "prizes": "pz", "legend": [{"lines": 1, "prize": "1"}]}
    tiers = [{"id": "w", "count": 100, "wins": [{"area": "g", "prize": "1", "how": "match"}]}]
    seen = _boards(_pool(tmp_path, area, ("X", "O", "A", "B"), tiers, 12000), "lose", 3)
    law: dict[tuple[int, ...], float] = {}
    for placement in itertools.product(range(3), repeat=3):  # class 0 a decoy, 1 X, 2 O (section 7)
        if placement in ((1, 1, 1), (2, 2, 2)):
            continue  # completes the line: no loser's
        free = [k for k in range(3) if placement[k] == 0]
        fills = [f for f in itertools.product((2, 3), repeat=len(free)) if len(free) < 3 or len(set(f)) > 1]
        for fill in fills:
            grid = [c - 1 for c in placement]
            for k, code in zip(free, fill, strict=True):
                grid[k] = code
            law[tuple(grid)] = law.get(tuple(grid), 0.0) + 1 / 25 / len(fills)
    assert len(law) == 60 and set(seen) == set(law)
    assert (law[(0, 2, 3)], law[(2, 2, 3)]) == (1 / 100, 1 / 25 / 6)
    grids, n = sorted(law), sum(seen.values())
    observed = [seen[g] for g in grids]
    assert n == 11900
    assert chisquare(observed, [law[g] * n for g in grids]).pvalue > 1e-3
    assert chisquare(observed, [n / 60] * 60).pvalue < 1e-100


def test_a_board_of_x_and_o_alone_shows_every_grid_paying_its_tier_alike(tmp_path):
    """3 x 3 of X's and O's alone, its 8 lines, a legend of 1 and 2 lines: 3,000 tickets of each of the
    32 losing grids, 148 grids of one line and 204 of two; all of each, each as likely (chi-square)."""
    area = {"id": "g", "style": "lines", "rows": 3, "cols": 3, "pictures": "pic", "symbols": ["X", "O"],
            "lines": LINES, "prizes": "pz",
            "legend": [{"lines": 1, "prize": "1"}, {"lines": 2, "prize": "5"}]}
    tiers = [{"id": t, "count": 3000, "wins": [{"area": "g", "prize": p, "how": "match"}]}
             for t, p in (("w1", "1"), ("w2", "5"))]
    table = _pool(tmp_path, area, ("X", "O"), tiers, 9000)
    for tier, lines, grids in (("lose", 0, 32), ("w1", 1, 148), ("w2", 2, 204)):
        allowed = [g for g in itertools.product(range(2), repeat=9)
                   if sum(len({g[k] for k in line}) == 1 for line in LINES) == lines]
        seen = _boards(table, tier, 9)
        assert len(allowed) == grids and set(seen) <= set(allowed)
        assert chisquare([seen[g] for g in allowed]).pvalue > 1e-3, tier
