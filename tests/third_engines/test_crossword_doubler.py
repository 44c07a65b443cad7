"""The third engine (tests/third_engines/grid.py, extended from docs/styles/crossword.md section 11
alone) against audit's step 4 on runs of a designed crossword with a DOUBLER cell a grid
(tests/support/spec_docs.py, `crossword_doubler_doc`), its cells marked letters or free spaces (one k a
grid): every generated row is legal and pays its stored prize by both; rows with a marked cell moved into
or out of a completed word, or out of range, are refused by both with audit's very reasons and amount;
rows tampered at random are judged alike."""

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
from tests.support.spec_docs import crossword_doubler_doc, dumps
from tests.third_engines import against_audit, grid

FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


def _run(root: Path, free: bool | None) -> Path:
    """A run of the doc: marked letters doubling, or free spaces doubling in grid 1 and tripling in 2."""
    (root / "g.toml").write_text(dumps(crossword_doubler_doc(free=free, by=[2, 3] if free else 2)))
    return generate(GenerateRequest(load_spec(root / "g.toml"), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                    out=root, run_id="r")).folder


@pytest.fixture(scope="module")
def marked(tmp_path_factory) -> Path:
    """A run whose doubler cells are marked letters (moving one into or out of a completed word is a
    change of its win)."""
    return _run(tmp_path_factory.mktemp("doubler3"), None)


@pytest.fixture(scope="module", params=[None, True], ids=["marked letters", "free spaces x2 x3"])
def run(tmp_path_factory, request, marked) -> Path:
    return marked if request.param is None else _run(tmp_path_factory.mktemp("doubler3free"), True)


def _grid_words(area: dict, g: int) -> list[list[int]]:
    """Grid g's words as their cells' indices among grid g's letter cells."""
    number = {(r, c): k for k, (r, c) in enumerate(
        (r, c) for r, line in enumerate(area["grids"][g]) for c, ch in enumerate(line) if ch == ".")}
    return [[number[rc] for rc in word] for word in grid.words_of(area["grids"][g])]


def _moved(area: dict, r: dict, g: int, into: bool) -> dict:
    """Grid g's doubler cell moved to a cell of a completed word of the grid (into) or to a cell of no
    completed word (not into)."""
    sizes = [sum(line.count(".") for line in x) for x in area["grids"]]
    base = sum(sizes[:g])
    held = {r[f"cw_letter_{j}"] for j in range(area["letters"])}
    done = {k for w in _grid_words(area, g) if all(r[f"cw_cell_{base + k}"] in held for k in w) for k in w}
    cell = next(k for k in range(sizes[g]) if (k in done) == into)
    return {f"cw_doubler_{g}": cell}


CASES = [("g1", lambda a, r: _moved(a, r, 0, True), "a $1 winner's doubler cell moved into a completed word"),
         ("g1x2", lambda a, r: _moved(a, r, 0, False), "a doubled $1 winner's doubler cell moved out"),
         ("g2x2", lambda a, r: _moved(a, r, 1, False), "grid 2's doubled prize undoubled"),
         ("bothx2", lambda a, r: _moved(a, r, 1, True), "grid 2's undoubled prize doubled too"),
         ("g1x2", lambda a, r: {"cw_doubler_0": 10, "cw_doubler_1": None}, "doubler cells 10 and null"),
         ("g1x2", lambda a, r: {"tier": "g1", "prize_cents": 100}, "$1 x 2 stored as $1")]


@pytest.mark.parametrize(("tier", "values", "what"), CASES, ids=[c[2] for c in CASES])
def test_a_tampered_doubler_row_is_refused_exactly_as_audit_refuses_it(marked, tmp_path, tier, values, what):
    area = against_audit.play(marked)["areas"][0]
    row = pl.read_parquet(marked / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(grid.judge, marked, tmp_path / "r", tier, values(area, row))


def test_every_generated_row_is_legal_and_pays_its_prize_and_random_tampers_are_judged_alike(run):
    """Every row as generated; then 600 rows, each with one to three cells (or its tier) set from a
    seeded generator (a null, a code out of range, another cell's value, any small code): the engine and
    audit's step 4 refuse the same rows with the same reasons and find the same amounts."""
    manifest = json.loads((run / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(run / "pool-p1.parquet")
    assert grid.judge(play, table) == {}
    assert [c for c in table.columns if "doubler" in c] == ["cw_doubler_0", "cw_doubler_1"]
    layout = [c for c in table.columns if c not in FIXED]
    rows, rng = table.to_dicts(), random.Random("doubler3")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 600)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice((7, 10, 14, 255)) if u < 0.15 else r[rng.choice(layout)] if u < 0.6
                    else rng.randrange(14))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert grid.judge(play, tampered) == audit
    assert len(audit) > 200
    assert any("cw_doubler_" in reasons for reasons, _ in audit.values())
