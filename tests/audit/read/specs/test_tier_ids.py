"""audit's spec reader refuses a tier id written twice, or the losing tier's id, as poolgen's loader does
(docs/new-game.md: the pool files, the manifest and [packs] name a tier by its id), naming the same field."""

from __future__ import annotations

import tomllib

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps


@pytest.mark.parametrize(("index", "tier_id"), [(1, "t1"), (2, "lose")])
def test_a_tier_id_twice_is_refused_by_both_readers_naming_the_tier(tmp_path, index, tier_id):
    doc = tomllib.loads((ROOT / "specs" / "happy_holidays.toml").read_text(encoding="utf-8"))
    first = doc["tiers"][0]["id"]
    doc["tiers"][index]["id"] = first if tier_id == "t1" else tier_id
    shown = first if tier_id == "t1" else "lose"
    path = tmp_path / "spec.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    assert f"tiers[{index}].id" in str(loader.value) and f"duplicate tier id {shown!r}" in str(loader.value)
    with pytest.raises(UnusableInput, match=rf": tiers\[{index}\]\.id: duplicate tier id '{shown}'$"):
        read_spec(path)
