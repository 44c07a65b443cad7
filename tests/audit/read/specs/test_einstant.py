"""audit's reading of a format-1 spec (audit/read/specs/einstant.py): an eInstant of a style, nothing else."""

from __future__ import annotations

import pytest


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
