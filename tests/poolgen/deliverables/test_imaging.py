"""The imaging table (poolgen/deliverables/imaging.py): every spot shown by its alphabet, and a code the
contract does not map refused before anything is written."""

from __future__ import annotations

import io

import numpy as np
import polars as pl
import pytest

from poolgen.deliverables import write
from poolgen.deliverables.imaging import identity_numbers, imaging_table, spot_alphabets
from poolgen.deliverables.write import COMMON, write_imaging
from poolgen.errors import RunError
from poolgen.loader import load_spec
from poolgen.run.build import build_pool
from tests.support import SEED_A, small_happy_holidays, spec_path


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    game = load_spec(small_happy_holidays(tmp_path_factory.mktemp("imaging"), 6_000))
    p = game.pools[0]
    return game, p, build_pool(game, p, SEED_A)


def _table(game, p, df):
    layout = [c for c in df.columns if c not in COMMON]
    return imaging_table(game, p, df, identity_numbers(game, p, df, SEED_A, 12), 12, layout), layout


def test_every_spot_is_shown_by_its_alphabet(pool):
    game, p, df = pool
    table, layout = _table(game, p, df)
    alphabets = spot_alphabets(game, layout)
    for c in layout:
        want = [alphabets[c][v] for v in df[c].to_list()]
        assert list(zip(table[c], table[c + "_text"], table[c + "_caption"], strict=True)) == want
    assert table["barcode"].str.len_bytes().unique().to_list() == [15]
    assert table["virn"].str.len_bytes().unique().to_list() == [12]


@pytest.mark.parametrize("code", [-1, "top"])
def test_a_code_the_contract_does_not_map_is_refused(pool, code):
    game, p, df = pool
    column = "play_spot_0"
    top = max(spot_alphabets(game, [column])[column]) + 1
    values = df[column].to_numpy().astype(np.int64)
    values[7] = top if code == "top" else code
    bad = df.with_columns(pl.Series(column, values))
    refused = r"^pool p1: column play_spot_0 holds a code its contract does not map$"
    with pytest.raises(RunError, match=refused):
        _table(game, p, bad)


def test_an_imaging_file_streamed_a_slice_at_a_time_holds_the_whole_tables_rows(tmp_path, monkeypatch):
    # a table of more text than WHOLE_TEXT_BYTES is built a slice of rows at a time and streamed by
    # polars' sink (issue 28: a million tickets of 30 spots were 1.4 GB whole): the same columns and
    # rows (row groups and pages are not the contract's, docs/validation.md section 4); a smaller table
    # is still write_parquet's of the whole, byte for byte. 300,000 rows: four whole slices of 65,536
    # and a last of 37,856
    game = load_spec(spec_path("happy_holidays"))
    p = game.pool("p1")
    df = build_pool(game, p, SEED_A)
    whole, _ = _table(game, p, df)
    out = io.BytesIO()
    whole.write_parquet(out, compression="zstd", compression_level=1, statistics=False)
    write_imaging(game, p, df, SEED_A, tmp_path)
    assert (tmp_path / "imaging-p1.parquet").read_bytes() == out.getvalue()
    monkeypatch.setattr(write, "WHOLE_TEXT_BYTES", 0)
    streamed = tmp_path / "streamed"
    streamed.mkdir()
    write_imaging(game, p, df, SEED_A, streamed)
    got = pl.read_parquet(streamed / "imaging-p1.parquet")
    assert got.schema == whole.schema
    assert got.equals(whole)
