"""audit/read/specs/ticket_spots.py: a ticket's spots (every area's layout columns together, each from its
style's contract) are those poolgen's loader counts, on every shipped printed spec; and a spec past
1,024 is refused by audit's reader in the loader's words (the loader refused it, audit read it)."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from audit.read.specs.ticket_spots import area_spots
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

SHIPPED = sorted((ROOT / "specs").glob("*.toml")) + sorted((ROOT / "specs" / "examples").glob("*.toml"))
PRINTED = [p for p in SHIPPED
           if tomllib.loads(p.read_text(encoding="utf-8")).get("format") == 2]


def test_every_shipped_printed_spec_is_read_with_64_specs_to_check():
    assert len(PRINTED) == 64


@pytest.mark.parametrize("path", PRINTED, ids=lambda p: p.stem)
def test_each_areas_spots_are_the_loaders_count_of_its_columns(path):
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    play = load_spec(path).play
    assert [area_spots(a) for a in doc["areas"]] == [len(a.columns()) for a in play.areas]


def _bingo_cards(tmp_path: Path, areas: int) -> Path:
    """Bingo Bucks (one bingo area: 6 cards, 24 calls, 174 spots) with `areas` such areas in all."""
    doc = tomllib.loads((ROOT / "specs" / "examples" / "bingo_bucks.toml").read_text(encoding="utf-8"))
    first = doc["areas"][0]
    for k in range(1, areas):
        doc["areas"].append(copy.deepcopy(first) | {"id": f"{first['id']}{k}"})
        doc["areas"][-1].pop("labels", None)
    path = tmp_path / "bingo_bucks.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    return path


def test_six_areas_of_174_spots_are_1044_and_refused_as_the_loader_refuses_them(tmp_path):
    path = _bingo_cards(tmp_path, 6)
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(loader.value) == f"{path}: areas: 1,044 spots on a ticket; at most 1,024"
    assert str(audit.value) == str(loader.value)

