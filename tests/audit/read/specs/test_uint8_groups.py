"""audit/read/specs/codes.py: a spec whose area lists more symbols than one uint8 code column holds
(256) is refused by audit's reader in the words poolgen's loader refuses it with, and 255 are taken by
both; a gap found in both readers' comparison (the loader refused, audit read the spec)."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.errors import UnusableInput
from audit.read.specs import read_spec
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from tests.support import ROOT


def _with_numbers(tmp_path: Path, more: int) -> Path:
    """High Card Duel (yours_beats_theirs, 13 numbers) with `more` numbers after its own."""
    text = (ROOT / "specs" / "examples" / "high_card_duel.toml").read_text(encoding="utf-8")
    head, sep, tail = text.partition("[[symbols]]")
    extra = "".join(f'[[symbols]]\ngroup = "number"\ncode = "N{i}"\nsymbol = "N{i}"\ncaption = "N {i}"\n\n'
                    for i in range(more))
    path = tmp_path / "high_card_duel.toml"
    path.write_text(head + extra + sep + tail, encoding="utf-8")
    return path


def test_a_group_of_256_symbols_is_refused_as_the_loader_refuses_it(tmp_path):
    own = sum(1 for line in (ROOT / "specs" / "examples" / "high_card_duel.toml").read_text().splitlines()
              if line == 'group = "number"')
    path = _with_numbers(tmp_path, 256 - own)
    with pytest.raises(SpecError) as loader:
        load_spec(path)
    with pytest.raises(UnusableInput) as audit:
        read_spec(path)
    assert str(loader.value) == f"{path}: areas[0]: more than 255 symbols do not fit a uint8 code"
    assert str(audit.value) == str(loader.value)


def test_a_group_of_255_symbols_passes_the_uint8_check_in_both(tmp_path):
    own = sum(1 for line in (ROOT / "specs" / "examples" / "high_card_duel.toml").read_text().splitlines()
              if line == 'group = "number"')
    path = _with_numbers(tmp_path, 255 - own)
    for read, error in ((load_spec, SpecError), (read_spec, UnusableInput)):
        try:
            read(path)
        except error as caught:
            assert "uint8" not in str(caught)
