"""The rules issue 22 (item 6, "precise contracts") settled in docs/styles/*.md, held against audit's
engines (audit/styles/*.py).

Two rows the engines used to accept, though the contracts exclude them, each in a real signed run
with one loser's row replaced by the crafted row and the manifest re-signed with the run's real key
(as an insider holding it could), so that only the rules engine (verify step 4) can tell:

- (A) a Ca$h Explosion loser (specs/examples/cash_explosion.toml, style match_n) showing eight
  different amounts and one 2X: docs/styles/match_n.md section 5, rule 4 (section 6);
- (B) a Hand to Hand Tactics loser (specs/hand_to_hand_tactics.toml, style prize_legend_duel) showing
  two MULTIPLIER spots when `loser_max_multipliers = 1`: docs/styles/prize_legend_duel.md section 4,
  rule 7 (section 9).

Then one test per other rule or convention a contract now states, on tables crafted by hand: the exact
reason, or the exact evaluation.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from audit.checklist import Step
from audit.merkle import table_root
from audit.read.manifest import canonical
from audit.styles import area_match as am
from audit.styles import prize_legend_duel as pld
from audit.styles.play import evaluate as evaluate_styles
from audit.verify import VerifyRequest, verify_run
from poolgen.cli.main import app
from poolgen.deliverables.write import imaging_name, write_imaging
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from poolgen.run.signing import Signer, new_key_pair
from tests.support import SEED_A, SPECS, spec_path

NOW = datetime(2026, 1, 2, tzinfo=UTC)


def signed_run(tmp: Path, spec, pool) -> dict:
    """A real run of `spec` holding the one (small) pool `pool`, signed with a fresh real key."""
    keys = new_key_pair(tmp / "keys")
    signer = Signer.from_file(keys.private)
    spec = replace(spec, pools=(pool,))
    run = generate(GenerateRequest(spec, SEED_A, now=NOW, out=tmp / "runs", run_id="r",
                                   signature=signer.manifest_entry()), finish=signer.sign_run)
    return {"run": run.folder, "keys": keys, "signer": signer, "spec": spec, "pool": pool}


def file_entry(path: Path) -> dict:
    """A run file's entry in the manifest (docs/manifest.md): name, size and SHA-256."""
    data = path.read_bytes()
    return {"name": path.name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def replace_a_losers_row(base: dict, run: Path, values: dict[str, int]) -> tuple[int, str]:
    """Give the first losing row the layout `values` (every other column kept: its tier, prize 0,
    identity and salt); write a printed run's imaging file again from the edited pool (with the seed,
    as an insider could); restate the files' hashes and the Merkle root in the manifest; sign it
    again. Only the rules engine can tell."""
    pool = base["pool"]
    name = f"pool-{pool.id}.parquet"
    table = pl.read_parquet(run / name)
    row = int(table.with_row_index().filter(pl.col("tier") == "lose")["index"][0])
    table = table.with_columns(
        pl.when(pl.int_range(pl.len()) == row).then(pl.lit(v)).otherwise(pl.col(c))
        .cast(table.schema[c]).alias(c) for c, v in values.items())
    table.write_parquet(run / name, compression="zstd", statistics=True)
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["pools"][0]["file"] = file_entry(run / name)
    imaging = run / imaging_name(pool.id)
    if imaging.exists():
        imaging.unlink()
        assert write_imaging(base["spec"], pool, table, SEED_A, run)
        for entry in doc["deliverables"]:
            if entry["name"] == imaging.name:
                entry.update(file_entry(imaging))
    doc["pools"][0]["merkle"]["root"] = table_root(pl.read_parquet(run / name)).hex()
    (run / "manifest.json").write_bytes(canonical(doc))
    base["signer"].sign_run(run)
    return row, str(table["ticket"][row])


def cli_verify(base: dict, run: Path) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["verify", str(run), "--public-key", str(base["keys"].public), "--json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def copied(base: dict, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(base["run"], run)
    return run


# ------------------------------------------------------------------------------------------------
# (A) Ca$h Explosion: a 2X beside no two like amounts (match_n.md section 5, rule 4)
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cash_explosion(tmp_path_factory) -> dict:
    """One book (150 tickets) of Ca$h Explosion with winners of a match and of both multipliers."""
    spec = load_spec(SPECS / "examples" / "cash_explosion.toml")
    pool = spec.pool("p1")
    counts = {"lose": 140, "free": 3, "2x2": 2, "4": 2, "5": 1, "5x2": 1, "2x5": 1}
    tiers = tuple(replace(t, count=counts[t.id]) for t in pool.tiers if t.id in counts)
    small = replace(pool, tiers=tiers, tickets=150, books=1)
    return signed_run(tmp_path_factory.mktemp("cash-explosion"), spec, small)


def test_an_honest_cash_explosion_run_verifies(cash_explosion, tmp_path):
    code, report = cli_verify(cash_explosion, copied(cash_explosion, tmp_path))
    assert code == 0 and report["failed_steps"] == []
    assert report["steps"][3]["details"] == [
        "pool p1: 150 layouts evaluated by audit.styles (match_n): each pays its stored prize (10 winners), "
        "none illegal"]


def test_a_cash_explosion_loser_with_eight_amounts_and_a_2x_fails_step_4(cash_explosion, tmp_path):
    run = copied(cash_explosion, tmp_path)
    # codes (docs/styles/match_n.md section 4): prizes FREE, $2, $4, $5, $10, $20, $50, $100, ... 0..10;
    # 2X 11, 5X 12. Eight different amounts once each and a 2X: no win, yet a 2X is shown.
    spots = [0, 1, 2, 3, 4, 5, 6, 7, 11]
    values = {f"play_spot_{j}": c for j, c in enumerate(spots)}
    row, ticket = replace_a_losers_row(cash_explosion, run, values)
    code, report = cli_verify(cash_explosion, run)
    assert code == 1 and report["failed_steps"] == [4]
    assert report["steps"][3]["reasons"] == [
        f"pool p1: 1 illegal layout(s): {ticket} (row {row}): play: 2X beside no 2 like amounts: "
        "it multiplies nothing"]


# ------------------------------------------------------------------------------------------------
# (B) Hand to Hand Tactics: a loser with two multipliers (prize_legend_duel.md section 4, rule 7)
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hand_to_hand(tmp_path_factory) -> dict:
    """Pool d1.00 of Hand to Hand Tactics cut to 2,000 shares (every tier's count / 1,000, at least 1)."""
    spec = load_spec(spec_path("hand_to_hand_tactics"))
    pool = spec.pool("d1.00")
    winners = tuple(replace(t, count=max(1, t.count // 1000)) for t in pool.tiers[1:])
    losers = replace(pool.tiers[0], count=2000 - sum(t.count for t in winners))
    small = replace(pool, tickets=2000, tiers=(losers, *winners))
    return signed_run(tmp_path_factory.mktemp("hand-to-hand"), spec, small)


def test_an_honest_hand_to_hand_run_verifies(hand_to_hand, tmp_path):
    run = copied(hand_to_hand, tmp_path)
    assert json.loads((run / "manifest.json").read_bytes())["play"]["loser_max_multipliers"] == 1
    report = verify_run(VerifyRequest(run=run, public_key=hand_to_hand["keys"].public))
    assert report.failed == []
    assert report.step(Step.LAYOUTS).details == [
        "pool d1.00: 2,000 layouts evaluated by audit.styles.prize_legend_duel: each pays its stored prize "
        f"({hand_to_hand['pool'].winners:,} winners), none illegal"]


def test_a_hand_to_hand_loser_with_two_multipliers_fails_step_4(hand_to_hand, tmp_path):
    run = copied(hand_to_hand, tmp_path)
    # outcome codes (section 3): MULTIPLIER, MULTIPLIER, LOSE, TIE, LOSE, LOSE, then UNPLAYED; no WIN, so
    # it pays 0 and breaks rules 1 to 6 nowhere: only rule 7 (loser_max_multipliers = 1) refuses it.
    codes = [4, 4, 1, 2, 1, 1] + [0] * 9
    values = {f"spot_{i}": c for i, c in enumerate(codes)} | {f"amt_{i}": 0 for i in range(15)}
    row, ticket = replace_a_losers_row(hand_to_hand, run, values)
    # the library call behind `poolgen verify`
    report = verify_run(VerifyRequest(run=run, public_key=hand_to_hand["keys"].public))
    assert report.failed == [4]
    assert report.step(Step.LAYOUTS).reasons == [
        f"pool d1.00: 1 illegal layout(s): {ticket} (row {row}): a losing share shows 2 MULTIPLIER spot(s), "
        "at most 1 (loser_max_multipliers)"]


# ------------------------------------------------------------------------------------------------
# match_n (docs/styles/match_n.md section 5): rules 3 and 4 per area, and what a row with a
# multiplier symbol wins. A play entry of two match_n areas, written by hand from the contract.
# ------------------------------------------------------------------------------------------------

def match_n_area(aid: str) -> dict:
    values = (("1", 100), ("2", 200), ("5", 500), ("10", 1000), ("20", 2000), ("50", 5000))
    return {"id": aid, "style": "match_n", "spots": 6, "match": 3,
            "prizes": [{"code": c, "cents": v} for c, v in values],
            "multipliers": [{"code": "2X", "by": 2}, {"code": "5X", "by": 5}]}


def win(area: str, prize: str, cents: int, how: str = "match", by: int = 1) -> dict:
    return {"area": area, "how": how, "by": by, "prize": prize, "prize_cents": cents}


MATCH_N = {"max_wins": 3, "areas": [match_n_area("a"), match_n_area("b")], "tiers": [
    {"id": "lose", "wins": []},
    {"id": "2x1", "wins": [win("a", "1", 100, "multiplier", 2)]},
    {"id": "2", "wins": [win("a", "2", 200)]},
    {"id": "2+2x1", "wins": [win("a", "2", 200), win("a", "1", 100, "multiplier", 2)]},
    {"id": "2x1+2x2", "wins": [win("a", "1", 100, "multiplier", 2), win("a", "2", 200, "multiplier", 2)]}]}
# codes: $1 0, $2 1, $5 2, $10 3, $20 4, $50 5, 2X 6, 5X 7
LOSING = [0, 1, 2, 3, 0, 1]  # two $1, two $2, a $5, a $10: no win, no multiplier symbol


def match_n_rows(*rows: tuple[str, list[int], list[int]]) -> pl.DataFrame:
    data = [{"tier": t} | {f"a_spot_{j}": c for j, c in enumerate(a)}
            | {f"b_spot_{j}": c for j, c in enumerate(b)} for t, a, b in rows]
    return pl.DataFrame(data).with_columns(pl.exclude("tier").cast(pl.UInt8))


def test_match_n_rule_4_a_multiplier_symbol_beside_no_pair_per_area():
    """A 2X beside no two like amounts is refused in the area that shows it, whatever the tier: a
    loser; the other area of a multiplied winner; a winner of a match in the same area. A 2X beside a
    pair is a multiplied win instead (not rule 4)."""
    table = match_n_rows(("lose", [0, 1, 2, 3, 6, 1], LOSING),  # two $2 and 2X: a $4 win
                         ("lose", [0, 1, 2, 3, 4, 6], LOSING),  # five amounts and 2X
                         ("2x1", [0, 0, 6, 1, 2, 3], [1, 2, 3, 7, 4, 5]),  # a lone 5X in area b
                         ("2", [1, 1, 1, 6, 2, 3], LOSING))  # three $2 and a lone 2X
    result = evaluate_styles(table, {"id": "p1"}, MATCH_N)
    assert result.prize_cents.tolist() == [400, 0, 200, 200]
    assert result.illegal == [
        (0, "its wins are not its tier 'lose''s (1 win(s) paying 400 cents)"),
        (1, "a: 2X beside no 2 like amounts: it multiplies nothing"),
        (2, "b: 5X beside no 2 like amounts: it multiplies nothing"),
        (3, "a: 2X beside no 2 like amounts: it multiplies nothing")]


def test_match_n_rule_3_counts_spots_not_symbols():
    table = match_n_rows(("2x1", [0, 0, 6, 6, 2, 3], LOSING), ("2x1", [0, 0, 6, 7, 2, 3], LOSING))
    assert evaluate_styles(table, {"id": "p1"}, MATCH_N).illegal == [
        (0, "a: 2 multiplier symbols; its wins are not its tier '2x1''s (0 win(s) paying 0 cents)"),
        (1, "a: 2 multiplier symbols; its wins are not its tier '2x1''s (0 win(s) paying 0 cents)")]


def test_match_n_n_like_amounts_beside_a_multiplier_are_a_match_only():
    """Three $2, two $1 and a 2X: the $2 are a match (by 1), the $1 the multiplied win."""
    table = match_n_rows(("2+2x1", [1, 0, 1, 6, 1, 0], LOSING))
    result = evaluate_styles(table, {"id": "p1"}, MATCH_N)
    assert result.illegal == [] and result.prize_cents.tolist() == [200 + 2 * 100]
    assert result.wins.tolist() == [2]


def test_match_n_one_multiplier_symbol_multiplies_every_pair():
    table = match_n_rows(("2x1+2x2", [0, 1, 6, 1, 0, 2], LOSING), ("2x1", [0, 1, 6, 1, 0, 2], LOSING))
    result = evaluate_styles(table, {"id": "p1"}, MATCH_N)
    assert result.prize_cents.tolist() == [2 * 100 + 2 * 200] * 2
    assert result.illegal == [(1, "its wins are not its tier '2x1''s (2 win(s) paying 600 cents)")]


# ------------------------------------------------------------------------------------------------
# prize_legend_duel (docs/styles/prize_legend_duel.md sections 2 and 4): rule 7 and what is no rule
# ------------------------------------------------------------------------------------------------

DUEL = {"style": "prize_legend_duel", "spots": 6, "losses": 3, "legend": ["1", "2"]}
D100 = {"id": "d1.00", "price_cents": 100, "denomination_cents": 100, "play_areas": 1}


def duel_rows(*rows: tuple[int, list[int], list[int]]) -> pl.DataFrame:
    data = [{"tier": "lose" if p == 0 else "m", "prize_cents": p}
            | {f"spot_{i}": c for i, c in enumerate(codes)} | {f"amt_{i}": a for i, a in enumerate(amts)}
            for p, codes, amts in rows]
    return pl.DataFrame(data).with_columns(pl.col(r"^spot_\d+$").cast(pl.UInt8),
                                           pl.col(r"^amt_\d+$").cast(pl.Int64))


THREE_MULT_LOSER = (0, [4, 4, 1, 4, 1, 1], [0] * 6)
THREE_MULT_WINNER = (400, [4, 3, 1, 4, 1, 1], [0, 100, 0, 0, 0, 0])


def test_duel_rule_7_losers_multipliers():
    table = duel_rows(THREE_MULT_LOSER, THREE_MULT_WINNER, (0, [4, 4, 1, 2, 1, 1], [0] * 6))
    result = pld.evaluate(table, D100, {**DUEL, "loser_max_multipliers": 2})
    assert result.prize_cents.tolist() == [0, 300, 0]
    assert result.illegal == [  # the winner with three multipliers is legal (its prize aside)
        (0, "a losing share shows 3 MULTIPLIER spot(s), at most 2 (loser_max_multipliers)"),
        (1, "layout pays 300 cents, prize_cents is 400")]
    result = pld.evaluate(table, D100, {**DUEL, "loser_max_multipliers": 0})
    assert [why for _, why in result.illegal] == [
        "a losing share shows 3 MULTIPLIER spot(s), at most 0 (loser_max_multipliers)",
        "layout pays 300 cents, prize_cents is 400",
        "a losing share shows 2 MULTIPLIER spot(s), at most 0 (loser_max_multipliers)"]


def test_duel_an_entry_without_loser_max_multipliers_bounds_losers_by_the_spots():
    assert pld.evaluate(duel_rows(THREE_MULT_LOSER), D100, DUEL).illegal == []
    assert pld.read_play(DUEL).loser_max_multipliers == 3


@pytest.mark.parametrize("value", [4, -1, True, "1"])
def test_duel_a_loser_max_multipliers_out_of_range_is_refused(value):
    with pytest.raises(ValueError) as exc:
        pld.read_play({**DUEL, "loser_max_multipliers": value})
    assert str(exc.value) == (f"manifest play entry: play.loser_max_multipliers: {value!r} is not a whole "
                              "number 0..3")


def test_duel_first_spot_loss_and_the_decompositions_are_no_rule_of_the_rows():
    """first_spot_loss = 0 and a spot 0 that is a loss; max_decompositions = 1 (for $3 it keeps the
    first decomposition, three $1 wins, section 7) and a winner of $2 + $1: all rows are legal."""
    play = {**DUEL, "first_spot_loss": "0", "max_decompositions": 1, "loser_max_multipliers": 1}
    table = duel_rows((0, [1, 2, 1, 1, 0, 0], [0] * 6), (300, [3, 3, 1, 3, 1, 1], [100, 100, 0, 100, 0, 0]),
                      (300, [3, 1, 1, 3, 1, 0], [200, 0, 0, 100, 0, 0]))
    result = pld.evaluate(table, D100, play)
    assert result.illegal == [] and result.prize_cents.tolist() == [0, 300, 300]


# ------------------------------------------------------------------------------------------------
# area_match (docs/styles/area_match.md sections 1, 3 and 5)
# ------------------------------------------------------------------------------------------------

AREA_MATCH = {
    "style": "area_match", "spots": 4,
    "symbols": ["CLIP", "FINGER", "WHISTLE", "BOTTLE", "TEE", "SHOE", "BLUEJ", "WHITEJ", "GFOOT", "TD", "FG",
                "COIN", "JCOIN"],
    "wild": 12, "bonus_key": 9, "match_pays": [{"count": 3, "times": 1}, {"count": 4, "times": 2}],
    "bonus_games": [{"code": 1, "name": "Touchdown", "symbol": 10, "chances": 4},
                    {"code": 2, "name": "Field Goal", "symbol": 11, "grid": [1, 2, 3, 4, 2, 1]}],
    "amount_multipliers": ["0.5", "1", "2", "5"]}
D200 = {"id": "d2.00x1", "price_cents": 200, "denomination_cents": 200, "play_areas": 1}
A = 400  # 2 x D


def area_rows(*rows: tuple[int, list[int], int, int, int]) -> pl.DataFrame:
    """One area a row: (prize, symbols, bonus, result, prizes); amount A."""
    data = [{"tier": "lose" if p == 0 else "m", "prize_cents": p} | {f"a0_s{j}": s for j, s in enumerate(sym)}
            | {"a0_amount": A, "a0_bonus": b, "a0_bonus_result": r, "a0_bonus_prizes": n}
            for p, sym, b, r, n in rows]
    return pl.DataFrame(data).with_columns(pl.col(r"^a0_(s\d|bonus.*)$").cast(pl.UInt8),
                                           pl.col("a0_amount").cast(pl.Int64))


def test_area_match_bonus_columns_are_judged_by_the_game_they_name():
    """GFOOT and TD trigger Touchdown; the columns name Field Goal (section 1 of its grid: 2 prizes),
    a section off the grid, or a game that does not exist. The area pays N x A by its trigger."""
    touchdown = [9, 10, 1, 2]
    table = area_rows((2 * A, touchdown, 2, 1, 2), (2 * A, touchdown, 2, 7, 2), (0, touchdown, 3, 0, 0),
                      (0, touchdown, 1, 3, 0), (0, [9, 1, 2, 3], 1, 3, 2))
    result = am.evaluate(table, D200, AREA_MATCH)
    assert result.prize_cents.tolist() == [2 * A, 2 * A, 0, 0, 0]
    assert result.illegal == [
        (0, "area 0: a0_bonus is 2 but its symbols trigger Touchdown (1)"),
        (1, "area 0: a0_bonus is 2 but its symbols trigger Touchdown (1); "
            "area 0: Field Goal a0_bonus_result 7 not a grid section 0..5"),
        (2, "area 0: a0_bonus is 3 but its symbols trigger Touchdown (1); "
            "area 0: bonus 3 bonus with 0 prizes"),
        (3, "area 0: Touchdown bonus with 0 prizes"),  # rule 7 only: mask 3 scores 2, not reported again
        (4, "area 0: a0_bonus is 1 but its symbols trigger no bonus (0)")]  # a bonus column pays nothing


def test_area_match_a_bonus_key_that_is_the_wild_is_refused():
    with pytest.raises(ValueError) as exc:
        am.read_play({**AREA_MATCH, "bonus_key": 12})
    assert str(exc.value) == "manifest play entry (area_match): bonus_key must not be the wild"


@pytest.mark.parametrize("text", ["1e2", "1/2", " 1", "1.", ".5", "+1", "٣"])
def test_area_match_an_amount_multiplier_that_is_not_a_plain_decimal_is_refused(text):
    with pytest.raises(ValueError) as exc:
        am.read_play({**AREA_MATCH, "amount_multipliers": ["1", text]})
    assert str(exc.value) == "manifest play entry (area_match): amount_multipliers: not a decimal number"
    assert am.read_play({**AREA_MATCH, "amount_multipliers": ["1", "2.50"]}).amounts[1] == 2.5


# ------------------------------------------------------------------------------------------------
# key_number_match and bonus_reveal: what is legal
# ------------------------------------------------------------------------------------------------

def test_key_number_match_without_distinct_numbers_your_numbers_may_repeat():
    area = {"id": "k", "style": "key_number_match", "winning": 2, "yours": 4, "numbers": list("123456"),
            "prizes": [{"code": "1", "cents": 100}], "specials": [], "match_by": 1}
    play = {"max_wins": 4, "areas": [area], "tiers": [{"id": "lose", "wins": []},
                                                       {"id": "2", "wins": [win("k", "1", 100)] * 2}]}
    rows = [{"tier": t, "k_win_0": 0, "k_win_1": 1} | {f"k_your_{j}": y for j, y in enumerate(yours)}
            | {f"k_prize_{j}": 0 for j in range(4)}
            for t, yours in (("lose", [3, 3, 3, 2]), ("2", [0, 0, 3, 3]))]
    table = pl.DataFrame(rows).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate_styles(table, {"id": "p1"}, play)
    assert result.illegal == [] and result.prize_cents.tolist() == [0, 200]
    spread = evaluate_styles(table, {"id": "p1"}, {**play, "areas": [{**area, "distinct_numbers": True}]})
    assert spread.illegal == [(0, "k: a YOUR NUMBER that matches nothing shows twice"),
                              (1, "k: 2 matches use the WINNING NUMBERS unevenly (2, 0 times); "
                                  "k: a YOUR NUMBER that matches nothing shows twice")]


def test_bonus_reveal_most_alike_counts_pictures_on_every_ticket():
    area = {"id": "r", "style": "bonus_reveal", "spots": 3, "most_alike": 1,
            "prizes": [{"code": "WIN10", "cents": 1000}], "pictures": ["BAR", "BILL"]}
    reveal = {"area": "r", "how": "reveal", "by": 1, "prize": "WIN10", "prize_cents": 1000}
    play = {"max_wins": 3, "areas": [area], "tiers": [
        {"id": "lose", "wins": []}, {"id": "10", "wins": [reveal]}, {"id": "20", "wins": [reveal] * 2}]}
    # codes: BAR 0, BILL 1, WIN10 2
    table = pl.DataFrame([{"tier": t, "r_spot_0": a, "r_spot_1": b, "r_spot_2": c}
                          for t, a, b, c in (("20", 2, 2, 0), ("10", 2, 0, 0), ("lose", 0, 1, 1))]
                         ).with_columns(pl.exclude("tier").cast(pl.UInt8))
    result = evaluate_styles(table, {"id": "p1"}, play)
    assert result.prize_cents.tolist() == [2000, 1000, 0]
    assert result.illegal == [
        (1, "r: one picture shows 2 times (at most 1: more read as a match that wins nothing)"),
        (2, "r: one picture shows 2 times (at most 1: more read as a match that wins nothing)")]


# ------------------------------------------------------------------------------------------------
# docs/pool-files.md: the eInstant pool ids, from the rule written there
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["hand_to_hand_tactics", "primetime_payout"])
def test_einstant_pool_ids_follow_pool_files_md(game):
    spec = load_spec(spec_path(game))
    text = spec_path(game).read_text()
    several = "play_areas = [1, 2, 3, 4]" in text
    assert several == (game == "primetime_payout")
    want = [f"d{p.denomination_cents // 100}.{p.denomination_cents % 100:02d}"
            + (f"x{p.play_areas}" if several else "") for p in spec.pools]
    assert [p.id for p in spec.pools] == want
    assert want[0] == ("d1.00x1" if several else "d1.00")
