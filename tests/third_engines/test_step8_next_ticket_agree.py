"""The third engine for step 8's 1j, 1k and 1l (tests/third_engines/step8_next_ticket.py and
step8_spread.py, written from docs/statistics.md sections 1j, 1k, 1l and 3 alone) held against audit's
findings: on a small pool of each Kansas game, honest and carrying an insider's tell (the losers' layouts
exchanged among the losers, tests/support/next_ticket_biases.py), the same tests under the same names in
the same order, methods and figures word for word, p-values to a relative 1e-9 (1j's not made listed as
not tested, 1k's and the duel's not; every one withheld by the public report); against the details `poolgen
verify --json` publishes for re-signed Primetime Payout and Happy Holidays runs carrying a tell; and
combined across two pools by 1d as audit combines them."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from audit.stats.step import combined_statistics, pool_statistics
from poolgen.cli.main import app
from poolgen.loader import load_spec
from poolgen.pdf.report.statistics import withheld
from poolgen.run.build import build_pool
from tests.support import small_einstant, small_example, small_wild_side
from tests.support.next_ticket_biases import tell_before, tell_in_books
from tests.support.reseal import reseal_insider_pool, signed_first_pool
from tests.support.stats import Entry, judge, small_spec
from tests.third_engines.combined import combine
from tests.third_engines.step8_next_ticket import Table
from tests.third_engines.step8_spread import tables

SEED = hashlib.sha256(b"poolgen/tests/third-engine/step8-next-ticket").digest()
OURS = ("against the next ticket's prize", "against the book's highest prize",
        "the last loser before a winner")


def _ours(name: str) -> bool:
    return any(s in name for s in OURS)


def _columns(table: pl.DataFrame) -> dict[str, np.ndarray]:
    return {c: table[c].to_numpy().astype(np.int64) for c in table.columns if table[c].dtype.is_numeric()}


def _engine(spec: Any, table: pl.DataFrame, not_made: list[str] | None = None) -> list[Table]:
    per_book = spec.tickets_per_book if spec.kind == "printed" else None
    return tables(spec.play.document(), _columns(table), per_book, list(table.columns), not_made)


def _agree(spec: Any, pool: Any, table: pl.DataFrame) -> dict[str, float]:
    """The engine's tables are audit's 1j, 1k and 1l findings, one for one, the 1j tables it does not make
    are those audit lists as not tested, and the report's public edition withholds each: {name: p}."""
    s, _ = judge(spec, pool, table, SEED)
    audit = [j.finding for j in s.judged if _ours(j.finding.name)]
    not_made: list[str] = []
    mine = _engine(spec, table, not_made)
    assert [t.name for t in mine] == [f.name for f in audit]
    listed = [n.removeprefix("layout: ").split(": too few")[0] for n in s.not_tested if _ours(n)]
    assert listed == not_made
    assert [t.name for t in mine if not withheld(t.name, t.figures)] == []  # section 4: the public report
    for t, f in zip(mine, audit, strict=True):
        assert (t.method, t.figures) == (f.method, f.figures), t.name
        assert t.p == pytest.approx(f.p, rel=1e-9, abs=1e-300), (t.name, t.p, f.p)
    return {t.name: t.p for t in mine}


def _game(tmp: Path, rules: str, pool: int = 0) -> tuple[Any, Any, pl.DataFrame]:
    if rules == "happy_holidays":
        spec = small_spec(tmp)
    elif rules == "wild_side":
        spec = load_spec(small_wild_side(tmp))
    else:
        spec = load_spec(small_einstant(tmp, rules, 100_000))
    return spec, spec.pools[pool], build_pool(spec, spec.pools[pool], SEED)


@pytest.mark.parametrize(("rules", "pool", "made"), [("happy_holidays", 0, 26), ("wild_side", 0, 59),
                                                     ("hand_to_hand_tactics", 0, 35),
                                                     ("primetime_payout", 3, 20)])
def test_an_honest_small_pool_of_each_kansas_game_gets_the_same_next_ticket_and_spread_tables(
        tmp_path, rules, pool, made):
    spec, p, table = _game(tmp_path, rules, pool)
    assert len(_agree(spec, p, table)) == made


def test_a_match_n_area_with_multipliers_names_its_spots_tables_without_win_lose(tmp_path):
    """Winner Wonderland's area `play` has a doubler: section 2 names a spot's feature `play_spot_j (one
    scratched spot) against win/lose among tickets whose spot j shows an amount`, and 1j and 1k take its
    ` against win/lose` out wherever it stands (audit took it out only at the end, so its 1j and 1k names
    said `against win/lose` in the middle)."""
    spec = load_spec(small_example(tmp_path, "oh_winner_wonderland", 6000))
    pool = spec.pools[0]
    found = _agree(spec, pool, build_pool(spec, pool, SEED))
    assert len(found) == 23 and not any("win/lose" in n for n in found)
    assert ("play_spot_0 (one scratched spot) among tickets whose spot 0 shows an amount, on a losing "
            "ticket, against the next ticket's prize (print order)") in found


def _pairs(table: pl.DataFrame) -> np.ndarray:
    spots = np.stack([table[f"play_spot_{j}"].to_numpy() for j in range(6)], axis=1)
    return ((spots[:, :, None] == np.arange(6)).sum(axis=1) >= 2).sum(axis=1)


def test_happy_holidays_insiders_tells_get_the_same_tables(tmp_path):
    """Three amounts each in two spots before every winner (1l's pairs); $20 in spot 0 of the first loser
    of each book holding a $5 or more (1k: the count of $20s is the test it moves most)."""
    spec, pool, table = _game(tmp_path, "happy_holidays")
    lose = table["prize_cents"].to_numpy() == 0
    found = _agree(spec, pool, tell_before(table, lose & (_pairs(table) == 3), None, None,
                                           np.random.default_rng(1)))
    assert found["play: the prize symbols shown twice or more (counted), on a losing ticket, against the "
                 "next ticket's prize (print order)"] < 1e-10
    shows = lose & (table["play_spot_0"].to_numpy() == 4)
    found = _agree(spec, pool, tell_in_books(table, shows, 30, (500, 2000, 10000), np.random.default_rng(1)))
    assert found["play: the spots showing 20 (counted), on the first and last loser of each book, against "
                 "the book's highest prize"] < 1e-4


def test_wild_side_near_misses_before_every_winner_get_the_same_tables(tmp_path):
    spec, pool, table = _game(tmp_path, "wild_side")
    wins = np.stack([table[f"numbers_win_{i}"].to_numpy().astype(np.int64) for i in range(5)], axis=1)
    yours = [table[f"numbers_your_{i}"].to_numpy().astype(np.int64) for i in range(12)]
    near = sum((np.abs(y[:, None] - wins) == 1).any(axis=1) for y in yours)
    tell = (table["prize_cents"].to_numpy() == 0) & (near >= 4)
    found = _agree(spec, pool, tell_before(table, tell, None, None, np.random.default_rng(1)))
    assert found["numbers: the YOUR NUMBERS one off a WINNING NUMBER (counted), on a losing ticket, against "
                 "the next ticket's prize (print order)"] < 1e-10


def test_a_duels_seventh_reveal_multiplier_before_every_winner_gets_the_same_tables(tmp_path):
    spec, pool, table = _game(tmp_path, "hand_to_hand_tactics")
    tell = (table["prize_cents"].to_numpy() == 0) & (table["spot_6"].to_numpy() == 4)
    found = _agree(spec, pool, tell_before(table, tell, None, 1_000, np.random.default_rng(1)))
    assert found["the reveal showing a multiplier (its spot + 1, 0 if none), the last loser before a winner "
                 "against the first after one (runs of losers, serial order)"] < 1e-10


def test_a_duel_reveal_no_share_plays_makes_neither_runs_test_and_lists_neither(tmp_path):
    """`spot_14` UNPLAYED (0) on every share: its codes make one group, so neither of 1l's tests of it is
    made, and neither is listed as not tested (as 1k's; only 1j's not-made tests are listed)."""
    spec, pool, table = _game(tmp_path, "hand_to_hand_tactics")
    unplayed = table.with_columns(pl.lit(0, dtype=table["spot_14"].dtype).alias("spot_14"))
    found = _agree(spec, pool, unplayed)
    assert len(found) == 33 and not any(n.startswith("spot_14 ") for n in found)
    s, _ = judge(spec, pool, unplayed, SEED)
    assert not any("spot_14" in n for n in s.not_tested)


def test_book_ends_without_a_code_and_books_of_winners_get_the_same_tables(tmp_path):
    """Codes no prize symbol has (6, 7: a multiplier's place, none on Happy Holidays) on some books' first
    or last loser: the row is left out after the ends are found; four books of winners only, four of one
    loser each (one row)."""
    spec, pool, table = _game(tmp_path, "happy_holidays")
    prize = table["prize_cents"].to_numpy()
    spot = table["play_spot_0"].to_numpy().copy()
    for b in range(0, len(prize), 30):
        losers = np.flatnonzero(prize[b:b + 30] == 0)
        if b % 60 == 0:
            spot[b + losers[0]] = 6
        if b % 90 == 0:
            spot[b + losers[-1]] = 7
    changed = table.with_columns(pl.Series("play_spot_0", spot, dtype=table["play_spot_0"].dtype))
    assert len(_agree(spec, pool, changed)) == 24
    w, lo = np.flatnonzero(prize > 0), np.flatnonzero(prize == 0)
    first = list(w[:120]) + [x for i in range(4) for x in [*w[120 + 29 * i:149 + 29 * i], lo[i]]]
    taken = set(first)
    order = np.array(first + [i for i in range(len(prize)) if i not in taken])
    assert len(_agree(spec, pool, table[order])) == 22


def test_two_small_happy_holidays_pools_combine_the_engines_tables_as_audit_does(tmp_path):
    """1d combines 1j's, 1k's and 1l's tests across a run's pools by name as it does section 2's: Fisher's
    p of the engine's two tables of each name (tests/third_engines/combined.py) is audit's combined test."""
    spec = small_spec(tmp_path)
    pool = spec.pools[0]
    stats, mine = [], []
    for seed in (SEED, hashlib.sha256(SEED).digest()):
        table = build_pool(spec, pool, seed)
        stats.append(pool_statistics(table, Entry(pool, seed), rules=spec.id, kind=spec.kind,
                                     per_book=spec.tickets_per_book, pools=2, play=spec.play.document()))
        mine.append([(t.name, t.p) for t in _engine(spec, table)])
    combined = combined_statistics(stats, 2).judged
    audit = {j.finding.name: j.finding.p for j in combined if _ours(j.finding.name)}
    engine = {name: p for name, p, _ in combine(mine)}
    assert list(engine) == list(audit) and len(engine) == 26
    for name, p in engine.items():
        assert p == pytest.approx(audit[name], rel=1e-9), name


def _shown(p: str) -> tuple[float, float]:
    """A p-value as verify prints it, and half a unit of its last digit."""
    mantissa, _, exponent = p.partition("e")
    places = len(mantissa.split(".")[1]) if "." in mantissa else 0
    return float(p), 0.5 * 10 ** (-places + (int(exponent) if exponent else 0))


def _published(spec: Any, pool: Any, tmp: Path, change: Any) -> tuple[list[Table], list[str]]:
    """A signed run of `pool` whose table an insider `change`s and re-signs: every 1j, 1k and 1l test
    `verify --json` publishes in step 8 (its details, or its reasons when refused) is the engine's on the
    run's pool file, in number, figures word for word, p to its printed digits. (The engine's tables,
    step 8's reasons.)"""
    run, public, signer = signed_first_pool(spec, SEED, tmp, "insider", pool.id)
    reseal_insider_pool(run, spec, pool.id, SEED, signer, change)
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(public), "--json"])
    assert result.exit_code == 1, result.output
    step = json.loads(result.stdout)["steps"][7]
    assert step["step"] == 8 and step["status"] == "fail"
    lines = [r for r in step["reasons"] + step["details"] if _ours(r) and ": not tested: " not in r]
    mine = _engine(spec, pl.read_parquet(next(run.glob("pool-*.parquet"))))
    assert len(lines) == len(mine)
    for t in mine:
        head = f"pool {pool.id}: {t.name} ({t.method}): {t.figures}, p = "
        line = next(r for r in lines if r.startswith(head))
        shown, half = _shown(line[len(head):].split(" <= ")[0])
        assert abs(t.p - shown) <= half * (1 + 1e-9), (t.name, t.p, shown)
    return mine, [re.sub(r" \(chi-square.*", "", r) for r in step["reasons"]]


def test_a_re_signed_primetime_run_whose_second_area_tells_publishes_the_engines_tables(tmp_path):
    """1,000 losing shares whose area 1 shows symbol 1 first put before a winner: 10 tables of 1j and 1l,
    the reason area 1's test alone."""
    spec = load_spec(small_einstant(tmp_path, "primetime_payout", 100_000))

    def insider(table: pl.DataFrame) -> pl.DataFrame:
        tell = (table["prize_cents"].to_numpy() == 0) & (table["a1_s0"].to_numpy() == 1)
        return tell_before(table, tell, None, 1_000, np.random.default_rng(1))

    mine, reasons = _published(spec, spec.pools[1], tmp_path, insider)
    name = "a1_s0 (as shown), on a losing ticket, against the next ticket's prize (serial order)"
    assert len(mine) == 10 and reasons == [f"pool d1.00x2: {name}"]
    assert next(t.p for t in mine if t.name == name) < 1e-50


def test_a_re_signed_happy_holidays_run_whose_losers_pair_amounts_before_winners_publishes_the_engines_tables(
        tmp_path):
    """Every loser before a winner showing three amounts each in two spots: 25 tables of 1j, 1k and 1l
    (12 of them 1k's), the pairs' count among the reasons."""
    spec = small_spec(tmp_path)

    def insider(table: pl.DataFrame) -> pl.DataFrame:
        tell = (table["prize_cents"].to_numpy() == 0) & (_pairs(table) == 3)
        return tell_before(table, tell, None, None, np.random.default_rng(1))

    mine, reasons = _published(spec, spec.pools[0], tmp_path, insider)
    pairs = ("play: the prize symbols shown twice or more (counted), on a losing ticket, against the next "
             "ticket's prize (print order)")
    assert len(mine) == 25 and f"pool p1: {pairs}" in reasons
    assert sum("on the first and last loser of each book" in t.name for t in mine) == 12
