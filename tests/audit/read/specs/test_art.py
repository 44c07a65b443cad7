"""Step 5 holds the manifest's `print.art` to the spec's `art` (audit/read/specs/art.py): a run of Lucky
Pairs (pictures with art) passes against its spec; a changed, dropped or added art reference is refused,
naming the spots, the code and both files."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.specs import read_spec
from audit.steps.figures import check_against_spec
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import SEED_A, small_lucky_pairs


@pytest.fixture(scope="module")
def lucky(tmp_path_factory) -> tuple[Path, dict]:
    """The small Lucky Pairs spec and the manifest of an unsigned run of it."""
    root = tmp_path_factory.mktemp("art5")
    spec = small_lucky_pairs(root)
    run = generate(GenerateRequest(load_spec(spec), SEED_A, now=datetime(2026, 1, 2, tzinfo=UTC),
                                   out=root / "runs", run_id="lp")).folder
    return spec, json.loads((run / "manifest.json").read_bytes())


def _step5(spec: Path, doc: dict) -> str:
    return check_against_spec(Manifest.parse(json.dumps(doc).encode()), read_spec(spec))


def _fails(spec: Path, doc: dict) -> str:
    with pytest.raises(VerificationError) as info:
        _step5(spec, doc)
    assert info.value.step == 5
    return info.value.reason


def test_a_run_with_the_specs_art_passes(lucky):
    spec, doc = lucky
    assert _step5(spec, doc).startswith("spec lucky_pairs.toml (SHA-256 ")


def test_a_changed_art_reference_is_refused(lucky):
    spec, doc = lucky
    doc = json.loads(json.dumps(doc))
    doc["print"]["art"][0]["symbols"][1]["art"] = "LP902_moon.eps"
    assert _fails(spec, doc) == "print.art games_spot_: STAR art 'LP902_moon.eps', spec 'LP902_star.eps'"


def test_a_dropped_art_reference_is_refused(lucky):
    spec, doc = lucky
    doc = json.loads(json.dumps(doc))
    del doc["print"]["art"][0]["symbols"][5]
    assert _fails(spec, doc) == "print.art: the spec's art 'LP902_diamond.eps' (DIAMOND) is on no spot"
    del doc["print"]["art"]
    assert _fails(spec, doc).count("is on no spot") == 6


def test_art_the_spec_does_not_give_is_refused(lucky, tmp_path):
    spec, doc = lucky
    plain = tmp_path / "lucky_pairs.toml"
    plain.write_text("".join(line for line in spec.read_text().splitlines(keepends=True)
                             if not line.startswith("art = ")))
    reason = _fails(plain, doc)
    assert reason.startswith("spec lucky_pairs.toml has SHA-256 ")  # another file, and:
    assert reason.endswith("; print.art games_spot_: BELL art 'LP902_bell.eps', spec none; "
                           "print.art games_spot_: STAR art 'LP902_star.eps', spec none; "
                           "print.art games_spot_: HEART art 'LP902_heart.eps', spec none; "
                           "print.art games_spot_: CLOVER art 'LP902_clover.eps', spec none; "
                           "print.art games_spot_: HORSESHOE art 'LP902_horseshoe.eps', spec none; "
                           "print.art games_spot_: DIAMOND art 'LP902_diamond.eps', spec none")


def test_a_malformed_art_entry_is_a_problem_not_a_crash(lucky):
    spec, doc = lucky
    doc = json.loads(json.dumps(doc))
    doc["print"]["art"] = [{"spots": "games_spot_"}]
    assert _fails(spec, doc) == "print.art: not a list of spots with their symbols' code and art"
