"""The third re-evaluator of a box that multiplies one crossword grid (tests/third_engines/multiplies.py,
from docs/styles/ticket_multiplier.md section 9, crossword.md, prize_box.md and play.md alone) against a
real run of BCLC's $5 Deluxe Crossword (`multiplies = [{ area = "xw", grid = 3 }]`, multipliers on
tickets with no PUZZLE 3 win), one pool of 2,500: ticket by ticket, the wins and the amount its files
state; the box's law on the tickets with nothing it multiplies; and rows whose box is changed, judged by
the engine and by audit's step 4 engine alike (which wins the box multiplies, and none on a bonus
word's, even of a PUZZLE 3 code)."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from scipy.stats import chi2_contingency, chisquare

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_example
from tests.support.spec_docs import crossword_doubler_doc, dumps
from tests.third_engines import against_audit, deals, multiplies

COVERED = {"w20", "w30", "w50", "w200", "w10000"}  # the tiers with a PUZZLE 3 win (each lists its box)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("multiplies12")
    game = load_spec(small_example(root, "bclc_deluxe_crossword", 2500))
    return generate(GenerateRequest(game, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC), out=root, run_id="r",
                                    pool_ids=["p1"])).folder


def _doubled(root: Path) -> Path:
    """A run of tests/support/spec_docs.py's crossword with a DOUBLER cell a grid (x2 in grid 1, x3 in grid
    2, free spaces) and a box multiplying grid 2 only: tier m5 wins grid 2's $1 doubled
    and a 5X (5 x 3 x $1), m2 grid 1's $1 doubled and grid 2's $1 and a 2X (2 x $1 + 2 x $1)."""
    doc = crossword_doubler_doc(tickets=600, free=True, by=[2, 3])
    doc["symbols"] += [{"group": "tm", "code": "2X", "symbol": "2X", "by": 2},
                       {"group": "tm", "code": "5X", "symbol": "5X", "by": 5},
                       {"group": "tp", "code": "1X", "symbol": "1X"}]
    doc["areas"].append({"id": "box", "style": "ticket_multiplier", "spots": 1, "multipliers": "tm",
                         "pictures": "tp", "multiplies": [{"area": "cw", "grid": 2}],
                         "multipliers_on_losers": True})

    def won(prize: str, by: int = 1) -> dict:
        return {"area": "cw", "prize": prize, "how": "match"} | ({"by": by} if by > 1 else {})
    doc["tiers"] += [{"id": "m5", "count": 30, "wins": [won("M1", 3), {"area": "box", "prize": "5X",
                                                                        "how": "ticket"}]},
                     {"id": "m2", "count": 30, "wins": [won("1", 2), won("M1"), {"area": "box", "prize": "2X",
                                                                                 "how": "ticket"}]}]
    (root / "d.toml").write_text(dumps(doc))
    return generate(GenerateRequest(load_spec(root / "d.toml"), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                    out=root, run_id="r")).folder


def test_a_box_multiplying_a_grid_of_doubler_cells_pays_k_times_the_doubled_prize(tmp_path):
    """Section 9 beside crossword.md section 11: a covered win doubled by its grid's cell (by 3) and
    multiplied by the box (5X) pays 5 x 3 x $1; grid 1's doubled win beside it is not multiplied. Every
    row agrees with the engine, and the tiers are priced so."""
    run = _doubled(tmp_path)
    play, rows = against_audit.play(run), _rows(run)
    tiers, words = deals.tier_wins(play), multiplies.listed(play)
    wrong = {r["position"]: got for r in rows
             if (got := multiplies.evaluate(play, r, words)) != (tiers[r["tier"]], r["prize_cents"])}
    assert wrong == {}
    cents = {r["tier"]: r["prize_cents"] for r in rows}
    assert (cents["m5"], cents["m2"]) == (1500, 400)


def _rows(run: Path) -> list[dict]:
    return list(pl.read_parquet(run / "pool-p1.parquet").iter_rows(named=True))


def test_every_ticket_shows_exactly_its_tiers_wins_and_pays_its_stored_prize(run):
    play, rows = against_audit.play(run), _rows(run)
    tiers, words = deals.tier_wins(play), multiplies.listed(play)
    judged = {r["position"]: multiplies.evaluate(play, r, words) for r in rows}
    wrong = {p: j for p, j in judged.items() if j != (tiers[rows[p]["tier"]], rows[p]["prize_cents"])}
    assert wrong == {}
    # what the run holds: multiplied PUZZLE 3 wins, other puzzles' and the bonus word's wins beside a
    # multiplier that multiplies nothing, and the MATCH 3 BONUS
    shown = {(r["tier"], r["mult_spot_0"] > 0) for r in rows}
    assert {("w20", True), ("w30", True), ("w5", True), ("w10", True), ("w15", True), ("w75", True)} <= shown
    assert {t for t in COVERED if any(r["tier"] == t for r in rows)} == {"w20", "w30", "w50", "w200"}


def test_a_box_with_nothing_to_multiply_is_uniform_whatever_the_ticket_wins_elsewhere(run):
    """Section 9's law of the box: on a ticket whose tier has no covered win (a loser, or a winner of
    PUZZLE 1 or 2, the bonus word or the MATCH 3 BONUS) every symbol of 1X, 2X, 3X, 5X is equally likely,
    alike on losers and on winners elsewhere."""
    rows = [r for r in _rows(run) if r["tier"] not in COVERED]
    table = [[Counter(r["mult_spot_0"] for r in rows if (r["tier"] == "lose") is lost)[c] for c in range(4)]
             for lost in (True, False)]
    assert sum(map(sum, table)) == 2500 - 96  # 60 + 28 + 7 + 1 tickets of PUZZLE 3 wins
    for counts in table:
        assert chisquare(counts).pvalue > 0.001, table
    assert chi2_contingency(table).pvalue > 0.001, table
    # the box of a PUZZLE 3 winner is its tier's multiplier: never uniform
    assert Counter(r["mult_spot_0"] for r in _rows(run) if r["tier"] == "w20") == {1: 60}


CHANGED = {  # tier: (its first row's box, legal, pays)
    "w5": (3, True, 500),      # 5X beside PUZZLE 1's $5: multiplies nothing
    "w75": (1, True, 7500),    # 2X beside the bonus word's $75: a bonus word's win is no puzzle's
    "w15": (2, True, 1500),    # 3X beside the MATCH 3 BONUS
    "w20": (0, False, 1000),   # PUZZLE 3's $10 with 1X: not its tier's 2X
    "w30": (3, False, 5000),   # PUZZLE 3's $10 with 5X, not its tier's 3X
}


def test_a_changed_box_is_judged_by_what_it_multiplies_as_audit_judges_it(run):
    """The first row of five tiers shown another box: the engine and audit's step 4 engine agree on every
    row, which is legal and what each pays."""
    play, table = against_audit.play(run), pl.read_parquet(run / "pool-p1.parquet")
    at = {t: table["tier"].to_list().index(t) for t in CHANGED}
    box = table["mult_spot_0"].to_list()
    for t, (code, _, _) in CHANGED.items():
        box[at[t]] = code
    table = table.with_columns(pl.Series("mult_spot_0", box, dtype=pl.UInt8))
    tiers, words = deals.tier_wins(play), multiplies.listed(play)
    mine = {at[t]: multiplies.evaluate(play, table.row(at[t], named=True), words) for t in CHANGED}
    assert {at[t]: (mine[at[t]][0] == tiers[t], mine[at[t]][1]) for t in CHANGED} == {
        at[t]: (legal, pays) for t, (_, legal, pays) in CHANGED.items()}
    audit = evaluate(table, json.loads((run / "manifest.json").read_text())["pools"][0], play)
    assert {r for r, _ in audit.illegal} == {at["w20"], at["w30"]}
    assert all(int(audit.prize_cents[r]) == mine[r][1] for r in mine)
    stored = table["prize_cents"].to_list()
    assert all(int(audit.prize_cents[r]) == stored[r] for r in range(table.height) if r not in mine)


def test_a_bonus_word_paying_a_puzzle_3_code_is_not_multiplied_by_the_engine_nor_by_audit(run):
    """The run's entry re-read with its bonus word paying C10, a code of PUZZLE 3's legend (crossword.md
    section 9 allows it), and the INSTANT WORD's tier w75 winning it: section 9 covers PUZZLE 3's legend
    wins, never a bonus word's, so its winner beside a 2X is legal and paid $10, as with 1X."""
    play = against_audit.play(run)
    play["areas"][0]["bonus"]["prize"] = "C10"
    w75 = next(t for t in play["tiers"] if t["id"] == "w75")
    w75["wins"] = [{"area": "xw", "how": "bonus", "by": 1, "prize": "C10", "prize_cents": 1000}]
    table = pl.read_parquet(run / "pool-p1.parquet")
    rows = table.filter(pl.col("tier") == "w75")
    assert rows.height == 1
    rows = pl.concat([rows.with_columns(pl.lit(k, dtype=pl.UInt8).alias("mult_spot_0"),
                                        pl.lit(1000, dtype=rows.schema["prize_cents"]).alias("prize_cents"))
                      for k in range(4)])
    mine = [multiplies.evaluate(play, r, multiplies.listed(play)) for r in rows.iter_rows(named=True)]
    assert mine == [([("xw", "bonus", 1, "C10")], 1000)] * 4
    pool = json.loads((run / "manifest.json").read_text())["pools"][0]
    audit = evaluate(rows, pool, play)
    assert (audit.illegal, audit.prize_cents.tolist(), audit.wins.tolist()) == ([], [1000] * 4, [1] * 4)
