"""The reviewer's lines evaluator (tests/third_engines/lines_symbols.py, from docs/styles/lines.md and
play.md alone) on a cut of California's Tic Tac Bonus (specs/examples/ca_tic_tac_bonus.toml: X's or O's
make lines, a prize spot a line): every ticket's prize re-derived, no loser showing a line of either
symbol; and a re-signed pool with a loser given three O's and a winner's line broken, refused by the
evaluator and by audit alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest

from audit.cli import app as audit_app
from poolgen.run.signing import Signer
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke
from tests.support.reseal import reseal_pool
from tests.third_engines.lines_symbols import complete_lines, judge_run


@pytest.fixture(scope="module")
def cut_run(tmp_path_factory) -> tuple[Path, Path]:
    """The example's order cut to four pools of 5,000 and a last of 300 (every count divided by 900, at
    least 1; its published figures dropped), its pool p1 generated from SEED_A and signed: the run folder
    and the keys' folder."""
    root = tmp_path_factory.mktemp("tic_tac_bonus")
    text = (ROOT / "specs/examples/ca_tic_tac_bonus.toml").read_text()
    text = re.sub(r"^order_tickets = \d+$", "order_tickets = 20300", text, flags=re.M)
    text = re.sub(r"^pool_tickets = \d+$", "pool_tickets = 5000", text, flags=re.M)
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m.group(1)) // 900)}", text, flags=re.M)
    text = re.sub(r"^(winners|odds) = .*\n", "", text, flags=re.M)
    (root / "ttb.toml").write_text(text)
    (root / "run.seed").write_text(SEED_A.hex() + "\n")
    (root / "run.seed").chmod(0o600)
    assert invoke("keys", "new", root / "keys").exit_code == 0
    made = invoke("generate", root / "ttb.toml", "--out", root / "runs", "--seed-file", root / "run.seed",
                  "--pool", "p1", "--run-id", "ttb", "--workers", "1", "--key", root / "keys/signing-key.pem")
    assert made.exit_code == 0, made.output
    return root / "runs" / "ttb", root / "keys"


def test_every_tic_tac_bonus_ticket_pays_what_the_contract_derives_and_no_loser_shows_an_x_or_o_line(cut_run):
    run, _ = cut_run
    verdict = judge_run(run)["p1"]
    manifest = json.loads((run / "manifest.json").read_bytes())
    assert (verdict.rows, verdict.illegal, verdict.losers_with_a_line) == (5000, {}, 0)
    assert verdict.prize_cents == manifest["pools"][0]["prize_cost_cents"]
    # both symbols make the winners' lines (the contract treats them alike): count the lines of each
    table, areas = pl.read_parquet(run / "pool-p1.parquet"), manifest["play"]["areas"]
    by_symbol = {"X": 0, "O": 0}
    for row in table.filter(pl.col("tier") != "lose").iter_rows(named=True):
        for area in areas:
            cells = [row[f"{area['id']}_cell_{k}"] for k in range(9)]
            for i in complete_lines(area, cells):
                by_symbol[area["pictures"][cells[area["lines"][i][0]]]] += 1
    winners = sum(t["count"] for t in manifest["pools"][0]["tiers"] if t["id"] != "lose")
    assert sum(by_symbol.values()) == winners  # max_wins 1: one line a winner
    assert min(by_symbol.values()) > winners // 3


def _set(table: pl.DataFrame, column: str, row: int, value: int) -> pl.DataFrame:
    values = table[column].to_numpy().copy()
    values[row] = value
    return table.with_columns(pl.Series(column, values, dtype=table.schema[column]))


def _broken(area: dict, cells: list[int]) -> list[int] | None:
    """`cells` with one cell of its one complete line given the other symbol, completing no line; None if
    no cell of it does."""
    (line,) = complete_lines(area, cells)
    for k in area["lines"][line]:
        changed = cells[:k] + [1 - cells[k]] + cells[k + 1:]
        if not complete_lines(area, changed):
            return changed
    return None


def test_a_loser_given_three_os_and_a_winner_whose_line_is_broken_are_refused_by_the_evaluator_and_audit(
        cut_run, tmp_path):
    """The first loser whose GAME 1 shows O, O, O on its top row and no other line once so changed; the
    first GAME 1 winner whose line, one cell given the other symbol (X, X, O), leaves no line: re-signed
    by an insider holding the key."""
    source, keys = cut_run
    run = tmp_path / "ttb"
    run.mkdir()
    for f in source.iterdir():
        (run / f.name).write_bytes(f.read_bytes())
    table = pl.read_parquet(run / "pool-p1.parquet")
    area = json.loads((run / "manifest.json").read_bytes())["play"]["areas"][0]
    assert area["pictures"] == ["X", "O"]
    boards = [[table[f"game1_cell_{k}"][r] for k in range(9)] for r in range(table.height)]
    loser = next(r for r, b in enumerate(boards) if table["tier"][r] == "lose"
                 and complete_lines(area, [1, 1, 1] + b[3:]) == [0])
    winner, changed = next((r, _broken(area, b)) for r, b in enumerate(boards)
                           if table["tier"][r] == "wticket_g1" and _broken(area, b) is not None)
    prize = area["prizes"][table["game1_prize_0"][loser]]
    for k in range(9):
        table = _set(table, f"game1_cell_{k}", winner, changed[k])
    for k in range(3):
        table = _set(table, f"game1_cell_{k}", loser, 1)
    reseal_pool(run, "pool-p1.parquet", table, Signer.from_file(keys / "signing-key.pem"))

    verdict = judge_run(run)["p1"]
    assert verdict.illegal == {
        winner: ["wins [] are not tier wticket_g1's", "pays 0 cents, stores 200"],
        loser: [f"wins [('game1', 'match', 1, '{prize['code']}')] are not tier lose's",
                f"pays {prize['cents']} cents, stores 0"]}
    assert verdict.losers_with_a_line == 1
    result = invoke("verify", run, "--public-key", keys / "signing-key.pub.pem", "--json",
                    application=audit_app)
    step = json.loads(result.stdout)["steps"][3]
    assert (result.exit_code, step["status"]) == (1, "fail")
    first, second = sorted([(winner, 200, 0, "wticket_g1", 0), (loser, 0, prize["cents"], "lose", 1)])
    ticket = table["ticket"]
    assert step["reasons"] == [
        f"pool p1: 2 layout(s) do not pay the stored prize: "
        f"{ticket[first[0]]} (row {first[0]}) pays {first[2]} cents, stores {first[1]}, "
        f"{ticket[second[0]]} (row {second[0]}) pays {second[2]} cents, stores {second[1]}; 2 illegal "
        f"layout(s): {ticket[first[0]]} (row {first[0]}): its wins are not its tier '{first[3]}''s "
        f"({first[4]} win(s) paying {first[2]} cents); {ticket[second[0]]} (row {second[0]}): its wins are "
        f"not its tier '{second[3]}''s ({second[4]} win(s) paying {second[2]} cents)"]
