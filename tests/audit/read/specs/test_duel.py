"""audit/read/specs/duel.py: a prize_legend_duel spec's legend value that no tier's kept decompositions
hold (no share would ever reveal it) is refused by poolgen's check and generate as not used, naming
play.legend[j]; audit's reader took it, so `verify --spec` held a run to a spec `check` refuses. Both
refuse it now in the same words, and a tier no decomposition pays the same (docs/styles/prize_legend_duel.md,
section 7). Each case is Hand-to-Hand Tactics with its legend changed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.check.game import check_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import spec_path

LEGEND = 'legend = ["0.5", "1", "2", "3", "4", "5", "10", "20", "25", "50", "100", "250", "500", "1000"]'
NEVER = "(a prize symbol no share would ever reveal)"



def _variant(tmp_path: Path, legend: str) -> Path:
    path = tmp_path / "hand_to_hand_tactics.toml"
    shutil.copy(spec_path("hand_to_hand_tactics"), path)
    text = path.read_text(encoding="utf-8")
    assert LEGEND in text
    path.write_text(text.replace(LEGEND, legend), encoding="utf-8")
    return path


def _both_refuse(spec: Path, line: str) -> None:
    with pytest.raises(SpecError) as poolgen_said:
        check_spec(load_spec(spec))
    assert str(poolgen_said.value) == f"{spec}: {line}"
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == f"{spec}: {line}"


def test_a_legend_value_above_every_prize_is_refused_by_audits_reader_as_by_check(tmp_path):
    _both_refuse(_variant(tmp_path, LEGEND.replace('"1000"]', '"1000", "7000"]')),
                 f"play.legend[14]: not used: no kept decomposition of any tier wins 7000 {NEVER}")


def test_the_unused_legend_value_is_named_by_its_place_in_the_spec_not_in_sorted_order(tmp_path):
    """poolgen named the value's index in the sorted legend (play.legend[14] for the spec's first)."""
    _both_refuse(_variant(tmp_path, LEGEND.replace('["0.5"', '["7000", "0.5"')),
                 f"play.legend[0]: not used: no kept decomposition of any tier wins 7000 {NEVER}")


def test_a_value_thinned_away_by_max_decompositions_is_refused_by_both(tmp_path):
    """With one decomposition kept per tier (the first listed: fewest multipliers, then fewest copies of
    the largest value), which values no tier keeps is section 7's listing order alone."""
    spec = _variant(tmp_path, LEGEND)
    spec.write_text(spec.read_text().replace("max_decompositions = 256", "max_decompositions = 1"))
    with pytest.raises(SpecError) as poolgen_said:
        check_spec(load_spec(spec))
    line = str(poolgen_said.value)
    assert line.startswith(f"{spec}: play.legend[") and line.endswith(NEVER)
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(spec)
    assert str(audit_said.value) == line


def test_tiers_the_legend_cannot_make_are_refused_by_audits_reader_as_by_check(tmp_path):
    _both_refuse(_variant(tmp_path, 'legend = ["2", "5"]'),
                 "play.legend: 6 tier(s) cannot be laid out: no (1 + m) x sum of legend values [2, 5] "
                 "within 12 non-loss spots equals the multiplier of m5000 (5000), m500 (500), m400 (400), "
                 "m300 (300), m3 (3), m1 (1)")


def test_a_small_value_some_tier_keeps_is_read_by_both(tmp_path):
    spec = _variant(tmp_path, LEGEND.replace('"1000"]', '"1000", "0.25"]'))
    check_spec(load_spec(spec))
    read_spec(spec)
