"""A key symbol game ("find a BLACK 7, win the prize shown"): a key_number_match area of no WINNING
NUMBERS (`winning = 0`, docs/styles/key_number_match.md section 2), read from the held-out example
specs/examples/red_hot_wild_7s.toml. Its only wins are its special symbols; it must have some, and a
match win in it is refused as a win it cannot show."""

from __future__ import annotations

from pathlib import Path

import pytest

from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.styles import key_number_match
from tests.support import ROOT
from tests.support.spec_docs import replaced

SPEC = ROOT / "specs" / "examples" / "red_hot_wild_7s.toml"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    return replaced(SPEC, tmp_path, old, new)


def test_an_area_of_no_winning_numbers_loads_and_draws_only_its_symbols():
    spec = load_spec(SPEC)
    area = spec.play.areas[0]
    assert (area.params.winning, area.params.yours) == (0, 15)
    assert key_number_match.columns(area.id, area.params)[:2] == ["play_your_0", "play_your_1"]
    assert len(key_number_match.columns(area.id, area.params)) == 30
    blank = {c: 0 for c in key_number_match.columns(area.id, area.params)}
    assert [title for title, _ in key_number_match.face(area.id, area.params, blank)] == ["YOUR SYMBOLS"]


def test_no_winning_numbers_and_no_special_symbols_is_refused(tmp_path):
    path = _edited(tmp_path, 'specials = "seven"\n', "")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/red_hot_wild_7s.toml: areas[0].winning: 0 winning numbers (a "
                              "key symbol "
                              "game) leave only special symbols to win: give the area `specials`")


def test_a_match_win_in_an_area_of_no_winning_numbers_is_refused(tmp_path):
    path = _edited(tmp_path, 'wins = [ { area = "play", prize = "5", how = "automatic" } ]',
                   'wins = [ { area = "play", prize = "5", how = "match" } ]')
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/red_hot_wild_7s.toml: tiers[0].wins[0].how: area 'play' "
                              "(key_number_match): "
                              "the "
                              "area has no WINNING NUMBERS to match (winning = 0): only its special symbols "
                              "win")


def test_an_area_cannot_match_the_winning_numbers_of_an_area_that_has_none(tmp_path):
    wild = ('\n[[areas]]\nid = "wild"\nstyle = "key_number_match"\nspots = 2\nwinning_from = "play"\n'
            'yours = 1\nnumbers = "picture"\nprizes = "prize"\n')
    path = _edited(tmp_path, "per_row = 5\n", "per_row = 5\n" + wild)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert str(err.value) == (f"{tmp_path}/red_hot_wild_7s.toml: areas[1].winning_from: 'play' is not an "
                              "earlier "
                              "key_number_match area with winning numbers of its own")
