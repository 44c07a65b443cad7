"""The ceremony in audit (audit/steps/ceremony.py, audit/read/beacon.py): step 5 holds a run to the spec,
code, game, pools and run id its ceremony bound; step 7 checks the revealed ceremony file against the
manifest (signatures by the listed keys or the keys the auditor brings, the drand round, the reveals) and
derives the seed as poolgen does (and as docs/ceremony.md does, written out a third time). The sealed run
is the root conftest's `sealed_run`."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from audit.checklist import Step
from audit.cli import app as audit_app
from audit.errors import VerificationError
from audit.read.manifest import Manifest, load_public_key
from audit.steps.ceremony import ceremony_seed, read_ceremony
from audit.verify import VerifyRequest, attempt, verify_run
from poolgen.run.provenance import code_entry
from poolgen.run.reproduce import regenerate
from poolgen.run.signing import new_key_pair
from poolgen.seeds import transcript as tx
from poolgen.seeds.beacon import QUICKNET, Round
from poolgen.seeds.ceremony import Binding, key_fingerprint
from poolgen.seeds.rules import new_ceremony
from tests.support import spec_path
from tests.support.ceremony import PARTIES, ROUND, rounds, seal
from tests.support.ceremony import commit as _commit
from tests.support.ceremony import new as _new
from tests.support.ceremony import reveal as _reveal
from tests.support.ceremony import third_derivation as _third_derivation
from tests.support.ceremony import verify as _verify


def _changed(sealed_run, tmp_path, change) -> str:
    doc = json.loads(sealed_run.file.read_bytes())
    change(doc)
    path = tmp_path / "changed.ceremony"
    path.write_text(json.dumps(doc))
    return str(path)


def _step7(sealed_run, *extra: str) -> tuple[int, list[str]]:
    """Step 7's ceremony check as `verify --ceremony FILE [--party-key NAME=FILE ...]` runs it (the other
    steps are the run's, unchanged, and slow): (0, [what it checked]) or (1, [why it failed])."""
    file = Path(extra[extra.index("--ceremony") + 1])
    pairs = [a.split("=", 1) for a in extra[extra.index("--ceremony") + 2:] if a != "--party-key"]
    keys = {name: load_public_key(Path(path)) for name, path in pairs} if pairs else None
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    status, found = attempt(Step.REPRODUCTION, ceremony_seed, manifest, read_ceremony(file), keys)
    return (0, [found[1]]) if status == "pass" else (1, [found])


def test_a_reveal_changed_after_the_run_is_refused(sealed_run, tmp_path):
    def change(doc):
        doc["reveals"][1]["value"] = "00" * 32
    code, reasons = _step7(sealed_run, "--ceremony", _changed(sealed_run, tmp_path, change))
    assert code == 1 and reasons == ["party 'lottery': the reveal's signature is not by its listed key"]


def test_a_commitment_or_reveal_signed_by_a_key_the_ceremony_does_not_list_is_refused(sealed_run, tmp_path):
    other = Ed25519PrivateKey.generate()

    def resign_reveal(doc):
        r = doc["reveals"][2]
        closed = tx.commitments_hash(doc["transcript_sha256"], [(c["name"], c["commitment"])
                                                                for c in doc["commitments"]])
        r["signature"] = other.sign(tx.reveal_message(closed, "auditor", bytes.fromhex(r["value"]),
                                                      r["revealed_at"])).hex()
    assert _step7(sealed_run, "--ceremony", _changed(sealed_run, tmp_path, resign_reveal)) == (
        1, ["party 'auditor': the reveal's signature is not by its listed key"])


def test_the_auditor_brings_the_parties_keys(sealed_run, tmp_path):
    given_keys = [a for p in PARTIES
                  for a in ("--party-key", f"{p}={sealed_run.tmp / f'{p}-keys' / 'signing-key.pub.pem'}")]
    code, reasons = _step7(sealed_run, "--ceremony", str(sealed_run.file), *given_keys)
    assert code == 0
    assert reasons[0].startswith("ceremony c1: 3 parties (vendor, lottery, auditor) committed and revealed "
                                 "under the keys the auditor expects")
    mallory = new_key_pair(tmp_path / "mallory")
    swapped = [a.replace(str(sealed_run.tmp / "lottery-keys" / "signing-key.pub.pem"), str(mallory.public))
               for a in given_keys]
    listed = json.loads(sealed_run.file.read_bytes())["transcript"]["parties"][1]["public_key"]
    assert _step7(sealed_run, "--ceremony", str(sealed_run.file), *swapped) == (
        1, [f"party 'lottery' is listed with key {key_fingerprint(listed)}, the auditor expects "
            f"{mallory.fingerprint}"])
    assert _step7(sealed_run, "--ceremony", str(sealed_run.file), *given_keys[:4]) == (
        1, ["the ceremony's parties are vendor, lottery, auditor, the auditor expects vendor, lottery"])


def test_a_run_verified_against_another_ceremony_is_refused(sealed_run, tmp_path):
    other = _new(tmp_path)  # the same id, spec, pools and run, other parties' keys
    for p in PARTIES:
        _commit(other, p)
    for p in PARTIES:
        _reveal(other, p)
    assert seal(other).exit_code == 0
    mine, theirs = (json.loads(f.read_bytes())["transcript_sha256"] for f in (other, sealed_run.file))
    assert _step7(sealed_run, "--ceremony", str(other)) == (
        1, [f"the ceremony file is ceremony 'c1' (transcript {mine[:16]}...), the run's is 'c1' (transcript "
            f"{theirs[:16]}...)"])


def test_a_round_changed_in_the_file_is_refused(sealed_run, tmp_path):
    def change(doc):
        doc["round"] = rounds()[10024141]
    assert _step7(sealed_run, "--ceremony", _changed(sealed_run, tmp_path, change)) == (
        1, ["the ceremony file's commitments or round are not the manifest's"])


def test_step_5_holds_the_run_to_the_spec_its_ceremony_bound(sealed_run, tmp_path):
    head, *blocks = spec_path("wild_side").read_text().split("\n[[tiers]]\n")
    blocks[0], blocks[3] = blocks[3], blocks[0]
    moved = tmp_path / "wild_side.toml"
    moved.write_text("\n[[tiers]]\n".join([head, *blocks]))
    code, report = _verify(sealed_run.run, sealed_run.keys, "--spec", str(moved), audit=True)
    bound = json.loads(sealed_run.file.read_bytes())["transcript"]["spec_sha256"]
    got = hashlib.sha256(moved.read_bytes()).hexdigest()
    assert code == 1 and 5 in report["failed_steps"]
    assert report["steps"][4]["reasons"][-1] == (f"the run is not the one ceremony c1 binds: the spec given "
                                                 f"hashes to {got[:16]}... (bound: {bound[:16]}...)")
    code, report = _verify(sealed_run.run, sealed_run.keys, audit=True)  # no option: still checked
    assert report["steps"][4]["details"][-2:] == [  # and what it could not check says so
        f"the run is the one ceremony c1 bound before anyone committed: spec {bound[:16]}..., code "
        f"{code_entry()['sha256'][:16]}..., game wild_side, pools p1, run r; 3 commitments signed by their "
        "listed keys, which no auditor vouched for (--party-key: the parties could all be one insider's "
        "keys); quicknet round 1000 verifies; round 1000 was published at 2023-08-23T15:59:24Z, before any "
        "poolgen wrote a v4 transcript (2026-12-05T00:00:00Z): a rehearsal, begun once its round was out, "
        "its seed known to its parties before they committed, never a real run's",
        "no ceremony bundle given (--ceremony-bundle): another ceremony for this run's pools, a second seed "
        "the operator could have used instead, is not looked for"]
    # before the game closes, with no ceremony file: the parties' keys the auditor brings, in step 5
    mallory = new_key_pair(tmp_path / "mallory")
    files = {p: sealed_run.tmp / f"{p}-keys" / "signing-key.pub.pem" for p in PARTIES}
    files["vendor"] = mallory.public
    keys = [a for p in PARTIES for a in ("--party-key", f"{p}={files[p]}")]
    code, report = _verify(sealed_run.run, sealed_run.keys, *keys, audit=True)
    listed = json.loads(sealed_run.file.read_bytes())["transcript"]["parties"][0]["public_key"]
    assert code == 1 and report["steps"][4]["reasons"] == [
        f"party 'vendor' is listed with key {key_fingerprint(listed)}, the auditor expects "
        f"{mallory.fingerprint}"]


def test_verify_takes_a_seed_file_or_a_ceremony_not_both(sealed_run, tmp_path):
    seed = tmp_path / "s.seed"
    seed.write_text("00" * 32 + "\n")
    result = CliRunner().invoke(audit_app, ["verify", str(sealed_run.run), "--public-key",
                                            str(sealed_run.keys.public), "--seed-file", str(seed),
                                            "--ceremony", str(sealed_run.file)])
    assert result.exit_code == 2
    assert result.stderr == ("audit: error: give --seed-file or --ceremony, not both: the ceremony gives "
                             "the seed\n")


def test_step_7_reports_a_regeneration_by_other_code(sealed_run):
    def other_code(*args):
        made = regenerate(*args)
        made["versions"] = {**made["versions"], "code": {**made["versions"]["code"], "sha256": "0" * 64}}
        return made

    report = verify_run(VerifyRequest(run=sealed_run.run, public_key=sealed_run.keys.public,
                                      spec=spec_path("wild_side"), ceremony=sealed_run.file,
                                      regenerate=other_code))
    assert report.ok  # the bytes are what decide; the code's difference is reported
    assert report.step(Step.REPRODUCTION).details[1].endswith(
        f"regenerated by OTHER code than made the run (code SHA-256 0000000000000000..., the run's "
        f"{code_entry()['sha256'][:16]}...)")


@settings(max_examples=12, deadline=None)
@given(data=st.data(), n=st.integers(2, 5))
def test_every_implementation_derives_the_same_seed_and_a_changed_reveal_is_caught(data, n):
    names = [f"s{i}" for i in range(n)]
    keys = [Ed25519PrivateKey.generate() for _ in names]
    pools = tuple(data.draw(st.lists(st.sampled_from(["p1", "p2", "p3"]), min_size=1, max_size=3,
                                     unique=True)))
    binding = Binding("ab" * 32, "cd" * 32, "wild_side", pools, "r")
    c = new_ceremony("prop", binding, list(zip(names, (k.public_key() for k in keys), strict=True)),
                     QUICKNET.hash, ROUND, datetime(2023, 8, 23, 15, tzinfo=UTC),
                     datetime(2023, 8, 22, tzinfo=UTC))
    values = [data.draw(st.binary(min_size=32, max_size=32)) for _ in names]
    for name, k, v in zip(names, keys, values, strict=True):
        c.commit(name, k, v, datetime(2023, 8, 23, 14, tzinfo=UTC))
    for name, k, v in zip(names, keys, values, strict=True):
        c.reveal(name, k, v, datetime(2023, 8, 23, 14, tzinfo=UTC))
    real = rounds()[ROUND]
    seed = c.seal(Round(ROUND, real["signature"], real["randomness"]))
    doc = c.to_json()
    manifest = SimpleNamespace(doc={"ceremony": c.manifest_entry()})
    assert ceremony_seed(manifest, doc)[0] == seed == _third_derivation(doc)
    i = data.draw(st.integers(0, n - 1))
    changed = json.loads(json.dumps(doc))
    value = bytes(b ^ 1 if j == 0 else b for j, b in enumerate(values[i]))
    r = changed["reveals"][i]
    r["value"] = value.hex()
    r["signature"] = keys[i].sign(tx.reveal_message(c.closed(), names[i], value, r["revealed_at"])).hex()
    with pytest.raises(VerificationError,
                       match=f"^step 7: the reveal of s{i} does not match its commitment$"):
        ceremony_seed(manifest, changed)


def test_a_manifest_without_a_ceremony_cannot_be_checked_against_one(sealed_run):
    with pytest.raises(VerificationError,
                       match="the manifest records no seed ceremony; give --seed-file instead"):
        ceremony_seed(SimpleNamespace(doc={}), json.loads(sealed_run.file.read_bytes()))


@pytest.mark.parametrize("content", [b"[" * 5000 + b"]" * 5000, b"\xff\xfe not text", b"{\"format\": 1}",
                                     b"{\"format\": \"poolgen-ceremony/2\", \"transcript\": {}}"],
                         ids=["deeply-nested", "not-utf8", "wrong-format", "no-parties"])
def test_a_hostile_ceremony_file_is_one_line_exit_2(sealed_run, tmp_path, content):
    bad = tmp_path / "bad.ceremony"
    bad.write_bytes(content)
    result = CliRunner().invoke(audit_app, ["verify", str(sealed_run.run), "--public-key",
                                            str(sealed_run.keys.public), "--ceremony", str(bad)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"audit: error: {bad}") and len(result.stderr.strip().splitlines()) == 1
