"""audit's reading of a format-1 spec (audit/read/specs/einstant.py): an eInstant of a style, nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


def test_audit_reads_a_format_1_spec_only_as_an_einstant_of_a_style(tmp_path):
    """audit's step 5 reads what poolgen loads: a format-1 printed spec (the old rules games) is refused."""
    from audit.errors import UnusableInput
    from audit.read.specs import read_spec

    path = tmp_path / "old.toml"
    path.write_text('format = 1\n[game]\nname = "Old"\nregulation = "K.A.R. 1"\nrules = "happy_holidays"\n'
                    'kind = "printed"\nsource = "x"\n[printed]\nprice = "1.00"\n[[tiers]]\n')
    with pytest.raises(UnusableInput) as err:
        read_spec(path)
    assert str(err.value) == (f"{path}: game: a format = 1 spec is an eInstant of a style (game.id, "
                              "game.style); a printed game's spec is format = 2, of play styles")


def test_audit_reads_a_format_1_spec_without_game_kind_as_an_einstant(tmp_path):
    """docs/new-game.md: `[game] kind = "einstant"` is no longer needed; poolgen loads a format-1 spec
    without it and writes the manifest's game.kind "einstant", so step 5 (`verify --spec`) must read
    the same spec and expect that kind, not refuse it as unreadable (KeyError: 'kind')."""
    from audit.read.specs import read_spec  # as the test above: the reader under test, imported where used

    with_kind = (ROOT / "specs" / "hand_to_hand_tactics.toml").read_text()
    assert with_kind.count('kind = "einstant"\n') == 1
    path = tmp_path / "no_kind.toml"
    path.write_text(with_kind.replace('kind = "einstant"\n', ""))
    game = dict(read_spec(path).game)
    assert game["kind"] == "einstant"
    assert game == dict(read_spec(ROOT / "specs" / "hand_to_hand_tactics.toml").game)
