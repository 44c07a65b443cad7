"""audit/read/specs/unused.py and poolgen/loader/areas.py: a prize symbol no tier wins, in a group only
prize_box, cards, add_up, yours_beats_theirs or blackjack areas with wins name, is refused by both readers
in the same words: their PRIZE boxes show a prize drawn in proportion to the area's wins (each contract,
section 7), so no ticket would show or pay it (a field nothing uses). Both readers took it before. A
prize won in another area of the group (Scrabble's 4, won in the beat area alone) stays good. blackjack's
PRIZE is drawn so too (blackjack.md section 7, step 2): both readers took its unwon prize until listed."""

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

WHY = ("(a PRIZE of add_up, blackjack, cards, prize_box, yours_beats_theirs shows the prizes its area's "
       "tiers win)")
EXAMPLES = [("lucky_pairs", "prize_box", 12), ("holdem_poker", "cards", 7), ("lucky_21", "add_up", 16),
            ("high_card_duel", "yours_beats_theirs", 19), ("pa_blackjack_10", "blackjack", 29)]


def _with_unwon_prize(name: str, tmp_path: Path) -> Path:
    doc = tomllib.loads((ROOT / "specs" / "examples" / f"{name}.toml").read_text("utf-8"))
    area = next(a for a in doc["areas"] if a["style"] in [e[1] for e in EXAMPLES])
    like = next(s for s in doc["symbols"] if s.get("group") == area["prizes"] and "value" in s)
    doc["symbols"].append({"group": like["group"], "code": "ZZ9", "symbol": "$9,999", "value": "9999.00"})
    spec = tmp_path / "g.toml"
    spec.write_text(dumps(doc), encoding="utf-8")
    return spec


@pytest.mark.parametrize(("name", "style", "index"), EXAMPLES, ids=[e[1] for e in EXAMPLES])
def test_a_prize_no_tier_wins_in_a_drawn_prize_area_is_refused_by_both_readers(tmp_path, name, style, index):
    spec = _with_unwon_prize(name, tmp_path)
    said = f"{spec}: symbols[{index}]: not used: no tier wins 'ZZ9' and no area shows it {WHY}"
    with pytest.raises(SpecError) as loader:
        load_spec(spec)
    with pytest.raises(UnusableInput) as reader:
        read_spec(spec)
    assert (str(loader.value), str(reader.value)) == (said, said)


def test_a_prize_won_in_another_area_of_its_group_is_taken_by_both_readers():
    spec = ROOT / "specs" / "examples" / "uk_scrabble_0493.toml"
    doc = tomllib.loads(spec.read_text("utf-8"))
    assert [w["area"] for t in doc["tiers"] for w in t["wins"] if w["prize"] == "4"] == ["beat"]
    load_spec(spec)
    read_spec(spec)
