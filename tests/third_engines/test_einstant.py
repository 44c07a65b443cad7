"""The third eInstant engine (tests/third_engines/einstant.py, written from K.A.R. 111-23-22 and
111-23-23, docs/styles/prize_legend_duel.md, area_match.md and play.md alone) against audit on real
runs of Hand to Hand Tactics and Primetime Payout cut to pools of 2,000 shares: every generated share
legal and paying what audit says it pays, with audit's number of wins; and a share tampered to show
what the regulation reads as a win it is not paid (or a wrong multiplier, symbol, amount, bonus or
area) refused by both, with the same reasons word for word and the same amount."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from audit.checklist import Step
from audit.styles.play import evaluate_play
from audit.verify import VerifyRequest, verify_run
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_einstant
from tests.third_engines import against_audit, einstant

POOLS = {  # every denomination of each game; Primetime Payout's every number of play areas
    "hand_to_hand_tactics": ["d1.00", "d5.00", "d30.00"],
    "primetime_payout": ["d1.00x1", "d2.00x2", "d5.00x3", "d7.50x4", "d7.50x1"],
}


def _make(folder: Path, rules: str) -> Path:
    spec = small_einstant(folder, rules, 2000)
    return generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                    out=folder, run_id="r", pool_ids=POOLS[rules])).folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    return {rules: _make(tmp_path_factory.mktemp(rules), rules) for rules in POOLS}


def _pool(run: Path, pool_id: str) -> tuple[dict, dict, pl.DataFrame]:
    manifest = json.loads((run / "manifest.json").read_text())
    pool = next(p for p in manifest["pools"] if p["id"] == pool_id)
    return manifest["play"], pool, pl.read_parquet(run / f"pool-{pool_id}.parquet")


def _audit(play: dict, pool: dict, table: pl.DataFrame) -> list[tuple[str, int, int]]:
    """audit's verdict on every row (the evaluation step 4 makes), as the engine gives its own."""
    result = evaluate_play(table, pool, play)
    illegal = dict(result.illegal)
    return [(illegal.get(r, ""), int(result.prize_cents[r]), int(result.wins[r]))
            for r in range(table.height)]


@pytest.mark.parametrize(("rules", "pool_id"), [(r, p) for r, ps in POOLS.items() for p in ps])
def test_every_generated_share_is_legal_and_pays_as_audit_says(runs, rules, pool_id):
    play, pool, table = _pool(runs[rules], pool_id)
    mine = einstant.judge(play, pool, table)
    assert [m[0] for m in mine] == [""] * 2000
    assert [m[1] for m in mine] == table["prize_cents"].to_list()
    assert sum(m[1] > 0 for m in mine) == pool["winners"]
    assert mine == _audit(play, pool, table)


Change = Callable[[dict], dict[str, Any]]
Pick = Callable[[dict], bool]
S = 15  # Hand to Hand Tactics' spots


def _spots(r: dict) -> list[int]:
    return [r[f"spot_{i}"] for i in range(S)]


def _at(r: dict, code: int) -> int:
    return _spots(r).index(code)


def _end(r: dict) -> int:
    return max(i for i, c in enumerate(_spots(r)) if c == 1)


def _area(i: int, codes: list[int | None]) -> dict[str, int | None]:
    return {f"a{i}_s{j}": c for j, c in enumerate(codes)}


def _bonus(r: dict, game: int, k: int) -> int:
    return next(i for i in range(k) if r[f"a{i}_bonus"] == game)


def _has_bonus(game: int, k: int) -> Pick:
    return lambda r: any(r[f"a{i}_bonus"] == game for i in range(k))


PLAIN = _area(0, [1, 2, 3, 4]) | _area(1, [5, 6, 7, 8]) | _area(2, [1, 2, 3, 4]) | _area(3, [5, 6, 7, 8])

# (pool, tier: "lose" or "win", which row of it, the change, what the reasons must hold, what it is)
DUEL: list[tuple[str, str, Pick | None, Change, str, str]] = [
    ("d1.00", "lose", lambda r: 2 in _spots(r) and 4 not in _spots(r),
     lambda r: {f"spot_{_at(r, 2)}": 3, f"amt_{_at(r, 2)}": 100},
     "tier 'lose' but the layout pays 100 cents", "a loser shows a win of the legend"),
    ("d5.00", "lose", lambda r: _spots(r).count(2) >= 2 and 4 not in _spots(r),
     lambda r: {f"spot_{i}": 4 for i in [j for j, c in enumerate(_spots(r)) if c == 2][:2]},
     "a losing share shows 2 MULTIPLIER spot(s), at most 1 (loser_max_multipliers)",
     "a loser with two multipliers"),
    ("d30.00", "win", lambda r: 2 in _spots(r), lambda r: {f"spot_{_at(r, 2)}": 4},
     "layout pays", "a winner with a multiplier its tier does not pay"),
    ("d1.00", "win", lambda r: 4 in _spots(r), lambda r: {f"spot_{_at(r, 4)}": 2},
     "layout pays", "a winner's multiplier taken off"),
    ("d5.00", "win", lambda r: _end(r) < S - 1,
     lambda r: {f"spot_{_end(r) + 1}": 3, f"amt_{_end(r) + 1}": 500},
     "WIN after the last loss", "a win revealed after the third loss"),
    ("d1.00", "lose", lambda r: _end(r) < S - 1, lambda r: {f"spot_{_end(r) + 1}": 1},
     "4 LOSE spots", "a fourth loss"),
    ("d30.00", "win", None, lambda r: {f"spot_{_end(r)}": 2}, "2 LOSE spots", "two losses: play never ends"),
    ("d1.00", "win", None, lambda r: {"spot_0": 5}, "spot_0 has code 5, not an outcome code 0..4",
     "an outcome code out of range"),
    ("d5.00", "lose", lambda r: _end(r) < S - 1, lambda r: {f"spot_{S - 1}": 7},
     "spot_14 is code 7 after the last loss", "an out-of-range code after the last loss"),
    ("d1.00", "lose", lambda r: 2 in _spots(r), lambda r: {f"amt_{_at(r, 2)}": 100}, "on a TIE spot, not 0",
     "an amount on a tie"),
    ("d1.00", "lose", lambda r: 0 in _spots(r), lambda r: {f"amt_{_at(r, 0)}": 50}, "on an UNPLAYED spot",
     "an amount on a spot never revealed"),
    ("d30.00", "win", None, lambda r: {f"amt_{_at(r, 3)}": 0}, "on a WIN spot, not > 0",
     "a win without an amount"),
    ("d5.00", "win", None, lambda r: {f"amt_{_at(r, 3)}": 30}, "not a legend value x 500",
     "an amount that is no prize symbol"),
    ("d1.00", "lose", lambda r: 2 in _spots(r) and _at(r, 2) < _end(r), lambda r: {f"spot_{_at(r, 2)}": 0},
     "is UNPLAYED before the last loss", "a gap before the last loss"),
    ("d1.00", "lose", None, lambda r: {"spot_3": None, "amt_5": None}, "spot_3 is null; amt_5 is null",
     "nulls, in column order"),
    ("d5.00", "win", None, lambda r: {"prize_cents": None}, "prize_cents is null; layout pays",
     "a null prize, read as 0"),
    ("d30.00", "win", None, lambda r: {"tier": "lose", "prize_cents": 0}, "tier 'lose' but the layout pays",
     "a winner relabelled a loser"),
    ("d5.00", "win", lambda r: 4 in _spots(r), lambda r: {f"amt_{_at(r, 3)}": 2**62},
     "not a legend value x 500; layout pays", "an amount of 2^62 cents multiplied: exact, beyond int64"),
]

MATCH: list[tuple[str, str, Pick | None, Change, str, str]] = [
    ("d1.00x1", "lose", None, lambda r: _area(0, [1, 1, 1, 2]), "areas pay 100 = 100 cents",
     "a loser shows three matching symbols"),
    ("d2.00x2", "lose", None, lambda r: _area(1, [12, 12, 12, 2]), "tier 'lose' but the areas pay 0 + ",
     "a loser shows three Coins (wild), which match four: double"),
    ("d5.00x3", "lose", None, lambda r: _area(2, [13, 12, 13, 4]), "tier 'lose' but the areas pay",
     "a loser shows two Jackpot Coins and a Coin"),
    ("d7.50x4", "lose", None, lambda r: PLAIN | _area(3, [9, 9, 9, 2]),
     "area 3: 3 GFOOT symbols match and win nothing", "three Golden Footballs"),
    ("d7.50x1", "lose", None, lambda r: _area(0, [10, 3, 10, 10]),
     "area 0: 3 TD symbols match and win nothing", "three Touchdowns"),
    ("d2.00x2", "lose", None, lambda r: PLAIN | _area(0, [9, 10, 1, 2]),
     "area 0: a0_bonus is 0 but its symbols trigger Touchdown (1)", "a loser shows a bonus trigger"),
    ("d2.00x2", "lose", None, lambda r: PLAIN | _area(0, [9, 1, 2, 3]) | _area(1, [11, 2, 3, 4]),
     "GFOOT in area 0 and FG in area 1", "a Golden Football and a Field Goal in two areas"),
    ("d7.50x4", "win", _has_bonus(1, 4), lambda r: {f"a{(_bonus(r, 1, 4) + 1) % 4}_s3": 9},
     "GFOOT in area", "a lone Golden Football beside another area's Touchdown bonus"),
    ("d5.00x3", "win", _has_bonus(1, 3), lambda r: {f"a{_bonus(r, 1, 3)}_bonus_prizes":
                                                    r[f"a{_bonus(r, 1, 3)}_bonus_prizes"] % 4 + 1},
     "_bonus_prizes is", "a Touchdown bonus paying another number of prizes than it scores"),
    ("d7.50x4", "win", _has_bonus(1, 4), lambda r: {f"a{_bonus(r, 1, 4)}_bonus_result": 0},
     "not a scoring mask 1..15", "a Touchdown bonus that scores nothing"),
    ("d5.00x3", "win", _has_bonus(2, 3), lambda r: {f"a{_bonus(r, 2, 3)}_bonus_result": 6},
     "not a grid section 0..5", "a Field Goal off the grid"),
    ("d7.50x4", "win", _has_bonus(2, 4), lambda r: {f"a{_bonus(r, 2, 4)}_bonus": 1},
     "but its symbols trigger Field Goal (2)", "a Field Goal area paid as a Touchdown game"),
    ("d2.00x2", "win", _has_bonus(1, 2), lambda r: {f"a{_bonus(r, 1, 2)}_bonus_prizes": 0},
     "Touchdown bonus with 0 prizes", "a bonus game that wins nothing"),
    ("d5.00x3", "win", _has_bonus(1, 3), lambda r: _area(_bonus(r, 1, 3), [9, 10, 11, 1]),
     "GFOOT with the symbols of 2 bonus games", "both bonus triggers in one area"),
    ("d7.50x4", "win", _has_bonus(1, 4), lambda r: _area(_bonus(r, 1, 4), [9, 10, 9, 1]),
     "a bonus trigger with 2 GFOOT symbols", "a second Golden Football in a bonus area"),
    ("d1.00x1", "lose", None, lambda r: {"a0_amount": 1},
     "area 0: a0_amount 1 is not an amount multiplier x 100",
     "an amount that is no multiplier"),
    ("d7.50x1", "lose", None, lambda r: {"a0_amount": 375 * 3 + 1}, "is not an amount multiplier x 750",
     "a half-cent amount at $7.50"),
    ("d2.00x2", "lose", None, lambda r: {"a1_s3": 14, "a0_s0": None}, "a0_s0 is null; a0_s0 has code 0",
     "a null and an out-of-range symbol"),
    ("d2.00x2", "win", lambda r: r["a0_amount"] != r["a1_amount"] and r["a0_bonus"] == r["a1_bonus"] == 0,
     lambda r: _area(0, [r[f"a1_s{j}"] for j in range(4)]) | _area(1, [r[f"a0_s{j}"] for j in range(4)]),
     ", prize_cents is ", "the symbols of two areas swapped: a win in the wrong area"),
    ("d5.00x3", "win", None, lambda r: {"tier": "lose", "prize_cents": 0}, "tier 'lose' but the areas pay",
     "a winner relabelled a loser"),
    ("d7.50x4", "win", None, lambda r: {"prize_cents": None}, "prize_cents is null; areas pay",
     "a null prize, read as 0"),
    ("d7.50x4", "lose", None, lambda r: PLAIN | _area(2, [1, 1, 1, 1]) | {"a2_amount": 2**62},
     f"{2**63} + 0 = {2**63} cents", "four of a kind on an amount of 2^62 cents: exact, beyond int64"),
]


CASES = [("hand_to_hand_tactics", c) for c in DUEL] + [("primetime_payout", c) for c in MATCH]


@pytest.fixture(scope="module")
def judged(runs) -> dict[int, tuple]:
    """Every case of CASES applied to its own row of its pool (the first of its kind not taken by an
    earlier case), each pool then judged once by both engines: per case (its row, the stored prize,
    the engine's verdict, audit's verdict). Both engines must refuse the tampered rows and no other."""
    out = {}
    for rules, pool_ids in POOLS.items():
        for pool_id in pool_ids:
            play, pool, table = _pool(runs[rules], pool_id)
            rows, taken = table.to_dicts(), {}
            for n, (r, (p, tier, pick, change, _, _)) in enumerate(CASES):
                if (r, p) == (rules, pool_id):
                    row = next(x for x in rows if x["position"] not in taken.values()
                               and (x["tier"] == "lose") == (tier == "lose") and (pick is None or pick(x)))
                    rows[row["position"]] = {**row, **change(row)}
                    taken[n] = row["position"]
            if not taken:
                continue
            tampered = pl.DataFrame(rows, schema=table.schema)
            mine, theirs = einstant.judge(play, pool, tampered), _audit(play, pool, tampered)
            stored = tampered["prize_cents"].to_list()
            assert {r for r, m in enumerate(mine) if m[0] or m[1] != stored[r]} == set(taken.values())
            assert {r for r, m in enumerate(theirs) if m[0] or m[1] != stored[r]} == set(taken.values())
            out.update({n: (row, stored[row], mine[row], theirs[row]) for n, row in taken.items()})
    return out


@pytest.mark.parametrize(("n", "case"), list(enumerate(CASES)), ids=[c[5] for _, c in CASES])
def test_a_tampered_share_is_refused_by_both_for_the_same_reasons(judged, n, case):
    _, (_, _, _, _, words, _) = case
    row, stored, mine, theirs = judged[n]
    assert mine == theirs
    reasons, pays, _ = mine
    assert reasons or pays != stored
    assert words in reasons


def _refused(run: Path, pool_id: str) -> against_audit.Judge:
    """The engine as against_audit judges: the rows it refuses or that do not pay their stored prize."""
    _, pool, _ = _pool(run, pool_id)

    def judge(play: dict, table: pl.DataFrame) -> dict[int, tuple[str, int]]:
        return {r: (why, pays) for r, (why, pays, _) in enumerate(einstant.judge(play, pool, table))
                if why or pays != table["prize_cents"][r]}
    return judge


@pytest.mark.parametrize(("rules", "pool_id", "values"), [
    ("hand_to_hand_tactics", "d5.00", {"spot_0": 3, "amt_0": 250}),
    ("primetime_payout", "d2.00x2", {"a0_s0": 9, "a0_s1": 10, "a0_bonus": 1, "a0_bonus_result": 9,
                                     "a0_bonus_prizes": 2}),
], ids=["a loser's first spot a win of the legend", "a loser's area made a Touchdown bonus"])
def test_step_4_of_verify_words_a_tampered_share_as_the_engine_does(runs, tmp_path, rules, pool_id, values):
    against_audit.agrees(_refused(runs[rules], pool_id), runs[rules], tmp_path / "r", "lose", values, pool_id)


def _edit(where: str, key: str, value: Any) -> Callable[[dict, dict, pl.DataFrame], pl.DataFrame]:
    def edit(play: dict, pool: dict, table: pl.DataFrame) -> pl.DataFrame:
        if where == "column":
            return table.with_columns(pl.lit(value, pl.UInt8).alias(key))
        {"play": play, "pool": pool}[where][key] = value
        return table
    return edit


HH, PP = "hand_to_hand_tactics", "primetime_payout"
ENTRIES = [  # (game, pool, the edit, refused by the contract, what)
    (HH, "d1.00", _edit("play", "legend", ["1.", ".5"]), False, "legend 1. and .5 read"),
    (HH, "d1.00", _edit("play", "legend", ["."]), True, "a legend of a point alone"),
    (HH, "d1.00", _edit("play", "legend", ["+1"]), True, "a signed legend value"),
    (HH, "d1.00", _edit("play", "legend", ["1" * 41]), True, "a legend value of 41 digits"),
    (HH, "d1.00", _edit("play", "loser_max_multipliers", 13), True, "13 multipliers of 12 spots"),
    (HH, "d1.00", _edit("play", "spots", 3), True, "3 spots for 3 losses"),
    (PP, "d2.00x2", _edit("play", "amount_multipliers", ["1."]), True, "an amount 1."),
    (PP, "d2.00x2", _edit("play", "bonus_key", 12), True, "the bonus key the wild"),
    (PP, "d2.00x2", _edit("play", "spots", 17), True, "17 spots"),
    (PP, "d2.00x2", _edit("pool", "price_cents", 401), True, "a price not D x k"),
    (PP, "d2.00x2", _edit("column", "a2_s0", 1), True, "a column of a third area"),
    (PP, "d2.00x2", _edit("column", "a0_extra", 1), True, "a column of an area no layout column"),
]


@pytest.mark.parametrize(("rules", "pool_id", "edit", "refused", "what"), ENTRIES,
                         ids=[e[4] for e in ENTRIES])
def test_both_engines_refuse_the_same_entries_and_pools(runs, rules, pool_id, edit, refused, what):
    play, pool, table = _pool(runs[rules], pool_id)
    table = edit(play, pool, table.head(20))
    outcomes = []
    for judge in (lambda: einstant.judge(play, pool, table), lambda: _audit(play, pool, table)):
        try:
            outcomes.append(judge())
        except ValueError:
            outcomes.append(None)
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0] is None) == refused


@pytest.mark.parametrize(("rules", "pool_id"), [(HH, "d1.00"), (PP, "d1.00x1")])
def test_a_tier_relabelled_with_its_prize_kept_is_step_5s_not_a_layout_rule(runs, tmp_path, rules, pool_id):
    """Both contracts leave `prize_cents` = the tier's prize to step 5: a row of tier m1 relabelled m2
    is legal to both engines, and verify refuses it at step 5 (figures), not at step 4."""
    table, row = against_audit.tampered(runs[rules], tmp_path / "r", "m1", {"tier": "m2"}, pool_id)
    play, pool, _ = _pool(runs[rules], pool_id)
    mine = einstant.judge(play, pool, table)[row]
    assert mine == _audit(play, pool, table)[row] and mine[:2] == ("", pool["price_cents"])
    report = verify_run(VerifyRequest(run=tmp_path / "r"))
    assert report.step(Step.LAYOUTS).status == "pass"
    assert f"tier 'm2' pays {2 * pool['denomination_cents']} cents, but its tickets store" in "\n".join(
        report.step(Step.FIGURES).reasons)
