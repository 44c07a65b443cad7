"""Holding a third engine against audit's step 4: a run with one row tampered (polars, dtypes kept),
verified without its signature mattering (step 4 judges every row whatever steps 1, 2 and 6 say), and
the engine's verdict on that row compared with audit's reasons, word for word."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl

from audit.checklist import Step
from audit.verify import VerifyRequest, verify_run

Judge = Callable[[dict, pl.DataFrame], dict[int, tuple[str, int]]]


def play(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())["play"]


def layouts(run: Path) -> tuple[str, str]:
    """Step 4's status and its reasons, one a line."""
    step = verify_run(VerifyRequest(run=run)).step(Step.LAYOUTS)
    return step.status, "\n".join(step.reasons)


def tampered(run: Path, folder: Path, tier: str, values: dict[str, Any],
             pool: str = "p1") -> tuple[pl.DataFrame, int]:
    """A copy of `run` in `folder` whose pool file `pool`'s first row of `tier` has `values` (column ->
    value, None a null). The printer's deliverables (imaging files, pack list, validation files) are
    left out: only step 9 reads them (step 2 then names them missing), and checking a 3,000-ticket
    imaging file against its pool took two thirds of each verify here; steps 3 to 6 read the pool
    files and the manifest alone (audit/verify.py `_pool_checks`)."""
    name = f"pool-{pool}.parquet"
    table = pl.read_parquet(run / name)
    row = table.filter(pl.col("tier") == tier)["position"][0]
    table = table.with_columns([pl.when(pl.col("position") == row).then(pl.lit(v)).otherwise(pl.col(c))
                                .cast(table.schema[c]).alias(c) for c, v in values.items()])
    folder.mkdir(mode=0o700)
    delivered = {d["name"] for d in json.loads((run / "manifest.json").read_text()).get("deliverables", [])
                 if d["role"] != "pool"}
    for f in run.iterdir():
        if f.name != name and f.name not in delivered:
            (folder / f.name).write_bytes(f.read_bytes())
    table.write_parquet(folder / name)
    return table, row


def agrees(judge: Judge, run: Path, folder: Path, tier: str, values: dict[str, Any],
           pool: str = "p1") -> tuple[str, int]:
    """The engine refuses the tampered row alone, and audit's step 4 says exactly what it says: the same
    reasons, and the same amount when the row does not pay its stored prize. Returns the engine's verdict
    on the row (its reasons, what it pays), for a caller to hold to more."""
    table, row = tampered(run, folder, tier, values, pool)
    judged = judge(play(folder), table)
    status, text = layouts(folder)
    stored = table["prize_cents"][row]
    assert list(judged) == [row]
    reasons, pays = judged[row]
    assert status == "fail"
    if reasons:
        # the whole of the row's reasons: they end its pool's line (step 4 names the illegal rows last)
        assert "1 illegal layout(s): " in text, (reasons, text)
        assert any(line.endswith(f"(row {row}): {reasons}") for line in text.splitlines()), (reasons, text)
    else:
        assert "illegal layout" not in text, text
    if pays != stored:
        assert "1 layout(s) do not pay the stored prize: " in text, text
        assert f"(row {row}) pays {pays} cents, stores {stored}" in text, text
    else:
        assert "do not pay" not in text, text
    return reasons, pays
