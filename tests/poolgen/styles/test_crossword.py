"""crossword layouts (poolgen/styles/crossword/) read back by a reader written here from
docs/styles/crossword.md alone: a full pool of Super Red Hot Crossword
(specs/examples/super_red_hot_crossword.toml) completes exactly each tier's words and holds no word
outside the list; the loader refuses, in one line, every grid and legend it cannot lay out."""

from __future__ import annotations

import dataclasses
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from poolgen.rng import derive_stream
from poolgen.styles.crossword.fill import letter_sets
from tests.support import SEED_A
from tests.support.cli import invoke, one_line
from tests.support.laid_out import laid_out_first_pool
from tests.support.spec_docs import dumps

EXAMPLE = "specs/examples/super_red_hot_crossword.toml"
WORDS = "poolgen/styles/crossword/words.txt"
LEGEND = {"5": 4, "10": 5, "15": 6, "20": 7, "50": 8, "100": 9, "500": 10, "1000": 11, "10000": 12,
          "100000": 13}  # the example's legend: prize code -> completed words


def listed() -> set[str]:
    lines = Path(WORDS).read_text(encoding="utf-8").splitlines()
    return {w for w in lines if w and not w.startswith("#")}


def runs(rows: list[str]) -> list[list[int]]:
    """The contract's words of a grid (section 2): maximal runs of 2+ letter cells, as cell numbers."""
    number = {(i, j): 0 for i, row in enumerate(rows) for j, ch in enumerate(row) if ch == "."}
    for k, rc in enumerate(sorted(number)):
        number[rc] = k
    out = []
    for di, dj in ((0, 1), (1, 0)):
        for (i, j) in sorted(number):
            if (i - di, j - dj) in number or (i + di, j + dj) not in number:
                continue
            run = []
            while (i, j) in number:
                run.append(number[(i, j)])
                i, j = i + di, j + dj
            out.append(run)
    return out


@pytest.fixture(scope="module")
def full_pool():
    return laid_out_first_pool(EXAMPLE)


def test_the_full_pool_completes_exactly_each_tiers_words(full_pool):
    spec, pool, tiers, cols = full_pool
    area = spec.play.areas[0]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert [s.code for s in area.params.alphabet] == list(alphabet)
    letters = np.stack([cols[f"puzzle_letter_{j}"] for j in range(20)], axis=1).astype(np.int64)
    assert letters.shape == (240_000, 20)
    assert (np.sort(letters, axis=1)[:, 1:] != np.sort(letters, axis=1)[:, :-1]).all()  # 20 distinct
    have = np.zeros(letters.shape[0], dtype=np.int64)
    for j in range(20):
        have |= np.left_shift(1, letters[:, j])
    words = listed()
    completed = np.zeros(letters.shape[0], dtype=np.int64)
    offset, checked = 0, 0
    for grid in area.params.grids:
        for run in runs(list(grid.rows)):
            codes = np.stack([cols[f"puzzle_cell_{offset + c}"] for c in run], axis=1).astype(np.int64)
            packed = np.unique((codes * 26 ** np.arange(len(run))).sum(axis=1)).tolist()
            spelt = {"".join(alphabet[v // 26 ** k % 26] for k in range(len(run))) for v in packed}
            assert spelt <= words, spelt - words
            completed += ((have[:, None] >> codes) & 1).all(axis=1)
            checked += 1
        offset += len(grid.cells)
    assert checked == 20 and offset == sum(r.count(".") for g in area.params.grids for r in g.rows)
    want = np.zeros(len(pool.tiers), dtype=np.int64) - 1
    for i, t in enumerate(pool.tiers):
        won = [w for w in spec.play.wins[t.id] if w.area == "puzzle"]
        want[i] = LEGEND[won[0].prize.code] if won else -1
    need = want[tiers]
    np.testing.assert_array_equal(completed[need >= 0], need[need >= 0])
    assert (completed[need < 0] <= 3).all()
    assert np.bincount(completed[need < 0]).tolist()[0] > 0  # losers complete 0 to 3 words


def test_reproducible_from_the_stream(full_pool):
    spec, pool, tiers, cols = full_pool
    pool = dataclasses.replace(pool, tickets=2000)
    again = spec.play.lay_out(spec, pool, tiers[:2000],
                              derive_stream(SEED_A, "test", "layout"))
    other = spec.play.lay_out(spec, pool, tiers[:2000], derive_stream(SEED_A, "test", "other"))
    first = spec.play.lay_out(spec, pool, tiers[:2000], derive_stream(SEED_A, "test", "layout"))
    assert list(again) == list(cols)
    assert all((again[c] == first[c]).all() for c in again)
    assert any((again[c] != other[c]).any() for c in again)


def _doc(**area: object) -> dict:
    letters = [{"group": "abc", "code": ch, "symbol": ch} for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    prizes = [{"group": "legend", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("1", "2", "5")]
    base = {"id": "cw", "style": "crossword", "letters": 20, "alphabet": "abc", "prizes": "legend",
            "grids": [["....#", ".#.##", ".#..."]],
            "legend": [{"words": 3, "prize": "1"}, {"words": 4, "prize": "2"}]}
    base.update(area)
    base = {k: v for k, v in base.items() if v is not None}
    return {"format": 2,
            "game": {"id": "cw_game", "name": "CW", "number": 9, "regulation": "none", "source": "tests",
                     "prize_table": "designed"},
            "printed": {"price": "1.00", "order_tickets": 500, "pool_tickets": 500, "first_ticket": 0,
                        "last_ticket": 49, "counts_per": "pool"},
            "play": {"max_wins": 1}, "areas": [base], "symbols": letters + prizes,
            "tiers": [{"id": "t3", "count": 50, "wins": [{"area": "cw", "prize": "1", "how": "match"}]}]}


@pytest.mark.parametrize(("change", "message"), [
    ({"grids": [["....", "#..."]]}, "areas[0].grids[0]: a word of 2 letters"),
    ({"grids": [["...", ".#.", "..."]]}, "areas[0].grids[0]: the grid's words cross in a loop"),
    ({"grids": [["...#.", "#####"]]}, "areas[0].grids[0]: the letter at row 1, column 5 is in no word"),
    ({"grids": [["..x"]]}, "areas[0].grids[0]: a grid's rows hold only '.' (a letter) and '#'"),
    ({"grids": [["...", "...."]]}, "areas[0].grids[0]: the rows of a grid are strings of one length"),
    ({"colours": ["crimson"]}, "areas[0].colours: one colour per grid"),
    ({"legend": [{"words": 4, "prize": "1"}, {"words": 3, "prize": "2"}]},
     "areas[0].legend[1].words: the legend lists numbers of words in increasing order"),
    ({"legend": [{"words": 3, "prize": "9"}]}, "areas[0].legend[0].prize: '9' is not one of the area's"),
    ({"legend": [{"words": 3, "prize": "1"}, {"words": 4, "prize": "1"}]},
     "areas[0].legend[1].prize: prize '1' is already the legend's for another number"),
    ({"legend": [{"words": 3, "prize": "1", "by": 2}]}, "areas[0].legend[0].by: unknown field"),
    ({"legend": [{"words": 9, "prize": "1"}]}, "areas[0].legend: 9 completed words; the grids hold 4"),
    ({"letters": 4, "legend": [{"words": 4, "prize": "1"}]},
     "areas[0].legend: 4 completed words: none of 16,384 draws"),
    ({"letters": 27}, "areas[0].letters: must be at most 26, got 27"),
    ({"letters": 13}, "areas[0].letters: more than 2,000,000 sets of 13 letters of 26"),
])
def test_grids_and_legends_it_cannot_lay_out_are_refused(tmp_path, change, message):
    doc = _doc(**change)
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: {message}")


@pytest.mark.parametrize("letters", [8, 18])
def test_eighteen_your_letters_of_26_are_read_and_laid_out(tmp_path, letters):
    """18 YOUR LETTERS (Minnesota's Cashtastic Crossword, specs/examples/cashtastic_crossword.toml) are
    C(26, 18) = 1,562,275 sets, as are 8: within the bound, so `check` accepts the area and its pool is
    laid out, every ticket showing that many distinct letters."""
    doc = _doc(letters=letters, legend=[{"words": 1, "prize": "1"}])
    (tmp_path / "g.toml").write_text(dumps(doc))
    result = invoke("check", tmp_path / "g.toml")
    assert result.exit_code == 0, result.output
    _, pool, _, cols = laid_out_first_pool(str(tmp_path / "g.toml"))
    shown = np.stack([cols[f"cw_letter_{j}"] for j in range(letters)], axis=1)
    assert shown.shape == (pool.tickets, letters)
    assert all(len(set(row)) == letters for row in shown.tolist())


@pytest.mark.parametrize(("win", "field", "message"), [
    ({"area": "cw", "prize": "5", "how": "match"}, "prize", "prize '5' is not one the legend lists"),
    ({"area": "cw", "prize": "1", "how": "reveal"}, "how", "how = 'reveal': a crossword win is \"match\""),
    ({"area": "cw", "prize": "1", "how": "match", "by": 2}, "by",
     "the legend's prize wins as listed: no `by`"),
])
def test_wins_the_legend_does_not_give_are_refused_naming_the_field(tmp_path, win, field, message):
    doc = _doc()
    doc["tiers"][0]["wins"] = [win]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen", f"g.toml: tiers[0].wins[0].{field}: area 'cw' "
                                                              f"(crossword): {message}")


def test_two_legend_prizes_in_one_tier_are_refused(tmp_path):
    doc = _doc()
    doc["play"]["max_wins"] = 2
    doc["tiers"][0]["wins"] = [{"area": "cw", "prize": "1", "how": "match"},
                               {"area": "cw", "prize": "2", "how": "match"}]
    (tmp_path / "g.toml").write_text(dumps(doc))
    one_line(invoke("check", tmp_path / "g.toml"), "poolgen",
             "g.toml: tiers[0].wins: area 'cw' (crossword): a ticket wins one legend prize (only the "
             "highest)")




@pytest.mark.parametrize(("alphabet", "shown"), [(a, s) for a in range(1, 13) for s in range(a + 1)]
                         + [(26, 20), (25, 19), (27, 21)])
def test_the_letter_sets_are_in_the_lexicographic_order_of_itertools_combinations(alphabet, shown):
    """A layout draws the k-th fitting set in this order (contract section 7), so the order built from
    blocks of halves and reversed bits must be combinations(range(alphabet), alphabet - shown)'s,
    set for set."""
    want = [sum(1 << c for c in combo) for combo in combinations(range(alphabet), alphabet - shown)]
    assert letter_sets(alphabet, shown).tolist() == want
