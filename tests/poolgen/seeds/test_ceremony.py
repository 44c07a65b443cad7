"""The seed ceremony (poolgen/seeds/ceremony.py, ceremony_file.py, `poolgen ceremony`): three parties
with their own keys, end to end (new, commit, publish, reveal, seal with a real drand round, generate,
verify); each refusal of docs/ceremony.md with its exact message; what each party can know before the
round; a known answer checked against the derivation written out a third time. The sealed run is the
root conftest's `sealed_run`; audit's side: tests/audit/steps/test_ceremony.py."""

from __future__ import annotations

import hashlib
import json
import stat
from datetime import UTC, datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from poolgen.run.provenance import code_entry
from poolgen.run.signing import new_key_pair
from poolgen.seeds import transcript as tx
from poolgen.seeds.beacon import QUICKNET, Round
from poolgen.seeds.ceremony import Binding, CeremonyError, key_fingerprint, raw_key
from poolgen.seeds.ceremony_file import load
from poolgen.seeds.rules import new_ceremony
from poolgen.seeds.seed import commitment as seed_commitment
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
    round_file,
    rounds,
    seal,
)
from tests.support.ceremony import QUICKNET as CHAIN
from tests.support.ceremony import commit as _commit
from tests.support.ceremony import new as _new
from tests.support.ceremony import reveal as _reveal
from tests.support.ceremony import revealed as _revealed
from tests.support.ceremony import third_derivation as _third_derivation
from tests.support.ceremony import verify as _verify
from tests.support.terminal import on_a_terminal


def test_three_parties_commit_reveal_seal_generate_verify(sealed_run):
    s = sealed_run
    ceremony = load(s.file)
    seed = ceremony.sealed_seed()
    assert s.sealed == [f"ceremony c1 sealed with quicknet round {ROUND}: transcript SHA-256 "
                        f"{ceremony.transcript_sha256}", f"seed commitment: {seed_commitment(seed)}"]
    for path in (s.file, *(s.tmp / f"{p}.contribution" for p in PARTIES)):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    manifest = json.loads((s.run / "manifest.json").read_bytes())
    assert manifest["seed_commitment"]["value"] == seed_commitment(seed)
    entry = manifest["ceremony"]
    assert entry["transcript"] == ceremony.transcript and entry["round"] == rounds()[ROUND]
    assert [c["commitment"] for c in entry["commitments"]] == [s.commitments[p] for p in PARTIES]
    assert entry["transcript"]["spec_sha256"] == manifest["spec"]["sha256"]
    assert entry["transcript"]["code_sha256"] == code_entry()["sha256"]
    assert (entry["transcript"]["game"], entry["transcript"]["pools"], entry["transcript"]["run_id"]) == \
        ("wild_side", ["p1"], "r")
    assert "reveals" not in entry and all(r["value"] not in json.dumps(manifest)
                                                       for r in json.loads(s.file.read_bytes())["reveals"])
    assert load(s.file).run == "r" and seed.hex() not in s.generated.output
    assert json.loads(s.generated.stdout)["seed"] == {"source": "ceremony", "file": str(s.file)}
    assert seed == _third_derivation(json.loads(s.file.read_bytes()))

    code, report = _verify(s.run, s.keys, "--spec", str(spec_path("wild_side")), "--ceremony", str(s.file))
    assert failed_but_chance(code, report) == []
    assert report["steps"][6]["details"][0] == (
        f"ceremony c1: 3 parties (vendor, lottery, auditor) committed and revealed under their listed keys, "
        f"before reveals closed; quicknet round {ROUND} verifies (transcript "
        f"{ceremony.transcript_sha256[:16]}...)")
    assert report["steps"][4]["details"][-2].startswith("the run is the one ceremony c1 bound before anyone "
                                                        "committed: spec ")


def test_seal_names_the_next_command_with_the_key_it_needs(tmp_path):
    """The hint was `poolgen generate SPEC --ceremony FILE`, which generate refuses (an unsigned run)."""
    file = _revealed(tmp_path)
    result = seal(file)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == (f"next: poolgen generate SPEC --ceremony {file} --key "
                                              f"SIGNING-KEY.pem; keep {file} secret until claims close")


def test_a_re_ordered_spec_after_new_is_refused(sealed_run, tmp_path):
    text = spec_path("wild_side").read_text()
    head, *blocks = text.split("\n[[tiers]]\n")
    blocks[1], blocks[2] = blocks[2], blocks[1]  # the same tiers, another order: every tier moves
    moved = tmp_path / "wild_side.toml"
    moved.write_text("\n[[tiers]]\n".join([head, *blocks]))
    assert ok("check", str(moved)).exit_code == 0
    file = _revealed(tmp_path)
    assert seal(file).exit_code == 0
    before = file.read_bytes()
    result = invoke("generate", str(moved), "--out", str(tmp_path / "runs"), "--pool", "p1", "--unsigned",
                    "--ceremony", str(file))
    got, bound = hashlib.sha256(moved.read_bytes()).hexdigest(), load(file).transcript["spec_sha256"]
    refused(result, f"ceremony c1: the spec's SHA-256 is {got[:16]}..., the ceremony bound {bound[:16]}... "
                    "(re-ordered or edited after the ceremony began?)")
    assert file.read_bytes() == before and not (tmp_path / "runs" / "r").exists()


def test_a_second_run_or_another_game_from_one_ceremony_is_refused(sealed_run, tmp_path):
    out = tmp_path / "runs"
    refused(invoke("generate", str(spec_path("wild_side")), "--out", str(out), "--pool", "p1", "--unsigned",
                   "--ceremony", str(sealed_run.file)),
            "ceremony c1: has already seeded run r; a ceremony seeds one run")
    file = _revealed(tmp_path)
    assert seal(file).exit_code == 0
    refused(invoke("generate", str(spec_path("happy_holidays")), "--out", str(out), "--pool", "p1",
                   "--unsigned", "--ceremony", str(file)),
            "ceremony c1: game happy_holidays is not the ceremony's (wild_side)")
    refused(invoke("generate", str(spec_path("wild_side")), "--out", str(out), "--pool", "p2", "--unsigned",
                   "--ceremony", str(file)), "ceremony c1: pools p2 are not the ceremony's (p1)")
    refused(invoke("generate", str(spec_path("wild_side")), "--out", str(out), "--pool", "p1",
                   "--run-id", "r2", "--unsigned", "--ceremony", str(file)),
            "ceremony c1: run id r2 is not the ceremony's (r)")
    assert not out.exists() or list(out.iterdir()) == []
    assert load(file).run is None


FORGED = "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e38"


@pytest.mark.parametrize(("changes", "message"), [
    ({"signature": FORGED, "randomness": hashlib.sha256(bytes.fromhex(FORGED)).hexdigest()},
     "the signature of round 1000 does not verify against chain quicknet's public key"),
    ({"round": 1001}, "round 1001, the ceremony names round 1000"),
    ({"chain": "8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce"},
     "a round of chain 8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce, the ceremony names "
     f"chain {CHAIN}"),
    ({"signature": "ab" * 96}, "signature: 48 bytes (96 lower-case hex digits) for chain quicknet"),
    ({"randomness": "00" * 32}, "randomness is not the SHA-256 of the round's signature"),
], ids=["bad-signature", "wrong-round", "wrong-chain", "g2-signature", "wrong-randomness"])
def test_a_beacon_round_that_is_not_the_named_one_is_refused(tmp_path, changes, message):
    file = _revealed(tmp_path)
    before = file.read_bytes()
    bad = round_file(tmp_path, **changes)
    refused(seal(file, bad), f"{bad}: {message}")
    assert file.read_bytes() == before


def test_a_round_file_repeating_a_key_is_refused_though_its_last_copy_is_the_named_round(tmp_path):
    file = _revealed(tmp_path)
    before = file.read_bytes()
    real = round_file(tmp_path)
    bad = tmp_path / "round-twice.json"
    bad.write_text('{"round": 1001, ' + real.read_text()[1:])
    refused(seal(file, bad), f"{bad}: not a drand round (the key 'round' appears twice in one object)")
    assert file.read_bytes() == before


def test_another_real_round_is_refused_and_its_signature_does_not_pass_for_the_named_round(tmp_path):
    file = _revealed(tmp_path)
    other = rounds()[10024141]
    bad = round_file(tmp_path, 10024141)
    refused(seal(file, bad), f"{bad}: round 10024141, the ceremony names round 1000")
    moved = round_file(tmp_path, 1000, signature=other["signature"], randomness=other["randomness"])
    refused(seal(file, moved),
            f"{moved}: the signature of round 1000 does not verify against chain quicknet's public key")


def test_a_key_the_ceremony_does_not_list_is_refused(tmp_path):
    file = _new(tmp_path)
    mallory = new_key_pair(tmp_path / "mallory-keys")
    listed = load(file).transcript["parties"][0]["public_key"]
    result = invoke("ceremony", "commit", str(file), "--party", "vendor", "--key", str(mallory.private),
                    "--contribution", str(tmp_path / "m.contribution"), "--yes")
    refused(result, f"ceremony c1: party 'vendor': key {mallory.fingerprint} is not its key in the ceremony "
                    f"({key_fingerprint(listed)})")
    assert not (tmp_path / "m.contribution").exists()
    for p in PARTIES:
        _commit(file, p)
    # a commitment signed by another key, written into the file
    doc = json.loads(file.read_bytes())
    other = Ed25519PrivateKey.generate()
    c = doc["commitments"][1]
    c["signature"] = other.sign(tx.commit_message(doc["transcript_sha256"], "lottery", c["commitment"])).hex()
    forged = tmp_path / "forged.ceremony"
    forged.write_text(json.dumps(doc))
    forged.chmod(0o600)
    refused(invoke("ceremony", "status", str(forged)),
            "ceremony c1: party 'lottery': the commitment's signature is not by its listed key")
    # a reveal signed by another key
    for p in PARTIES:
        assert _reveal(file, p).exit_code == 0
    doc = json.loads(file.read_bytes())
    r = doc["reveals"][2]
    closed = load(file).closed()
    r["signature"] = other.sign(tx.reveal_message(closed, "auditor", bytes.fromhex(r["value"]),
                                                  r["revealed_at"])).hex()
    forged.write_text(json.dumps(doc))
    refused(invoke("ceremony", "seal", str(forged), "--round", str(round_file(tmp_path)), "--yes"),
            "ceremony c1: party 'auditor': the reveal's signature is not by its listed key")


def test_new_refuses_what_cannot_close_a_ceremony(tmp_path):
    file = tmp_path / "n.ceremony"
    refused(invoke(*new_args(tmp_path, file, parties=("vendor",))),
            "ceremony c1: needs at least 2 secret parties besides the beacon (at most 16)")
    args = new_args(tmp_path, file)
    twice = [a.replace("auditor=", "vendor=") for a in args]
    refused(invoke(*twice), "ceremony c1: party 'vendor' is named twice")
    same = [a.replace("auditor-keys", "vendor-keys") for a in args]
    refused(invoke(*same),
            "ceremony c1: parties 'vendor' and 'auditor' have the same key; each party has its own")
    late = args[:args.index("--reveals-close") + 1] + ["2023-08-23T16:00:00Z"]
    refused(invoke(*late), "ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, not after "
                           "reveals close (2023-08-23T16:00:00Z); the first round due 600 s or more after "
                           "reveals close is 1212 (2023-08-23T16:10:00Z)")  # the round to give instead
    default = "8990e7a9aaed2ffed73dbd7092123d6f289930540d7651336225dc172e51b2ce"  # drand's chained mainnet
    refused(invoke(*args, "--beacon-chain", default),
            f"ceremony c1: beacon chain {default} is not one poolgen verifies (quicknet 52db9ba7...)")
    refused(invoke(*args, now=AFTER),
            f"ceremony c1: reveals close at {CLOSE}, which is not after now ({AFTER})")
    assert not file.exists()


def test_new_names_no_first_round_when_none_is_due_600_s_after_a_close_near_the_last_time(tmp_path):
    # The first round to suggest was dated with datetime: a close within 600 s of 9999-12-31T23:59:59Z
    # raised ValueError (year 10000), a traceback and exit 1; no round can follow such a close.
    file = tmp_path / "n.ceremony"
    args = new_args(tmp_path, file)
    late = args[:args.index("--reveals-close") + 1] + ["9999-12-31T23:55:00Z"]
    refused(invoke(*late), "ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, not after "
                           "reveals close (9999-12-31T23:55:00Z); no round is due 600 s or more after "
                           "reveals close by 9999-12-31T23:59:59Z, the last time a ceremony can name")
    assert not file.exists()


def test_reveals_wait_for_every_commitment_and_close_on_time(tmp_path):
    file = _new(tmp_path)
    _commit(file, "vendor")
    _commit(file, "lottery")
    refused(_reveal(file, "vendor"), "ceremony c1: commitments are not all in (waiting for auditor); every "
                                     "party commits before anyone reveals")
    _commit(file, "auditor")
    assert _reveal(file, "vendor").exit_code == 0
    refused(_reveal(file, "lottery", now=AFTER),
            f"ceremony c1: reveals closed at {CLOSE}; a late reveal could know the beacon (abort the "
            "ceremony)")
    refused(seal(file), "ceremony c1: no reveal from party 'lottery'; every party reveals before the seed is "
                        "sealed")
    out = tmp_path / "runs"
    refused(invoke("generate", str(spec_path("wild_side")), "--out", str(out), "--unsigned", "--ceremony",
                   str(file)), "ceremony c1: not sealed yet (poolgen ceremony seal)")
    # the withholding party can only abort; the abort is signed, recorded and published
    ok("ceremony", "abort", str(file), "--party", "auditor", "--key", key(file, "auditor"), "--reason",
       "lottery did not reveal before reveals closed", "--yes", now=AFTER)
    refused(_reveal(file, "lottery"),
            "ceremony c1: aborted by auditor (lottery did not reveal before reveals closed); start a new "
            "ceremony")
    bundle = tmp_path / "c1.public.json"
    ok("ceremony", "publish", str(file), "--out", str(bundle))
    public = json.loads(bundle.read_bytes())
    assert public["abort"]["name"] == "auditor" and "reveals" not in public
    assert load(file).reveals[0]["value"] not in bundle.read_text()


def test_an_abort_reason_of_bytes_that_are_not_utf8_is_one_line(tmp_path):
    """A reason holding a byte that is not UTF-8 (the shell passes it through as a lone surrogate) made
    `abort` measure its bytes before asking whether it was printable: a traceback and exit 1."""
    file = _new(tmp_path)
    refused(invoke("ceremony", "abort", str(file), "--party", "vendor", "--key", key(file, "vendor"),
                   "--reason", "stop \udcff", "--yes"),
            "ceremony c1: an abort's reason is 1 to 1024 bytes of printable text on one line, not blank")
    assert load(file).abort is None


def test_before_the_round_every_partys_view_leaves_the_seed_undetermined(tmp_path):
    """The last party to reveal sees every reveal; without the round's randomness the seed is any of 2^256
    values, one per possible round, and the ceremony gives no seed without a verified round."""
    file = _revealed(tmp_path)
    c = load(file)
    closed = c.closed()
    view = [(r["name"], bytes.fromhex(r["value"])) for r in c.reveals if r is not None]  # all but the round
    seeds = {tx.seed(closed, view, ROUND, bytes([i]).hex() * 32) for i in range(256)}
    assert len(seeds) == 256  # each possible randomness gives another seed
    real = rounds()[ROUND]
    assert c.seed(Round(ROUND, real["signature"], real["randomness"])) == _third_derivation(
        json.loads(file.read_bytes()) | {"round": real})
    with pytest.raises(CeremonyError, match="^ceremony c1: not sealed yet"):
        c.sealed_seed()
    # and before any reveal, a party sees only commitments: hashes under the transcript of 32 secret bytes
    doc = json.loads(file.read_bytes())
    public = json.dumps({k: v for k, v in doc.items() if k != "reveals"})
    assert all(r["value"] not in public for r in doc["reveals"])


def test_a_ceremony_known_answer():
    """A fixed ceremony's transcript, commitments and seed, pinned (any change breaks old ceremonies)."""
    keys = [Ed25519PrivateKey.from_private_bytes(bytes([i + 1]) * 32) for i in range(2)]
    binding = Binding("11" * 32, "22" * 32, "wild_side", ("p1", "p2"), "ks-2026")
    close = datetime(2023, 8, 23, 15, tzinfo=UTC)
    parties = [("vendor", keys[0].public_key()), ("lottery", keys[1].public_key())]
    c = new_ceremony("ks-2026", binding, parties, QUICKNET.hash, ROUND, close,
                     datetime(2023, 8, 23, 14, tzinfo=UTC))
    for i, name in enumerate(("vendor", "lottery")):
        c.commit(name, keys[i], bytes([i + 1]) * 32, datetime(2023, 8, 23, 14, tzinfo=UTC))
    for i, name in enumerate(("vendor", "lottery")):
        c.reveal(name, keys[i], bytes([i + 1]) * 32, datetime(2023, 8, 23, 14, 30, tzinfo=UTC))
    real = rounds()[ROUND]
    seed = c.seal(Round(ROUND, real["signature"], real["randomness"]))
    assert raw_key(keys[0].public_key()) == c.transcript["parties"][0]["public_key"]
    assert c.transcript_sha256 == "db3f60fe5f8cdc358398724027d6e52a98be9e7f3f6819af25f48cee0c53f376"
    assert c.commitments[0] is not None
    assert c.commitments[0]["commitment"] == \
        "305468e8507ba720019df2f19b408c7d0751703f53da9a7cacc25abd56e7b8e9"
    assert seed.hex() == "b556136d77304eaab8cd46b4593bfcdfe8e478c9e7e3816525cac3df43c84367"
    assert seed == _third_derivation(c.to_json())


def test_status_and_the_walkthrough(tmp_path):
    file = _new(tmp_path)
    contribution = tmp_path / "v.contribution"
    now = {"POOLGEN_TEST_NOW": BEFORE}
    code, shown = on_a_terminal(["ceremony", "commit", str(file)],
                                [("Which party are you? (vendor, lottery, auditor): ", "vendor"),
                                 ("[vendor-keys/signing-key.pem]: ", key(file, "vendor")),
                                 ("[vendor.contribution]: ", str(contribution)), ("[Y/n]: ", "y")], env=now)
    entry = load(file).commitments[0]
    assert code == 0 and entry is not None, shown
    assert f"commitment of vendor: {entry['commitment']}\r\n" in shown
    assert stat.S_IMODE(contribution.stat().st_mode) == 0o600
    code, shown = on_a_terminal(["ceremony", "commit", str(file), "--party", "lottery", "--key",
                                 key(file, "lottery")],
                                [("[lottery.contribution]: ", str(tmp_path / "l.c")), ("[Y/n]: ", "n")],
                                env=now)
    assert code == 2
    assert shown.endswith("[Y/n]: n\r\npoolgen: error: not confirmed; nothing was changed\r\n")
    assert not (tmp_path / "l.c").exists() and load(file).commitments[1] is None
    status = ok("ceremony", "status", str(file)).stdout
    assert "  vendor: commitment " in status and "  lottery: not committed; not revealed" in status
    assert "  printed game: game 358 of K.A.R. 111-4-3762\n" in status  # each party checks it at commit
    assert json.loads(contribution.read_bytes())["value"] not in status


@pytest.mark.parametrize("content", [b"[" * 5000 + b"]" * 5000, b"\xff\xfe not text", b"{\"format\": 1}"],
                         ids=["deeply-nested", "not-utf8", "wrong-format"])
def test_a_hostile_ceremony_file_is_one_line_exit_2(tmp_path, content):
    bad = tmp_path / "bad.ceremony"
    bad.write_bytes(content)
    bad.chmod(0o600)
    for args in (("ceremony", "status", str(bad)), ("ceremony", "seal", str(bad), "--round", "x", "--yes")):
        result = invoke(*args)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert result.stderr == \
            f"poolgen: error: {bad}: not a ceremony file (format is not 'poolgen-ceremony/2')\n"


_ROUND_EDITS = {  # name: (edit of a sealed ceremony file's document, what the one line says)
    "a negative round": (lambda d: d["round"].update(round=-1), "round: not the round the transcript names"),
    "round true": (lambda d: d["round"].update(round=True), "round: not the round the transcript names"),
    "another real round": (lambda d: d.update(round=rounds()[10024141]),
                           "round: not the round the transcript names"),
    "a round, no seed commitment": (lambda d: d.update(seed_commitment=None),
                                    "round and seed_commitment: a sealed ceremony has both"),
    "a seed commitment, no round": (lambda d: d.update(round=None),
                                    "round and seed_commitment: a sealed ceremony has both"),
}


@pytest.mark.parametrize("case", list(_ROUND_EDITS))
def test_a_sealed_files_round_that_is_not_its_own_is_refused_when_loaded(tmp_path, case):
    """The round record must be the transcript's round, and a file sealed has both its round and its seed
    commitment: until 2026-12-04 `status` showed such a file and `publish` put round -1 in the public
    bundle; only `generate` refused it."""
    file = _revealed(tmp_path)
    assert seal(file).exit_code == 0
    doc = json.loads(file.read_bytes())
    edit, message = _ROUND_EDITS[case]
    edit(doc)
    file.write_text(json.dumps(doc))
    for args in (("ceremony", "status", str(file)), ("ceremony", "publish", str(file), "--out",
                                                      str(tmp_path / "public.json"))):
        result = invoke(*args)
        assert (result.exit_code, result.stdout) == (2, ""), result.output
        assert result.stderr.startswith(f"poolgen: error: {file}: {message}")
        assert result.stderr.count("\n") == 1
    assert not (tmp_path / "public.json").exists()


def test_an_edited_transcript_is_refused(tmp_path):
    file = _new(tmp_path)
    doc = json.loads(file.read_bytes())
    doc["transcript"]["pools"] = ["p2"]
    file.write_text(json.dumps(doc))
    now = tx.transcript_hash(doc["transcript"])
    refused(invoke("ceremony", "status", str(file)),
            f"ceremony c1: the transcript was changed after the ceremony began (it hashes to {now[:16]}..., "
            f"{doc['transcript_sha256'][:16]}... at new)")


def test_the_clock_is_before_the_round(tmp_path):
    assert BEFORE < CLOSE < QUICKNET.round_time(ROUND).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_the_published_run_bundle_holds_the_commitments_not_the_reveals(sealed_run, tmp_path):
    out = tmp_path / "bundle"
    ok("publish", str(sealed_run.run), "--out", str(out), "--public-key", str(sealed_run.keys.public))
    text = (out / "commitments.txt").read_text()
    ceremony = load(sealed_run.file)
    assert (f"seed ceremony c1: transcript SHA-256 {ceremony.transcript_sha256}, drand round {ROUND} of "
            f"chain {CHAIN}") in text
    for p in PARTIES:
        assert f"  {p}: commitment {sealed_run.commitments[p]}" in text
    assert text.splitlines()[-1] == ("Once claims close: docs/publish-and-reveal.md (poolgen verify REVEAL "
                                     "--reveal --public-key signing-key.pub.pem --spec SPEC --ceremony "
                                     "FILE).")
    secrets = [bytes.fromhex(r["value"]) for r in ceremony.reveals if r] + [ceremony.sealed_seed()]
    for path in out.iterdir():
        data = path.read_bytes()
        assert not any(s in data or s.hex().encode() in data for s in secrets)


def test_generate_is_held_to_the_code_the_ceremony_bound(tmp_path):
    file = _new(tmp_path)
    c = load(file)
    t = c.transcript
    other = Binding(t["spec_sha256"], "00" * 32, t["game"], tuple(t["pools"]), t["run_id"])
    with pytest.raises(CeremonyError, match=(
            f"^ceremony c1: the code's SHA-256 is 0000000000000000..., not the ceremony's "
            f"{code_entry()['sha256'][:16]}... \\(another poolgen\\)$")):
        c.check_binding(other)


def _private(path) -> Ed25519PrivateKey:
    key = load_pem_private_key(path.read_bytes(), None)
    assert isinstance(key, Ed25519PrivateKey)
    return key


def test_the_key_names_the_party_and_yes_never_prompts(tmp_path):
    file = _new(tmp_path)
    contribution = {p: str(tmp_path / f"{p}.contribution") for p in PARTIES}
    vendor = ok("ceremony", "commit", str(file), "--key", key(file, "vendor"),
                "--contribution", contribution["vendor"], "--yes")
    assert "?" not in vendor.stderr
    assert vendor.stdout.splitlines()[-1].startswith("commitment of vendor: ")
    refused(invoke("ceremony", "commit", str(file), "--key", key(file, "lottery"), "--yes"),
            "--contribution: missing (with --yes nothing is asked; give it)")
    refused(invoke("ceremony", "commit", str(file), "--party", "lottery", "--yes"),
            "--key: missing (with --yes nothing is asked; give it)")
    refused(invoke("ceremony", "commit", str(file), "--yes"),
            "--party or --key: missing (with --yes nothing is asked; give it)")
    refused(invoke("ceremony", "commit", str(file), "--key", key(file, "lottery"), input="l.c\n"),  # a script
            "--contribution: missing (standard input is not a terminal, so nothing is asked; give "
            "--contribution)")
    stranger = new_key_pair(tmp_path / "stranger-keys").private
    refused(invoke("ceremony", "commit", str(file), "--key", str(stranger), "--yes"),
            f"ceremony {load(file).id}: key {key_fingerprint(raw_key(_private(stranger).public_key()))} "
            f"is no party's key in the ceremony (the parties are vendor, lottery, auditor)")
    for p in ("lottery", "auditor"):
        ok("ceremony", "commit", str(file), "--key", key(file, p), "--contribution", contribution[p], "--yes")
    for p in PARTIES:
        result = ok("ceremony", "reveal", str(file), "--key", key(file, p), "--contribution", contribution[p],
                    "--yes")
        assert result.stdout == f"{p}: revealed; it matches its commitment\n"


def test_yes_never_prompts_for_an_encrypted_keys_passphrase(tmp_path):
    new_key_pair(tmp_path / "vendor-keys", b"a passphrase")  # the party's key, encrypted
    file = _new(tmp_path)
    result = invoke("ceremony", "commit", str(file), "--key", key(file, "vendor"), "--contribution",
                    str(tmp_path / "v.contribution"), "--yes")
    refused(result, f"{key(file, 'vendor')}: the private key is encrypted; with --yes nothing is asked: set "
                    "POOLGEN_KEY_PASSPHRASE")
    assert not (tmp_path / "v.contribution").exists() and load(file).commitments[0] is None


def test_a_reveal_of_a_sealed_ceremony_is_refused_and_its_file_unchanged(tmp_path):
    """A fuzz found `reveal` of a sealed ceremony (under a clock before the close: a rehearsal's test clock,
    or a party's computer clock behind) re-signing the party's reveal with a new `revealed_at` in the
    sealed file and saying `next, once round R is out: poolgen ceremony seal`; a sealed ceremony's reveals
    are its record, never replaced."""
    file = _revealed(tmp_path)
    assert seal(file).exit_code == 0
    before = file.read_bytes()
    refused(_reveal(file, "lottery"), "ceremony c1: is sealed; its reveals are its record, never replaced")
    assert file.read_bytes() == before
