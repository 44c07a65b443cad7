"""The careful re-roll (docs/ceremony.md, (2)): a ceremony for the run ran until every party had revealed,
its seed was looked at and disliked, and a party (the operator among them) signed an abort with its own
code, then published the bundle with the round, seed commitment and run cleared, and seeded the run from
another ceremony. The bundle alone passes, listed as aborted. What the contract says shows it: the
other parties publish the aborted ceremony's file with every reveal (it seeds no run, so its reveals
open no pool), and step 5, given that file as a bundle, refuses it: each reveal signed before the close,
the abort followed them. Until this, a bundle holding `reveals` was unusable input (exit 2): the file the
contract tells the parties to publish could not be given to verify."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from audit.checklist import Step
from audit.errors import UnusableInput
from audit.read.manifest import Manifest
from audit.steps.ceremony_bundles import check_bundles, read_bundle
from audit.verify import attempt
from poolgen.files.write import canonical_bytes
from tests.support.ceremony import PARTIES, commit, invoke, key, new_args, ok, reveal
from tests.third_engines import ceremony as third
from tests.third_engines.ceremony_bundles import check_bundles as third_bundles

ROLLED = ("bundle rolled.json: ceremony c1 was aborted by lottery after every party had revealed before the "
          "close (its file shows each reveal signed by its listed key): poolgen aborts only while a reveal "
          "is missing, so this abort followed a look at the seed, one more to choose from")


def _ceremony(tmp_path: Path, name: str, revealing: tuple[str, ...]) -> Path:
    """Ceremony c1 for run r (other keys), every party committed, `revealing` revealed."""
    folder = tmp_path / name
    folder.mkdir()
    file = folder / "c1.ceremony"
    ok(*new_args(folder, file))
    for p in PARTIES:
        commit(file, p)
    for p in revealing:
        assert reveal(file, p).exit_code == 0
    return file


def _own_abort(file: Path, party: str, reason: str) -> dict:
    """The ceremony file with `party`'s abort signed by its own code (poolgen refuses it once every party
    has revealed)."""
    doc = json.loads(file.read_bytes())
    private = load_pem_private_key(Path(key(file, party)).read_bytes(), None)
    message = (b"poolgen/ceremony/abort/v2" + bytes.fromhex(doc["transcript_sha256"])
               + third.lp(party.encode()) + third.lp(reason.encode()))
    doc["abort"] = {"name": party, "reason": reason, "signature": private.sign(message).hex()}  # type: ignore
    return doc


def _both(sealed_run, tmp_path: Path, doc: dict) -> tuple[tuple[str, str], tuple[str, str]]:
    """Step 5's verdict on the run's own bundle and `doc` (read as verify reads it); the third engine's."""
    own = tmp_path / "c1.json"
    if not own.exists():
        shutil.copyfile(sealed_run.bundle, own)  # published before the reveals
    rolled = tmp_path / "rolled.json"
    rolled.write_text(json.dumps(doc))
    data = (sealed_run.run / "manifest.json").read_bytes()
    audited = attempt(Step.FIGURES, check_bundles, Manifest.parse(data),
                      [(own, read_bundle(own)), (rolled, read_bundle(rolled))])
    try:
        mine = ("pass", third_bundles(json.loads(data), [("c1.json", json.loads(own.read_bytes())),
                                                         ("rolled.json", doc)]))
    except third.Refused as refused:
        mine = ("fail", str(refused))
    return audited, mine


def test_an_abort_after_every_reveal_is_refused_given_the_file_with_the_reveals(sealed_run, tmp_path):
    doc = _own_abort(_ceremony(tmp_path, "rolled", PARTIES), "lottery", "a key was lost")
    assert _both(sealed_run, tmp_path, doc) == (("fail", ROLLED), ("fail", ROLLED))
    del doc["reveals"]  # the insider's own bundle: nothing shows when the abort came
    passed = ("pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; "
                      "rolled.json: ceremony c1 for this run, aborted by lottery (a key was lost)")
    assert _both(sealed_run, tmp_path, doc) == (passed, passed)


def test_an_abort_while_a_reveal_was_missing_passes_with_its_reveals(sealed_run, tmp_path):
    file = _ceremony(tmp_path, "rolled", ("vendor", "lottery"))
    aborted = invoke("ceremony", "abort", str(file), "--key", key(file, "auditor"), "--reason",
                     "auditor late", "--yes")
    assert aborted.exit_code == 0, aborted.output
    doc = json.loads(file.read_bytes())
    assert doc["reveals"][2] is None and doc["abort"]["name"] == "auditor"
    passed = ("pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; "
                      "rolled.json: ceremony c1 for this run, aborted by auditor (auditor late)")
    assert _both(sealed_run, tmp_path, doc) == (passed, passed)


def test_a_reveal_not_by_its_partys_key_in_an_aborted_file_is_refused(sealed_run, tmp_path):
    doc = _own_abort(_ceremony(tmp_path, "rolled", PARTIES), "lottery", "a key was lost")
    doc["reveals"][1]["signature"] = doc["reveals"][0]["signature"]
    why = "bundle rolled.json: party 'lottery': the reveal's signature is not by its listed key"
    assert _both(sealed_run, tmp_path, doc) == (("fail", why), ("fail", why))


def test_a_file_with_reveals_and_no_abort_is_still_no_bundle(tmp_path):
    file = _ceremony(tmp_path, "open", ("vendor",))
    path = tmp_path / "open.json"
    path.write_text(file.read_text())
    with pytest.raises(UnusableInput) as refused:  # its reveals and the round would give a seed
        read_bundle(path)
    assert str(refused.value) == (f"{path}: not a ceremony bundle: the bundle holds a field the format does "
                                  "not have: 'reveals'")


def _unusable_reveal(file: Path, party: str, value: bytes, at: str) -> None:
    """`party` writes its own reveal into the shared file, signed by its key with its own code (poolgen's
    reveal makes it only of its contribution, before the close)."""
    doc = json.loads(file.read_bytes())
    closed = hashlib.sha256(b"poolgen/ceremony/commitments/v2" + bytes.fromhex(doc["transcript_sha256"])
                            + b"".join(third.lp(c["name"].encode()) + bytes.fromhex(c["commitment"])
                                       for c in doc["commitments"])).digest()
    private = load_pem_private_key(Path(key(file, party)).read_bytes(), None)
    message = (b"poolgen/ceremony/reveal/v2" + closed + third.lp(party.encode()) + third.lp(value)
               + third.lp(at.encode()))
    i = PARTIES.index(party)
    doc["reveals"][i] = {"name": party, "value": value.hex(), "revealed_at": at,
                         "signature": private.sign(message).hex()}  # type: ignore[call-arg]
    file.write_bytes(canonical_bytes(doc))


@pytest.mark.parametrize(("value", "at"), [(b"\x01" * 32, "2023-08-23T14:30:00Z"),
                                           (None, "2023-08-23T15:00:00Z"),
                                           (None, "2023-08-23T0:00:00Z")],
                         ids=["not its commitment's", "at the close", "a time without every digit"])
def test_a_reveal_that_cannot_enter_the_seed_leaves_the_ceremony_abortable(sealed_run, tmp_path, value, at):
    # The last party writes a reveal that does not open its commitment (or one stamped at the close) with
    # its own code. `seal` refuses it, and `abort` counted it as a reveal and refused too ("every party has
    # revealed ... (seal it)"): the ceremony could be neither sealed nor aborted, and its published bundle
    # (not aborted, binding run r's pool) then refused every restart's run as a second seed. A revealed_at
    # without every digit (`T0:00:00Z`), which `seal` refuses as no time, sorts before the close as text:
    # step 5 read it as made before the close and refused the abort poolgen signs.
    file = _ceremony(tmp_path, "stuck", ("vendor", "lottery"))
    mine = json.loads((file.parent / "auditor.contribution").read_bytes())["value"]
    _unusable_reveal(file, "auditor", value or bytes.fromhex(mine), at)
    aborted = invoke("ceremony", "abort", str(file), "--key", key(file, "lottery"), "--reason",
                     "auditor's reveal gives no seed", "--yes")
    assert aborted.exit_code == 0, aborted.output
    doc = json.loads(file.read_bytes())  # the honest parties publish it with every reveal
    passed = ("pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; "
                      "rolled.json: ceremony c1 for this run, aborted by lottery (auditor's reveal gives no "
                      "seed)")
    assert _both(sealed_run, tmp_path, doc) == (passed, passed)
