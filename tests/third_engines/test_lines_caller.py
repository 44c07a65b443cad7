"""The third engine of a board marked by a caller (tests/third_engines/lines_caller.py, from docs/styles/
lines.md section 1b, play.md, pool-files.md and validation.md alone) on Florida's Loteria with its caller
cards (specs/examples/fl_loteria_caller.toml cut to 3,000 tickets): every generated ticket legal, its
printed board and caller paying the pool's prize; a tampered row refused with audit's very reasons; and
runs an insider changed and signed again judged as `poolgen verify` judges them."""

from __future__ import annotations

import json
import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A
from tests.support.cli import invoke
from tests.support.reseal import reseal_pool, resign, signed_first_pool
from tests.support.spec_docs import base_doc, dumps
from tests.third_engines import against_audit
from tests.third_engines import lines_caller as lc

PRIZES = ["2", "5", "10", "15", "20", "25", "30", "40", "50", "100", "150", "200", "250", "300", "400",
          "10000", "30000"]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, Path, Path, object]:
    """The example cut to one pool of 3,000 (every count divided by 20,000, at least 1), signed: its run
    folder, public key, spec file and signer."""
    root = tmp_path_factory.mktemp("loteria")
    text = (ROOT / "specs" / "examples" / "fl_loteria_caller.toml").read_text()
    for size in ("order_tickets", "pool_tickets"):
        text, n = re.subn(rf"^{size} = \d+", f"{size} = 3000", text, flags=re.M)
        assert n == 1
    text = re.sub(r"^count = (\d+)$", lambda m: f"count = {max(1, int(m[1]) // 20000)}", text, flags=re.M)
    text, n = re.subn(r"^(odds|split|last_pool|winners) = .*\n", "", text, flags=re.M)  # the order's alone
    assert n == 4
    spec = root / "fl_loteria_caller.toml"
    spec.write_text(text)
    run, public, signer = signed_first_pool(load_spec(spec), SEED_A, root, "lot")
    return run, public, spec, signer


def _row(run: Path, tier: str) -> dict:
    return pl.read_parquet(run / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)


def _cells(r: dict) -> list[int]:
    return [r[f"board_cell_{k}"] for k in range(16)]


def _calls(r: dict) -> list[int]:
    return [r[f"board_call_{j}"] for j in range(14)]


def _done(r: dict) -> list[int]:
    called = set(_calls(r))
    return lc.complete_lines(LINES, {k for k, v in enumerate(_cells(r)) if v in called})


LINES = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15], [0, 4, 8, 12], [1, 5, 9, 13],
         [2, 6, 10, 14], [3, 7, 11, 15], [0, 5, 10, 15], [3, 6, 9, 12]]


def _loser_with_a_line(run: Path) -> dict:
    """The first loser's caller made to show its board's top row (the rest of its calls kept, in order)."""
    r = _row(run, "lose")
    top = _cells(r)[:4]
    new = (top + [c for c in _calls(r) if c not in top])[:14]
    return {f"board_call_{j}": v for j, v in enumerate(new)}


def _winner_spot_changed(run: Path) -> dict:
    """The first $2 winner's complete line's prize spot made to show $5."""
    r = _row(run, "w2")
    (line,) = _done(r)
    return {f"board_prize_{line}": PRIZES.index("5")}


def _winner_line_unmarked(run: Path) -> dict:
    """The first $2 winner's caller card that marks its line's first cell replaced by a card on no cell."""
    r = _row(run, "w2")
    (line,) = _done(r)
    spare = next(v for v in range(54) if v not in _cells(r) and v not in _calls(r))
    j = _calls(r).index(_cells(r)[LINES[line][0]])
    return {f"board_call_{j}": spare}


def _winner_with_a_second_line(run: Path) -> dict:
    """The first $2 winner's caller made to mark another line too: calls on no cell of its complete line
    replaced by the other line's cards not yet called."""
    r = _row(run, "w2")
    (line,) = _done(r)
    other = next(i for i in range(10) if i != line)
    need = [_cells(r)[k] for k in LINES[other] if _cells(r)[k] not in _calls(r)]
    keep = {_cells(r)[k] for k in LINES[line]}
    calls = _calls(r)
    for j, v in enumerate(calls):
        if need and v not in keep:
            calls[j] = need.pop()
    assert not need
    return {f"board_call_{j}": v for j, v in enumerate(calls)}


def _winner_marked_out_of_range(run: Path) -> dict:
    """The first $2 winner's line's first cell and the call marking it both set to 60, a code out of
    range: equal, but a code out of range marks nothing (section 5), so the line is not complete."""
    r = _row(run, "w2")
    (line,) = _done(r)
    k = LINES[line][0]
    return {f"board_cell_{k}": 60, f"board_call_{_calls(r).index(_cells(r)[k])}": 60}


CASES = [  # (tier, the row's new values from the run, what the contract makes of it)
    ("lose", _loser_with_a_line, "a loser's caller marks a line: section 6"),
    ("w2", _winner_spot_changed, "a winner's line shows another prize"),
    ("w2", _winner_line_unmarked, "a winner's line no longer marked: wins nothing"),
    ("lose", lambda run: {"board_call_13": _row(run, "lose")["board_call_0"]}, "a caller's card twice"),
    ("lose", lambda run: {"board_call_3": 54}, "a caller's code out of range: rule 5"),
    ("lose", lambda run: {"board_call_7": None}, "a null call: rule 5, listed as null"),
    ("w2", _winner_with_a_second_line, "a winner's caller marks a second line: section 6"),
    ("w2", _winner_marked_out_of_range, "a cell and its call out of range alike mark nothing"),
    ("lose", lambda run: {"board_cell_9": _row(run, "lose")["board_cell_2"]}, "a board card twice: rule 6"),
    ("lose", lambda run: {"board_cell_0": None}, "a null cell: rule 1"),
    ("lose", lambda run: {"board_prize_4": 17}, "a prize spot out of range: rule 4"),
    ("lose", lambda run: {"board_cell_0": 200, "board_call_1": _row(run, "lose")["board_call_2"],
                          "board_cell_5": _row(run, "lose")["board_cell_6"]}, "rules 1, 5 and 6 in order"),
]


def test_every_generated_ticket_is_legal_and_its_printed_board_pays_its_prize(made):
    run, _, spec, _ = made
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert table.height == 3000 and table["tier"].n_unique() == 22
    assert lc.judge(against_audit.play(run), table) == {}
    assert lc.from_files(run, spec) == []
    assert against_audit.layouts(run)[0] == "pass"


@pytest.mark.parametrize(("tier", "values", "what"), CASES, ids=[c[2] for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(made, tmp_path, tier, values, what):
    run = made[0]
    reasons, _ = against_audit.agrees(lc.judge, run, tmp_path / "r", tier, values(run))
    if what.startswith("rules 1, 5"):
        assert [r.split(" (")[0] for r in reasons.split("; ")[:3]] == [
            "board: a cell code out of range", "board: the caller's pictures are not distinct pictures",
            "board: the board shows a picture twice"]


def _copy(run: Path, folder: Path) -> Path:
    folder.mkdir(mode=0o700)
    for f in run.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
        (folder / f.name).chmod(f.stat().st_mode & 0o777)
    return folder


def _verify(run: Path, public: Path, spec: Path) -> tuple[int, list[str]]:
    """`poolgen verify --json`: its exit code and the ids of the steps that fail."""
    result = invoke("verify", run, "--public-key", public, "--spec", spec, "--json")
    steps = json.loads(result.stdout)["steps"]
    return result.exit_code, [s["title"] for s in steps if s["status"] == "fail"]


def test_a_run_signed_again_unchanged_passes_both(made, tmp_path):
    run, public, spec, signer = made
    copy = _copy(run, tmp_path / "r")
    resign(copy, lambda doc: None, signer)
    assert lc.from_files(copy, spec) == []
    assert _verify(copy, public, spec) == (0, [])


def test_a_loser_given_a_line_in_its_pool_file_alone_is_refused_by_both(made, tmp_path):
    """The insider changes the pool row and signs again: the imaging file still prints the old caller."""
    run, public, spec, signer = made
    copy = _copy(run, tmp_path / "r")
    values = _loser_with_a_line(run)
    table, row = against_audit.tampered(run, tmp_path / "t", "lose", values)
    reseal_pool(copy, "pool-p1.parquet", table, signer)
    old = _row(run, "lose")
    assert lc.from_files(copy, spec) == [
        f"p1: {c} at {row} shows C{old[c] + 1:02d}, the pool stores {v}"
        for c, v in values.items() if old[c] != v]
    code, failing = _verify(copy, public, spec)
    assert (code, failing) == (1, ["layouts", "deliverables"])


def test_a_loser_printed_with_a_line_in_both_files_is_refused_by_both(made, tmp_path):
    """The pool row and the imaging row changed alike, every hash restated and signed again: the printed
    ticket pays its complete line's spot, the pool 0."""
    run, public, spec, signer = made
    copy = _copy(run, tmp_path / "r")
    values = _loser_with_a_line(run)
    table, row = against_audit.tampered(run, tmp_path / "t", "lose", values)
    reseal_pool(copy, "pool-p1.parquet", table, signer)
    imaging = pl.read_parquet(copy / "imaging-p1.parquet")
    deck = {s["code"]: s for s in _symbols(spec)}
    codes = [f"C{v + 1:02d}" for v in values.values()]
    imaging = imaging.with_columns([
        pl.when(pl.int_range(pl.len()) == row).then(pl.lit(v)).otherwise(pl.col(c + suffix)).alias(c + suffix)
        for c, code in zip(values, codes, strict=True)
        for suffix, v in (("", code), ("_text", deck[code]["symbol"]), ("_caption", deck[code]["caption"]))])
    imaging.write_parquet(copy / "imaging-p1.parquet")
    resign(copy, lambda doc: None, signer)
    spot = PRIZES[table["board_prize_0"][row]]
    cents = int(float(spot) * 100)
    assert lc.from_files(copy, spec) == [
        f"p1: ticket at {row} ({table['ticket'][row]}) shows {cents} cents, the pool pays 0"]
    code, failing = _verify(copy, public, spec)
    assert (code, failing) == (1, ["layouts"])


def _symbols(spec: Path) -> list[dict]:
    return tomllib.loads(spec.read_text())["symbols"]


ENTRIES = [  # (the manifest's area entry changed, the other steps failing, what section 3 makes of it)
    ({"calls": 54}, [], "calls above P - 1 (54 pictures)"),
    ({"calls": 0}, ["statistics"], "no call"),  # step 8 finds the call columns no entry reads
    ({"calls": True}, [], "calls not a whole number"),
    ({"symbol": "C01"}, [], "a symbol beside calls"),
    # step 9: the imaging file prints C03 where the entry now says C01
    ({"pictures": ["C01", "C01", *(f"C{i:02d}" for i in range(3, 55))]}, ["deliverables"], "a card twice"),
]


@pytest.mark.parametrize(("change", "others", "what"), ENTRIES, ids=[e[2] for e in ENTRIES])
def test_an_unreadable_caller_entry_stops_step_4_naming_it(made, tmp_path, change, others, what):
    """An insider changes the manifest's caller entry and signs again: the engine finds it unreadable,
    and `poolgen verify` fails step 4 alone, naming the area's fields `calls` among them."""
    run, public, spec, signer = made
    copy = _copy(run, tmp_path / "r")

    def edit(doc: dict) -> None:
        doc["play"]["areas"][0] |= change

    resign(copy, edit, signer)
    area = against_audit.play(copy)["areas"][0]
    assert lc.readable(area) is False and lc.readable(against_audit.play(run)["areas"][0]) is True
    result = invoke("verify", copy, "--public-key", public, "--json")
    steps = json.loads(result.stdout)["steps"]
    assert [s["title"] for s in steps if s["status"] == "fail"] == ["layouts", *others]
    assert steps[3]["reasons"] == ["pool p1: could not be checked: ValueError: manifest play entry: area "
                                   "'board': rows, cols, pictures, symbol, symbols, calls, lines, prizes, "
                                   "legend or line_prizes unreadable"]


def test_the_pool_is_drawn_again_from_its_seed_by_the_contract(made):
    """Section 7 steps 1b, 3 and 4 (randomness.md sections 4 and 5.1, books of 150), by the engine's
    `lay_out`, give the cut Loteria pool's every cell, call and prize spot from SEED_A and the spec."""
    run, _, spec, _ = made
    doc = tomllib.loads(spec.read_text())
    area = against_audit.play(run)["areas"][0]
    tiers = [(t["id"], t["count"], [w["prize"] for w in t["wins"]]) for t in doc["tiers"]]
    tiers = [("lose", 3000 - sum(c for _, c, _ in tiers), []), *tiers]
    at, cols = lc.lay_out(SEED_A, doc["game"]["id"], "p1", area, tiers, 3000, 150)
    table = pl.read_parquet(run / "pool-p1.parquet")
    assert at == table["tier"].to_list()
    assert len(cols) == 16 + 14 + 10
    assert {c: v for c, v in cols.items() if v != table[c].to_list()} == {}


def test_every_doc_names_the_layout_stream_by_the_label_the_pool_was_drawn_again_with():
    """The pool above is drawn again from `("poolgen/v1", RULES, POOL_ID, "layout")` (randomness.md
    section 2); docs/new-game.md named it `("poolgen", <game id>, <pool id>, "layout")`, which draws
    another pool: no doc names a stream's first part otherwise."""
    wrong = [f"{f.name}: {line.strip()}" for f in sorted((ROOT / "docs").rglob("*.md"))
             for line in f.read_text().splitlines() if '("poolgen", ' in line]
    assert wrong == []


def _fixed(root: Path) -> Path:
    """A caller of 6 of 9 pictures over a 2 x 3 board of two lines, each printing its own prize ($1 for
    the top row, $5 for the bottom: `line_prizes`), up to both: generated from SEED_A."""
    deck = [{"group": "deck", "code": f"K{i}", "symbol": f"K{i}"} for i in range(9)]
    money = [{"group": "pz", "code": c, "symbol": f"${c}.00", "value": f"{c}.00"} for c in ("1", "5")]
    area = {"id": "fx", "style": "lines", "rows": 2, "cols": 3, "pictures": "deck", "calls": 6,
            "lines": [[0, 1, 2], [3, 4, 5]], "prizes": "pz", "line_prizes": ["1", "5"]}
    tiers = [{"id": t, "count": n, "wins": [{"area": "fx", "prize": p, "how": "match"} for p in ps]}
             for t, n, ps in (("a", 300, ["1"]), ("b", 100, ["5"]), ("ab", 20, ["1", "5"]))]
    (root / "fx.toml").write_text(dumps(base_doc([area], deck + money, tiers, max_wins=2)))
    return generate(GenerateRequest(load_spec(root / "fx.toml"), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                    out=root, run_id="fx")).folder


def test_a_caller_of_fixed_line_prizes_is_judged_and_drawn_again_as_the_contract_states(tmp_path):
    run = _fixed(tmp_path)
    table = pl.read_parquet(run / "pool-p1.parquet")
    area = against_audit.play(run)["areas"][0]
    assert lc.judge(against_audit.play(run), table) == {}
    at, cols = lc.lay_out(SEED_A, "test_game", "p1", area,
                          [("lose", 1580, []), ("a", 300, ["1"]), ("b", 100, ["5"]), ("ab", 20, ["1", "5"])],
                          2000, 50)
    assert at == table["tier"].to_list()
    assert {c: v for c, v in cols.items() if v != table[c].to_list()} == {}
    r = table.filter(pl.col("tier") == "a").row(0, named=True)
    calls = [r[f"fx_cell_{k}"] for k in range(6)]  # the caller shows the whole board: both lines
    reasons, pays = against_audit.agrees(lc.judge, run, tmp_path / "t", "a",
                                         {f"fx_call_{j}": v for j, v in enumerate(calls)})
    assert (reasons, pays) == ("its wins are not its tier 'a''s (2 win(s) paying 600 cents)", 600)


def test_a_call_column_beyond_n_is_a_column_no_engine_reads_for_both(made, tmp_path):
    """A fifteenth call column (and an eleventh prize spot) added to the pool and signed again: neither is
    a column section 4 gives a caller of 14 over 10 lines, and step 4 says so."""
    run, public, spec, signer = made
    copy = _copy(run, tmp_path / "r")
    table = pl.read_parquet(run / "pool-p1.parquet")
    table = table.with_columns(pl.col("board_call_0").alias("board_call_14"),
                               pl.col("board_prize_0").alias("board_prize_10"))
    reseal_pool(copy, "pool-p1.parquet", table, signer)
    assert lc.unread(against_audit.play(copy), table) == ["board_call_14", "board_prize_10"]
    assert lc.unread(against_audit.play(run), pl.read_parquet(run / "pool-p1.parquet")) == []
    result = invoke("verify", copy, "--public-key", public, "--json")
    layouts = json.loads(result.stdout)["steps"][3]
    assert result.exit_code == 1 and layouts["status"] == "fail"
    assert layouts["reasons"] == ["pool p1: column(s) board_call_14, board_prize_10 no style's contract "
                                  "gives this pool (docs/pool-files.md): no engine reads them"]
