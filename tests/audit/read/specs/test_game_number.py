"""A printed game's number (docs/validation.md section 2, docs/new-game.md): 0..9999, three digits to
999 and four from 1000. poolgen's loader and audit's spec reader take the same numbers and refuse the
same ones in the same words, one line naming the file and field; `poolgen check` of one out of range
exits 2 with that line and no traceback."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import spec_path
from tests.support.cli import invoke, one_line


def _spec(tmp_path, number: object):
    text = spec_path("happy_holidays").read_text()
    assert text.count("\nnumber = 465\n") == 1
    path = tmp_path / "g.toml"
    path.write_text(text.replace("\nnumber = 465\n", f"\nnumber = {number}\n"))
    return path


@pytest.mark.parametrize("number", [0, 7, 999, 1000, 2029, 9999])
def test_both_readers_take_a_game_number_of_three_or_four_digits(tmp_path, number):
    path = _spec(tmp_path, number)
    assert load_spec(path).number == number
    read_spec(path)  # raises UnusableInput if audit's reader refuses it


@pytest.mark.parametrize("number", [10000, 12345, -1])
def test_both_readers_refuse_a_game_number_out_of_range_in_one_line_naming_the_field(tmp_path, number):
    path = _spec(tmp_path, number)
    message = (f"{path}: game.number: must be 0..9999 (the first 3 digits of every ticket id, 4 from 1000), "
               f"not {number}")
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    assert str(loader.value) == message
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(audit.value) == message
    one_line(invoke("check", path), "poolgen", message)
