"""audit/read/specs: a text or a list longer than poolgen's loader takes (a game's name or regulation of
more than 200 characters, its source of more than 500, a tier id of more than 64, any text of more than
10,000; more than 256 tiers, 1,024 symbols or 1,024 items of any other list) is refused by audit's
reader in the loader's words, naming the field. A fuzz of today's examples found audit's reader taking
a 3,000-character game name, regulation, source or tier id that `check` refuses."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps


def _set(table: str, key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc[table][key] = value
    return change


def _tier_id(doc: dict[str, Any]) -> None:
    doc["tiers"][1]["id"] = "t" * 65


def _caption(doc: dict[str, Any]) -> None:
    doc["symbols"][0]["caption"] = "c" * 10_001


def _symbols(doc: dict[str, Any]) -> None:
    doc["symbols"] += [dict(doc["symbols"][0], code=f"x{i}") for i in range(1025 - len(doc["symbols"]))]


def _tiers(doc: dict[str, Any]) -> None:
    doc["tiers"] += [copy.deepcopy(doc["tiers"][0]) for _ in range(257 - len(doc["tiers"]))]


def _labels(doc: dict[str, Any]) -> None:
    doc["areas"][0]["labels"] = ["HAND"] * 1025


CASES = [
    ("examples/poker_night", _set("game", "name", "N" * 201), "game.name: text longer than 200 characters"),
    ("examples/nz_holdem_five_deals", _set("game", "regulation", "R" * 201),
     "game.regulation: text longer than 200 characters"),
    ("examples/poker_lotto_instant", _set("game", "source", "S" * 501),
     "game.source: text longer than 500 characters"),
    ("examples/holdem_poker", _tier_id, "tiers[1].id: text longer than 64 characters"),
    ("examples/poker_night", _caption, "symbols[0].caption: text longer than 10,000 characters"),
    ("examples/poker_night", _symbols, "symbols: 1,025 entries; at most 1,024"),
    ("examples/poker_night", _tiers, "tiers: 257 entries; at most 256"),
    ("examples/poker_night", _labels, "areas[0].labels: 1,025 entries; at most 1,024"),
]


@pytest.mark.parametrize(("name", "change", "said"), CASES, ids=[c[2][:36] for c in CASES])
def test_audits_reader_refuses_a_text_or_list_longer_than_the_loader_takes_in_its_words(
        tmp_path: Path, name: str, change: Callable[[dict[str, Any]], None], said: str) -> None:
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    change(doc)
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert str(loader.value) == f"{spec}: {said}"
    assert str(reader.value) == f"{spec}: {said}"
