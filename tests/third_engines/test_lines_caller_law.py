"""The law of a caller's tickets (docs/styles/lines.md, section 7 step 1b, and section 8) worked out by the
third engine (tests/third_engines/lines_caller.py `law`: every draw of step 1b enumerated) on a deck of
5 pictures, a caller of 3 and a board of 3 cells in one line, and held by chi-square to three generated
pools of 3,000 tickets (1,000 winners, 2,000 losers each)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest
from scipy.stats import chisquare

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A, SEED_B
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import lines_caller as lc

P, N, CELLS, LINES = 5, 3, 3, [[0, 1, 2]]
SEEDS = (SEED_A, SEED_B, bytes(range(2, 34)))
AREA = {"id": "b", "style": "lines", "rows": 1, "cols": CELLS, "pictures": "deck", "calls": N, "lines": LINES,
        "prizes": "pz", "legend": [{"lines": 1, "prize": "A"}]}


@pytest.fixture(scope="module")
def tables(tmp_path_factory) -> list[pl.DataFrame]:
    root = tmp_path_factory.mktemp("caller_law")
    tiers = [{"id": "w", "count": 1000, "wins": [{"area": "b", "prize": "A", "how": "match"}]}]
    deck = [{"group": "deck", "code": f"K{i}", "symbol": f"K{i}"} for i in range(1, P + 1)]
    money = [{"group": "pz", "code": "A", "symbol": "$1.00", "value": "1.00"}]
    (root / "g.toml").write_text(dumps(base_doc([AREA], deck + money, tiers, pool_tickets=3000)))
    spec = load_spec(root / "g.toml")
    out = []
    for k, seed in enumerate(SEEDS):
        run = generate(GenerateRequest(spec, seed, now=datetime(2026, 1, 2, tzinfo=UTC), out=root,
                                       run_id=f"r{k}")).folder
        out.append(pl.read_parquet(Path(run) / "pool-p1.parquet"))
    return out


def _layouts(tables: list[pl.DataFrame], tier: str) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    rows = pl.concat(tables).filter(pl.col("tier") == tier)
    calls = rows.select([f"b_call_{j}" for j in range(N)]).rows()
    cells = rows.select([f"b_cell_{k}" for k in range(CELLS)]).rows()
    return list(zip(calls, cells, strict=True))


def _relative(layout: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[tuple[str, int], ...]:
    """The board as the caller marks it: each cell the caller's place of its picture, or (unmarked) the
    rank of its picture among the pictures not called."""
    caller, board = layout
    others = sorted(set(range(P)) - set(caller))
    return tuple(("c", caller.index(v)) if v in caller else ("u", others.index(v)) for v in board)


def _marked(layout: tuple[tuple[int, ...], tuple[int, ...]]) -> int:
    return sum(v in layout[0] for v in layout[1])


def _test(seen: list, law: dict, key) -> float:
    """Chi-square p-value of the keys of `seen` against the law of the key under `law`."""
    expected: Counter = Counter()
    for layout, chance in law.items():
        expected[key(layout)] += chance
    observed = Counter(key(x) for x in seen)
    assert set(observed) <= set(expected), set(observed) - set(expected)
    cats = sorted(expected)
    expect = [float(expected[c]) * len(seen) for c in cats]
    return float(chisquare([observed[c] for c in cats], expect).pvalue)


@pytest.mark.parametrize(("complete", "size"), [(0, 60 * 54), (1, 60 * 6)])
def test_step_1b_gives_every_caller_and_board_that_pays_the_tier_alike(complete, size):
    """Section 7's "why the layout is uniform", from the draws themselves: a loser's 3,240 layouts (a
    caller of 3 of 5 in order; one or two of its cards on the board, the rest of the 2 not called) and a
    winner's 360 each come with probability exactly 1/size."""
    law = lc.law(P, N, CELLS, LINES, complete)
    assert len(law) == size and set(law.values()) == {Fraction(1, size)}


def test_generated_losers_follow_the_law_of_step_1b(tables):
    law = lc.law(P, N, CELLS, LINES, 0)
    seen = _layouts(tables, "lose")
    assert len(seen) == 6000
    assert all(lc.complete_lines(LINES, {k for k, v in enumerate(b) if v in c}) == [] for c, b in seen)
    assert _test(seen, law, _relative) > 0.001  # 54 boards as the caller marks them
    assert _test(seen, law, lambda x: x[0]) > 0.001  # 60 callers in order
    assert _test(seen, law, _marked) > 0.001  # 1 card marked (1/3) or 2 (2/3)


def test_generated_winners_follow_the_law_of_step_1b(tables):
    law = lc.law(P, N, CELLS, LINES, 1)
    seen = _layouts(tables, "w")
    assert len(seen) == 3000
    assert _test(seen, law, lambda x: x) > 0.001  # all 360 layouts
    assert _test(seen, law, lambda x: x[0]) > 0.001


def test_the_chi_square_refuses_placements_drawn_alike_without_their_weights(tables):
    """The test can fail: drawn without step 1b's weights w(m) (every losing placement alike), a loser
    would mark 2 cards half the time, not two thirds: the 6,000 generated losers refute that law."""
    wrong = {layout: Fraction(1, 2 * 18 * 60) if _marked(layout) == 1 else Fraction(1, 2 * 36 * 60)
             for layout in lc.law(P, N, CELLS, LINES, 0)}
    assert sum(wrong.values()) == 1
    assert _test(_layouts(tables, "lose"), wrong, _marked) < 1e-9


def test_step_1b_as_written_draws_every_generated_layout_again_from_the_seed(tables):
    """Section 7 step 1b followed word for word (the weighted placements of the tier's rows, then
    `row_permutations(P)` for all of them, then `row_permutations(N)`; randomness.md's neighbour rule,
    books of 50) gives the first pool's every cell and call from SEED_A alone."""
    area = AREA | {"pictures": [f"K{i}" for i in range(1, P + 1)]}
    at, cols = lc.lay_out(SEED_A, "test_game", "p1", area, [("lose", 2000, []), ("w", 1000, ["A"])], 3000, 50)
    assert at == tables[0]["tier"].to_list()
    assert cols == {c: tables[0][c].to_list() for c in cols}


def test_step_1b_says_the_deck_permutations_of_all_the_tiers_rows_come_before_the_callers_places(tables):
    """Step 1b's pictures read "per row: row_permutations(P) ..., then row_permutations(N)", which also
    reads as D then S for one row, then the next row's: that reading draws other pools (the engine's
    `row_by_row`), so the contract says which (the generator draws all of the tier's D, then its S)."""
    area = AREA | {"pictures": [f"K{i}" for i in range(1, P + 1)]}
    _, cols = lc.lay_out(SEED_A, "test_game", "p1", area, [("lose", 2000, []), ("w", 1000, ["A"])], 3000, 50,
                         row_by_row=True)
    assert cols["b_call_0"] != tables[0]["b_call_0"].to_list()
    doc = (ROOT / "docs" / "styles" / "lines.md").read_text()
    step = " ".join(doc.split("1b. (`calls` only")[1].split("\n4. ")[0].split())
    assert "`row_permutations(P)` for all of the tier's rows (D below, a row each), then" in step
