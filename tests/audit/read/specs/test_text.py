"""A spec's text holds no control character (docs/new-game.md, section 1): audit's reading of a spec for
step 5 refuses one as poolgen's loader does, naming the field and the character."""

from __future__ import annotations

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from tests.support import small_happy_holidays


@pytest.mark.parametrize(("was", "now", "message"), [
    ('name = "Happy Holidays"', 'name = "Happy\\u001b[2JHolidays"',
     "game.name: text holds a control character (U+001B)"),
    ('get = "$1"', 'get = "$1\\n"', "tiers[1].get: text holds a control character (U+000A)"),
    ('name = "Happy Holidays"', 'name = "Happy \\u202eHolidays"',
     "game.name: text holds a bidirectional control character (U+202E)"),
])
def test_a_control_character_in_a_spec_s_text_is_refused(tmp_path, was, now, message):
    spec = small_happy_holidays(tmp_path, 3000)
    text = spec.read_text()
    assert text.count(was) == 1, was
    spec.write_text(text.replace(was, now))
    with pytest.raises(UnusableInput) as info:
        read_spec(spec)
    assert str(info.value) == f"{spec}: {message}"
