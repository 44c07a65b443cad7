"""lines areas marked by a caller (`calls`, docs/styles/lines.md sections 1b, 3 and 5), judged by the audit
from the contract alone: a line counts when the caller shows every picture of it; rules 5 and 6 name a
caller or a board showing a picture twice; an entry it cannot read stops the step; and a re-signed run
whose loser's caller marks a line is refused at step 4."""

from __future__ import annotations

import copy
import json

import polars as pl
import pytest

from audit.cli import app as audit_app
from audit.styles.play import evaluate
from poolgen.loader import load_spec
from tests.support import SEED_A
from tests.support.cli import invoke
from tests.support.play_entries import win
from tests.support.reseal import reseal_pool, signed_first_pool
from tests.support.spec_docs import base_doc, dumps

LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
AREA = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": [f"C{i}" for i in range(12)],
        "calls": 4, "lines": LINES,
        "prizes": [{"code": "2", "cents": 200}, {"code": "9", "cents": 900}],
        "legend": [{"lines": 1, "prize": "2"}, {"lines": 2, "prize": "9"}]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "l1", "wins": [win("ln", "2", 200)]},
                  {"id": "l2", "wins": [win("ln", "9", 900)]}]}


def judge(calls: list[int], cells: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"ln_cell_{k}": [v] for k, v in enumerate(cells)} | \
        {f"ln_call_{j}": [v] for j, v in enumerate(calls)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("calls", "cells", "tier", "cents"), [
    ([0, 1, 2, 3], [4, 5, 6, 7, 8, 9, 10, 11, 0], "lose", 0),  # one marked cell
    ([0, 1, 2, 3], [2, 0, 1, 4, 5, 6, 7, 8, 9], "l1", 200),  # the top row, in any order
    ([3, 9, 10, 11], [9, 4, 5, 10, 6, 7, 11, 8, 0], "l1", 200),  # the left column
    ([0, 1, 2, 3], [0, 4, 5, 6, 1, 7, 8, 9, 2], "l1", 200),  # the diagonal
    ([0, 1, 2, 3], [0, 1, 4, 5, 6, 7, 8, 9, 10], "lose", 0),  # two of three
])
def test_a_line_counts_when_the_caller_shows_every_picture_of_it(calls, cells, tier, cents):
    assert judge(calls, cells, tier) == (cents, [])


def test_a_loser_whose_caller_marks_a_line_is_refused():
    assert judge([5, 6, 7, 0], [5, 6, 7, 1, 2, 3, 4, 8, 9], "lose") == (
        200, ["its wins are not its tier 'lose''s (1 win(s) paying 200 cents)"])


def test_a_caller_or_board_showing_a_picture_twice_is_named():
    assert judge([0, 1, 1, 12], [0, 4, 0, 1, 5, 6, 7, 8, 9], "lose") == (0, [
        "ln: the caller's pictures are not distinct pictures (0, 1, 1, 12); "
        "ln: the board shows a picture twice (0, 4, 0, 1, 5, 6, 7, 8, 9)"])


def test_a_called_code_out_of_range_marks_nothing_and_two_out_of_range_cells_are_not_twice():
    assert judge([0, 1, 12, 3], [0, 1, 12, 13, 13, 6, 7, 8, 9], "lose") == (0, [
        "ln: a cell code out of range (0, 1, 12, 13, 13, 6, 7, 8, 9); "
        "ln: the caller's pictures are not distinct pictures (0, 1, 12, 3)"])


@pytest.mark.parametrize("change", [
    {"symbol": "C0"},  # a symbol beside calls
    {"calls": 12},  # every picture called
    {"calls": 0},
    {"calls": "4"},
    {"pictures": [f"C{i}" for i in range(8)]},  # fewer pictures than cells
])
def test_a_caller_it_cannot_read_stops_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0].update(change)
    with pytest.raises(ValueError, match="area 'ln': rows, cols, pictures, symbol, symbols, calls, lines, "
                                         "prizes, legend or line_prizes unreadable"):
        judge([0, 1, 2, 3], list(range(4, 13)), "lose", play)


def _doc() -> dict:
    deck = [{"group": "deck", "code": f"C{i}", "symbol": f"card {i}"} for i in range(12)]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("2", "9")]
    area = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": "deck", "calls": 5,
            "lines": LINES, "prizes": "pz",
            "legend": [{"lines": 1, "prize": "2"}, {"lines": 2, "prize": "9"}]}
    tiers = [{"id": "l1", "count": 150, "wins": [{"area": "ln", "prize": "2", "how": "match"}]},
             {"id": "l2", "count": 10, "wins": [{"area": "ln", "prize": "9", "how": "match"}]}]
    return base_doc([area], deck + prizes, tiers, pool_tickets=1000)


def test_audit_refuses_a_resigned_run_whose_loser_is_given_a_called_line(tmp_path):
    """An insider sets the first loser's caller to its board's top row and two pictures its board does not
    show (exactly that row complete), and signs again: every signature and hash holds, and step 4 refuses
    that ticket alone."""
    (tmp_path / "g.toml").write_text(dumps(_doc()))
    spec = load_spec(tmp_path / "g.toml")
    run, public, signer = signed_first_pool(spec, SEED_A, tmp_path, "lot")
    ok = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    assert ok.exit_code == 0, ok.output
    name = next(run.glob("pool-*.parquet")).name
    table = pl.read_parquet(run / name)
    losers = [i for i, t in enumerate(table["tier"].to_list()) if t == "lose"]
    row = losers[0]
    board = [int(table[f"ln_cell_{k}"][row]) for k in range(9)]
    calls = board[0:3] + [c for c in range(12) if c not in board][:2]  # the top row and two unshown
    table = table.with_columns([pl.when(pl.col("position") == table["position"][row]).then(v)
                                .otherwise(pl.col(f"ln_call_{j}")).cast(table.schema[f"ln_call_{j}"])
                                .alias(f"ln_call_{j}") for j, v in enumerate(calls)])
    reseal_pool(run, name, table, signer)
    result = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    steps = json.loads(result.stdout)["steps"]
    assert result.exit_code == 1
    assert steps[0]["status"] == "pass"  # the insider's signature holds
    layouts = steps[3]
    assert layouts["status"] == "fail"
    ticket = table["ticket"][row]
    assert layouts["reasons"] == [
        f"pool p1: 1 layout(s) do not pay the stored prize: {ticket} (row {row}) pays 200 cents, stores 0; "
        f"1 illegal layout(s): {ticket} (row {row}): its wins are not its tier 'lose''s (1 win(s) paying 200 "
        "cents)"]
