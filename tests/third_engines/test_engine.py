"""The third engine (tests/third_engines/engine.py, written from docs/styles/maze.md,
ticket_multiplier.md and play.md alone) against audit's step 4 on a small run of a maze and a BONUS
box that doubles it: the engine finds every generated row legal and paying its stored prize, and on
a tampered row it refuses exactly what audit refuses, with audit's very reasons (so the contracts'
wording, separators, and what an illegal row still wins, are exact). The third engines (engine.py,
printed.py, einstant.py, pairs.py, cards.py, grid.py, win_all.py, split.py, packs.py, packs_draws.py,
chain.py, order_salts.py, back_office*.py, step8_next_ticket.py, step8_spread.py)
chain.py, order_salts.py, back_office*.py, poker_lab.py, blackjack.py)
import neither poolgen nor audit."""

from __future__ import annotations

import ast
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import (
    against_audit,
    back_office,
    back_office_sales,
    back_office_upgrade,
    blackjack,
    cards,
    chain,
    einstant,
    engine,
    grid,
    lines_caller,
    lines_symbols,
    order_salts,
    packs,
    packs_draws,
    pairs,
    poker_lab,
    print_run,
    printed,
    split,
    step8_next_ticket,
    step8_spread,
    validation_desk,
    win_all,
    win_all_layout,
)

UP, RIGHT, DOWN, LEFT = range(4)


def _doc() -> dict:
    arrows = [{"group": "ar", "code": c, "symbol": c} for c in ("UP", "RIGHT", "DOWN", "LEFT")]
    prizes = [{"group": "pz", "code": "A", "symbol": "$1.00", "value": "1.00"},
              {"group": "pz", "code": "B", "symbol": "$5.00", "value": "5.00"}]
    area = {"id": "mz", "style": "maze", "rows": 4, "cols": 4, "arrows": "ar", "starts": [5, 10],
            "exits": [{"side": "top", "at": 1, "prize": "A"}, {"side": "right", "at": 0, "prize": "A"},
                      {"side": "bottom", "at": 2, "prize": "B"}], "prizes": "pz"}
    bonus = {"id": "bx", "style": "ticket_multiplier", "spots": 2, "multipliers": "mu", "pictures": "pic"}
    others = [{"group": "mu", "code": "2X", "symbol": "2X", "by": 2},
              {"group": "mu", "code": "5X", "symbol": "5X", "by": 5},
              {"group": "pic", "code": "BELL", "symbol": "BELL"},
              {"group": "pic", "code": "STAR", "symbol": "STAR"}]
    win = {"area": "mz", "how": "match"}
    double = {"area": "bx", "prize": "2X", "how": "ticket"}
    tiers = [{"id": "a", "count": 60, "wins": [{**win, "prize": "A"}]},
             {"id": "aa", "count": 20, "wins": [{**win, "prize": "A"}, {**win, "prize": "A"}]},
             {"id": "b", "count": 20, "wins": [{**win, "prize": "B"}]},
             {"id": "ab", "count": 10, "wins": [{**win, "prize": "A"}, {**win, "prize": "B"}]},
             {"id": "a2", "prize": "2.00", "count": 20, "wins": [{**win, "prize": "A"}, double]},
             {"id": "b2", "prize": "10.00", "count": 10, "wins": [{**win, "prize": "B"}, double]},
             {"id": "a5", "prize": "5.00", "count": 10,
              "wins": [{**win, "prize": "A"}, {**double, "prize": "5X"}]}]
    return base_doc([area, bonus], arrows + prizes + others, tiers, pool_tickets=500, per_book=50,
                    max_wins=2)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("maze3")
    (folder / "g.toml").write_text(dumps(_doc()))
    made = generate(GenerateRequest(load_spec(folder / "g.toml"), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r"))
    return made.folder


@pytest.mark.parametrize(("module", "allowed"), [
    (engine, {"__future__", "collections", "itertools", "polars"}),
    (einstant, {"__future__", "fractions", "re", "polars"}),
    (printed, {"__future__", "collections", "polars"}),
    (pairs, {"__future__", "collections", "fractions", "functools", "math"}),
    (cards, {"__future__", "collections", "itertools", "polars", "tests"}),  # tests: printed.py's match_n
    (grid, {"__future__", "polars", "printed"}),  # printed: its bonus_reveal engine and play.md's rules
    (lines_symbols, {"__future__", "collections", "dataclasses", "json", "pathlib", "typing", "polars"}),
    (lines_caller, {"__future__", "bisect", "collections", "decimal", "fractions", "itertools", "json",
                    "math", "pathlib", "polars", "printed", "split", "tomllib"}),  # play.md; the stream
    (win_all, {"__future__", "collections", "dataclasses", "math", "pathlib", "polars", "re", "tomllib"}),
    (win_all_layout, {"__future__", "math", "pathlib", "tomllib", "tests"}),  # tests: win_all.py, split.py
    (split, {"__future__", "hashlib", "hmac", "numpy", "struct"}),
    (packs, {"__future__", "dataclasses", "fractions", "math", "tests"}),  # tests: packs_draws, split
    (packs_draws, {"__future__", "bisect", "collections", "math", "tests"}),  # tests: split.py's stream
    (chain, {"__future__", "dataclasses", "tests"}),  # tests: packs.py's 5.2 start, split.py's stream
    (order_salts, {"__future__", "tests"}),  # tests: split.py's stream
    # tests: split.py's stream, validation_desk.py's barcode
    (print_run, {"__future__", "hashlib", "hmac", "pathlib", "polars", "re", "tests"}),
    (validation_desk, {"__future__", "cryptography", "dataclasses", "hashlib", "hmac", "json", "numpy"}),
    (back_office, {"__future__", "collections", "hashlib", "json", "pathlib", "polars", "sqlite3"}),
    (back_office_sales, {"__future__", "collections", "pathlib", "polars", "tests"}),  # tests: back_office.py
    (back_office_upgrade, {"__future__", "hashlib", "pathlib", "tests"}),  # tests: back_office.py
    (step8_next_ticket, {"__future__", "collections", "dataclasses", "numpy", "scipy", "typing"}),
    (step8_spread, {"__future__", "collections", "numpy", "scipy", "tests", "typing"}),  # tests: next_ticket
    (poker_lab, {"__future__", "collections", "itertools", "math", "typing"}),
    # tests: printed.py's play.md rules, split.py's stream
    (blackjack, {"__future__", "bisect", "fractions", "itertools", "json", "pathlib", "polars", "tests"}),
], ids=["engine", "einstant", "printed", "pairs", "cards", "grid", "lines_symbols", "lines_caller",
        "win_all",
        "win_all_layout", "split", "packs", "packs_draws", "chain", "order_salts", "print_run",
        "validation_desk", "back_office", "back_office_sales",
        "back_office_upgrade", "step8_next_ticket", "step8_spread", "poker_lab", "blackjack"])
def test_the_engine_imports_neither_poolgen_nor_audit(module, allowed):
    tree = ast.parse(Path(module.__file__).read_text())
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert names == allowed


def test_every_generated_row_is_legal_and_pays_its_prize(run):
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert engine.judge(against_audit.play(run), table) == {}
    assert against_audit.layouts(run)[0] == "pass"


CASES = [  # (tier of the row tampered, its cells or columns set, what the contract makes of it)
    ("lose", {"mz_cell_5": UP, "mz_cell_1": UP}, "START 5 leaves by the top $1 exit: a loser that wins"),
    ("lose", {"mz_cell_0": 9}, "a code out of range: refused by rule 1, wins still evaluated"),
    ("lose", {"mz_cell_15": None}, "a null, listed as null"),
    ("a", {"mz_cell_5": 200, "mz_cell_10": 7}, "both STARTs' cells out of range: their paths win nothing"),
    ("a", {"mz_cell_5": 2, "mz_cell_9": 0}, "START 5 down to 9, 9 up to 5: a loop"),
    ("b", {"tier": "a", "prize_cents": 100}, "another tier's id and prize"),
    ("b", {"tier": "zz"}, "a tier the play entry does not list"),
    ("lose", {"bx_spot_0": 2}, "a 2X on a loser"),
    ("a", {"bx_spot_1": 2}, "a 2X on a tier not multiplied: pays double, not its tier"),
    ("a2", {"bx_spot_0": 0, "bx_spot_1": 1}, "the 2X taken off a doubled tier"),
    ("a2", {"bx_spot_0": 3, "bx_spot_1": 2}, "a 5X then a 2X: rule 2, the first (5X) is the area's win"),
    ("a5", {"bx_spot_0": 3, "bx_spot_1": 2}, "the tier's 5X first, then a 2X: rule 2 alone"),
    ("b2", {"bx_spot_0": 4, "bx_spot_1": None}, "codes out of range and null: no multiplier shown"),
    ("a2", {"prize_cents": 100}, "a doubled tier storing the undoubled prize"),
]


@pytest.mark.parametrize(("tier", "values", "what"), CASES, ids=[c[2] for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(run, tmp_path, tier, values, what):
    against_audit.agrees(engine.judge, run, tmp_path / "r", tier, values)


@pytest.fixture(scope="module")
def losers_run(tmp_path_factory) -> Path:
    """The same game, its BONUS box saying `multipliers_on_losers = true` (ticket_multiplier.md 1, 7)."""
    folder = tmp_path_factory.mktemp("maze3-losers")
    doc = _doc()
    doc["areas"][1]["multipliers_on_losers"] = True
    (folder / "g.toml").write_text(dumps(doc))
    made = generate(GenerateRequest(load_spec(folder / "g.toml"), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r"))
    return made.folder


def test_with_multipliers_on_losers_a_loser_may_show_one_and_every_row_is_legal(losers_run, run):
    table = pl.read_parquet(losers_run / "pool-p1.parquet")
    assert engine.judge(against_audit.play(losers_run), table) == {}
    assert against_audit.layouts(losers_run)[0] == "pass"
    losers = table.filter(pl.col("tier") == "lose").select(pl.col("bx_spot_0", "bx_spot_1").cast(pl.Int64))
    shown = losers.select(((pl.col("bx_spot_0") >= 2).cast(pl.Int64) + (pl.col("bx_spot_1") >= 2)).alias("n"))
    # M / (D + M) = 2 / 4: 175 of the 350 losers expected to show one, at most one each
    assert (losers.height, shown["n"].max(), int((shown["n"] == 1).sum())) == (350, 1, 171)
    assert against_audit.play(losers_run)["areas"][1]["multipliers_on_losers"] is True
    assert "multipliers_on_losers" not in against_audit.play(run)["areas"][1]  # absent: written as before


LOSER_CASES = [  # a loser of the run with multipliers_on_losers: what the contracts make of it
    ({"bx_spot_0": 3, "bx_spot_1": 0}, ""),  # a 5X on a loser: legal, pays nothing
    ({"bx_spot_0": 2, "bx_spot_1": 3}, "bx: 2 multiplier symbols (at most one)"),  # rule 2 still holds
]


@pytest.mark.parametrize(("values", "reasons"), LOSER_CASES, ids=["one multiplier", "two multipliers"])
def test_a_multiplier_on_a_loser_is_legal_only_with_multipliers_on_losers(losers_run, tmp_path, values,
                                                                          reasons):
    table, row = against_audit.tampered(losers_run, tmp_path / "r", "lose", values)
    judged = engine.judge(against_audit.play(tmp_path / "r"), table)
    status, text = against_audit.layouts(tmp_path / "r")
    if not reasons:
        assert (judged, status) == ({}, "pass"), text
    else:
        assert judged == {row: (reasons, 0)}
        assert against_audit.agrees(engine.judge, losers_run, tmp_path / "s", "lose", values) == (reasons, 0)


def test_a_multiplier_on_a_winner_not_multiplied_is_still_refused_with_multipliers_on_losers(losers_run,
                                                                                              tmp_path):
    assert against_audit.agrees(engine.judge, losers_run, tmp_path / "r", "a", {"bx_spot_1": 2}) == (
        "its wins are not its tier 'a''s (1 win(s) paying 200 cents)", 200)
