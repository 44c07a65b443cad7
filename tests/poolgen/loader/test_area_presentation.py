"""An area's presentation fields (poolgen/loader/areas.py, docs/new-game.md): `per_row`, how many spots
the proofs draw a row, and `labels` of up to 200 characters; both refused in one line when out of
range, and neither in the manifest's play entry."""

from __future__ import annotations

import pytest

from poolgen.loader import load_spec
from tests.support.cli import invoke, one_line
from tests.support.spec_docs import dumps, kn_doc


def _write(tmp_path, **area):
    doc = kn_doc()
    doc["areas"][0].update(area)
    path = tmp_path / "g.toml"
    path.write_text(dumps(doc))
    return path


def test_per_row_and_long_labels_are_read_and_stay_out_of_the_manifest(tmp_path):
    long = "WINNING NUMBERS " + "X" * 150
    spec = load_spec(_write(tmp_path, per_row=3, labels=[long, "YOUR NUMBERS"]))
    area = spec.play.areas[0]
    assert (area.per_row, area.labels) == (3, (long, "YOUR NUMBERS"))
    entry = spec.play.document()["areas"][0]
    assert "per_row" not in entry and "labels" not in entry


@pytest.mark.parametrize(("area", "message"), [
    ({"per_row": 0}, "areas[0].per_row: must be at least 1, got 0"),
    ({"per_row": 33}, "areas[0].per_row: must be at most 32, got 33"),
    ({"labels": ["X" * 201, "Y"]}, "areas[0].labels: must be a list of section titles (strings of 1 to 200"),
])
def test_presentation_out_of_range_is_refused(tmp_path, area, message):
    one_line(invoke("check", _write(tmp_path, **area)), "poolgen", f"g.toml: {message}")
