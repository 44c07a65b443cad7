"""audit/read/specs: a crossword grid that is not a list of rows of one length of '.' and '#', at most
30 x 30 (docs/styles/crossword.md section 2), is refused by audit's reader in poolgen's loader's words,
naming the grid. A fuzz of the `multiplies` example (BCLC's $5 Deluxe Crossword) found audit's reader
taking a grid written as "", -1 or "x", rows of two lengths and rows of other characters, which `check`
refuses."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

NOT_ROWS = "a grid is a list of rows (strings of '.' and '#')"
CASES: list[tuple[str, int, object, str]] = [
    ("bclc_deluxe_crossword", 0, "", NOT_ROWS),
    ("bclc_deluxe_crossword", 2, -1, NOT_ROWS),
    ("bclc_deluxe_crossword", 1, [], NOT_ROWS),
    ("bclc_deluxe_crossword", 1, ["...", 3], NOT_ROWS),
    ("bclc_deluxe_crossword", 0, [".", ".."], "the rows of a grid are strings of one length"),
    ("bclc_deluxe_crossword", 0, ["", ""], "the rows of a grid are strings of one length"),
    ("cashtastic_crossword", 0, ["...", ".x."], "a grid's rows hold only '.' (a letter) and '#' (no cell)"),
    ("cashtastic_crossword", 0, ["." * 31] * 3, "a grid is at most 30 x 30"),
]


@pytest.mark.parametrize(("name", "k", "grid", "said"), CASES,
                         ids=[f"{c[0]}:{c[1]}:{c[3][:20]}" for c in CASES])
def test_audits_reader_refuses_a_misshapen_crossword_grid_in_the_loaders_words(
        tmp_path: Path, name: str, k: int, grid: object, said: str) -> None:
    doc = tomllib.loads((ROOT / "specs" / "examples" / f"{name}.toml").read_text(encoding="utf-8"))
    doc["areas"][0]["grids"][k] = grid
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value) == f"{spec}: areas[0].grids[{k}]: {said}"
    assert str(reader.value) == f"{spec}: areas[0].grids[{k}]: {said}"
