"""The commit-reveal seed ceremony: three parties end to end (commit, reveal, seal, generate, verify),
each refusal with its exact message, and the derivation of docs/ceremony.md written out a third time."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from audit.cli import app as audit_app
from audit.errors import VerificationError
from audit.steps.ceremony import ceremony_seed
from poolgen.cli.main import app
from poolgen.run.provenance import code_entry
from poolgen.run.signing import new_key_pair
from poolgen.seeds.ceremony import commitment, load, new_ceremony, write_contribution
from poolgen.seeds.seed import commitment as seed_commitment
from tests.support import spec_path

PARTIES = ("vendor", "lottery", "auditor")


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def ok(*args: str, input: str | None = None):
    result = invoke(*args, input=input)
    assert result.exit_code == 0, result.output
    return result


def refused(result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr == f"poolgen: error: {message}\n"


def _new(folder: Path, *extra: str) -> Path:
    file = folder / "c1.ceremony"
    ok("ceremony", "new", str(file), "--id", "c1", *(a for p in PARTIES for a in ("--party", p)), *extra)
    return file


def _commit(file: Path, party: str) -> str:
    result = ok("ceremony", "commit", str(file), "--party", party, "--contribution",
                str(file.parent / f"{party}.contribution"), "--yes")
    return result.stdout.splitlines()[0].split(": ")[1]


def _reveal(file: Path, party: str):
    return invoke("ceremony", "reveal", str(file), "--party", party, "--contribution",
                  str(file.parent / f"{party}.contribution"), "--yes")


@pytest.fixture(scope="module")
def sealed_run(tmp_path_factory):
    """A three-party ceremony run through the command line, and a signed run generated from it."""
    tmp = tmp_path_factory.mktemp("ceremony")
    file = _new(tmp)
    commitments = {p: _commit(file, p) for p in PARTIES}
    for p in PARTIES:
        assert _reveal(file, p).stdout == f"{p}: revealed; it matches its commitment\n"
    sealed = ok("ceremony", "seal", str(file), "--yes").stdout.splitlines()
    keys = new_key_pair(tmp / "keys")
    generated = ok("generate", str(spec_path("wild_side")), "--out", str(tmp / "runs"), "--pool", "p1",
                   "--run-id", "r", "--workers", "1", "--key", str(keys.private), "--ceremony", str(file))
    return SimpleNamespace(tmp=tmp, file=file, commitments=commitments, sealed=sealed, keys=keys,
                           run=tmp / "runs" / "r", generated=generated)


def _verify(run: Path, keys, *extra: str, audit: bool = False) -> tuple[int, dict]:
    result = CliRunner().invoke(audit_app if audit else app,
                                ["verify", str(run), "--public-key", str(keys.public), "--json", *extra])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def test_three_parties_commit_reveal_seal_generate_verify(sealed_run):
    s = sealed_run
    ceremony = load(s.file)
    seed = ceremony.sealed_seed()
    assert s.sealed == [f"ceremony c1 sealed: transcript SHA-256 {ceremony.transcript}",
                        f"seed commitment: {seed_commitment(seed)}"]
    for path in (s.file, *(s.tmp / f"{p}.contribution" for p in PARTIES)):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    manifest = json.loads((s.run / "manifest.json").read_bytes())
    assert manifest["seed_commitment"]["value"] == seed_commitment(seed)
    assert manifest["ceremony"] == {
        "format": "poolgen-ceremony/1", "algorithm": "poolgen/ceremony/v1 (docs/ceremony.md)", "id": "c1",
        "parties": [{"name": p, "kind": "secret", "commitment": s.commitments[p]} for p in PARTIES],
        "transcript_sha256": ceremony.transcript}
    assert manifest["tool"]["code"] == code_entry()
    assert sorted(p.name for p in s.run.iterdir()) == ["imaging-p1.parquet", "manifest.json", "manifest.sig",
                                                      "packs.csv", "pool-p1.parquet"]
    assert not (s.tmp / "runs" / "r.seed").exists()  # the ceremony is the seed's only source
    assert seed.hex() not in s.generated.output

    code, report = _verify(s.run, s.keys, "--spec", str(spec_path("wild_side")), "--ceremony", str(s.file))
    assert code == 0 and report["failed_steps"] == []
    step7 = report["steps"][6]
    assert step7["status"] == "pass"
    assert step7["details"][0] == (f"ceremony c1: the reveals of 3 parties (vendor, lottery, auditor) each "
                                   "match the manifest's commitments (transcript "
                                   f"{ceremony.transcript[:16]}...)")
    assert step7["details"][1].endswith(
        f"regenerated by the same code that made the run (code SHA-256 {code_entry()['sha256'][:16]}...)")

    code, report = _verify(s.run, s.keys, "--ceremony", str(s.file), audit=True)  # audit/ alone
    assert code == 0
    assert report["steps"][6]["details"][0].startswith("ceremony c1: the reveals of 3 parties")
    assert report["steps"][6]["details"][1] == "seed matches the commitment"
    assert report["steps"][6]["reasons"] == [
        f"{step7['details'][0]}; seed matches the commitment; pools not regenerated: this verifier has no "
        "generator (`poolgen verify --ceremony` regenerates them)"]


def test_verify_refuses_a_reveal_changed_after_the_run(sealed_run, tmp_path):
    doc = json.loads(sealed_run.file.read_bytes())
    doc["parties"][1]["reveal"] = "00" * 32
    changed = tmp_path / "changed.ceremony"
    changed.write_text(json.dumps(doc))
    code, report = _verify(sealed_run.run, sealed_run.keys, "--ceremony", str(changed), audit=True)
    assert code == 1 and report["failed_steps"] == [7]
    assert report["steps"][6]["reasons"] == ["the reveal of lottery does not match its commitment"]


def test_verify_refuses_another_ceremony_of_the_same_parties(sealed_run, tmp_path):
    other = _new(tmp_path)
    for p in PARTIES:
        _commit(other, p)
    for p in PARTIES:
        _reveal(other, p)
    code, report = _verify(sealed_run.run, sealed_run.keys, "--ceremony", str(other), audit=True)
    assert code == 1
    assert report["steps"][6]["reasons"] == ["the commitments or public values of vendor, lottery, auditor "
                                             "are not the manifest's"]


def test_a_reveal_that_does_not_match_its_commitment_is_refused(tmp_path):
    file = _new(tmp_path)
    for p in PARTIES:
        _commit(file, p)
    ceremony = load(file)
    other = tmp_path / "lottery-new.contribution"  # lottery changes its contribution after commitments close
    write_contribution(other, ceremony, "lottery", bytes(32))
    result = invoke("ceremony", "reveal", str(file), "--party", "lottery", "--contribution", str(other),
                    "--yes")
    refused(result, "ceremony c1: party 'lottery': the revealed contribution does not match its commitment")
    refused(invoke("ceremony", "reveal", str(file), "--party", "lottery", "--contribution",
                   str(tmp_path / "vendor.contribution"), "--yes"),
            f"{tmp_path / 'vendor.contribution'}: is party 'vendor''s contribution, not 'lottery''s")
    assert load(file).party("lottery").reveal is None


def test_a_party_cannot_change_its_contribution_after_commitments_close(tmp_path):
    file = _new(tmp_path)
    for p in PARTIES:
        _commit(file, p)
    result = invoke("ceremony", "commit", str(file), "--party", "vendor", "--contribution",
                    str(tmp_path / "vendor-2.contribution"), "--yes")
    refused(result, "ceremony c1: commitments are closed; party 'vendor' cannot change its contribution")
    assert not (tmp_path / "vendor-2.contribution").exists()
    # nor by editing its commitment in the ceremony file: the transcript fixed at closing no longer holds
    doc = json.loads(file.read_bytes())
    closed = doc["transcript_sha256"]
    doc["parties"][0]["commitment"] = commitment("c1", "vendor", bytes(32))
    file.write_text(json.dumps(doc))
    now = load(file).transcript_hash()
    refused(invoke("ceremony", "seal", str(file), "--yes"),
            f"ceremony c1: the commitments are not the ones that closed (transcript {now[:16]}..., "
            f"{closed[:16]}... at closing)")


def test_a_missing_party_is_refused(tmp_path):
    file = _new(tmp_path)
    _commit(file, "vendor")
    _commit(file, "lottery")
    refused(_reveal(file, "vendor"), "ceremony c1: commitments are not closed yet (waiting for auditor); "
                                     "every party commits before anyone reveals")
    _commit(file, "auditor")
    assert _reveal(file, "vendor").exit_code == 0
    assert _reveal(file, "lottery").exit_code == 0
    refused(invoke("ceremony", "seal", str(file), "--yes"),
            "ceremony c1: no reveal from party 'auditor'; every party reveals before the seed is sealed")
    out = tmp_path / "runs"
    refused(invoke("generate", str(spec_path("wild_side")), "--out", str(out), "--unsigned", "--ceremony",
                   str(file)), "ceremony c1: not sealed yet (poolgen ceremony seal)")
    assert not out.exists() or list(out.iterdir()) == []


def test_a_duplicate_party_is_refused(tmp_path):
    result = invoke("ceremony", "new", str(tmp_path / "d.ceremony"), "--id", "c1", "--party", "vendor",
                    "--party", "lottery", "--party", "vendor")
    refused(result, "ceremony c1: party 'vendor' is named twice")
    assert not (tmp_path / "d.ceremony").exists()
    refused(invoke("ceremony", "new", str(tmp_path / "e.ceremony"), "--id", "c1", "--party", "vendor",
                   "--public", "vendor=the draw of 2026-12-05"), "ceremony c1: party 'vendor' is named twice")
    file = _new(tmp_path)
    _commit(file, "vendor")
    refused(invoke("ceremony", "commit", str(file), "--party", "vendor", "--contribution",
                   str(tmp_path / "again.contribution"), "--yes"),
            "ceremony c1: party 'vendor' has already committed; a commitment is never replaced")
    refused(invoke("ceremony", "commit", str(file), "--party", "mallory", "--contribution",
                   str(tmp_path / "m.contribution"), "--yes"),
            "ceremony c1: no party 'mallory' (the parties are vendor, lottery, auditor)")


def test_a_public_party_reveals_a_published_value(tmp_path):
    file = _new(tmp_path, "--public", "beacon=NIST beacon pulse of 2026-12-05 12:00 UTC")
    for p in PARTIES:
        _commit(file, p)
    refused(invoke("ceremony", "commit", str(file), "--party", "beacon", "--contribution",
                   str(tmp_path / "b.contribution"), "--yes"),
            "ceremony c1: party 'beacon' is public: it makes no commitment and reveals its value after "
            "commitments close")
    for p in PARTIES:
        _reveal(file, p)
    ok("ceremony", "reveal", str(file), "--party", "beacon", "--value", "pulse 4f2a", "--yes")
    refused(invoke("ceremony", "reveal", str(file), "--party", "beacon", "--value", "pulse 0000", "--yes"),
            "ceremony c1: public party 'beacon' has already revealed another value")
    ok("ceremony", "seal", str(file), "--yes")
    ceremony = load(file)
    entry = ceremony.manifest_entry()
    assert entry["parties"][3] == {"name": "beacon", "kind": "public", "value": "pulse 4f2a",
                                   "source": "NIST beacon pulse of 2026-12-05 12:00 UTC"}
    manifest = SimpleNamespace(doc={"ceremony": entry})
    seed, _ = ceremony_seed(manifest, json.loads(file.read_bytes()))  # audit's derivation
    assert seed == ceremony.sealed_seed() == _third_derivation(json.loads(file.read_bytes()))
    status = ok("ceremony", "status", str(file)).stdout
    for p in PARTIES:
        assert json.loads(file.read_bytes())["parties"][PARTIES.index(p)]["reveal"] not in status


def _third_derivation(doc: dict) -> bytes:
    """docs/ceremony.md, section "Derivation", written out once more with hashlib alone."""
    def lp(b: bytes) -> bytes:
        return len(b).to_bytes(8, "big") + b

    t = b"poolgen/ceremony/transcript/v1" + lp(doc["id"].encode())
    seed = b""
    for p in doc["parties"]:
        secret = p["kind"] == "secret"
        t += lp(p["name"].encode()) + lp(p["kind"].encode()) + lp(
            bytes.fromhex(p["commitment"]) if secret else p["source"].encode())
        seed += lp(p["name"].encode()) + lp(bytes.fromhex(p["reveal"]) if secret else p["reveal"].encode())
    return hashlib.sha256(b"poolgen/ceremony/seed/v1" + hashlib.sha256(t).digest() + seed).digest()


def test_a_ceremony_known_answer():
    """A fixed ceremony's commitments, transcript and seed, pinned (any change breaks old ceremonies)."""
    c = new_ceremony("ks-2026", ["vendor", "lottery"], [("draw", "Pick 3 evening draw of 2026-12-05")])
    for i, name in enumerate(("vendor", "lottery")):
        c.commit(name, commitment(c.id, name, bytes([i + 1]) * 32))
    c.reveal_secret("vendor", bytes([1]) * 32)
    c.reveal_secret("lottery", bytes([2]) * 32)
    c.reveal_public("draw", "4-0-7")
    assert commitment("ks-2026", "vendor", bytes([1]) * 32) == \
        "f78eeaee7589eb9f7f67c04038ab3d13aa434553f7acb250845070bd67c8ff04"
    assert c.transcript == "0fb443da280da33e5e09db04e717688e8fe432f0a55f37eb0e112795e1983c36"
    assert c.seed().hex() == "d1a870eac3f1827ed94e88be87c83ecab57ad8cdfdd93aafcde2a7162c95ac9d"
    assert c.seed() == _third_derivation(c.to_json())


def test_the_walkthrough_asks_a_person_for_each_answer(tmp_path):
    file = tmp_path / "w.ceremony"
    ok("ceremony", "new", str(file), input="w1\nvendor, lottery\nn\n")
    assert [p.name for p in load(file).parties] == ["vendor", "lottery"]
    contribution = tmp_path / "v.contribution"
    result = ok("ceremony", "commit", str(file), input=f"vendor\n{contribution}\ny\n")
    assert "Which party are you? (vendor, lottery)" in result.stderr
    assert result.stdout.splitlines()[-1].startswith("commitment of vendor: ")  # after the echoed input
    assert stat.S_IMODE(contribution.stat().st_mode) == 0o600
    no = invoke("ceremony", "commit", str(file), "--party", "lottery", input=f"{tmp_path / 'l.c'}\nn\n")
    assert no.exit_code == 2
    assert no.stderr.endswith("[Y/n]:poolgen: error: not confirmed; nothing was changed\n")
    assert not (tmp_path / "l.c").exists() and load(file).party("lottery").commitment is None


def test_verify_takes_a_seed_file_or_a_ceremony_not_both(sealed_run, tmp_path):
    seed = tmp_path / "s.seed"
    seed.write_text("00" * 32 + "\n")
    result = CliRunner().invoke(audit_app, ["verify", str(sealed_run.run), "--public-key",
                                            str(sealed_run.keys.public), "--seed-file", str(seed),
                                            "--ceremony", str(sealed_run.file)])
    assert result.exit_code == 2
    assert result.stderr == ("audit: error: give --seed-file or --ceremony, not both: the ceremony gives "
                             "the seed\n")


def test_the_published_bundle_holds_the_commitments_not_the_reveals(sealed_run, tmp_path):
    out = tmp_path / "bundle"
    ok("publish", str(sealed_run.run), "--out", str(out), "--public-key", str(sealed_run.keys.public))
    text = (out / "commitments.txt").read_text()
    ceremony = load(sealed_run.file)
    assert f"seed ceremony c1: transcript SHA-256 {ceremony.transcript}" in text
    for p in PARTIES:
        assert f"  {p}: commitment {sealed_run.commitments[p]}" in text
    secrets = [bytes.fromhex(p.reveal or "") for p in ceremony.parties] + [ceremony.sealed_seed()]
    for path in out.iterdir():
        data = path.read_bytes()
        assert not any(s in data or s.hex().encode() in data for s in secrets)


def test_step_7_reports_a_regeneration_by_other_code(sealed_run):
    from audit.checklist import Step
    from audit.verify import VerifyRequest, verify_run
    from poolgen.run.reproduce import regenerate

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


@settings(max_examples=40, deadline=None)
@given(data=st.data(), n_secret=st.integers(1, 5), n_public=st.integers(0, 2))
def test_every_implementation_derives_the_same_seed_and_a_changed_reveal_is_caught(data, n_secret, n_public):
    text = st.text(min_size=1, max_size=20).filter(str.strip)
    secret = [f"s{i}" for i in range(n_secret)]
    public = [(f"p{i}", data.draw(text)) for i in range(n_public)]
    if len(secret) + len(public) < 2:
        public.append(("p9", "a draw"))
    c = new_ceremony("prop", secret, public)
    values = {n: data.draw(st.binary(min_size=32, max_size=32)) for n in secret}
    for n in secret:
        c.commit(n, commitment(c.id, n, values[n]))
    for n in secret:
        c.reveal_secret(n, values[n])
    for n, _ in public:
        c.reveal_public(n, data.draw(text))
    seed = c.seal()
    doc = c.to_json()
    manifest = SimpleNamespace(doc={"ceremony": c.manifest_entry()})
    assert ceremony_seed(manifest, doc)[0] == seed == _third_derivation(doc)
    victim = data.draw(st.sampled_from(secret))
    changed = json.loads(json.dumps(doc))
    i = secret.index(victim)
    changed["parties"][i]["reveal"] = bytes(b ^ 1 if j == 0 else b
                                            for j, b in enumerate(values[victim])).hex()
    with pytest.raises(VerificationError, match=f"^step 7: the reveal of {victim} does not match its "
                                                "commitment$"):
        ceremony_seed(manifest, changed)


def test_a_manifest_without_a_ceremony_cannot_be_checked_against_one(sealed_run):
    with pytest.raises(VerificationError,
                       match="the manifest records no seed ceremony; give --seed-file instead"):
        ceremony_seed(SimpleNamespace(doc={}), json.loads(sealed_run.file.read_bytes()))


@pytest.mark.parametrize("content", [b"[" * 5000 + b"]" * 5000, b"\xff\xfe not text", b"{\"format\": 1}"],
                         ids=["deeply-nested", "not-utf8", "wrong-format"])
def test_a_hostile_ceremony_file_is_one_line_exit_2(sealed_run, tmp_path, content):
    bad = tmp_path / "bad.ceremony"
    bad.write_bytes(content)
    bad.chmod(0o600)
    for args in (("ceremony", "status", str(bad)), ("ceremony", "seal", str(bad), "--yes")):
        result = invoke(*args)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1
        assert f"{bad}: not a ceremony file" in result.stderr
    run, keys = sealed_run.run, sealed_run.keys
    result = CliRunner().invoke(audit_app, ["verify", str(run), "--public-key", str(keys.public),
                                            "--ceremony", str(bad)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().startswith("audit: error: ") and "ceremony" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
