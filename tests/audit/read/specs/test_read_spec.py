"""audit/read/specs/__init__.py's read_spec: a spec behind a UTF-8 byte-order mark (TOML has none) is refused
saying so, as poolgen's loader does; audit said `not a TOML spec: Invalid statement (at line 1, column 1)`
of a file whose first line looks right. A `format` neither 1 nor 2 is refused in the loader's words."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import spec_path


def test_a_spec_behind_a_byte_order_mark_is_refused_saying_so(tmp_path):
    path = tmp_path / "happy_holidays.toml"
    path.write_bytes(b"\xef\xbb\xbf" + spec_path("happy_holidays").read_bytes())
    with pytest.raises(UnusableInput) as raised:
        read_spec(path)
    assert str(raised.value) == (f"{path}: not a TOML spec: it starts with a byte-order mark; save it as "
                                 "UTF-8 without one")
    assert read_spec(spec_path("happy_holidays")) is not None


def test_a_win_naming_no_prize_symbol_is_one_line_in_the_loaders_words(tmp_path):
    """A tier's win naming a prize code the spec lists nowhere (here: the FREE symbol renamed) escaped
    audit's reader as a bare StopIteration, a traceback from `verify --spec`, then as a line naming no
    field; the loader refuses it naming the win's prize, and so does audit's reader now."""
    path = tmp_path / "happy_holidays.toml"
    text = spec_path("happy_holidays").read_text(encoding="utf-8")
    assert text.count('code = "FREE"') == 1
    path.write_text(text.replace('code = "FREE"', 'code = "FREEX"'), encoding="utf-8")
    with pytest.raises(UnusableInput) as raised:
        read_spec(path)
    said = f"{path}: tiers[0].wins[0].prize: area 'play' (match_n): prize 'FREE' is not one of its prize " \
        "symbols"
    assert str(raised.value) == said
    with pytest.raises(SpecError) as loader_said:
        load_spec(path)
    assert str(loader_said.value) == said


@pytest.mark.parametrize(("spec", "written", "said"), [
    ("wild_side", "format = 2.0", "must be 1 or 2 (a game of play areas), not 2.0"),
    ("wild_side", 'format = "2"', "must be 1 or 2 (a game of play areas), not '2'"),
    ("hand_to_hand_tactics", "format = true", "must be 1 or 2 (a game of play areas), not True"),
    ("hand_to_hand_tactics", "format = 3", "must be 1 or 2 (a game of play areas), not 3"),
    ("hand_to_hand_tactics", "", "missing field"),
])
def test_a_format_neither_1_nor_2_is_refused_as_the_loader_refuses_it(tmp_path, spec, written, said):
    """audit read `format == 2` as a game of play areas and anything else as an eInstant: Wild Side with
    `format = 2.0` and Hand-to-Hand Tactics with no format, `true` or 3 passed `verify --spec`, specs the
    loader refuses (docs/new-game.md: `format` is 1 or 2)."""
    text = spec_path(spec).read_text(encoding="utf-8")
    line = "format = 2\n" if spec == "wild_side" else "format = 1\n"
    assert text.count(line) == 1
    path = tmp_path / f"{spec}.toml"
    path.write_text(text.replace(line, f"{written}\n"), encoding="utf-8")
    with pytest.raises(SpecError) as loader_said:
        load_spec(path)
    with pytest.raises(UnusableInput) as audit_said:
        read_spec(path)
    assert str(audit_said.value) == str(loader_said.value) == f"{path}: format: {said}"
