"""The third engine for crossword, lines and add_up plays (tests/third_engines/grid.py, written from
docs/styles/crossword.md, lines.md, add_up.md and play.md alone) against audit's step 4 on small runs of
the examples (Super Red Hot Crossword, Tic Tac Cash, Cool 7's: a prize per line, Lucky 21, and Lucky 21
winning on 21 exactly), a designed crossword of a legend a grid and a bonus word, and a designed game of
all three styles on one ticket (a 4 x 4 grid with a line of any cells, legends with gaps): every
generated row is legal and pays its stored prize by both; every tampered row is refused by both, with
audit's very reasons and amount."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_example
from tests.support.spec_docs import base_doc, crossword_legends_doc, dumps
from tests.third_engines import against_audit, grid

Row = dict
GAMES = {"crossword": ("super_red_hot_crossword", 1200), "bonus_word": ("hundred_thousand_crossword", 1200),
         "lines": ("tic_tac_cash", 1200), "line_prizes": ("cool_sevens", 1200),
         "add_up": ("lucky_21", 1500), "add_up_exactly": ("lucky_21", 1500), "mixed": ("", 2000),
         "legends": ("", 1200), "shown": ("", 1200)}


def _mixed() -> dict:
    """A lines area (4 x 4, lines of 4 cells and one of 3 cells in an L, legend 1 and 3 lines), an add_up
    area (3 games of 2 numbers 0, 5, 10 adding up to 10 exactly) and a crossword (one grid of 3 words,
    legend 1 and 3 words) on one ticket of up to 3 wins."""
    letters = [{"group": "abc", "code": c, "symbol": c, "caption": c} for c in "ABCDEHILNORSTU"]
    pics = [{"group": "pic", "code": c, "symbol": c} for c in ("X", "O", "STAR", "MOON")]
    nums = [{"group": "num", "code": c, "symbol": c} for c in ("0", "5", "10")]
    money = [{"group": g, "code": c, "symbol": f"${v}", "value": v} for g, c, v in (
        ("pz", "A", "1.00"), ("pz", "B", "5.00"), ("sp", "C", "2.00"), ("sp", "D", "10.00"),
        ("wz", "E", "1.00"), ("wz", "F", "20.00"))]
    lines = ([list(range(4 * r, 4 * r + 4)) for r in range(4)] + [list(range(c, 16, 4)) for c in range(4)]
             + [[0, 5, 10, 15], [3, 6, 9, 12], [0, 1, 4]])
    box = {"id": "box", "style": "lines", "rows": 4, "cols": 4, "pictures": "pic", "symbol": "X",
           "lines": lines, "prizes": "pz", "legend": [{"lines": 1, "prize": "A"}, {"lines": 3, "prize": "B"}]}
    add = {"id": "sum", "style": "add_up", "games": 3, "spots": 2, "numbers": "num", "target": 10,
           "reach": "exactly", "prizes": "sp"}
    word = {"id": "cw", "style": "crossword", "letters": 9, "alphabet": "abc", "prizes": "wz",
            "grids": [["....", ".###", "...."]],
            "legend": [{"words": 1, "prize": "E"}, {"words": 3, "prize": "F"}]}

    def w(area: str, prize: str) -> dict:
        return {"area": area, "prize": prize, "how": "match"}

    tiers = [{"id": "l1", "count": 200, "wins": [w("box", "A")]},
             {"id": "l3", "count": 20, "wins": [w("box", "B")]},
             {"id": "s1", "count": 150, "wins": [w("sum", "C")]},
             {"id": "s2", "count": 30, "wins": [w("sum", "C"), w("sum", "D")]},
             {"id": "w1", "count": 100, "wins": [w("cw", "E")]},
             {"id": "w3", "count": 5, "wins": [w("cw", "F")]},
             {"id": "mix", "count": 20, "wins": [w("box", "A"), w("sum", "C"), w("cw", "E")]}]
    return base_doc([box, add, word], letters + pics + nums + money, tiers, pool_tickets=2000, per_book=50,
                    max_wins=3)


def _shown() -> dict:
    """A lines area of a prize spot a line (`line_prizes = "shown"`): a 3 x 3 grid, its 8 lines, prizes
    $1, $2, $5 and $20, up to 2 wins a ticket."""
    pics = [{"group": "pic", "code": c, "symbol": c} for c in ("X", "O", "STAR", "MOON")]
    money = [{"group": "pz", "code": c, "symbol": f"${v}", "value": f"{v}.00"} for c, v in (
        ("A", 1), ("B", 2), ("C", 5), ("D", 20))]
    lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
    area = {"id": "arrow", "style": "lines", "rows": 3, "cols": 3, "pictures": "pic", "symbol": "X",
            "lines": lines, "prizes": "pz", "line_prizes": "shown"}

    def w(*codes: str) -> list[dict]:
        return [{"area": "arrow", "prize": c, "how": "match"} for c in codes]

    tiers = [{"id": "p1", "count": 200, "wins": w("A")}, {"id": "p2", "count": 100, "wins": w("B")},
             {"id": "p1p2", "count": 40, "wins": w("A", "B")},
             {"id": "p2x2", "count": 20, "wins": w("B", "B")},
             {"id": "p5", "count": 30, "wins": w("C")}, {"id": "p20p5", "count": 3, "wins": w("D", "C")}]
    return base_doc([area], pics + money, tiers, pool_tickets=1200, per_book=50, max_wins=2)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("grid3")
    (root / "mixed").mkdir()
    (root / "mixed" / "g.toml").write_text(dumps(_mixed()))
    (root / "legends").mkdir()  # a crossword of a legend a grid (crossword.md section 10)
    (root / "legends" / "g.toml").write_text(dumps(crossword_legends_doc()))
    (root / "shown").mkdir()  # a prize spot a line (lines.md, line_prizes = "shown")
    (root / "shown" / "g.toml").write_text(dumps(_shown()))
    made = {name: generate(GenerateRequest(load_spec(root / name / "g.toml"), SEED_A,
                                           now=datetime(2026, 1, 2, tzinfo=UTC), out=root / name,
                                           run_id="r")).folder for name in ("mixed", "legends", "shown")}
    for style, (name, tickets) in GAMES.items():
        if not name:
            continue
        folder = root / style
        folder.mkdir()
        path = small_example(folder, name, tickets)
        if style == "add_up_exactly":  # Lucky 21 with games that win on 21 exactly
            path.write_text(path.read_text().replace('reach = "at_least"', 'reach = "exactly"'))
        spec = load_spec(path)
        made[style] = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                               out=folder, run_id="r",  # one pool: each tamper verifies it
                                               pool_ids=[spec.pools[0].id])).folder
    return made


@pytest.mark.parametrize("style", list(GAMES))
def test_every_generated_row_is_legal_and_pays_its_prize(runs, style):
    for pool in sorted(runs[style].glob("pool-*.parquet")):
        table = pl.read_parquet(pool)
        assert table.height == GAMES[style][1]
        assert grid.judge(against_audit.play(runs[style]), table) == {}
    assert against_audit.layouts(runs[style])[0] == "pass"


def _cells(area: dict) -> list[list[list[int]]]:
    """Every grid's words as their cells' indices among the area's letter cells (crossword.md 4, 5)."""
    out, base = [], 0
    for g in area["grids"]:
        number = {(r, c): k for k, (r, c) in enumerate(
            (r, c) for r, line in enumerate(g) for c, ch in enumerate(line) if ch == ".")}
        out.append([[base + number[rc] for rc in word] for word in grid.words_of(g)])
        base += len(number)
    return out


def _puzzle(area: dict, r: Row) -> tuple[list[int], list[int]]:
    """A crossword area's YOUR LETTERS and letter cells on a row."""
    aid = area["id"]
    cells = sorted((int(c.rsplit("_", 1)[1]), v) for c, v in r.items() if c.startswith(f"{aid}_cell_"))
    return [r[f"{aid}_letter_{j}"] for j in range(area["letters"])], [v for _, v in cells]


def _letters_completing(area: dict, r: Row, more: int) -> dict:
    """YOUR LETTERS changed, one letter no completed word uses at a time, to letters of the words not yet
    completed, in word order, until `more` more words are completed (or none is left to change)."""
    letters, cells = _puzzle(area, r)
    words = [w for g in _cells(area) for w in g]

    def done() -> int:
        return sum(all(cells[k] in letters for k in w) for w in words)

    goal = done() + more
    for w in words:
        if done() >= goal:
            break
        used = {cells[k] for v in words if all(cells[k] in letters for k in v) for k in v}
        for k in w:
            spare = [j for j, v in enumerate(letters) if v not in used and v not in (cells[i] for i in w)]
            if cells[k] not in letters and spare:
                letters[spare[0]] = cells[k]
    return {f"{area['id']}_letter_{j}": v for j, v in enumerate(letters)}


def _unheld(area: dict, r: Row) -> int:
    """A letter code YOUR LETTERS do not show."""
    letters, _ = _puzzle(area, r)
    return next(v for v in range(26) if v not in letters)


def _bonus_word(area: dict, r: Row, completed: bool) -> dict:
    """The bonus word (crossword.md section 9) changed to the first listed word of its length that YOUR
    LETTERS complete (or leave incomplete)."""
    letters, _ = _puzzle(area, r)
    held = {area["alphabet"][v] for v in letters}
    n = area["bonus"]["length"]
    word = next(w for w in area["words"] if len(w) == n and (set(w) <= held) == completed)
    return {f"{area['id']}_bonus_{k}": area["alphabet"].index(ch) for k, ch in enumerate(word)}


def _x(r: Row, cells: tuple[int, ...], code: int) -> dict:
    return {f"ttt_cell_{k}": code for k in cells}


def _g(cells: tuple[int, ...], code: int) -> dict:
    return {f"grid_cell_{k}": code for k in cells}


def _winning_games(r: Row) -> list[int]:
    return [g for g in range(5) if sum(r[f"add_spot_{3 * g + j}"] + 1 for j in range(3)) >= 21]


def _losing_game(r: Row) -> int:
    return next(g for g in range(5) if g not in _winning_games(r))


Case = tuple[str, str, Callable[[dict, Row], dict], str]
CASES: list[Case] = [
    ("crossword", "lose", lambda a, r: _letters_completing(a["puzzle"], r, 4),
     "a loser's letters changed till 4 more words complete (8: $50)"),
    ("crossword", "w4", lambda a, r: _letters_completing(a["puzzle"], r, 1),
     "a 4-word winner's letters changed till one more completes (9: $100)"),
    ("crossword", "w13", lambda a, r: _letters_completing(a["puzzle"], r, 1),
     "13 words made 17: no legend prize"),
    ("crossword", "w4", lambda a, r: {"puzzle_letter_1": r["puzzle_letter_0"]}, "a letter shown twice"),
    ("crossword", "w5", lambda a, r: {"puzzle_letter_3": 26}, "a letter code 26: out of range"),
    ("crossword", "lose", lambda a, r: {"puzzle_letter_0": None, "puzzle_cell_7": None}, "nulls: read ?"),
    ("crossword", "w6", lambda a, r: {"puzzle_cell_0": 16, "puzzle_cell_40": 16},
     "Q in two cells: not words"),
    ("crossword", "w4", lambda a, r: {f"puzzle_cell_{k}": _unheld(a["puzzle"], r)
                                      for k in _cells(a["puzzle"])[0][0]},
     "the black grid's first word made BBBB: unlisted, under 4 words left"),
    ("crossword", "w4", lambda a, r: {"puzzle_letter_0": 26, "puzzle_letter_1": 26},
     "two letters 26: out of range, not a letter twice"),
    ("crossword", "w4", lambda a, r: {"tier": "w5", "prize_cents": 1000}, "4 words stored as 5"),
    ("crossword", "w4", lambda a, r: {"bonus_spot_0": 3}, "a 4-word winner shows BONUS $10 too"),
    ("crossword", "w4b10", lambda a, r: {"prize_cents": 500}, "4 words + BONUS $10 storing $5"),
    ("bonus_word", "lose", lambda a, r: _bonus_word(a["puzzle"], r, True), "a loser's bonus word completed"),
    ("bonus_word", "w4", lambda a, r: _bonus_word(a["puzzle"], r, True),
     "a 4-word winner's bonus word completed: a win its tier does not list"),
    ("bonus_word", "b", lambda a, r: _bonus_word(a["puzzle"], r, False), "a bonus winner's word incomplete"),
    ("bonus_word", "w4b", lambda a, r: {"puzzle_bonus_2": 26}, "a bonus letter code 26: out of range"),
    ("bonus_word", "b", lambda a, r: {f"puzzle_bonus_{k}": 16 for k in range(5)},
     "the bonus word QQQQQ: unlisted, and still paid if YOUR LETTERS hold Q"),
    ("bonus_word", "w4b", lambda a, r: {"tier": "w4", "prize_cents": 1000},
     "4 words + BONUS stored as 4 words"),
    ("lines", "lose", lambda a, r: _x(r, (0, 1, 2), 0), "a loser shows X X X across the top"),
    ("lines", "l1", lambda a, r: _x(r, tuple(range(9)), 0), "nine X: 8 lines, no legend prize"),
    ("lines", "l2", lambda a, r: _x(r, (0, 4, 8), 1), "O down the diagonal"),
    ("lines", "lose", lambda a, r: _x(r, tuple(range(9)), 2), "nine STARs: every line a decoy alone"),
    ("lines", "lose", lambda a, r: {"ttt_cell_4": 3, "ttt_cell_8": None}, "a code 3 and a null"),
    ("lines", "lose", lambda a, r: {"ttt_cell_0": 255}, "a code 255"),
    ("lines", "lose", lambda a, r: {**_x(r, (0, 1, 2), 1), "ttt_cell_8": None},
     "O O O across the top beside a null: rule 2 still holds"),
    ("lines", "l3", lambda a, r: {"tier": "l2"}, "3 lines stored as 2"),
    ("lines", "l1", lambda a, r: {"prize_cents": 1000}, "a stored prize not paid"),
    ("line_prizes", "lose", lambda a, r: _g((0, 1, 2), 0), "a loser shows 7 7 7 in the $1 top row"),
    ("line_prizes", "top_row", lambda a, r: _g((0, 1, 2, 4, 8), 0),
     "the $1 top row and the $777 diagonal: a win its tier does not list"),
    ("line_prizes", "top_row_left_column", lambda a, r: _g((0,), 1), "$1 + $2 lose their shared corner"),
    ("line_prizes", "right_column", lambda a, r: _g((2, 5, 8), 4), "the $7 column shows 4 4 4"),
    ("line_prizes", "middle_column", lambda a, r: {"tier": "top_row", "prize_cents": 100},
     "the $3 column stored as the $1 row"),
    ("line_prizes", "top_row_left_column", lambda a, r: {"prize_cents": 200}, "$1 + $2 storing $2"),
    ("shown", "lose", lambda a, r: {f"arrow_cell_{k}": 0 for k in (0, 1, 2)}, "a loser's top row all X"),
    ("shown", "p1", lambda a, r: {f"arrow_prize_{i}": 3 for i in range(8)}, "the $1 line's spot shows $20"),
    ("shown", "p1", lambda a, r: {f"arrow_prize_{i}": 4 for i in range(8)}, "every spot 4: out of range"),
    ("shown", "p1p2", lambda a, r: {"arrow_prize_7": None, "arrow_cell_4": 5}, "a null spot and a cell 5"),
    ("shown", "p2x2", lambda a, r: {"tier": "p1p2", "prize_cents": 300}, "$2 x 2 stored as $1 + $2"),
    ("add_up", "lose", lambda a, r: {f"add_spot_{j}": 10 for j in range(3)}, "a loser's game 1 adds to 33"),
    ("add_up", "p2", lambda a, r: {f"add_prize_{_winning_games(r)[0]}": 1}, "the $2 game shows $4"),
    ("add_up", "p2", lambda a, r: {f"add_spot_{3 * _winning_games(r)[0] + j}": 0 for j in range(3)},
     "the $2 game made 1 + 1 + 1"),
    ("add_up", "p4x3", lambda a, r: {f"add_spot_{3 * _losing_game(r) + j}": 10 for j in range(3)},
     "a fourth winning game: 4 wins, at most 3"),
    ("add_up", "p2", lambda a, r: {f"add_spot_{3 * _winning_games(r)[0]}": 11}, "a winning game's number 11"),
    ("add_up", "p4", lambda a, r: {f"add_prize_{_winning_games(r)[0]}": None, "add_spot_14": 200},
     "a winning game's PRIZE null, a number 200"),
    ("add_up", "lose", lambda a, r: {"add_prize_4": 5}, "a losing game's PRIZE code 5"),
    ("add_up", "p2x2", lambda a, r: {"tier": "p4", "prize_cents": 400}, "$2 x 2 stored as $4"),
    ("mixed", "lose", lambda a, r: {f"box_cell_{k}": 1 for k in (0, 1, 4)}, "the L of cells 0, 1, 4 all O"),
    ("mixed", "lose", lambda a, r: {f"box_cell_{k}": v for k, v in enumerate([0] * 4 + [1, 2] * 4 + [0] * 4)},
     "rows 1 and 4 all X, rows 2 and 3 O and STAR by turns: 2 lines, a gap in the legend"),
    ("mixed", "l3", lambda a, r: {"sum_spot_0": 2, "sum_spot_1": 0, "sum_prize_0": 1, "sum_spot_2": 2,
                                  "sum_spot_3": 1},
     "3 lines, game 1 made 10 + 0 ($10), game 2 10 + 5 (no win)"),
    ("mixed", "s1", lambda a, r: {f"sum_spot_{k}": 1 for k in range(6)}, "every game 5 + 5: three wins"),
    ("mixed", "w1", lambda a, r: _letters_completing(a["cw"], r, 1), "1 word made 2 or more"),
    ("mixed", "mix", lambda a, r: {"box_cell_0": 9, "sum_prize_0": 7, "cw_letter_0": 20, "cw_cell_8": None},
     "every area out of range: their reasons in the order of the areas"),
]


@pytest.mark.parametrize(("style", "tier", "values", "what"), CASES, ids=[f"{c[0]}: {c[3]}" for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(runs, tmp_path, style, tier, values, what):
    play = against_audit.play(runs[style])
    row = pl.read_parquet(runs[style] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    areas = {a["id"]: a for a in play["areas"]}
    against_audit.agrees(grid.judge, runs[style], tmp_path / "r", tier, values(areas, row))


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")
OUT = {"crossword": (26, 27, 255), "bonus_word": (26, 27, 255), "lines": (3, 4, 255),
       "line_prizes": (9, 10, 255),
       "add_up": (5, 11, 12, 255), "add_up_exactly": (5, 11, 12, 255), "mixed": (4, 2, 3, 14, 255),
       "legends": (14, 15, 255), "shown": (4, 5, 255)}


@pytest.mark.parametrize("style", list(GAMES))
def test_rows_tampered_at_random_are_judged_as_audit_judges_them(runs, style):
    """600 rows of each run, each with one to three cells (or its tier) set from a seeded generator: a
    null, a code just or far out of range, another cell's value of the same row, any small code. The
    engine and audit's step-4 evaluation refuse the same rows with the same reasons and find the same
    amounts."""
    manifest = json.loads((runs[style] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[style] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    rows, rng = table.to_dicts(), random.Random(f"grid3 {style}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 600)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice(OUT[style]) if u < 0.15 else r[rng.choice(layout)] if u < 0.6
                    else rng.randrange(OUT[style][0]))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert grid.judge(play, tampered) == audit
    assert len(audit) > 200  # a third or more of the tampered rows are refused (add_up: a game stays losing)


def test_cell_codes_of_a_wider_integer_column_are_listed_as_audit_lists_them(runs, tmp_path):
    """A layout column of another integer dtype is read: a negative code is listed `negative`, one of 9999
    or more `>=9999` (docs/styles/lines.md section 5)."""
    run, folder = runs["lines"], tmp_path / "r"
    folder.mkdir()
    for f in run.iterdir():
        if f.name != "pool-p1.parquet":
            (folder / f.name).write_bytes(f.read_bytes())
    table = pl.read_parquet(run / "pool-p1.parquet")
    table = table.with_columns(pl.when(pl.col("position") == 0).then(-3).when(pl.col("position") == 1)
                               .then(12000).otherwise(pl.col("ttt_cell_0")).cast(pl.Int32).alias("ttt_cell_0"))
    table.write_parquet(folder / "pool-p1.parquet")
    rest = [", ".join(str(table[f"ttt_cell_{k}"][r]) for k in range(1, 9)) for r in (0, 1)]
    judged = grid.judge(against_audit.play(folder), table)
    assert {r: reasons for r, (reasons, _) in judged.items()} == {
        0: f"ttt: a cell code out of range (negative, {rest[0]})",
        1: f"ttt: a cell code out of range (>=9999, {rest[1]})"}
    status, text = against_audit.layouts(folder)
    assert status == "fail" and "2 illegal layout(s): " in text, text
    assert all(f"(row {r}): {reasons}" in text for r, (reasons, _) in judged.items()), text
