"""lines areas marked by a caller (`calls`, docs/styles/lines.md sections 1b, 2 and 7, step 1b), read back
here from the contract alone: the weights of step 1b are exactly the boards (counted by brute force) that
pay each tier given the caller; every layout of every tier of the Loteria example
(specs/examples/fl_loteria_caller.toml) pays exactly its tier, its caller and board of different pictures,
and a loser marks no line; a property over small areas; and the loader refuses, in one line, what it
cannot lay out."""

from __future__ import annotations

import hashlib
import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from poolgen.game.model import Symbol
from poolgen.game.play import Win
from poolgen.loader import load_spec
from poolgen.rng import derive_stream
from poolgen.styles.lines import caller
from poolgen.styles.lines.placements import Params, marked, valid_sets
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/fl_loteria_caller.toml"
GRID_LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]


def _complete(calls: np.ndarray, board: np.ndarray, lines: list[list[int]]) -> np.ndarray:
    """Per row and line: whether every cell of the line shows one of the row's calls (section 1b)."""
    marked_ = (board[:, :, None] == calls[:, None, :]).any(axis=2)
    return np.stack([marked_[:, line].all(axis=1) for line in lines], axis=1)


def _params(rows: int, cols: int, pictures: int, calls: int, lines: list[list[int]]) -> Params:
    deck = tuple(Symbol(index=i, group="deck", code=f"P{i}", symbol=f"P{i}", caption="")
                 for i in range(pictures))
    prize = (Symbol(index=pictures, group="pz", code="1", symbol="$1", caption="", cents=100),)
    return Params(rows, cols, deck, (), tuple(map(tuple, lines)), prize, (), shown=True, calls=calls)


def _wins(params: Params, n: int) -> list[Win]:
    return [Win(area="ln", how="match", by=1, prize=params.prizes[0])] * n


def test_step_1b_weights_count_exactly_the_boards_that_pay_each_tier_given_the_caller():
    """A 2 x 3 board of two row lines, 9 pictures, 6 called (pictures 0..5): every board of 6 different
    pictures (60,480) counted by brute force by its number of complete lines; the weights of step 1b,
    summed over the placements it draws among, are exactly those counts (so the layout is uniform)."""
    lines = [[0, 1, 2], [3, 4, 5]]
    params = _params(2, 3, 9, 6, lines)
    counts = {0: 0, 1: 0, 2: 0}
    for board in itertools.permutations(range(9), 6):
        counts[sum(all(board[c] < 6 for c in line) for line in lines)] += 1
    assert counts == {0: 32400, 1: 27360, 2: 720}  # 2 x 120 x (120 - 3!) one line; 6! both
    sizes = marked(6)
    for n, want in counts.items():
        valid = valid_sets(params, _wins(params, n))
        assert sum(caller.weight(params, int(sizes[v])) for v in valid) == want


def test_placements_no_caller_and_board_can_show_are_left_out():
    """3 x 3, 12 pictures, 4 called: a placement needs m <= 4 marked cells and 9 - m <= 8 unmarked ones,
    so two lines (5 cells at least) are never drawn and a loser shows 1 to 4 marked cells."""
    params = _params(3, 3, 12, 4, GRID_LINES)
    assert valid_sets(params, _wins(params, 2)).size == 0
    losers = valid_sets(params, [])
    assert sorted(set(marked(9)[losers].tolist())) == [1, 2, 3, 4]
    # a line, and none or one of the 6 other cells (one more cell never completes a second line of 3)
    assert valid_sets(params, _wins(params, 1)).size == 8 * (1 + 6)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 3), st.integers(3, 4), st.integers(0, 6), st.data())
def test_every_layout_pays_exactly_its_tier_with_different_pictures(rows, cols, extra, data):
    """Any small board (its rows as lines, and its columns when 3 or more rows), any deck of RC to RC + 6
    pictures, any number called, any tier some caller and board can show: every row drawn marks exactly
    the tier's number of lines, its caller and board each of different pictures within the deck."""
    cells = rows * cols
    lines = [list(range(r * cols, (r + 1) * cols)) for r in range(rows)]
    lines += [list(range(c, cells, cols)) for c in range(cols)] if rows >= 3 else []
    pictures = cells + extra
    calls = data.draw(st.integers(1, pictures - 1))
    params = _params(rows, cols, pictures, calls, lines)
    feasible = [n for n in range(len(lines) + 1) if valid_sets(params, _wins(params, n)).size]
    n = data.draw(st.sampled_from(feasible)) if feasible else None
    if n is None:
        return
    stream = derive_stream(SEED_A, "test", "caller", str(rows), str(cols), str(pictures), str(calls))
    chosen = caller.choose(params, valid_sets(params, _wins(params, n)), 40, stream)
    bits = ((chosen[:, None] >> np.arange(cells)) & 1).astype(bool)
    called, board = caller.pictures(params, bits, stream)
    assert called.shape == (40, calls) and board.shape == (40, cells)
    assert ((called >= 0) & (called < pictures)).all() and ((board >= 0) & (board < pictures)).all()
    assert all(len(set(r)) == calls for r in called.tolist())
    assert all(len(set(r)) == cells for r in board.tolist())
    assert (_complete(called, board, lines).sum(axis=1) == n).all()
    assert ((board[:, :, None] == called[:, None, :]).any(axis=2) == bits).all()


def _example_rows(per_tier: int) -> tuple[object, object, np.ndarray, dict[str, np.ndarray]]:
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    tiers = np.repeat(np.arange(len(pool.tiers)), per_tier)
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    return spec, pool, tiers, cols


def test_every_tier_of_the_loteria_example_lays_out_exactly_and_losers_mark_no_line():
    """40 rows of each of the 22 tiers (the losing one too): each marks exactly the lines its tier pays,
    their prize spots showing its prizes; a loser marks none."""
    spec, pool, tiers, cols = _example_rows(40)
    area = spec.play.areas[0]
    lines = [list(x) for x in area.params.lines]
    called = np.stack([cols[f"board_call_{j}"] for j in range(14)], axis=1).astype(np.int64)
    board = np.stack([cols[f"board_cell_{k}"] for k in range(16)], axis=1).astype(np.int64)
    spots = np.stack([cols[f"board_prize_{i}"] for i in range(10)], axis=1).astype(np.int64)
    done = _complete(called, board, lines)
    assert all(len(set(r)) == 14 for r in called.tolist()) and all(len(set(r)) == 16 for r in board.tolist())
    codes = [s.code for s in area.params.prizes]
    for t, tier in enumerate(pool.tiers):
        rows = np.flatnonzero(tiers == t)
        want = sorted(w.prize.code for w in spec.play.wins[tier.id])
        for r in rows.tolist():
            assert sorted(codes[s] for s in spots[r][done[r]]) == want, (tier.id, r)
    lose = next(t for t, tier in enumerate(pool.tiers) if tier.prize_cents == 0)
    assert not done[tiers == lose].any()
    assert int(done.sum()) == 40 * sum(len(spec.play.wins[t.id]) for t in pool.tiers)


def test_loteria_example_lays_out_as_pinned():
    """The SHA-256 of the example's layout columns and play entry for 10 rows of each tier, recorded when
    `calls` joined the style: a change to step 1b's draws shows here."""
    spec, _, _, cols = _example_rows(10)
    digest = hashlib.sha256()
    for key in sorted(cols):
        digest.update(key.encode())
        digest.update(np.ascontiguousarray(cols[key]).tobytes())
    digest.update(json.dumps(spec.play.document(), sort_keys=True, default=str).encode())
    assert digest.hexdigest() == PINNED


PINNED = "57ac99c67297fa85f13d2530adae31c88d0da8fae9de734943092803a1f20466"


def _doc(**area: object) -> dict:
    deck = [{"group": "deck", "code": f"C{i}", "symbol": f"card {i}"} for i in range(12)]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": "deck", "calls": 5,
            "lines": GRID_LINES, "prizes": "pz",
            "legend": [{"lines": 1, "prize": "1"}, {"lines": 2, "prize": "2"}]}
    base.update(area)
    tiers = [{"id": f"l{n}", "count": c, "wins": [{"area": "ln", "prize": p, "how": "match"}]}
             for n, p, c in ((1, "1", 300), (2, "2", 30))]
    return base_doc([base], deck + prizes, tiers)


@pytest.mark.parametrize(("change", "message"), [
    ({"symbol": "C0"}, "areas[0].symbol: a lines area with `calls` marks the cells the caller's pictures "
                       "show: no `symbol` or `symbols`"),
    ({"calls": 12}, "areas[0].calls: must be at most 11, got 12"),
    ({"calls": 0}, "areas[0].calls: must be at least 1, got 0"),
    ({"calls": 4}, "areas[0].legend: no placement of the marked cells completes exactly 2 lines"),
    ({"calls": 11, "legend": [{"lines": 4, "prize": "1"}, {"lines": 5, "prize": "2"}]},  # 8 or 9 marked
     "areas[0].lines: every placement of the marked cells completes a line: no ticket could "
                    "show none"),
])
def test_the_loader_refuses_a_caller_it_cannot_lay_out(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_the_loader_refuses_a_deck_smaller_than_the_board(tmp_path):
    doc = _doc()
    doc["symbols"] = [s for s in doc["symbols"] if s["group"] != "deck" or int(s["code"][1:]) < 8]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].pictures: 8 pictures for 9 cells: a board marked by a caller shows each "
             "picture at most once (9 to 255 pictures)")


def test_the_proof_explains_a_called_line_and_outlines_the_caller_cards_that_mark_it(tmp_path):
    """A row whose top row is called (cards C3, C4, C5 among the caller's C5, C4, C3, C9, C0): the proof
    says why it pays, and outlines the three board cells and the three caller's cards that mark them."""
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    area = load_spec(tmp_path / "g.toml").play.areas[0]
    row = {f"ln_cell_{k}": v for k, v in enumerate([3, 4, 5, 0, 6, 7, 8, 10, 11])} | \
        {f"ln_call_{j}": v for j, v in enumerate([5, 4, 3, 9, 0])}
    said, outlined = area.module.explain("ln", area.params, row)
    assert said == ["ln: 1 complete line(s) of called pictures: the legend's prize, $1.00."]
    assert outlined == {"ln_cell_0", "ln_cell_1", "ln_cell_2", "ln_call_0", "ln_call_1", "ln_call_2"}
    titles = [title for title, _ in area.module.face("ln", area.params, row)]
    assert titles == ["BOARD", "CALLED", "PRIZE LEGEND"]
