"""lines areas of several line-making symbols (`symbols`, docs/styles/lines.md sections 1a, 2 and 7),
read back here from the contract alone: the placements step 1 draws from are exactly the boards that
pay a tier (every board counted by brute force); every ticket of a Tic Tac Bonus pool
(specs/examples/ca_tic_tac_bonus.toml) completes exactly its tier's lines, X's or O's, its lines' spots
showing its prizes, and a loser no line of either; with decoys, no line of one decoy; and the loader
refuses, in one line, what it cannot lay out."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from poolgen.game.play import Win
from poolgen.loader import load_spec
from poolgen.rng import derive_stream, permutation
from poolgen.styles.lines.placements import valid_sets
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import base_doc, dumps

EXAMPLE = "specs/examples/ca_tic_tac_bonus.toml"
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]


def _complete(grid: np.ndarray, makers: list[int]) -> np.ndarray:
    """Per row and line: whether the line's cells all show one of `makers`, the same (section 5)."""
    return np.stack([(grid[:, line] == grid[:, [line[0]]]).all(axis=1) & np.isin(grid[:, line[0]], makers)
                     for line in LINES], axis=1)


def _doc(decoys: int = 2, **area: object) -> dict:
    pictures = [{"group": "pic", "code": c, "symbol": c} for c in ("X", "O", "STAR", "MOON")[:2 + decoys]]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2", "5")]
    base = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": "pic", "symbols": ["X", "O"],
            "lines": LINES, "prizes": "pz",
            "legend": [{"lines": 1, "prize": "1"}, {"lines": 2, "prize": "2"}, {"lines": 3, "prize": "5"}]}
    base.update(area)
    tiers = [{"id": f"l{n}", "count": c, "wins": [{"area": "ln", "prize": p, "how": "match"}]}
             for n, p, c in ((1, "1", 300), (2, "2", 120), (3, "5", 30))]
    return base_doc([base], pictures + prizes, tiers, pool_tickets=2000)


@pytest.mark.parametrize("decoys", [0, 2])
def test_step_1_draws_among_exactly_the_boards_of_each_number_of_lines(tmp_path, decoys):
    """Every board of classes (X, O, and a decoy when the area has decoys) counted by brute force: the
    placements of each number of complete lines are exactly those, in increasing order of the number
    whose base-K digit k is cell k's class (section 7, step 1)."""
    (tmp_path / "g.toml").write_text(dumps(_doc(decoys)))
    spec = load_spec(tmp_path / "g.toml")
    params = spec.play.areas[0].params
    classes = (["D"] if decoys else []) + ["X", "O"]
    want: dict[int, list[int]] = {}
    for number, board in enumerate(itertools.product(range(len(classes)), repeat=9)):
        cells = [classes[c] for c in reversed(board)]  # cell 0 the least significant digit
        n = sum(len({cells[k] for k in line}) == 1 and cells[line[0]] != "D" for line in LINES)
        want.setdefault(n, []).append(number)
    assert sum(map(len, want.values())) == len(classes) ** 9
    for n in (0, 1, 2, 3):
        wins = tuple(spec.play.wins[f"l{n}"]) if n else ()
        assert valid_sets(params, wins).tolist() == want[n], n


def test_every_tic_tac_bonus_ticket_completes_exactly_its_tiers_lines():
    spec = load_spec(EXAMPLE)
    pool = spec.pools[-1]  # p61: 97,700 tickets, every tier
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    prize_codes = [s.code for s in spec.play.areas[0].params.prizes]
    made_by = np.zeros(2, dtype=np.int64)
    for g in ("game1", "game2"):
        grid = np.stack([cols[f"{g}_cell_{k}"] for k in range(9)], axis=1).astype(np.int64)
        spots = np.stack([cols[f"{g}_prize_{i}"] for i in range(8)], axis=1).astype(np.int64)
        assert set(np.unique(grid)) == {0, 1}  # X and O only: no decoys
        done = _complete(grid, [0, 1])
        won = [next((w.prize.code for w in spec.play.wins[t.id] if w.area == g), None) for t in pool.tiers]
        want = np.array([w is not None for w in won])[tiers]
        np.testing.assert_array_equal(done.sum(axis=1), want.astype(np.int64))  # one line a winner, 0 a loser
        rows, line = np.nonzero(done)
        assert [prize_codes[c] for c in spots[rows, line]] == [won[t] for t in tiers[rows]]
        made_by += np.bincount(grid[rows, np.array(LINES)[line, 0]], minlength=2)
    assert made_by.min() > 0.45 * made_by.sum()  # X's and O's both make lines (exchangeable, section 8)


def test_with_decoys_no_line_shows_one_decoy_and_each_tier_completes_its_number(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc(2)))
    spec = load_spec(tmp_path / "g.toml")
    pool = spec.pools[0]
    base = np.repeat(np.arange(len(pool.tiers)), [t.count for t in pool.tiers])
    tiers = base[permutation(derive_stream(SEED_A, "test", "order"), base.size)]
    cols = spec.play.lay_out(spec, pool, tiers, derive_stream(SEED_A, "test", "layout"))
    grid = np.stack([cols[f"ln_cell_{k}"] for k in range(9)], axis=1).astype(np.int64)
    assert not _complete(grid, [2, 3]).any()  # rule 2: no line of STAR alone, none of MOON
    want = np.array([{"1": 1, "2": 2, "5": 3}[spec.play.wins[t.id][0].prize.code] if spec.play.wins[t.id]
                     else 0 for t in pool.tiers])[tiers]
    np.testing.assert_array_equal(_complete(grid, [0, 1]).sum(axis=1), want)
    assert {int(v) for v in np.unique(grid)} == {0, 1, 2, 3}


@pytest.mark.parametrize(("change", "message"), [
    ({"symbol": "X"}, "areas[0].symbol: a lines area names one `symbol` or a list of `symbols`: one of them"),
    ({"symbols": ["X", "Q"]}, "areas[0].symbols[1]: 'Q' is not one of the area's pictures"),
    ({"symbols": ["X", "X"]}, "areas[0].symbols[1]: 'X' twice"),
    ({"symbols": ["X"]}, "areas[0].symbols: a list of 2 or more of the area's pictures (a single one is "
                         "`symbol`)"),
    ({"rows": 4, "cols": 4, "lines": [[0, 1, 2]]},
     "areas[0].symbols: 3 classes of cell on 16 cells: 3^16 placements; at most 1,048,576"),
    ({"rows": 1, "cols": 5, "lines": [list(t) for t in itertools.combinations(range(5), 3)],
      "legend": [{"lines": 1, "prize": "1"}]},  # 5 cells of 2 symbols: 3 alike, some triple complete
     "areas[0].lines: every placement of the symbols completes a line: no ticket could show none"),
    ({"lines": [[0, 1, 2]]}, "areas[0].legend[1].lines: must be at most 1, got 2"),
])
def test_symbols_areas_it_cannot_lay_out_are_refused(tmp_path, change, message):
    decoys = 0 if "rows" in change and change["rows"] == 1 else 2
    (tmp_path / "g.toml").write_text(dumps(_doc(decoys, **change)))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


def test_one_decoy_beside_the_symbols_is_refused(tmp_path):
    doc = _doc(2)
    doc["symbols"] = [s for s in doc["symbols"] if s["code"] != "MOON"]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].pictures: the symbols alone, or the symbols and at least 2 decoy pictures")


def test_a_legend_number_no_board_of_the_symbols_makes_is_refused(tmp_path):
    """No board of X's and O's completes exactly 7 of a 3 x 3 grid's 8 lines."""
    doc = _doc(0, legend=[{"lines": 7, "prize": "1"}])
    doc["tiers"] = [{"id": "t", "count": 5, "wins": [{"area": "ln", "prize": "1", "how": "match"}]}]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: areas[0].legend: no placement of the symbols completes exactly 7 lines")


def test_wins_of_a_symbols_area_read_as_one_symbols(tmp_path):
    (tmp_path / "g.toml").write_text(dumps(_doc(2)))
    spec = load_spec(tmp_path / "g.toml")
    assert spec.play.document()["areas"][0]["symbols"] == ["X", "O"]
    assert "symbol" not in spec.play.document()["areas"][0]
    assert all(isinstance(w, Win) for ws in spec.play.wins.values() for w in ws)
