"""An eInstant style's refusal of an amount not whole cents at a denomination names the amount in the
game's currency (docs/new-game.md section 1): Primetime Payout and Hand to Hand Tactics written in
pounds, refused as their dollar specs are (tests/poolgen/loader/test_einstant.py) but with '£'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import spec_path


def _pounds(rules: str, old: str, new: str) -> str:
    """specs/<rules>.toml in GBP (every `$` a `£`), the first `old` made `new`."""
    text = spec_path(rules).read_text().replace("$", "£").replace("[game]\n", '[game]\ncurrency = "GBP"\n', 1)
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(("rules", "old", "new", "why"), [
    ("primetime_payout", 'denominations = ["1.00"', 'denominations = ["1.01"',
     "layout.amount_multipliers[0]: 0.5 x £1.01 is not whole cents (an amount an area may show)"),
    ("hand_to_hand_tactics", 'legend = ["0.5", "1"', 'legend = ["0.125", "0.5", "1"',
     "play.legend[0]: 0.125 x £1.00 is not whole cents (a prize symbol a share may show)"),
])
def test_an_amount_not_whole_pence_is_named_in_pounds(tmp_path: Path, rules, old, new, why):
    text = _pounds(rules, old, new)
    if rules == "primetime_payout":  # no half multiplier among its tiers: only the areas' amounts are odd
        text = re.sub(r'\[\[tiers\]\]\nmultiplier = "\d+\.5"\n(?:[^\n]+\n)*?i_odds = [^\n]+\n', "", text)
    path = tmp_path / "odd.toml"
    path.write_text(text)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == f"{path}: {why}"
