"""The third engine's bingo (tests/third_engines/engine.py, from docs/styles/bingo.md and play.md
alone) against audit's step 4 on Pattern Bingo (catalogue shapes and custom patterns) and on Bingo
Bucks (six cards a ticket) cut to 3,000 tickets: every generated row legal and paying its prize; a
tampered row refused with audit's reasons."""

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
SIX = ROOT / "specs" / "examples" / "bingo_bucks.toml"


def _cut(folder: Path, spec: Path, sizes: tuple[str, str], k: int) -> Path:
    """The example with 3,000 tickets and every count divided by k (at least 1; its published odds, the
    real order's, and its split dropped), generated."""
    text = spec.read_text()
    for size in sizes:
        text, n = re.subn(rf"^{size} = \d+$", f"{size} = 3000", text, flags=re.M)
        assert n == 1
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m[1]) // k)}", text, flags=re.M)
    text = re.sub(r"^(odds|split) = .*\n", "", text, flags=re.M)  # one pool: nothing to split
    made = generate(GenerateRequest(load_spec(_written(folder / "g.toml", text)), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r"))
    return made.folder


def _written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return _cut(tmp_path_factory.mktemp("bingo3"), EXAMPLE, ("order_tickets", "pool_tickets"), 20)


@pytest.fixture(scope="module")
def six(tmp_path_factory) -> Path:
    return _cut(tmp_path_factory.mktemp("bingo6"), SIX, ("order_tickets", "pool_tickets"), 1000)


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


def test_every_row_of_six_cards_is_legal_and_pays_its_prize(six):
    table = pl.read_parquet(six / "pool-p1.parquet")
    assert table.height == 3000 and "bingo_card5_24" in table.columns
    assert engine.judge(against_audit.play(six), table) == {}
    assert against_audit.layouts(six)[0] == "pass"


def _sixth_card_line(run: Path) -> dict:
    """The first loser's caller's numbers made to cover card 6's top row (the rest kept, in order)."""
    r = _row(run, "lose")
    top = [r[f"bingo_card5_{c}"] for c in range(5)]
    calls = [r[f"bingo_call_{i}"] for i in range(24)]
    new = (top + [c for c in calls if c not in top])[:24]
    return {f"bingo_call_{i}": v for i, v in enumerate(new)}


SIX_CASES = [
    ("lose", _sixth_card_line, "a loser's sixth card completes a line"),
    ("lose", lambda run: {"bingo_card5_12": 40}, "a number in the sixth card's FREE centre: rule 2"),
    ("w3", lambda run: {"bingo_card5_0": _row(run, "w3")["bingo_card5_1"]}, "a number twice on card 6"),
]


@pytest.mark.parametrize(("tier", "values", "what"), SIX_CASES, ids=[c[2] for c in SIX_CASES])
def test_a_tampered_sixth_card_is_refused_exactly_as_audit_refuses_it(six, tmp_path, tier, values, what):
    against_audit.agrees(engine.judge, six, tmp_path / "r", tier, values(six))
