"""An evaluator of `lines` areas written from docs/styles/lines.md (sections 1, 1a, 3, 5 and 6) and
docs/styles/play.md alone, by a reviewer who read neither poolgen's nor audit's lines code nor
tests/third_engines/grid.py: one `symbol` or several `symbols`, a legend, fixed `line_prizes` or
`"shown"` prize spots.

It imports neither poolgen nor audit (tests/third_engines/test_engine.py guards the folder): given a
run folder's `manifest.json` and pool files (docs/pool-files.md), it re-derives every row's wins and
prize, names the rows the contract refuses, and counts the losers that show a complete line."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

Win = tuple[str, str, int, str]  # (area, how, by, prize code): play.md's multiset key


def _inside(value: int | None, size: int) -> bool:
    return value is not None and 0 <= value < size


def _stated(value: int | None) -> str:
    """A stored code as rule 1 lists it (section 5)."""
    return "null" if value is None else "negative" if value < 0 else ">=9999" if value >= 9999 else str(value)


def line_makers(area: dict[str, Any]) -> set[int]:
    """The indices into `pictures` of the pictures that make lines: `symbol`, or every one of `symbols`."""
    names = area["symbols"] if "symbols" in area else [area["symbol"]]
    return {area["pictures"].index(name) for name in names}


def complete_lines(area: dict[str, Any], cells: list[int | None]) -> list[int]:
    """The indices (from 0) of the lines whose cells all show one line-making picture, the same in every
    cell (section 5); a cell out of range completes nothing."""
    makers, size = line_makers(area), len(area["pictures"])
    done = []
    for i, line in enumerate(area["lines"]):
        shown = {cells[k] for k in line}
        if len(shown) == 1:
            (code,) = shown
            if _inside(code, size) and code in makers:
                done.append(i)
    return done


def evaluate_area(area: dict[str, Any], row: dict[str, Any]) -> tuple[list[Win], list[str]]:
    """One lines area of one row: its wins and the reasons (rules 1 to 4, in that order) it is illegal."""
    aid, pictures, makers = area["id"], area["pictures"], line_makers(area)
    cells = [row[f"{aid}_cell_{k}"] for k in range(area["rows"] * area["cols"])]
    reasons: list[str] = []
    if not all(_inside(c, len(pictures)) for c in cells):
        reasons.append(f"{aid}: a cell code out of range ({', '.join(_stated(c) for c in cells)})")
    alone = []
    for i, line in enumerate(area["lines"]):
        shown = {cells[k] for k in line}
        if len(shown) == 1:
            (code,) = shown
            if _inside(code, len(pictures)) and code not in makers:
                alone.append(f"{aid}: line {i + 1} shows {pictures[code]} alone")
    if alone:
        reasons.append(", ".join(alone))
    done = complete_lines(area, cells)
    wins: list[Win] = []
    paid = area.get("line_prizes")
    prizes = [p["code"] for p in area["prizes"]]
    if "legend" in area:
        numbers = {step["lines"]: step["prize"] for step in area["legend"]}
        n = len(done)
        if n in numbers:
            wins.append((aid, "match", 1, numbers[n]))
        elif n >= min(numbers):
            reasons.append(f"{aid}: {n} complete lines: the legend has no prize for {n}")
    elif paid == "shown":
        spots = [row[f"{aid}_prize_{i}"] for i in range(len(area["lines"]))]
        if not all(_inside(s, len(prizes)) for s in spots):
            reasons.append(f"{aid}: a prize spot code out of range ({', '.join(_stated(s) for s in spots)})")
        wins += [(aid, "match", 1, prizes[spots[i]]) for i in done if _inside(spots[i], len(prizes))]
    else:
        wins += [(aid, "match", 1, paid[i]) for i in done]
    return wins, reasons


@dataclass
class PoolVerdict:
    """What the evaluator found in one pool file."""

    rows: int = 0
    illegal: dict[int, list[str]] = field(default_factory=dict)  # position -> reasons
    losers_with_a_line: int = 0  # rows of a tier of no win showing a complete line in any area
    prize_cents: int = 0  # the pool's prize money, re-derived


def judge_pool(play: dict[str, Any], table: pl.DataFrame) -> PoolVerdict:
    """Every row of a pool whose areas are all `lines` areas: its wins against its tier's (play.md,
    rule 3, as multisets), its stored prize against its wins, `max_wins`, and the contract's rules."""
    areas = play["areas"]
    assert all(a["style"] == "lines" for a in areas), "only lines areas are judged here"
    cents = {(a["id"], p["code"]): p["cents"] for a in areas for p in a["prizes"]}
    tiers = {t["id"]: Counter((w["area"], w["how"], w["by"], w["prize"]) for w in t["wins"])
             for t in play["tiers"]}
    verdict = PoolVerdict()
    for row in table.iter_rows(named=True):
        verdict.rows += 1
        wins: list[Win] = []
        reasons: list[str] = []
        lines_shown = 0
        for area in areas:
            got, why = evaluate_area(area, row)
            wins += got
            reasons += why
            lines_shown += len(complete_lines(area, [row[f"{area['id']}_cell_{k}"]
                                                     for k in range(area["rows"] * area["cols"])]))
        pays = sum(by * cents[(a, prize)] for a, _, by, prize in wins)
        if len(wins) > play["max_wins"]:
            reasons.append(f"{len(wins)} wins, more than {play['max_wins']}")
        if row["tier"] not in tiers:
            reasons.append(f"tier {row['tier']} is not in play.tiers")
        elif Counter(wins) != tiers[row["tier"]]:
            reasons.append(f"wins {sorted(wins)} are not tier {row['tier']}'s")
        if pays != row["prize_cents"]:
            reasons.append(f"pays {pays} cents, stores {row['prize_cents']}")
        if tiers.get(row["tier"]) == Counter() and lines_shown:
            verdict.losers_with_a_line += 1
        if reasons:
            verdict.illegal[row["position"]] = reasons
        verdict.prize_cents += pays
    return verdict


def judge_run(run: Path) -> dict[str, PoolVerdict]:
    """Every pool of a run folder, by its manifest's `play` entry and its pools' file names."""
    manifest = json.loads((run / "manifest.json").read_bytes())
    return {pool["id"]: judge_pool(manifest["play"], pl.read_parquet(run / pool["file"]["name"]))
            for pool in manifest["pools"]}
