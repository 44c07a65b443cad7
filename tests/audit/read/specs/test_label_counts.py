"""audit/read/specs/labels.py: an area's `labels` of another count than the sections its style draws is
refused by audit's reader as poolgen's loader refuses it (`areas[i].labels: <n> title(s) for the area's
<m> section(s)`), and the loader's count is taken by both; for the styles audit left to `check` until
2026-12-05 (key_number_match with and without WINNING NUMBERS, add_up, cards of each deal, bingo with
custom patterns, blackjack), on shipped examples of each."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT
from tests.support.spec_docs import dumps

STYLES = ("key_number_match", "add_up", "cards", "bingo", "blackjack")
SPECS = ["wild_side", "examples/big_cash_riches", "examples/alc_seven_or_eleven", "examples/holdem_poker",
         "examples/poker_night", "examples/poker_showdown", "examples/bazinga_bingo",
         "examples/pattern_bingo", "examples/pa_blackjack_10"]


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in SPECS:
        doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
        out += [(name, i) for i, a in enumerate(doc["areas"]) if a["style"] in STYLES]
    return out


def _write(tmp_path: Path, name: str, area: int, count: int) -> Path:
    doc = tomllib.loads((ROOT / "specs" / f"{name}.toml").read_text(encoding="utf-8"))
    doc["areas"][area]["labels"] = [f"PART {k + 1}" for k in range(count)]
    path = tmp_path / f"{name.split('/')[-1]}.toml"
    path.write_text(dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "area"), _cases())
def test_a_labels_count_the_loader_refuses_audit_refuses_in_its_words_and_the_right_one_both_take(
        tmp_path, name, area):
    wrong = _write(tmp_path, name, area, 0)
    with pytest.raises(SpecError) as loader:
        load_spec(wrong)
    found = re.search(rf"areas\[{area}\]\.labels: \d+ title\(s\) for the area's (\d+) section\(s\)",
                      str(loader.value))
    assert found is not None, str(loader.value)
    with pytest.raises(UnusableInput) as audit:
        read_spec(wrong)
    assert str(loader.value).startswith(f"{audit.value} (")
    right = _write(tmp_path, name, area, int(found.group(1)))
    load_spec(right)
    read_spec(right)
    more = _write(tmp_path, name, area, int(found.group(1)) + 1)
    with pytest.raises(UnusableInput) as audit:
        read_spec(more)
    assert str(audit.value) == (f"{more}: areas[{area}].labels: {int(found.group(1)) + 1} title(s) for the "
                                f"area's {found.group(1)} section(s)")
