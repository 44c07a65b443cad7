"""The third engine's bingo (tests/third_engines/engine.py, from docs/styles/bingo.md and play.md
alone) against audit's step 4 on Pattern Bingo (catalogue shapes and custom patterns) cut to 3,000
tickets: every generated row legal and paying its prize; a tampered row refused with audit's reasons."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A
from tests.third_engines import against_audit, engine

EXAMPLE = ROOT / "specs" / "examples" / "pattern_bingo.toml"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("bingo3")
    text = EXAMPLE.read_text().replace("order_tickets = 60000", "order_tickets = 3000").replace(
        "pool_tickets = 60000", "pool_tickets = 3000")
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m[1]) // 20)}", text, flags=re.M)
    (folder / "g.toml").write_text(text)
    made = generate(GenerateRequest(load_spec(folder / "g.toml"), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r"))
    return made.folder


def test_every_generated_row_is_legal_and_pays_its_prize(run):
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert engine.judge(against_audit.play(run), table) == {}
    assert against_audit.layouts(run)[0] == "pass"


def _row(run: Path, tier: str) -> dict:
    table = pl.read_parquet(run / "pool-p1.parquet")
    return table.filter(pl.col("tier") == tier).row(0, named=True)


def _loser_with_a_line(run: Path) -> dict:
    """The first loser's caller's numbers made to cover card 0's top row (the rest kept, in order)."""
    r = _row(run, "lose")
    top = [r[f"bingo_card0_{c}"] for c in range(5)]
    calls = [r[f"bingo_call_{i}"] for i in range(30)]
    new = (top + [c for c in calls if c not in top])[:30]
    return {f"bingo_call_{i}": v for i, v in enumerate(new)}


CASES = [  # (tier, the row's new values from the run, what the contract makes of it)
    ("lose", _loser_with_a_line, "a loser's calls cover a line"),
    ("lose", lambda run: {"bingo_call_0": 75}, "FREE called: rule 1"),
    ("line", lambda run: {"bingo_call_29": _row(run, "line")["bingo_call_0"]},
     "a call twice: rule 1, wins kept"),
    ("line", lambda run: {"bingo_card0_5": _row(run, "line")["bingo_card0_0"],
                          "bingo_card1_5": _row(run, "line")["bingo_card1_0"]}, "a number twice: rule 2"),
    ("lose", lambda run: {"bingo_card1_12": 40}, "a number in the FREE centre: rule 2"),
    ("lose", lambda run: {"bingo_card0_3": None}, "a null cell"),
    ("line", lambda run: {"tier": "stamp", "prize_cents": 400}, "another tier's id and prize"),
]


@pytest.mark.parametrize(("tier", "values", "what"), CASES, ids=[c[2] for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(run, tmp_path, tier, values, what):
    against_audit.agrees(engine.judge, run, tmp_path / "r", tier, values(run))
