"""The auditor's lines engine on areas of several line-making symbols (`symbols`, docs/styles/lines.md
sections 1a, 3 and 5): a line complete when its cells show one of them alike, never two mixed; the
rules of section 5 with their exact reasons; the entries it cannot read; and a run re-signed by an
insider with one loser's board showing a line of O's, refused at step 4, the ticket named."""

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

X, OH, S, M = 0, 1, 2, 3  # the pictures X, O, STAR, MOON; X and O make lines
LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
AREA = {"id": "ln", "style": "lines", "rows": 3, "cols": 3, "pictures": ["X", "O", "STAR", "MOON"],
        "symbols": ["X", "O"], "lines": LINES,
        "prizes": [{"code": "2", "cents": 200}, {"code": "9", "cents": 900}],
        "legend": [{"lines": 1, "prize": "2"}, {"lines": 2, "prize": "9"}]}
PLAY = {"max_wins": 1, "areas": [AREA],
        "tiers": [{"id": "lose", "wins": []}, {"id": "l1", "wins": [win("ln", "2", 200)]},
                  {"id": "l2", "wins": [win("ln", "9", 900)]}]}


def judge(cells: list[int], tier: str, play: dict = PLAY) -> tuple[int, list[str]]:
    row = {"tier": [tier]} | {f"ln_cell_{k}": [v] for k, v in enumerate(cells)}
    result = evaluate(pl.DataFrame(row).with_columns(pl.exclude("tier").cast(pl.UInt8)), {"id": "p1"}, play)
    return int(result.prize_cents[0]), [why for _, why in result.illegal]


@pytest.mark.parametrize(("cells", "tier", "cents"), [
    ([X, OH, S, OH, X, M, S, OH, OH], "lose", 0),  # no line
    ([X, X, X, OH, S, OH, S, OH, M], "l1", 200),  # X's across the top
    ([OH, X, S, OH, X, M, OH, S, X], "l1", 200),  # O's down the left
    ([X, X, X, OH, OH, OH, S, M, S], "l2", 900),  # a line of X's and a line of O's: two lines
    ([X, X, OH, S, M, S, M, S, M], "lose", 0),  # X, X, O: mixed symbols complete nothing
])
def test_a_line_of_either_symbol_counts(cells, tier, cents):
    assert judge(cells, tier) == (cents, [])


def test_a_loser_showing_a_line_of_os_is_refused():
    assert judge([OH, OH, OH, X, S, M, S, X, M], "lose") == (
        200, ["its wins are not its tier 'lose''s (1 win(s) paying 200 cents)"])


def test_a_line_of_one_decoy_is_named_and_a_line_of_a_symbol_is_not():
    assert judge([S, S, S, OH, OH, OH, X, M, X], "l1") == (200, ["ln: line 1 shows STAR alone"])


@pytest.mark.parametrize("change", [
    {"symbol": "X"},  # both symbol and symbols
    {"symbols": ["X"]},  # one symbol in a list
    {"symbols": ["X", "Q"]},  # not a picture
    {"symbols": ["X", "X"]},  # twice
    {"symbols": "X"},  # not a list
])
def test_symbols_it_cannot_read_stop_the_step(change):
    play = copy.deepcopy(PLAY)
    play["areas"][0].update(change)
    with pytest.raises(ValueError, match="area 'ln': rows, cols, pictures, symbol, symbols, calls, lines, "
                                         "prizes, legend or line_prizes unreadable"):
        judge([X] * 9, "lose", play)


def _board_doc() -> dict:
    """Tic Tac Bonus in small: a 3 x 3 GAME of X's and O's alone, a prize spot a line."""
    pics = [{"group": "mark", "code": c, "symbol": c} for c in ("X", "O")]
    prizes = [{"group": "pz", "code": c, "symbol": f"${c}", "value": f"{c}.00"} for c in ("3", "50")]
    area = {"id": "game", "style": "lines", "rows": 3, "cols": 3, "pictures": "mark", "symbols": ["X", "O"],
            "lines": LINES, "prizes": "pz", "line_prizes": "shown"}
    tiers = [{"id": "w3", "count": 150, "wins": [{"area": "game", "prize": "3", "how": "match"}]},
             {"id": "w50", "count": 10, "wins": [{"area": "game", "prize": "50", "how": "match"}]}]
    return base_doc([area], pics + prizes, tiers, pool_tickets=1000)


def test_audit_refuses_a_resigned_run_whose_loser_shows_a_line_of_os(tmp_path):
    """An insider sets one loser's board to O O O / X X O / O X X (line 1 alone complete, its spot
    showing a prize) and signs again: every signature and hash holds, and step 4 refuses that ticket."""
    (tmp_path / "g.toml").write_text(dumps(_board_doc()))
    spec = load_spec(tmp_path / "g.toml")
    run, public, signer = signed_first_pool(spec, SEED_A, tmp_path, "ttb")
    ok = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    assert ok.exit_code == 0, ok.output
    name = next(run.glob("pool-*.parquet")).name
    table = pl.read_parquet(run / name)
    row = int(table["tier"].to_list().index("lose"))
    board = [OH, OH, OH, X, X, OH, OH, X, X]
    table = table.with_columns([pl.when(pl.col("position") == table["position"][row]).then(v)
                                .otherwise(pl.col(f"game_cell_{k}")).cast(table.schema[f"game_cell_{k}"])
                                .alias(f"game_cell_{k}") for k, v in enumerate(board)])
    spot = int(table["game_prize_0"][row])
    reseal_pool(run, name, table, signer)
    result = invoke("verify", run, "--public-key", public, "--json", application=audit_app)
    steps = json.loads(result.stdout)["steps"]
    assert result.exit_code == 1
    assert steps[0]["status"] == "pass"  # the insider's signature holds
    layouts = steps[3]
    assert layouts["status"] == "fail"
    cents, ticket = (300, 5000)[spot], table["ticket"][row]
    assert layouts["reasons"] == [
        f"pool p1: 1 layout(s) do not pay the stored prize: {ticket} (row {row}) pays {cents} cents, "
        f"stores 0; 1 illegal layout(s): {ticket} (row {row}): its wins are not its tier 'lose''s (1 win(s) "
        f"paying {cents} cents)"]
