"""The auditor's keno engine (audit/styles/keno.py) from docs/styles/keno.md alone: on tables written
by hand, a game wins its key's prize for its exact number of matches and each illegal row is named in
section 5's words; on a real signed run of Scratch Keno (specs/examples/ne_scratch_keno.toml) with one
loser's row replaced and the manifest signed again, as an insider could, step 4 fails on rules 3 and
4 and on section 6 (a code out of range, rules 1 and 2, has no imaging symbol: poolgen cannot print
it, so those are judged on the hand tables)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest

from audit.cli import app as audit_app
from audit.styles.interface import Reasons
from audit.styles.keno import evaluate
from poolgen.loader import load_spec
from tests.support import SPECS
from tests.support.cli import invoke
from tests.support.layout_tamper import cli_verify, copied, replace_a_row, signed_run
from tests.support.reseal import resign

# numbers 1..6 (codes 0..5), 2 WINNING NUMBERS, a game of 2 numbers and one of 3
AREA = {"id": "k", "style": "keno", "winning": 2, "numbers": [str(n) for n in range(1, 7)],
        "prizes": [{"code": "1", "cents": 100}, {"code": "5", "cents": 500}], "games": [2, 3],
        "key": [{"spots": 2, "matches": 2, "prize": "5"}, {"spots": 3, "matches": 1, "prize": "1"},
                {"spots": 3, "matches": 0, "prize": "1"}]}
NAMES = ["k_win_0", "k_win_1"] + [f"k_spot_{s}" for s in range(5)]


def _run(rows: list[list[int | None]]) -> tuple[list, list[tuple[int, str]]]:
    table = pl.DataFrame({c: [r[j] for r in rows] for j, c in enumerate(NAMES)},
                         schema=dict.fromkeys(NAMES, pl.Int16))
    reasons = Reasons()
    return evaluate(table, AREA, reasons), reasons.illegal()


def test_each_game_wins_the_keys_prize_for_its_exact_matches():
    slots, illegal = _run([[0, 1, 0, 1, 2, 3, 4],   # game 1: 2 of 2 ($5); game 2: 0 of 3 ($1)
                           [0, 1, 0, 2, 0, 1, 2],   # game 1: 1 of 2 (nothing); game 2: 2 of 3 (nothing)
                           [4, 5, 3, 2, 4, 1, 0]])  # game 1: 0 of 2 (nothing); game 2: 1 of 3 ($1)
    assert illegal == []
    assert [s.won.tolist() for s in slots] == [[True, False, False], [True, False, True]]
    assert [s.cents[s.won].tolist() for s in slots] == [[500], [100, 100]]


@pytest.mark.parametrize(("row", "reason"), [
    ([0, 6, 2, 3, 2, 3, 4], "k: a winning number code out of range"),
    ([0, None, 2, 3, 2, 3, 4], "k: a winning number code out of range"),
    ([0, 1, 2, 3, 2, -1, 4], "k: game 2: a number code out of range"),
    ([1, 1, 2, 3, 2, 3, 4], "k: two winning numbers are equal"),
    ([0, 1, 2, 3, 2, 4, 2], "k: game 2 shows a number twice"),
])
def test_each_illegal_row_is_named_in_section_5s_words(row, reason):
    assert _run([row])[1] == [(0, reason)]


def test_a_winning_number_out_of_range_matches_nothing():
    slots, _ = _run([[0, 9, 0, 1, 2, 3, 4]])  # no matches: game 1 nothing, game 2 0 of 3 ($1)
    assert [s.won.tolist() for s in slots] == [[False], [True]]


@pytest.mark.parametrize("change", [{"games": [2, 21]}, {"winning": 6}, {"key": [{"spots": 2, "matches": 3,
                                                                                   "prize": "5"}]},
                                    {"key": AREA["key"] + [{"spots": 2, "matches": 2, "prize": "1"}]}])
def test_an_unreadable_entry_judges_no_row(change):
    with pytest.raises(ValueError, match="area 'k': winning, numbers, prizes, games or key unreadable"):
        evaluate(pl.DataFrame({c: [0] for c in NAMES}), AREA | change, Reasons())


@pytest.fixture(scope="module")
def keno_run(tmp_path_factory) -> dict:
    """One book (150 tickets) of Scratch Keno, winners of one, two and three games among them."""
    spec = load_spec(SPECS / "examples" / "ne_scratch_keno.toml")
    pool = spec.pool("p1")
    counts = {"lose": 140, "p3": 3, "p5": 2, "p5x2": 2, "p5x3": 1, "p10": 1, "p50": 1}
    tiers = tuple(replace(t, count=counts[t.id]) for t in pool.tiers if t.id in counts)
    return signed_run(tmp_path_factory.mktemp("keno"), spec, replace(pool, tiers=tiers, tickets=150, books=1))


def _not_winning(stored: dict) -> list[int]:
    won = {stored[f"keno_win_{i}"] for i in range(20)}
    return [c for c in range(80) if c not in won]


@pytest.mark.parametrize(("change", "reason"), [
    (lambda s: {"keno_win_1": s["keno_win_0"]}, "keno: two winning numbers are equal"),
    (lambda s: {"keno_spot_4": _not_winning(s)[0], "keno_spot_5": _not_winning(s)[0]},
     "keno: game 2 shows a number twice"),
])
def test_a_resigned_loser_breaking_a_rule_fails_step_4(keno_run, tmp_path, change, reason):
    run = copied(keno_run, tmp_path)
    row, ticket, _ = replace_a_losers_row_with(keno_run, run, change)
    code, report = cli_verify(keno_run, run)
    assert code == 1 and report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [f"pool p1: 1 illegal layout(s): {ticket} (row {row}): {reason}"]


def replace_a_losers_row_with(base: dict, run: Path, change: Callable[[dict], dict]) -> tuple[int, str, dict]:
    return replace_a_row(base, run, "lose", change)


def test_an_honest_keno_run_verifies(keno_run, tmp_path):
    code, report = cli_verify(keno_run, copied(keno_run, tmp_path))
    assert code == 0 and report["failed_steps"] == []
    assert report["steps"][3]["details"][0] == (
        "pool p1: 150 layouts evaluated by audit.styles (keno): each pays its stored prize (10 winners), "
        "none illegal")


def test_a_loser_showing_a_games_winning_count_fails_step_4(keno_run, tmp_path):
    """Section 6: a game the tier does not win never shows a count its key pays (4 of 4: $20)."""
    run = copied(keno_run, tmp_path)
    row, ticket, _ = replace_a_losers_row_with(
        keno_run, run, lambda s: {f"keno_spot_{j}": s[f"keno_win_{j}"] for j in range(4)})
    code, report = cli_verify(keno_run, run)
    assert code == 1 and report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [
        f"pool p1: 1 layout(s) do not pay the stored prize: {ticket} (row {row}) pays 2000 cents, stores 0; "
        f"1 illegal layout(s): {ticket} (row {row}): its wins are not its tier 'lose''s (1 win(s) paying "
        "2000 cents)"]


def test_a_resigned_manifest_whose_key_pays_another_prize_fails_step_5_with_the_spec(keno_run, tmp_path):
    """Section 3 with `verify --spec`: the entry's key is the spec's (4 of 4 paying $50, not $20, would
    have step 4 pay and judge by the manifest's key)."""
    run = copied(keno_run, tmp_path)
    resign(run, lambda doc: doc["play"]["areas"][0]["key"][1].update(prize="50"), keno_run["signer"])
    result = invoke("verify", run, "--public-key", keno_run["keys"].public, "--spec",
                    SPECS / "examples" / "ne_scratch_keno.toml", "--json", application=audit_app)
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and 5 in report["failed_steps"]
    said = "; ".join(report["steps"][4]["reasons"])  # the run holds one book: its sizes are not the spec's
    assert "area keno: key [{'matches': 3, 'prize': '3', 'spots': 4}, {'matches': 4, 'prize': '50', " \
           "'spots': 4}, " in said, said
