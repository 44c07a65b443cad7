"""A reorder (docs/ceremony.md, "A second order of the same pools"): Wild Side's p1 printed again as run
r-2, from ceremony c2 that names, at `ceremony new --follows`, the first order (the root conftest's
`sealed_run`: run r from ceremony c1). Step 5, given both orders' bundles, accepts c1's only with r's
signed manifest (--earlier-manifest); a ceremony the reorder did not name at new, a manifest other than
the one named, or a follows written in after the commitments is refused, naming why. Real files
throughout: ceremonies through the command line, a generated and signed run, real drand rounds."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from audit.checklist import Step
from audit.cli import app as audit_app
from audit.read.manifest import Manifest, fingerprint, load_public_key
from audit.steps.ceremony import check_bound
from audit.steps.ceremony_bundles import check_bundles, read_bundle, read_earlier
from audit.verify import attempt
from poolgen.files.write import canonical_bytes
from poolgen.run.signing import load_private_key, new_key_pair
from poolgen.seeds import transcript as tx
from poolgen.seeds.ceremony import Ceremony, raw_key
from tests.support import spec_path
from tests.support.ceremony import (
    PARTIES,
    commit,
    failed_but_chance,
    invoke,
    new_args,
    ok,
    refused,
    reveal,
    round_file,
    verify,
)

SECOND_ROUND, SECOND_CLOSE = 10024141, "2024-08-05T00:00:00Z"  # published 2024-08-05T16:36:27Z
SECOND_BEFORE = "2024-08-04T12:00:00Z"


def _second_args(folder: Path, first_manifest: Path, public_key: Path, *extra: str) -> list[str]:
    """`ceremony new` of c2 for run r-2 (Wild Side p1), following the first order's manifest, whose
    signature verifies with the operator's `public_key`."""
    args = new_args(folder, folder / "c2.ceremony", "--follows", str(first_manifest), "--public-key",
                    str(public_key), *extra)
    for option, value in (("--id", "c2"), ("--run-id", "r-2"), ("--beacon-round", str(SECOND_ROUND)),
                          ("--reveals-close", SECOND_CLOSE)):
        args[args.index(option) + 1] = value
    return args


def _sign(manifest: Path, private_key: Path) -> None:
    """manifest.sig beside `manifest`, over its bytes as they are now, by `private_key`."""
    manifest.with_name("manifest.sig").write_bytes(load_private_key(private_key).sign(manifest.read_bytes()))


@pytest.fixture(scope="module")
def reorder(sealed_run, tmp_path_factory):
    """The first order's bundle and manifest; the reorder's ceremony (following it), bundle and signed run."""
    tmp = tmp_path_factory.mktemp("reorder")
    first = sealed_run.run / "manifest.json"
    ok(*_second_args(tmp, first, sealed_run.keys.public), now=SECOND_BEFORE)
    file = tmp / "c2.ceremony"
    for p in PARTIES:
        commit(file, p)
    ok("ceremony", "publish", str(file), "--out", str(tmp / "c2.json"))
    shutil.copyfile(sealed_run.bundle, tmp / "c1.json")  # before its reveals
    for p in PARTIES:
        assert reveal(file, p, now=SECOND_BEFORE).exit_code == 0
    sealed = invoke("ceremony", "seal", str(file), "--round", str(round_file(tmp, SECOND_ROUND)), "--yes",
                    now="2024-08-05T17:00:00Z")
    assert sealed.exit_code == 0, sealed.output
    ok("generate", str(spec_path("wild_side")), "--out", str(tmp / "runs"), "--pool", "p1", "--workers", "1",
       "--key", str(sealed_run.keys.private), "--ceremony", str(file))
    run = tmp / "runs" / "r-2"
    return SimpleNamespace(tmp=tmp, run=run, first=first, keys=sealed_run.keys,
                           b1=(tmp / "c1.json", read_bundle(tmp / "c1.json")),
                           b2=(tmp / "c2.json", read_bundle(tmp / "c2.json")),
                           data=(run / "manifest.json").read_bytes(),
                           key=load_public_key(sealed_run.keys.public))


def _step5(reorder, bundles, earlier=()) -> tuple[str, str]:
    manifest = Manifest.parse(reorder.data)
    return attempt(Step.FIGURES, check_bundles, manifest, bundles, [read_earlier(e) for e in earlier],
                   reorder.key, reorder.data)


def test_an_honest_reorder_passes_with_both_orders_bundles_and_the_first_orders_manifest(reorder, tmp_path):
    first_sha = hashlib.sha256(reorder.first.read_bytes()).hexdigest()
    followed = json.loads(reorder.data)["ceremony"]["transcript"]["follows"]
    assert followed == [{"run_id": "r", "manifest_sha256": first_sha,
                         "transcript_sha256": reorder.b1[1]["transcript_sha256"]}]
    status = ok("ceremony", "status", str(reorder.tmp / "c2.ceremony")).stdout.splitlines()
    assert status[2] == "  printed game: game 358 of K.A.R. 111-4-3762"
    assert status[3] == (f"  follows run r: manifest {first_sha}, ceremony transcript "
                         f"{reorder.b1[1]['transcript_sha256']}")
    # each order published as `poolgen publish` writes it (the reorder's manifest with its `follows`);
    # the auditor takes order 1's manifest from its published bundle
    for run, out in ((reorder.first.parent, "order-1"), (reorder.run, "order-2")):
        ok("publish", str(run), "--out", str(tmp_path / out), "--public-key", str(reorder.keys.public))
    published = tmp_path / "order-1" / "manifest.json"
    assert published.read_bytes() == reorder.first.read_bytes()
    code, report = verify(reorder.run, reorder.keys, "--ceremony-bundle", str(reorder.b1[0]),
                          "--ceremony-bundle", str(reorder.b2[0]), "--earlier-manifest", str(published),
                          audit=True)
    assert failed_but_chance(code, report) == []
    assert report["steps"][4]["details"][-1] == (
        f"ceremony bundles: c1.json: ceremony c1 of run r, the earlier order this run's ceremony follows "
        f"(its signed manifest {first_sha[:16]}...); c2.json: this run's ceremony c2, the manifest's "
        "commitments")
    assert report["steps"][4]["details"][-2].endswith(
        f"; it follows run r (manifest {first_sha[:16]}..., ceremony transcript "
        f"{reorder.b1[1]['transcript_sha256'][:16]}...)")


def test_the_first_orders_bundle_without_its_manifest_is_refused(reorder):
    # the transcript's word alone would let an operator name a ceremony still running beside this one,
    # then keep whichever seed it liked: only the signed manifest shows that order existed first
    first_sha = hashlib.sha256(reorder.first.read_bytes()).hexdigest()
    assert _step5(reorder, [reorder.b1, reorder.b2]) == (
        "fail", "bundle c1.json: ceremony c1 also bound pool p1 of this run (as run r), the earlier order "
                "this run's ceremony follows: give that order's signed manifest (--earlier-manifest, "
                f"SHA-256 {first_sha[:16]}...) to show its seed was fixed before this run's ceremony began")


def test_a_ceremony_the_reorder_did_not_name_at_new_is_refused(reorder, tmp_path):
    # the insider's disliked ceremony for these pools (run r-b), never named at new: a second seed
    folder = tmp_path / "twin"
    folder.mkdir()
    args = new_args(folder, folder / "c1.ceremony")
    args[args.index("--run-id") + 1] = "r-b"
    ok(*args)
    for p in PARTIES:
        commit(folder / "c1.ceremony", p)
    ok("ceremony", "publish", str(folder / "c1.ceremony"), "--out", str(tmp_path / "twin.json"))
    twin = (tmp_path / "twin.json", read_bundle(tmp_path / "twin.json"))
    assert _step5(reorder, [reorder.b1, reorder.b2, twin], [reorder.first]) == (
        "fail", "bundle twin.json: ceremony c1 also bound pool p1 of this run (as run r-b) and was not "
                "aborted: its seed was one more to choose from")


def test_a_follows_written_into_a_transcript_after_its_commitments_is_refused(sealed_run, reorder):
    # run r's ceremony named no earlier order; naming c2's run now changes the transcript every party's
    # commitment signed
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    t = manifest.doc["ceremony"]["transcript"]
    t["follows"] = [{"run_id": "r-2", "manifest_sha256": hashlib.sha256(reorder.data).hexdigest(),
                     "transcript_sha256": reorder.b2[1]["transcript_sha256"]}]
    manifest.doc["ceremony"]["transcript_sha256"] = tx.transcript_hash(t)
    assert attempt(Step.FIGURES, check_bound, manifest, None, None) == (
        "fail", "party 'vendor': the commitment's signature is not by its listed key")


def test_an_earlier_manifest_not_the_one_named_or_not_signed_by_the_runs_key_is_refused(reorder, tmp_path):
    # "order 1" made or edited after the reorder's ceremony began hashes to another SHA-256, even signed
    doc = json.loads(reorder.first.read_bytes())
    doc["run_id"] = "r"  # the same content, written again: other bytes
    data = canonical_bytes(doc) + b"\n"
    edited = tmp_path / "edited" / "manifest.json"
    edited.parent.mkdir()
    edited.write_bytes(data)
    (edited.parent / "manifest.sig").write_bytes(load_private_key(reorder.keys.private).sign(data))
    status, why = _step5(reorder, [reorder.b1, reorder.b2], [edited])
    assert status == "fail" and why.startswith("bundle c1.json: ceremony c1 also bound pool p1 of this run "
                                               "(as run r), the earlier order this run's ceremony follows: "
                                               "give that order's signed manifest")
    other = new_key_pair(tmp_path / "other-keys")
    resigned = tmp_path / "resigned" / "manifest.json"
    resigned.parent.mkdir()
    resigned.write_bytes(reorder.first.read_bytes())
    signature = load_private_key(other.private).sign(resigned.read_bytes())
    (resigned.parent / "manifest.sig").write_bytes(signature)
    assert _step5(reorder, [reorder.b1, reorder.b2], [resigned]) == (
        "fail", "bundle c1.json: ceremony c1 also bound pool p1 of this run (as run r), the earlier order "
                f"this run's ceremony follows: --earlier-manifest {resigned}: the signature does not verify "
                f"with the given public key ({fingerprint(reorder.key)})")
    assert _step5(reorder, [reorder.b2], [reorder.run / "manifest.json"]) == (
        "fail", f"--earlier-manifest {reorder.run / 'manifest.json'}: no earlier order this run's ceremony "
                f"follows has its SHA-256 ({hashlib.sha256(reorder.data).hexdigest()[:16]}...)")


def test_the_first_order_passes_with_the_reorders_bundle_as_a_later_order(sealed_run, reorder):
    # c2's transcript names r's manifest: it began after r's seed was fixed, so it was no choice for r
    data = (sealed_run.run / "manifest.json").read_bytes()
    assert attempt(Step.FIGURES, check_bundles, Manifest.parse(data), [reorder.b1, reorder.b2], [],
                   reorder.key, data) == (
        "pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; c2.json: "
                "ceremony c2 for run r-2, a later order: its transcript names this run's manifest, so it "
                "began after this run's seed was fixed")


def test_ceremony_new_refuses_to_follow_what_is_no_earlier_order_of_its_pools(sealed_run, tmp_path):
    first = sealed_run.run / "manifest.json"
    args = _second_args(tmp_path, first, sealed_run.keys.public)
    args[args.index("--run-id") + 1] = "r"
    refused(invoke(*args, now=SECOND_BEFORE),
            f"--follows {first}: run r is this ceremony's own run id; a reorder is a new run (--run-id)")
    args = _second_args(tmp_path, first, sealed_run.keys.public)
    args[args.index("--pool") + 1] = "p2"
    refused(invoke(*args, now=SECOND_BEFORE),
            f"--follows {first}: run r shares none of pools p2: only an earlier order of the same pools is "
            "followed")
    unseeded = tmp_path / "unseeded" / "manifest.json"
    unseeded.parent.mkdir()
    doc = json.loads(first.read_bytes())
    del doc["ceremony"]
    unseeded.write_bytes(canonical_bytes(doc))
    _sign(unseeded, sealed_run.keys.private)  # by the operator: refused for what it says, not its signature
    refused(invoke(*_second_args(tmp_path, unseeded, sealed_run.keys.public), now=SECOND_BEFORE),
            f"--follows {unseeded}: run r was seeded by no ceremony: no bundle of it can be mistaken for a "
            "second seed, so there is nothing to follow")
    assert not (tmp_path / "c2.ceremony").exists()


def test_ceremony_new_follows_only_a_manifest_the_operators_key_signed(sealed_run, tmp_path):
    """`new` put an earlier run's id and hashes into the transcript from any manifest.json, signed or not,
    edited or not (only the auditor checked, later): each party would commit to following an order nobody
    signed. Now its manifest.sig must verify with the operator's key, --public-key, which --follows needs."""
    first, public = sealed_run.run / "manifest.json", sealed_run.keys.public
    args = _second_args(tmp_path, first, public)
    at = args.index("--public-key")
    refused(invoke(*args[:at], *args[at + 2:], now=SECOND_BEFORE),
            "--follows: give the operator's public key (--public-key): an earlier order is followed only "
            "once its manifest's signature verifies with it")
    at = args.index("--follows")
    refused(invoke(*args[:at], *args[at + 2:], now=SECOND_BEFORE),
            "--public-key: not used: it checks the signatures of --follows manifests")
    lone = tmp_path / "lone" / "manifest.json"  # no manifest.sig beside it
    lone.parent.mkdir()
    lone.write_bytes(first.read_bytes())
    refused(invoke(*_second_args(tmp_path, lone, public), now=SECOND_BEFORE),
            f"--follows {lone}: {lone.parent / 'manifest.sig'}: manifest signature file not found: only an "
            "order signed with the operator's key (--public-key) is followed")
    other = new_key_pair(tmp_path / "other")
    _sign(lone, other.private)  # signed, by a key that is not the operator's
    fp = fingerprint(load_public_key(public))
    refused(invoke(*_second_args(tmp_path, lone, public), now=SECOND_BEFORE),
            f"--follows {lone}: the signature does not verify with the given public key ({fp}): only an "
            "order signed with the operator's key (--public-key) is followed")
    edited = tmp_path / "edited" / "manifest.json"  # the operator's signature, over other bytes
    edited.parent.mkdir()
    edited.write_bytes(first.read_bytes().replace(b'"run_id":"r"', b'"run_id":"q"'))
    assert edited.read_bytes() != first.read_bytes()
    (edited.parent / "manifest.sig").write_bytes((first.parent / "manifest.sig").read_bytes())
    refused(invoke(*_second_args(tmp_path, edited, public), now=SECOND_BEFORE),
            f"--follows {edited}: the signature does not verify with the given public key ({fp}): only an "
            "order signed with the operator's key (--public-key) is followed")
    assert not (tmp_path / "c2.ceremony").exists()


def test_ceremony_new_follows_a_signed_manifest_larger_than_a_key_file(sealed_run, tmp_path):
    """The manifest was read twice, the second time under the 64 KiB bound of a key file: a signed
    manifest above it (an order of many pools) could not be followed. Its bytes are read once now, under
    the manifest's bound, and the entry hashes those bytes."""
    big = tmp_path / "big" / "manifest.json"
    big.parent.mkdir()
    big.write_bytes(sealed_run.run.joinpath("manifest.json").read_bytes() + b" " * 70_000)
    _sign(big, sealed_run.keys.private)
    ok(*_second_args(tmp_path, big, sealed_run.keys.public), now=SECOND_BEFORE)
    follows = json.loads((tmp_path / "c2.ceremony").read_bytes())["transcript"]["follows"]
    assert follows[0]["manifest_sha256"] == hashlib.sha256(big.read_bytes()).hexdigest()


def test_an_earlier_manifest_without_its_signature_or_without_bundles_is_unusable_input(reorder, tmp_path):
    lone = tmp_path / "lone" / "manifest.json"
    lone.parent.mkdir()
    lone.write_bytes(reorder.first.read_bytes())
    for extra, message in (
            (["--ceremony-bundle", str(reorder.b2[0]), "--earlier-manifest", str(lone)],
             f"{lone.parent / 'manifest.sig'}: manifest signature file not found"),
            (["--earlier-manifest", str(reorder.first)],
             "--earlier-manifest is read with the ceremony bundles (--ceremony-bundle) it answers for")):
        result = CliRunner().invoke(audit_app, ["verify", str(reorder.run), "--public-key",
                                                str(reorder.keys.public), *extra])
        assert result.exit_code == 2 and result.stderr == f"audit: error: {message}\n"


def test_a_chain_of_orders_names_every_earlier_order_not_only_the_last(sealed_run, reorder):
    # order 3 (run r-3) names order 2 only: order 1's ceremony bound its pool too, and step 5 does not
    # follow order 2's own `follows`; order 1, audited with order 3's bundle, refuses it as well
    tmp = reorder.tmp / "third"
    tmp.mkdir()
    args = _second_args(tmp, reorder.run / "manifest.json", reorder.keys.public)
    args[args.index("--id") + 1], args[args.index("--run-id") + 1] = "c3", "r-3"
    ok(*args, now=SECOND_BEFORE)
    file = tmp / "c2.ceremony"
    for p in PARTIES:
        commit(file, p)
    ok("ceremony", "publish", str(file), "--out", str(tmp / "c3.json"))
    for p in PARTIES:
        assert reveal(file, p, now=SECOND_BEFORE).exit_code == 0
    assert invoke("ceremony", "seal", str(file), "--round", str(round_file(tmp, SECOND_ROUND)), "--yes",
                  now="2024-08-05T17:00:00Z").exit_code == 0
    ok("generate", str(spec_path("wild_side")), "--out", str(tmp / "runs"), "--pool", "p1", "--workers", "1",
       "--key", str(reorder.keys.private), "--ceremony", str(file))
    data = (tmp / "runs" / "r-3" / "manifest.json").read_bytes()
    b3 = (tmp / "c3.json", read_bundle(tmp / "c3.json"))
    third = attempt(Step.FIGURES, check_bundles, Manifest.parse(data), [reorder.b1, reorder.b2, b3],
                    [read_earlier(reorder.run / "manifest.json")], reorder.key, data)
    assert third == ("fail", "bundle c1.json: ceremony c1 also bound pool p1 of this run (as run r) and was "
                             "not aborted: its seed was one more to choose from")
    first = sealed_run.run / "manifest.json"
    assert attempt(Step.FIGURES, check_bundles, Manifest.parse(first.read_bytes()), [reorder.b1, b3], [],
                   reorder.key, first.read_bytes()) == (
        "fail", "bundle c3.json: ceremony c3 also bound pool p1 of this run (as run r-3) and was not "
                "aborted: its seed was one more to choose from")


def test_a_transcript_following_its_own_run_id_is_refused_in_step_5(sealed_run):
    # written by hand (ceremony new refuses it) and signed by its own parties: its own run is no earlier
    # order, and following it would excuse a second ceremony for the same run
    t = json.loads(sealed_run.file.read_bytes())["transcript"]
    t["follows"] = [{"run_id": "r", "manifest_sha256": "ab" * 32, "transcript_sha256": "cd" * 32}]
    keys = [(n, Ed25519PrivateKey.generate()) for n in ("vendor", "lottery")]
    t["parties"] = [{"name": n, "public_key": raw_key(k.public_key())} for n, k in keys]
    c = Ceremony(t, tx.transcript_hash(t), [None, None], [None, None])
    for i, (n, k) in enumerate(keys):
        c.commit(n, k, bytes([i + 1]) * 32, datetime(2023, 8, 23, 14, tzinfo=UTC))
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    manifest.doc["ceremony"] = {**manifest.doc["ceremony"], "transcript": t,
                                "transcript_sha256": c.transcript_sha256, "commitments": c.commitments,
                                "commitments_sha256": c.closed()}
    assert attempt(Step.FIGURES, check_bound, manifest, None, None) == (
        "fail", "ceremony c1 follows run r, its own run id")


def test_a_ceremony_file_with_a_malformed_or_self_following_follows_is_refused(reorder, tmp_path):
    doc = json.loads((reorder.tmp / "c2.ceremony").read_bytes())
    upper = copy.deepcopy(doc)
    entry = upper["transcript"]["follows"][0]
    entry["manifest_sha256"] = entry["manifest_sha256"].upper()
    (tmp_path / "upper.ceremony").write_bytes(canonical_bytes(upper))
    refused(invoke("ceremony", "status", str(tmp_path / "upper.ceremony")),
            f"{tmp_path / 'upper.ceremony'}: transcript.follows[0]: missing or of the wrong type")
    own = copy.deepcopy(doc)
    own["transcript"]["follows"][0]["run_id"] = "r-2"
    own["transcript_sha256"] = tx.transcript_hash(own["transcript"])
    (tmp_path / "own.ceremony").write_bytes(canonical_bytes(own))
    refused(invoke("ceremony", "status", str(tmp_path / "own.ceremony")),
            "ceremony c2: follows run r-2, its own run id; a reorder is a new run (--run-id)")
