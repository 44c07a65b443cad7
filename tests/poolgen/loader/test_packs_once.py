"""docs/new-game.md 2b: one cap (one spacing rule) a set of tiers, however the tiers are named. A second
cap on the $100 asked nothing the lower `at_most` did not, and `check` and audit's reader took it (a
field nothing uses: review12): both now refuse it in the same one line naming the second rule."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT

SPEC = ROOT / "specs" / "examples" / "happy_holidays_packs.toml"
CAP = 'caps = [ { prize = "100.00", at_most = 1 } ]'
SPACED = 'spacing = [ { tiers = ["20", "100"], min_distance = 2 } ]'


@pytest.mark.parametrize(("old", "new", "said"), [
    (CAP, 'caps = [ { prize = "100.00", at_most = 1 }, { tiers = ["100"], at_most = 2 } ]',
     "packs.caps[1].tiers: the tiers of packs.caps[0] again: one cap a set of tiers (the lowest at_most "
     "is the rule)"),
    (SPACED, 'spacing = [ { tiers = ["20", "100"], min_distance = 2 }, { tiers = ["100", "20"], '
             'min_distance = 3 } ]',
     "packs.spacing[1].tiers: the tiers of packs.spacing[0] again: one spacing rule a set of tiers (the "
     "largest min_distance is the rule)")])
def test_a_second_rule_on_the_same_tiers_is_refused_by_check_and_by_audits_reader_alike(tmp_path, old, new,
                                                                                          said):
    text = SPEC.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / SPEC.name
    path.write_bytes(text.replace(old, new).encode())
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(loader.value) == f"{path}: {said}"
    assert str(audit.value).endswith(said)
