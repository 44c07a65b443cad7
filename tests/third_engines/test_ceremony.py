"""The third engine of the seed ceremony (tests/third_engines/ceremony.py, ceremony_bundles.py, written from
docs/ceremony.md alone) held against a real ceremony run with `poolgen ceremony` and against audit's
verdicts, step 5 (the manifest's entry, the published bundles) and step 7 (the revealed file), on honest
and tampered files. The seed is never printed: equality is its commitment in the generated manifest."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from audit.checklist import Step
from audit.errors import UnusableInput
from audit.read.manifest import Manifest
from audit.steps.ceremony import ceremony_seed, check_bound
from audit.steps.ceremony_bundles import check_bundles, read_bundle
from audit.verify import attempt
from tests.support.ceremony import PARTIES, QUICKNET, commit, key, new_args, ok, reveal, rounds, seal
from tests.third_engines import ceremony as third
from tests.third_engines.ceremony_bundles import check_bundles as third_bundles
from tests.third_engines.ceremony_shape import problem


def _third(check, *args) -> tuple[str, str]:
    try:
        return "pass", check(*args)
    except third.Refused as refused:
        return "fail", str(refused)


def _manifest(sealed_run) -> dict:
    return json.loads((sealed_run.run / "manifest.json").read_bytes())


def test_the_third_engine_derives_the_real_ceremonys_seed_and_passes_what_audit_passes(sealed_run):
    manifest, doc = _manifest(sealed_run), json.loads(sealed_run.file.read_bytes())
    assert third.transcript_hash(doc["transcript"]) == doc["transcript_sha256"]
    third.check_entry(manifest)
    seed = third.ceremony_seed(manifest, doc)  # raises unless its commitment is the generated run's
    assert third.seed_commitment(seed) == manifest["seed_commitment"]["value"] == doc["seed_commitment"]
    audited = ceremony_seed(Manifest.parse((sealed_run.run / "manifest.json").read_bytes()), doc)
    assert audited[0] == seed


def test_the_known_answer_rounds_verify_and_a_swapped_one_does_not():
    real = rounds()
    assert [third.round_verifies(n, r["signature"]) for n, r in sorted(real.items())] == [True, True]
    assert third.round_verifies(1000, real[10024141]["signature"]) is False
    flipped = real[1000]["signature"][:-1] + ("0" if real[1000]["signature"][-1] != "0" else "1")
    assert third.round_verifies(1000, flipped) is False


def _entry_cases(manifest: dict) -> dict[str, dict]:
    """Tampered copies of a manifest's ceremony entry, each as an insider could write it."""
    out = {}
    real = rounds()

    def case(name, change):
        m = copy.deepcopy(manifest)
        change(m["ceremony"])
        out[name] = m

    case("honest", lambda e: None)
    case("commitment swapped", lambda e: e["commitments"][1].update(commitment="ab" * 32))
    case("round of another chain's randomness", lambda e: e["round"].update(randomness="cd" * 32))
    case("another real round's signature", lambda e: e["round"].update(
        signature=real[10024141]["signature"], randomness=real[10024141]["randomness"]))
    case("transcript edited", lambda e: e["transcript"].update(run_id="r2"))

    def rehashed(e):  # a transcript rewritten and hashed again: the commitments' signatures break
        e["transcript"]["beacon"]["reveals_close"] = "2023-08-23T14:59:59Z"
        e["transcript_sha256"] = third.transcript_hash(e["transcript"])
    case("transcript rehashed", rehashed)

    def late(e):
        e["transcript"]["beacon"]["reveals_close"] = "2023-08-23T15:59:24Z"  # round 1000's very second
        e["transcript_sha256"] = third.transcript_hash(e["transcript"])
    case("round at the close", late)

    def upper(e):
        e["transcript"]["parties"][0]["public_key"] = e["transcript"]["parties"][0]["public_key"].upper()
        e["transcript_sha256"] = third.transcript_hash(e["transcript"])
    case("key in upper case", upper)

    def rehash(change):
        def apply(e):
            change(e["transcript"])
            e["transcript_sha256"] = third.transcript_hash(e["transcript"])
        return apply
    case("another chain", rehash(lambda t: t["beacon"].update(chain="ab" * 32)))
    case("close with an offset",
         rehash(lambda t: t["beacon"].update(reveals_close="2023-08-23T15:00:00+00:00")))
    case("close on 30 February", rehash(lambda t: t["beacon"].update(reveals_close="2023-02-30T15:00:00Z")))
    case("one party", rehash(lambda t: t.update(parties=t["parties"][:1])))
    case("a name twice", rehash(lambda t: t["parties"][1].update(name=t["parties"][0]["name"])))
    case("one key twice", rehash(lambda t: t["parties"][1].update(public_key=t["parties"][0]["public_key"])))
    case("a short key", rehash(lambda t: t["parties"][1].update(public_key="ab" * 31)))
    case("round 564 s after the close",
         rehash(lambda t: t["beacon"].update(reveals_close="2023-08-23T15:50:00Z")))
    case("a round after the year 9999", rehash(lambda t: t["beacon"].update(round=2**62)))
    case("the last round of 9999", rehash(lambda t: t["beacon"].update(round=83_903_165_811)))
    case("follows nothing", rehash(lambda t: t.update(follows=[])))

    def swapped(e):
        e["commitments"][0]["name"], e["commitments"][1]["name"] = (e["commitments"][1]["name"],
                                                                    e["commitments"][0]["name"])
    case("commitment names swapped", swapped)
    case("commitments hash changed", lambda e: e.update(commitments_sha256="ef" * 32))
    case("another round number", lambda e: e["round"].update(round=10024141))
    case("follows itself", rehash(lambda t: t.update(follows=[{"run_id": "r", "manifest_sha256": "ab" * 32,
                                                               "transcript_sha256": "cd" * 32}])))
    return out


@pytest.mark.parametrize("name", ["honest", "commitment swapped", "round of another chain's randomness",
                                  "another real round's signature", "transcript edited",
                                  "transcript rehashed",
                                  "round at the close", "key in upper case", "another chain",
                                  "close with an offset", "close on 30 February", "one party", "a name twice",
                                  "one key twice", "a short key", "follows nothing", "follows itself",
                                  "a round after the year 9999", "the last round of 9999",
                                  "round 564 s after the close", "commitment names swapped",
                                  "commitments hash changed", "another round number"])
def test_step_5_on_the_manifests_entry_agrees_with_audit(sealed_run, name):
    tampered = _entry_cases(_manifest(sealed_run))[name]
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    manifest.doc["ceremony"] = tampered["ceremony"]
    audit_verdict = attempt(Step.FIGURES, check_bound, manifest, None, None)
    mine = _third(third.check_entry, tampered)
    assert mine[0] == audit_verdict[0], (mine, audit_verdict)
    if mine[0] == "fail":
        assert audit_verdict[1] == mine[1]


def _bundle(file: Path, out: Path) -> tuple[Path, dict]:
    ok("ceremony", "publish", str(file), "--out", str(out))
    return out, read_bundle(out)


def _own(sealed_run, out: Path) -> tuple[Path, dict]:
    """The sealed run's own bundle, as published before the reveals (a copy named `out`)."""
    shutil.copyfile(sealed_run.bundle, out)
    return out, read_bundle(out)


def _other(tmp_path: Path, name: str, run_id: str, pools: tuple[str, ...], abort: bool = False):
    """Ceremony c1 again (other keys) for `pools` under `run_id`, every party committed, published."""
    folder = tmp_path / name
    folder.mkdir()
    args = new_args(folder, folder / "c1.ceremony")
    args[args.index("--run-id") + 1] = run_id
    at = args.index("--pool")
    args[at:at + 2] = [a for p in pools for a in ("--pool", p)]
    ok(*args)
    for p in PARTIES:
        commit(folder / "c1.ceremony", p)
    if abort:
        ok("ceremony", "abort", str(folder / "c1.ceremony"), "--key", key(folder / "c1.ceremony", "auditor"),
           "--reason", "a key was lost", "--yes")
    return _bundle(folder / "c1.ceremony", tmp_path / f"{name}.json")


def test_step_5_on_published_bundles_agrees_with_audit_word_for_word(sealed_run, tmp_path):
    m = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    mine = _own(sealed_run, tmp_path / "c1.json")
    twin = _other(tmp_path, "twin", "r", ("p1",))
    aside = _other(tmp_path, "aside", "r-b", ("p1", "p2"))
    dropped = _other(tmp_path, "dropped", "r", ("p1",), abort=True)
    elsewhere = _other(tmp_path, "elsewhere", "r-c", ("p3", "p4"))

    def edited(base, name, change):
        doc = copy.deepcopy(base[1])
        change(doc)
        return tmp_path / name, doc

    def forged_abort(doc):
        doc["abort"] = {"name": "vendor", "reason": "forged", "signature": "00" * 64}

    def outsider_abort(doc):
        k = Ed25519PrivateKey.generate()
        msg = (b"poolgen/ceremony/abort/v2" + bytes.fromhex(doc["transcript_sha256"]) + third.lp(b"mallory")
               + third.lp(b"forged"))
        doc["abort"] = {"name": "mallory", "reason": "forged", "signature": k.sign(msg).hex()}

    def other_game(doc):
        doc["transcript"]["game"] = "465"
        doc["transcript_sha256"] = third.transcript_hash(doc["transcript"])

    cases = [
        [mine], [mine, elsewhere], [mine, dropped], [elsewhere, mine], [mine, twin], [mine, aside],
        [elsewhere],
        [edited(mine, "fork.json", lambda d: d["commitments"][0].update(commitment="00" * 32))],
        [edited(mine, "early.json", lambda d: d["commitments"].__setitem__(2, None))],
        [mine, edited(twin, "forged.json", forged_abort)],
        [mine, edited(twin, "outsider.json", outsider_abort)],
        [mine, edited(elsewhere, "unhashed.json", lambda d: d["transcript"].update(run_id="r"))],
        [mine, edited(elsewhere, "game.json", other_game)],
        [edited(mine, "own-aborted.json", lambda d: d.update(abort=dropped[1]["abort"]))],
        [_bundle(sealed_run.file, tmp_path / "sealed.json")],  # published after the seal and the run
        [edited(mine, "late.json", lambda d: d.update(seed_commitment="ab" * 32))],
    ]
    for bundles in cases:
        audit_verdict = attempt(Step.FIGURES, check_bundles, m, bundles)
        verdict = _third(third_bundles, _manifest(sealed_run), [(p.name, d) for p, d in bundles])
        assert verdict == audit_verdict, [p.name for p, _ in bundles]


def _revealed_cases(doc: dict) -> dict[str, dict]:
    out = {}

    def case(name, change):
        d = copy.deepcopy(doc)
        change(d)
        out[name] = d

    case("honest", lambda d: None)
    case("value changed", lambda d: d["reveals"][0].update(value="11" * 32))
    case("late stamp", lambda d: d["reveals"][1].update(revealed_at="2023-08-23T15:00:00Z"))
    case("short value", lambda d: d["reveals"][2].update(value="11" * 31))
    case("round swapped", lambda d: d["round"].update(signature=rounds()[10024141]["signature"]))
    case("reveal missing", lambda d: d["reveals"].__setitem__(1, None))
    case("aborted and a value changed", lambda d: (d["reveals"][0].update(value="11" * 32),
                                                   d.update(abort={"name": "lottery", "reason": "x",
                                                                   "signature": "00" * 64})))
    return out


@pytest.mark.parametrize("name", ["honest", "value changed", "late stamp", "short value", "round swapped",
                                  "aborted and a value changed"])
def test_step_7_on_the_revealed_file_agrees_with_audit(sealed_run, name):
    doc = _revealed_cases(json.loads(sealed_run.file.read_bytes()))[name]
    manifest = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    audit_verdict = attempt(Step.REPRODUCTION, ceremony_seed, manifest, doc, None)
    mine = _third(third.ceremony_seed, _manifest(sealed_run), doc)
    assert mine[0] == audit_verdict[0], (mine[0], audit_verdict)
    if mine[0] == "fail":
        assert mine[1] == audit_verdict[1]


def test_the_pinned_chain_is_the_documented_one():
    assert third.QUICKNET == QUICKNET


def test_a_twin_ceremony_under_a_renamed_game_id_is_refused_when_the_auditor_gives_it(sealed_run, tmp_path):
    # The insider's second seed for the same printed tickets: Wild Side's spec with only game.id changed
    # passes `check` and binds pool p1 under another game id, but the same printed game (transcript v4):
    # step 5 (and the third engine) refuse it as a second seed for the run, naming both bundles.
    twin_spec = tmp_path / "wild_side_b.toml"
    text = (Path(__file__).resolve().parents[2] / "specs" / "wild_side.toml").read_text()
    twin_spec.write_text(text.replace('id = "wild_side" ', 'id = "wild_side_b"', 1))
    ok("check", str(twin_spec))
    folder = tmp_path / "twin"
    folder.mkdir()
    args = new_args(folder, folder / "c1.ceremony")
    args[args.index("--spec") + 1] = str(twin_spec)
    ok(*args)
    for p in PARTIES:
        commit(folder / "c1.ceremony", p)
    twin = _bundle(folder / "c1.ceremony", tmp_path / "twin.json")
    assert twin[1]["transcript"]["game"] == "wild_side_b" and twin[1]["transcript"]["pools"] == ["p1"]
    mine = _own(sealed_run, tmp_path / "c1.json")
    m = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    why = ("bundle twin.json: ceremony c1 (under game id wild_side_b: this run's printed game, game 358 of "
           "K.A.R. 111-4-3762) also bound run r and was not aborted: its seed was one more to choose from "
           "(this run's ceremony c1 is bundle c1.json)")
    assert attempt(Step.FIGURES, check_bundles, m, [mine, twin]) == ("fail", why)
    assert _third(third_bundles, _manifest(sealed_run), [("c1.json", mine[1]), ("twin.json", twin[1])]) == (
        "fail", why)


def test_an_abort_signed_after_the_seed_was_sealed_is_refused(sealed_run, tmp_path):
    # The insider's re-roll: ceremony c1 for run r ran to the end (every reveal, the round, seal), its
    # seed was disliked, and a party signed an abort with its own code (`ceremony abort` refuses once
    # every party has revealed); the run was then seeded by another ceremony. A bundle holding both the
    # round (or the seed commitment, or the run) and an abort shows the abort followed the seed.
    folder = tmp_path / "rolled"
    folder.mkdir()
    file = folder / "c1.ceremony"
    ok(*new_args(folder, file))
    for p in PARTIES:
        commit(file, p)
    for p in PARTIES:
        assert reveal(file, p).exit_code == 0
    assert seal(file).exit_code == 0
    doc = json.loads(file.read_bytes())
    lottery = load_pem_private_key(Path(key(file, "lottery")).read_bytes(), None)
    reason = "a key was lost"
    message = (b"poolgen/ceremony/abort/v2" + bytes.fromhex(doc["transcript_sha256"]) + third.lp(b"lottery")
               + third.lp(reason.encode()))
    doc["abort"] = {"name": "lottery", "reason": reason, "signature": lottery.sign(message).hex()}  # type: ignore
    del doc["reveals"]
    rolled = tmp_path / "rolled.json"
    rolled.write_text(json.dumps(doc))
    mine = _own(sealed_run, tmp_path / "c1.json")
    m = Manifest.parse((sealed_run.run / "manifest.json").read_bytes())
    why = ("bundle rolled.json: ceremony c1 was aborted by lottery after its seed was sealed (round 1000): "
           "poolgen aborts only while a reveal is missing, so this abort followed a look at the seed, one "
           "more to choose from")
    assert attempt(Step.FIGURES, check_bundles, m, [mine, (rolled, read_bundle(rolled))]) == ("fail", why)
    assert _third(third_bundles, _manifest(sealed_run), [("c1.json", mine[1]), ("rolled.json", doc)]) == (
        "fail", why)
    doc["round"] = doc["seed_commitment"] = None  # a careful insider publishes it unsealed: not seen
    bundles = [("c1.json", mine[1]), ("rolled.json", doc)]
    assert _third(third_bundles, _manifest(sealed_run), bundles)[0] == "pass"


def _malformed(bundle: dict) -> dict[str, dict]:
    out = {}

    def case(name, change):
        d = copy.deepcopy(bundle)
        change(d)
        out[name] = d

    case("abort missing", lambda d: d.pop("abort"))
    case("two missing", lambda d: (d.pop("run"), d.pop("abort")))
    case("an extra field", lambda d: d.update(reveals=[], zeta=1))
    case("upper-case commitment", lambda d: d["commitments"][0].update(commitment="AB" * 32))
    case("a short signature", lambda d: d["commitments"][1].update(signature="ab" * 63))
    case("pools empty", lambda d: d["transcript"].update(pools=[]))
    case("a party not an object", lambda d: d["transcript"]["parties"].__setitem__(0, "vendor"))
    case("a party's extra field", lambda d: d["transcript"]["parties"][2].update(role="x"))
    case("a key as a number", lambda d: d["transcript"]["parties"][1].update(public_key=12345))
    case("round true", lambda d: d["transcript"]["beacon"].update(round=True))
    case("round zero", lambda d: d.update(round={"round": 0, "signature": "x", "randomness": "y"}))
    case("a long id", lambda d: d["transcript"].update(id=["x" * 60]))
    case("follows empty", lambda d: d["transcript"].update(follows=[]))
    case("book key short", lambda d: d["transcript"].update(book_key_check="abc"))
    case("one commitment short", lambda d: d["commitments"].pop())
    case("seed commitment upper", lambda d: d.update(seed_commitment="EF" * 32))
    case("abort reason number", lambda d: d.update(abort={"name": "vendor", "reason": 7, "signature": "s"}))
    case("an extra transcript field", lambda d: d["transcript"].update(note="x"))
    return out


def test_a_malformed_bundle_is_named_as_audit_names_it(sealed_run, tmp_path):
    bundle = _bundle(sealed_run.file, tmp_path / "c1.json")[1]
    assert problem(bundle) is None
    for name, doc in _malformed(bundle).items():
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(doc))
        with pytest.raises(UnusableInput) as info:
            read_bundle(path)
        assert str(info.value) == f"{path}: not a ceremony bundle: {problem(doc)}", name
