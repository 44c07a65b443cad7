"""An insider against the ceremony, as poolgen's own steps see it (docs/ceremony.md): a ceremony file
whose transcript the operator wrote and hashed by hand, and a party asked to reveal into a copy of the
ceremony whose other commitments were changed. Each is refused, naming why."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from audit.checklist import Step
from audit.read.manifest import Manifest
from audit.steps.ceremony import check_bound
from audit.verify import attempt
from poolgen.deliverables.validation import new_validation_key
from poolgen.run.signing import load_private_key, new_key_pair
from poolgen.seeds import transcript as tx
from poolgen.seeds.ceremony_file import load, save
from tests.support import spec_path
from tests.support.ceremony import AFTER, CLOSE, PARTIES, invoke, key, new_args, refused, revealed, seal
from tests.support.ceremony import commit as _commit
from tests.support.ceremony import new as _new
from tests.support.ceremony import reveal as _reveal


def _rehashed(tmp_path, change) -> str:
    """Ceremony c1 (from `ceremony new`) with its transcript changed and hashed again, as only a hand
    can: the hash no longer shows the change."""
    file = _new(tmp_path)
    doc = json.loads(file.read_bytes())
    change(doc["transcript"])
    doc["transcript_sha256"] = tx.transcript_hash(doc["transcript"])
    file.write_text(json.dumps(doc))
    return str(file)


def _same_key(t):
    t["parties"][1]["public_key"] = t["parties"][0]["public_key"]


def _late_close(t):
    t["beacon"]["reveals_close"] = "2023-08-23T16:30:00Z"  # round 1000 is out at 15:59:24


def _one_name(t):
    t["parties"][2]["name"] = "vendor"


def _tight_close(t):
    t["beacon"]["reveals_close"] = "2023-08-23T15:50:00Z"  # 564 s before round 1000


@pytest.mark.parametrize(("change", "message"), [
    (_same_key, "ceremony c1: parties 'vendor' and 'lottery' have the same key; each party has its own"),
    (_late_close, "ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, not after reveals "
                  "close (2023-08-23T16:30:00Z)"),
    (_one_name, "ceremony c1: party 'vendor' is named twice"),
    (_tight_close, "ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, 564 s after reveals "
                   "close (2023-08-23T15:50:00Z), not the 600 s (10 minutes) a party needs to see a reveal "
                   "arrive after the close"),
], ids=["one-key", "round-before-close", "one-name", "round-just-after-close"])
def test_a_transcript_hashed_again_by_hand_is_held_to_what_new_promises(tmp_path, change, message):
    refused(invoke("ceremony", "status", _rehashed(tmp_path, change)), message)


def test_a_party_reveals_one_contribution_under_one_set_of_commitments(tmp_path):
    # The operator (vendor) keeps the ceremony file. Once the others have revealed, it copies the file
    # with its own commitment replaced (signed with its own key: valid) and the reveals cleared, and
    # asks them to reveal again. With k such copies revealed before the close, it would pick, once the
    # round is out, whichever of k seeds it likes. A party's second reveal under other commitments is
    # refused; under the same commitments (a reveal saved twice) it is not.
    file = revealed(tmp_path)
    assert _reveal(file, "lottery").exit_code == 0  # the same commitments: no harm
    fork = load(file)
    vendor = load_private_key(Path(key(file, "vendor")))
    fork.commitments[0] = None
    fork.commit("vendor", vendor, b"\x07" * 32, datetime(2023, 8, 23, 14, tzinfo=UTC))
    fork.reveals = [None] * len(PARTIES)
    forked = tmp_path / "fork.ceremony"
    save(forked, fork)
    closed = [load(f).closed() for f in (file, forked)]
    refused(_reveal(forked, "lottery"),
            f"{tmp_path / 'lottery.contribution'}: was revealed under commitments {closed[0][:16]}..., not "
            f"these ({closed[1][:16]}...): one contribution is revealed under one set of commitments (did "
            "a party's commitment change after your reveal? then abort the ceremony)")
    assert load(forked).reveals[1] is None


def test_once_every_party_has_revealed_the_ceremony_is_not_aborted(tmp_path):
    # With every reveal in, whoever holds the file computes the seed the moment the round is out; an
    # abort signed then (and a new ceremony for the same run) would be a choice between pools.
    file = revealed(tmp_path)
    refused(invoke("ceremony", "abort", str(file), "--party", "vendor", "--key", key(file, "vendor"),
                   "--reason", "the pool looks wrong", "--yes", now="2023-08-23T16:00:00Z"),
            "ceremony c1: every party has revealed: round 1000 fixes the seed and nobody can stop it; an "
            "abort now could follow a look at the seed (seal it)")
    assert load(file).abort is None


def test_a_second_commitment_is_refused_and_writes_no_contribution(tmp_path):
    file = _new(tmp_path)
    _commit(file, "vendor")
    before = file.read_bytes()
    again = tmp_path / "vendor-again.contribution"
    refused(invoke("ceremony", "commit", str(file), "--party", "vendor", "--key", key(file, "vendor"),
                   "--contribution", str(again), "--yes"),
            "ceremony c1: party 'vendor' has already committed; a commitment is never replaced")
    assert file.read_bytes() == before and not again.exists()


def _sealed(folder: Path, *extra: str) -> Path:
    folder.mkdir()
    file = revealed(folder, *extra)
    assert seal(file).exit_code == 0
    return file


def test_a_book_key_is_bound_before_anyone_commits(tmp_path):
    # The book key's holder (the lottery, a party) knows every outcome by book slot once the round is
    # out; a book key made then could put the top prizes in the printed books it likes. So its check
    # value is bound at `new`, and generate takes that key only; audit's step 5 holds the manifest to it.
    checks = {k: new_validation_key(tmp_path / f"book-{k}.key") for k in "ab"}
    signing = new_key_pair(tmp_path / "keys")

    def generate(file: Path, book: str):
        return invoke("generate", str(spec_path("wild_side")), "--out", str(file.parent / "runs"), "--pool",
                      "p1", "--workers", "1", "--key", str(signing.private), "--ceremony", str(file),
                      "--book-key", str(tmp_path / f"book-{book}.key"), now=AFTER)

    unbound = _sealed(tmp_path / "unbound")
    refused(generate(unbound, "a"), "ceremony c1: bound no book key; one made after the seed could choose "
                                    "the printed books of the top prizes (bind its check value: ceremony "
                                    "new --book-key-check)")
    bound = _sealed(tmp_path / "bound", "--book-key-check", checks["a"])
    assert f", book key check {checks['a']}\n" in invoke("ceremony", "status", str(bound)).stdout
    refused(generate(bound, "b"), f"ceremony c1: bound book key check {checks['a']}; give that book key "
                                  f"(--book-key), not {checks['b']}")
    assert generate(bound, "a").exit_code == 0
    manifest = Manifest.parse((bound.parent / "runs" / "r" / "manifest.json").read_bytes())
    assert manifest.doc["ceremony"]["transcript"]["book_key_check"] == checks["a"]
    assert attempt(Step.FIGURES, check_bound, manifest, None, None)[0] == "pass"
    published = invoke("publish", str(bound.parent / "runs" / "r"), "--out", str(tmp_path / "bundle"),
                       "--public-key", str(signing.public))  # the bound check value is public
    assert published.exit_code == 0, published.output
    manifest.doc["print"]["book_key_check"] = checks["b"]
    assert attempt(Step.FIGURES, check_bound, manifest, None, None) == (
        "fail", f"the run is not the one ceremony c1 binds: book key check {checks['b']} (bound: "
                f"{checks['a']})")



def test_a_key_written_in_capitals_is_refused_though_it_hashes_as_before(tmp_path):
    # "AB" and "ab" are one byte to bytes.fromhex: the transcript hashes the same and every signature
    # verifies, so one key could be listed for two parties in two spellings; a key has one spelling
    def capitals(t):
        t["parties"][1]["public_key"] = t["parties"][1]["public_key"].upper()

    file = _rehashed(tmp_path, capitals)
    doc = json.loads(Path(file).read_bytes())
    doc["transcript"]["parties"][1]["public_key"] = doc["transcript"]["parties"][1]["public_key"].lower()
    assert tx.transcript_hash(doc["transcript"]) == doc["transcript_sha256"]
    refused(invoke("ceremony", "status", file),
            f"{file}: transcript.parties[1]: missing or of the wrong type")


def test_seal_refuses_a_reveal_signed_at_the_close_with_the_partys_own_key(tmp_path):
    # `reveal` refuses once reveals have closed; a party's own code can still write a reveal signed with its
    # key and its own late time into the shared file. Seal holds every reveal to the close again.
    file = revealed(tmp_path)
    doc = json.loads(file.read_bytes())
    auditor = load_private_key(Path(key(file, "auditor")))
    r = doc["reveals"][2]
    r["revealed_at"] = CLOSE
    r["signature"] = auditor.sign(tx.reveal_message(load(file).closed(), "auditor", bytes.fromhex(r["value"]),
                                                    CLOSE)).hex()
    file.write_text(json.dumps(doc))
    refused(seal(file), f"ceremony c1: party 'auditor' revealed at {CLOSE}, after reveals closed at {CLOSE}")
    assert json.loads(file.read_bytes())["seed_commitment"] is None  # nothing sealed


def test_a_contribution_of_an_aborted_ceremony_is_not_reused_in_the_next(tmp_path):
    # Ceremony c1 is aborted after the vendor revealed (its value is now in the parties' copies of the file).
    # In the restart c2 the vendor cannot commit that value again from its file (a contribution file is
    # never overwritten, and names its ceremony), nor reveal c1's file: the others could know it.
    file = _new(tmp_path)
    for p in PARTIES:
        _commit(file, p)
    assert _reveal(file, "vendor").exit_code == 0
    old = tmp_path / "vendor.contribution"
    again = tmp_path / "c2"
    again.mkdir()
    for p in PARTIES:
        (again / f"{p}-keys").symlink_to(tmp_path / f"{p}-keys")
    second = again / "c2.ceremony"
    args = new_args(again, second)
    args[args.index("--id") + 1] = "c2"
    assert invoke(*args).exit_code == 0
    vendor = ["--key", key(file, "vendor"), "--contribution", str(old), "--yes"]
    result = invoke("ceremony", "commit", str(second), *vendor)
    refused(result, f"{old}: contribution file already exists; not overwriting it")
    for p in PARTIES:
        _commit(second, p)
    result = invoke("ceremony", "reveal", str(second), *vendor)
    refused(result, f"{old}: is a contribution to ceremony 'c1', not to this ceremony 'c2'")


@pytest.mark.parametrize(("close", "accepted", "first"), [
    ("2023-08-23T15:50:00Z", False, "1012 (2023-08-23T16:00:00Z)"),
    ("2023-08-23T15:49:25Z", False, "1001 (2023-08-23T15:59:27Z)"),
    ("2023-08-23T15:49:24Z", True, None)])
def test_the_round_is_due_ten_minutes_after_reveals_close_or_more(tmp_path, close, accepted, first):
    # The last to reveal (the operator, holding the file) waits for the round, then reveals or not with
    # revealed_at signed before the close by its own clock: one bit, stopped only by the others' abort at
    # the close. With the round due seconds after the close, a reveal arriving just after the round looks
    # on time to parties whose clocks and file copies lag by seconds; ten minutes late, it is seen.
    args = new_args(tmp_path, tmp_path / "t.ceremony")
    args[args.index("--reveals-close") + 1] = close
    result = invoke(*args)
    if accepted:
        assert result.exit_code == 0, result.output
    else:
        gap = 1692803367 + 3 * 999 - int(datetime.fromisoformat(close.replace("Z", "+00:00")).timestamp())
        refused(result, f"ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, {gap} s after "
                        f"reveals close ({close}), not the 600 s (10 minutes) a party needs to see a reveal "
                        "arrive after the close; the first round due 600 s or more after reveals close is "
                        f"{first}")  # `new` names the round to give instead


def test_a_ceremony_begun_before_the_ten_minute_rule_can_still_be_aborted_and_its_abort_published(tmp_path):
    # A ceremony made by the poolgen before the rule (round 1000 due 24 s after reveals close), one party
    # committed: no step toward a seed takes it now, but its parties must still be able to abort it and
    # publish the abort, or audit's step 5 takes its bundle for a ceremony of the run's pools that was not
    # aborted (one more seed to choose from) and refuses the run of the ceremony that replaces it.
    file = Path(_rehashed(tmp_path, lambda t: t["beacon"].update(reveals_close="2023-08-23T15:59:00Z")))
    message = ("ceremony c1: beacon round 1000 is published at 2023-08-23T15:59:24Z, 24 s after reveals "
               "close (2023-08-23T15:59:00Z), not the 600 s (10 minutes) a party needs to see a reveal "
               "arrive after the close")
    refused(invoke("ceremony", "commit", str(file), "--party", "vendor", "--key", key(file, "vendor"),
                   "--contribution", str(tmp_path / "vendor.contribution"), "--yes"), message)
    result = invoke("ceremony", "abort", str(file), "--party", "auditor", "--key", key(file, "auditor"),
                    "--reason", "begun before the ten-minute rule", "--yes", now=AFTER)
    assert result.exit_code == 0, result.output
    assert load(file, ending=True).abort["name"] == "auditor"
    bundle = tmp_path / "c1.bundle.json"
    result = invoke("ceremony", "publish", str(file), "--out", str(bundle), now=AFTER)
    assert result.exit_code == 0, result.output
    public = json.loads(bundle.read_bytes())
    assert public["abort"] == {"name": "auditor", "reason": "begun before the ten-minute rule",
                               "signature": public["abort"]["signature"]}
    refused(invoke("ceremony", "status", str(file)), message)


def test_a_commitment_after_reveals_close_is_refused_and_writes_no_contribution(tmp_path):
    # A party committing once reveals have closed (or once the round is out, knowing its randomness)
    # made a commitment no party could reveal under in time: poolgen recorded it and said "each party
    # reveals before" a time already past.
    file = _new(tmp_path)
    for p in ("vendor", "lottery"):
        _commit(file, p)
    before = file.read_bytes()
    for now in (CLOSE, AFTER, "2023-08-23T16:00:00Z"):
        refused(invoke("ceremony", "commit", str(file), "--key", key(file, "auditor"), "--contribution",
                       str(tmp_path / "auditor.contribution"), "--yes", now=now),
                f"ceremony c1: reveals closed at {CLOSE}; a commitment now could never be revealed in time "
                "(abort the ceremony)")
    assert file.read_bytes() == before
    assert not (tmp_path / "auditor.contribution").exists()


@pytest.mark.parametrize("written", ["2023-08-23T9:00:00Z", "2023-8-23T09:00:00Z", "2023-08-23T09:0:00Z"])
def test_a_time_without_every_digit_is_refused_as_audit_refuses_it(tmp_path, written):
    # strptime reads `2023-08-23T9:00:00Z` as 09:00; audit compares times as text and refuses it (step 5:
    # `reveals_close ... is not a UTC time`), so a hand-written transcript poolgen sealed and generated from
    # failed verify. Every step refuses it now, as it refuses an offset.
    file = _rehashed(tmp_path, lambda t: t["beacon"].update(reveals_close=written))
    refused(invoke("ceremony", "status", file), f"{file}: transcript.beacon.reveals_close: a UTC time is "
                                                f"written YYYY-MM-DDTHH:MM:SSZ, not {written!r}")
    args = new_args(tmp_path, tmp_path / "c2.ceremony")
    args[args.index("--reveals-close") + 1] = written
    refused(invoke(*args), f"--reveals-close: a UTC time is written YYYY-MM-DDTHH:MM:SSZ, not {written!r}")
