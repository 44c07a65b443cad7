"""lines layouts (poolgen/styles/lines/) read back here from docs/styles/lines.md alone: a full pool
of Tic Tac Cash (specs/examples/tic_tac_cash.toml) completes exactly each tier's lines and no line of
one decoy; the loader refuses, in one line, what it cannot lay out."""

from __future__ import annotations

import numpy as np
import pytest

from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/tic_tac_cash.toml"
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
X = 0  # the example's pictures: X, O, STAR
LEGEND = {"2": 1, "10": 2, "100": 3}


def test_every_ticket_completes_exactly_its_tiers_lines():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    grid = np.stack([cols[f"ttt_cell_{k}"] for k in range(9)], axis=1).astype(np.int64)
    assert grid.min() >= 0 and grid.max() <= 2
    complete = sum((grid[:, line] == X).all(axis=1).astype(np.int64) for line in LINES)
    decoy_line = np.logical_or.reduce([(grid[:, line] == grid[:, [line[0]]]).all(axis=1)
                                       & (grid[:, line[0]] != X) for line in LINES])
    assert not decoy_line.any()
    want = np.array([next((LEGEND[w.prize.code] for w in spec.play.wins[t.id]), 0)
                     for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(complete, want)
    assert np.bincount((grid[want == 0] == X).sum(axis=1)).size > 4  # losers show several X counts


def _doc(**area: object) -> dict:
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in ("X", "O", "S")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2")]
    base = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": "pic", "symbol": "X",
            "lines": [[0, 1, 2], [3, 4, 5], [6, 7, 8]], "prizes": "pz",
            "legend": [{"lines": 1, "prize": "1"}, {"lines": 2, "prize": "2"}]}
    base.update(area)
    tiers = [{"id": "t", "count": 10, "wins": [{"area": "ln", "prize": "1", "how": "match"}]}]
    return base_doc([base], pictures + prizes, tiers, pool_tickets=100)


@pytest.mark.parametrize(("change", "message"), [
    ({"rows": 5, "cols": 4}, "areas[0].rows: 5 x 4 cells; at most 16"),
    ({"symbol": "Q"}, "areas[0].symbol: 'Q' is not one of the area's pictures"),
    ({"lines": [[0, 1]]}, "areas[0].lines[0]: a line is a list of 3 or more distinct cells 0..8"),
    ({"lines": [[0, 1, 9]]}, "areas[0].lines[0]: a line is a list of 3 or more distinct cells 0..8"),
    ({"lines": [[0, 1, 2], [2, 1, 0]]}, "areas[0].lines[1]: the same line twice"),
    ({"lines": []}, "areas[0].lines: list the lines that win"),
    ({"legend": [{"lines": 4, "prize": "1"}]}, "areas[0].legend[0].lines: must be at most 3, got 4"),
    ({"legend": [{"lines": 2, "prize": "1"}, {"lines": 1, "prize": "2"}]},
     "areas[0].legend[1].lines: the legend lists numbers of lines in increasing order"),
    ({"lines": [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]], "legend": [{"lines": 2, "prize": "1"}]},
     "areas[0].legend: no placement of the symbol completes exactly 2 lines"),  # 3 cells: 1 line, 4: 4
])
def test_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    (tmp_path / "g.toml").write_text(dumps(_doc(**change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_a_legend_prize_no_tier_wins_is_refused(tmp_path):
    """A legend line no tier wins was accepted: every ticket would print a prize that never wins, a field
    nothing uses (docs/styles/lines.md, section 2)."""
    doc = _doc()  # its one tier wins the legend's $1 alone
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].legend[1].prize: not used: no tier wins '2' (every ticket would print it in "
             "the legend, and it could never win)")
    doc["tiers"].append({"id": "u", "count": 5, "wins": [{"area": "ln", "prize": "2", "how": "match"}]})
    (tmp_path / "g.toml").write_text(dumps(doc))
    assert [w.prize.code for w in load_spec(tmp_path / "g.toml").play.wins["u"]] == ["2"]


# A prize per line (lines.md sections 2 and 7): a 3 x 3 grid of 8 lines, each printing its own prize,
# two lines printing $1 (a tier of one $1 may complete either).
LINE_PRIZES = ["1", "1", "2", "3", "3", "3", "9", "9"]
W = {"1": 100, "2": 200, "3": 300, "9": 900}


def _line_doc(tiers: list[dict], **area: object) -> dict:
    doc = _doc(**area)
    doc["areas"][0].pop("legend", None)
    doc["areas"][0]["lines"] = LINES
    doc["areas"][0].setdefault("line_prizes", LINE_PRIZES)
    doc["symbols"] = [s for s in doc["symbols"] if s["group"] != "pz"] + [
        {"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2", "3", "9")]
    doc["tiers"] = tiers
    doc["play"]["max_wins"] = 3
    doc["printed"]["order_tickets"] = doc["printed"]["pool_tickets"] = 2000
    return doc


def _w(*codes: str) -> list[dict]:
    return [{"area": "ln", "prize": c, "how": "match"} for c in codes]


PER_LINE_TIERS = [{"id": "a", "count": 300, "wins": _w("1")}, {"id": "b", "count": 200, "wins": _w("2")},
                  {"id": "c", "count": 100, "wins": _w("3", "3")},
                  {"id": "d", "count": 50, "wins": _w("1", "9")},
                  {"id": "e", "count": 50, "wins": _w("9")}]


def test_a_prize_per_line_completes_exactly_the_lines_printing_the_tiers_prizes(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_line_doc(PER_LINE_TIERS)))
    spec = load_spec(tmp_path / "g.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    grid = np.stack([cols[f"ln_cell_{k}"] for k in range(9)], axis=1).astype(np.int64)
    done = np.stack([(grid[:, line] == X).all(axis=1) for line in LINES], axis=1)
    paid = [sorted(LINE_PRIZES[i] for i in np.flatnonzero(row)) for row in done]
    want = [sorted(w.prize.code for w in spec.play.wins[pool.tiers[t].id]) for t in tiers]
    assert paid == want
    assert sum(c[0] == 1 for c in done[[p == ["1"] for p in paid]].tolist()) not in (0, 300)  # either $1 line


@pytest.mark.parametrize(("tiers", "change", "message"), [
    (PER_LINE_TIERS, {"line_prizes": ["1", "2"]},
     "areas[0].line_prizes: 2 prize(s) for 8 lines: one a line, in the order of `lines`"),
    (PER_LINE_TIERS, {"line_prizes": ["1", "1", "2", "3", "3", "3", "9", "7"]},
     "areas[0].line_prizes[7]: '7' is not one of the area's prize symbols"),
    (PER_LINE_TIERS, {"legend": [{"lines": 1, "prize": "1"}]},
     "areas[0].legend: a lines area pays by `legend` (a prize per number of complete lines) or by "
     "`line_prizes` (a prize per line): one of them"),
    ([{"id": "x", "count": 5, "wins": _w("2", "2")}] + PER_LINE_TIERS, {},
     "tiers[0].wins: area 'ln' (lines): no placement of the symbol completes exactly lines printing 2 + 2"),
    # three $3 lines (columns) complete; with them the rows do too, so 3 x $3 alone is no placement
    ([{"id": "x", "count": 5, "wins": _w("3", "3", "3")}] + PER_LINE_TIERS, {},
     "tiers[0].wins: area 'ln' (lines): no placement of the symbol completes exactly lines printing "
     "3 + 3 + 3"),
    (PER_LINE_TIERS[:3], {},
     "areas[0].line_prizes[6]: not used: no tier wins '9' (every ticket would print it for line 7, and it "
     "could never win)"),
    ([{"id": "x", "count": 5, "wins": _w("5")}], {},
     "tiers[0].wins[0].prize: area 'ln' (lines): prize '5' is not one the lines print"),
])
def test_a_prize_per_line_it_cannot_lay_out_is_refused(tmp_path, tiers, change, message):
    doc = _line_doc(tiers, **change)
    if "legend" in change:
        doc["areas"][0]["legend"] = change["legend"]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


# A prize spot a line (line_prizes = "shown", lines.md section 7 steps 3 and 4).
SHOWN_TIERS = [{"id": "a", "count": 300, "wins": _w("1")}, {"id": "b", "count": 100, "wins": _w("2", "9")},
               {"id": "c", "count": 50, "wins": _w("3", "3", "9")}]


def test_a_prize_spot_a_line_shows_the_tiers_prizes_on_exactly_its_complete_lines(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_line_doc(SHOWN_TIERS, line_prizes="shown")))
    spec = load_spec(tmp_path / "g.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    grid = np.stack([cols[f"ln_cell_{k}"] for k in range(9)], axis=1).astype(np.int64)
    spots = np.stack([cols[f"ln_prize_{i}"] for i in range(8)], axis=1).astype(np.int64)
    codes = ["1", "2", "3", "9"]  # the area's prizes, in group order
    done = np.stack([(grid[:, line] == X).all(axis=1) for line in LINES], axis=1)
    paid = [sorted(codes[spots[r, i]] for i in np.flatnonzero(done[r])) for r in range(len(tiers))]
    want = [sorted(w.prize.code for w in spec.play.wins[pool.tiers[t].id]) for t in tiers]
    assert paid == want
    # a spot of an incomplete line: the pool's mix of wins (1: 300, 2: 100, 3: 100, 9: 150 of 650)
    shown = np.bincount(spots[~done], minlength=4)
    assert shown.sum() == 8 * len(tiers) - 300 - 2 * 100 - 3 * 50
    assert (np.abs(shown / shown.sum() - np.array([300, 100, 100, 150]) / 650) < 0.03).all(), shown


@pytest.mark.parametrize(("tiers", "change", "message"), [
    (SHOWN_TIERS, {"line_prizes": "drawn"},
     "areas[0].line_prizes: a list of the prize printed for each line, or \"shown\" (a prize spot a line)"),
    ([{"id": "x", "count": 5, "wins": _w("1", "2")}],
     {"line_prizes": "shown", "lines": [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]},
     "tiers[0].wins: area 'ln' (lines): no placement of the symbol completes exactly 2 lines"),
    (SHOWN_TIERS[:2], {"line_prizes": "shown"},
     "areas[0].prizes: not used: no tier wins '3' (no line's prize spot would ever show it)"),
])
def test_a_prize_spot_a_line_it_cannot_lay_out_is_refused(tmp_path, tiers, change, message):
    doc = _line_doc(tiers, **change)
    doc["areas"][0].update(change)
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_a_prize_spot_a_line_is_drawn_with_the_line_prizes_not_as_a_grid_cell(tmp_path):
    """The proofs' grid is the R x C cells alone: the spots' codes (prize indexes) were drawn as pictures
    after the cells (a held-out proof of fl_loteria showed 26 pictures on its 4 x 4 board, one a '?')."""
    (tmp_path / "g.toml").write_text(dumps(_line_doc(SHOWN_TIERS, line_prizes="shown")))
    area = load_spec(tmp_path / "g.toml").play.areas[0]
    row = {f"ln_cell_{k}": 0 for k in range(9)} | {f"ln_prize_{i}": 3 for i in range(8)}
    (grid_title, cells), (prize_title, prizes) = area.module.face(area.id, area.params, row)
    assert [c[0] for c in cells] == [f"ln_cell_{k}" for k in range(9)]
    assert prize_title == "LINE PRIZES"
    assert [(c[0], c[1]) for c in prizes] == [(f"ln_prize_{i}", f"LINE {i + 1}") for i in range(8)]
