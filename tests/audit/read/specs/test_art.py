"""Step 5 holds the manifest's `print.art` to the spec's `art` (audit/read/specs/art.py): a run of Lucky
Pairs (pictures with art) passes against its spec; a changed, dropped or added art reference is refused,
naming the spots, the code and both files."""

from __future__ import annotations

import json
import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from audit.errors import VerificationError
from audit.read.manifest import Manifest
from audit.read.specs import read_spec
from audit.read.specs.art import art_spots
from audit.steps.figures import check_against_spec
from poolgen.deliverables.imaging import art_spots as generators_art_spots
from poolgen.errors import SpecError
from poolgen.loader import load_spec
from poolgen.run.generate import GenerateRequest, generate
from tests.support import ROOT, SEED_A, small_lucky_pairs
from tests.support.spec_docs import dumps


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


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda art: art[0].update(spots="games_spot"),  # a prefix no spot column starts with but as _spot1..
     "print.art: spots ['games_spot'], the spec's symbols with art show on ['games_spot_']"),
    (lambda art: art.append(json.loads(json.dumps(art[0]))),
     "print.art: spots ['games_spot_', 'games_spot_'], the spec's symbols with art show on ['games_spot_']"),
    (lambda art: art[0]["symbols"].reverse(),
     "print.art games_spot_: symbols ['DIAMOND', 'HORSESHOE', 'CLOVER', 'HEART', 'STAR', 'BELL'], spec "
     "['BELL', 'STAR', 'HEART', 'CLOVER', 'HORSESHOE', 'DIAMOND'] (each once, in its order)"),
    (lambda art: art[0]["symbols"].append(art[0]["symbols"][0]),
     "print.art games_spot_: symbols ['BELL', 'STAR', 'HEART', 'CLOVER', 'HORSESHOE', 'DIAMOND', 'BELL'], "
     "spec ['BELL', 'STAR', 'HEART', 'CLOVER', 'HORSESHOE', 'DIAMOND'] (each once, in its order)"),
])
def test_the_specs_art_listed_otherwise_than_docs_manifest_states_it_is_refused(lucky, edit, reason):
    """docs/manifest.md `print.art`: one entry a spot prefix, in the areas' and styles' column order,
    each symbol once in the spec's order. The (code, art) pairs alone were compared: an entry under a
    prefix no spot starts with (`poolgen imaging export` would give those spots no art) passed."""
    spec, doc = lucky
    doc = json.loads(json.dumps(doc))
    edit(doc["print"]["art"])
    assert _fails(spec, doc) == reason


def _with_art(name: str, folder: Path) -> tuple[Path, Any]:
    """specs/examples/<name>.toml with an art file on every symbol of a group some spot shows (the loader
    refuses art nothing prints), written in `folder`, and its game."""
    doc = tomllib.loads((ROOT / "specs" / "examples" / f"{name}.toml").read_text())
    for s in doc["symbols"]:
        s["art"] = f"{name}-{s['code']}.eps"
    path = folder / f"{name}.toml"
    for _ in doc["symbols"]:
        path.write_text(dumps(doc))
        try:
            return path, load_spec(path)
        except SpecError as exc:
            unused = re.search(r"symbols\[(\d+)\]\.art: not used: group '([^']*)'", str(exc))
            assert unused is not None, exc
            for s in doc["symbols"]:
                if s["group"] == unused.group(2):
                    s.pop("art", None)
    raise AssertionError(name)


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "specs" / "examples").glob("*.toml")
                                        if "format = 2" in p.read_text()))
def test_audits_print_art_is_the_generators_for_every_example_with_art_on_every_symbol(name, tmp_path):
    """audit's `art_spots`, from the spec and the pool's columns alone, lists what poolgen writes
    (poolgen/deliverables/imaging.py `art_spots`) for every example game, every symbol a spot shows
    given art: every style's spot rules, lines' and bingo's optional ones included."""
    path, game = _with_art(name, tmp_path)
    columns = [c for area in game.play.areas for c in area.columns()]
    listed = art_spots(tomllib.loads(path.read_text()), columns)
    assert listed == generators_art_spots(game)
    # some spot shows art, but in a game of poker hands alone, whose spots show the deck (no spec symbol)
    assert listed or {a.style for a in game.play.areas} == {"poker_hand"}
