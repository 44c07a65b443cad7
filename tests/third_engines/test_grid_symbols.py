"""The third engine's lines rules (tests/third_engines/grid.py, from docs/styles/lines.md alone) on
areas of several line-making symbols (`symbols`) against audit's step 4: every generated row legal and
paying its prize, and rows tampered at random judged alike, reason for reason and cent for cent. Two
runs: X's or O's with two decoys paid by a legend, and a board of X's and O's alone with a prize spot a
line (Tic Tac Bonus's shape)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit, grid

LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


def _legend() -> dict:
    pics = [{"group": "pic", "code": c, "symbol": c} for c in ("X", "O", "STAR", "MOON")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "4", "20")]
    area = {"id": "ttt", "style": "lines", "rows": 3, "cols": 3, "pictures": "pic", "symbols": ["X", "O"],
            "lines": LINES, "prizes": "pz",
            "legend": [{"lines": 1, "prize": "1"}, {"lines": 2, "prize": "4"}, {"lines": 4, "prize": "20"}]}
    tiers = [{"id": t, "count": c, "wins": [{"area": "ttt", "prize": p, "how": "match"}]}
             for t, p, c in (("l1", "1", 200), ("l2", "4", 60), ("l4", "20", 5))]
    return base_doc([area], pics + prizes, tiers, pool_tickets=1200, per_book=50)


def _shown() -> dict:
    pics = [{"group": "mark", "code": c, "symbol": c} for c in ("X", "O")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("2", "3", "50")]
    area = {"id": "game", "style": "lines", "rows": 3, "cols": 3, "pictures": "mark", "symbols": ["X", "O"],
            "lines": LINES, "prizes": "pz", "line_prizes": "shown"}

    def w(*codes: str) -> list[dict]:
        return [{"area": "game", "prize": c, "how": "match"} for c in codes]

    tiers = [{"id": "p2", "count": 200, "wins": w("2")}, {"id": "p3", "count": 80, "wins": w("3")},
             {"id": "p2p3", "count": 30, "wins": w("2", "3")}, {"id": "p50", "count": 4, "wins": w("50")}]
    return base_doc([area], pics + prizes, tiers, pool_tickets=1200, per_book=50, max_wins=2)


RUNS = {"legend": (_legend, (4, 5, 255)), "shown": (_shown, (2, 3, 255))}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("grid_symbols")
    made = {}
    for name, (doc, _) in RUNS.items():
        (root / name).mkdir()
        (root / name / "g.toml").write_text(dumps(doc()))
        made[name] = generate(GenerateRequest(load_spec(root / name / "g.toml"), SEED_A,
                                              now=datetime(2026, 1, 2, tzinfo=UTC), out=root / name,
                                              run_id="r")).folder
    return made


@pytest.mark.parametrize("name", list(RUNS))
def test_every_generated_row_of_several_symbols_is_legal_and_pays_its_prize(runs, name):
    table = pl.read_parquet(runs[name] / "pool-p1.parquet")
    assert table.height == 1200
    assert grid.judge(against_audit.play(runs[name]), table) == {}
    assert against_audit.layouts(runs[name])[0] == "pass"


@pytest.mark.parametrize("name", list(RUNS))
def test_rows_of_several_symbols_tampered_at_random_are_judged_as_audit_judges_them(runs, name):
    """600 rows, each with one to three cells (or its tier) set from a seeded generator: a null, a code
    just or far out of range, another cell's value of the same row, any small code."""
    manifest = json.loads((runs[name] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[name] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    out = RUNS[name][1]
    rows, rng = table.to_dicts(), random.Random(f"grid symbols {name}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 600)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice(out) if u < 0.15 else r[rng.choice(layout)] if u < 0.6
                    else rng.randrange(out[0]))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert grid.judge(play, tampered) == audit
    assert len(audit) > 150  # a quarter or more of the tampered rows are refused
