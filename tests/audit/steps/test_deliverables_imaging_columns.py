"""Step 9 reads an imaging file a spot at a time, never whole (issue 28: a 1,010,300-ticket file of 30
spots holds 90 text columns, about 2.9 GB decoded, which took verify to 3.3 GB). Every read of the
file is recorded by a spy that calls polars' own reader on the real file."""

from __future__ import annotations

from typing import Any

import polars as pl

from audit.read.manifest import Manifest
from audit.steps.deliverables import IDENTITY, check_deliverables


def test_step_9_reads_the_imaging_file_a_spot_at_a_time(runs, monkeypatch):
    folder = runs["runs"]["happy_holidays"]
    imaging = folder / "imaging-p6.parquet"
    read = pl.read_parquet
    calls: list[tuple[list[str] | None, int | None]] = []

    def spy(source: Any, *args: Any, **kwargs: Any) -> pl.DataFrame:
        if str(source) == str(imaging):
            calls.append((kwargs.get("columns"), kwargs.get("n_rows")))
        return read(source, *args, **kwargs)

    monkeypatch.setattr(pl, "read_parquet", spy)
    manifest = Manifest.parse((folder / "manifest.json").read_bytes())
    lines = list(check_deliverables(folder, manifest, {"low": None, "high": None}, None))
    assert lines[0] == ("pass", "imaging-p6.parquet: 300,000 rows match pool p6 spot for spot (6 spots, "
                                "barcodes recomputed)")
    columns = pl.read_parquet_schema(imaging).names()
    spots = columns[len(IDENTITY)::3]
    assert len(spots) == 6 and len(columns) == 4 + 3 * 6
    assert calls == [(None, 0), (list(IDENTITY), None),
                     *(([s, s + "_text", s + "_caption"], None) for s in spots)]
