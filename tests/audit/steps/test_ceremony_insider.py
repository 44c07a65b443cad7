"""An insider against the ceremony, as audit sees it (docs/ceremony.md, "Verifying"): transcripts that
poolgen's `ceremony new` would never make but an operator can write and sign by hand, and a run whose
seed did not come from the ceremony its manifest records. Each is refused, naming why. The sealed run
is the root conftest's `sealed_run`."""

from __future__ import annotations

import json
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from audit.checklist import Step
from audit.cli import app as audit_app
from audit.read.manifest import Manifest
from audit.steps.ceremony import ceremony_seed, check_bound
from audit.steps.ceremony_bundles import check_bundles, read_bundle
from audit.verify import attempt
from poolgen.files.write import canonical_bytes
from poolgen.run.signing import load_private_key
from poolgen.seeds import transcript as tx
from poolgen.seeds.beacon import Round
from poolgen.seeds.ceremony import Ceremony, raw_key
from tests.support import spec_path
from tests.support.ceremony import (
    AFTER,
    BEFORE,
    CLOSE,
    PARTIES,
    ROUND,
    failed_but_chance,
    invoke,
    key,
    new_args,
    ok,
    refused,
    rounds,
)
from tests.support.ceremony import commit as _commit
from tests.support.ceremony import new as _new
from tests.support.ceremony import verify as _verify


def test_a_chosen_seed_dressed_with_a_real_ceremony_is_refused_a_seed_file(sealed_run, tmp_path):
    # The operator generates from a seed it chose, then copies the real sealed ceremony's entry (same
    # spec, code, game, pools and run id) into the manifest and signs it again. The seed file matches
    # the seed commitment; only the ceremony's reveals could show the seed is not the ceremony's.
    chosen = tmp_path / "chosen.seed"
    chosen.write_text("42" * 31 + "43\n")  # chosen, not typed: one repeated byte is refused
    os.chmod(chosen, 0o600)
    ok("generate", str(spec_path("wild_side")), "--out", str(tmp_path / "runs"), "--pool", "p1",
       "--workers", "1", "--run-id", "r", "--key", str(sealed_run.keys.private), "--seed-file", str(chosen))
    run = tmp_path / "runs" / "r"
    doc = json.loads((run / "manifest.json").read_bytes())
    doc["ceremony"] = json.loads((sealed_run.run / "manifest.json").read_bytes())["ceremony"]
    data = canonical_bytes(doc)
    (run / "manifest.json").write_bytes(data)
    (run / "manifest.sig").write_bytes(load_private_key(sealed_run.keys.private).sign(data))
    result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(sealed_run.keys.public),
                                            "--spec", str(spec_path("wild_side")), "--seed-file", str(chosen),
                                            "--json"])
    report = json.loads(result.stdout)
    assert result.exit_code == 1 and report["failed_steps"] == [7]
    assert report["steps"][6]["reasons"] == [
        "the manifest records seed ceremony 'c1': its seed is checked from the ceremony file (--ceremony), "
        "not a seed file, which cannot show that the ceremony gave it"]


def _crafted(sealed_run, parties, close: str = CLOSE, size: int = 32) -> tuple[Manifest, dict]:
    """A ceremony for the sealed run's spec, code, game, pools and run id that `ceremony new` refuses,
    written by hand: `parties` (name, private key), reveals closing at `close`; committed, revealed
    and sealed with the real round 1000 under those keys. The sealed run's manifest carrying it, and
    the ceremony file's document."""
    t = json.loads(sealed_run.file.read_bytes())["transcript"]
    t = {**t, "parties": [{"name": n, "public_key": raw_key(k.public_key())} for n, k in parties],
         "beacon": {**t["beacon"], "reveals_close": close}}
    c = Ceremony(t, tx.transcript_hash(t), [None] * len(parties), [None] * len(parties))
    values = [bytes([i + 1]) * size for i in range(len(parties))]
    before = datetime.strptime(close, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC) - timedelta(minutes=20)
    for (name, k), v in zip(parties, values, strict=True):
        c.commit(name, k, v, before)
    for (name, k), v in zip(parties, values, strict=True):
        c.reveal(name, k, v, before)
    real = rounds()[ROUND]
    c.seal(Round(ROUND, real["signature"], real["randomness"]))
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    manifest.doc["ceremony"] = c.manifest_entry()
    return manifest, c.to_json()


def _refusals(manifest: Manifest, doc: dict) -> tuple[str | None, str | None]:
    """Step 5's and step 7's refusal of the crafted ceremony (None: it passed)."""
    five = attempt(Step.FIGURES, check_bound, manifest, None, None)
    seven = attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None)
    return (five[1] if five[0] == "fail" else None), (seven[1] if seven[0] == "fail" else None)


def test_a_one_party_ceremony_is_refused(sealed_run):
    # the operator alone: it could make any number of commitments and keep the one it likes
    manifest, doc = _crafted(sealed_run, [("operator", Ed25519PrivateKey.generate())])
    why = "ceremony c1 lists 1 secret party; a ceremony needs 2 to 16"
    assert _refusals(manifest, doc) == (why, why)


def test_two_parties_under_one_key_or_one_name_are_refused(sealed_run):
    mine = Ed25519PrivateKey.generate()
    manifest, doc = _crafted(sealed_run, [("vendor", mine), ("lottery", mine)])
    why = "ceremony c1: parties 'vendor' and 'lottery' have the same key; each party has its own"
    assert _refusals(manifest, doc) == (why, why)
    entry = manifest.doc["ceremony"]  # the second party renamed (no poolgen step takes two of a name)
    entry["transcript"]["parties"][1]["public_key"] = raw_key(Ed25519PrivateKey.generate().public_key())
    entry["transcript"]["parties"][1]["name"] = "vendor"
    entry["transcript_sha256"] = tx.transcript_hash(entry["transcript"])
    five = attempt(Step.FIGURES, check_bound, manifest, None, None)
    assert five == ("fail", "ceremony c1 names party 'vendor' twice")


def test_a_round_published_before_reveals_close_is_refused_in_step_5_too(sealed_run):
    # round 1000 is out at 15:59:24; reveals closing at 16:30 let the last to reveal know the beacon
    manifest, doc = _crafted(sealed_run, [("vendor", Ed25519PrivateKey.generate()),
                                          ("lottery", Ed25519PrivateKey.generate())],
                             close="2023-08-23T16:30:00Z")
    why = "round 1000 is published at 2023-08-23T15:59:24Z, not after reveals close (2023-08-23T16:30:00Z)"
    assert _refusals(manifest, doc) == (why, why)


def _bundle(file: Path, out: Path) -> tuple[Path, dict]:
    ok("ceremony", "publish", str(file), "--out", str(out))
    return out, read_bundle(out)


def _own(sealed_run, out: Path) -> tuple[Path, dict]:
    """The sealed run's own bundle, as published before the reveals (a copy named `out`)."""
    shutil.copyfile(sealed_run.bundle, out)
    return out, read_bundle(out)


def test_published_bundles_show_the_runs_commitments_and_every_other_ceremony_aborted(sealed_run, tmp_path):
    # An insider runs two ceremonies for run r and seeds the run from the one it likes; or changes a
    # commitment of the run's own ceremony after its bundle was published. Given every bundle
    # published for the run, step 5 refuses both; an aborted other ceremony is shown, not refused.
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    mine = _own(sealed_run, tmp_path / "c1.json")
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine]) == (
        "pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments")
    (tmp_path / "other").mkdir()
    other = _new(tmp_path / "other")  # ceremony c1 again, other parties' keys: another transcript
    for p in PARTIES:
        _commit(other, p)
    second = _bundle(other, tmp_path / "other.json")
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, second]) == (
        "fail", "bundle other.json: ceremony c1 also bound run r and was not aborted: its seed was one "
                "more to choose from")
    ok("ceremony", "abort", str(other), "--party", "lottery", "--key", key(other, "lottery"), "--reason",
       "a key was lost", "--yes")
    aborted = _bundle(other, tmp_path / "other-aborted.json")
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, aborted])[1].endswith(
        "other-aborted.json: ceremony c1 for this run, aborted by lottery (a key was lost)")
    forked = json.loads(mine[0].read_bytes())
    forked["commitments"][0]["commitment"] = "00" * 32
    assert attempt(Step.FIGURES, check_bundles, manifest, [(mine[0], forked)]) == (
        "fail", "bundle c1.json: the commitments published for ceremony c1 are not the manifest's (or it "
                "was aborted)")
    forked["commitments"][0], forked["commitments"][2] = mine[1]["commitments"][0], None  # published early
    assert attempt(Step.FIGURES, check_bundles, manifest, [(mine[0], forked)]) == (
        "fail", "bundle c1.json: the commitments published for ceremony c1 are not the manifest's (or it "
                "was aborted)")
    code, report = _verify(sealed_run.run, sealed_run.keys, "--ceremony-bundle", str(mine[0]),
                           "--ceremony-bundle", str(second[0]), audit=True)
    assert failed_but_chance(code, report) == [5] and report["steps"][4]["reasons"] == [
        "bundle other.json: ceremony c1 also bound run r and was not aborted: its seed was one more to "
        "choose from"]
    result = CliRunner().invoke(audit_app, ["verify", str(sealed_run.run), "--public-key",
                                            str(sealed_run.keys.public), "--ceremony-bundle",
                                            str(sealed_run.file.parent / "round-1000-0.json")])
    assert result.exit_code == 2 and result.stderr == (
        f"audit: error: {sealed_run.file.parent / 'round-1000-0.json'}: not a ceremony bundle (format "
        "'poolgen-ceremony/2', a transcript and commitments)\n")


def _other(tmp_path: Path, name: str, run_id: str, pools: tuple[str, ...],
           spec: str = "wild_side") -> tuple[Path, dict]:
    """Ceremony c1 again under run id `run_id` for `pools` of `spec` (other parties' keys), every party
    committed, published as NAME.json."""
    folder = tmp_path / name
    folder.mkdir()
    args = new_args(folder, folder / "c1.ceremony", spec=spec)
    args[args.index("--run-id") + 1] = run_id
    at = args.index("--pool")
    args[at:at + 2] = [a for p in pools for a in ("--pool", p)]
    ok(*args)
    for p in PARTIES:
        _commit(folder / "c1.ceremony", p)
    return _bundle(folder / "c1.ceremony", tmp_path / f"{name}.json")


def test_the_runs_own_bundle_written_after_the_seal_is_not_the_one_published_before_the_reveals(sealed_run,
                                                                                                tmp_path):
    # An insider runs ceremonies for run r in secret (its own parties' keys, or parties it misleads), waits
    # for each round, keeps the seed it likes and only then runs `ceremony publish` on that one: a bundle
    # holding the round, the seed commitment and the run, which `seal` and `generate` set once every party
    # had revealed. Step 5 took it as the bundle "published before any reveal".
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    late = _bundle(sealed_run.file, tmp_path / "c1.json")
    assert attempt(Step.FIGURES, check_bundles, manifest, [late]) == (
        "fail", "bundle c1.json: this run's ceremony c1 published with its round, seed_commitment and run, "
                "set once every party had revealed and the round was out: it does not show the commitments "
                "published before any reveal (give the bundle published before the reveals)")
    sealed = json.loads(late[0].read_bytes())
    sealed["run"] = None  # published between the seal and generate
    assert attempt(Step.FIGURES, check_bundles, manifest, [(late[0], sealed)])[1].startswith(
        "bundle c1.json: this run's ceremony c1 published with its round and seed_commitment, set once")
    assert attempt(Step.FIGURES, check_bundles, manifest, [_own(sealed_run, tmp_path / "own.json")]) == (
        "pass", "ceremony bundles: own.json: this run's ceremony c1, the manifest's commitments")


def test_a_second_ceremony_for_the_runs_pool_under_another_run_id_is_refused(sealed_run, tmp_path):
    # The operator runs two ceremonies for Wild Side's p1 side by side, naming runs r and r-b (a run id
    # is its free choice), and generates from the one whose seed it likes. Collected by game, the other
    # is refused though it names another run; a ceremony of the game's other pools (another run) is not.
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    mine = _own(sealed_run, tmp_path / "c1.json")
    twin = _other(tmp_path, "twin", "r-b", ("p1",))
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, twin]) == (
        "fail", "bundle twin.json: ceremony c1 also bound pool p1 of this run (as run r-b) and was not "
                "aborted: its seed was one more to choose from")
    wider = _other(tmp_path, "wider", "r-c", ("p2", "p1"))
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, wider])[1].startswith(
        "bundle wider.json: ceremony c1 also bound pool p1 of this run (as run r-c)")
    reorder = _other(tmp_path, "reorder", "r-2", ("p2", "p3"))
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, reorder]) == (
        "pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; "
                "reorder.json: ceremony c1 for run r-2, other pools of game wild_side (p2, p3)")
    assert attempt(Step.FIGURES, check_bundles, manifest, [reorder]) == (
        "fail", "no bundle given is of this run's ceremony c1: its commitments are not shown published "
                "before any reveal (ceremony publish)")
    game = _other(tmp_path, "game", "r", ("p1",), spec="happy_holidays")
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, game]) == (  # another printed game: listed
        "pass", "ceremony bundles: c1.json: this run's ceremony c1, the manifest's commitments; game.json: "
                "ceremony c1 of another printed game (game 465 of K.A.R. 111-4-3836), not this run's (game "
                "358 of K.A.R. 111-4-3762)")


def test_a_round_nobody_can_check_is_refused_before_the_close_in_step_5(sealed_run):
    # The operator holds every reveal; in place of quicknet's round 1000 it writes a signature of its own
    # (here round 10024141's, a real G1 point that is not round 1000's) with its hash as the randomness,
    # so it picks the seed among as many as it likes, and signs the run. The manifest alone shows it,
    # before sale: the round's signature is public and verifies or not; step 7 would see it only after
    # the close, when the prizes are claimed.
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    assert attempt(Step.FIGURES, check_bound, manifest, None, None)[0] == "pass"
    other = rounds()[10024141]
    manifest.doc["ceremony"]["round"] = {"round": ROUND, "signature": other["signature"],
                                         "randomness": other["randomness"]}
    assert attempt(Step.FIGURES, check_bound, manifest, None, None) == (
        "fail", "the manifest's drand round 1000: its signature does not verify against chain quicknet's "
                "public key (randomness nobody can check: the seed could have been chosen)")
    manifest.doc["ceremony"]["round"]["randomness"] = "00" * 32
    assert attempt(Step.FIGURES, check_bound, manifest, None, None) == (
        "fail", "the manifest's drand round 1000: its randomness is not the SHA-256 of its signature")


def test_a_contribution_that_is_not_32_bytes_is_refused_in_step_7(sealed_run):
    # poolgen's ceremony file holds 32 bytes a contribution (64 hex digits); a file written by hand with
    # 16 (or none) commits, reveals and signs as well, but its seed is not the documented derivation's
    manifest, doc = _crafted(sealed_run, [("vendor", Ed25519PrivateKey.generate()),
                                          ("lottery", Ed25519PrivateKey.generate())], size=16)
    assert _refusals(manifest, doc) == (None, "party 'vendor': its contribution is 16 bytes, not 32")


def test_one_key_listed_twice_in_two_spellings_is_refused(sealed_run):
    # bytes.fromhex reads "AB" as "ab": the transcript hashes, and every signature verifies, the same with a
    # key written in capitals, so the operator's one key can pass for two parties' unless the key's text is
    # held to its one spelling (64 lower-case hex digits, as poolgen writes it and loads it)
    mine = Ed25519PrivateKey.generate()
    manifest, doc = _crafted(sealed_run, [("vendor", mine), ("lottery", mine)])
    for t in (manifest.doc["ceremony"]["transcript"], doc["transcript"]):
        t["parties"][1]["public_key"] = t["parties"][1]["public_key"].upper()
    assert tx.transcript_hash(doc["transcript"]) == manifest.doc["ceremony"]["transcript_sha256"]
    why = "ceremony c1: party 'lottery': public key is not 64 lower-case hex digits"
    assert _refusals(manifest, doc) == (why, why)


def test_a_ceremony_file_that_records_an_abort_seeds_no_run_in_step_7(sealed_run):
    # An aborted ceremony seeds nothing (generate refuses it); a ceremony file given to step 7 with a party's
    # signed abort in it shows the ceremony was called off, whatever its reveals and round say
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    doc = json.loads(sealed_run.file.read_bytes())
    assert attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None)[0] == "pass"
    reason = "the vendor's reveal was missing at the close"
    lottery = load_private_key(Path(key(sealed_run.file, "lottery")))
    doc["abort"] = {"name": "lottery", "reason": reason, "signature": lottery.sign(
        tx.abort_message(doc["transcript_sha256"], "lottery", reason)).hex()}
    assert attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None) == (
        "fail", f"ceremony c1 was aborted by lottery ({reason}): an aborted ceremony seeds no run")
    doc["abort"]["name"] = "auditor"
    assert attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None) == (
        "fail", "party 'auditor': the abort's signature is not by its listed key")
    doc["abort"]["name"] = "mallory"
    assert attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None) == (
        "fail", "the ceremony file records an abort by no listed party")


def test_a_reveal_withheld_past_the_close_is_stopped_by_the_honest_partys_abort(sealed_run, tmp_path):
    # The vendor (the operator) withholds its reveal until round 1000 is out, learns the seed, likes it,
    # and reveals with a revealed_at of its own clock before the close: the operator's copy of the file
    # verifies (the sealed run). The lottery, honest, saw no reveal from the vendor at the close, aborted
    # its copy then and published it; given that bundle too, step 5 refuses the run.
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    mine = _own(sealed_run, tmp_path / "operator.json")
    seen = json.loads(sealed_run.file.read_bytes())  # the lottery's copy: no vendor reveal, not sealed
    seen |= {"round": None, "seed_commitment": None, "run": None}
    seen["reveals"][0] = None
    copy = sealed_run.file.parent / "lottery-copy.ceremony"
    copy.write_bytes(canonical_bytes(seen))
    os.chmod(copy, 0o600)
    ok("ceremony", "abort", str(copy), "--key", key(sealed_run.file, "lottery"), "--reason",
       "no reveal from vendor at the close", "--yes", now=AFTER)
    aborted = _bundle(copy, tmp_path / "lottery.json")
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine])[0] == "pass"
    assert attempt(Step.FIGURES, check_bundles, manifest, [mine, aborted]) == (
        "fail", "bundle lottery.json: the commitments published for ceremony c1 are not the manifest's (or "
                "it was aborted)")


def test_an_abort_reason_with_terminal_escapes_is_shown_escaped_and_refused_by_poolgen(sealed_run):
    """A reason is signed text from a party's file: printed raw, "\x1b[1A\x1b[2K" would move the cursor
    up and erase the report's line before it. Audit shows it escaped; poolgen refuses to write one."""
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    doc = json.loads(sealed_run.file.read_bytes())
    reason = "late\x1b[1A\x1b[2K\r"
    lottery = load_private_key(Path(key(sealed_run.file, "lottery")))
    doc["abort"] = {"name": "lottery", "reason": reason, "signature": lottery.sign(
        tx.abort_message(doc["transcript_sha256"], "lottery", reason)).hex()}
    assert attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None) == (
        "fail", "ceremony c1 was aborted by lottery (late\\x1b[1A\\x1b[2K\\r): an aborted ceremony seeds no "
                "run")


def test_poolgen_refuses_an_abort_reason_with_a_control_character(tmp_path):
    other = _new(tmp_path)
    for p in PARTIES:
        _commit(other, p)
    result = invoke("ceremony", "abort", str(other), "--party", "lottery", "--key", key(other, "lottery"),
                    "--reason", "late\x1b[2K", "--yes", now=BEFORE)
    refused(result, "ceremony c1: an abort's reason is 1 to 1024 bytes of printable text on one line, not "
                    "blank")


@pytest.mark.parametrize("at", [CLOSE, "2023-08-23T15:30:00Z", "2023-08-23T16:00:01Z"],
                         ids=["at-the-close", "after-the-close", "after-the-round"])
def test_a_reveal_signed_at_or_after_the_close_with_the_partys_own_key_is_refused_in_step_7(sealed_run, at):
    # The lottery reveals late, when the round could be known, and signs its own time honestly: its key
    # signs the reveal, which matches its commitment, so only the time shows it (docs/ceremony.md, step 7:
    # "every reveal ... was signed before reveals closed")
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    doc = json.loads(sealed_run.file.read_bytes())
    lottery = load_private_key(Path(key(sealed_run.file, "lottery")))
    r = doc["reveals"][1]
    closed = tx.commitments_hash(doc["transcript_sha256"], [(c["name"], c["commitment"])
                                                            for c in doc["commitments"]])
    r["revealed_at"] = at
    r["signature"] = lottery.sign(tx.reveal_message(closed, "lottery", bytes.fromhex(r["value"]), at)).hex()
    assert attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None) == (
        "fail", f"party 'lottery' revealed at {at}, after reveals closed at {CLOSE}")


def test_a_beacon_round_changed_in_the_manifest_after_the_seal_is_refused_in_step_5(sealed_run):
    # The operator, every reveal in hand, prefers the seed of a later round: it writes round 10024141 (real,
    # published 2024) into the sealed run's transcript, hashes it again, puts that round in and re-signs the
    # manifest. The round verifies, but every commitment signed the transcript as it was before any reveal.
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    entry = manifest.doc["ceremony"]
    later = rounds()[10024141]
    entry["transcript"]["beacon"]["round"] = later["round"]
    entry["transcript_sha256"] = tx.transcript_hash(entry["transcript"])
    entry["round"] = dict(later)
    assert attempt(Step.FIGURES, check_bound, manifest, None, None) == (
        "fail", "party 'vendor': the commitment's signature is not by its listed key")
