"""The third engine for the printed Kansas games (tests/third_engines/printed.py, from K.A.R. 111-4-3762
and 111-4-3836, the games' contracts and docs/styles/key_number_match.md, bonus_reveal.md, match_n.md
and play.md alone) against audit's step 4 on real runs cut to 3,000 tickets: Wild Side (two
key_number_match areas and a bonus_reveal area), Happy Holidays (match_n) and, for match_n's multiplier
symbols, Cash Explosion. Every generated row is legal and pays its stored prize; every tampered row is
refused by both, with audit's very reasons and amount."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from audit.styles.play import evaluate
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A, small_happy_holidays, spec_path
from tests.third_engines import against_audit, printed

Row = dict


def _cut(folder: Path, source: Path, order: int, pool: int, divisor: int) -> Path:
    """`source` cut to one pool of 3,000 tickets: counts per pool, each count // divisor (at least 1),
    published figures dropped."""
    text = source.read_text().replace(f"order_tickets = {order}", "order_tickets = 3000")
    text = text.replace(f"pool_tickets = {pool}", "pool_tickets = 3000").replace(
        'counts_per = "order"', 'counts_per = "pool"')
    text = re.sub(r"^last_pool = .*\n", "", text, flags=re.M)
    text = re.sub(r"^count = (\d+)", lambda m: f"count = {max(1, int(m[1]) // divisor)}", text, flags=re.M)
    text = re.sub(r"^published_\w+ = .*\n", "", text, flags=re.M)
    path = folder / source.name
    path.write_text(re.sub(r"\[published\].*?\n\n", "", text, flags=re.S))
    return path


def _run(folder: Path, spec: Path) -> Path:
    return generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                    out=folder, run_id="r")).folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("printed3")
    made = {}
    for name, make in (
            ("wild_side", lambda f: _cut(f, spec_path("wild_side"), 750000, 150000, 250)),
            ("happy_holidays", lambda f: small_happy_holidays(f, 3000)),
            ("cash_explosion", lambda f: _cut(f, ROOT / "specs/examples/cash_explosion.toml",
                                              1800000, 240000, 600))):
        (root / name).mkdir()
        made[name] = _run(root / name, make(root / name))
    return made


@pytest.mark.parametrize("game", ["wild_side", "happy_holidays", "cash_explosion"])
def test_every_generated_row_is_legal_and_pays_its_prize(runs, game):
    table = pl.read_parquet(runs[game] / "pool-p1.parquet")
    assert printed.judge(against_audit.play(runs[game]), table) == {}
    assert against_audit.layouts(runs[game])[0] == "pass"


def _lucky(r: Row) -> list[int]:
    return [r[f"numbers_win_{i}"] for i in range(5)]


def _hits(r: Row, area: str) -> list[int]:
    """The spots of `area` whose number is a LUCKY NUMBER."""
    return [j for j in range(12) if r[f"{area}_your_{j}"] in _lucky(r)]


def _misses(r: Row, area: str) -> list[int]:
    return [j for j in range(12) if r[f"{area}_your_{j}"] not in _lucky(r)]


def _t05_match_moved_to_numbers(r: Row) -> dict:
    """t05's wild match ($2 x 5) swapped with a YOUR NUMBER and its prize made $2: paid once, not 5x."""
    w, j = _hits(r, "wild")[0], _misses(r, "numbers")[0]
    return {f"numbers_your_{j}": r[f"wild_your_{w}"], f"numbers_prize_{j}": 1,
            f"wild_your_{w}": r[f"numbers_your_{j}"]}


def _other_lucky(r: Row) -> int:
    """A LUCKY NUMBER place that the row's one match does not use."""
    used = r[f"numbers_your_{_hits(r, 'numbers')[0]}"]
    return next(i for i in range(5) if r[f"numbers_win_{i}"] != used)


def _two_matches_on_two_equal_lucky_numbers(r: Row) -> dict:
    """t06's two matches ($5 + $5) made to show one number, which two LUCKY NUMBERS show: 2 matches,
    each LUCKY NUMBER used twice."""
    a, b = (r[f"numbers_your_{j}"] for j in _hits(r, "numbers"))
    return {f"numbers_win_{_lucky(r).index(b)}": a, f"numbers_your_{_hits(r, 'numbers')[1]}": a}


WS: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: {"numbers_your_0": r["numbers_win_0"]}, "a loser shows a YOUR NUMBERS match"),
    ("lose", lambda r: {"wild_your_3": r["numbers_win_2"]}, "a loser shows a WILD match (5x)"),
    ("lose", lambda r: {"bonus_spot_1": 8}, "a loser shows WIN$10"),
    ("lose", lambda r: {"bonus_spot_0": 5, "bonus_spot_1": 5, "bonus_spot_2": 5}, "three clovers"),
    ("t02", lambda r: {f"numbers_prize_{_hits(r, 'numbers')[0]}": 3}, "a $5 match shows $10"),
    ("t05", lambda r: {f"wild_prize_{_hits(r, 'wild')[0]}": 2}, "a wrong multiplied prize: $5 (5X)"),
    ("t05", lambda r: {f"wild_prize_{_hits(r, 'wild')[0]}": 0}, "a WILD win on FREE"),
    ("t05", _t05_match_moved_to_numbers, "the 5X match moved to YOUR NUMBERS"),
    ("t03", lambda r: {f"numbers_your_{_misses(r, 'numbers')[0]}": r["numbers_win_4"]}, "two wins, one paid"),
    ("t30", lambda r: {f"wild_your_{_misses(r, 'wild')[0]}": r["numbers_win_0"]}, "22 wins, at most 21"),
    ("lose", lambda r: {"numbers_win_0": 46}, "a LUCKY NUMBER out of range"),
    ("t02", lambda r: {f"numbers_win_{_other_lucky(r)}": 46}, "an unused LUCKY NUMBER out of range"),
    ("t02", lambda r: {f"numbers_win_{_other_lucky(r)}": None}, "an unused LUCKY NUMBER null"),
    ("t05", lambda r: {"numbers_win_0": None}, "a LUCKY NUMBER null on a WILD winner"),
    ("t30", lambda r: {"numbers_win_0": 46}, "t30's LUCKY NUMBER out of range: its repeats match nothing"),
    ("t02", lambda r: {f"numbers_prize_{_hits(r, 'numbers')[0]}": 11}, "a match's prize code out of range"),
    ("t05", lambda r: {f"wild_prize_{_hits(r, 'wild')[0]}": None}, "a WILD match's prize null"),
    ("lose", lambda r: {"numbers_win_1": r["numbers_win_0"]}, "two LUCKY NUMBERS equal"),
    ("t06", _two_matches_on_two_equal_lucky_numbers, "two matches on two equal LUCKY NUMBERS"),
    ("lose", lambda r: {"numbers_your_4": 255}, "a YOUR NUMBER out of range"),
    ("lose", lambda r: {"wild_your_5": None}, "a WILD NUMBER null"),
    ("lose", lambda r: {"numbers_prize_2": 11}, "a prize code out of range"),
    ("lose", lambda r: {"bonus_spot_2": 11}, "a WILD BONUS code out of range"),
    ("lose", lambda r: {"numbers_your_1": r["numbers_your_0"]}, "a YOUR NUMBER that matches nothing twice"),
    ("lose", lambda r: {"wild_your_1": r["wild_your_0"]}, "a WILD NUMBER that matches nothing twice"),
    ("t09", lambda r: {f"numbers_your_{j}": r[f"numbers_your_{_hits(r, 'numbers')[0]}"]
                       for j in _hits(r, "numbers")}, "three matches of one LUCKY NUMBER"),
    ("t03", lambda r: {"tier": "t04"}, "a YOUR NUMBERS $10 stored as the WIN$10 tier"),
    ("t02", lambda r: {"tier": "t01"}, "a $5 match stored as the FREE tier"),
    ("t03", lambda r: {"tier": "zz"}, "a tier the play entry does not list"),
    ("t04", lambda r: {"prize_cents": 500}, "a stored prize not paid"),
]


def _spots(r: Row, n: int) -> list[int]:
    return [r[f"play_spot_{i}"] for i in range(n)]


def _loser_triple(r: Row) -> dict:
    pair = next(s for s, k in Counter(_spots(r, 6)).items() if k == 2)
    return {f"play_spot_{next(i for i, s in enumerate(_spots(r, 6)) if s != pair)}": pair}


HH: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", _loser_triple, "a loser shows three of a prize"),
    ("free", lambda r: {f"play_spot_{next(i for i, s in enumerate(_spots(r, 6)) if s)}": 0}, "four FREE"),
    ("free", lambda r: {f"play_spot_{i}": 0 if i < 3 else 2 for i in range(6)}, "two triples, one paid"),
    ("free", lambda r: {f"play_spot_{i}": i // 2 for i in range(6)}, "a FREE winner shows no triple"),
    ("free", lambda r: {f"play_spot_{i}": 5 if s == 0 else s for i, s in enumerate(_spots(r, 6))},
     "a FREE winner shows three $100"),
    ("lose", lambda r: {f"play_spot_{i}": 5 for i in range(6)}, "six $100 on a loser"),
    ("lose", lambda r: {"play_spot_0": 6}, "a code out of range"),
    ("lose", lambda r: {"play_spot_3": None}, "a null"),
    ("free", lambda r: {"tier": "1"}, "FREE stored as $1.00: same cents, another symbol"),
]

CE: list[tuple[str, Callable[[Row], dict], str]] = [
    ("lose", lambda r: {f"play_spot_{i}": (*range(7), 12, 11)[i] for i in range(9)},
     "a 5X and a 2X beside no pair"),
    ("lose", lambda r: {f"play_spot_{i}": (0, 0, 1, 1, 2, 2, 7, 8, 11)[i] for i in range(9)},
     "one 2X beside three pairs: three multiplied wins"),
    ("lose", lambda r: {f"play_spot_{i}": (0, 0, 0, 3, 4, 5, 6, 7, 11)[i] for i in range(9)},
     "a 2X beside a triple and no pair"),
]

CASES = ([("wild_side", *c) for c in WS] + [("happy_holidays", *c) for c in HH]
         + [("cash_explosion", *c) for c in CE])


def test_codes_of_a_wider_integer_column_are_listed_as_audit_lists_them(runs, tmp_path):
    """A layout column of another integer dtype is read: a negative code is listed `negative`, one of 9999
    or more `>=9999` (docs/styles/match_n.md section 5)."""
    run, folder = runs["happy_holidays"], tmp_path / "r"
    folder.mkdir()
    for f in run.iterdir():
        if f.name != "pool-p1.parquet":
            (folder / f.name).write_bytes(f.read_bytes())
    table = pl.read_parquet(run / "pool-p1.parquet")
    table = table.with_columns(pl.when(pl.col("position") == 0).then(-3).when(pl.col("position") == 1)
                               .then(12000).otherwise(pl.col("play_spot_0")).cast(pl.Int32).alias("play_spot_0"))
    table.write_parquet(folder / "pool-p1.parquet")
    rest = [", ".join(str(table[f"play_spot_{i}"][r]) for i in range(1, 6)) for r in (0, 1)]
    judged = printed.judge(against_audit.play(folder), table)
    assert judged == {0: (f"play: a spot code out of range (negative, {rest[0]})", 0),
                      1: (f"play: a spot code out of range (>=9999, {rest[1]})", 0)}
    status, text = against_audit.layouts(folder)
    assert status == "fail" and "2 illegal layout(s): " in text, text
    assert all(f"(row {r}): {reasons}" in text for r, (reasons, _) in judged.items()), text


@pytest.mark.parametrize(("game", "tier", "values", "what"), CASES, ids=[f"{c[0]}: {c[3]}" for c in CASES])
def test_a_tampered_row_is_refused_exactly_as_audit_refuses_it(runs, tmp_path, game, tier, values, what):
    row = pl.read_parquet(runs[game] / "pool-p1.parquet").filter(pl.col("tier") == tier).row(0, named=True)
    against_audit.agrees(printed.judge, runs[game], tmp_path / "r", tier, values(row))


FIXED = ("position", "ticket", "book", "ticket_no", "tier", "prize_cents", "salt")


@pytest.mark.parametrize("game", ["wild_side", "happy_holidays", "cash_explosion"])
def test_rows_tampered_at_random_are_judged_as_audit_judges_them(runs, game):
    """600 rows of each run, each with one to three cells (or its tier) set from a seeded generator: a
    null, a code just or far out of range, another cell's value of the same row (a LUCKY NUMBER, a
    picture, a prize), any small code. The engine and audit's step-4 evaluation refuse the same rows
    with the same reasons and find the same amounts."""
    manifest = json.loads((runs[game] / "manifest.json").read_text())
    play, table = manifest["play"], pl.read_parquet(runs[game] / "pool-p1.parquet")
    layout = [c for c in table.columns if c not in FIXED]
    rows, rng = table.to_dicts(), random.Random(f"printed3 {game}")
    for r in (rows[i] for i in rng.sample(range(len(rows)), 600)):
        for c in rng.sample([*layout, "tier"], rng.choice((1, 1, 2, 3))):
            u = rng.random()
            r[c] = (rng.choice([t["id"] for t in play["tiers"]]) if c == "tier" else None if u < 0.05
                    else rng.choice((6, 8, 11, 12, 46, 255)) if u < 0.15 else r[rng.choice(layout)] if u < 0.6
                    else rng.randrange(12))
    tampered = pl.DataFrame(rows, schema=table.schema)
    ev = evaluate(tampered, manifest["pools"][0], play)
    said = dict(ev.illegal)
    audit = {i: (said.get(i, ""), int(ev.prize_cents[i])) for i in range(len(rows))
             if i in said or ev.prize_cents[i] != rows[i]["prize_cents"]}
    assert printed.judge(play, tampered) == audit
    assert len(audit) > 300  # most tampered rows are refused
