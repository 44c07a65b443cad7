"""The third engine for crossword, lines and add_up plays (tests/third_engines/grid.py, written from
docs/styles/crossword.md, lines.md, add_up.md and play.md alone) against audit's step 4 on small runs of
the three examples (Super Red Hot Crossword, Tic Tac Cash, Lucky 21): every generated row is legal and
pays its stored prize by both; every tampered row is refused by both, with audit's very reasons and
amount."""

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
from tests.third_engines import against_audit, grid

Row = dict
GAMES = {"crossword": ("super_red_hot_crossword", 1200), "lines": ("tic_tac_cash", 1200),
         "add_up": ("lucky_21", 1500), "add_up_exactly": ("lucky_21", 1500)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("grid3")
    made = {}
    for style, (name, tickets) in GAMES.items():
        folder = root / style
        folder.mkdir()
        path = small_example(folder, name, tickets)
        if style == "add_up_exactly":  # Lucky 21 with games that win on 21 exactly
            path.write_text(path.read_text().replace('reach = "at_least"', 'reach = "exactly"'))
        spec = load_spec(path)
        made[style] = generate(GenerateRequest(spec, SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                               out=folder, run_id="r")).folder
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


def _puzzle(r: Row) -> tuple[list[int], list[int]]:
    """A crossword row's YOUR LETTERS and letter cells."""
    cells = sorted((int(c.rsplit("_", 1)[1]), v) for c, v in r.items() if c.startswith("puzzle_cell_"))
    return [r[f"puzzle_letter_{j}"] for j in range(20)], [v for _, v in cells]


def _letters_completing(area: dict, r: Row, more: int) -> dict:
    """YOUR LETTERS changed, one letter no completed word uses at a time, to letters of the words not yet
    completed, in word order, until `more` more words are completed (or none is left to change)."""
    letters, cells = _puzzle(r)
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
    return {f"puzzle_letter_{j}": v for j, v in enumerate(letters)}


def _unheld(r: Row) -> int:
    """A letter code YOUR LETTERS do not show."""
    letters, _ = _puzzle(r)
    return next(v for v in range(26) if v not in letters)


def _x(r: Row, cells: tuple[int, ...], code: int) -> dict:
    return {f"ttt_cell_{k}": code for k in cells}


def _winning_games(r: Row) -> list[int]:
    return [g for g in range(5) if sum(r[f"add_spot_{3 * g + j}"] + 1 for j in range(3)) >= 21]


def _losing_game(r: Row) -> int:
    return next(g for g in range(5) if g not in _winning_games(r))


Case = tuple[str, str, Callable[[dict, Row], dict], str]
CASES: list[Case] = [
    ("crossword", "lose", lambda a, r: _letters_completing(a, r, 4),
     "a loser's letters changed till 4 more words complete (8: $50)"),
    ("crossword", "w4", lambda a, r: _letters_completing(a, r, 1),
     "a 4-word winner's letters changed till one more completes (9: $100)"),
    ("crossword", "w13", lambda a, r: _letters_completing(a, r, 1), "13 words made 17: no legend prize"),
    ("crossword", "w4", lambda a, r: {"puzzle_letter_1": r["puzzle_letter_0"]}, "a letter shown twice"),
    ("crossword", "w5", lambda a, r: {"puzzle_letter_3": 26}, "a letter code 26: out of range"),
    ("crossword", "lose", lambda a, r: {"puzzle_letter_0": None, "puzzle_cell_7": None}, "nulls: read ?"),
    ("crossword", "w6", lambda a, r: {"puzzle_cell_0": 16, "puzzle_cell_40": 16},
     "Q in two cells: not words"),
    ("crossword", "w4", lambda a, r: {f"puzzle_cell_{k}": _unheld(r) for k in _cells(a)[0][0]},
     "the black grid's first word made BBBB: unlisted, under 4 words left"),
    ("crossword", "w4", lambda a, r: {"puzzle_letter_0": 26, "puzzle_letter_1": 26},
     "two letters 26: out of range, not a letter twice"),
    ("crossword", "w4", lambda a, r: {"tier": "w5", "prize_cents": 1000}, "4 words stored as 5"),
    ("crossword", "w4", lambda a, r: {"bonus_spot_0": 3}, "a 4-word winner shows BONUS $10 too"),
    ("crossword", "w4b10", lambda a, r: {"prize_cents": 500}, "4 words + BONUS $10 storing $5"),
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
]


@pytest.mark.parametrize(("style", "tier", "values", "what"), CASES, ids=[f"{c[0]}: {c[3]}" for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(runs, tmp_path, style, tier, values, what):
    play = against_audit.play(runs[style])
    row = pl.read_parquet(runs[style] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(grid.judge, runs[style], tmp_path / "r", tier, values(play["areas"][0], row))


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")
OUT = {"crossword": (26, 27, 255), "lines": (3, 4, 255), "add_up": (5, 11, 12, 255),
       "add_up_exactly": (5, 11, 12, 255)}


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
