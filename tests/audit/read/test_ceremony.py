"""audit/read/ceremony.py: a published ceremony bundle, or a ceremony file (`verify --ceremony`), whose
fields are not the format's (docs/ceremony.md, "Files"; a bundle without `reveals`) is unusable input,
one line naming the file and the field (exit 2). A bundle was read, and step 5 failed on it (exit 1) or
said its transcript did not hash; a ceremony file's reveal of the wrong type made step 7 fail with
"could not be checked: TypeError ..." (exit 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.errors import UnusableInput
from audit.steps.ceremony import read_ceremony
from audit.steps.ceremony_bundles import read_bundle
from poolgen.run.signing import new_key_pair
from tests.support.ceremony import PARTIES, commit, new, ok, revealed, seal
from tests.third_engines.ceremony_shape import problem as third_problem


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> dict:
    """A real bundle: ceremony c1 (tests/support/ceremony.py), every party committed, published."""
    folder = tmp_path_factory.mktemp("bundle")
    file = new(folder)
    for p in PARTIES:
        commit(file, p)
    ok("ceremony", "publish", str(file), "--out", str(folder / "c1.public.json"))
    return json.loads((folder / "c1.public.json").read_bytes())


def _t(key: str, value):
    return lambda d: d["transcript"].__setitem__(key, value)


BROKEN = [
    ("a field the format lacks", lambda d: d.update(note="x"),
     "the bundle holds a field the format does not have: 'note'"),
    ("abort missing", lambda d: d.pop("abort"), "abort is missing"),
    ("reveals in a bundle", lambda d: d.update(reveals=[None, None, None]),
     "the bundle holds a field the format does not have: 'reveals'"),
    ("transcript_sha256 a number", lambda d: d.update(transcript_sha256=5),
     "transcript_sha256 is not 64 lower-case hex digits: 5"),
    ("game a number", _t("game", 5), "transcript.game is not text: 5"),
    ("pools missing", lambda d: d["transcript"].pop("pools"), "transcript.pools is missing"),
    ("pools text", _t("pools", "p1"), "transcript.pools is not a list of one or more: 'p1'"),
    ("no pools", _t("pools", []), "transcript.pools is not a list of one or more: []"),
    ("a pool a number", _t("pools", [1]), "transcript.pools[0] is not text: 1"),
    ("parties text", _t("parties", "x"), "transcript.parties is not a list of one or more: 'x'"),
    ("a party without a key", lambda d: d["transcript"]["parties"][0].pop("public_key"),
     "transcript.parties[0].public_key is missing"),
    ("beacon null", _t("beacon", None), "transcript.beacon is not an object: None"),
    ("round negative", lambda d: d["transcript"]["beacon"].update(round=-1),
     "transcript.beacon.round is not a round number from 1 to 2^63 - 1: -1"),
    ("round above 64 bits", lambda d: d["transcript"]["beacon"].update(round=2**64),
     "transcript.beacon.round is not a round number from 1 to 2^63 - 1: 18446744073709551616"),
    ("round a bool", lambda d: d["transcript"]["beacon"].update(round=True),
     "transcript.beacon.round is not a round number from 1 to 2^63 - 1: True"),
    ("spec hash not hex", _t("spec_sha256", "zz"),
     "transcript.spec_sha256 is not 64 lower-case hex digits: 'zz'"),
    ("follows empty", _t("follows", []), "transcript.follows is not a list of one or more: []"),
    ("a transcript field the format lacks", _t("note", 1),
     "transcript holds a field the format does not have: 'note'"),
    ("printed text", _t("printed", "358"), "transcript.printed is not an object: '358'"),
    ("printed without a regulation", lambda d: d["transcript"]["printed"].pop("regulation"),
     "transcript.printed.regulation is missing"),
    ("printed number text", lambda d: d["transcript"]["printed"].update(number="358"),
     "transcript.printed.number is not a game number from 0 to 2^63 - 1: '358'"),
    ("printed number negative", lambda d: d["transcript"]["printed"].update(number=-1),
     "transcript.printed.number is not a game number from 0 to 2^63 - 1: -1"),
    ("printed number a bool", lambda d: d["transcript"]["printed"].update(number=True),
     "transcript.printed.number is not a game number from 0 to 2^63 - 1: True"),
    ("printed regulation a number", lambda d: d["transcript"]["printed"].update(regulation=3762),
     "transcript.printed.regulation is not text: 3762"),
    ("printed with a field the format lacks", lambda d: d["transcript"]["printed"].update(name="x"),
     "transcript.printed holds a field the format does not have: 'name'"),
    ("a commitment text", lambda d: d["commitments"].__setitem__(0, "x"),
     "commitments[0] is not an object: 'x'"),
    ("a commitment's signature short", lambda d: d["commitments"][1].update(signature="ab"),
     "commitments[1].signature is not 128 lower-case hex digits: 'ab'"),
    ("a commitment short", lambda d: d["commitments"].pop(),
     "commitments has 2 entries, not one per party (3)"),
    ("abort text", lambda d: d.update(abort="x"), "abort is not an object: 'x'"),
    ("run a number", lambda d: d.update(run=7), "run is not text: 7"),
]


@pytest.mark.parametrize(("edit", "why"), [(e, w) for _, e, w in BROKEN], ids=[n for n, _, _ in BROKEN])
def test_a_bundle_of_the_wrong_shape_is_unusable_input_naming_the_field(bundle, tmp_path, edit, why):
    doc = json.loads(json.dumps(bundle))
    edit(doc)
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(UnusableInput) as raised:
        read_bundle(path)
    assert str(raised.value) == f"{path}: not a ceremony bundle: {why}"
    assert third_problem(doc) == why  # the third engine, from docs/ceremony.md alone


def test_the_published_bundle_and_one_published_before_every_commitment_are_read(bundle, tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(bundle))
    assert read_bundle(path) == bundle
    early = json.loads(json.dumps(bundle))
    early["commitments"][2] = None
    path.write_text(json.dumps(early))
    assert read_bundle(path) == early


def test_verify_given_a_bundle_of_the_wrong_shape_exits_2_in_one_line(bundle, tmp_path):
    keys = new_key_pair(tmp_path / "keys")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text("{}")
    doc = json.loads(json.dumps(bundle))
    doc["transcript"]["beacon"]["round"] = "1000"
    path: Path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    result = CliRunner().invoke(audit_app, ["verify", str(tmp_path / "run"), "--public-key", str(keys.public),
                                            "--ceremony-bundle", str(path)])
    assert (result.exit_code, result.stdout) == (2, ""), result.output
    assert result.stderr == (f"audit: error: {path}: not a ceremony bundle: transcript.beacon.round is not "
                             "a round number from 1 to 2^63 - 1: '1000'\n")


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> dict:
    """A real sealed ceremony file: c1 revealed by every party, sealed with round 1000."""
    file = revealed(tmp_path_factory.mktemp("sealed"))
    assert seal(file).exit_code == 0
    return json.loads(file.read_bytes())


CEREMONY_BROKEN = [
    ("a reveal's value a number", lambda d: d["reveals"][0].update(value=5),
     "reveals[0].value is not 64 lower-case hex digits: 5"),
    ("a reveal without its signature", lambda d: d["reveals"][1].pop("signature"),
     "reveals[1].signature is missing"),
    ("a reveal's field the format lacks", lambda d: d["reveals"][1].update(note=1),
     "reveals[1] holds a field the format does not have: 'note'"),
    ("the round's number text", lambda d: d["round"].update(round="1000"),
     "round.round is not a round number from 1 to 2^63 - 1: '1000'"),
    ("a field the format lacks", lambda d: d.update(note="x"),
     "the ceremony file holds a field the format does not have: 'note'"),
    ("a party's name a number", lambda d: d["transcript"]["parties"][0].update(name=7),
     "transcript.parties[0].name is not text: 7"),
]


@pytest.mark.parametrize(("edit", "why"), [(e, w) for _, e, w in CEREMONY_BROKEN],
                         ids=[n for n, _, _ in CEREMONY_BROKEN])
def test_a_ceremony_file_of_the_wrong_shape_is_unusable_input_naming_the_field(sealed, tmp_path, edit, why):
    doc = json.loads(json.dumps(sealed))
    edit(doc)
    path = tmp_path / "c.ceremony"
    path.write_text(json.dumps(doc))
    with pytest.raises(UnusableInput) as raised:
        read_ceremony(path)
    assert str(raised.value) == f"{path}: not a ceremony file: {why}"


def test_the_sealed_ceremony_file_is_read(sealed, tmp_path):
    path = tmp_path / "c.ceremony"
    path.write_text(json.dumps(sealed))
    assert read_ceremony(path) == sealed
