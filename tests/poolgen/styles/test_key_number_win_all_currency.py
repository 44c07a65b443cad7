"""key_number_match's win-all `prize` in the game's currency (docs/new-game.md section 1: an amount is
written bare or with the game's sign): specs/examples/money_bag_match.toml in pounds, its win-all prizes
written "£30.00", is read by the loader and by audit's spec reader alike; "$30.00" there is refused; the
loader's refusals of a win-all sum speak pounds; a game in dollars is refused in the words it always was."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT

SPEC = ROOT / "specs" / "examples" / "money_bag_match.toml"


def _pounds(tmp_path: Path, old: str = "", new: str = "") -> Path:
    """The example in GBP: every `$` a `£`, the win-all prizes written with the sign; `old` made `new`."""
    text = SPEC.read_text().replace("$", "£").replace('[game]\n', '[game]\ncurrency = "GBP"\n', 1)
    text = text.replace('prize = "20.00", how = "all"', 'prize = "£20.00", how = "all"')
    text = text.replace('prize = "30.00", how = "all"', 'prize = "£30.00", how = "all"')
    assert old in text, old
    path = tmp_path / SPEC.name
    path.write_text(text.replace(old, new, 1))
    return path


def test_a_win_all_prize_written_in_pounds_is_read_by_the_loader_and_audit(tmp_path):
    path = _pounds(tmp_path)
    game = load_spec(path)
    assert game.currency.code == "GBP"
    bag = {t.id: t.prize_cents for t in game.pools[0].tiers if t.id.startswith("bag")}
    assert bag == {"bag20": 2000, "bag30": 3000, "bag50": 5000, "bag100": 10000}
    read_spec(path)  # audit's reader takes what `check` takes


def test_a_win_all_prize_in_dollars_on_a_pound_game_is_refused_by_both(tmp_path):
    path = _pounds(tmp_path, 'prize = "£30.00", how = "all"', 'prize = "$30.00", how = "all"')
    said = (f"{path}: tiers[7].wins[0].prize: area 'play' (key_number_match): '$30.00' is not an amount in "
            "GBP: its sign '$' is another currency's (the game's is '£')")
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == said
    with pytest.raises(UnusableInput) as refused:
        read_spec(path)
    assert str(refused.value) == said


def test_a_win_all_prize_not_an_amount_names_the_games_sign(tmp_path):
    path = _pounds(tmp_path, 'prize = "£30.00", how = "all"', 'prize = "£30", how = "all"')
    load_spec(path)  # whole pounds, as printed
    path = _pounds(tmp_path, 'prize = "£30.00", how = "all"', 'prize = "30 pounds", how = "all"')
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == (
        f"{path}: tiers[7].wins[0].prize: area 'play' (key_number_match): prize '30 pounds': a win-all win's "
        "prize is the amount it pays (\"50.00\" or \"£50\")")


def test_an_unreachable_win_all_sum_is_refused_in_pounds(tmp_path):
    path = _pounds(tmp_path, 'prize = "£30.00", how = "all"', 'prize = "£21.00", how = "all"')
    with pytest.raises(SpecError) as caught:
        load_spec(path)
    assert str(caught.value) == (
        f"{path}: tiers[7].wins[0].prize: area 'play' (key_number_match): £21.00 cannot be made from 10 of "
        "the area's prize symbols (£2.00, £4.00, £5.00, £10.00, £20.00, £50.00, £100.00, £1,000.00)")
