"""The third engine (tests/third_engines/engine.py, from docs/styles/ticket_multiplier.md section 9 and
play.md alone) against audit's step 4 on a small run of two mazes and a BONUS box that multiplies the
first maze only (`multiplies`, with `multipliers_on_losers`): every generated row is legal and pays its
prize; a multiplier beside a win of the other maze multiplies nothing and is legal; a tier's multiplied
win shown without its multiplier, or a multiplier on a ticket whose box may not show one, is refused
exactly as audit refuses it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit, engine


def _doc(on_losers: bool) -> dict:
    arrows = [{"group": "ar", "code": c, "symbol": c} for c in ("UP", "RIGHT", "DOWN", "LEFT")]
    prizes = [{"group": "pz", "code": "A", "symbol": "$1.00", "value": "1.00"},
              {"group": "pz", "code": "B", "symbol": "$5.00", "value": "5.00"}]
    maze = {"style": "maze", "rows": 4, "cols": 4, "arrows": "ar", "starts": [5],
            "exits": [{"side": "top", "at": 1, "prize": "A"}, {"side": "bottom", "at": 2, "prize": "B"}],
            "prizes": "pz"}
    bonus = {"id": "bx", "style": "ticket_multiplier", "spots": 1, "multipliers": "mu", "pictures": "pic",
             "multiplies": [{"area": "mz"}]} | ({"multipliers_on_losers": True} if on_losers else {})
    others = [{"group": "mu", "code": "2X", "symbol": "2X", "by": 2},
              {"group": "mu", "code": "5X", "symbol": "5X", "by": 5},
              {"group": "pic", "code": "1X", "symbol": "1X"}]
    mz, mm = {"area": "mz", "how": "match"}, {"area": "mm", "how": "match"}
    double = {"area": "bx", "prize": "2X", "how": "ticket"}
    tiers = [{"id": "a", "count": 60, "wins": [{**mz, "prize": "A"}]},
             {"id": "m", "count": 60, "wins": [{**mm, "prize": "B"}]},
             {"id": "a2", "prize": "2.00", "count": 20, "wins": [{**mz, "prize": "A"}, double]},
             {"id": "a2m", "prize": "7.00", "count": 20,
              "wins": [{**mz, "prize": "A"}, {**mm, "prize": "B"}, double]},
             {"id": "b5", "prize": "25.00", "count": 10,
              "wins": [{**mz, "prize": "B"}, {**double, "prize": "5X"}]}]
    return base_doc([{"id": "mz", **maze}, {"id": "mm", **maze}, bonus], arrows + prizes + others, tiers,
                    pool_tickets=500, per_book=50, max_wins=2)


def _run(folder: Path, on_losers: bool) -> Path:
    (folder / "g.toml").write_text(dumps(_doc(on_losers)))
    return generate(GenerateRequest(load_spec(folder / "g.toml"), SEED_A,
                                    now=datetime(2026, 1, 2, tzinfo=UTC), out=folder, run_id="r")).folder


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    return _run(tmp_path_factory.mktemp("two-mazes"), True)


@pytest.fixture(scope="module")
def strict_run(tmp_path_factory) -> Path:
    return _run(tmp_path_factory.mktemp("two-mazes-strict"), False)


def test_every_generated_row_of_a_box_multiplying_one_maze_is_legal_and_pays_its_prize(run, strict_run):
    for folder in (run, strict_run):
        table = pl.read_parquet(folder / "pool-p1.parquet")
        assert engine.judge(against_audit.play(folder), table) == {}
        assert against_audit.layouts(folder)[0] == "pass"
    assert against_audit.play(run)["areas"][2]["multiplies"] == [{"area": "mz"}]


def test_winners_of_the_other_maze_and_losers_show_a_multiplier_alike(run):
    table = pl.read_parquet(run / "pool-p1.parquet")
    shown = {t: int(table.filter(pl.col("tier") == t)["bx_spot_0"].is_in([1, 2]).sum())
             for t in ("m", "lose")}
    # M / (D + M) = 2 / 3 of 60 and of 330: 40 and 220 expected
    assert shown == {"m": 40, "lose": 217}


@pytest.mark.parametrize(("tier", "code", "reasons", "pays"), [
    ("m", 2, "", 500),  # a 5X beside the other maze's $5: multiplies nothing, legal
    ("a2m", 0, "its wins are not its tier 'a2m''s (2 win(s) paying 600 cents)", 600),  # its 2X gone
    ("a2m", 2, "its wins are not its tier 'a2m''s (2 win(s) paying 1000 cents)", 1000),  # 5X, not 2X
])
def test_a_tampered_box_is_judged_by_what_it_multiplies_exactly_as_audit_judges_it(run, tmp_path, tier, code,
                                                                                    reasons, pays):
    if not reasons:
        table, row = against_audit.tampered(run, tmp_path / "r", tier, {"bx_spot_0": code})
        assert engine.judge(against_audit.play(tmp_path / "r"), table) == {}
        assert against_audit.layouts(tmp_path / "r")[0] == "pass"
    else:
        assert against_audit.agrees(engine.judge, run, tmp_path / "r", tier, {"bx_spot_0": code}) == (
            reasons, pays)


def test_without_multipliers_on_losers_a_multiplier_beside_the_other_maze_alone_is_refused(strict_run,
                                                                                          tmp_path):
    assert against_audit.agrees(engine.judge, strict_run, tmp_path / "r", "m", {"bx_spot_0": 1}) == (
        "a multiplier x2 on a ticket with no win in what it multiplies; its wins are not its tier 'm''s "
        "(1 win(s) paying 500 cents)", 500)
